import FlowGraph
import Flowstate

extension FlowFile {
    /// The spec of a flow's outline: what a live machine of a `Supervisor` gives
    /// (`Supervisor.outline(of:)`), whatever the flow's Swift types. The one place a spec is made from
    /// a flow's structure: `init(_:)` of a definition writes its outline's spec, then its children's.
    public init(_ outline: FlowOutline) {
        var made: [State] = outline.states.map { s in
            var state = State(name: s.label)
            state.isFinal = s.kind == .final
            state.isParallel = s.kind == .parallel
            state.output = s.output
            state.child = s.childFlow
            state.childOutputs = s.childOutputs
            state.entry = s.entry
            state.exit = s.exit
            if s.kind == .history { state.history = s.history == .deep ? .deep : .shallow }
            return state
        }
        // Grouped once: linear in the flow's size.
        var children = [[Int]](repeating: [], count: made.count)
        var top: [Int] = []
        for (i, s) in outline.states.enumerated() {
            if let parent = s.parent, children.indices.contains(parent) { children[parent].append(i) } else { top.append(i) }
        }
        for (i, s) in outline.states.enumerated() where s.kind == .history {
            // A history's default transition: its one transition.
            guard let target = s.historyDefault else { continue }
            made[i].transitions.append(Transition(event: nil, targets: [outline.states[target].label]))
        }
        for t in outline.transitions where made.indices.contains(t.source) {
            let first = t.targetless ? nil : t.target.map { outline.states[$0].label }
            var transition = Transition(
                event: t.delay == nil ? t.event : nil,
                guardName: t.guardState.flatMap { outline.states.indices.contains($0) ? Self.inCondition(outline.states[$0].label) : nil }
                    ?? t.guardLabel,
                targets: (first.map { [$0] } ?? []) + (first == nil ? [] : t.moreTargets.map { outline.states[$0].label }),
                effects: t.effects, update: t.update)
            transition.isInternal = t.type == .internal
            transition.delay = t.delay
            made[t.source].transitions.append(transition)
        }
        for (i, s) in outline.states.enumerated() {
            if let initial = s.initial, initial != children[i].first { made[i].initial = outline.states[initial].label }
        }
        // Children into their parents, in reverse pre-order (whatever the order of the outline's
        // states), so each state is placed in its parent whole, without recursion.
        var preorder: [Int] = []
        var stack = Array(top.reversed())
        while let i = stack.popLast() {
            preorder.append(i)
            stack += children[i].reversed()
        }
        for i in preorder.reversed() where !children[i].isEmpty {
            made[i].states = children[i].map { made[$0] }
        }
        self.init(name: outline.name, initial: outline.initial.map { outline.states[$0].label } ?? "",
                  states: top.map { made[$0] })
    }

    /// The file formats' In-condition for a state (`In('s')`, or `In("s")` for a name with a `'`):
    /// what an exported `Guard.in(_:)` becomes, and what the readers read back as one.
    static func inCondition(_ state: String) -> String {
        state.contains("'") ? "In(\"\(state)\")" : "In('\(state)')"
    }

    /// The specs of every flow alive in a supervisor's tree, each flow once, roots first: written to
    /// `<name>.json` side by side, they are what `flowviz simulate` runs (a state's `child` names the
    /// child flow's file).
    public static func specs(of supervisor: Supervisor) -> [FlowFile] {
        var seen: Set<String> = []
        return supervisor.machines.compactMap { machine in
            guard seen.insert(machine.flow).inserted, let outline = supervisor.outline(of: machine.id) else { return nil }
            return FlowFile(outline)
        }
    }
}
