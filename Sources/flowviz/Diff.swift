import ArgumentParser
import FlowGraph
import FlowSpec
import FlowGraphviz
import Foundation

/// `flowviz diff OLD NEW`
struct Diff: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the structural difference between two versions of a flow.",
        discussion: """
        States are matched by name; transitions by their state, event and guard. Each difference is \
        one line starting with + (added), - (removed) or ~ (changed). With -o, one diagram shows both \
        versions: additions in green, removals in red and dashed, changes in orange.

        Exit status: 0 no difference; 1 differences; 2 a file cannot be read or parsed, or rendering \
        failed; 64 the command line is wrong.

        Example: flowviz diff docs/flows/specs/sign-up.json docs/flows/specs/sign-up.scxml -o sign-up-diff.svg
        """
    )

    @Argument(help: "The old version.", completion: .file(extensions: ["json", "scxml"]))
    var old: String

    @Argument(help: "The new version.", completion: .file(extensions: ["json", "scxml"]))
    var new: String

    @Option(name: .shortAndLong, help: "Also draw the difference into this file (dot, mermaid, svg, png or pdf, by extension).")
    var output: String?

    func run() async throws {
        let before = try DiskFile.open(old)
        let after = try DiskFile.open(new)
        let diff = FlowDiff(old: before.spec, new: after.spec)
        if diff.isEmpty { print("no structural difference") }
        diff.changes.forEach { print($0.description) }
        if let output {
            let format = Render.format(for: output, given: nil)
            guard Render.formats.contains(format) else {
                report("\(output): error: unknown format '\(format)': use one of \(Render.formats.sorted().joined(separator: ", "))")
                throw ExitCode(2)
            }
            try Render.write(diff.graph, to: output, format: format, engine: nil, source: new)
        }
        if !diff.isEmpty { throw ExitCode(1) }
    }
}
