/// Turns the elements of a definition into declarations, validation issues and a ``FlowTable``.
///
/// It never traps on bad input: a definition with errors still compiles (its table is simply never
/// run, because a machine refuses to start an invalid definition).
struct FlowCompiler<F: Flow> {
    struct Compiled {
        var states: [FlowDefinition<F>.StateDeclaration]
        var transitions: [FlowDefinition<F>.TransitionDeclaration]
        var issues: [ValidationIssue]
        var table: FlowTable<F>
    }

    private struct Node {
        var data: FlowElement<F>.StateData
        var parent: Int
        var children: [Int] = []
        var initialChild: Int = -1
    }

    private struct Raw {
        var source: Int
        var data: FlowElement<F>.TransitionData
        var target: Int  // -1: targetless, -2: unknown
    }

    let name: String
    let initial: F.State
    let unhandled: UnhandledEventPolicy
    let elements: [FlowElement<F>]
    let location: FlowSourceLocation

    private var nodes: [Node] = []
    private var index: [F.State: Int] = [:]
    private var raws: [Raw] = []
    private var issues: [ValidationIssue] = []

    init(name: String, initial: F.State, unhandled: UnhandledEventPolicy, elements: [FlowElement<F>],
         location: FlowSourceLocation) {
        self.name = name
        self.initial = initial
        self.unhandled = unhandled
        self.elements = elements
        self.location = location
    }

    consuming func compile() -> Compiled {
        collect(elements, parent: -1)
        resolveInitialChildren()
        resolveTargets()
        let initialIndex = index[initial] ?? -1
        if initialIndex < 0 {
            report(.missingInitialState, .error,
                   "initial state '\(label(initial))' of flow '\(name)' is not a declared state", location)
        }
        let table = buildTable(initialIndex: initialIndex)
        checkFinalStates()
        checkDeterminism()
        if initialIndex >= 0 { checkReachability(table: table) }
        let ordered = issues.filter { $0.severity == .error } + issues.filter { $0.severity == .warning }
        return Compiled(states: stateDeclarations(), transitions: transitionDeclarations(),
                        issues: ordered, table: table)
    }

    // MARK: Collecting

    private mutating func collect(_ elements: [FlowElement<F>], parent: Int) {
        for element in elements {
            switch element.node {
            case .state(let data):
                if let existing = index[data.state] {
                    report(.duplicateState, .error,
                           "state '\(label(data.state))' is declared twice (first at \(nodes[existing].data.location))",
                           data.location)
                    continue
                }
                let i = nodes.count
                nodes.append(Node(data: data, parent: parent))
                index[data.state] = i
                if parent >= 0 { nodes[parent].children.append(i) }
                if data.output != nil {
                    // A final state is a leaf: its transitions are collected (and reported by
                    // `checkFinalStates`), states declared inside it are reported here.
                    for child in data.children {
                        if case .state(let inner) = child.node {
                            report(.finalStateWithTransitions, .error,
                                   "final state '\(label(data.state))' contains state '\(label(inner.state))'",
                                   inner.location)
                        } else {
                            collect([child], parent: i)
                        }
                    }
                    continue
                }
                collect(data.children, parent: i)
            case .transition(let data):
                guard parent >= 0 else {
                    report(.transitionOutsideState, .error,
                           "transition on '\(data.eventLabel ?? "(eventless)")' is declared outside of any state",
                           data.location)
                    continue
                }
                raws.append(Raw(source: parent, data: data, target: -1))
            }
        }
    }

