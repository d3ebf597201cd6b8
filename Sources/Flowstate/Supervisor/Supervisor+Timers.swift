// Timers: the shell of the core's timer queue (SupervisorCore+Timers.swift). One task sleeps on the
// supervisor's clock until the earliest deadline; when it wakes, on the supervisor's actor, the core
// queues every timer then due, and a turn delivers them like events.

extension Supervisor {
    /// Applies a step's timer changes (a box calls this before the step's effects, for a flow with
    /// delayed transitions).
    @usableFromInline
    func scheduleTimers(_ changes: [FlowTimerChange], of machine: MachineID) {
        guard !changes.isEmpty else { return }
        core.applyTimers(changes, of: machine, now: timerClock.now())
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
        guard let next, let isolation else { return }
        timerSleepers &+= 1
        let number = timerSleepers
        let clock = timerClock
        let supervisor = WeakSupervisor(self)
        let task = Task {
            do { try await clock.sleep(until: next) } catch { return }  // cancelled: re-armed or gone
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
        core.enqueueDue(at: timerClock.now())
        if !core.isProcessing { turn {} }
    }

    /// Fires a due timer of a running machine: the same step path as a queued event's (the step's
    /// effects, declared children stopped and started, output to the parent, failures).
    func fire(_ timer: FlowTimer, to slot: Int32) {
        let box = boxes[Int(slot)]!
        let outcome: StepOutcome
        do throws(FlowError) {
            outcome = try box.fire(timer, in: self)
        } catch {
            emit(.refused(box.id, event: "\(timer)", error: error))
            logger?.debug("timer refused", metadata: ["machine": "\(box.id)", "error": "\(error)"])
            return
        }
        followUp(box, outcome, starting: false)
    }

    /// The timers armed by the machine `id`, each with the time it has left, in arming order (for
    /// tests and snapshots).
    package func armedTimers(of id: MachineID) -> [(timer: FlowTimer, left: Duration)] {
        core.armedTimers(of: id, now: timerClock.now())
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
