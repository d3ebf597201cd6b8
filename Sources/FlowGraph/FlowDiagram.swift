import Flowstate

/// A flow as a graph: states as nodes (compound states as clusters), transitions as labelled edges.
/// A state's node carries its entry and exit effects and the child flow it runs, which every writer
/// draws under its name (``Node/detailLines``).
///
/// Built from a definition without running it. Node identifiers are generated (`s0`, `s1`, ...)
/// from declaration order, so every name a user writes appears only in labels, which the writers
/// escape. The same definition always gives the same graph.
public struct FlowDiagram: Hashable, Sendable {
    /// How a state is drawn.
    public enum NodeKind: Hashable, Sendable {
        /// A state without children.
        case state
        /// A state with children: drawn as a cluster around them.
        case compound
        /// A final state: drawn with a double border.
        case final
    }

    /// A state.
    public struct Node: Hashable, Sendable {
        /// A generated identifier, safe in every format.
        public var id: String
        /// The state's label.
        public var label: String
        /// State, compound or final.
        public var kind: NodeKind
        /// The identifier of the compound state that contains it.
        public var parent: String?
        /// For a state that runs a child flow under a supervisor, the child flow's name.
        public var childFlow: String?
        /// Labels of its entry effects, then the names of its entry emits, in the order they run.
        public var entry: [String] = []
        /// Labels of its exit effects, then the names of its exit emits, in the order they run.
        public var exit: [String] = []
        /// Whether the state is a parallel state: its children are regions, all active at once (DOT
        /// draws it as a dashed cluster marked ∥, Mermaid separates its regions with `--`).
        public var isParallel = false
        /// For a compound state, the identifier of the child entered first, as the definition declares
        /// it (`FlowOutline.State.initial`): the writers mark it with the initial marker inside the
        /// state (DOT: a dot with an arrow to it, Mermaid: `[*] -->`). A parallel state's regions are
        /// all entered, so the writers mark none in it, whatever this says. `nil`: nothing marked.
        public var initialChild: String?
        /// Extra DOT attributes (they override the defaults). A `label` replaces the state's name in
        /// the drawing; the lines that follow it (``detailLines``) stay.
        public var attributes: [String: String] = [:]

        /// Creates a node.
        public init(id: String, label: String, kind: NodeKind, parent: String? = nil, childFlow: String? = nil,
                    entry: [String] = [], exit: [String] = [], initialChild: String? = nil,
                    attributes: [String: String] = [:]) {
            self.id = id
            self.initialChild = initialChild
            self.label = label
            self.kind = kind
            self.parent = parent
            self.childFlow = childFlow
            self.entry = entry
            self.exit = exit
            self.attributes = attributes
        }

        /// What a drawing says of the state under its name, one line each, as statechart diagrams
        /// (UML, SCXML editors) write it: `entry / effect` for each entry effect or emit,
        /// `exit / effect` for each exit effect or emit, then `runs ▸ child` for the child flow it runs.
        /// The one place these lines are made: `DOTWriter` draws them in the state's box (or a compound
        /// state's cluster label), `MermaidWriter` as the state's description lines.
        public var detailLines: [String] {
            var lines: [String] = []
            lines.reserveCapacity(entry.count + exit.count + 1)
            for effect in entry { lines.append(Self.entryPrefix + effect) }
            for effect in exit { lines.append(Self.exitPrefix + effect) }
            if let childFlow { lines.append(Self.childPrefix + childFlow) }
            return lines
        }

        /// Every line the drawing of the state shows: its name (or `title`), then ``detailLines``.
        /// - Parameter title: The first line (default: the state's ``label``).
        public func lines(title: String? = nil) -> [String] { [title ?? label] + detailLines }

        /// What starts the line of an entry effect: `entry / `.
        static let entryPrefix = "entry / "
        /// What starts the line of an exit effect: `exit / `.
        static let exitPrefix = "exit / "
        /// What starts the line naming the child flow a state runs: `runs ▸ `.
        static let childPrefix = "runs ▸ "
    }

    /// A transition, or several merged.
    public struct Edge: Hashable, Sendable {
        /// The source node.
        public var from: String
        /// The target node; equal to `from` for a targetless transition.
        public var to: String
        /// `event [guard] / effects`; merged edges join their labels with a newline.
        public var label: String
        /// The event labels, one per merged transition (`nil` for an eventless one).
        public var events: [String?]
        /// Extra DOT attributes (they override the defaults).
        public var attributes: [String: String] = [:]
        /// The declared transitions the edge draws, by position in the flow's declarations (what
        /// `FlowTransitionID.position` names): one, or several when edges are merged.
        public var transitions: [Int]

        /// Creates an edge.
        public init(from: String, to: String, label: String, events: [String?], attributes: [String: String] = [:],
                    transitions: [Int] = []) {
            self.from = from
            self.to = to
            self.label = label
            self.events = events
            self.attributes = attributes
            self.transitions = transitions
        }
    }

    /// The flow's name.
    public var name: String
    /// The identifier of the initial state.
    public var initial: String?
    /// The states, in declaration order (a parent before its children).
    public var nodes: [Node]
    /// The transitions, in declaration order.
    public var edges: [Edge]
    /// Extra graph attributes for DOT (they override the defaults), for example `["rankdir": "TB"]`.
    public var graphAttributes: [String: String] = [:]
    /// Keep edge labels out of Graphviz's own edge labels: `DOTWriter` writes them as label nodes on
    /// their edges for a clustered graph (Graphviz 2.43 can free a block twice laying out labelled
    /// edges in clusters), and as external labels (`xlabel`) for a flat one, which
    /// `LayoutPolicy.dot` in `FlowGraphviz` lays out as label nodes too, so no label lies over another.
    public var externalEdgeLabels = false

