// The compiler's third phase: the checks that report validation issues on the compiled structure
// (final states, delays, determinism, internal transitions, parallel re-entry, reachability).

extension FlowCompiler {
    // MARK: Checks

    mutating func checkFinalStates() {
        for node in nodes where node.output != nil {
            if let child = node.child {
                issues.append(.finalStateWithChild(state: label(node.state), child: child.name, location: node.location))
            }
        }
        for raw in raws where nodes[raw.source].output != nil {
            report(.finalStateWithTransitions, .error,
                   "final state '\(label(nodes[raw.source].state))' has an outgoing transition", raw.data.location)
        }
    }

    /// Whether some transition is delayed (``After``).
    var hasDelays: Bool { raws.contains { $0.data.delay != nil } }

    /// Reports a delay that is not positive, and a delayed transition of a final state or a history
    /// (which is never active long enough for a timer).
    mutating func checkDelays() {
        for raw in raws {
            guard let delay = raw.data.delay else { continue }
            let source = label(nodes[raw.source].state)
            if delay <= .zero {
                report(.invalidDelay, .error,
                       "delayed transition from '\(source)' has delay \(FlowTimer.label(of: delay)): a delay must be positive",
                       raw.data.location)
            }
            // (An `After` inside a `History` is refused with the history: a history declares nothing.)
            if nodes[raw.source].output != nil {
                report(.invalidDelay, .error,
                       "delayed transition declared on final state '\(source)', which never waits: declare it on a "
                           + "state the flow rests in", raw.data.location)
            }
        }
    }

    /// Delayed transitions each have their own timer. An unguarded one with a target leaves its
    /// state when its timer fires (external: its state is exited, and every timer of the state
    /// cancelled), so a delayed transition of the same state whose timer cannot fire first is never
    /// taken: a longer delay, or an equal one declared after it (timers due together fire in the
    /// order they were armed, the declaration order). A warning, as for events.
    mutating func checkDelayShadowing() {
        // Per source, its first shortest unguarded delayed transition with a target: (raw, delay).
        var shortest: [Int: (raw: Int, delay: Duration)] = [:]
        for (r, raw) in raws.enumerated() where raw.data.guardCondition == nil && rawTarget[r] >= 0 {
            guard let delay = raw.data.delay else { continue }
            if let known = shortest[raw.source], known.delay <= delay { continue }
            shortest[raw.source] = (r, delay)
        }
        for (r, raw) in raws.enumerated() {
            guard let delay = raw.data.delay, let (first, firstDelay) = shortest[raw.source], first != r,
                  firstDelay < delay || (firstDelay == delay && first < r)
            else { continue }
            report(.shadowedTransition, .warning,
                   "state '\(label(nodes[raw.source].state))' has a transition \(raw.data.eventLabel ?? "") that is "
                       + "never taken: the unguarded \(raws[first].data.eventLabel ?? "") at "
                       + "\(raws[first].data.location) leaves the state first",
                   raw.data.location, transition: FlowTransitionID(position: r))
        }
    }

    mutating func checkDeterminism() {
        var seen: [SourceEvent: Int] = [:]  // (source, event) -> first unguarded raw
        checkDelayShadowing()
        for (r, raw) in raws.enumerated() where raw.data.guardCondition == nil && raw.data.delay == nil {
            let key = SourceEvent(source: raw.source, event: raw.data.event)
            if let first = seen[key] {
                let on = raw.data.eventLabel.map { "on '\($0)'" } ?? "without an event"
                report(.shadowedTransition, .warning,
                       "state '\(label(nodes[raw.source].state))' has a transition \(on) that is never taken"
                           + (raw.data.update.map { " (its update '\($0.name)' never runs)" } ?? "")
                           + ": the unguarded one at \(raws[first].data.location) comes first",
                       raw.data.location, transition: FlowTransitionID(position: r))
            } else {
                seen[key] = r
            }
        }
    }

