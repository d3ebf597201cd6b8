// The compiler's first phase: collecting the elements into states, transitions and effect codes,
// then resolving initial children, history defaults and targets, with the name checks.

extension FlowCompiler {
    // MARK: Collecting

    /// Reads the elements depth first, in declaration order, with an explicit stack: states in the
    /// order they are written (a parent before its children), transitions in the order they are
    /// written. That order is the transitions' identity (``FlowTable/Move/declaration`` indexes it).
    mutating func collect() {
        // The list being read is held in locals; the lists it interrupted wait on the stack.
        var stack: [CollectFrame] = []
        var current = CollectFrame(elements: elements, parent: -1, insideFinal: false)
        elements = []
        reserve(for: current.elements)
        while true {
            guard current.next < current.elements.count else {
                guard let resumed = stack.popLast() else { break }
                current = resumed
                continue
            }
            let element = current.elements[current.next]
            current.next += 1
            let parent = current.parent
            switch element.node {
            case .state(let data):
                if current.insideFinal {
                    // A final state is a leaf: its transitions are collected (and reported by
                    // `checkFinalStates`), states declared inside it are reported here.
                    report(.finalStateWithTransitions, .error,
                           "final state '\(label(nodes[parent].state))' contains state '\(label(data.state))'",
                           data.location)
                    continue
                }
                if let existing = index[data.state] {
                    report(.duplicateState, .error,
                           "state '\(label(data.state))' is declared twice (first at \(nodes[existing].location))",
                           data.location)
                    continue
                }
                let i = nodes.count
                nodes.append(data)
                self.parent.append(parent)
                entries.append(codes(data.entry, data.entryEmits))
                exits.append(codes(data.exit, data.exitEmits))
                checkNames(of: data)
                index[data.state] = i
                if data.history != nil {
                    checkHistoryPlacement(data, parent: parent, declaresElements: element.hasChildren)
                    continue
                }
                if element.hasChildren {
                    stack.append(current)
                    current = CollectFrame(elements: element.children, parent: i, insideFinal: data.output != nil)
                }
            case .transition(let data):
                guard parent >= 0 else {
                    report(.transitionOutsideState, .error,
                           "transition on '\(data.eventLabel ?? "(eventless)")' is declared outside of any state",
                           data.location)
                    continue
                }
                raws.append(Raw(source: parent, data: data, target: -1))
                rawEffects.append(codes(data.effects, data.emits))
                checkNames(of: data)
            }
        }
    }

    /// Reports a history declared outside a compound or parallel state, or one that declares states or
    /// transitions of its own (a history is a pseudo-state: its one transition is its default).
    mutating func checkHistoryPlacement(_ data: FlowElement<F>.StateData, parent: Int, declaresElements: Bool) {
        let name = label(data.state)
        if parent < 0 {
            report(.invalidHistory, .error,
                   "history '\(name)' is declared outside of any state: declare it inside the compound state whose "
                       + "children it remembers", data.location)
        } else if nodes[parent].history != nil {
            report(.invalidHistory, .error,
                   "history '\(name)' is declared inside history '\(label(nodes[parent].state))'", data.location)
        }
        if declaresElements {
            report(.invalidHistory, .error,
                   "history '\(name)' declares transitions or states of its own: a history's only transition is "
                       + "its default (`default:`), and nothing leaves it", data.location)
        }
    }

    /// Sizes the per-state and per-transition lists once: a definition of 100,000 states grown by
    /// doubling holds up to twice its size while it compiles.
    mutating func reserve(for elements: [FlowElement<F>]) {
        var states = 0
        var transitions = 0
        var pending = [elements]
        while let list = pending.popLast() {
            for element in list {
                switch element.node {
                case .state: states += 1
                case .transition: transitions += 1
                }
                if element.hasChildren { pending.append(element.children) }
            }
        }
        nodes.reserveCapacity(states)
        parent.reserveCapacity(states)
        entries.reserveCapacity(states)
        exits.reserveCapacity(states)
        index.reserveCapacity(states)
        raws.reserveCapacity(transitions)
        rawEffects.reserveCapacity(transitions)
    }