    /// Creates a graph from parts (for example, read from a file).
    public init(name: String, initial: String?, nodes: [Node], edges: [Edge]) {
        self.name = name
        self.initial = initial
        self.nodes = nodes
        self.edges = edges
    }

    /// The graph of a definition.
    /// - Parameters:
    ///   - definition: The flow.
    ///   - mergeParallelEdges: Draw the transitions between the same two states as one edge
    ///     whose label lists them all, one a line.
    public init<F: Flow>(_ definition: FlowDefinition<F>, mergeParallelEdges: Bool = false) {
        self.init(definition.outline, mergeParallelEdges: mergeParallelEdges)
    }

    /// The graph of a flow's outline (from a definition, or from a live machine of a supervisor).
    /// - Parameters:
    ///   - outline: The flow's structure.
    ///   - mergeParallelEdges: Draw the transitions between the same two states as one edge.
    ///   - prefix: Prepended to every node identifier (to draw several flows in one graph).
    public init(_ outline: FlowOutline, mergeParallelEdges: Bool = false, prefix: String = "") {
        name = outline.name
        initial = outline.initial.map { "\(prefix)s\($0)" }
        nodes = outline.states.enumerated().map { i, state in
            var node = Node(id: "\(prefix)s\(i)", label: state.label,
                            kind: state.kind == .final ? .final
                                : (state.kind == .compound || state.kind == .parallel ? .compound : .state),
                            parent: state.parent.map { "\(prefix)s\($0)" }, childFlow: state.childFlow,
                            entry: state.entry, exit: state.exit, initialChild: state.initial.map { "\(prefix)s\($0)" })
            if state.kind == .parallel {
                // A parallel state is a dashed cluster marked ∥ (UML's and SCXML editors' mark); its
                // regions are the clusters inside it, side by side.
                node.isParallel = true
                node.attributes["style"] = "dashed,rounded"
                node.attributes["label"] = "\(state.label) ∥"
            }
            if let history = state.history, state.kind == .history {
                // UML's and SCXML editors' marks: H for shallow history, H* for deep.
                node.attributes["shape"] = "circle"
                node.attributes["label"] = history == .deep ? "H*" : "H"
                node.attributes["tooltip"] = "\(history.rawValue) history '\(state.label)'"
            }
            return node
        }
        edges = []
        // A history's default transition: an unlabelled edge to the state entered on the first visit.
        for (i, state) in outline.states.enumerated() where state.kind == .history {
            guard let target = state.historyDefault else { continue }
            edges.append(Edge(from: "\(prefix)s\(i)", to: "\(prefix)s\(target)", label: "", events: [nil]))
        }
        for (position, t) in outline.transitions.enumerated() {
            guard let target = t.targetless ? t.source : t.target else { continue }  // undeclared: not drawn
            // A transition into several regions is drawn as one edge to each target.
            let drawn = Self.edgeStyle(of: t.type, label: t.label)
            for target in [target] + t.moreTargets {
                edges.append(Edge(from: "\(prefix)s\(t.source)", to: "\(prefix)s\(target)", label: drawn.label,
                                  events: [t.event], attributes: drawn.attributes, transitions: [position]))
            }
        }
        if mergeParallelEdges { mergeEdges() }
    }

    /// How the edge of a transition of `type` labelled `label` is drawn: an internal transition
    /// (``TransitionType/internal``: it does not exit its source) is dotted, with a tooltip that says
    /// so, and its label marked `(internal)` (Mermaid's state diagrams have no dotted edges: the mark
    /// is what they show). The one place that decides it, for definitions and flow files alike (DOT,
    /// SVG through DOT, Mermaid).
    static func edgeStyle(of type: TransitionType, label: String) -> (label: String, attributes: [String: String]) {
        switch type {
        case .external:
            (label, [:])
        case .internal:
            (label.isEmpty ? "(internal)" : label + " (internal)",
             ["style": "dotted", "tooltip": "internal: does not exit its source"])
        }
    }

    /// Merges edges between the same two nodes into one, keeping the first one's place.
    mutating func mergeEdges() {
        var merged: [Edge] = []
        var position: [String: Int] = [:]
        for edge in edges {
            let key = edge.from + "\u{0}" + edge.to
            if let i = position[key] {
                merged[i].label += "\n" + edge.label
                merged[i].events += edge.events
                merged[i].transitions += edge.transitions
            } else {
                position[key] = merged.count
                merged.append(edge)
            }
        }
        edges = merged
    }

    /// The node with an identifier.
    public func node(_ id: String) -> Node? { nodes.first { $0.id == id } }

    /// The identifier of the node with a label.
    public func id(ofLabel label: String) -> String? { nodes.first { $0.label == label }?.id }

    /// A node's ancestors' identifiers, innermost first (not including itself).
    func ancestors(of id: String) -> [String] {
        var result: [String] = []
        var current = node(id)?.parent
        while let parent = current {
            result.append(parent)
            current = node(parent)?.parent
        }
        return result
    }

    /// Children of a node (or top-level nodes for `nil`), in order.
    func children(of parent: String?) -> [Node] { nodes.filter { $0.parent == parent } }
}
