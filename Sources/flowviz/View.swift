import ArgumentParser
import FlowGraph
import FlowGraphviz
import FlowSpec
import Foundation

/// `flowviz view FILE -o OUT.html [--events a,b | --trace run.json]`
struct View: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a flow as one interactive HTML page, with a recorded run to step through.",
        discussion: """
        The page is a single file that needs no network: the diagram as inline SVG, with inline CSS and \
        JavaScript. Hovering or clicking a state shows its transitions, guards and effects. A run, \
        simulated from --events (as simulate runs it) or read from --trace (written by simulate \
        --trace-out), steps forwards and backwards with buttons or the arrow keys, highlighting the \
        current state and the transitions taken, with each step's event and effects. Nested states \
        fold and unfold. FILE may be - for standard input; -o - writes the page to standard output.

        Exit status: 0 written; 1 the flow has errors (the page is written without a run; with \
        --events nothing is written) or the run raises events in a loop; 2 a file cannot be read or \
        parsed, the trace does not fit the flow, or rendering or writing failed; 3 --events on a flow \
        with what is not run (history states, SCXML's data, ...) or a missing child flow; 64 the \
        command line is wrong.

        Example: flowviz view docs/flows/specs/sign-up.json --events submitEmail,submitPassword -o sign-up.html
        """
    )

    @Argument(help: "The flow file (JSON flow spec or SCXML).", completion: .file(extensions: ["json", "scxml"]))
    var file: String

    @Option(name: .shortAndLong, help: "The HTML file to write (- for standard output).")
    var output: String

    @Option(help: "Simulate these events, separated by commas (each may carry guard truths in brackets), and show the run.")
    var events: String?

    @Option(help: "Show this run: a trace written by simulate --trace-out.")
    var trace: String?

    @Option(name: .customLong("guard"), help: "With --events: a guard's default truth, as NAME=true or NAME=false (repeatable).")
    var guards: [String] = []

    @Option(help: "The page's title (default: the flow's name).")
    var title: String?

    func validate() throws {
        if events != nil, trace != nil { throw ValidationError("give --events or --trace, not both") }
        if file == "-", trace == "-" { throw ValidationError("FILE and --trace cannot both be standard input") }
        if !guards.isEmpty, events == nil { throw ValidationError("--guard needs --events") }
        _ = try guardDefaults(guards)
    }

    func run() async throws {
        let flow = try DiskFile.open(file)
        if events != nil { try flow.refuseWhatIsNotRun() }
        let errors = flow.drawingErrors
        if !errors.isEmpty, events != nil {
            errors.forEach { report($0.description) }
            throw ExitCode(1)
        }
        var run: FlowTrace?
        if let events { run = try simulate(flow, events: events) }
        if let trace {
            do {
                let bytes = try DiskFile.readBytes(trace, expecting: "a trace")
                run = try FlowTrace.parse(bytes, file: trace == "-" ? DiskFile.standardInputName : trace)
            } catch let problem as FileProblem {
                report(problem.line)
                throw ExitCode(2)
            } catch {
                report("\(error)")
                throw ExitCode(2)
            }
        }
        let viewer = FlowViewer(flow.spec, trace: run, title: title)
        if let trace, let problem = viewer.traceProblems.first {
            report("\(trace): error: the trace does not fit \(flow.path): \(problem)")
            throw ExitCode(2)
        }
        let page: String
        do {
            page = try viewer.html()
        } catch {
            report("\(flow.path): error: \(error.message)")
            throw ExitCode(2)
        }
        if output == "-" {
            FileHandle.standardOutput.write(Data(page.utf8))
        } else {
            do {
                try Data(page.utf8).write(to: URL(fileURLWithPath: output))
            } catch {
                report("\(output): error: cannot write: \(error.localizedDescription)")
                throw ExitCode(2)
            }
        }
        if !errors.isEmpty {
            errors.forEach { report($0.description) }
            throw ExitCode(1)
        }
    }

    /// Runs the events on the flow as `simulate` does; the root machine's trace, with its effects.
    private func simulate(_ flow: DiskFile, events text: String) throws -> FlowTrace {
        let simulation = try flow.simulation(guards: guardDefaults(guards))
        let list = try inputList(text)
        do {
            try simulation.start()
            for input in list { try simulation.perform(input) }
            try simulation.runDelayedEvents()  // as simulate does: the delayed events still waiting
        } catch {
            report(error.description.hasPrefix("error:") ? "\(flow.path): \(error.description)" : error.description)
            throw ExitCode(1)
        }
        return simulation.trace
    }
}

extension FlowViewer {
    /// A page for a flow file: its graph (`FlowDiagram(spec)` of the spec), each
    /// transition described under the number the file's graph and traces give it (document order: a
    /// state's transitions, then its children's), and each state's entry and exit effects.
    init(_ spec: FlowFile, trace: FlowTrace?, title: String?) {
        var graph = FlowDiagram(spec)
        graph.showKeptSCXML(of: spec)  // the SCXML the file keeps as text, under its states
        self.init(graph: graph, trace: trace, title: title)
        for state in spec.statesInDocumentOrder {
            states[state.name] = StateInfo(entry: state.entry, exit: state.exit, output: state.output)
        }
        for (number, (_, t)) in spec.transitionsInDocumentOrder.enumerated() {
            var label = t.eventLabel ?? ""
            if let guardName = t.guardName { label += " [\(guardName)]" }
            if !t.effects.isEmpty { label += " / " + t.effects.joined(separator: ", ") }
            transitions[number] = TransitionInfo(event: t.eventLabel, guardLabel: t.guardName, effects: t.effects,
                                                 targetless: t.target == nil, label: label)
        }
    }
}
