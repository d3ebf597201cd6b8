// The compiler's second phase: linking the hierarchy, then building the table: every leaf's moves
// with their exits and entries, the parallel table and its layout of effects, the common step's moves.

extension FlowCompiler {
    // MARK: Structure

    /// Shortcuts over the tree, so that no walk visits a state it has nothing to collect from
    /// (exits, entries and transitions are usually declared on few of the states of a deep chain).
    struct Shortcuts {
        /// The nearest ancestor-or-self with exit effects, or -1.
        var exitUp: [Int] = []
        /// The nearest ancestor-or-self with entry effects, or -1.
        var entryUp: [Int] = []
        /// The first state with entry effects on the chain of initial children that starts at the
        /// state itself, or -1.
        var entryDown: [Int] = []
        /// The nearest ancestor-or-self that declares a transition with a known target (or none), or -1.
        var movesUp: [Int] = []
        /// `bySource[sourceRanges[s]..<sourceRanges[s + 1]]` are the transitions declared on `s`,
        /// unknown targets left out, in declaration order.
        var sourceRanges: [Int] = [0]
        var bySource: [Int] = []
        /// The domain of each transition with a known target, else -1.
        var domains: [Int] = []
    }

    /// Works out the shortcuts in one pass each. A state's index is greater than its parent's, so
    /// a forward pass sees every parent first and a backward pass every child first.
    mutating func link() {
        let n = nodes.count
        var s = Shortcuts()
        s.sourceRanges = [Int](repeating: 0, count: n + 1)
        for r in raws.indices where rawTarget[r] != -2 { s.sourceRanges[rawSource[r] + 1] += 1 }
        for i in 0..<n { s.sourceRanges[i + 1] += s.sourceRanges[i] }
        var fill = s.sourceRanges
        s.bySource = [Int](repeating: 0, count: s.sourceRanges[n])
        for r in raws.indices where rawTarget[r] != -2 {
            s.bySource[fill[rawSource[r]]] = r
            fill[rawSource[r]] += 1
        }
        s.exitUp = [Int](repeating: -1, count: n)
        s.entryUp = [Int](repeating: -1, count: n)
        s.movesUp = [Int](repeating: -1, count: n)
        for i in 0..<n {
            let p = hierarchy.parent(of: i)
            s.exitUp[i] = !exits[i].isEmpty ? i : (p >= 0 ? s.exitUp[p] : -1)
            s.entryUp[i] = !entries[i].isEmpty ? i : (p >= 0 ? s.entryUp[p] : -1)
            s.movesUp[i] = s.sourceRanges[i] < s.sourceRanges[i + 1] ? i : (p >= 0 ? s.movesUp[p] : -1)
        }
        s.entryDown = [Int](repeating: -1, count: n)
        for i in stride(from: n - 1, through: 0, by: -1) {
            let c = hierarchy.initialChild(of: i)
            s.entryDown[i] = !entries[i].isEmpty ? i : (c >= 0 ? s.entryDown[c] : -1)
        }
        s.domains = [Int](repeating: -1, count: raws.count)
        // Each transition's domain is decided here, once, from all its targets (an internal one's
        // included): a flat flow's moves exit and enter below it, and pay nothing at run time.
        for r in raws.indices where rawTarget[r] >= 0 {
            s.domains[r] = hierarchy.transitionDomain(of: hierarchyTransition(r)) ?? FlowHierarchy.root
        }
        shortcuts = s
    }

    /// Raw transition `r` as the hierarchy sees it: its source, its resolved targets (none when
    /// targetless or unknown), and whether it is declared internal.
    func hierarchyTransition(_ r: Int) -> FlowHierarchy.TransitionSpan {
        FlowHierarchy.TransitionSpan(source: rawSource[r], targets: rawTarget[r] >= 0 ? [rawTarget[r]] + raws[r].moreTargets : [],
                                 isInternal: raws[r].data.type == .internal)
    }

    /// The next state strictly above `s` in one of the shortcut arrays that point up.
    @inline(__always)
    func above(_ s: Int, in up: [Int]) -> Int {
        let p = hierarchy.parent(of: s)
        return p >= 0 ? up[p] : -1
    }

    /// Appends the exit effects of `leaf` and of its ancestors below `domain` (an ancestor of `leaf`,
    /// or -1), innermost first: the hierarchy's exit set of the move
    /// (``FlowHierarchy/appendChainExitSet(from:below:marked:to:)``), listed through the states that
    /// have exit effects only. `scratch` holds the states listed.
    func appendExits(from leaf: Int, below domain: Int, to effects: inout [Int32], scratch: inout [Int]) {
        scratch.removeAll(keepingCapacity: true)
        hierarchy.appendChainExitSet(from: leaf, below: domain, marked: shortcuts.exitUp, to: &scratch)
        for exited in scratch { effects.append(contentsOf: exits[exited]) }
    }

