import FlowGraph
import Flowstate

/// Seeded generated flows like the exporter benchmark's: a chain of labelled transitions and one
/// labelled jump per state, flat or nested three levels deep (groups of 16, 8 and 4 states).
public enum LegibilityFlows {
    /// `count` states in a chain with seeded random jumps, flat or in groups of 16, 8 and 4.
    public static func generated(_ count: Int, nested: Bool, seed: UInt64 = 0x5EED) -> FlowDiagram {
        var random = seed
        func next() -> Int {  // xorshift64*
            random ^= random >> 12
            random ^= random << 25
            random ^= random >> 27
            return Int((random &* 2_685_821_657_736_338_717) >> 33)
        }
        var nodes: [FlowDiagram.Node] = []
        var parentOf: [String?] = Array(repeating: nil, count: count)
        if nested {
            var clusters = 0
            func cluster(_ label: String, parent: String?) -> String {
                defer { clusters += 1 }
                nodes.append(FlowDiagram.Node(id: "c\(clusters)", label: "\(label) \(clusters)", kind: .compound, parent: parent))
                return "c\(clusters)"
            }
            for first in stride(from: 0, to: count, by: 16) {
                let outer = cluster("group", parent: nil)
                for second in stride(from: first, to: min(first + 16, count), by: 8) {
                    let middle = cluster("part", parent: outer)
                    for third in stride(from: second, to: min(second + 8, count), by: 4) {
                        let inner = cluster("step", parent: middle)
                        for i in third..<min(third + 4, count) { parentOf[i] = inner }
                    }
                }
            }
        }
        for i in 0..<count {
            nodes.append(FlowDiagram.Node(id: "s\(i)", label: "state \(i)", kind: i == count - 1 ? .final : .state, parent: parentOf[i]))
        }
        var edges: [FlowDiagram.Edge] = []
        for i in 0..<(count - 1) {
            edges.append(FlowDiagram.Edge(from: "s\(i)", to: "s\(i + 1)", label: "next\(i) [ok] / push(screen\(i))",
                                        events: ["next\(i)"], transitions: [edges.count]))
            let jump = next() % count
            if jump != count - 1 {
                edges.append(FlowDiagram.Edge(from: "s\(i)", to: "s\(jump)", label: "jump\(i) / effect\(jump)",
                                            events: ["jump\(i)"], transitions: [edges.count]))
            }
        }
        if nested {  // a transition out of every outer group, drawn from its border
            for node in nodes where node.kind == .compound && node.parent == nil {
                edges.append(FlowDiagram.Edge(from: node.id, to: "s\(count - 1)", label: "cancel \(node.id)",
                                            events: ["cancel"], transitions: [edges.count]))
            }
        }
        return FlowDiagram(name: "generated-\(count)\(nested ? "-nested" : "")", initial: "s0", nodes: nodes, edges: edges)
    }

    /// A run along the chain with the jumps it meets, as the engine would report it.
    public static func trace(of graph: FlowDiagram) -> FlowTrace {
        var steps = [FlowTrace.Step(from: nil, to: "state 0", event: nil)]
        for (position, edge) in graph.edges.enumerated() where edge.from.hasPrefix("s") && edge.to.hasPrefix("s") {
            guard let from = graph.node(edge.from)?.label, let to = graph.node(edge.to)?.label else { continue }
            steps.append(FlowTrace.Step(from: from, to: to, event: edge.events[0], transitions: [position]))
        }
        return FlowTrace(steps: steps)
    }
}
