/// Turns the elements of a definition into declarations, validation issues and a ``FlowTable``.
///
/// It never traps on bad input: a definition with errors still compiles (its table is simply never
/// run, because a machine refuses to start an invalid definition).
///
/// Nothing recurses over the definition's structure, so a definition may be nested deeper than a
/// thread's stack allows recursion; and no question walks more of the tree than its answer covers,
/// so compiling costs the definition's size plus the table's. (The table itself can be larger than
/// linear: every leaf lists the transitions of all its ancestors, each move with its own exits and
/// entries. The work beyond it is linear.)
struct FlowCompiler<F: Flow> {
    struct Compiled {
        var states: [FlowDefinition<F>.StateDeclaration]
        var transitions: [FlowDefinition<F>.TransitionDeclaration]
        var issues: [ValidationIssue]
        var table: FlowTable<F>
    }

    private struct Raw {
        var source: Int
        var data: FlowElement<F>.TransitionData
        var target: Int  // -1: targetless, -2: unknown
        /// The targets after `target`, resolved (-2: unknown).
        var moreTargets: [Int] = []
        /// For a completion transition, the state whose completion it reacts to (-2: unknown), else -1.
        var doneOf = -1
    }

    /// A list of elements being read by `collect`, and how far.
    private struct CollectFrame {
        let elements: [FlowElement<F>]
        var next = 0
        /// The state whose elements these are, or -1 for the definition's own elements.
        let parent: Int
        /// Whether `parent` is a final state, whose states are reported rather than collected.
        let insideFinal: Bool
    }

    private struct SourceEvent: Hashable {
        let source: Int
        let event: F.Event.Kind?
    }

    let name: String
    let initial: F.State
    /// The flow's initial states after `initial` (a flow that starts in several regions of a parallel
    /// state, SCXML's `<scxml initial="a b">`), and their numbers once resolved.
    let moreInitial: [F.State]
    private var moreInitialIndices: [Int] = []
    let unhandled: UnhandledEventPolicy
    /// Emptied by `collect` once read: the tree is freed before the table and declarations are built.
    private var elements: [FlowElement<F>]
    let location: FlowSourceLocation

    // States, by index in declaration order (a parent before its children). The structure is kept in
    // flat arrays (the hierarchy's, and the effect lists): the hot loops read integers and effect
    // lists, never a whole state.
    private var nodes: [FlowElement<F>.StateData] = []
    /// Each state's parent as `collect` reads it, or -1; handed to ``hierarchy`` once read.
    private var parent: [Int] = []
    /// The hierarchy, built once the states are collected and their initial children checked.
    private var hierarchy = FlowHierarchy(parents: [])
    // Effects as codes: a constant effect is its index in `pool`, an emit is `-1 - its index in
    // `emits`. Laying out codes copies integers, not effects; the table turns them back at the end.
    private var pool: [F.Effect] = []
    private var emits: [Emit<F>] = []
    private var entries: [[Int32]] = []
    private var exits: [[Int32]] = []
    private var index: [F.State: Int] = [:]
    // Transitions, in declaration order.
    private var raws: [Raw] = []
    private var rawSource: [Int] = []
    private var rawTarget: [Int] = []  // -1: targetless, -2: unknown
    private var rawEffects: [[Int32]] = []
    private var issues: [ValidationIssue] = []
    private var shortcuts = Shortcuts()

    init(name: String, initial: F.State, moreInitial: [F.State] = [], unhandled: UnhandledEventPolicy,
         elements: [FlowElement<F>], location: FlowSourceLocation) {
        self.name = name
        self.initial = initial
        self.moreInitial = moreInitial
        self.unhandled = unhandled
        self.elements = elements
        self.location = location
    }

