// The engine of a flow with parallel states: SCXML's algorithm (the recommendation's Appendix D,
// https://www.w3.org/TR/scxml/#AlgorithmforSCXMLInterpretation) over a configuration that is a set
// of states, one function per procedure under its name. A flow without parallel states never comes
// here: its machine rests in one leaf and takes precompiled moves (FlowMachine.swift).
//
// What differs from the recommendation, and why:
// - There is no data model and no external queue: `send` is one macrostep for one external event.
//   The internal queue holds only `done.state.<id>` events, which the engine raises itself.
// - A transition's `Update` (Flowstate's only way to change the context) runs before the microstep's
//   executable content, in the order of the transitions, so that every effect a microstep derives
//   reads the context after its updates (the rule of a flat flow, docs/SEMANTICS.md).
// - A final state with no parallel ancestor finishes the flow (Flowstate's rule from before parallel
//   states; SCXML raises `done.state` of its parent and ends only on a top-level final). Inside a
//   parallel state a final state is SCXML's.
// - Eventless guards see the event that started the step (as in a flat flow).

extension FlowMachine {
    /// What one macrostep builds before the machine commits it: nothing is changed if it throws.
    @usableFromInline
    struct Macrostep {
        /// The active states, sorted by number (document order).
        var configuration: [Int32]
        var context: F.Context
        var effects: [F.Effect] = []
        var taken: [Int32] = []
        /// `done.state.<id>` events raised and not yet processed (state numbers), first in first out.
        var internalQueue: [Int32] = []
        var queueHead = 0
        /// The final state that finished the flow, or -1.
        var finishedIn = -1
        /// What the history states remember (SCXML's `historyValue`), as the macrostep changes it.
        var history: [Int: [Int]] = [:]
        /// How many eventless and completion microsteps were taken.
        var microsteps = 0
        /// For ``FlowMachine/sendReportingMicrosteps(_:)``: the microsteps taken, recorded as they are
        /// taken; `nil` (the machine's own steps) records nothing. When recording, `done.state`
        /// events are reported, not processed.
        var log: [FlowMicrostep]?

        /// Records one action in the current microstep's log, when recording.
        @inline(__always)
        mutating func record(_ action: FlowMicrostep.Action) {
            guard let last = log?.indices.last else { return }
            log?[last].actions.append(action)
        }

        /// Opens the log's next microstep, when recording.
        @inline(__always)
        mutating func beginMicrostep() {
            log?.append(FlowMicrostep(actions: []))
        }

        init(configuration: [Int32], context: F.Context) {
            self.configuration = configuration
            self.context = context
        }

        func isActive(_ state: Int) -> Bool { FlowMachine.contains(configuration, state) }
    }

    /// Whether the sorted `configuration` holds `state` (binary search).
    static func contains(_ configuration: [Int32], _ state: Int) -> Bool {
        var low = 0
        var high = configuration.count
        let s = Int32(truncatingIfNeeded: state)
        while low < high {
            let mid = (low &+ high) >> 1
            if configuration[mid] < s { low = mid &+ 1 } else { high = mid }
        }
        return low < configuration.count && configuration[low] == s
    }

    /// The first atomic state of `configuration` in document order (what ``state`` reports).
    func firstAtomic(of configuration: [Int32]) -> Int {
        let hierarchy = table.hierarchy
        for s in configuration where hierarchy.isAtomic(Int(s)) { return Int(s) }
        return Int(configuration.first ?? 0)
    }

    /// The atomic states of `configuration`, in document order, as states.
    func atomicStates(of configuration: [Int32]) -> [F.State] {
        let hierarchy = table.hierarchy
        return configuration.lazy.filter { hierarchy.isAtomic(Int($0)) }.map { self.table.states[Int($0)] }
    }

    // MARK: Entry points

    /// ``start()`` for a flow with parallel states: enters the initial state's entry set, then runs
    /// eventless and completion transitions to a fixed point.
    @usableFromInline
    mutating func startParallel() throws(FlowError) -> FlowStep<F> {
        var log: [FlowMicrostep]?
        return try startParallel(log: &log)
    }

