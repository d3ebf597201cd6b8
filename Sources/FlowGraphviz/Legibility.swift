import CGraphviz
import FlowGraph
import Foundation

/// Something a reader of a picture must be able to see: a state, or a label, where Graphviz laid it out.
public struct LegibilityItem: Hashable, Sendable, CustomStringConvertible {
    /// What the item is.
    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// A node (a state), with its label inside it.
        case node
        /// A node's external label (`xlabel`), for example an overlay's visit count.
        case nodeLabel
        /// An edge's label: inline, external (`xlabel`), at its head or tail, or drawn as a label node.
        case edgeLabel
        /// A cluster's (a compound state's) label.
        case clusterLabel
        /// A cluster's box (a compound state's border).
        case cluster

        /// `node`, `node label`, `edge label` or `cluster label`.
        public var description: String {
            switch self {
            case .node: "node"
            case .nodeLabel: "node label"
            case .edgeLabel: "edge label"
            case .clusterLabel: "cluster label"
            case .cluster: "cluster"
            }
        }
    }

    /// What the item is.
    public var kind: Kind
    /// The text a reader sees (line breaks as spaces).
    public var text: String
    /// What the item belongs to, by Graphviz's names: the node, the edge (`tail -> head`) or the cluster.
    public var owner: String
    /// Where it is, in points (y upwards, as Graphviz lays out).
    public var box: Box
    /// The font its text is drawn with (Graphviz's `fontname`).
    public var fontName: String

    /// An axis-aligned box: centre and size, in points.
    public struct Box: Hashable, Sendable {
        /// The centre's x.
        public var x: Double
        /// The centre's y.
        public var y: Double
        /// The width.
        public var width: Double
        /// The height.
        public var height: Double

        /// Creates a box from its centre and size.
        init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// The left edge.
        public var minX: Double { x - width / 2 }
        /// The right edge.
        public var maxX: Double { x + width / 2 }
        /// The bottom edge.
        public var minY: Double { y - height / 2 }
        /// The top edge.
        public var maxY: Double { y + height / 2 }

        /// Whether two boxes share more than `tolerance` points in both directions (touching is fine).
        func overlaps(_ other: Box, tolerance: Double) -> Bool {
            min(maxX, other.maxX) - max(minX, other.minX) > tolerance
                && min(maxY, other.maxY) - max(minY, other.minY) > tolerance
        }

        /// Whether the box sticks out of `outer` by more than `tolerance` points on any side.
        func sticksOut(of outer: Box, tolerance: Double) -> Bool {
            minX < outer.minX - tolerance || maxX > outer.maxX + tolerance
                || minY < outer.minY - tolerance || maxY > outer.maxY + tolerance
        }
    }

    /// Creates an item.
    init(kind: Kind, text: String, owner: String, box: Box, fontName: String = DOTWriter.defaultFontName) {
        self.kind = kind
        self.text = text
        self.owner = owner
        self.box = box
        self.fontName = fontName
    }

    /// For example `edge label 'submit / push' (s1 -> s2)`.
    public var description: String { "\(kind) '\(text)' (\(owner))" }
}

/// A reason a laid-out picture cannot be read, naming what is wrong and where.
public struct LegibilityProblem: Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Hashable, Sendable {
        /// Two labels overlap.
        case labelsOverlap
        /// A label lies over a node it does not belong to.
        case labelOverNode
        /// Two nodes overlap.
        case nodesOverlap
        /// A label lies across a cluster's border (partly inside a compound state, partly outside).
        case labelOnClusterBorder
        /// The item sticks out of the graph's bounding box, so the picture clips it.
        case clipped
        /// Graphviz did not place the label, so the picture leaves it out.
        case notDrawn
        /// No installed font has a glyph for some of the text's characters: they are drawn as boxes.
        case missingGlyphs([Unicode.Scalar])
    }

    /// What is wrong.
    public let kind: Kind
    /// The item at fault (for an overlap, a label when one of the two is).
    public let item: LegibilityItem
    /// For an overlap, the other item.
    public let other: LegibilityItem?

    /// Creates a problem.
    init(kind: Kind, item: LegibilityItem, other: LegibilityItem? = nil) {
        self.kind = kind
        self.item = item
        self.other = other
    }

    /// One sentence naming both things, for example
    /// `edge label 'cancel' (s1 -> s4) overlaps node 'editing' (s2)`.
    public var description: String {
        switch kind {
        case .labelsOverlap, .labelOverNode, .nodesOverlap:
            "\(item) overlaps \(other.map { "\($0)" } ?? "?")"
        case .labelOnClusterBorder:
            "\(item) lies across the border of \(other.map { "\($0)" } ?? "?")"
        case .clipped:
            "\(item) is clipped by the graph's bounding box"
        case .notDrawn:
            "\(item) was not placed by Graphviz and is not drawn"
        case .missingGlyphs(let scalars):
            "\(item) has characters no installed font draws: "
                + scalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: ", ")
        }
    }
}

