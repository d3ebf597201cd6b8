// Timers: the shell of the core's timer queue (SupervisorCore+Timers.swift). One task sleeps on the
// supervisor's clock until the earliest deadline; when it wakes, on the supervisor's actor, the core
// queues every timer then due, and a turn delivers them like events.

extension Supervisor {
    /// Applies a step's timer changes (a box calls this before the step's effects, for a flow with
    /// delayed transitions).
    @usableFromInline
    func scheduleTimers(_ changes: [FlowTimerChange], of machine: MachineID) {
        guard !changes.isEmpty else { return }
        core.applyTimers(changes, of: machine, now: timerNow())
    }

    /// Keeps one task sleeping until the earliest deadline (none when no timer is armed, or when the
    /// supervisor was created outside any actor: its timers then fire only when a test drives them).
    @usableFromInline
    func rescheduleTimers() {
        core.timersChanged = false
        let next = core.timerQueue.nextDeadline
        if timerSleeper?.deadline == next { return }
        timerSleeper?.task.cancel()
        timerSleeper = nil
        guard let next, isolation != nil else { return }
        timerSleepers &+= 1
        let number = timerSleepers
        let clock = timerClock
        let supervisor = WeakSupervisor(self)
        let instant = next - timerShift  // a deadline on the clock, before the time a test advanced
        // The task holds the actor as the supervisor does (``HeldIsolation``): an actor that keeps the
        // supervisor is not kept alive by its pending timers.
        let held = heldIsolation
        let task = Task {
            do { try await clock.sleep(until: instant) } catch { return }  // cancelled: re-armed or gone
            guard let isolation = held.actor else { return }
            await Supervisor.wakeTimers(supervisor, number: number, isolation: isolation)
        }
        timerSleeper = TimerSleeper(task: task, deadline: next, number: number)
    }

    private static func wakeTimers(_ supervisor: WeakSupervisor, number: UInt64, isolation: isolated any Actor) {
        // Back on the supervisor's isolation: the only place its state is touched.
        supervisor.value?.wakeTimers(number)
    }

    /// The sleeping task woke: every timer due now is queued, and delivered in a turn.
    private func wakeTimers(_ number: UInt64) {
        if timerSleeper?.number == number { timerSleeper = nil }
        fireDueTimers()
    }

    /// Queues every timer due on the clock now and, outside a step, delivers them in a turn (a timer
    /// due while a step is under way waits for it, behind what it queued).
    func fireDueTimers() {
        core.enqueueDue(at: timerNow())
        if !core.isProcessing { turn {} }
    }

    /// Fires a due timer of a running machine: the same step path as a queued event's (the step's
    /// effects, declared children stopped and started, output to the parent, failures).
    func fire(_ timer: FlowTimer, to slot: Int32) {
        stepQueued(slot, input: timer, what: "timer") { (box) throws(FlowError) in try box.fire(timer, in: self) }
    }

    /// The time on the supervisor's clock since its creation, plus what a test advanced
    /// (``advanceTimers(by:)``): what deadlines are.
    func timerNow() -> Duration { timerClock.now() + timerShift }

    /// Moves the supervisor's time on by `duration` without waiting (a test's virtual clock,
    /// FlowTesting's `FlowTreeTester.advance(by:)`): each timer that comes due meanwhile fires at its
    /// deadline, in deadline order (then arming order), in a turn of its own, so a timer armed by a
    /// timer's step counts from that step. Outside a step only.
    /// - Returns: How many timers came due.
    @discardableResult
    package func advanceTimers(by duration: Duration) -> Int {
        precondition(!core.isProcessing, "time is advanced outside a step")
        let end = timerNow() + duration
        var due = 0
        timerSleeper?.task.cancel()  // the time shifts: its deadline on the clock no longer holds
        timerSleeper = nil
        while let next = core.timerQueue.nextDeadline, next <= end {
            timerShift += max(next - timerNow(), .zero)
            due += core.timerQueue.count
            core.enqueueDue(at: timerNow())
            due -= core.timerQueue.count
            turn {}
        }
        timerShift += max(end - timerNow(), .zero)
        core.timersChanged = true
        rescheduleTimers()
        return due
    }

    /// The timers armed by the machine `id`, each with the time it has left, in arming order (for
    /// tests and snapshots).
    package func armedTimers(of id: MachineID) -> [(timer: FlowTimer, left: Duration)] {
        core.armedTimers(of: id, now: timerNow())
    }

    /// How many timers the tree has armed and not yet fired (for tests).
    package var armedTimerCount: Int { core.timerQueue.count + core.dueTimers.count }
}

/// The supervisor's sleeping task: the deadline it wakes at, and its number (a woken task that was
/// replaced meanwhile is recognised by it).
struct TimerSleeper {
    let task: Task<Void, Never>
    let deadline: Duration
    let number: UInt64
}