    /// ``startParallel()``, recording its microsteps into `log` when it is not `nil`.
    private mutating func startParallel(log: inout [FlowMicrostep]?) throws(FlowError) -> FlowStep<F> {
        guard let parallel = table.parallel, !parallel.initialStates.isEmpty else { throw alreadyStarted() }
        var step = Macrostep(configuration: [], context: contextValue)
        step.history = historyValue
        step.log = log
        step.beginMicrostep()
        let start = FlowHierarchy.Transition(source: FlowHierarchy.root, targets: parallel.initialStates.map { Int($0) })
        enterStates([start], &step, event: nil)
        try runToFixedPoint(&step, event: nil)
        log = step.log
        return commit(step, kind: .started, from: nil, event: nil)
    }

    /// ``start()``, reporting the microsteps it took (see ``sendReportingMicrosteps(_:)``).
    package mutating func startReportingMicrosteps() throws(FlowError) -> (step: FlowStep<F>, microsteps: [FlowMicrostep]) {
        guard phase == .ready else { throw alreadyStarted() }
        guard table.runsParallel else { return (try start(), []) }
        var log: [FlowMicrostep]? = []
        let step = try startParallel(log: &log)
        return (step, log ?? [])
    }

    /// ``send(_:)`` for a driver that runs content of its own around the engine (the flow files'
    /// interpreter): the step, and, for a flow with parallel states, each microstep it took, with the
    /// states exited and entered and the transitions taken, in the order the engine took them.
    ///
    /// `done.state.<id>` events are not processed by the engine in this form: each is reported
    /// (``FlowMicrostep/Action/done(_:)``) right after the entry of the final state that raised it,
    /// for the caller to queue with the events its own content raises and to deliver as events in
    /// their turn (SCXML's internal queue holds both, in the order raised). Eventless transitions are
    /// taken as ``send(_:)`` takes them. For a flow without parallel states, the step alone is
    /// returned (its ``FlowStep/transitions`` say what it did) and nothing is recorded: flat flows pay
    /// nothing for this.
    package mutating func sendReportingMicrosteps(_ event: F.Event) throws(FlowError)
        -> (step: FlowStep<F>, microsteps: [FlowMicrostep])
    {
        guard phase == .runningParallel else { return (try send(event), []) }
        var log: [FlowMicrostep]? = []
        let step = try sendParallel(event, log: &log)
        return (step, log ?? [])
    }

    /// ``send(_:)`` for a flow with parallel states: one macrostep.
    @usableFromInline
    mutating func sendParallel(_ event: F.Event) throws(FlowError) -> FlowStep<F> {
        var log: [FlowMicrostep]?
        return try sendParallel(event, log: &log)
    }

    /// ``sendParallel(_:)``, recording its microsteps into `log` when it is not `nil`.
    private mutating func sendParallel(_ event: F.Event, log: inout [FlowMicrostep]?) throws(FlowError) -> FlowStep<F> {
        let before = active
        var step = Macrostep(configuration: before, context: contextValue)
        step.history = historyValue
        step.log = log
        let (enabled, matched) = selectTransitions(&step, kind: event.kind, event: event)
        guard !enabled.isEmpty else {
            guard matched || table.unhandled == .ignore else { throw unhandledError(for: event) }
            return FlowStep(kind: matched ? .rejected : .ignored, state: table.states[firstAtomic(of: before)],
                            from: nil, event: event, effects: FlowEffects(), transitions: FlowTransitions(),
                            output: nil, leaves: atomicStates(of: before))
        }
        let transitions = removeConflictingTransitions(enabled, step)
        microstep(transitions, &step, event: event)
        // A flow with history states but no parallel state runs here too; it keeps the rule of flows
        // without parallel states: a targetless transition is not followed by eventless ones.
        if table.hierarchy.hasParallel || transitions.contains(where: { table.parallel!.transitions[$0].target >= 0 }) {
            try runToFixedPoint(&step, event: event)
        }
        log = step.log
        return commit(step, kind: .transitioned, from: table.states[firstAtomic(of: before)], event: event)
    }

