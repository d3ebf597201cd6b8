import FlowGraph

/// How big flows are laid out in bounded time.
///
/// With default settings, `dot` turns every edge label into a virtual node that ranking, crossing
/// minimization and spline routing all pay for: on generated flows with two labelled transitions per
/// state and random back edges, 200 states take 16 s with labels as external labels and more than
/// 60 s with ordinary labels, even with bounded iteration counts. Past ``threshold``, the policy
/// places edge labels after the layout (`xlabel`, `forcelabels`) and bounds network simplex,
/// crossing minimization and routing: 200 states then take about 0.6 s. Measurements and commands
/// are in `docs/PERFORMANCE.md`.
public enum LayoutPolicy {
    /// Graphs with more states or transitions than this are laid out with bounded work.
    public static let threshold = (states: 30, transitions: 60)

    /// The layout engine for a graph: always `dot`, whose layered drawings read best for flows.
    public static func engine(for graph: FlowGraph) -> String { "dot" }

    /// Whether a graph of this size gets the bounded layout.
    public static func isLarge(nodes: Int, edges: Int) -> Bool {
        nodes > threshold.states || edges > threshold.transitions
    }

    /// Graph attributes that bound `dot`'s work (empty for small graphs).
    public static func boundedAttributes(nodes: Int, edges: Int) -> [String: String] {
        guard isLarge(nodes: nodes, edges: edges) else { return [:] }
        return [
            "nslimit": "2", "nslimit1": "2",    // cap network-simplex iterations (ranking, positioning)
            "mclimit": "0.2",                   // fewer crossing-minimization passes
            "searchsize": "10",
            "splines": "polyline",              // polylines instead of spline routing
            "remincross": "false",
            "forcelabels": "true",              // draw every external label
        ]
    }

    /// Applies the policy to a graph (its own attributes win).
    ///
    /// A graph with clusters (compound states) always gets its edge labels as external labels:
    /// Graphviz 2.43's dot layout (Debian 12) frees a block twice in `gvFreeLayout` for some clustered
    /// graphs with labelled edges that form cycles (found by AddressSanitizer on
    /// `Tests/FlowGraphTests/Flows/door.scxml`, reproduced in plain C against libgvc; edge labels as
    /// `xlabel` do not trigger it). In-process, that double free could abort the host process.
    public static func bound(_ graph: inout FlowGraph) {
        if graph.nodes.contains(where: { $0.kind == .compound }) {
            graph.externalEdgeLabels = true
            // External labels take no part in the layout: leave them room.
            graph.graphAttributes = ["forcelabels": "true", "ranksep": "1.6", "nodesep": "0.9"]
                .merging(graph.graphAttributes) { $1 }
        }
        guard isLarge(nodes: graph.nodes.count, edges: graph.edges.count) else { return }
        graph.externalEdgeLabels = true
        graph.graphAttributes = boundedAttributes(nodes: graph.nodes.count, edges: graph.edges.count)
            .merging(graph.graphAttributes) { $1 }
    }
}
