import DequeModule

// Failures: what a failure does, decided by the core as one plan per walk up the tree; the shell
// (Supervisor+Failure.swift) performs the plan.

extension SupervisorCore {
    /// What a failure does to the machine it reaches, under the machine's policy.
    enum FailureAction: Equatable {
        /// Tear its subtree down; the parent is not told.
        case stop
        /// Tear its subtree down and start the same flow again in `placement`, its place, with the
        /// line's restart history.
        case restart(Placement, RestartHistory)
        /// Tear its subtree down, then tell `parent` (-1 for a root: nobody).
        case escalate(parent: Int32)
    }

    /// One thing the shell does for a failure, in a ``FailurePlan``'s order.
    enum FailureStep: Equatable {
        /// Tear the subtree of the machine in the slot down, for `.failed`.
        case tearDown(Int32)
        /// Tear the machine in the slot down and start its flow again in the placement, with the
        /// line's restart history (``FailureAction/restart(_:_:)``).
        case restart(Int32, Placement, RestartHistory)
        /// Tell the machine in the slot that a child failed (a tree event; its own policy comes next).
        case report(Int32)
    }

    /// A failure's walk up the tree, as far as the core can decide it alone.
    struct FailurePlan: Equatable {
        /// What to do, in order.
        var steps: [FailureStep] = []
        /// Where the walk waits for the user's failure mapping: the failed child that maps failures
        /// to events (already torn down by `steps`) and its parent. The shell calls the mapping; an
        /// event goes to the parent and ends the failure, `nil` escalates on: the shell asks for the
        /// plan from the parent (``failurePlan(from:whileStarting:now:policy:mapsFailures:)``).
        /// `nil` when the plan is complete.
        var mapping: (child: Int32, parent: Int32)?

        static func == (lhs: FailurePlan, rhs: FailurePlan) -> Bool {
            lhs.steps == rhs.steps && lhs.mapping?.child == rhs.mapping?.child && lhs.mapping?.parent == rhs.mapping?.parent
        }
    }

    /// What a failure of the machine in `slot` does, walking up the tree while failures escalate: at
    /// each machine its policy decides (``failure(of:policy:whileStarting:now:)``, restarts recorded);
    /// an escalating machine is torn down, then its parent, if still there, is told of the failure and
    /// its own policy applies, unless the escalating machine maps failures to events
    /// (`mapsFailures`), where the plan stops and waits for the mapping. Only the first machine can
    /// be failing while starting. Iterative: one step per machine of the walk. Calls no user code
    /// (`policy` and `mapsFailures` read the shell's records; `now` is the clock).
    mutating func failurePlan(from slot: Int32, whileStarting: Bool, now: () -> Duration,
                              policy: (Int32) -> FailurePolicy, mapsFailures: (Int32) -> Bool) -> FailurePlan {
        var plan = FailurePlan()
        var current = slot
        var starting = whileStarting
        while plan.mapping == nil {
            switch failure(of: current, policy: policy(current), whileStarting: starting, now: now) {
            case .stop:
                plan.steps.append(.tearDown(current))
                return plan
            case .restart(let placement, let history):
                plan.steps.append(.restart(current, placement, history))
                return plan
            case .escalate(let parent):
                plan.steps.append(.tearDown(current))
                guard let target = escalationTarget(parent) else { return plan }
                if mapsFailures(current) {
                    plan.mapping = (current, target)
                } else {
                    plan.steps.append(.report(target))
                    current = target
                    starting = false
                }
            }
        }
        return plan
    }

    /// What a failure does to the machine in `slot`, under `policy`. A restart is allowed while its
    /// line of incarnations has restarted fewer than `maxRestarts` times within the window (the
    /// restart is then recorded at `now()`, the only time the clock is read); a failure while
    /// starting again counts whatever the window. When no restart is allowed, the failure escalates.
    /// An allowed restart of a machine whose owner is gone (``Node/ownerGone``) stops it instead.
    mutating func failure(of slot: Int32, policy: FailurePolicy, whileStarting: Bool,
                          now: () -> Duration) -> FailureAction {
        let node = nodes[Int(slot)]
        switch policy {
        case .stop:
            return .stop
        case .restart(let maxRestarts, let window):
            var history = restarts[slot] ?? RestartHistory()
            let allowed = history.allow(maxRestarts: maxRestarts, within: window, now: now(),
                                        failedWhileStarting: whileStarting)
            restarts[slot] = history
            // A machine whose owner is gone is not restarted: a replacement would outlive its owner.
            if allowed && node.ownerGone { return .stop }
            if allowed {
                // In its place: same parent, same state, right after the same sibling (OTP).
                return .restart(Placement(parent: node.parent, state: node.parentState, after: node.previous), history)
            }
            return .escalate(parent: node.parent)
        case .escalate:
            return .escalate(parent: node.parent)
        }
    }

    /// Where a planned restart (``FailureStep/restart(_:_:_:)``) puts the replacement, once the failed
    /// machine is torn down (user code ran meanwhile: its exit effects, its hook, observers): its
    /// place, unless the place is gone (``canPlace(_:)``) or the failed machine's owner went away
    /// (`ownerGone`, which the shell learned during the teardown): then nothing is restarted.
    func restartPlace(_ placement: Placement, ownerGone: Bool) -> Placement? {
        guard canPlace(placement), !ownerGone else { return nil }
        return placement
    }

    /// Who an escalated failure is told, once the failed machine is torn down: its parent, when it is
    /// still there and not being torn down; `nil` for a root, or when the parent is going away too.
    func escalationTarget(_ parent: Int32) -> Int32? { parent >= 0 && isLive(parent) ? parent : nil }

    /// The restart history of the line whose current machine is in `slot`.
    func restartHistory(of slot: Int32) -> RestartHistory? { restarts[slot] }
}

/// The restarts of one line of incarnations of a machine, within its policy's window: only what the
/// window needs is kept (at most `maxRestarts` instants).
struct RestartHistory: Equatable {
    private(set) var instants: Deque<Duration> = []
    /// Failures while starting again, in a row: counted whatever the window, the `maxRestarts + 1`th
    /// escalates (so a machine that fails on every entry escalates after at most `maxRestarts + 1`
    /// restarts).
    var failedStarts = 0

    /// Records a restart at `now` if the policy allows one more; `false` means escalate.
    mutating func allow(maxRestarts: Int, within window: Duration, now: Duration, failedWhileStarting: Bool) -> Bool {
        while let first = instants.first, now - first > window { instants.removeFirst() }
        failedStarts = failedWhileStarting ? failedStarts + 1 : 0
        guard instants.count < maxRestarts, failedStarts <= maxRestarts else { return false }
        instants.append(now)
        if instants.count > max(maxRestarts, 0) { instants.removeFirst() }
        return true
    }
}
