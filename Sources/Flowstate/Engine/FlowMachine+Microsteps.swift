// The engine's report of what a step did, microstep by microstep: the one answer to "which states
// did this step exit and enter", for every flow. A layer that needs it (the flow files' interpreter,
// FlowTesting's path and path finder, the tests) asks here and never works it out from the definition.
//
// - A flow with parallel or history states runs SCXML's algorithm (FlowMachine+Parallel.swift),
//   which records each microstep as it takes it.
// - A flow without them takes precompiled moves (FlowMachine.swift), which carry only their
//   laid-out effects. The compiler keeps, by transition, the domain and the leaf its moves settle in
//   (``FlowTable/FlatReport``): a move from leaf `l` exits `l`'s ancestors-or-self below the domain
//   and enters the states from below the domain down to the leaf, the hierarchy's exit and entry
//   sets of a move along one chain (FlowHierarchy+Sets.swift). The report replays the step's
//   transitions (``FlowStep/transitions``, one microstep each) over that. The ordinary `send` and
//   `start` do not change and pay nothing for it: these are separate entry points.

extension FlowMachine {
    /// ``start()``, reporting the microsteps it took (see ``sendReportingMicrosteps(_:completions:)``):
    /// the first one enters the initial states (entries only).
    package mutating func startReportingMicrosteps(completions: FlowCompletions = .reported)
        throws(FlowError) -> (step: FlowStep<F>, microsteps: [FlowMicrostep])
    {
        guard phase == .ready else { throw alreadyStarted() }
        if table.runsParallel {
            var log: [FlowMicrostep]? = []
            let step = try startParallel(log: &log, completions: completions)
            return (step, log ?? [])
        }
        let step = try start()
        let initial = table.initialTarget
        var entered: [Int] = []
        table.hierarchy.appendChainEntrySet(entering: initial, below: FlowHierarchy.root, to: &entered)
        let entry = FlowMicrostep(actions: entered.map { .enter($0) })
        return (step, [entry] + flatMicrosteps(from: initial, taking: step.transitions))
    }

    /// ``send(_:)``, reporting each microstep the step took, in the order the engine took it: the
    /// states exited, the transitions taken, the states entered. For a driver that runs content of
    /// its own around the engine (the flow files' interpreter), and for any layer that needs to know
    /// what a step exited and entered (a state entered and left again within one step included).
    ///
    /// - Parameter completions: What becomes of the `done.state.<id>` events a flow with parallel
    ///   states raises. ``FlowCompletions/reported``: the engine does not process them; each is
    ///   reported (``FlowMicrostep/Action/done(_:)``) right after the entry of the final state that
    ///   raised it, for the caller to queue with the events its own content raises and to deliver as
    ///   events in their turn (SCXML's internal queue holds both, in the order raised); the step then
    ///   stops short of what ``send(_:)`` does. ``FlowCompletions/taken``: the engine processes them as
    ///   ``send(_:)`` does (they are still reported), and the step is ``send(_:)``'s. A flow without
    ///   parallel states raises none (a final state finishes it).
    /// - Returns: The step, and its microsteps: none for a step that took no transition.
    package mutating func sendReportingMicrosteps(_ event: F.Event, completions: FlowCompletions = .reported)
        throws(FlowError) -> (step: FlowStep<F>, microsteps: [FlowMicrostep])
    {
        if phase == .runningParallel {
            var log: [FlowMicrostep]? = []
            let step = try sendParallel(event, log: &log, completions: completions)
            return (step, log ?? [])
        }
        let leaf = current
        let step = try send(event)
        return (step, flatMicrosteps(from: leaf, taking: step.transitions))
    }

    /// ``fire(_:)``, reporting each microstep the timer's step took (see
    /// ``sendReportingMicrosteps(_:completions:)``); none for a stale timer or a rejected one.
    package mutating func fireReportingMicrosteps(_ timer: FlowTimer, completions: FlowCompletions = .reported)
        throws(FlowError) -> (step: FlowStep<F>, microsteps: [FlowMicrostep])
    {
        guard let t = armedTransition(of: timer) else { return (ignoredTimerStep(timer), []) }
        var log: [FlowMicrostep]? = []
        let step = try fireGeneral(t, timer: timer, log: &log, completions: completions)
        return (step, log ?? [])
    }