    /// Appends the entry effects of the states entered when entering `target` from inside `domain`
    /// (an ancestor of `target`, or -1): outermost first, down to the leaf `target` settles in, the
    /// hierarchy's entry set of the move (``FlowHierarchy/appendChainEntrySet(entering:below:markedUp:markedDown:to:)``),
    /// listed through the states that have entry effects only. `scratch` holds the states listed.
    func appendEntries(domain: Int, target: Int, to effects: inout [Int32], scratch: inout [Int]) {
        scratch.removeAll(keepingCapacity: true)
        hierarchy.appendChainEntrySet(entering: target, below: domain, markedUp: shortcuts.entryUp,
                                      markedDown: shortcuts.entryDown, to: &scratch)
        for entered in scratch { effects.append(contentsOf: entries[entered]) }
    }

    // MARK: Table

    func buildTable(initialIndex: Int) -> FlowTable<F> {
        var effects: [Int32] = []
        var guards: [Guard<F>] = []
        var guardIndex = [Int](repeating: -1, count: raws.count)
        var events: [F.Event.Kind?] = []
        events.reserveCapacity(raws.count)
        var guardStates: [Int32] = []
        for (r, raw) in raws.enumerated() {
            if let condition = raw.data.guardCondition {
                guardIndex[r] = guards.count
                guards.append(inGuardAnswered(condition))
                guardStates.append(Int32(condition.activeState.flatMap { index[$0] } ?? -1))
            }
            events.append(raw.data.event)
        }
        var eventRanges = [0]
        var eventMoves: [(kind: F.Event.Kind, move: FlowTable<F>.Move)] = []
        var eventlessRanges = [0]
        var eventlessMoves: [FlowTable<F>.Move] = []
        var scratch: [Int] = []
        // A flow with parallel states: how the common step takes each event move.
        let parallel = hierarchy.hasParallel
        var parallelMoves: [FlowTable<F>.ParallelMove] = []
        var parallelEntries: [Int32] = []
        var slowLeaf = [Bool](repeating: false, count: parallel ? nodes.count : 0)

        // For each leaf: the transitions declared on the leaf, then on its parent, and so on up, each
        // in declaration order; a move's effects are its exits, its own effects, then its entries.
        for leaf in nodes.indices {
            if hierarchy.isAtomic(leaf) && nodes[leaf].output == nil {
                var source = shortcuts.movesUp[leaf]
                while source >= 0 {
                    for r in shortcuts.bySource[shortcuts.sourceRanges[source]..<shortcuts.sourceRanges[source + 1]] {
                        let start = effects.count
                        var target = -1
                        var exitCount = 0
                        let declared = rawTarget[r]
                        if declared >= 0 {
                            let domain = shortcuts.domains[r]
                            appendExits(from: leaf, below: domain, to: &effects, scratch: &scratch)
                            exitCount = effects.count - start
                            effects.append(contentsOf: rawEffects[r])
                            appendEntries(domain: domain, target: declared, to: &effects, scratch: &scratch)
                            target = hierarchy.defaultEntryLeaf(of: declared)
                        } else {
                            effects.append(contentsOf: rawEffects[r])
                        }
                        let move = FlowTable<F>.Move(guardIndex: guardIndex[r], target: target,
                                                     effects: start..<effects.count, declaration: r,
                                                     updates: raws[r].data.update != nil,
                                                     local: isLocal(r, from: leaf))
                        if let kind = events[r] {
                            if parallel {
                                let common = commonParallelMove(move, r, from: leaf, exitCount: exitCount,
                                                                entries: &parallelEntries, scratch: &scratch)
                                if common.domain == FlowTable<F>.ParallelMove.slow { slowLeaf[leaf] = true }
                                parallelMoves.append(common)
                            }
                            eventMoves.append((kind, move))
                        } else if target >= 0 && raws[r].doneOf == -1 && raws[r].data.delay == nil {
                            eventlessMoves.append(move)
                        }
                    }
                    source = above(source, in: shortcuts.movesUp)
                }
            }
            eventRanges.append(eventMoves.count)
            eventlessRanges.append(eventlessMoves.count)
        }

        let stopEffects = layOutStopEffects(in: &effects)
        // A final state active inside a region has no compiled moves (its ancestors' transitions still
        // apply to it, by SCXML's selection): the general algorithm takes steps from there.
        for s in slowLeaf.indices where nodes[s].output != nil { slowLeaf[s] = true }
        // A flow with history states runs SCXML's algorithm too: a transition to a history enters what
        // it remembers, which no precompiled move knows. A flow without pays nothing for them.
        // So does a flow with delayed transitions: a timer is armed and cancelled as SCXML's entry and
        // exit sets enter and exit its state.
        let parallelTable = parallel || hierarchy.hasHistory || hasDelays
            ? layOutParallel(in: &effects, guardIndex: guardIndex, guardStates: guardStates) : nil
        let common = parallel ? FlowTable<F>.CommonParallelSteps(
            // What a history remembers is recorded as its state is exited: the general algorithm's work.
            enabled: eventlessMoves.isEmpty && emits.isEmpty && !hierarchy.hasHistory && !hasDelays,
            moves: parallelMoves, entries: parallelEntries,
            slowLeaf: slowLeaf.contains(true) ? slowLeaf : [],
            inStates: guardStates) : nil

        let initialStart = effects.count
        var initialTarget = -1
        if initialIndex >= 0 {
            appendEntries(domain: -1, target: initialIndex, to: &effects, scratch: &scratch)
            initialTarget = hierarchy.defaultEntryLeaf(of: initialIndex)
        }
        // A flow without parallel or history states: what each transition's moves exit and enter,
        // for the reporting entry points (the moves themselves carry only their laid-out effects).
        let flatReports: [FlowTable<F>.FlatReport] = parallelTable != nil ? [] : raws.indices.map { r in
            let declared = rawTarget[r]
            guard declared >= 0 else { return .init(domain: FlowTable<F>.FlatReport.targetless, leaf: -1) }
            return .init(domain: Int32(shortcuts.domains[r]), leaf: Int32(hierarchy.defaultEntryLeaf(of: declared)))
        }
        return FlowTable(
            states: nodes.map { $0.state }, index: index, hierarchy: hierarchy,
            outputs: nodes.map { $0.output }, childFlows: nodes.map { $0.child },
            eventRanges: eventRanges, eventMoves: eventMoves,
            eventlessRanges: eventlessRanges, eventlessMoves: eventlessMoves,
            guards: guards, effects: emits.isEmpty ? effects.map { pool[Int($0)] } : pool,
            recipe: emits.isEmpty ? nil : effects, emits: emits.map { $0.body },
            updates: raws.contains { $0.data.update != nil } ? raws.map { $0.data.update?.body } : [],
            initialTarget: initialTarget, initialEffects: initialStart..<effects.count,
            stopEffects: stopEffects, unhandled: unhandled, name: name, parallel: parallelTable, common: common,
            flatReports: flatReports,
            selection: FlowSelectionOrder(sourceRanges: shortcuts.sourceRanges, bySource: shortcuts.bySource)
        )
    }

