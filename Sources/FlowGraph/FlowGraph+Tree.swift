import Flowstate

extension FlowGraph {
    /// The graph of a live supervisor tree: each machine's flow, each child machine drawn as a cluster
    /// inside the parent state that runs it (or beside its parent, for a dynamically spawned child),
    /// and every machine's active states highlighted (every active leaf, with parallel states).
    public init(supervisor: Supervisor) {
        self.init(name: "supervisor", initial: nil, nodes: [], edges: [])
        let machines = supervisor.machines
        var placed: [MachineID: String] = [:]  // machine -> the node its cluster sits in (or nil)
        for machine in machines {
            guard let outline = supervisor.outline(of: machine.id) else { continue }
            let prefix = "m\(machine.id.rawValue)_"
            var graph = FlowGraph(outline, prefix: prefix)
            // Children declared by a state of this machine sit inside that state, drawn around them.
            for child in machine.children {
                guard let info = machines.first(where: { $0.id == child }), let parentState = info.parentState,
                      let i = graph.nodes.firstIndex(where: { $0.label == parentState }) else { continue }
                placed[child] = graph.nodes[i].id
                graph.nodes[i].kind = .compound
            }
            graph.highlight(states: machine.leaves)
            // The machine itself is a cluster, inside its parent's state (declared) or its parent (dynamic).
            let container = "\(prefix)flow"
            var parentNode: String? = placed[machine.id]
            if let parent = machine.parent, parentNode == nil {
                parentNode = "m\(parent.rawValue)_flow"
            }
            nodes.append(Node(id: container, label: "\(machine.flow) \(machine.id)", kind: .compound, parent: parentNode,
                              attributes: ["color": "#2563eb", "style": "rounded,bold"]))
            for var node in graph.nodes {
                if node.parent == nil { node.parent = container }
                nodes.append(node)
            }
            edges += graph.edges
            if initial == nil { initial = graph.initial }
        }
    }
}
