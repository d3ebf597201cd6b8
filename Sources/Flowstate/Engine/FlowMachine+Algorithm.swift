// SCXML's algorithm (the recommendation's Appendix D,
// https://www.w3.org/TR/scxml/#AlgorithmforSCXMLInterpretation) over a configuration that is a set
// of states, one function per procedure under its name: the engine's reference. Every step of a flow
// with parallel or history states that the common step (FlowMachine+CommonStep.swift) does not take
// comes here, from the entry points in FlowMachine+Parallel.swift; a flow without them rests in one
// leaf and takes precompiled moves (FlowMachine.swift). The fast paths are checked against this file
// on every step of generated flows (ParallelEquivalenceTests, CommonStepTests).
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
        /// The compiled transitions, entries and exits of the flow (a flow that takes this path has them).
        let parallel: FlowParallelTable<F>
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
        /// The armed timers, as the macrostep's exits and entries change them, and what it did to them.
        var timers = FlowArmedTimers()
        var timerChanges: [FlowTimerChange] = []
        /// For ``FlowMachine/sendReportingMicrosteps(_:completions:)``: the microsteps taken, recorded as they are
        /// taken; `nil` (the machine's own steps) records nothing.
        var log: [FlowMicrostep]?
        /// Whether the `done.state` events raised are processed here (the machine's own steps) or
        /// only reported, for a driver to deliver in their turn.
        var completions = FlowCompletions.taken

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

        init(_ parallel: FlowParallelTable<F>, configuration: [Int32], context: F.Context) {
            self.parallel = parallel
            self.configuration = configuration
            self.context = context
        }

        func isActive(_ state: Int) -> Bool { FlowMachine.contains(configuration, state) }
    }

    // MARK: The main loop

    /// The rest of a macrostep (the recommendation's `mainEventLoop` before it waits for an external
    /// event): eventless transitions while any is enabled, else the next `done.state.<id>` event, until
    /// neither is left or the flow has finished.
    func runToFixedPoint(_ step: inout Macrostep, event: F.Event?) throws(FlowError) {
        while step.finishedIn < 0 {
            var (enabled, _) = selectTransitions(&step, kind: nil, event: event)
            if enabled.isEmpty {
                // A driver that asked for them delivers the `done.state` events itself (they were reported).
                guard step.completions == .taken, step.queueHead < step.internalQueue.count else { return }
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
    func selectTransitions(_ step: inout Macrostep, kind: F.Event.Kind?, doneOf: Int32 = -1,
                                   event: F.Event?) -> (enabled: [Int], matched: Bool) {
        let parallel = step.parallel
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
                        guard parallel.kinds[t] == nil && transition.doneOf < 0 && transition.target >= 0
                            && transition.delay == nil else {
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
    func conditionMatch(_ transition: FlowParallelTable<F>.CompiledTransition, _ parallel: FlowParallelTable<F>,
                                _ atomicState: Int, _ step: Macrostep, event: F.Event?) -> Bool {
        let g = Int(transition.guardIndex)
        guard g >= 0 else { return true }
        let asked = parallel.guardStates[g]
        if asked >= 0 { return step.isActive(Int(asked)) }
        return table.guardHolds(g, state: atomicState, event: event, context: step.context)
    }

    /// SCXML's `removeConflictingTransitions(enabledTransitions)`: of two transitions whose exit sets
    /// intersect, the one whose source is a descendant of the other's wins; otherwise the one selected
    /// first (document order of the atomic states) wins.
    func removeConflictingTransitions(_ enabled: [Int], _ step: Macrostep) -> [Int] {
        guard enabled.count > 1 else { return enabled }
        let parallel = step.parallel
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
    func hierarchyTransitions(_ transitions: [Int], _ parallel: FlowParallelTable<F>) -> [FlowHierarchy.TransitionSpan] {
        return transitions.map { t in
            let transition = parallel.transitions[t]
            guard transition.target >= 0 else { return FlowHierarchy.TransitionSpan(source: Int(transition.source), targets: []) }
            // SCXML's getTransitionDomain honours `type="internal"`: the hierarchy decides whether the
            // source is the domain.
            return FlowHierarchy.TransitionSpan(source: Int(transition.source),
                                            targets: [Int(transition.target)] + transition.moreTargets.map { Int($0) },
                                            isInternal: transition.isInternal)
        }
    }

    /// SCXML's `computeExitSet(transitions)` against the macrostep's configuration.
    func computeExitSet(_ transitions: [Int], _ step: Macrostep) -> [Int] {
        table.hierarchy.computeExitSet(hierarchyTransitions(transitions, step.parallel),
                                       configuration: step.configuration.lazy.map { Int($0) }, history: step.history)
    }

    /// SCXML's `microstep(enabledTransitions)`: the transitions' updates (Flowstate's, see the top of
    /// this file), then `exitStates`, `executeTransitionContent` and `enterStates`.
    func microstep(_ transitions: [Int], _ step: inout Macrostep, event: F.Event?) {
        let parallel = step.parallel
        step.beginMicrostep()
        for t in transitions where parallel.transitions[t].updates {
            table.applyUpdate(Int(parallel.transitions[t].declaration), &step.context, event: event)
        }
        exitStates(transitions, &step, event: event)
        executeTransitionContent(transitions, &step, event: event)
        enterStates(hierarchyTransitions(transitions, step.parallel), &step, event: event)
    }

    /// SCXML's `exitStates(enabledTransitions)`: what the histories of the exited states remember (of
    /// the configuration before any exit), then the exit set in exit order, each state's exit effects,
    /// and the state removed from the configuration.
    func exitStates(_ transitions: [Int], _ step: inout Macrostep, event: F.Event?) {
        let parallel = step.parallel
        let exitSet = computeExitSet(transitions, step)
        table.hierarchy.recordHistory(exiting: exitSet, configuration: step.configuration.lazy.map { Int($0) },
                                      into: &step.history)
        for s in exitSet {
            step.effects.append(contentsOf: table.effects(in: parallel.exits[s], context: step.context, event: event))
            if parallel.hasDelays { step.timers.disarm(state: s, into: &step.timerChanges) }
            remove(s, from: &step.configuration)
            step.record(.exit(s))
        }
    }

    /// SCXML's `executeTransitionContent(enabledTransitions)`: each transition's own effects, in order;
    /// each transition is reported as taken.
    func executeTransitionContent(_ transitions: [Int], _ step: inout Macrostep, event: F.Event?) {
        let parallel = step.parallel
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
    func enterStates(_ transitions: [FlowHierarchy.TransitionSpan], _ step: inout Macrostep, event: F.Event?) {
        let parallel = step.parallel
        let hierarchy = table.hierarchy
        for s in hierarchy.computeEntrySet(transitions, history: step.history) {
            insert(s, into: &step.configuration)
            if parallel.hasDelays { step.timers.arm(state: s, parallel, into: &step.timerChanges) }
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
    func isInFinalState(_ state: Int, _ step: Macrostep) -> Bool {
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

    func insert(_ state: Int, into configuration: inout [Int32]) {
        let low = Self.lowerBound(configuration, state)
        let s = Int32(truncatingIfNeeded: state)
        if low < configuration.count && configuration[low] == s { return }
        configuration.insert(s, at: low)
    }

    func remove(_ state: Int, from configuration: inout [Int32]) {
        let low = Self.lowerBound(configuration, state)
        if low < configuration.count && configuration[low] == Int32(truncatingIfNeeded: state) {
            configuration.remove(at: low)
        }
    }
}