    /// Warns of each transition declared internal where that changes nothing (SCXML's rule: only a
    /// compound source whose every target lies strictly inside it is kept); it runs as an external one.
    mutating func checkInternalTransitions() {
        for r in raws.indices where raws[r].data.type == .internal && rawTarget[r] != -2 {
            let source = rawSource[r]
            let name = label(nodes[source].state)
            let why: String
            if rawTarget[r] < 0 {
                why = "it has no target, and a targetless transition exits nothing either way"
            } else if !hierarchy.isCompound(source) {
                why = "'\(name)' is \(hierarchy.isParallel(source) ? "parallel" : "atomic"): only a compound source stays "
                    + "active"
            } else if let outside = ([rawTarget[r]] + raws[r].moreTargets).first(where: { !hierarchy.isDescendant($0, of: source) }) {
                why = outside == source
                    ? "it targets '\(name)' itself, which it exits and enters again"
                    : "its target '\(label(nodes[outside].state))' is not inside '\(name)'"
            } else {
                continue
            }
            let on = raws[r].data.eventLabel.map { "on '\($0)'" } ?? "(eventless)"
            report(.ineffectiveInternal, .warning,
                   "transition from '\(name)' \(on) is declared internal, but runs as an external one: \(why)",
                   raws[r].data.location, transition: FlowTransitionID(position: r))
        }
    }

    /// Warns of each transition that exits and re-enters a parallel state containing one of its
    /// targets (SCXML's domain skips parallel states): every region of that state starts again and its
    /// exit and entry effects run again. The outermost such state is named; a transition that targets
    /// the parallel state itself, or a state in each of its regions, is a reset, meant as one, and not
    /// reported.
    mutating func checkParallelReentry() {
        guard hierarchy.hasParallel else { return }
        for r in raws.indices where rawTarget[r] >= 0 {
            let transition = hierarchyTransition(r)
            guard let domain = hierarchy.transitionDomain(of: transition) else { continue }
            var reentered = -1  // the outermost parallel state below the domain that the source is in and a target too
            for s in hierarchy.ancestorsOrSelf(of: transition.source) {
                if s == domain { break }
                if hierarchy.isParallel(s) && transition.targets.contains(where: { hierarchy.isDescendant($0, of: s) }) {
                    reentered = s
                }
            }
            guard reentered >= 0,
                  let target = transition.targets.first(where: { hierarchy.isDescendant($0, of: reentered) })
            else { continue }
            // A transition with a target in every region sets them all: a reset, meant as one.
            let untargeted = hierarchy.children(of: reentered).filter { region in
                !hierarchy.isHistory(region)
                    && !transition.targets.contains { $0 == region || hierarchy.isDescendant($0, of: region) }
            }
            guard !untargeted.isEmpty else { continue }
            // The region of the re-entered state that holds the target.
            var region = target
            while hierarchy.parent(of: region) != reentered { region = hierarchy.parent(of: region) }
            let source = transition.source
            let parallelName = label(nodes[reentered].state)
            let regionName = label(nodes[region].state)
            let wayOut: String
            if hierarchy.isCompound(source) && transition.targets.allSatisfy({ hierarchy.isDescendant($0, of: source) }) {
                wayOut = "declare it internal (`type: .internal`; SCXML `type=\"internal\"`) to keep the other regions"
            } else if target == region {
                wayOut = "to restart region '\(regionName)' alone, declare on it an internal transition to its initial "
                    + "state (`type: .internal`)"
            } else {
                // A source inside the target's region never gets here: their domain is in the region
                // (a compound state), or the region itself, and the parallel state is not exited.
                wayOut = "to move region '\(regionName)' alone, declare the transition on that region, internal "
                    + "(`type: .internal`), guarded by `.in(\(label(nodes[source].state)))` to keep its condition"
            }
            let restarted = untargeted.map { "'\(label(nodes[$0].state))'" }.joined(separator: ", ")
            let on = raws[r].data.eventLabel.map { "on '\($0)'" } ?? "(eventless)"
            report(.reentersParallelState, .warning,
                   "transition from '\(label(nodes[source].state))' \(on) to '\(label(nodes[target].state))' exits and "
                       + "re-enters parallel state '\(parallelName)' (an external transition's domain is never a "
                       + "parallel state): every region of '\(parallelName)' starts again (\(restarted) at its "
                       + "initial state) and its exit and entry effects run again; \(wayOut)",
                   raws[r].data.location, transition: FlowTransitionID(position: r))
        }
    }