    /// ``stop()`` for a flow with parallel states: the exit effects of every active state, in reverse
    /// document order (a state's descendants before it, later regions before earlier ones).
    func stopEffectsParallel() -> FlowEffects<F.Effect> {
        guard let parallel = table.parallel else { return FlowEffects() }
        var effects: [F.Effect] = []
        for s in active.reversed() {
            effects.append(contentsOf: table.effects(in: parallel.exits[Int(s)], context: contextValue, event: nil))
        }
        return FlowEffects(effects)
    }

    /// Makes the macrostep the machine's, and the step that reports it.
    private mutating func commit(_ step: Macrostep, kind: FlowStepKind, from: F.State?, event: F.Event?)
        -> FlowStep<F>
    {
        active = step.configuration
        contextValue = step.context
        historyValue = step.history
        let transitions = FlowTransitions(declarations: step.taken)
        let effects = FlowEffects(step.effects)
        if step.finishedIn >= 0 {
            current = step.finishedIn
            phase = .finished
            let output = table.outputs[step.finishedIn]!.compute(contextValue, event)
            finalOutput = output
            return FlowStep(kind: .finished, state: table.states[step.finishedIn], from: from, event: event,
                            effects: effects, transitions: transitions, output: output,
                            leaves: atomicStates(of: step.configuration))
        }
        current = firstAtomic(of: step.configuration)
        phase = .runningParallel
        return FlowStep(kind: kind, state: table.states[current], from: from, event: event, effects: effects,
                        transitions: transitions, output: nil, leaves: atomicStates(of: step.configuration))
    }

    // MARK: The main loop

    /// The rest of a macrostep (the recommendation's `mainEventLoop` before it waits for an external
    /// event): eventless transitions while any is enabled, else the next `done.state.<id>` event, until
    /// neither is left or the flow has finished.
    private func runToFixedPoint(_ step: inout Macrostep, event: F.Event?) throws(FlowError) {
        while step.finishedIn < 0 {
            var (enabled, _) = selectTransitions(&step, kind: nil, event: event)
            if enabled.isEmpty {
                // A recording driver delivers the `done.state` events itself (they were reported).
                guard step.log == nil, step.queueHead < step.internalQueue.count else { return }
                let done = step.internalQueue[step.queueHead]
                step.queueHead += 1
                (enabled, _) = selectTransitions(&step, kind: nil, doneOf: done, event: event)
                if enabled.isEmpty { continue }
            }
            step.microsteps += 1
            if step.microsteps > FlowTable<F>.eventlessLimit {
                throw FlowError(
                    code: .eventlessLoop,
                    message: "flow '\(table.name)' took \(FlowTable<F>.eventlessLimit) eventless transitions "
                        + "without settling: check the guards of its eventless transitions"
                )
            }
            microstep(removeConflictingTransitions(enabled, step), &step, event: event)
        }
    }

    // MARK: Selecting transitions

    /// SCXML's `selectTransitions(event)` and `selectEventlessTransitions()`: for each active atomic
    /// state in document order, the first transition of it or of its ancestors (innermost first, each
    /// state's in declaration order) that matches and whose guard holds; each transition once.
    ///
    /// Matching: `kind` for an external event; else `doneOf` for a completion event; else the
    /// eventless transitions (with a target: a targetless eventless transition would never settle).
    /// Also returns whether some transition matched, guards aside (a rejected event).
    private func selectTransitions(_ step: inout Macrostep, kind: F.Event.Kind?, doneOf: Int32 = -1,
                                   event: F.Event?) -> (enabled: [Int], matched: Bool) {
        guard let parallel = table.parallel else { return ([], false) }
        let hierarchy = table.hierarchy
        var enabled: [Int] = []
        var matched = false
        for atomic in step.configuration where hierarchy.isAtomic(Int(atomic)) {
            let atomicState = Int(atomic)
            search: for s in hierarchy.ancestorsOrSelf(of: atomicState) {
                for t in parallel.ranges[s]..<parallel.ranges[s + 1] {
                    let transition = parallel.transitions[t]
                    if let kind {
                        guard parallel.kinds[t] == kind else { continue }
                    } else if doneOf >= 0 {
                        guard transition.doneOf == doneOf else { continue }
                    } else {
                        guard parallel.kinds[t] == nil && transition.doneOf < 0 && transition.target >= 0 else {
                            continue
                        }
                    }
                    matched = true
                    guard conditionMatch(transition, parallel, atomicState, step, event: event) else { continue }
                    if !enabled.contains(t) { enabled.append(t) }
                    break search
                }
            }
        }
        return (enabled, matched)
    }

