/// Writes a ``FlowDiagram`` as Graphviz DOT: deterministic (same graph, same bytes), every label
/// escaped, default styling that the graph's and elements' attributes override.
public enum DOTWriter {
    /// The default graph attributes.
    static let defaultGraphAttributes: [String: String] = [
        "rankdir": "LR", "fontname": defaultFontName, "fontsize": "12", "compound": "true",
        "nodesep": "0.4", "ranksep": "0.5",
    ]

    /// The font of every label: a list, first choice first. Graphviz lays text out with Pango, which
    /// draws each character with the first font of the list (or, failing them all, of fontconfig's
    /// fallbacks) that has it; an SVG viewer reads the same list as CSS `font-family`. Helvetica for
    /// Latin (metric-compatible Liberation Sans or Nimbus Sans on Linux), DejaVu Sans for Greek,
    /// Cyrillic, Arabic, Hebrew and combining marks, WenQuanYi Micro Hei for Chinese, Japanese and
    /// Korean, Symbola for emoji and symbols (Debian: fonts-dejavu-core, fonts-wqy-microhei,
    /// fonts-symbola; `make deps` installs them), then the platform's sans-serif.
    public static let defaultFontName = "Helvetica,DejaVu Sans,WenQuanYi Micro Hei,Symbola,sans-serif"

    /// The attribute that marks a node written for an edge's label (``EdgeLabelPlacement/labelNodes``);
    /// its value names the edge (`tail -> head`). Graphviz ignores it; the legibility check counts such
    /// a node as the edge's label.
    package static let labelNodeAttribute = "flowstate_label_of"

    /// The graph's nodes indexed once, so writing is linear in the graph's size.
    struct Index {
        let graph: FlowDiagram
        var position: [String: Int] = [:]
        var children: [String?: [Int]] = [:]

        init(_ graph: FlowDiagram) {
            self.graph = graph
            for (i, node) in graph.nodes.enumerated() {
                position[node.id] = i
                children[node.parent, default: []].append(i)
            }
        }

        func node(_ id: String) -> FlowDiagram.Node? { position[id].map { graph.nodes[$0] } }
        func children(of id: String?) -> [FlowDiagram.Node] { (children[id] ?? []).map { graph.nodes[$0] } }

        /// The child a compound state's initial marker points at: its ``FlowDiagram/Node/initialChild``,
        /// when that is drawn inside it; `nil` for a parallel state (its regions are all entered), a
        /// state drawn as a box, or a compound state that names no initial child.
        func markedInitial(of node: FlowDiagram.Node) -> String? {
            guard node.kind == .compound, !node.isParallel, let child = node.initialChild,
                  self.node(child)?.parent == node.id else { return nil }
            return child
        }

        /// Whether `id` is `ancestor` or lies inside it.
        func isInside(_ id: String, _ ancestor: String) -> Bool {
            var current: String? = id
            var steps = 0
            while let x = current, steps <= graph.nodes.count {
                if x == ancestor { return true }
                current = node(x)?.parent
                steps += 1
            }
            return false
        }
    }

    /// The identifier of the initial marker drawn inside a compound state (a point, as `__start` at
    /// the top level).
    static func initialMarker(of id: String) -> String { "__initial_\(id)" }

    /// The DOT text of a graph. Edge labels are drawn with their edges, unless the graph asks for external
    /// labels (``FlowDiagram/externalEdgeLabels``): then as label nodes in a graph with compound states or
    /// in a flat graph of at most 150 states, and as external labels (`xlabel`) in a bigger flat graph.
    public static func dot(_ graph: FlowDiagram) -> String { dot(graph, edgeLabels: EdgeLabelPlacement(for: graph)) }