extension GraphvizRenderer {
    /// Lays out DOT and reports everything in the result that a reader could not read: labels that
    /// overlap each other, labels over nodes they do not belong to, overlapping nodes, labels across
    /// a cluster's border, anything outside the graph's bounding box, labels Graphviz did not place,
    /// and characters no installed font draws (``FontCoverage``).
    ///
    /// The positions and sizes are Graphviz's own, read from the laid-out graph (the same layout
    /// that ``render(dot:format:engine:)`` draws). Nodes that carry `DOTWriter.labelNodeAttribute`
    /// are counted as edge labels.
    /// - Parameters:
    ///   - dot: The graph.
    ///   - engine: The layout engine.
    ///   - tolerance: How many points two boxes may share, or a box stick out, before it counts.
    public func legibility(of dot: String, engine: String = "dot", tolerance: Double = 1) throws(GraphvizError) -> [LegibilityProblem] {
        let layout = try laidOut(dot: dot, engine: engine)
        return Self.problems(in: layout, tolerance: tolerance)
    }

    /// Reports what a reader could not read in the picture ``render(_:format:engine:)`` draws of a
    /// flow graph (the layout policy applied).
    public func legibility(of graph: FlowDiagram, engine: String? = nil, tolerance: Double = 1) throws(GraphvizError) -> [LegibilityProblem] {
        var graph = graph
        LayoutPolicy.bound(&graph)
        return try legibility(of: LayoutPolicy.dot(graph), engine: engine ?? LayoutPolicy.engine(for: graph), tolerance: tolerance)
    }

    /// What Graphviz laid out: the graph's bounding box, the nodes, the labels, and the labels it
    /// did not place.
    struct Layout: Sendable {
        /// The whole graph's bounding box.
        public var bounds: LegibilityItem.Box
        /// Every node and placed label.
        public var items: [LegibilityItem]
        /// Labels that exist but were not placed (drawn nowhere).
        public var unplaced: [LegibilityItem]
        /// The clusters' boxes.
        public var clusters: [LegibilityItem]
        /// Which node each node label belongs to: the index of the node in ``items``, by the
        /// label's index.
        public var ownerNode: [Int: Int]

        /// Creates a layout (Graphviz's is read by ``GraphvizRenderer/laidOut(dot:engine:)``).
        public init(bounds: LegibilityItem.Box, items: [LegibilityItem], unplaced: [LegibilityItem] = [],
                    clusters: [LegibilityItem] = [], ownerNode: [Int: Int] = [:]) {
            self.bounds = bounds
            self.items = items
            self.unplaced = unplaced
            self.clusters = clusters
            self.ownerNode = ownerNode
        }
    }

    /// Lays out DOT and reads back every node's and label's position and size.
    func laidOut(dot: String, engine: String = "dot") throws(GraphvizError) -> Layout {
        try Graphviz.withContext { (context: OpaquePointer) throws(GraphvizError) -> Layout in
            let graph = try Graphviz.parse(dot)
            defer { agclose(graph) }
            guard gvLayout(context, graph, engine) == 0 else {
                throw GraphvizError(code: .layoutFailed, message: Graphviz.messages(or: "layout with engine '\(engine)' failed"))
            }
            defer { gvFreeLayout(context, graph) }
            return Self.read(graph)
        }
    }

