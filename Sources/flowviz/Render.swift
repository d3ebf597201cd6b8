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

        Exit status: 0 drawn; 1 the flow has errors (drawn, marked); 2 a file cannot be read or parsed, \
        a trace or state to highlight is unknown, or rendering failed; 64 the command line is wrong.

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

    func validate() throws {
        guard Self.formats.contains(chosenFormat) else {
            throw ValidationError("unknown format '\(chosenFormat)': use one of \(Self.formats.sorted().joined(separator: ", "))")
        }
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
        let flow = try FlowFile.open(file)
        var graph = FlowGraph(flow.spec)
        if let trace {
            do {
                let bytes = try FlowFile.readBytes(trace, expecting: "a trace")
                graph.overlay(try FlowTrace.parse(bytes, file: trace))
            } catch let problem as FileProblem {
                report(problem.line)
                throw ExitCode(2)
            } catch {
                report("\(error)")
                throw ExitCode(2)
            }
        }
        if let highlight {
            guard graph.id(ofLabel: highlight) != nil else {
                report("\(file): error: no state '\(highlight)' to highlight")
                throw ExitCode(2)
            }
            graph.highlight(state: highlight)
        }
        try Self.write(graph, to: output, format: chosenFormat, engine: engine, source: file)
        // Drawn, with what is broken marked: now say what it is, and fail.
        let errors = flow.spec.definition().validate().filter { $0.severity == .error }
        if !errors.isEmpty {
            errors.forEach { report($0.description) }
            throw ExitCode(1)
        }
    }

    /// Writes a graph in a format (`dot`, `mermaid`, or one Graphviz renders), or reports the one
    /// line that says why not (`source` names the flow for rendering errors) and exits 2.
    static func write(_ graph: FlowGraph, to output: String, format: String, engine: String?, source: String) throws {
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