    /// The DOT text of a graph, with its edge labels placed as asked.
    /// - Parameters:
    ///   - graph: The graph.
    ///   - placement: Where edge labels go.
    ///   - referenceSpan: With label nodes, an edge whose ends lie more than this many layers apart
    ///     (``layers(of:)``, roughly `dot`'s ranks) is drawn as a reference: an arrow to its label,
    ///     which names the target state (`jump / effect` then `→ target`), instead of a line across
    ///     the whole flow. Long edges are what makes `dot` slow on big flows (each is a chain of
    ///     virtual nodes that ordering, positioning and routing pay for) and what makes big pictures
    ///     unreadable. `nil` draws every edge.
    package static func dot(_ graph: FlowDiagram, edgeLabels placement: EdgeLabelPlacement, referenceSpan: Int? = nil) -> String {
        let index = Index(graph)
        let layer = referenceSpan == nil || placement != .labelNodes ? [:] : layers(of: graph)
        var out = "digraph \(quote(graphID(graph.name))) {\n"
        let graphAttributes = defaultGraphAttributes.merging(graph.graphAttributes) { $1 }
        out += "  graph [\(attributes(graphAttributes))];\n"
        out += "  node [shape=box, style=rounded, fontname=\(quote(defaultFontName)), fontsize=11];\n"
        out += "  edge [fontname=\(quote(defaultFontName)), fontsize=9];\n"
        if graph.initial != nil {
            out += "  __start [shape=point, width=0.15, label=\"\"];\n"
        }
        var edgeLines: [String] = []
        var labelNodes: [String?: [String]] = [:]  // by the cluster that holds them
        for edge in graph.edges {
            let (to, head) = entry(edge.to, index: index)
            let (from, tail) = anchor(edge.from, index: index, avoiding: to)
            var attrs: [String: String] = [:]
            if edge.events.allSatisfy({ $0 == nil }) { attrs["style"] = "dashed" }
            attrs.merge(edge.attributes) { $1 }
            // An overlay's label replaces the edge's own, in whichever attribute it was written.
            let label = attrs.removeValue(forKey: "label") ?? attrs.removeValue(forKey: "xlabel") ?? edge.label
            attrs.removeValue(forKey: "xlabel")
            // An edge from a compound state to itself or to a state inside it (a transition declared on
            // a region or a compound state, to one of its children), or from inside a compound state to
            // it, cannot be clipped at the cluster it starts or ends on: Graphviz ignores ltail and lhead
            // when the other end lies inside that cluster, and draws it from or to a state inside (a
            // self-loop on a child). Such an edge goes out through a node outside the cluster, as every
            // labelled edge does with label nodes, whatever the placement.
            let detour = (tail != nil && index.isInside(edge.to, edge.from)) || (head != nil && index.isInside(edge.from, edge.to))
            if (placement == .labelNodes && !label.isEmpty) || detour {
                let id = "__label\(edgeLines.count)"
                var nodeAttrs: [String: String] = [
                    "shape": "plaintext", "style": "", "label": label, "fontsize": "9", "margin": "0.03,0.02",
                    "width": "0", "height": "0", labelNodeAttribute: "\(from) -> \(to)", "class": "edgelabel",
                ]
                for key in ["fontcolor", "fontname", "fontsize"] { if let value = attrs[key] { nodeAttrs[key] = value } }
                if let span = referenceSpan, edge.from != edge.to, let start = layer[edge.from], let end = layer[edge.to],
                   abs(end - start) > span {
                    // A reference: the arrow ends at the label, which names the target.
                    nodeAttrs["label"] = label + "\n→ " + (index.node(edge.to)?.label ?? edge.to)
                    nodeAttrs["class"] = "edgelabel reference"
                    labelNodes[commonCluster(edge.from, edge.from, index: index), default: []]
                        .append("\(id) [\(attributes(nodeAttrs))];")
                    if let tail { attrs["ltail"] = tail }
                    edgeLines.append("  \(from) -> \(id) [\(attributes(attrs))];\n")
                    continue
                }
                let holder = commonCluster(edge.from, edge.to, index: index)
                labelNodes[holder, default: []].append("\(id) [\(attributes(nodeAttrs))];")
                var first = attrs
                first["arrowhead"] = "none"
                if let tail { first["ltail"] = tail }
                var second = attrs
                if let head { second["lhead"] = head }
                edgeLines.append("  \(from) -> \(id) [\(attributes(first))];\n  \(id) -> \(to) [\(attributes(second))];\n")
                continue
            }
            if !label.isEmpty || placement == .inline { attrs[placement == .inline ? "label" : "xlabel"] = label }
            if let tail, tail != head { attrs["ltail"] = tail }
            if let head, tail != head { attrs["lhead"] = head }
            edgeLines.append("  \(from) -> \(to) [\(attributes(attrs))];\n")
        }
        writeNodes(index: index, labelNodes: labelNodes, into: &out)
        if let initial = graph.initial {
            let (target, head) = entry(initial, index: index)
            out += "  __start -> \(target)" + (head.map { " [lhead=\($0)]" } ?? "") + ";\n"
        }
        // Each compound state's initial marker (written inside its cluster) to its initial child.
        for node in graph.nodes {
            guard let child = index.markedInitial(of: node) else { continue }
            let (target, head) = entry(child, index: index)
            out += "  \(initialMarker(of: node.id)) -> \(target)" + (head.map { " [lhead=\($0)]" } ?? "") + ";\n"
        }
        for line in edgeLines { out += line }
        out += "}\n"
        return out
    }