    /// Checks the declared initial children and builds the ``hierarchy`` (a state that declares none,
    /// or a wrong one, enters its first child).
    mutating func resolveInitialChildren() {
        var hasChildren = [Bool](repeating: false, count: nodes.count)
        for p in parent where p >= 0 { hasChildren[p] = true }
        // Each state's declared initial child, once known valid (-1: the first child, SCXML's default).
        var declaredInitial = [Int](repeating: -1, count: nodes.count)
        var historyDefaults: [Int: [Int]] = [:]
        for i in nodes.indices {
            guard nodes[i].history == nil else {
                if let target = resolveHistoryDefault(i) { historyDefaults[i] = [target] }
                continue
            }
            guard let wanted = nodes[i].initial else { continue }
            guard hasChildren[i] else {
                report(.invalidInitialChild, .error,
                       "state '\(label(nodes[i].state))' names initial child '\(label(wanted))' but has no children",
                       nodes[i].location)
                continue
            }
            if let w = index[wanted], parent[w] == i {
                declaredInitial[i] = w
            } else {
                report(.invalidInitialChild, .error,
                       "initial child '\(label(wanted))' of state '\(label(nodes[i].state))' is not one of its children",
                       nodes[i].location)
            }
        }
        hierarchy = FlowHierarchy(parents: parent, initialChildren: declaredInitial,
                                  parallel: nodes.map(\.isParallel),
                                  history: historyDefaults.isEmpty && !nodes.contains { $0.history != nil }
                                      ? [] : nodes.map(\.history),
                                  historyDefaults: historyDefaults)
        if hierarchy.hasHistory {
            for i in nodes.indices where nodes[i].history == nil && hasChildren[i] && hierarchy.initialChild(of: i) < 0 {
                report(.invalidHistory, .error,
                       "state '\(label(nodes[i].state))' contains history states only: a compound state needs a "
                           + "state to enter", nodes[i].location)
            }
        }
        for i in nodes.indices where nodes[i].isParallel && !hasChildren[i] {
            report(.invalidParallel, .error,
                   "parallel state '\(label(nodes[i].state))' has no regions: declare its regions as states inside it",
                   nodes[i].location)
        }
        for i in nodes.indices where nodes[i].output != nil && parent[i] >= 0 && nodes[parent[i]].isParallel {
            report(.invalidParallel, .error,
                   "final state '\(label(nodes[i].state))' is a region of parallel state "
                       + "'\(label(nodes[parent[i]].state))': a region is a state that contains its final states",
                   nodes[i].location)
        }
        parent = []
    }

    /// The default target of history `h`, once checked: a declared state that is not a history,
    /// inside the history's parent (a child of it for a shallow history); `nil` after reporting why not.
    mutating func resolveHistoryDefault(_ h: Int) -> Int? {
        let name = label(nodes[h].state)
        guard let wanted = nodes[h].initial else { return nil }
        guard let t = index[wanted] else {
            report(.unknownTarget, .error,
                   "the default of history '\(name)' targets '\(label(wanted))', which is not a declared state",
                   nodes[h].location)
            return nil
        }
        let p = parent[h]
        guard p >= 0 else { return nil }  // reported by `checkHistoryPlacement`
        if nodes[t].history != nil {
            report(.invalidHistory, .error,
                   "the default of history '\(name)' targets history '\(label(wanted))': it targets states", nodes[h].location)
            return nil
        }
        var a = parent[t]
        while a >= 0 && a != p { a = parent[a] }
        if a != p {
            report(.invalidHistory, .error,
                   "the default of history '\(name)' targets '\(label(wanted))', which is not inside "
                       + "'\(label(nodes[p].state))': a history defaults to states inside its state",
                   nodes[h].location)
            return nil
        }
        if nodes[h].history == .shallow && parent[t] != p {
            // SCXML asks a shallow history's default for children of its state; the algorithm enters
            // any state inside it (with the states between), so the flow runs.
            report(.invalidHistory, .warning,
                   "the default of shallow history '\(name)' targets '\(label(wanted))', which is not a child of "
                       + "'\(label(nodes[p].state))': SCXML asks a shallow history's default for children of its "
                       + "state (it is entered with the states between)", nodes[h].location)
        }
        return t
    }

    /// Resolves ``moreInitial``: each a declared state, all of them able to be active together with
    /// the first (in different regions of a parallel state), as a transition's several targets must.
    mutating func resolveMoreInitial(_ initialIndex: Int) {
        for more in moreInitial {
            guard let m = index[more] else {
                report(.missingInitialState, .error,
                       "initial state '\(label(more))' of flow '\(name)' is not a declared state", location)
                moreInitialIndices = []
                return
            }
            moreInitialIndices.append(m)
        }
        let all = [initialIndex] + moreInitialIndices
        for a in all.indices {
            for b in all.indices where b > a {
                let common = hierarchy.nearestCommonAncestorOrSelf(all[a], all[b])
                if common == all[a] || common == all[b] || !hierarchy.isParallel(common) {
                    report(.conflictingTargets, .error,
                           "the initial states of flow '\(name)' include '\(label(nodes[all[a]].state))' and "
                               + "'\(label(nodes[all[b]].state))', which cannot be active together: "
                               + "several initial states must lie in different regions of a parallel state",
                           location)
                    moreInitialIndices = []
                    return
                }
            }
        }
    }

