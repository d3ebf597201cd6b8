import FlowGraph

/// How big flows are laid out in bounded time.
///
/// With default settings, `dot` turns every edge label into a virtual node that ranking, crossing
/// minimization and spline routing all pay for: on generated flows with two labelled transitions per
/// state and random back edges, 200 states take 16 s with labels as external labels and more than
/// 60 s with ordinary labels, even with bounded iteration counts. Past ``threshold``, the policy
/// marks edge labels external (`FlowGraph.externalEdgeLabels`) and bounds network simplex,
/// crossing minimization and routing. `DOTWriter` writes external labels as label nodes, which
/// `dot` places without overlaps (`EdgeLabelPlacement.labelNodes`), in clustered graphs of any size
/// and in flat graphs up to `EdgeLabelPlacement.labelNodeLimit` states; bigger flat graphs get
/// `xlabel`s placed after the layout (`forcelabels`), fast but free to overlap. Measurements and
/// commands are in `docs/PERFORMANCE.md`.
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

    /// How many layers apart (`DOTWriter.layers(of:)`) the ends of an edge may lie before
    /// ``dot(_:)`` draws it as a reference in a big flat flow: an arrow to its label, which names the
    /// target state.
    public static let referenceSpan = 6

    /// The DOT text the renderer lays out for a graph the policy has bounded (``bound(_:)``):
    /// `DOTWriter.dot(_:)`, except for a flat graph bigger than `EdgeLabelPlacement.labelNodeLimit`,
    /// whose labels `DOTWriter` writes as external labels. Those are placed after the layout, over
    /// whatever is there (57 problems in a generated flow of 200 states); this draws them as label
    /// nodes instead, with every edge whose ends lie more than ``referenceSpan`` layers apart drawn
    /// as a reference. Without its long edges, `dot` lays 200 states out in about 0.1 s and 400 in
    /// 0.2 s, with no label over another or over a state (long edges are what it spends its time on:
    /// each is a chain of virtual nodes that ordering, positioning and routing pay for).
    public static func dot(_ graph: FlowGraph) -> String {
        guard graph.externalEdgeLabels, EdgeLabelPlacement(for: graph) == .external else { return DOTWriter.dot(graph) }
        return DOTWriter.dot(graph, edgeLabels: .labelNodes, referenceSpan: referenceSpan)
    }

    /// Applies the policy to a graph (its own attributes win).
    ///
    /// A graph with clusters (compound states) never has Graphviz edge labels: Graphviz 2.43's dot
    /// layout (Debian 12) frees a block twice in `gvFreeLayout` for some clustered graphs with
    /// labelled edges that form cycles (found by AddressSanitizer on
    /// `Tests/FlowGraphTests/Flows/door.scxml`, reproduced in plain C against libgvc). In-process, that
    /// double free could abort the host process. Its labels are marked external
    /// (`FlowGraph.externalEdgeLabels`), which `DOTWriter` writes for a clustered graph as label
    /// nodes (`EdgeLabelPlacement.labelNodes`): `dot` places them as it places states, so they
    /// cannot overlap (external labels, `xlabel`, also avoid the crash but are placed after the
    /// layout, over whatever is there).
    public static func bound(_ graph: inout FlowGraph) {
        if graph.nodes.contains(where: { $0.kind == .compound }) {
            graph.externalEdgeLabels = true
            graph.graphAttributes = ["forcelabels": "true"].merging(graph.graphAttributes) { $1 }
        }
        guard isLarge(nodes: graph.nodes.count, edges: graph.edges.count) else { return }
        graph.externalEdgeLabels = true
        graph.graphAttributes = boundedAttributes(nodes: graph.nodes.count, edges: graph.edges.count)
            .merging(graph.graphAttributes) { $1 }
    }
}
