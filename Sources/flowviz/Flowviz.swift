import ArgumentParser
import Flowstate

/// `flowviz`: draws and checks flows stored as files (the JSON flow spec, `docs/flowspec.md`).
///
/// Exit status: 0 success; 1 the flows have errors (or warnings, with `--strict`); 2 a file cannot be
/// read or parsed, or rendering failed; 64 the command line is wrong.
@main
struct Flowviz: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flowviz",
        abstract: "Render and validate flows stored as files.",
        discussion: """
        Exit status: 0 success; 1 the flows have errors (warnings too, with --strict); \
        2 a file cannot be read or parsed, or rendering failed; 64 the command line is wrong.
        """,
        version: FlowstateRelease.version,
        subcommands: [Validate.self, Render.self, Simulate.self, Paths.self, Routes.self, Diff.self, View.self, Convert.self, Generate.self]
    )
}
