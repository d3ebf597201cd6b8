import FlowGraph

/// How big flows are laid out in bounded time.
///
/// With default settings, `dot` turns every edge label into a virtual node that ranking, crossing
/// minimization and spline routing all pay for: on generated flows with two labelled transitions per
/// state and random back edges, 200 states take 16 s with labels as external labels and more than
/// 60 s with ordinary labels, even with bounded iteration counts. Past 30 states or 60 transitions, the policy
/// marks edge labels external (`FlowDiagram.externalEdgeLabels`) and bounds network simplex,
/// crossing minimization and routing. `DOTWriter` writes external labels as label nodes, which
/// `dot` places without overlaps (`EdgeLabelPlacement.labelNodes`), in clustered graphs of any size
/// and in flat graphs up to `EdgeLabelPlacement.labelNodeLimit` states; bigger flat graphs get
/// `xlabel`s placed after the layout (`forcelabels`), fast but free to overlap. Measurements and
/// commands are in `docs/PERFORMANCE.md`.
public enum LayoutPolicy {
    /// Graphs with more states or transitions than this are laid out with bounded work.
    static let threshold = (states: 30, transitions: 60)

    /// The layout engine for a graph: always `dot`, whose layered drawings read best for flows.
    static func engine(for graph: FlowDiagram) -> String { "dot" }

    /// Whether a graph of this size gets the bounded layout.
    static func isLarge(nodes: Int, edges: Int) -> Bool {
        nodes > threshold.states || edges > threshold.transitions
    }

