import ArgumentParser
import FlowSpec
import Foundation

/// `flowviz generate swift FILE [-o OUT] [--type NAME] [--internal]`
struct Generate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a typed Swift flow from a flow file.",
        discussion: """
        The Swift declares one enum conforming to Flow: State, Event, Effect and Output enums (each \
        case's raw value the name as the file writes it), a Requirements protocol with a function per \
        guard, per effect and per child flow, definition(_:) and perform(_:with:). Declarations carry \
        #sourceLocation directives, so a compiler message about them names the flow file's line. The \
        FlowCodegen build-tool plugin runs the same generator on every .scxml and .flowspec.json file of \
        a target at build time.

        Parallel states, history states, transitions with several targets, internal and delayed \
        transitions and In() conditions become their typed forms. A typed flow matches exact events, \
        starts in one state and finishes at a final state outside parallel states, so these cannot \
        become one: a wildcard event descriptor (*, error.*), several initial states, under SCXML a \
        nested final state or a done.state transition outside parallel states, a history without \
        exactly one plain default target, and two names that become the same Swift name.

        Exit status: 0 written; 1 the flow cannot become a typed flow (one line per problem, each \
        naming its place in the file) or the output cannot be written; 2 the file cannot be read or \
        parsed; 64 the command line is wrong.

        Example: flowviz generate swift docs/flows/specs/sign-up.json -o SignUpFlow.swift
        """
    )

    /// The languages the generator writes.
    enum Language: String, ExpressibleByArgument, CaseIterable {
        case swift
    }

    @Argument(help: "The language to write: swift.")
    var language: Language

    @Argument(help: "The flow file (JSON flow spec or SCXML; - for standard input).",
              completion: .file(extensions: ["json", "scxml", "xml"]))
    var file: String

    @Option(name: .shortAndLong, help: "The file to write (default, or -: standard output).")
    var output: String?

    @Option(name: .customLong("type"), help: "The flow's Swift type name (default: the flow's name in UpperCamelCase).")
    var typeName: String?

    @Flag(name: .customLong("internal"), help: "Declare the types internal instead of public.")
    var isInternal = false

    func run() async throws {
        let flow = try DiskFile.open(file)
        let text: String
        do {
            text = try flow.spec.swiftSource(typeName: typeName, isPublic: !isInternal, file: flow.path)
        } catch {
            for problem in error.problems { report(problem.description) }
            throw ExitCode(1)
        }
        guard let output, output != "-" else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output))
        } catch {
            report("\(output): error: cannot write: \(error.localizedDescription)")
            throw ExitCode(1)
        }
    }
}
