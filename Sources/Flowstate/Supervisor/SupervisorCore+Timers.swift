// The supervisor's timers (delayed transitions, `After`): one queue for every machine of the tree,
// ordered by deadline. The core decides (what a step arms and cancels, what came due, which due timer
// is still worth firing, what a removed machine drops); the shell sleeps until the earliest deadline
// and delivers what the core gives it (Supervisor+Timers.swift).

/// A timer of one machine of a supervisor's tree: the key of the supervisor's timer queue.
struct MachineTimer: Hashable, Sendable {
    /// The machine that armed it.
    var machine: MachineID
    /// The timer, as its machine knows it.
    var timer: FlowTimer
}

extension SupervisorCore {
    /// Applies what a step of `machine` did to its timers: an armed timer comes due `delay` after
    /// `now`; a cancelled one is forgotten, even if it already came due and waits in the mailbox.
    mutating func applyTimers(_ changes: [FlowTimerChange], of machine: MachineID, now: Duration) {
        guard !changes.isEmpty else { return }
        for change in changes {
            let key = MachineTimer(machine: machine, timer: change.timer)
            switch change {
            case .arm(let timer, let delay):
                timerQueue.arm(key, at: now + delay)
                timersByMachine[machine, default: []].append(timer)
            case .cancel(let timer):
                forget(key)
                timersByMachine[machine]?.removeAll { $0 == timer }
                if timersByMachine[machine]?.isEmpty == true { timersByMachine[machine] = nil }
            }
        }
        timersChanged = true
    }

    /// Arms the timers of a restored machine, each due after the time it has `left`.
    mutating func restoreTimers(_ timers: [(timer: FlowTimer, left: Duration)], of machine: MachineID, now: Duration) {
        applyTimers(timers.map { .arm($0.timer, after: max($0.left, .zero)) }, of: machine, now: now)
    }

    /// Drops every timer of a machine (it is removed from the tree): none of them is delivered, even
    /// one that already came due.
    mutating func dropTimers(of machine: MachineID) {
        guard let timers = timersByMachine.removeValue(forKey: machine) else { return }
        for timer in timers { forget(MachineTimer(machine: machine, timer: timer)) }
        timersChanged = true
    }

    private mutating func forget(_ key: MachineTimer) {
        if timerQueue.cancel(key) == nil { dueTimers.remove(key) }
    }

    /// Queues every timer due at `now`, in the order they come due, behind what the mailbox holds:
    /// each is delivered in its turn (``nextWork(released:)``) unless it is cancelled meanwhile.
    mutating func enqueueDue(at now: Duration) {
        while let key = timerQueue.popDue(at: now) {
            dueTimers.insert(key)
            mailbox.append(.timer(key.machine, key.timer))
        }
        timersChanged = true
    }

    /// The slot of the running machine a due timer goes to, the timer now spent; `nil` when it was
    /// cancelled since it came due or its machine cannot take it (the timer is then dropped).
    mutating func takeDueTimer(_ key: MachineTimer) -> Int32? {
        guard dueTimers.remove(key) != nil else { return nil }
        timersByMachine[key.machine]?.removeAll { $0 == key.timer }
        if timersByMachine[key.machine]?.isEmpty == true { timersByMachine[key.machine] = nil }
        return runningSlot(of: key.machine)
    }

    /// The timers `machine` has armed and not yet fired, each with the time it has left at `now`
    /// (zero for one that came due and waits in the mailbox), in arming order.
    func armedTimers(of machine: MachineID, now: Duration) -> [(timer: FlowTimer, left: Duration)] {
        (timersByMachine[machine] ?? []).map { timer in
            let deadline = timerQueue.deadline(of: MachineTimer(machine: machine, timer: timer))
            return (timer, deadline.map { max($0 - now, .zero) } ?? .zero)
        }
    }
}