    /// Graph attributes that bound `dot`'s work (empty for small graphs).
    static func boundedAttributes(nodes: Int, edges: Int) -> [String: String] {
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
    static let referenceSpan = 6

    /// The DOT text the renderer lays out for a graph the policy has bounded (``bound(_:)``):
    /// `DOTWriter.dot(_:)`, except for a flat graph bigger than `EdgeLabelPlacement.labelNodeLimit`,
    /// whose labels `DOTWriter` writes as external labels. Those are placed after the layout, over
    /// whatever is there (57 problems in a generated flow of 200 states); this draws them as label
    /// nodes instead, with every edge whose ends lie more than 6 layers apart drawn
    /// as a reference. Without its long edges, `dot` lays 200 states out in about 0.1 s and 400 in
    /// 0.2 s, with no label over another or over a state (long edges are what it spends its time on:
    /// each is a chain of virtual nodes that ordering, positioning and routing pay for).
    ///
    /// A collapsed picture (one with a node carrying `FlowDiagram.collapsedStatesAttribute`) with more
    /// than `pictureLimit.transitions` edges is drawn with references too, whatever its shape: the
    /// edges between collapsed states of a big flow are many and long.
    public static func dot(_ graph: FlowDiagram) -> String {
        if graph.externalEdgeLabels, graph.edges.count > pictureLimit.transitions,
           graph.nodes.contains(where: { $0.attributes[FlowDiagram.collapsedStatesAttribute] != nil }) {
            return DOTWriter.dot(graph, edgeLabels: .labelNodes, referenceSpan: referenceSpan)
        }
        guard graph.externalEdgeLabels, EdgeLabelPlacement(for: graph) == .external else { return DOTWriter.dot(graph) }
        return DOTWriter.dot(graph, edgeLabels: .labelNodes, referenceSpan: referenceSpan)
    }

    /// Applies the policy to a graph (its own attributes win).
    ///
    /// A graph with clusters (compound states) never has Graphviz edge labels: Graphviz 2.43's dot
    /// layout (Debian 12) frees a block twice in `gvFreeLayout` for some clustered graphs with
    /// labelled edges that form cycles (found by AddressSanitizer on
    /// `Tests/FlowSpecTests/Flows/door.scxml`, reproduced in plain C against libgvc). In-process, that
    /// double free could abort the host process. Its labels are marked external
    /// (`FlowDiagram.externalEdgeLabels`), which `DOTWriter` writes for a clustered graph as label
    /// nodes (`EdgeLabelPlacement.labelNodes`): `dot` places them as it places states, so they
    /// cannot overlap (external labels, `xlabel`, also avoid the crash but are placed after the
    /// layout, over whatever is there).
    public static func bound(_ graph: inout FlowDiagram) {
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

extension LayoutPolicy {
    /// How a flow too big for one picture is drawn: whole, or with its compound states collapsed
    /// below a depth (`FlowDiagram.collapsed(toDepth:)`; `FlowDiagram.pages(depth:)` draws what they hold
    /// on pages of their own).
    public enum Collapse: Hashable, Sendable, CustomStringConvertible {
        /// Every state drawn, whatever the size.
        case none
        /// Collapsed at the depth ``collapseDepth(for:under:_:)`` chooses: none up to
        /// ``pictureLimit``, else the deepest whose picture fits in it.
        case automatic
        /// The compound states at this depth collapsed (0: the top level's).
        case depth(Int)

        /// `none`, `auto` or a depth (a number, 0 or more); `nil` for anything else.
        public init?(_ text: String) {
            switch text.lowercased() {
            case "none": self = .none
            case "auto", "automatic": self = .automatic
            default:
                guard let depth = Int(text), depth >= 0 else { return nil }
                self = .depth(depth)
            }
        }

        /// `none`, `auto` or the depth.
        public var description: String {
            switch self {
            case .none: "none"
            case .automatic: "auto"
            case .depth(let depth): "\(depth)"
            }
        }
    }

    /// The most a single picture draws before ``Collapse/automatic`` collapses a nested flow: 300
    /// states (compound states included) or 600 transitions.
    ///
    /// Measured on seeded generated flows nested three levels deep with two labelled transitions per
    /// leaf state, one a random jump anywhere in the flow (the legibility tests' flows), in-process on
    /// 2 cores shared with other builds (`FLOWSTATE_MEASURE=1 swift test --filter
    /// CollapseTests/measure`; the table is in `docs/PERFORMANCE.md`). The legibility check finds
    /// nothing wrong in the whole picture at any size measured (up to 2,300 states), but the time
    /// does not hold: 288 states (200 leaves) render in 0.19 s (0.69 s with the machine's load
    /// average at 6), 432 in 0.68 s (2.1 s), 575 in 1.2 s (4.9 s), 1,150 in 5.5 s (15 s) and 2,300
    /// in 28 s (59 s). 300 is the biggest size that stays under a second when the machine is busy;
    /// past it the budget goes, and so does a picture anyone reads at once. Collapsed to the depth
    /// ``collapseDepth(for:under:_:)`` chooses, every page of those flows renders in under half a
    /// second, and all 201 pages of the 2,300-state flow in 1.5 s.
    /// A flat flow has nothing to collapse: it is drawn whole, its long edges as references
    /// (``dot(_:)``).
    public static let pictureLimit = (states: 300, transitions: 600)

    /// The depth at which to collapse a graph's compound states (or, `under` a compound state,
    /// those of its page), or `nil` to draw every state.
    ///
    /// ``Collapse/automatic``: `nil` when the whole picture has at most ``pictureLimit`` states and
    /// transitions, or when the flow has nothing to collapse; otherwise the deepest depth whose
    /// collapsed picture has at most `pictureLimit.states` nodes (`FlowDiagram.collapsedSizes(under:)`),
    /// or 0 when none does. Its transitions are not counted there: where a collapsed picture has
    /// more than `pictureLimit.transitions` edges, ``dot(_:)`` draws its long ones as references,
    /// which keeps its layout under a second (in the measurements above, an overview of 300 nodes and
    /// 1,858 merged edges renders in 0.46 s).
    public static func collapseDepth(for graph: FlowDiagram, under state: String? = nil,
                                     _ collapse: Collapse = .automatic) -> Int? {
        switch collapse {
        case .none:
            return nil
        case .depth(let depth):
            return depth
        case .automatic:
            let sizes = graph.collapsedSizes(under: state)
            guard let whole = sizes.last, sizes.count > 1,
                  whole.nodes > pictureLimit.states || whole.edges > pictureLimit.transitions else { return nil }
            return sizes.dropLast().lastIndex { $0.nodes <= pictureLimit.states } ?? 0
        }
    }
}
