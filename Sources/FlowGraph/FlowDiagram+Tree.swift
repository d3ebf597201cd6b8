import Flowstate

extension FlowDiagram {
    /// The graph of a live supervisor tree: each machine's flow, each child machine drawn as a cluster
    /// inside the state of its parent that started it, and every machine's active states highlighted
    /// (every active leaf, with parallel states).
    ///
    /// A declared child sits in the parent state that runs it (`MachineInfo.parentState`). A child
    /// spawned by hand (`Supervisor.spawn`, what `Coordinator.start` does for a flow bound to its
    /// screen) sits in the state its parent rests in, the state it was started from while the parent
    /// stays there: the supervisor records no state for such a child, only its parent. When the parent
    /// rests in several leaves (regions of a parallel state), which one started the child is not
    /// known, and the child is drawn beside the parent's states, in the parent's cluster.
    public init(supervisor: Supervisor) {
        self.init(name: "supervisor", initial: nil, nodes: [], edges: [])
        let machines = supervisor.machines
        var placed: [MachineID: String] = [:]  // machine -> the node its cluster sits in (or nil)
        for machine in machines {
            guard let outline = supervisor.outline(of: machine.id) else { continue }
            let prefix = "m\(machine.id.rawValue)_"
            var graph = FlowDiagram(outline, prefix: prefix)
            // Children sit inside the state that started them, drawn around them: a declared child's
            // parent state; a spawned child's, the one leaf the machine rests in.
            for child in machine.children {
                guard let info = machines.first(where: { $0.id == child }) else { continue }
                let startedBy = info.parentState ?? (machine.leaves.count == 1 ? machine.leaves.first : nil)
                guard let startedBy, let i = graph.nodes.firstIndex(where: { $0.label == startedBy }) else { continue }
                placed[child] = graph.nodes[i].id
                graph.nodes[i].kind = .compound
            }
            graph.highlight(states: machine.leaves)
            // The machine itself is a cluster, inside the state that started it, or beside its parent's
            // states. Its cluster marks its flow's initial state, except the first root's, which the
            // graph's start marks.
            let container = "\(prefix)flow"
            let takesStart = initial == nil
            var parentNode: String? = placed[machine.id]
            if let parent = machine.parent, parentNode == nil {
                parentNode = "m\(parent.rawValue)_flow"
            }
            nodes.append(Node(id: container, label: "\(machine.flow) \(machine.id)", kind: .compound, parent: parentNode,
                              initialChild: takesStart ? nil : graph.initial,
                              attributes: ["color": "#2563eb", "style": "rounded,bold"]))
            for var node in graph.nodes {
                if node.parent == nil { node.parent = container }
                nodes.append(node)
            }
            edges += graph.edges
            if takesStart { initial = graph.initial }
        }
    }
}