    mutating func resolveTargets() {
        for r in raws.indices {
            guard let target = raws[r].data.target else { continue }
            if let t = index[target] {
                raws[r].target = t
            } else {
                raws[r].target = -2
                let source = label(nodes[raws[r].source].state)
                let on = raws[r].data.eventLabel.map { "on '\($0)'" } ?? "(eventless)"
                report(.unknownTarget, .error,
                       "transition from '\(source)' \(on) targets '\(label(target))', which is not a declared state",
                       raws[r].data.location)
            }
        }
        for r in raws.indices where !raws[r].data.moreTargets.isEmpty && raws[r].target >= 0 {
            let on = raws[r].data.eventLabel.map { "on '\($0)'" } ?? "(eventless)"
            let source = label(nodes[raws[r].source].state)
            for more in raws[r].data.moreTargets {
                guard let t = index[more] else {
                    raws[r].target = -2
                    report(.unknownTarget, .error,
                           "transition from '\(source)' \(on) targets '\(label(more))', which is not a declared state",
                           raws[r].data.location)
                    break
                }
                raws[r].moreTargets.append(t)
            }
            guard raws[r].target >= 0 else { continue }
            let all = [raws[r].target] + raws[r].moreTargets
            conflict: for a in all.indices {
                for b in all.indices where b > a {
                    let common = hierarchy.nearestCommonAncestorOrSelf(all[a], all[b])
                    if common == all[a] || common == all[b] || !hierarchy.isParallel(common) {
                        report(.conflictingTargets, .error,
                               "transition from '\(source)' \(on) targets '\(label(nodes[all[a]].state))' and "
                                   + "'\(label(nodes[all[b]].state))', which cannot be active together: "
                                   + "several targets must lie in different regions of a parallel state",
                               raws[r].data.location)
                        break conflict
                    }
                }
            }
        }
        for r in raws.indices {
            guard let done = raws[r].data.doneOf else { continue }
            guard let d = index[done] else {
                raws[r].doneOf = -2
                report(.unknownTarget, .error,
                       "completion transition from '\(label(nodes[raws[r].source].state))' waits for state "
                           + "'\(label(done))', which is not a declared state", raws[r].data.location)
                continue
            }
            raws[r].doneOf = d
            if !hierarchy.isParallel(d) && !(hierarchy.isCompound(d) && hierarchy.nearestParallelAncestor(of: d) >= 0) {
                report(.invalidDoneTransition, .error,
                       "completion transition from '\(label(nodes[raws[r].source].state))' waits for state "
                           + "'\(label(done))', which never completes: a state is done when it is parallel and every "
                           + "region has reached a final state, or inside a parallel state when it reaches a final child",
                       raws[r].data.location)
            }
        }
        for r in raws.indices {
            guard let asked = raws[r].data.guardCondition?.activeState, index[asked] == nil else { continue }
            report(.unknownTarget, .error,
                   "guard '\(raws[r].data.guardCondition!.name)' of a transition from "
                       + "'\(label(nodes[raws[r].source].state))' asks about '\(label(asked))', which is not a declared state",
                   raws[r].data.location)
        }
        rawSource = raws.map { $0.source }
        rawTarget = raws.map { $0.target }
    }

    /// The codes of a list of constant effects followed by emits.
    mutating func codes(_ constants: [F.Effect], _ emitted: [Emit<F>]) -> [Int32] {
        if constants.isEmpty && emitted.isEmpty { return [] }
        var result: [Int32] = []
        result.reserveCapacity(constants.count + emitted.count)
        for effect in constants {
            result.append(Int32(pool.count))
            pool.append(effect)
        }
        for emit in emitted {
            result.append(-1 - Int32(emits.count))
            emits.append(emit)
        }
        return result
    }

    // (No key paths and no string is built unless a problem is reported: these run once per state and
    // per transition, in code that is not specialized for the flow's types.)
    mutating func checkNames(of data: FlowElement<F>.StateData) {
        if data.entryEmits.contains(where: { $0.name.isEmpty }) || data.exitEmits.contains(where: { $0.name.isEmpty }) {
            report(.unnamed, .error, "state '\(label(data.state))' has an emit with an empty name", data.location)
        }
    }

    mutating func checkNames(of data: FlowElement<F>.TransitionData) {
        func on() -> String { data.eventLabel.map { "on '\($0)'" } ?? "(eventless)" }
        if data.guardCondition?.name.isEmpty == true {
            report(.unnamed, .error, "transition \(on()) has a guard with an empty name", data.location)
        }
        if data.update?.name.isEmpty == true {
            report(.unnamed, .error, "transition \(on()) has an update with an empty name", data.location)
        }
        if data.emits.contains(where: { $0.name.isEmpty }) {
            report(.unnamed, .error, "transition \(on()) has an emit with an empty name", data.location)
        }
    }

    /// Labels of constant effects, then the names of emits.
    func labels(_ effects: [F.Effect], _ emits: [Emit<F>]) -> [String] {
        var labels = effects.map { String(describing: $0) }
        if !emits.isEmpty { labels.append(contentsOf: emits.map { $0.name }) }
        return labels
    }
}
