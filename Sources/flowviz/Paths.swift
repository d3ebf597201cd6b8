import ArgumentParser
import FlowGraph
import FlowSpec
import Foundation

/// `flowviz paths FILE`
struct Paths: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the shortest event path to every state, and event sequences that take every transition.",
        discussion: """
        Paths are found by running the flow on the engine; each step says which guards must hold \
        (submit[valid, !locked]), so every path replays in simulate. The transition cover is a set of \
        sequences from the start that together take every transition (model-based test generation).

        Exit status: 0 done; 1 --to names a state no path reaches; 2 a file cannot be read or parsed, \
        or the flow is invalid; 3 the flow holds what is not run (history states, SCXML's data, \
        scripts, invocations that need a data model, an eventless transition without a target, a \
        document without states: one line names the first); 64 the command line is wrong.

        Example: flowviz paths docs/flows/specs/sign-up.json --to twoFactor
        """
    )

    @Argument(help: "The flow file (JSON flow spec or SCXML).", completion: .file(extensions: ["json", "scxml"]))
    var file: String

    @Option(help: "Print only the events that reach this state, separated by commas (for simulate --events).")
    var to: String?

    @Option(help: "Output format: text or json.")
    var format: Validate.OutputFormat = .text

    func run() async throws {
        let flow = try DiskFile.open(file)
        try flow.refuseWhatIsNotRun()
        // Compiled once, validated and explored: compiling is most of what either costs on a big file.
        let compiled = flow.spec.compile()
        try DiskFile.requireValid(compiled.validate(), orExit: 2)
        let paths = try DiskFile.explore(compiled)
        func line(_ events: [SpecEvent]) -> String { events.map(\.description).joined(separator: ", ") }
        if let to {
            guard paths.states.contains(to) else {
                report("\(file): error: no state '\(to)'")
                throw ExitCode(1)
            }
            guard let events = paths.shortestPath(to: to) else {
                report("\(file): error: no event sequence reaches '\(to)'")
                throw ExitCode(1)
            }
            switch format {
            case .text: print(line(events))
            case .json: print(Self.json(events))
            }
            return
        }
        switch format {
        case .text:
            let reached = paths.states.count - paths.unreachable.count
            print("shortest paths (\(reached) of \(paths.states.count) states reached, \(paths.passedThrough.count) only passed through):")
            for state in paths.states {
                guard let events = paths.shortestPath(to: state) else { continue }
                let note = paths.isPassedThrough(state) ? "  (passed through, not settled in)" : ""
                print("  \(state): " + (events.isEmpty ? "(start)" : line(events)) + note)
            }
            for state in paths.unreachable { print("  \(state): unreachable") }
            let covered = paths.transitionCount - paths.uncovered.count
            print("transition cover (\(paths.cover.count) sequences take \(covered) of \(paths.transitionCount) transitions):")
            for (i, sequence) in paths.cover.enumerated() {
                print("  \(i + 1). " + (sequence.isEmpty ? "(start)" : line(sequence)))
            }
            for t in paths.uncovered {
                let at = t.location.map { "\($0): " } ?? ""
                print("  not taken: \(at)\(t.eventLabel ?? "(eventless)") -> \(t.target ?? "(targetless)")")
            }
        case .json:
            var out = "{\n  \"flow\": \(Self.quote(flow.spec.name)),\n  \"shortest\": {"
            out += paths.reached.map { "\n    \(Self.quote($0)): \(Self.json(paths.shortestPath(to: $0)!))" }.joined(separator: ",")
            out += paths.reached.isEmpty ? "},\n" : "\n  },\n"
            out += "  \"passedThrough\": {" + paths.passedThrough.map { "\n    \(Self.quote($0)): \(Self.json(paths.shortestPath(to: $0)!))" }.joined(separator: ",")
            out += paths.passedThrough.isEmpty ? "},\n" : "\n  },\n"
            out += "  \"unreachable\": [\(paths.unreachable.map(Self.quote).joined(separator: ", "))],\n"
            out += "  \"cover\": [" + paths.cover.map { "\n    " + Self.json($0) }.joined(separator: ",") + "\n  ],\n"
            out += "  \"uncovered\": [" + paths.uncovered.map { t in
                "\n    {\"event\": \(t.eventLabel.map(Self.quote) ?? "null"), \"target\": \(t.target.map(Self.quote) ?? "null"), "
                    + "\"line\": \(t.location?.line ?? 0), \"column\": \(t.location?.column ?? 0)}"
            }.joined(separator: ",") + (paths.uncovered.isEmpty ? "]\n" : "\n  ]\n")
            print(out + "}")
        }
    }

    static func json(_ events: [SpecEvent]) -> String {
        "[" + events.map { quote($0.description) }.joined(separator: ", ") + "]"
    }

    /// A JSON string literal: FlowDiagram's `jsonStringLiteral`, the one string-literal writer.
    static func quote(_ text: String) -> String { jsonStringLiteral(text) }
}
