/// Writes a ``FlowDiagram`` as Mermaid `stateDiagram-v2` text, which GitHub renders in Markdown.
/// A state's entry and exit effects and the child flow it runs (``FlowDiagram/Node/detailLines``) are
/// its description lines (`s1 : entry / present(email)`), which Mermaid draws under its name; a
/// composite state's are line breaks in its title. Labels are escaped with Mermaid's entity codes
/// (`#quot;`, `#35;`, ...), so any name is safe. A parallel state's regions are Mermaid's concurrent
/// compartments: written one after another inside it, separated by `--`, none marked as its initial
/// child (every region is entered); every other composite state, regions included, marks its
/// ``FlowDiagram/Node/initialChild`` inside it (`[*] --> s3`).
public enum MermaidWriter {
    /// The Mermaid text of a graph.
    public static func mermaid(_ graph: FlowDiagram) -> String {
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

    /// Writes the states, nesting compound states' children inside them, with an explicit stack (a
    /// definition can be nested deeper than the call stack allows) and the children indexed once.
    private static func write(in parent: String?, graph: FlowDiagram, indent: String, into out: inout String) {
        var children: [String?: [FlowDiagram.Node]] = [:]
        for node in graph.nodes { children[node.parent, default: []].append(node) }
        enum Step { case open(FlowDiagram.Node, indent: String), close(indent: String), separator(indent: String) }
        var stack: [Step] = (children[parent] ?? []).reversed().map { .open($0, indent: indent) }
        while let step = stack.popLast() {
            switch step {
            case .close(let indent):
                out += "\(indent)}\n"
            case .separator(let indent):
                out += "\(indent)--\n"
            case .open(let node, let indent):
                guard node.kind == .compound else {
                    // Description lines: Mermaid draws them under the name, below a divider.
                    out += "\(indent)state \"\(escape(node.label))\" as \(node.id)\n"
                    for line in node.detailLines { out += "\(indent)\(node.id) : \(escape(line))\n" }
                    continue
                }
                // A composite state's title is one text: its lines joined with line breaks.
                out += "\(indent)state \"\(escape(node.lines().joined(separator: "\n")))\" as \(node.id)\n"
                out += "\(indent)state \(node.id) {\n"
                let inner = children[node.id] ?? []
                stack.append(.close(indent: indent))
                if node.isParallel {
                    // Regions, last pushed first: each after the separator that follows the one before.
                    for (i, region) in inner.enumerated().reversed() {
                        stack.append(.open(region, indent: indent + "  "))
                        if i > 0 { stack.append(.separator(indent: indent + "  ")) }
                    }
                } else {
                    // The initial child the definition declares (not the first child: a state may
                    // start at any of its children), as DOT's initial marker.
                    if let initial = node.initialChild, inner.contains(where: { $0.id == initial }) {
                        out += "\(indent)  [*] --> \(initial)\n"
                    }
                    stack += inner.reversed().map { .open($0, indent: indent + "  ") }
                }
            }
        }
    }

    /// Replaces every character Mermaid's parser could take for syntax by its entity code.
    static func escape(_ text: String) -> String {
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