    /// `condition`, or for an ``Guard/in(_:)`` guard of a flow without parallel states, a guard that
    /// answers from the current leaf (the only active atomic state: a state is active when the leaf is
    /// it or inside it). A flow with parallel states answers it from its configuration instead
    /// (``FlowParallelTable/guardStates``).
    func inGuardAnswered(_ condition: Guard<F>) -> Guard<F> {
        guard let asked = condition.activeState else { return condition }
        guard let state = index[asked] else { return condition }
        let hierarchy = hierarchy
        let index = index
        return Guard(name: condition.name) { leaf, _, _ in
            guard let l = index[leaf] else { return false }
            return hierarchy.isDescendantOrSelf(l, of: state)
        }
    }

    /// Whether the move of transition `r` from `leaf` exits and enters chains of states only, as in a
    /// flow without parallel states: no parallel state lies between the leaf and the domain, and
    /// entering the target enters none. Then its laid-out effects are those of SCXML's exit and entry
    /// sets, and a parallel flow's engine can take it as a flat one does.
    func isLocal(_ r: Int, from leaf: Int) -> Bool {
        guard hierarchy.hasParallel || hierarchy.hasHistory else { return true }
        let target = rawTarget[r]
        guard target >= 0 else { return true }
        // A move may exit a state whose history must record, or target a history.
        guard !hierarchy.hasHistory else { return false }
        guard raws[r].moreTargets.isEmpty else { return false }
        let domain = shortcuts.domains[r]
        for s in hierarchy.properAncestors(of: leaf, upTo: domain) where hierarchy.isParallel(s) { return false }
        for s in hierarchy.properAncestors(of: target, upTo: domain) where hierarchy.isParallel(s) { return false }
        return !hierarchy.defaultEntryEntersParallel(target)
    }

