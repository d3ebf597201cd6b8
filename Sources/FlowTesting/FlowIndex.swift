import Flowstate

/// A definition's public declarations as flat arrays: what the path finder, the generators and the
/// structural reachability need, computed once, without recursion. The structural walks are
/// Flowstate's (`StructuralWalk`, which the compiler's reachability checks walk too); which leaf a
/// step's transitions were taken from is the engine's report
/// (`FlowMachine.sendReportingMicrosteps(_:completions:)`); the order each leaf's transitions are tried
/// in is the compiled table's (`FlowSelectionOrder`). The states' hierarchy is the definition's own
/// (``FlowHierarchy``, numbered as `definition.states`).
struct FlowIndex<F: Flow>: Sendable {
    let definition: FlowDefinition<F>
    /// The position of each state in `definition.states` (the compiler's number for it):
    /// `index.position[state]`, `nil` for a state the definition does not declare.
    var position: Positions { Positions(definition: definition) }
    /// The states' parents, children, ancestry and default entries.
    let hierarchy: FlowHierarchy
    /// Whether each state is final.
    let isFinal: [Bool]
    /// For each state taken as the current leaf: the transitions that apply to it, innermost state
    /// first, each state's in declaration order (the order the engine tries them, read from the
    /// compiled table: `FlowSelectionOrder`; a final leaf's ancestors' transitions included).
    let chains: [[Int]]
    /// The position of each transition's source, or -1 when it is not declared.
    let sources: [Int]
    /// The position of each transition's target, or -1 for a targetless transition or an undeclared target.
    let targets: [Int]
    /// The event kinds of the definition's transitions, each once, in declaration order.
    let kinds: [F.Event.Kind]
    /// For each state taken as the current leaf, the event kinds its chain reacts to, each once, in the
    /// order the engine tries them.
    let handledKinds: [[F.Event.Kind]]

    init(_ definition: FlowDefinition<F>) {
        self.definition = definition
        let states = definition.states
        let position = Positions(definition: definition)
        let hierarchy = definition.hierarchy
        self.hierarchy = hierarchy
        isFinal = states.map { $0.kind == .final }
        sources = definition.transitions.map { position[$0.source] ?? -1 }
        targets = definition.transitions.map { $0.target.flatMap { position[$0] } ?? -1 }
        let selection = definition.selectionOrder
        var chains = [[Int]](repeating: [], count: states.count)
        var handled = [[F.Event.Kind]](repeating: [], count: states.count)
        for leaf in states.indices {
            let chain = selection.transitions(from: leaf, in: hierarchy)
            var seen = Set<F.Event.Kind>()
            var kinds: [F.Event.Kind] = []
            for t in chain {
                if let kind = definition.transitions[t].event, seen.insert(kind).inserted { kinds.append(kind) }
            }
            chains[leaf] = chain
            handled[leaf] = kinds
        }
        self.chains = chains
        self.handledKinds = handled
        var seen = Set<F.Event.Kind>()
        kinds = definition.transitions.compactMap { $0.event }.filter { seen.insert($0).inserted }
    }

    /// The number of states.
    var count: Int { hierarchy.count }

    /// Whether `state` is `ancestor` or lies inside it.
    func isInside(_ state: Int, _ ancestor: Int) -> Bool { hierarchy.isDescendantOrSelf(state, of: ancestor) }

    /// The leaves a flow without parallel or history states was in, in order, while it took a step's
    /// transitions from `leaf`, as the engine reports the step (`FlowMachine.sendReportingMicrosteps(_:completions:)`,
    /// `FlowMachine.startReportingMicrosteps(completions:)`): each transition a microstep takes was
    /// taken from the leaf the microsteps before it settled in (the last state one entered). The leaf
    /// after the last one is the step's state.
    func leaves(taking microsteps: [FlowMicrostep], from leaf: Int) -> [Int] {
        var current = leaf
        var result: [Int] = []
        for microstep in microsteps {
            for action in microstep.actions {
                if case .take = action { result.append(current) }
            }
            if let settled = microstep.entered.last { current = settled }
        }
        return result
    }