    private mutating func resolveInitialChildren() {
        for i in nodes.indices {
            let node = nodes[i]
            guard let first = node.children.first else {
                if let wanted = node.data.initial {
                    report(.invalidInitialChild, .error,
                           "state '\(label(node.data.state))' names initial child '\(label(wanted))' but has no children",
                           node.data.location)
                }
                continue
            }
            nodes[i].initialChild = first
            if let wanted = node.data.initial {
                if let w = index[wanted], nodes[w].parent == i {
                    nodes[i].initialChild = w
                } else {
                    report(.invalidInitialChild, .error,
                           "initial child '\(label(wanted))' of state '\(label(node.data.state))' is not one of its children",
                           node.data.location)
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
                let source = label(nodes[raws[r].source].data.state)
                let on = raws[r].data.eventLabel.map { "on '\($0)'" } ?? "(eventless)"
                report(.unknownTarget, .error,
                       "transition from '\(source)' \(on) targets '\(label(target))', which is not a declared state",
                       raws[r].data.location)
            }
        }
    }

    // MARK: Structure helpers

    private func isDescendant(_ a: Int, of b: Int) -> Bool {
        var s = nodes[a].parent
        while s >= 0 {
            if s == b { return true }
            s = nodes[s].parent
        }
        return false
    }

    /// SCXML's transition domain: the nearest proper ancestor of the source that contains the target,
    /// or -1 (the root) when there is none.
    private func domain(source: Int, target: Int) -> Int {
        var s = nodes[source].parent
        while s >= 0 {
            if isDescendant(target, of: s) { return s }
            s = nodes[s].parent
        }
        return -1
    }

    /// The states entered when entering `target` from inside `domain`: outermost first, ending at a leaf.
    private func entryPath(domain: Int, target: Int) -> [Int] {
        var path: [Int] = []
        var s = target
        while s >= 0 && s != domain {
            path.append(s)
            s = nodes[s].parent
        }
        path.reverse()
        var leaf = target
        while nodes[leaf].initialChild >= 0 {
            leaf = nodes[leaf].initialChild
            path.append(leaf)
        }
        return path
    }

    private func settledLeaf(_ target: Int) -> Int {
        var leaf = target
        while nodes[leaf].initialChild >= 0 { leaf = nodes[leaf].initialChild }
        return leaf
    }

    private func ancestors(_ leaf: Int) -> [Int] {
        var result: [Int] = []
        var s = leaf
        while s >= 0 {
            result.append(s)
            s = nodes[s].parent
        }
        return result
    }

    // MARK: Table

    private func buildTable(initialIndex: Int) -> FlowTable<F> {
        var effects: [F.Effect] = []
        var guards: [Guard<F>] = []
        var guardIndex: [Int: Int] = [:]  // raw index -> guard index
        for (r, raw) in raws.enumerated() {
            if let condition = raw.data.guardCondition {
                guardIndex[r] = guards.count
                guards.append(condition)
            }
        }
        var eventRanges = [0]
        var eventMoves: [(kind: F.Event.Kind, move: FlowTable<F>.Move)] = []
        var eventlessRanges = [0]
        var eventlessMoves: [FlowTable<F>.Move] = []
        var bySource: [Int: [Int]] = [:]
        for (r, raw) in raws.enumerated() where raw.target != -2 { bySource[raw.source, default: []].append(r) }

        for leaf in nodes.indices {
            if nodes[leaf].children.isEmpty && nodes[leaf].data.output == nil {
                for source in ancestors(leaf) {
                    for r in bySource[source] ?? [] {
                        let raw = raws[r]
                        let start = effects.count
                        var target = -1
                        if raw.target >= 0 {
                            let d = domain(source: source, target: raw.target)
                            var s = leaf
                            while s >= 0 && s != d {
                                effects.append(contentsOf: nodes[s].data.exit)
                                s = nodes[s].parent
                            }
                            effects.append(contentsOf: raw.data.effects)
                            for entered in entryPath(domain: d, target: raw.target) {
                                effects.append(contentsOf: nodes[entered].data.entry)
                            }
                            target = settledLeaf(raw.target)
                        } else {
                            effects.append(contentsOf: raw.data.effects)
                        }
                        let move = FlowTable<F>.Move(guardIndex: guardIndex[r] ?? -1, target: target,
                                                     effects: start..<effects.count, declaration: r)
                        if let kind = raw.data.event {
                            eventMoves.append((kind, move))
                        } else if target >= 0 {
                            eventlessMoves.append(move)
                        }
                    }
                }
            }
            eventRanges.append(eventMoves.count)
            eventlessRanges.append(eventlessMoves.count)
        }

        var stopEffects: [Range<Int>] = []
        for leaf in nodes.indices {
            let start = effects.count
            var s = leaf
            while s >= 0 {
                effects.append(contentsOf: nodes[s].data.exit)
                s = nodes[s].parent
            }
            stopEffects.append(start..<effects.count)
        }

        let initialStart = effects.count
        var initialTarget = -1
        if initialIndex >= 0 {
            for entered in entryPath(domain: -1, target: initialIndex) {
                effects.append(contentsOf: nodes[entered].data.entry)
            }
            initialTarget = settledLeaf(initialIndex)
        }
        return FlowTable(
            states: nodes.map(\.data.state), index: index, parents: nodes.map(\.parent),
            outputs: nodes.map(\.data.output), childFlows: nodes.map(\.data.child),
            eventRanges: eventRanges, eventMoves: eventMoves,
            eventlessRanges: eventlessRanges, eventlessMoves: eventlessMoves,
            guards: guards, effects: effects,
            initialTarget: initialTarget, initialEffects: initialStart..<effects.count,
            stopEffects: stopEffects, unhandled: unhandled, name: name
        )
    }

    // MARK: Checks

    private mutating func checkFinalStates() {
        for raw in raws where nodes[raw.source].data.output != nil {
            report(.finalStateWithTransitions, .error,
                   "final state '\(label(nodes[raw.source].data.state))' has an outgoing transition", raw.data.location)
        }
    }

    private mutating func checkDeterminism() {
        var seen: [Int: [F.Event.Kind?: Int]] = [:]  // source -> event -> first unguarded raw
        for (r, raw) in raws.enumerated() where raw.data.guardCondition == nil {
            if let first = seen[raw.source]?[raw.data.event] {
                let on = raw.data.eventLabel.map { "on '\($0)'" } ?? "without an event"
                report(.nondeterministicTransitions, .error,
                       "state '\(label(nodes[raw.source].data.state))' has two unguarded transitions \(on) "
                           + "(the other at \(raws[first].data.location)): the machine cannot choose",
                       raw.data.location)
            } else {
                seen[raw.source, default: [:]][raw.data.event] = r
            }
        }
    }

    private mutating func checkReachability(table: FlowTable<F>) {
        guard table.initialTarget >= 0 else { return }
        var reachedLeaves = Set<Int>([table.initialTarget])
        var work = [table.initialTarget]
        while let leaf = work.popLast() {
            for move in table.moves(from: leaf) where move.target >= 0 {
                if reachedLeaves.insert(Int(move.target)).inserted { work.append(Int(move.target)) }
            }
        }
        var reached = Set<Int>()
        for leaf in reachedLeaves { reached.formUnion(ancestors(leaf)) }
        for i in nodes.indices where !reached.contains(i) {
            report(.unreachableState, .warning,
                   "state '\(label(nodes[i].data.state))' is unreachable from the initial state '\(label(initial))'",
                   nodes[i].data.location)
        }
        for leaf in reachedLeaves.sorted() where !table.isFinal[leaf] {
            if table.eventRanges[leaf] == table.eventRanges[leaf + 1]
                && table.eventlessRanges[leaf] == table.eventlessRanges[leaf + 1] {
                report(.deadEnd, .warning,
                       "state '\(label(nodes[leaf].data.state))' is not final and has no transition out (dead end)",
                       nodes[leaf].data.location)
            }
        }
    }

    // MARK: Declarations

    private func stateDeclarations() -> [FlowDefinition<F>.StateDeclaration] {
        nodes.map { node in
            let kind: FlowDefinition<F>.StateDeclaration.Kind =
                node.data.output != nil ? .final : (node.children.isEmpty ? .atomic : .compound)
            return .init(
                state: node.data.state, label: label(node.data.state), kind: kind,
                parent: node.parent >= 0 ? nodes[node.parent].data.state : nil,
                children: node.children.map { nodes[$0].data.state },
                initialChild: node.initialChild >= 0 ? nodes[node.initialChild].data.state : nil,
                entry: node.data.entry, exit: node.data.exit,
                entryLabels: node.data.entry.map { String(describing: $0) },
                exitLabels: node.data.exit.map { String(describing: $0) },
                outputLabel: node.data.output?.label, childFlow: node.data.child?.name,
                location: node.data.location
            )
        }
    }

    private func transitionDeclarations() -> [FlowDefinition<F>.TransitionDeclaration] {
        raws.map { raw in
            .init(source: nodes[raw.source].data.state, event: raw.data.event, eventLabel: raw.data.eventLabel,
                  guardLabel: raw.data.guardCondition?.name, target: raw.data.target, effects: raw.data.effects,
                  effectLabels: raw.data.effects.map { String(describing: $0) }, location: raw.data.location)
        }
    }

    private func label(_ state: F.State) -> String { String(describing: state) }

    private mutating func report(_ kind: ValidationIssue.Kind, _ severity: ValidationIssue.Severity,
                                 _ message: String, _ location: FlowSourceLocation?) {
        issues.append(ValidationIssue(kind: kind, severity: severity, message: message, location: location))
    }
}
