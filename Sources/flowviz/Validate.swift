import ArgumentParser
import FlowGraph
import FlowSpec
import Flowstate
import Foundation

/// `flowviz validate FILE...`
struct Validate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check flow files: every problem of every file, one line each.",
        discussion: """
        Each problem is printed as `file:line:column: error|warning: text`; SCXML that is valid but \
        not run (data, scripts, invocations that need a data model, ...) is a warning; a file without errors ends \
        with one line `file: valid (N states, M transitions)`, and its warnings counted. A FILE may be \
        - for standard input.

        Exit status: 0 no errors (no warnings either, with --strict); 1 errors (or warnings, with \
        --strict); 2 a file cannot be read or parsed; 64 the command line is wrong.

        Example: flowviz validate docs/flows/specs/sign-up.json docs/flows/specs/feed.scxml --strict
        """
    )

    @Argument(help: "The flow files to check (JSON flow spec or SCXML).", completion: .file(extensions: ["json", "scxml"]))
    var files: [String]

    @Flag(help: "Fail on warnings too.")
    var strict = false

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    func run() async throws {
        var failed = false
        var unreadable = false
        var records: [[String: String]] = []
        for path in files {
            let file: DiskFile
            do {
                file = try DiskFile.read(path)
            } catch {
                unreadable = true
                report(error.line)
                continue
            }
            let issues = file.validationIssues
            // What the file holds that is valid but not run (SCXML's data, ...): warnings, after the errors.
            let notRun = file.spec.warnings
            defer {
                if format == .text, !issues.contains(where: { $0.severity == .error }) {
                    let states = file.spec.statesInDocumentOrder
                    let transitions = states.reduce(0) { $0 + $1.transitions.count }
                    let warnings = issues.count + notRun.count
                    print("\(path): valid (\(states.count) states, \(transitions) transitions"
                          + (warnings == 0 ? ")" : ", \(warnings) warning\(warnings == 1 ? "" : "s"))"))
                }
            }
            let lines = issues.filter { $0.severity == .error } + notRun + issues.filter { $0.severity != .error }
            for line in lines {
                if line.severity == .error || strict { failed = true }
                switch format {
                case .text:
                    print(line.description)
                case .json:
                    records.append([
                        "file": line.location?.file ?? path, "line": "\(line.location?.line ?? 0)",
                        "column": "\(line.location?.column ?? 0)", "severity": "\(line.severity)",
                        "kind": "\(line.kind)", "message": line.message,
                    ])
                }
            }
        }
        if format == .json {
            let data = try JSONSerialization.data(withJSONObject: records, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
        if unreadable { throw ExitCode(2) }
        if failed { throw ExitCode(1) }
    }
}