    /// Reports the states no walk from the initial state reaches (``StructuralWalk``, over the leaves and
    /// the table's moves: each move settles in a leaf), and the reached leaves that are not final and
    /// have no move (dead ends). A flow with parallel or history states, or delayed transitions, is
    /// checked over SCXML's entry sets instead (``checkParallelReachability(initial:)``). Linear in the
    /// table.
    mutating func checkReachability(table: FlowTable<F>) {
        guard table.initialTarget >= 0 else { return }
        if hierarchy.hasParallel || hierarchy.hasHistory || hasDelays {
            return checkParallelReachability(initial: index[initial] ?? -1)
        }
        let n = nodes.count
        var walk = StructuralWalk(count: n)
        for leaf in 0..<n {
            for i in table.eventRanges[leaf]..<table.eventRanges[leaf + 1] {
                walk.addMove(from: leaf, entering: CollectionOfOne(Int(table.eventMoves[i].target)))
            }
            for i in table.eventlessRanges[leaf]..<table.eventlessRanges[leaf + 1] {
                walk.addMove(from: leaf, entering: CollectionOfOne(Int(table.eventlessMoves[i].target)))
            }
        }
        let reachedLeaf = walk.reached(from: CollectionOfOne(table.initialTarget))
        // A state is reached when a reached leaf is inside it: mark each such leaf's ancestors, up to
        // the first one already marked (whose own ancestors are marked already).
        var reached = [Bool](repeating: false, count: n)
        for leaf in 0..<n where reachedLeaf[leaf] {
            for s in hierarchy.ancestorsOrSelf(of: leaf) {
                if reached[s] { break }
                reached[s] = true
            }
        }
        for i in nodes.indices where !reached[i] {
            report(.unreachableState, .warning,
                   "state '\(label(nodes[i].state))' is unreachable from the initial state '\(label(initial))'",
                   nodes[i].location)
        }
        for leaf in 0..<n where reachedLeaf[leaf] && !table.isFinal[leaf] {
            if table.eventRanges[leaf] == table.eventRanges[leaf + 1]
                && table.eventlessRanges[leaf] == table.eventlessRanges[leaf + 1] {
                report(.deadEnd, .warning,
                       "state '\(label(nodes[leaf].state))' is not final and has no transition out (dead end)",
                       nodes[leaf].location)
            }
        }
    }

    /// Reachability for a flow with parallel states (or history states, whose targets enter their
    /// defaults here: what a history remembers was entered before): a state is reached when the initial entry enters
    /// it, or when a transition declared on a reached state (or a completion transition waiting for one)
    /// enters it, SCXML's entry set from the transition's domain (``StructuralWalk/entering(_:in:)``). An over-approximation (guards and
    /// the regions' combinations are not considered), so what it calls unreachable is. Dead ends are
    /// not reported inside parallel states, where a region resting in a state without transitions is
    /// common.
    mutating func checkParallelReachability(initial initialIndex: Int) {
        guard initialIndex >= 0 else { return }
        let transitions = raws.indices.filter { rawTarget[$0] >= 0 }.map { hierarchyTransition($0) }
        let reached = StructuralWalk.entering(transitions, in: hierarchy).reached(from: hierarchy.computeEntrySet(
            [FlowHierarchy.TransitionSpan(source: FlowHierarchy.root, targets: [initialIndex] + moreInitialIndices)]))
        for i in nodes.indices where !reached[i] && nodes[i].history == nil {
            report(.unreachableState, .warning,
                   "state '\(label(nodes[i].state))' is unreachable from the initial state '\(label(initial))'",
                   nodes[i].location)
        }
        for leaf in nodes.indices where reached[leaf] && hierarchy.isAtomic(leaf) && nodes[leaf].output == nil
            && nodes[leaf].history == nil && hierarchy.nearestParallelAncestor(of: leaf) < 0 && shortcuts.movesUp[leaf] < 0 {
            report(.deadEnd, .warning,
                   "state '\(label(nodes[leaf].state))' is not final and has no transition out (dead end)",
                   nodes[leaf].location)
        }
    }
}
