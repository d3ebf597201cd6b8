/// Writes a ``FlowGraph`` as Mermaid `stateDiagram-v2` text, which GitHub renders in Markdown.
/// Labels are escaped with Mermaid's entity codes (`#quot;`, `#35;`, ...), so any name is safe.
public enum MermaidWriter {
    /// The Mermaid text of a graph.
    public static func mermaid(_ graph: FlowGraph) -> String {
        var out = "stateDiagram-v2\n"
        write(in: nil, graph: graph, indent: "  ", into: &out)
        if let initial = graph.initial { out += "  [*] --> \(initial)\n" }
        for edge in graph.edges {
            let label = edge.label.isEmpty ? "" : " : " + escape(edge.label)
            out += "  \(edge.from) --> \(edge.to)\(label)\n"
        }
        for node in graph.nodes where node.kind == .final { out += "  \(node.id) --> [*]\n" }
        return out
    }

    private static func write(in parent: String?, graph: FlowGraph, indent: String, into out: inout String) {
        for node in graph.children(of: parent) {
            let label = node.childFlow.map { "\(node.label) (runs \($0))" } ?? node.label
            out += "\(indent)state \"\(escape(label))\" as \(node.id)\n"
            if node.kind == .compound {
                out += "\(indent)state \(node.id) {\n"
                if let first = graph.children(of: node.id).first { out += "\(indent)  [*] --> \(first.id)\n" }
                write(in: node.id, graph: graph, indent: indent + "  ", into: &out)
                out += "\(indent)}\n"
            }
        }
    }

    /// Replaces every character Mermaid's parser could take for syntax by its entity code.
    public static func escape(_ text: String) -> String {
        escaping(text) { scalar in
            switch scalar {
            case "\"": "#quot;"
            case "#": "#35;"
            case ";": "#59;"
            case ":": "#58;"
            case "<": "#lt;"
            case ">": "#gt;"
            case "{": "#123;"
            case "}": "#125;"
            case "|": "#124;"
            case "[": "#91;"
            case "]": "#93;"
            case "\\": "#92;"
            case "\n", "\r": "<br/>"
            default: isControl(scalar) ? " " : nil
            }
        }
    }
}
