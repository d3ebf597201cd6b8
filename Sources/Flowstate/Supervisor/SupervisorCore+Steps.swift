// Steps: what a step is, the entry plan (declared children to stop and start), what follows a step,
// where a declared child goes, whether an async result is queued, where an output goes.

extension SupervisorCore {
    // MARK: Steps

    /// The declared children a step of the machine in `slot` stops: those of states it left (all of
    /// them when it finished; otherwise those whose state is no longer active, as the engine says),
    /// in reverse sibling order, the order siblings are torn down in: for declared children, SCXML's
    /// exit order, reverse document order of their states (``declaredPlacement(parent:state:)``).
    /// Dynamic children stay.
    func childrenToStop(of slot: Int32, finished: Bool, isActive: (Int32) -> Bool) -> [Int32] {
        var stopped: [Int32] = []
        var child = nodes[Int(slot)].lastChild
        while child >= 0 {
            let parentState = nodes[Int(child)].parentState
            if parentState >= 0 && (finished || !isActive(parentState)) {
                stopped.append(child)
            }
            child = nodes[Int(child)].previous
        }
        return stopped
    }

    /// What the tree does with a step it hears of before the step's effects (``stepKind(_:declaresChildren:)``).
    enum StepKind: Equatable {
        /// A start: the machine is reported spawned.
        case spawn
        /// A transition or a finish: the machine is reported moved, and, when `plansChildren`, its
        /// declared children are planned (``entryPlan(of:before:after:finished:declaresChild:)``).
        case move(plansChildren: Bool)
        /// Nothing: the event was ignored or rejected.
        case none
    }

    /// What a step is to the tree: a start counts as a spawn; a step that moved the machine (a
    /// transition, a finish) is a move, which plans the declared children when the flow declares any;
    /// any other step is nothing. Asked only when someone observes or the flow declares children.
    static func stepKind(_ summary: StepSummary, declaresChildren: Bool) -> StepKind {
        if summary.from < 0 { return .spawn }
        return summary.moved ? .move(plansChildren: declaresChildren) : .none
    }

    /// What a step does with the declared children of the machine that took it
    /// (``entryPlan(of:before:after:finished:declaresChild:)``).
    struct EntryPlan: Equatable {
        /// The declared children to tear down, before the step's effects, in teardown order:
        /// ``childrenToStop(of:finished:isActive:)``.
        var stop: [Int32] = []
        /// The states whose declared children to spawn and start next, once the step's effects are
        /// performed (unless one failed), in document order (outermost first, earlier regions first):
        /// the states the step entered that declare a child. Empty when the machine finished.
        var start: [Int32] = []
    }

    /// The entry plan of a step of the machine in `slot` that took it from the configuration `before`
    /// to `after` (the engine's active states, each sorted by state number, which is document order;
    /// `before` is empty for a start, which enters every active state): the declared children of the
    /// states it left stop (all of them when it `finished`), and those of the states it entered
    /// (active after, not before) start, for the states that declare one (`declaresChild`). A state
    /// exited and entered again by the step (a self-transition) was active before: its child keeps
    /// running. O(before + after) for the states entered (a merge), O(children × log after) for the
    /// stops.
    func entryPlan(of slot: Int32, before: [Int32], after: [Int32], finished: Bool,
                   declaresChild: (Int32) -> Bool) -> EntryPlan {
        let stop = childrenToStop(of: slot, finished: finished, isActive: { Self.contains(after, $0) })
        guard !finished else { return EntryPlan(stop: stop) }
        return EntryPlan(stop: stop, start: Self.entered(before: before, after: after).filter(declaresChild))
    }

    /// The states of `after` that are not in `before`, in `after`'s order: both are sorted ascending
    /// (configurations in document order), so this is one merge, O(before + after).
    static func entered(before: [Int32], after: [Int32]) -> [Int32] {
        var entered: [Int32] = []
        var b = 0
        for state in after {
            while b < before.count && before[b] < state { b += 1 }
            if b == before.count || before[b] != state { entered.append(state) }
        }
        return entered
    }

    /// Whether the ascending `configuration` holds `state`: a binary search.
    static func contains(_ configuration: [Int32], _ state: Int32) -> Bool {
        var low = 0
        var high = configuration.count
        while low < high {
            let middle = (low + high) / 2
            if configuration[middle] < state { low = middle + 1 } else { high = middle }
        }
        return low < configuration.count && configuration[low] == state
    }

    /// Where the declared child of the parent state `state` goes among the children of `parent`: last,
    /// unless a declared sibling runs in a state later in document order (another region of a
    /// parallel state, entered before): then right before the first such. So a machine's declared
    /// children are always in document order of their states (a state before its descendants,
    /// earlier regions first), and every teardown, which takes siblings in reverse order, tears them
    /// down in SCXML's exit order, whatever order they were spawned in. In a flow without parallel
    /// states the states of declared children are nested and spawned outermost first: the child goes
    /// last, in spawn order. The walk stops at the first declared sibling of an earlier state.
    func declaredPlacement(parent: Int32, state: Int32) -> Placement {
        var firstLater: Int32 = -1
        var c = nodes[Int(parent)].lastChild
        while c >= 0 {
            let s = nodes[Int(c)].parentState
            if s >= 0 {
                if s < state { break }
                firstLater = c
            }
            c = nodes[Int(c)].previous
        }
        guard firstLater >= 0 else { return Placement(parent: parent, state: state) }
        return Placement(parent: parent, state: state, after: nodes[Int(firstLater)].previous)
    }

    /// What follows the step of the machine `id`, once its effects are performed: a failure applies
    /// the policy of the machine that produced the failing effect (the machine itself when that one
    /// is gone); otherwise a machine still there completes if it finished, or spawns the declared
    /// children of the states it entered if it moved and its flow declares any.
    @inlinable
    func followUp(of id: MachineID, _ outcome: StepOutcome, declaresChildren: Bool) -> FollowUp {
        if let failure = outcome.failure { return .fail(slot(of: failure.origin) ?? id.slot, failure) }
        let summary = outcome.summary
        guard summary.kind == .finished || (summary.moved && declaresChildren), slot(of: id) != nil else {
            return .none
        }
        return summary.kind == .finished ? .complete : .startDeclaredChildren
    }

    /// What becomes of an async effect's result or failure when its task finishes
    /// (``taskResult(origin:target:)``).
    enum TaskResult: Equatable {
        /// Queue it: a result event for the target, a failure for the machine that started the work.
        case enqueue
        /// Drop it and report the machine that is gone: the one that started the work, else the target.
        case drop(MachineID)
    }

    /// What becomes of the result of async work that the machine `origin` started for `target`: it
    /// enters the queue while both are there; otherwise it is dropped (never delivered to a machine
    /// that is gone or to its successor), reported against `origin` if that one is gone, else
    /// `target`. Whether a queued result is then delivered is ``nextWork(released:)``'s question.
    func taskResult(origin: MachineID, target: MachineID) -> TaskResult {
        if slot(of: origin) == nil { return .drop(origin) }
        if slot(of: target) == nil { return .drop(target) }
        return .enqueue
    }

    /// Where the output of a machine that ran under `parent` goes, once the machine is torn down.
    func outputRoute(parent: Int32) -> OutputRoute {
        if parent < 0 { return .root }
        return isLive(parent) ? .parent(id(of: parent)) : .nowhere
    }
}