    /// The microsteps of a flow without parallel or history states that took `transitions` from
    /// `leaf`: one per transition (an event's, then each eventless one), each exiting the hierarchy's
    /// exit set of the move (the active states below the transition's domain, innermost first),
    /// taking it, and entering its entry set (the states from below the domain down to the leaf it
    /// settles in, outermost first): ``FlowHierarchy/appendChainExitSet(from:below:marked:to:)`` and
    /// ``FlowHierarchy/appendChainEntrySet(entering:below:markedUp:markedDown:to:)``. A targetless
    /// transition exits and enters nothing.
    private func flatMicrosteps(from leaf: Int, taking transitions: FlowTransitions) -> [FlowMicrostep] {
        let hierarchy = table.hierarchy
        var leaf = leaf
        var microsteps: [FlowMicrostep] = []
        var states: [Int] = []
        for id in transitions {
            let report = table.flatReports[id.position]
            guard report.domain != FlowTable<F>.FlatReport.targetless else {
                microsteps.append(FlowMicrostep(actions: [.take(id)]))
                continue
            }
            let domain = Int(report.domain)
            var actions: [FlowMicrostep.Action] = []
            states.removeAll(keepingCapacity: true)
            hierarchy.appendChainExitSet(from: leaf, below: domain, to: &states)
            for s in states { actions.append(.exit(s)) }
            actions.append(.take(id))
            states.removeAll(keepingCapacity: true)
            hierarchy.appendChainEntrySet(entering: Int(report.leaf), below: domain, to: &states)
            for s in states { actions.append(.enter(s)) }
            microsteps.append(FlowMicrostep(actions: actions))
            leaf = Int(report.leaf)
        }
        return microsteps
    }
}

/// What becomes of the `done.state.<id>` events a step of a flow with parallel states raises, when
/// the step is reported microstep by microstep (``FlowMachine/sendReportingMicrosteps(_:completions:)``).
package enum FlowCompletions: Sendable {
    /// Reported, not processed: the caller delivers them as events in their turn (the flow files'
    /// interpreter, whose internal queue holds them beside the events its own content raises).
    case reported
    /// Processed by the engine, as ``FlowMachine/send(_:)`` does, and reported too.
    case taken
}

/// One microstep of a step, as the engine took it: what
/// ``FlowMachine/sendReportingMicrosteps(_:completions:)`` and
/// ``FlowMachine/startReportingMicrosteps(completions:)`` report, for a driver that runs content of
/// its own around the engine (the flow files' interpreter runs each state's `<onexit>` and
/// `<onentry>` and each transition's content from it) and for any layer that needs to know what a
/// step exited and entered. States are numbered as the definition's hierarchy numbers them
/// (``FlowDefinition/position(of:)``).
package struct FlowMicrostep: Hashable, Sendable {
    /// One thing the microstep did.
    package enum Action: Hashable, Sendable {
        /// A state was exited (in exit order: a state's descendants before it, later regions first).
        case exit(Int)
        /// A transition was taken: its own effects ran (after every exit, before any entry).
        case take(FlowTransitionID)
        /// A state was entered (in entry order: a state before its descendants, earlier regions first).
        case enter(Int)
        /// The final state just entered raised `done.state.<state>` (its parent, or, when that
        /// completed every region, the parallel state above it too).
        case done(Int)
    }

    /// What the microstep did, in order: the exits, the transitions, then the entries, each entry of
    /// a final state followed by the completions it raised. (A start's first microstep is the initial
    /// entry: entries only.)
    package var actions: [Action]

    /// A microstep that did `actions`.
    package init(actions: [Action]) { self.actions = actions }

    /// The states the microstep exited, in exit order.
    package var exited: [Int] { actions.compactMap { if case .exit(let s) = $0 { s } else { nil } } }

    /// The states the microstep entered, in entry order.
    package var entered: [Int] { actions.compactMap { if case .enter(let s) = $0 { s } else { nil } } }
}
