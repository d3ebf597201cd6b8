import FlowGraph
import Flowstate

extension FlowSpec {
    /// The spec of a flow's outline: what a live machine of a `Supervisor` gives
    /// (`Supervisor.outline(of:)`), whatever the flow's Swift types.
    public init(_ outline: FlowOutline) {
        func make(_ i: Int) -> State {
            let s = outline.states[i]
            var state = State(name: s.label)
            state.isFinal = s.kind == .final
            state.output = s.output
            state.child = s.childFlow
            state.entry = s.entry
            state.exit = s.exit
            let children = outline.states.indices.filter { outline.states[$0].parent == i }
            if let initial = s.initial, initial != children.first { state.initial = outline.states[initial].label }
            state.transitions = outline.transitions.filter { $0.source == i }.map { t in
                Transition(event: t.event, guardName: t.guardLabel,
                           target: t.targetless ? nil : t.target.map { outline.states[$0].label }, effects: t.effects)
            }
            state.states = children.map(make)
            return state
        }
        let top = outline.states.indices.filter { outline.states[$0].parent == nil }
        self.init(name: outline.name, initial: outline.initial.map { outline.states[$0].label } ?? "",
                  states: top.map(make))
    }

    /// The specs of every flow alive in a supervisor's tree, each flow once, roots first: written to
    /// `<name>.json` side by side, they are what `flowviz simulate` runs (a state's `child` names the
    /// child flow's file).
    public static func specs(of supervisor: Supervisor) -> [FlowSpec] {
        var seen: Set<String> = []
        return supervisor.machines.compactMap { machine in
            guard seen.insert(machine.flow).inserted, let outline = supervisor.outline(of: machine.id) else { return nil }
            return FlowSpec(outline)
        }
    }
}
