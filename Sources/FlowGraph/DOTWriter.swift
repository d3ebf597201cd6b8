/// Writes a ``FlowGraph`` as Graphviz DOT: deterministic (same graph, same bytes), every label
/// escaped, default styling that the graph's and elements' attributes override.
public enum DOTWriter {
    /// The default graph attributes.
    public static let defaultGraphAttributes: [String: String] = [
        "rankdir": "LR", "fontname": "Helvetica", "fontsize": "12", "compound": "true",
        "nodesep": "0.4", "ranksep": "0.5",
    ]

    /// The graph's nodes indexed once, so writing is linear in the graph's size.
    struct Index {
        let graph: FlowGraph
        var position: [String: Int] = [:]
        var children: [String?: [Int]] = [:]

        init(_ graph: FlowGraph) {
            self.graph = graph
            for (i, node) in graph.nodes.enumerated() {
                position[node.id] = i
                children[node.parent, default: []].append(i)
            }
        }

        func node(_ id: String) -> FlowGraph.Node? { position[id].map { graph.nodes[$0] } }
        func children(of id: String?) -> [FlowGraph.Node] { (children[id] ?? []).map { graph.nodes[$0] } }
    }

    /// The DOT text of a graph.
    public static func dot(_ graph: FlowGraph) -> String {
        let index = Index(graph)
        var out = "digraph \(quote(graphID(graph.name))) {\n"
        let graphAttributes = defaultGraphAttributes.merging(graph.graphAttributes) { $1 }
        out += "  graph [\(attributes(graphAttributes))];\n"
        out += "  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];\n"
        out += "  edge [fontname=\"Helvetica\", fontsize=9];\n"
        if graph.initial != nil {
            out += "  __start [shape=point, width=0.15, label=\"\"];\n"
        }
        writeNodes(in: nil, index: index, indent: "  ", into: &out)
        if let initial = graph.initial {
            let (target, head) = anchor(initial, index: index)
            out += "  __start -> \(target)" + (head.map { " [lhead=\($0)]" } ?? "") + ";\n"
        }
        for edge in graph.edges {
            let (from, tail) = anchor(edge.from, index: index)
            let (to, head) = anchor(edge.to, index: index)
            var attrs: [String: String] = [graph.externalEdgeLabels ? "xlabel" : "label": edge.label]
            if let tail, tail != head { attrs["ltail"] = tail }
            if let head, tail != head { attrs["lhead"] = head }
            if edge.events.allSatisfy({ $0 == nil }) { attrs["style"] = "dashed" }
            attrs.merge(edge.attributes) { $1 }
            if graph.externalEdgeLabels, let label = attrs.removeValue(forKey: "label") {
                attrs["xlabel"] = label  // an overlay's label replaces the external one, not doubles it
            }
            out += "  \(from) -> \(to) [\(attributes(attrs))];\n"
        }
        out += "}\n"
        return out
    }

    private static func writeNodes(in parent: String?, index: Index, indent: String, into out: inout String) {
        for node in index.children(of: parent) {
            if node.kind == .compound {
                out += "\(indent)subgraph cluster_\(node.id) {\n"
                var attrs: [String: String] = ["label": node.label, "style": "rounded", "color": "#888888"]
                if let child = node.childFlow { attrs["label"] = "\(node.label)\n⟨runs \(child)⟩" }
                attrs.merge(node.attributes) { $1 }
                for (key, value) in attrs.sorted(by: { $0.key < $1.key }) {
                    out += "\(indent)  \(key)=\(quote(value));\n"
                }
                writeNodes(in: node.id, index: index, indent: indent + "  ", into: &out)
                out += "\(indent)}\n"
            } else {
                var attrs: [String: String] = ["label": node.label]
                if node.kind == .final { attrs["peripheries"] = "2" }
                if let child = node.childFlow {
                    attrs["label"] = "\(node.label)\n⟨runs \(child)⟩"
                    attrs["style"] = "rounded,dashed"
                }
                attrs.merge(node.attributes) { $1 }
                out += "\(indent)\(node.id) [\(attributes(attrs))];\n"
            }
        }
    }

    /// Edges cannot end on a cluster in DOT: they end on a leaf inside it, clipped at the cluster.
    private static func anchor(_ id: String, index: Index) -> (String, String?) {
        guard index.node(id)?.kind == .compound else { return (id, nil) }
        var leaf = id
        while index.node(leaf)?.kind == .compound, let first = index.children[leaf]?.first {
            leaf = index.graph.nodes[first].id
        }
        return (leaf, "cluster_\(id)")
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
    public static func quote(_ text: String) -> String {
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