    /// How the common step of a flow with parallel states takes `move` (compiled from raw transition
    /// `r`, its first `exitCount` effects exits): a local move (``FlowTable/Move/local``) without an
    /// update that does not enter a final state replaces the states below its domain with the ones it
    /// enters (appended to `entries`); any other is left to SCXML's algorithm. `scratch` holds the
    /// states of the move's exit and entry sets.
    func commonParallelMove(_ move: FlowTable<F>.Move, _ r: Int, from leaf: Int, exitCount: Int,
                            entries: inout [Int32], scratch: inout [Int])
        -> FlowTable<F>.ParallelMove
    {
        let target = Int(move.target)
        guard move.local, !move.updates, target < 0 || nodes[target].output == nil else { return .slowMove }
        let content = rawEffects[r].count
        guard target >= 0 else {
            return .init(domain: Int(FlowTable<F>.ParallelMove.targetless), domainEnd: 0, exited: 0, exitCount: 0,
                         contentCount: content, entries: 0..<0)
        }
        let domain = shortcuts.domains[r]
        // A local move exits and enters one chain each (no parallel state): the hierarchy's chain sets.
        scratch.removeAll(keepingCapacity: true)
        hierarchy.appendChainExitSet(from: leaf, below: domain, to: &scratch)
        let exited = scratch.count
        scratch.removeAll(keepingCapacity: true)
        hierarchy.appendChainEntrySet(entering: rawTarget[r], below: domain, to: &scratch)
        let start = entries.count
        for entered in scratch { entries.append(Int32(entered)) }
        return .init(domain: domain, domainEnd: hierarchy.subtreeEnd(of: domain), exited: exited, exitCount: exitCount,
                     contentCount: content, entries: start..<entries.count)
    }

    /// Lays out what SCXML's algorithm reads for a flow with parallel states: each state's entry and
    /// exit effects, each transition's own effects, and the transitions declared on each state.
    func layOutParallel(in effects: inout [Int32], guardIndex: [Int], guardStates: [Int32])
        -> FlowParallelTable<F>
    {
        func layOut(_ codes: [Int32]) -> Range<Int> {
            let start = effects.count
            effects.append(contentsOf: codes)
            return start..<effects.count
        }
        let entryRanges = entries.map(layOut)
        let exitRanges = exits.map(layOut)
        var transitions: [FlowParallelTable<F>.CompiledTransition] = []
        var kinds: [F.Event.Kind?] = []
        var ranges = [0]
        for state in nodes.indices {
            for r in shortcuts.bySource[shortcuts.sourceRanges[state]..<shortcuts.sourceRanges[state + 1]]
            where raws[r].doneOf != -2 {
                transitions.append(.init(
                    source: Int32(state), target: Int32(rawTarget[r]),
                    moreTargets: raws[r].moreTargets.map { Int32($0) }, doneOf: Int32(raws[r].doneOf),
                    guardIndex: Int32(guardIndex[r]), declaration: Int32(r), effects: layOut(rawEffects[r]),
                    updates: raws[r].data.update != nil, isInternal: raws[r].data.type == .internal,
                    delay: raws[r].data.delay))
                kinds.append(raws[r].data.event)
            }
            ranges.append(transitions.count)
        }
        var finishes = [Bool](repeating: false, count: nodes.count)
        for i in nodes.indices where nodes[i].output != nil {
            finishes[i] = hierarchy.nearestParallelAncestor(of: i) < 0
        }
        let initialIndex = index[initial] ?? -1
        return FlowParallelTable(transitions: transitions, kinds: kinds, ranges: ranges, entries: entryRanges,
                                 exits: exitRanges, guardStates: guardStates, finishes: finishes,
                                 initialStates: initialIndex < 0 ? [] : ([initialIndex] + moreInitialIndices).map { Int32($0) },
                                 hasDelays: hasDelays)
    }

    /// For every state, the range of the exit effects of the state and of its ancestors, innermost
    /// first (what stopping a machine resting there performs).
    ///
    /// The ranges share storage: a state's first child is laid out just before it, so the child's
    /// range runs on into its parent's, and a chain of first children costs its own exits once. Any
    /// other child is laid out (with its own chain of first children) before a copy of its parent's
    /// range.
    func layOutStopEffects(in effects: inout [Int32]) -> [Range<Int>] {
        var stopEffects = [Range<Int>](repeating: 0..<0, count: nodes.count)
        var chain: [Int] = []
        var starts: [Int] = []
        for top in nodes.indices {
            let p = hierarchy.parent(of: top)
            if p >= 0 && hierarchy.children(of: p)[0] == top { continue }  // laid out in its parent's chain
            chain.removeAll(keepingCapacity: true)
            var s = top
            while true {
                chain.append(s)
                guard let first = hierarchy.children(of: s).first else { break }
                s = first
            }
            starts.removeAll(keepingCapacity: true)
            for s in chain.reversed() {
                starts.append(effects.count)
                effects.append(contentsOf: exits[s])
            }
            if p >= 0 {
                // The parent's chain starts at a lower index, so its range is already laid out.
                for k in stopEffects[p] { effects.append(effects[k]) }
            }
            let end = effects.count
            for (k, s) in chain.reversed().enumerated() { stopEffects[s] = starts[k]..<end }
        }
        return stopEffects
    }
}
