import ArgumentParser
import FlowGraph
import FlowSpec
import Foundation

/// `flowviz convert FILE --to json|scxml [-o OUT]`
struct Convert: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Convert a flow file between the JSON flow spec and SCXML.",
        discussion: """
        The input's format comes from its name (.json; .scxml or .xml) or, for standard input and \
        other names, from its first character (< is SCXML). The output's comes from --to, else from \
        the output file's extension (.json; .scxml or .xml). Without -o, or with -o -, the result is \
        written to standard output.

        SCXML keeps everything the reader reads: structure, executable content, inline child \
        documents, data kept as text. JSON keeps the structure, the effect labels, inline child \
        documents and the data kept as text; converting SCXML to JSON says on standard error, in one \
        line, what it leaves out, and so does converting a JSON spec whose transitions name context \
        updates or whose states map child outputs to events (SCXML has neither). \
        An SCXML file always has SCXML's semantics: converting a JSON spec of the engine's semantics \
        says so in one line. The flow is converted as it is: validate checks it.

        Exit status: 0 converted; 1 the input cannot be read or parsed (one line says where and why), \
        or the output cannot be written; 64 the command line is wrong.

        Example: flowviz convert docs/flows/specs/feed.scxml --to json
        """
    )

    /// The formats a flow file is written in.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json, scxml

        /// The format a file's name says, if it says one.
        init?(path: String) {
            switch URL(fileURLWithPath: path).pathExtension.lowercased() {
            case "json": self = .json
            case "scxml", "xml": self = .scxml
            default: return nil
            }
        }
    }

    @Argument(help: "The flow file to convert (JSON flow spec or SCXML; - for standard input).",
              completion: .file(extensions: ["json", "scxml", "xml"]))
    var file: String

    @Option(help: "The output format: json or scxml (default: from the output file's extension).")
    var to: Format?

    @Option(name: .shortAndLong, help: "The file to write (default, or -: standard output).")
    var output: String?

    func validate() throws {
        guard to != nil || output.flatMap(Format.init(path:)) != nil else {
            throw ValidationError("give --to json or --to scxml, or an output file ending in .json, .scxml or .xml")
        }
    }

    func run() async throws {
        guard let format = to ?? output.flatMap(Format.init(path:)) else { throw ExitCode.validationFailure }
        let flow: DiskFile
        do {
            flow = try DiskFile.read(file)
        } catch {
            report(error.line)
            throw ExitCode(1)
        }
        let spec = flow.spec
        let text: String
        switch format {
        case .json:
            text = spec.json()
            let lost: String?
            do {
                lost = try Self.leftOutOfJSON(spec, json: text)
            } catch {
                report("\(flow.path): error: the JSON written from it does not read back: \(error)")
                throw ExitCode(1)
            }
            if let lost {
                report("note: \(flow.path): JSON leaves out \(lost) (it keeps the structure, effect labels and data kept as text)")
            }
        case .scxml:
            text = spec.scxml()
            if let lost = Self.leftOutOfSCXML(spec) {
                report("note: \(flow.path): SCXML leaves out \(lost)")
            }
            if spec.semantics == .flowstate {
                report("note: \(flow.path) has the engine's semantics (exact events, every final state finishes the flow); "
                       + "as SCXML it has SCXML's (dotted-prefix events, a nested final raises done.state.<parent>)")
            }
        }
        if output == nil || output == "-" {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        guard let output else { return }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output))
        } catch {
            report("\(output): error: cannot write: \(error.localizedDescription)")
            throw ExitCode(1)
        }
    }

    /// What a JSON spec (and the child documents it holds) says that SCXML cannot, named for people;
    /// `nil` when nothing.
    static func leftOutOfSCXML(_ spec: FlowFile) -> String? {
        var updates = false, outputs = false, routes = false
        var specs = [spec]
        while let next = specs.popLast() {
            for state in next.statesInDocumentOrder {
                updates = updates || state.transitions.contains { $0.update != nil }
                outputs = outputs || !state.childOutputs.isEmpty
            }
            routes = routes || !next.routes.isEmpty
            specs += next.documents.values
        }
        var lost: [String] = []
        if routes { lost.append("the deep links (\"routes\")") }
        if updates { lost.append("the names of context updates") }
        if outputs { lost.append("which event each child output becomes (SCXML's parent gets done.invoke.<id>)") }
        return lost.isEmpty ? nil : lost.joined(separator: ", ")
    }

    /// What an SCXML file holds that its JSON spec (`json`, written from it) does not, named for
    /// people; `nil` when the JSON reads back to a spec that writes the same SCXML.
    /// - Throws: The reader's error when the JSON does not read back (a writer's bug, never hidden).
    static func leftOutOfJSON(_ spec: FlowFile, json: String) throws(FlowSpecError) -> String? {
        guard spec.semantics == .scxml else { return nil }
        let back = try FlowFile.parse(json, file: "converted.json")
        guard back.scxml() != spec.scxml() else { return nil }
        var lost: [String] = []
        var pending = spec.states
        var content = false, autoforward = false
        while let state = pending.popLast() {
            autoforward = autoforward || state.autoforward
            content = content || !state.onEntry.isEmpty || !state.onExit.isEmpty || state.transitions.contains { $0.content != nil }
            pending += state.states
        }
        if content { lost.append("executable content (written back from labels as <raise>, <send> and <log>)") }
        if autoforward { lost.append("autoforward") }
        if !spec.dataElements.isEmpty && spec.data.isEmpty && spec.statesInDocumentOrder.allSatisfy({ $0.data.isEmpty }) {
            lost.append("the places it declares data")
        }
        return lost.isEmpty ? "what the SCXML writer writes from it" : lost.joined(separator: ", ")
    }
}