    /// SCXML's `conditionMatch(t)`: the transition's guard holds (an ``Guard/in(_:)`` guard asks the
    /// configuration).
    private func conditionMatch(_ transition: FlowParallelTable<F>.Transition, _ parallel: FlowParallelTable<F>,
                                _ atomicState: Int, _ step: Macrostep, event: F.Event?) -> Bool {
        let g = Int(transition.guardIndex)
        guard g >= 0 else { return true }
        let asked = parallel.guardStates[g]
        if asked >= 0 { return step.isActive(Int(asked)) }
        return table.guards[g](table.states[atomicState], event, step.context)
    }

    /// SCXML's `removeConflictingTransitions(enabledTransitions)`: of two transitions whose exit sets
    /// intersect, the one whose source is a descendant of the other's wins; otherwise the one selected
    /// first (document order of the atomic states) wins.
    private func removeConflictingTransitions(_ enabled: [Int], _ step: Macrostep) -> [Int] {
        guard enabled.count > 1, let parallel = table.parallel else { return enabled }
        let hierarchy = table.hierarchy
        var filtered: [Int] = []
        var exitSets: [[Int]] = []
        for t1 in enabled {
            let exit1 = computeExitSet([t1], step)
            var preempted = false
            var toRemove: [Int] = []
            for (k, t2) in filtered.enumerated() where !Set(exit1).isDisjoint(with: exitSets[k]) {
                if hierarchy.isDescendant(Int(parallel.transitions[t1].source), of: Int(parallel.transitions[t2].source)) {
                    toRemove.append(k)
                } else {
                    preempted = true
                    break
                }
            }
            guard !preempted else { continue }
            for k in toRemove.reversed() {
                filtered.remove(at: k)
                exitSets.remove(at: k)
            }
            filtered.append(t1)
            exitSets.append(exit1)
        }
        return filtered
    }

    // MARK: Microsteps

    /// The hierarchy's view of transitions of the table.
    private func hierarchyTransitions(_ transitions: [Int]) -> [FlowHierarchy.Transition] {
        guard let parallel = table.parallel else { return [] }
        return transitions.map { t in
            let transition = parallel.transitions[t]
            guard transition.target >= 0 else { return FlowHierarchy.Transition(source: Int(transition.source), targets: []) }
            return FlowHierarchy.Transition(source: Int(transition.source),
                                            targets: [Int(transition.target)] + transition.moreTargets.map { Int($0) })
        }
    }

    /// SCXML's `computeExitSet(transitions)` against the macrostep's configuration.
    private func computeExitSet(_ transitions: [Int], _ step: Macrostep) -> [Int] {
        table.hierarchy.computeExitSet(hierarchyTransitions(transitions),
                                       configuration: step.configuration.lazy.map { Int($0) }, history: step.history)
    }

    /// SCXML's `microstep(enabledTransitions)`: the transitions' updates (Flowstate's, see the top of
    /// this file), then `exitStates`, `executeTransitionContent` and `enterStates`.
    private func microstep(_ transitions: [Int], _ step: inout Macrostep, event: F.Event?) {
        guard let parallel = table.parallel else { return }
        step.beginMicrostep()
        for t in transitions where parallel.transitions[t].updates {
            if let update = table.updates[Int(parallel.transitions[t].declaration)] { update(&step.context, event) }
        }
        exitStates(transitions, &step, event: event)
        executeTransitionContent(transitions, &step, event: event)
        enterStates(hierarchyTransitions(transitions), &step, event: event)
    }

    /// SCXML's `exitStates(enabledTransitions)`: what the histories of the exited states remember (of
    /// the configuration before any exit), then the exit set in exit order, each state's exit effects,
    /// and the state removed from the configuration.
    private func exitStates(_ transitions: [Int], _ step: inout Macrostep, event: F.Event?) {
        guard let parallel = table.parallel else { return }
        let exitSet = computeExitSet(transitions, step)
        table.hierarchy.recordHistory(exiting: exitSet, configuration: step.configuration.lazy.map { Int($0) },
                                      into: &step.history)
        for s in exitSet {
            step.effects.append(contentsOf: table.effects(in: parallel.exits[s], context: step.context, event: event))
            remove(s, from: &step.configuration)
            step.record(.exit(s))
        }
    }