    @_specialize(where F == StringFlow)
    consuming func compile() -> Compiled {
        collect()
        resolveInitialChildren()
        resolveTargets()
        link()
        let initialIndex = index[initial] ?? -1
        if initialIndex < 0 {
            report(.missingInitialState, .error,
                   "initial state '\(label(initial))' of flow '\(name)' is not a declared state", location)
        }
        if initialIndex >= 0 { resolveMoreInitial(initialIndex) }
        let table = buildTable(initialIndex: initialIndex)
        checkFinalStates()
        checkDelays()
        checkDeterminism()
        checkInternalTransitions()
        checkParallelReentry()
        if initialIndex >= 0 { checkReachability(table: table) }
        let ordered = issues.filter { $0.severity == .error } + issues.filter { $0.severity == .warning }
        return Compiled(states: stateDeclarations(), transitions: transitionDeclarations(),
                        issues: ordered, table: table)
    }

    // MARK: Collecting

    /// Reads the elements depth first, in declaration order, with an explicit stack: states in the
    /// order they are written (a parent before its children), transitions in the order they are
    /// written. That order is the transitions' identity (``FlowTable/Move/declaration`` indexes it).
    private mutating func collect() {
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
    private mutating func checkHistoryPlacement(_ data: FlowElement<F>.StateData, parent: Int, declaresElements: Bool) {
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
    private mutating func reserve(for elements: [FlowElement<F>]) {
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
    private mutating func resolveInitialChildren() {
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
    private mutating func resolveHistoryDefault(_ h: Int) -> Int? {
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
    private mutating func resolveMoreInitial(_ initialIndex: Int) {
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

    private mutating func resolveTargets() {
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
    private mutating func codes(_ constants: [F.Effect], _ emitted: [Emit<F>]) -> [Int32] {
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
    private mutating func checkNames(of data: FlowElement<F>.StateData) {
        if data.entryEmits.contains(where: { $0.name.isEmpty }) || data.exitEmits.contains(where: { $0.name.isEmpty }) {
            report(.unnamed, .error, "state '\(label(data.state))' has an emit with an empty name", data.location)
        }
    }

    private mutating func checkNames(of data: FlowElement<F>.TransitionData) {
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
    private func labels(_ effects: [F.Effect], _ emits: [Emit<F>]) -> [String] {
        var labels = effects.map { String(describing: $0) }
        if !emits.isEmpty { labels.append(contentsOf: emits.map { $0.name }) }
        return labels
    }

    // MARK: Structure

    /// Shortcuts over the tree, so that no walk visits a state it has nothing to collect from
    /// (exits, entries and transitions are usually declared on few of the states of a deep chain).
    private struct Shortcuts {
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
    private mutating func link() {
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
    private func hierarchyTransition(_ r: Int) -> FlowHierarchy.Transition {
        FlowHierarchy.Transition(source: rawSource[r], targets: rawTarget[r] >= 0 ? [rawTarget[r]] + raws[r].moreTargets : [],
                                 isInternal: raws[r].data.type == .internal)
    }

    /// The next state strictly above `s` in one of the shortcut arrays that point up.
    @inline(__always)
    private func above(_ s: Int, in up: [Int]) -> Int {
        let p = hierarchy.parent(of: s)
        return p >= 0 ? up[p] : -1
    }

    /// Appends the exit effects of `leaf` and of its ancestors below `domain` (an ancestor of `leaf`,
    /// or -1), innermost first: ``FlowHierarchy/computeExitSet(_:configuration:)`` of the leaf's
    /// configuration, walked through the states that have exit effects only.
    private func appendExits(from leaf: Int, below domain: Int, to effects: inout [Int32]) {
        var s = shortcuts.exitUp[leaf]
        while s >= 0 && hierarchy.isDescendant(s, of: domain) {
            effects.append(contentsOf: exits[s])
            s = above(s, in: shortcuts.exitUp)
        }
    }

    /// Appends the entry effects of the states entered when entering `target` from inside `domain`
    /// (an ancestor of `target`, or -1): outermost first, down to the leaf `target` settles in
    /// (``FlowHierarchy/computeEntrySet(_:)``, walked through the states that have entry effects only).
    private func appendEntries(domain: Int, target: Int, to effects: inout [Int32], scratch: inout [Int]) {
        scratch.removeAll(keepingCapacity: true)
        var s = shortcuts.entryUp[target]
        while s >= 0 && hierarchy.isDescendant(s, of: domain) {
            scratch.append(s)
            s = above(s, in: shortcuts.entryUp)
        }
        for entered in scratch.reversed() { effects.append(contentsOf: entries[entered]) }
        let first = hierarchy.initialChild(of: target)
        s = first >= 0 ? shortcuts.entryDown[first] : -1
        while s >= 0 {
            effects.append(contentsOf: entries[s])
            let next = hierarchy.initialChild(of: s)
            s = next >= 0 ? shortcuts.entryDown[next] : -1
        }
    }

    // MARK: Table

    private func buildTable(initialIndex: Int) -> FlowTable<F> {
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
                            appendExits(from: leaf, below: domain, to: &effects)
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
                                                                entries: &parallelEntries)
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
            flatReports: flatReports
        )
    }

    /// `condition`, or for an ``Guard/in(_:)`` guard of a flow without parallel states, a guard that
    /// answers from the current leaf (the only active atomic state: a state is active when the leaf is
    /// it or inside it). A flow with parallel states answers it from its configuration instead
    /// (``FlowParallelTable/guardStates``).
    private func inGuardAnswered(_ condition: Guard<F>) -> Guard<F> {
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
    private func isLocal(_ r: Int, from leaf: Int) -> Bool {
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
    /// enters (appended to `entries`); any other is left to SCXML's algorithm.
    private func commonParallelMove(_ move: FlowTable<F>.Move, _ r: Int, from leaf: Int, exitCount: Int,
                                    entries: inout [Int32])
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
        let start = entries.count
        // The declared target and its ancestors below the domain, outermost first, then its initial
        // descendants down to the leaf (a local move enters no parallel state: one chain).
        var s = rawTarget[r]
        while s != domain && s >= 0 {
            entries.append(Int32(s))
            s = hierarchy.parent(of: s)
        }
        entries[start...].reverse()
        var child = hierarchy.initialChild(of: rawTarget[r])
        while child >= 0 {
            entries.append(Int32(child))
            child = hierarchy.initialChild(of: child)
        }
        var exited = 1
        for _ in hierarchy.properAncestors(of: leaf, upTo: domain) { exited += 1 }
        return .init(domain: domain, domainEnd: hierarchy.subtreeEnd(of: domain), exited: exited, exitCount: exitCount,
                     contentCount: content, entries: start..<entries.count)
    }

    /// Lays out what SCXML's algorithm reads for a flow with parallel states: each state's entry and
    /// exit effects, each transition's own effects, and the transitions declared on each state.
    private func layOutParallel(in effects: inout [Int32], guardIndex: [Int], guardStates: [Int32])
        -> FlowParallelTable<F>
    {
        func layOut(_ codes: [Int32]) -> Range<Int> {
            let start = effects.count
            effects.append(contentsOf: codes)
            return start..<effects.count
        }
        let entryRanges = entries.map(layOut)
        let exitRanges = exits.map(layOut)
        var transitions: [FlowParallelTable<F>.Transition] = []
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
    private func layOutStopEffects(in effects: inout [Int32]) -> [Range<Int>] {
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

    // MARK: Checks

    private mutating func checkFinalStates() {
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
    private var hasDelays: Bool { raws.contains { $0.data.delay != nil } }

    /// Reports a delay that is not positive, and a delayed transition of a final state or a history
    /// (which is never active long enough for a timer).
    private mutating func checkDelays() {
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
    private mutating func checkDelayShadowing() {
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

    private mutating func checkDeterminism() {
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
    private mutating func checkInternalTransitions() {
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
    private mutating func checkParallelReentry() {
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

    private mutating func checkReachability(table: FlowTable<F>) {
        guard table.initialTarget >= 0 else { return }
        if hierarchy.hasParallel || hierarchy.hasHistory || hasDelays {
            return checkParallelReachability(initial: index[initial] ?? -1)
        }
        let n = nodes.count
        var reachedLeaf = [Bool](repeating: false, count: n)
        reachedLeaf[table.initialTarget] = true
        var work = [table.initialTarget]
        while let leaf = work.popLast() {
            for i in table.eventRanges[leaf]..<table.eventRanges[leaf + 1] {
                let target = Int(table.eventMoves[i].target)
                if target >= 0 && !reachedLeaf[target] {
                    reachedLeaf[target] = true
                    work.append(target)
                }
            }
            for i in table.eventlessRanges[leaf]..<table.eventlessRanges[leaf + 1] {
                let target = Int(table.eventlessMoves[i].target)
                if target >= 0 && !reachedLeaf[target] {
                    reachedLeaf[target] = true
                    work.append(target)
                }
            }
        }
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
    /// enters it, SCXML's entry set from the transition's domain. An over-approximation (guards and
    /// the regions' combinations are not considered), so what it calls unreachable is. Dead ends are
    /// not reported inside parallel states, where a region resting in a state without transitions is
    /// common.
    private mutating func checkParallelReachability(initial initialIndex: Int) {
        guard initialIndex >= 0 else { return }
        let n = nodes.count
        var reached = [Bool](repeating: false, count: n)
        var work: [Int] = []
        func enter(_ states: [Int]) {
            for s in states where !reached[s] {
                reached[s] = true
                work.append(s)
            }
        }
        enter(hierarchy.computeEntrySet([FlowHierarchy.Transition(source: FlowHierarchy.root,
                                                                  targets: [initialIndex] + moreInitialIndices)]))
        while let s = work.popLast() {
            for r in shortcuts.bySource[shortcuts.sourceRanges[s]..<shortcuts.sourceRanges[s + 1]]
            where rawTarget[r] >= 0 {
                enter(hierarchy.computeEntrySet([hierarchyTransition(r)]))
            }
        }
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

    // MARK: Declarations

    private func stateDeclarations() -> [FlowDefinition<F>.StateDeclaration] {
        nodes.indices.map { i in
            let data = nodes[i]
            let kind: FlowDefinition<F>.StateDeclaration.Kind =
                data.history != nil ? .history : data.output != nil ? .final
                    : (hierarchy.isAtomic(i) ? .atomic : (hierarchy.isParallel(i) ? .parallel : .compound))
            let parent = hierarchy.parent(of: i)
            let initialChild = data.history != nil ? -1 : hierarchy.initialChild(of: i)
            return .init(
                state: data.state, label: label(data.state), kind: kind,
                parent: parent >= 0 ? nodes[parent].state : nil,
                children: hierarchy.children(of: i).map { nodes[$0].state },
                initialChild: initialChild >= 0 ? nodes[initialChild].state : nil,
                entry: data.entry, exit: data.exit, emitOnEntry: data.entryEmits, emitOnExit: data.exitEmits,
                entryLabels: labels(data.entry, data.entryEmits),
                exitLabels: labels(data.exit, data.exitEmits),
                outputLabel: data.output?.label, childFlow: data.child?.name,
                history: data.history, historyDefault: data.history != nil ? data.initial : nil,
                location: data.location
            )
        }
    }

    private func transitionDeclarations() -> [FlowDefinition<F>.TransitionDeclaration] {
        raws.map { raw in
            .init(source: nodes[raw.source].state, event: raw.data.event, eventLabel: raw.data.eventLabel,
                  guardLabel: raw.data.guardCondition?.name, guardState: raw.data.guardCondition?.activeState,
                  target: raw.data.target,
                  targets: raw.data.target.map { [$0] + raw.data.moreTargets } ?? [], update: raw.data.update,
                  effects: raw.data.effects, emit: raw.data.emits,
                  effectLabels: labels(raw.data.effects, raw.data.emits), type: raw.data.type,
                  location: raw.data.location, delay: raw.data.delay)
        }
    }

    private func label(_ state: F.State) -> String { String(describing: state) }

    private mutating func report(_ kind: ValidationIssue.Kind, _ severity: ValidationIssue.Severity,
                                 _ message: String, _ location: FlowSourceLocation?, transition: FlowTransitionID? = nil) {
        issues.append(ValidationIssue(kind: kind, severity: severity, message: message, location: location,
                                      transition: transition))
    }
}
