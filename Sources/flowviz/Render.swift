import ArgumentParser
import FlowGraph
import FlowSpec
import FlowGraphviz
import Foundation

/// `flowviz render FILE -o OUT`
struct Render: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Draw a flow file as DOT, Mermaid, SVG, PNG or PDF.",
        discussion: """
        A flow with errors is still drawn, its broken transitions marked in red and dashed, its errors \
        printed one a line, and the exit status is 1. FILE may be - for standard input.

        A nested flow too big for one picture (more than \(LayoutPolicy.pictureLimit.states) states or \
        \(LayoutPolicy.pictureLimit.transitions) transitions) is drawn with its \
        compound states collapsed below a depth, each as one node counting the states it holds; \
        --collapse none draws every state, --collapse DEPTH collapses at that depth (0: the top level), \
        --pages also writes a page for every collapsed state next to OUT (OUT's name, then the state's id, \
        each path printed), and --cluster STATE draws one compound state, its transitions to states \
        outside drawn to stubs.

        Exit status: 0 drawn; 1 the flow has errors (drawn, marked); 2 a file cannot be read or parsed, \
        a trace, state to highlight or cluster is unknown, or rendering failed; 64 the command line is wrong.

        Example: flowviz render docs/flows/specs/sign-up.json -o sign-up.svg --highlight password
        """
    )

    @Argument(help: "The flow file (JSON flow spec or SCXML).", completion: .file(extensions: ["json", "scxml"]))
    var file: String

    @Option(name: .shortAndLong, help: "The output file; its extension chooses the format unless --format is given.")
    var output: String

    @Option(help: "dot, mermaid, svg, png or pdf.")
    var format: String?

    @Option(help: "A state to highlight.")
    var highlight: String?

    @Option(help: "A trace written by simulate --trace-out: visited states and taken transitions are marked.")
    var trace: String?

    @Option(help: "The Graphviz layout engine (dot, neato, fdp, sfdp, circo, twopi).")
    var engine: String?

    @Option(help: "Collapse compound states: auto (only a flow too big for one picture), none, or a depth (0: the top level).")
    var collapse: String = "auto"

    @Option(help: "Draw only this compound state, its transitions to states outside drawn to stubs.")
    var cluster: String?

    @Flag(help: "Also write a page for every collapsed state, next to the output: OUT's name, then the state's id.")
    var pages = false

    func validate() throws {
        guard Self.formats.contains(chosenFormat) else {
            throw ValidationError("unknown format '\(chosenFormat)': use one of \(Self.formats.sorted().joined(separator: ", "))")
        }
        guard LayoutPolicy.Collapse(collapse) != nil else {
            throw ValidationError("unknown --collapse '\(collapse)': use auto, none or a depth (0 or more)")
        }
        if pages && cluster != nil { throw ValidationError("--pages draws the whole flow: leave out --cluster") }
    }

    static let formats: Set<String> = ["dot", "mermaid", "svg", "png", "pdf"]

    var chosenFormat: String { Self.format(for: output, given: format) }

    /// The format named by `--format`, or by the output file's extension.
    static func format(for output: String, given format: String?) -> String {
        if let format { return format.lowercased() }
        switch URL(fileURLWithPath: output).pathExtension.lowercased() {
        case "gv": return "dot"
        case "mmd": return "mermaid"
        case let ext: return ext
        }
    }

    func run() async throws {
        let flow = try DiskFile.open(file)
        let whole = flow.graph
        var run: FlowTrace?
        if let trace {
            do {
                let bytes = try DiskFile.readBytes(trace, expecting: "a trace")
                run = try FlowTrace.parse(bytes, file: trace)
            } catch let problem as FileProblem {
                report(problem.line)
                throw ExitCode(2)
            } catch {
                report("\(error)")
                throw ExitCode(2)
            }
        }
        var highlighted: String?
        if let highlight {
            guard let id = whole.id(ofLabel: highlight) else {
                report("\(file): error: no state '\(highlight)' to highlight")
                throw ExitCode(2)
            }
            highlighted = id
        }
        var root: String?
        if let cluster {
            guard let id = whole.nodes.first(where: { $0.label == cluster && $0.kind == .compound })?.id else {
                report("\(file): error: no compound state '\(cluster)' to draw")
                throw ExitCode(2)
            }
            root = id
        }
        let policy = LayoutPolicy.Collapse(collapse) ?? .automatic
        let depth = LayoutPolicy.collapseDepth(for: whole, under: root, policy)
        var drawn: [FlowDiagram.Page]
        if let root {
            drawn = [FlowDiagram.Page(state: root, graph: whole.cluster(root, depth: depth) ?? whole)]
        } else if pages {
            drawn = whole.pages(depth: depth)
        } else {
            drawn = [FlowDiagram.Page(state: nil, graph: depth.map { whole.collapsed(toDepth: $0) } ?? whole)]
        }
        if policy == .automatic, let depth, let first = drawn.first {
            let collapsed = first.graph.nodes.filter { $0.attributes[FlowDiagram.collapsedStatesAttribute] != nil }.count
            let total = root.map { whole.collapsedSizes(under: $0).last?.nodes ?? 0 } ?? whole.nodes.count
            if collapsed > 0 {
                report("note: \(total) states are too many for one picture: compound states at depth \(depth) "
                       + "are drawn collapsed (\(collapsed))" + (pages ? "" : "; --pages draws what they hold")
                       + ", --collapse none draws every state")
            }
        }
        var parents: [String: String] = [:]
        for node in whole.nodes { if let parent = node.parent, parents[node.id] == nil { parents[node.id] = parent } }
        for i in drawn.indices {
            if let run { drawn[i].graph.overlay(run) }
            if let highlighted, let label = Self.drawnNode(of: highlighted, in: drawn[i].graph, parents: parents) {
                drawn[i].graph.highlight(state: label)
            }
        }
        try Self.write(drawn[0].graph, to: output, format: chosenFormat, engine: engine, source: file)
        if pages {
            print(output)
            let url = URL(fileURLWithPath: output)
            let ext = url.pathExtension
            let stem = url.deletingPathExtension()
            for page in drawn.dropFirst() {
                guard let state = page.state else { continue }
                let path = stem.path + "." + state + (ext.isEmpty ? "" : "." + ext)
                try Self.write(page.graph, to: path, format: chosenFormat, engine: engine, source: file)
                print(path)
            }
        }
        // Drawn, with what is broken marked: now say what it is, and fail.
        let errors = flow.drawingErrors
        if !errors.isEmpty {
            errors.forEach { report($0.description) }
            throw ExitCode(1)
        }
    }

    /// The label of the node of a page that draws a state: the state itself, or the collapsed state
    /// (or the page's cluster) that holds it; `nil` when the page draws neither (stubs do not count).
    static func drawnNode(of id: String, in page: FlowDiagram, parents: [String: String]) -> String? {
        var own: [String: String] = [:]
        for node in page.nodes where node.attributes[FlowDiagram.stubAttribute] == nil { own[node.id] = node.label }
        var current: String? = id
        var steps = 0
        while let next = current, steps <= parents.count {  // bounded: a cycle of parents ends the walk
            if let label = own[next] { return label }
            current = parents[next]
            steps += 1
        }
        return nil
    }

    /// Writes a graph in a format (`dot`, `mermaid`, or one Graphviz renders), or reports the one
    /// line that says why not (`source` names the flow for rendering errors) and exits 2.
    static func write(_ graph: FlowDiagram, to output: String, format: String, engine: String?, source: String) throws {
        var graph = graph
        let bytes: [UInt8]
        switch format {
        case "dot":  // exactly what the renderer lays out
            LayoutPolicy.bound(&graph)
            bytes = Array(LayoutPolicy.dot(graph).utf8)
        case "mermaid":
            bytes = Array(MermaidWriter.mermaid(graph).utf8)
        default:
            do {
                bytes = try GraphvizRenderer.shared.render(graph, format: RenderFormat(format), engine: engine)
            } catch {
                report("\(source): error: \(error.message)")
                throw ExitCode(2)
            }
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: output))
        } catch {
            report("\(output): error: cannot write: \(error.localizedDescription)")
            throw ExitCode(2)
        }
    }
}