    /// SCXML's `executeTransitionContent(enabledTransitions)`: each transition's own effects, in order;
    /// each transition is reported as taken.
    private func executeTransitionContent(_ transitions: [Int], _ step: inout Macrostep, event: F.Event?) {
        guard let parallel = table.parallel else { return }
        for t in transitions {
            let transition = parallel.transitions[t]
            step.effects.append(contentsOf: table.effects(in: transition.effects, context: step.context, event: event))
            step.taken.append(transition.declaration)
            step.record(.take(FlowTransitionID(position: Int(transition.declaration))))
        }
    }

    /// SCXML's `enterStates(enabledTransitions)`: the entry set in entry order, each state added to the
    /// configuration and its entry effects performed. Entering a final state finishes the flow when no
    /// parallel state contains it; otherwise it raises `done.state.<parent>`, and, when the parent is a
    /// region whose parallel state is now in a final state, `done.state.<parallel>`.
    private func enterStates(_ transitions: [FlowHierarchy.Transition], _ step: inout Macrostep, event: F.Event?) {
        guard let parallel = table.parallel else { return }
        let hierarchy = table.hierarchy
        for s in hierarchy.computeEntrySet(transitions, history: step.history) {
            insert(s, into: &step.configuration)
            step.record(.enter(s))
            step.effects.append(contentsOf: table.effects(in: parallel.entries[s], context: step.context, event: event))
            guard table.isFinal[s] else { continue }
            if parallel.finishes[s] {
                step.finishedIn = s
                return
            }
            let parent = hierarchy.parent(of: s)
            step.internalQueue.append(Int32(parent))
            step.record(.done(parent))
            let grandparent = parent >= 0 ? hierarchy.parent(of: parent) : FlowHierarchy.root
            if hierarchy.isParallel(grandparent) && isInFinalState(grandparent, step) {
                step.internalQueue.append(Int32(grandparent))
                step.record(.done(grandparent))
            }
        }
    }

    /// SCXML's `isInFinalState(s)`: a compound state is when one of its final children is active; a
    /// parallel state is when every region is. Iterative.
    private func isInFinalState(_ state: Int, _ step: Macrostep) -> Bool {
        let hierarchy = table.hierarchy
        var pending = [state]
        while let s = pending.popLast() {
            if hierarchy.isParallel(s) {
                pending.append(contentsOf: hierarchy.children(of: s).filter { !hierarchy.isHistory($0) })
            } else if !hierarchy.children(of: s).contains(where: { table.isFinal[$0] && step.isActive($0) }) {
                return false
            }
        }
        return true
    }

    // MARK: The configuration

    private func insert(_ state: Int, into configuration: inout [Int32]) {
        let s = Int32(truncatingIfNeeded: state)
        var low = 0
        var high = configuration.count
        while low < high {
            let mid = (low &+ high) >> 1
            if configuration[mid] < s { low = mid &+ 1 } else { high = mid }
        }
        if low < configuration.count && configuration[low] == s { return }
        configuration.insert(s, at: low)
    }

    private func remove(_ state: Int, from configuration: inout [Int32]) {
        let s = Int32(truncatingIfNeeded: state)
        var low = 0
        var high = configuration.count
        while low < high {
            let mid = (low &+ high) >> 1
            if configuration[mid] < s { low = mid &+ 1 } else { high = mid }
        }
        if low < configuration.count && configuration[low] == s { configuration.remove(at: low) }
    }
}

/// One microstep of a step of a flow with parallel states, as the engine took it: what
/// ``FlowMachine/sendReportingMicrosteps(_:)`` and ``FlowMachine/startReportingMicrosteps()``
/// report, for a driver that runs content of its own around the engine (the flow files' interpreter
/// runs each state's `<onexit>` and `<onentry>` and each transition's content from it). States are
/// numbered as the definition's hierarchy numbers them (``FlowDefinition/position(of:)``).
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
}