    /// Reads the layout records of a laid-out graph (called with the Graphviz lock held).
    private static func read(_ graph: UnsafeMutablePointer<Agraph_t>) -> Layout {
        var items: [LegibilityItem] = []
        var unplaced: [LegibilityItem] = []
        var ownerNode: [Int: Int] = [:]
        var clusters: [LegibilityItem] = []
        var box = fs_box()
        var text: UnsafePointer<CChar>?
        var font: UnsafePointer<CChar>?
        let bounds = item(fs_graph_box(graph))
        /// Records a label read with `state` (1 placed, 2 not placed).
        func add(_ state: Int32, _ kind: LegibilityItem.Kind, owner: String) {
            let label = LegibilityItem(kind: kind, text: labelText(text), owner: owner, box: item(box),
                                       fontName: font.map { String(cString: $0) } ?? "")
            if state == 1 { items.append(label) } else if state == 2 { unplaced.append(label) }
        }
        var node = agfstnode(graph)
        while let current = node {
            node = agnxtnode(graph, current)
            let object = UnsafeMutableRawPointer(current)
            guard fs_has_layout(object) != 0 else { continue }
            let name = String(cString: agnameof(object))
            let labelOf = fs_get(object, DOTWriter.labelNodeAttribute).map { String(cString: $0) } ?? ""
            var nodeIndex: Int?
            if !labelOf.isEmpty, fs_node_label(current, &box, &text, &font) != 0 {
                // A label node: what counts is its text, not the margin around it.
                add(1, .edgeLabel, owner: labelOf)
            } else {
                text = nil
                font = nil
                _ = fs_node_label(current, &box, &text, &font)
                items.append(LegibilityItem(kind: .node, text: labelText(text), owner: name, box: item(fs_node_box(current)),
                                            fontName: font.map { String(cString: $0) } ?? ""))
                nodeIndex = items.count - 1
            }
            let xlabel = fs_node_xlabel(current, &box, &text, &font)
            if xlabel == 1, let nodeIndex { ownerNode[items.count] = nodeIndex }
            add(xlabel, .nodeLabel, owner: name)
            var edge = agfstout(graph, current)
            while let out = edge {
                edge = agnxtout(graph, out)
                guard fs_has_layout(UnsafeMutableRawPointer(out)) != 0 else { continue }
                let owner = "\(name) -> \(String(cString: agnameof(UnsafeMutableRawPointer(fs_edge_head(out)))))"
                for kind in [fs_edge_label, fs_edge_xlabel, fs_edge_head_label, fs_edge_tail_label] {
                    add(fs_edge_text_label(out, kind, &box, &text, &font), .edgeLabel, owner: owner)
                }
            }
        }
        // Cluster labels, walking nested clusters with an explicit stack.
        var stack: [UnsafeMutablePointer<Agraph_t>] = []
        var sub = agfstsubg(graph)
        while let s = sub { stack.append(s); sub = agnxtsubg(s) }
        while let subgraph = stack.popLast() {
            var child = agfstsubg(subgraph)
            while let c = child { stack.append(c); child = agnxtsubg(c) }
            let object = UnsafeMutableRawPointer(subgraph)
            guard fs_is_cluster(subgraph) != 0, fs_has_layout(object) != 0 else { continue }
            let name = String(cString: agnameof(object))
            let labelState = fs_graph_label(subgraph, &box, &text, &font)
            add(labelState, .clusterLabel, owner: name)
            clusters.append(LegibilityItem(kind: .cluster, text: labelState == 0 ? "" : labelText(text), owner: name,
                                           box: item(fs_graph_box(subgraph))))
        }
        return Layout(bounds: bounds, items: items, unplaced: unplaced, clusters: clusters, ownerNode: ownerNode)
    }

    /// The problems in a layout.
    static func problems(in layout: Layout, tolerance: Double = 1) -> [LegibilityProblem] {
        var problems: [LegibilityProblem] = layout.unplaced.map { LegibilityProblem(kind: .notDrawn, item: $0) }
        let items = layout.items
        for item in items where item.kind != .cluster {
            let missing = FontCoverage.missingCharacters(in: item.text, fontName: item.fontName)
            if !missing.isEmpty { problems.append(LegibilityProblem(kind: .missingGlyphs(missing), item: item)) }
        }
        for item in items where item.box.sticksOut(of: layout.bounds, tolerance: tolerance) {
            problems.append(LegibilityProblem(kind: .clipped, item: item))
        }
        for cluster in layout.clusters {
            for item in items where item.kind != .node && item.kind != .clusterLabel
                && item.box.overlaps(cluster.box, tolerance: tolerance) && item.box.sticksOut(of: cluster.box, tolerance: tolerance) {
                problems.append(LegibilityProblem(kind: .labelOnClusterBorder, item: item, other: cluster))
            }
        }
        // A sweep along x: each pair whose x ranges meet is compared once.
        let order = items.indices.sorted { items[$0].box.minX < items[$1].box.minX }
        for (position, i) in order.enumerated() {
            var next = position + 1
            while next < order.count, items[order[next]].box.minX < items[i].box.maxX - tolerance {
                let j = order[next]
                next += 1
                guard items[i].box.overlaps(items[j].box, tolerance: tolerance) else { continue }
                if layout.ownerNode[i] == j || layout.ownerNode[j] == i { continue }  // a node and its own xlabel
                let (a, b) = items[i].kind == .node ? (items[j], items[i]) : (items[i], items[j])
                let kind: LegibilityProblem.Kind = switch (a.kind == .node, b.kind == .node) {
                case (true, true): .nodesOverlap
                case (false, false): .labelsOverlap
                default: .labelOverNode
                }
                problems.append(LegibilityProblem(kind: kind, item: a, other: b))
            }
        }
        return problems
    }

    private static func item(_ box: fs_box) -> LegibilityItem.Box {
        LegibilityItem.Box(x: box.x, y: box.y, width: box.width, height: box.height)
    }
}

/// A label's text as a reader sees it: Graphviz's line-break escapes as spaces, entities decoded.
private func labelText(_ text: UnsafePointer<CChar>?) -> String {
    guard let text else { return "" }
    var result = String(cString: text)
    for escape in ["\\n", "\\l", "\\r", "\n"] { result = result.replacingOccurrences(of: escape, with: " ") }
    for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&amp;", "&")] {
        result = result.replacingOccurrences(of: entity, with: character)
    }
    return result.trimmingCharacters(in: .whitespaces)
}
