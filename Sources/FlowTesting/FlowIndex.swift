import Flowstate

/// A definition's public declarations as flat arrays: what the path finder, the generators and the
/// structural reachability need, computed once, without recursion. The states' hierarchy is the
/// definition's own (``FlowHierarchy``, numbered as `definition.states`).
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
    /// first, each state's in declaration order (the order the engine tries them).
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
        var own = [[Int]](repeating: [], count: states.count)
        for (t, source) in sources.enumerated() where source >= 0 { own[source].append(t) }
        var chains = [[Int]](repeating: [], count: states.count)
        var handled = [[F.Event.Kind]](repeating: [], count: states.count)
        for leaf in states.indices {
            var chain: [Int] = []
            for s in hierarchy.ancestorsOrSelf(of: leaf) { chain.append(contentsOf: own[s]) }
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

    /// The leaf the machine is in after taking transition `t` from `leaf` (before eventless transitions).
    func leaf(after t: Int, from leaf: Int) -> Int {
        targets[t] >= 0 ? hierarchy.defaultEntryLeaf(of: targets[t]) : leaf
    }

    /// The leaves the machine was in, in order, while taking `transitions` from `leaf`: each entry is
    /// the leaf a transition was taken from. The leaf after the last one is the step's state.
    func leaves(taking transitions: FlowTransitions, from leaf: Int) -> [Int] {
        var current = leaf
        var result: [Int] = []
        result.reserveCapacity(transitions.count)
        for id in transitions {
            result.append(current)
            current = self.leaf(after: id.position, from: current)
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
            return hierarchy.computeEntrySet([FlowHierarchy.Transition(source: sources[t], targets: targets)])
        }
    }

    /// The states structurally entered from the states `start` has active, over every declared
    /// transition (`entries`: ``entrySets()``), ignoring guards, shadowing, samples and which regions
    /// are active together: a transition is followed once its source is entered.
    func structurallyEntered(from start: [Int], entries: [[Int]]) -> [Bool] {
        var own = [[Int]](repeating: [], count: count)
        for (t, source) in sources.enumerated() where source >= 0 { own[source].append(t) }
        var reached = [Bool](repeating: false, count: count)
        var work: [Int] = []
        for s in start where !reached[s] {
            reached[s] = true
            work.append(s)
        }
        while let s = work.popLast() {
            for t in own[s] {
                for entered in entries[t] where !reached[entered] {
                    reached[entered] = true
                    work.append(entered)
                }
            }
        }
        return reached
    }

    /// The states whose being active lets some declared transition (`entries`: ``entrySets()``),
    /// followed structurally, enter a state inside `goal`: the states inside `goal`, and every state
    /// inside the source of a transition that enters one of them.
    func structurallyEntering(_ goal: Int, entries: [[Int]]) -> [Bool] {
        var entering = [[Int]](repeating: [], count: count)  // the transitions entering each state
        for (t, entered) in entries.enumerated() {
            for s in entered { entering[s].append(t) }
        }
        var reaching = [Bool](repeating: false, count: count)
        var work: [Int] = []
        for s in 0..<count where isInside(s, goal) {
            reaching[s] = true
            work.append(s)
        }
        var marked = [Bool](repeating: false, count: count)  // sources whose states are all marked
        while let s = work.popLast() {
            for t in entering[s] {
                let source = sources[t]
                guard source >= 0, !marked[source] else { continue }
                marked[source] = true
                for d in 0..<count where !reaching[d] && isInside(d, source) {
                    reaching[d] = true
                    work.append(d)
                }
            }
        }
        return reaching
    }

    /// The leaves structurally reachable from `start` over every declared transition, ignoring guards,
    /// shadowing and samples (each leaf is reachable from itself).
    func structurallyReachable(from start: [Int]) -> [Bool] {
        var reached = [Bool](repeating: false, count: count)
        var work: [Int] = []
        for s in start where !reached[s] {
            reached[s] = true
            work.append(s)
        }
        while let leaf = work.popLast() {
            guard !isFinal[leaf] else { continue }
            for t in chains[leaf] where targets[t] >= 0 {
                let next = hierarchy.defaultEntryLeaf(of: targets[t])
                if !reached[next] {
                    reached[next] = true
                    work.append(next)
                }
            }
        }
        return reached
    }

    /// The leaves from which some leaf inside `goal` is structurally reachable (the leaves inside
    /// `goal` included).
    func structurallyReaching(_ goal: Int) -> [Bool] {
        var predecessors = [[Int]](repeating: [], count: count)
        for leaf in 0..<count where !isFinal[leaf] {
            for t in chains[leaf] where targets[t] >= 0 {
                predecessors[hierarchy.defaultEntryLeaf(of: targets[t])].append(leaf)
            }
        }
        var reaching = [Bool](repeating: false, count: count)
        var work: [Int] = []
        for s in 0..<count where isInside(s, goal) {
            reaching[s] = true
            work.append(s)
        }
        while let s = work.popLast() {
            for p in predecessors[s] where !reaching[p] {
                reaching[p] = true
                work.append(p)
            }
        }
        return reaching
    }

    /// The states' positions, looked up in the definition's own table.
    struct Positions: Sendable {
        /// The definition whose states these are.
        let definition: FlowDefinition<F>

        /// The position of `state` in `definition.states`, or `nil` when it is not declared.
        subscript(state: F.State) -> Int? { definition.position(of: state) }
    }
}
