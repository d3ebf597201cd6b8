import FlowGraph

/// How big flows are laid out in bounded time.
///
/// `dot`'s default network-simplex ranking and spline routing grow steeply with size and back edges
/// (more than 100 s for 200 states and 400 labelled transitions on a 2-core machine). Past a size,
/// the policy bounds the work with layout attributes; see `docs/PERFORMANCE.md` for the measurements
/// behind the thresholds.
public enum LayoutPolicy {
    /// The layout engine for a graph: always `dot` (layered drawings read best for flows).
    public static func engine(for graph: FlowGraph) -> String { "dot" }

    /// Graph attributes that bound `dot`'s work for a graph of this size (empty for small graphs).
    public static func boundedAttributes(nodes: Int, edges: Int) -> [String: String] {
        guard nodes + edges > 60 else { return [:] }
        return [
            "nslimit": "2", "nslimit1": "2",    // cap network-simplex iterations (ranking, positioning)
            "mclimit": "0.2",                   // fewer crossing-minimization passes
            "searchsize": "10",
            "splines": "polyline",              // polylines instead of spline routing
            "remincross": "false",
        ]
    }

    /// Applies ``boundedAttributes(nodes:edges:)`` to a graph (its own attributes win).
    public static func bound(_ graph: inout FlowGraph) {
        graph.graphAttributes = boundedAttributes(nodes: graph.nodes.count, edges: graph.edges.count)
            .merging(graph.graphAttributes) { $1 }
    }
}