    /// Each node's layer, roughly as `dot` ranks a graph: a depth-first search from the initial state
    /// (then from every node not yet reached, in declaration order) turns the edges that close a cycle
    /// around, and a node's layer is the length of the longest path to it in what remains. Iterative,
    /// linear in the graph's size.
    package static func layers(of graph: FlowDiagram) -> [String: Int] {
        let index = Index(graph)
        let count = graph.nodes.count
        var outgoing = Array(repeating: [Int](), count: count)
        var ends: [(Int, Int)] = []
        for edge in graph.edges {
            guard let from = index.position[edge.from], let to = index.position[edge.to], from != to else { continue }
            outgoing[from].append(ends.count)
            ends.append((from, to))
        }
        // Depth-first search: 0 unseen, 1 on the path, 2 done; an edge to a node on the path closes a cycle.
        var state = Array(repeating: 0, count: count)
        var reversed = Array(repeating: false, count: ends.count)
        var roots = graph.initial.flatMap { index.position[$0] }.map { [$0] } ?? []
        roots += Array(0..<count)
        for root in roots where state[root] == 0 {
            var stack: [(node: Int, next: Int)] = [(root, 0)]
            state[root] = 1
            while let top = stack.last {
                if top.next == outgoing[top.node].count {
                    state[top.node] = 2
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let e = outgoing[top.node][top.next]
                let target = ends[e].1
                switch state[target] {
                case 0:
                    state[target] = 1
                    stack.append((target, 0))
                case 1:
                    reversed[e] = true
                default:
                    break
                }
            }
        }
        // Longest paths over the acyclic remainder, in topological order (Kahn).
        var successors = Array(repeating: [Int](), count: count)
        var incoming = Array(repeating: 0, count: count)
        for (e, (from, to)) in ends.enumerated() {
            let (a, b) = reversed[e] ? (to, from) : (from, to)
            successors[a].append(b)
            incoming[b] += 1
        }
        var layer = Array(repeating: 0, count: count)
        var ready = (0..<count).filter { incoming[$0] == 0 }
        while let node = ready.popLast() {
            for next in successors[node] {
                layer[next] = max(layer[next], layer[node] + 1)
                incoming[next] -= 1
                if incoming[next] == 0 { ready.append(next) }
            }
        }
        var result: [String: Int] = [:]
        for (i, node) in graph.nodes.enumerated() { result[node.id] = layer[i] }
        return result
    }

    /// The innermost compound state containing both ends of an edge (`nil`: the graph itself). An end
    /// that is a compound state is drawn as its cluster's border, so its own cluster does not count.
    private static func commonCluster(_ a: String, _ b: String, index: Index) -> String? {
        func chain(_ id: String) -> [String] {
            var result: [String] = []
            var current = index.node(id)?.parent
            while let parent = current, result.count <= index.graph.nodes.count {
                result.append(parent)
                current = index.node(parent)?.parent
            }
            return result.reversed()  // outermost first
        }
        let (first, second) = (chain(a), chain(b))
        var common: String?
        for (x, y) in zip(first, second) {
            guard x == y else { break }
            common = x
        }
        return common
    }

    /// Writes the nodes, clusters around compound states' children, and the label nodes each cluster
    /// holds, walking the nesting with an explicit stack (a definition can be nested deeper than the
    /// call stack allows).
    private static func writeNodes(index: Index, labelNodes: [String?: [String]], into out: inout String) {
        enum Step { case open(FlowDiagram.Node, depth: Int), close(String?, depth: Int) }
        var stack: [Step] = [.close(nil, depth: 0)]
        stack += index.children(of: nil).reversed().map { .open($0, depth: 1) }
        while let step = stack.popLast() {
            switch step {
            case .close(let id, let depth):
                let indent = String(repeating: "  ", count: depth + 1)
                for line in labelNodes[id] ?? [] { out += indent + line + "\n" }
                if id != nil { out += String(repeating: "  ", count: depth) + "}\n" }
            case .open(let node, let depth):
                let indent = String(repeating: "  ", count: depth)
                if node.kind == .compound {
                    out += "\(indent)subgraph cluster_\(node.id) {\n"
                    var attrs: [String: String] = ["style": "rounded", "color": "#888888"]
                    attrs.merge(node.attributes) { $1 }
                    attrs["label"] = label(of: node)
                    foldExternalLabel(&attrs)
                    for (key, value) in attrs.sorted(by: { $0.key < $1.key }) {
                        out += "\(indent)  \(key)=\(quote(value));\n"
                    }
                    if index.markedInitial(of: node) != nil {
                        // The initial marker, on the cluster's first rank: edges into the state end at
                        // its border beside it (``entry(_:index:)``).
                        let marker = initialMarker(of: node.id)
                        out += "\(indent)  \(marker) [shape=point, width=0.15, label=\"\"];\n"
                        out += "\(indent)  {rank=min; \(marker);}\n"
                    }
                    stack.append(.close(node.id, depth: depth))
                    stack += index.children(of: node.id).reversed().map { .open($0, depth: depth + 1) }
                } else {
                    var attrs: [String: String] = [:]
                    if node.kind == .final { attrs["peripheries"] = "2" }
                    if node.childFlow != nil { attrs["style"] = "rounded,dashed" }
                    attrs.merge(node.attributes) { $1 }
                    attrs["label"] = label(of: node)
                    foldExternalLabel(&attrs)
                    out += "\(indent)\(node.id) [\(attributes(attrs))];\n"
                }
            }
        }
    }

    /// A state's label, one line each (``FlowDiagram/Node/lines(title:)``): its name (or its `label`
    /// attribute), then its entry and exit effects and the child flow it runs. A compound state's is
    /// its cluster's label.
    static func label(of node: FlowDiagram.Node) -> String {
        node.lines(title: node.attributes["label"]).joined(separator: "\n")
    }

    /// A node's external label (`xlabel`, for example an overlay's visit count) becomes the last line
    /// of its label: Graphviz places external labels after the layout, over whatever is there (a
    /// cluster's border, an edge's label), while a label inside the node has the room it needs.
    private static func foldExternalLabel(_ attrs: inout [String: String]) {
        guard let external = attrs.removeValue(forKey: "xlabel"), !external.isEmpty else { return }
        let label = attrs["label"] ?? ""
        attrs["label"] = label.isEmpty ? external : label + "\n" + external
    }

    /// Edges cannot start on a cluster in DOT: an edge from a compound state starts on a leaf inside
    /// it (its first, or its last when the first is where the edge ends: a transition declared on a
    /// region to its first child would be drawn on top of itself), clipped at the cluster (`ltail`).
    private static func anchor(_ id: String, index: Index, avoiding end: String? = nil) -> (String, String?) {
        guard index.node(id)?.kind == .compound else { return (id, nil) }
        func leaf(last: Bool) -> String {
            var leaf = id
            while index.node(leaf)?.kind == .compound, let children = index.children[leaf], let child = last ? children.last : children.first {
                leaf = index.graph.nodes[child].id
            }
            return leaf
        }
        let first = leaf(last: false)
        return (first == end ? leaf(last: true) : first, "cluster_\(id)")
    }

    /// Edges cannot end on a cluster in DOT either: an edge into a compound state ends on the
    /// initial marker inside it (the first one met going down its first children, through a
    /// parallel state to its first region's), clipped at the cluster (`lhead`). The marker sits on
    /// the cluster's first rank, so the edge reaches the cluster's near border, not one Graphviz
    /// placed beside the state the edge would otherwise end on (a blob on the border). Without a
    /// marker, a leaf, as `anchor` finds one.
    private static func entry(_ id: String, index: Index) -> (String, String?) {
        guard index.node(id)?.kind == .compound else { return (id, nil) }
        var current = id
        while let node = index.node(current), node.kind == .compound {
            if index.markedInitial(of: node) != nil { return (initialMarker(of: current), "cluster_\(id)") }
            guard let first = index.children[current]?.first else { break }
            current = index.graph.nodes[first].id
        }
        return (current, "cluster_\(id)")
    }

    private static func attributes(_ attrs: [String: String]) -> String {
        attrs.sorted { $0.key < $1.key }.map { "\(identifier($0.key))=\(quote($0.value))" }.joined(separator: ", ")
    }

    /// An attribute name: kept when it is a plain identifier, quoted otherwise.
    private static func identifier(_ name: String) -> String {
        let plain = !name.isEmpty && name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
            && !("0"..."9").contains(name.unicodeScalars.first!)
        return plain ? name : quote(name)
    }

    /// The graph's DOT identifier. Graphviz copies it into an XML comment of its SVG output, where
    /// `--` is not allowed, so runs of dashes are shortened (the name is not drawn).
    static func graphID(_ name: String) -> String {
        var id = ""
        for character in name where !(character == "-" && id.last == "-") { id.append(character) }
        return id
    }

    /// A DOT double-quoted string: backslashes and quotes escaped, line breaks as `\n`, and `&` as
    /// `&amp;` (Graphviz reads entities in labels, and copies a malformed one such as `&;` into its
    /// SVG as is).
    static func quote(_ text: String) -> String {
        "\"" + escaping(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            default: isControl(scalar) ? " " : nil  // control characters have no place in a label
            }
        } + "\""
    }
}