    /// The event kinds the chains of `leaves` react to, each once: the first leaf's in the order the
    /// engine tries them, then the next one's new kinds (a flow with parallel states rests in several
    /// leaves, and offers each event to all of them).
    func handledKinds(inAny leaves: [Int]) -> [F.Event.Kind] {
        guard leaves.count > 1 else { return leaves.first.map { handledKinds[$0] } ?? [] }
        var seen = Set<F.Event.Kind>()
        var kinds: [F.Event.Kind] = []
        for leaf in leaves {
            for kind in handledKinds[leaf] where seen.insert(kind).inserted { kinds.append(kind) }
        }
        return kinds
    }

    /// In a flow with parallel states, the leaf each of `transitions` was taken from, as far as the
    /// configurations before (`from`) and after (`then`) the step tell: the first leaf of `from`
    /// inside the transition's source, else the first of `then`, else the source itself (a state
    /// entered and left again within the step).
    func leaves(taking transitions: FlowTransitions, from: [Int], then: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(transitions.count)
        for id in transitions {
            let source = sources[id.position]
            guard source >= 0 else {
                result.append(from.first ?? then.first ?? 0)
                continue
            }
            result.append(from.first { isInside($0, source) } ?? then.first { isInside($0, source) } ?? source)
        }
        return result
    }

    /// For each transition, the states taking it enters (SCXML's entry set: each target with its
    /// default entry, and its ancestors below the transition's domain with their other regions);
    /// empty for a targetless transition. What a flow with parallel states' structural reachability
    /// follows.
    func entrySets() -> [[Int]] {
        definition.transitions.indices.map { t in
            let targets = definition.transitions[t].targets.compactMap { position[$0] }
            guard sources[t] >= 0, !targets.isEmpty else { return [] }
            return hierarchy.computeEntrySet([FlowHierarchy.TransitionSpan(source: sources[t], targets: targets)])
        }
    }

    /// The structural walk over the states (`StructuralWalk`, following the hierarchy) whose moves are
    /// the declared transitions' entry sets (`entries`: ``entrySets()``): what a flow with parallel
    /// states' structural reachability follows.
    func enteringWalk(_ entries: [[Int]]) -> StructuralWalk {
        var walk = StructuralWalk(count: count, hierarchy: hierarchy)
        for (t, entered) in entries.enumerated() where sources[t] >= 0 { walk.addMove(from: sources[t], entering: entered) }
        return walk
    }

    /// The structural walk over the leaves (`StructuralWalk`): from each leaf that is not final, a
    /// move to the leaf each transition of its chain with a target settles in.
    func leafWalk() -> StructuralWalk {
        var walk = StructuralWalk(count: count)
        for leaf in 0..<count where !isFinal[leaf] {
            for t in chains[leaf] where targets[t] >= 0 {
                walk.addMove(from: leaf, entering: CollectionOfOne(hierarchy.defaultEntryLeaf(of: targets[t])))
            }
        }
        return walk
    }

    /// The states structurally entered from the states `start` has active, over every declared
    /// transition (`entries`: ``entrySets()``), ignoring guards, shadowing, samples and which regions
    /// are active together: a transition is followed once its source is entered (its source's
    /// ancestors are active with it).
    func structurallyEntered(from start: [Int], entries: [[Int]]) -> [Bool] {
        enteringWalk(entries).reached(from: start)
    }

    /// The states whose being active lets some declared transition (`entries`: ``entrySets()``),
    /// followed structurally, enter a state inside `goal`: the states inside `goal`, and every state
    /// inside the source of a transition that enters one of them.
    func structurallyEntering(_ goal: Int, entries: [[Int]]) -> [Bool] {
        enteringWalk(entries).reaching(CollectionOfOne(goal))
    }

    /// The leaves structurally reachable from `start` over every declared transition, ignoring guards,
    /// shadowing and samples (each leaf is reachable from itself).
    func structurallyReachable(from start: [Int]) -> [Bool] {
        leafWalk().reached(from: start)
    }

    /// The leaves from which some leaf inside `goal` is structurally reachable (the states inside
    /// `goal` included).
    func structurallyReaching(_ goal: Int) -> [Bool] {
        leafWalk().reaching((0..<count).lazy.filter { isInside($0, goal) })
    }

    /// The states' positions, looked up in the definition's own table.
    struct Positions: Sendable {
        /// The definition whose states these are.
        let definition: FlowDefinition<F>

        /// The position of `state` in `definition.states`, or `nil` when it is not declared.
        subscript(state: F.State) -> Int? { definition.position(of: state) }
    }
}