/// Where a DOT file puts edge labels.
package enum EdgeLabelPlacement: Hashable, Sendable {
    /// As edge labels (`label`): `dot` lays them out with the edges, as virtual nodes. The tidiest
    /// drawing of small flows; slow for big ones, and Graphviz 2.43 (Debian 12) frees memory twice
    /// after laying out some clustered graphs with labelled cycles. An edge that cannot be clipped at
    /// the cluster it starts or ends on (its other end lies inside it) is drawn through a label node
    /// all the same, as ``EdgeLabelPlacement/labelNodes`` draws it.
    case inline
    /// As external labels (`xlabel`), placed after the layout next to their edges: fast for big flat
    /// flows, but placed without room reserved for them, so they can lie over other things.
    case external
    /// Each labelled edge drawn as two edges through a borderless node holding the label (held by the
    /// innermost cluster containing both ends, marked with ``DOTWriter/labelNodeAttribute``, and of
    /// class `edgelabel` in SVG, so a style sheet or a reader of the SVG can tell it from a state):
    /// `dot` places labels as it places states, so no label overlaps anything, and the graph has no
    /// edge labels, which is what Graphviz 2.43's double free needs.
    case labelNodes

    /// The biggest flat graph whose external labels ``DOTWriter/dot(_:)`` writes as label nodes: past
    /// it, `dot` takes more than a second to place them with every edge drawn (200 states with 400
    /// labelled transitions and random back edges: 4.5–6 s, against 1.1 s at 150), and they stay
    /// external labels (the renderer's layout policy draws such graphs with label nodes and its long
    /// edges as references, `dot(_:edgeLabels:referenceSpan:)`). A graph with compound states gets
    /// label nodes at any size: its clusters keep the layout local (200 states nested three deep: 0.2 s).
    static let labelNodeLimit = 150

    /// The placement ``DOTWriter/dot(_:)`` uses: inline, unless the graph asks for external labels
    /// (``FlowDiagram/externalEdgeLabels``); those are written as label nodes in a graph with compound
    /// states, where `xlabel` placement cannot find room for them, and in a flat graph of at most
    /// ``labelNodeLimit`` states.
    package init(for graph: FlowDiagram) {
        if !graph.externalEdgeLabels {
            self = .inline
        } else if graph.nodes.count <= Self.labelNodeLimit || graph.nodes.contains(where: { $0.kind == .compound }) {
            self = .labelNodes
        } else {
            self = .external
        }
    }
}
