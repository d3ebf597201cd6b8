import FlowGraph
@testable import FlowSpec
import FlowSpecTestSupport
import FlowTestSupport
import Foundation
import Testing

/// `flowviz` on SCXML from the outside world (issue 26): what is valid but not run is a warning in
/// `validate`, drawn by `render`, refused in one line by `simulate` and `paths`; and `convert`.
@Suite("flowviz on SCXML from the outside world, and flowviz convert (end to end)")
struct FlowvizSCXMLTests {
    let scratch: Scratch

    init() throws { scratch = try Scratch() }

    @Test("validate: each corpus document passes, what is not run printed as warnings; --strict fails on them",
          arguments: SCXMLCorpus.documents())
    func validateCorpus(_ name: String) throws {
        let path = try SCXMLCorpus.path(name)
        let spec = try FlowFile.parseSCXML(try SCXMLCorpus.bytes(name), file: path)
        let result = try Flowviz.run(["validate", path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        for warning in spec.warnings { #expect(lines.contains(warning.description), "\(lines)") }
        #expect(lines.last?.hasPrefix("\(path): valid (") == true, "\(lines)")
        #expect(!lines.contains { $0.contains(": error: ") })
        let strict = try Flowviz.run(["validate", "--strict", path])
        #expect(strict.status == (spec.warnings.isEmpty && spec.validate().isEmpty ? 0 : 1))
    }

    @Test("validate --format json: what is not run is a 'not-run' warning with its place")
    func validateJSON() throws {
        let path = try SCXMLCorpus.path("qt-two-invokes.scxml")
        let result = try Flowviz.run(["validate", "--format", "json", path])
        #expect(result.status == 0)
        let records = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: String]])
        let notRun = records.filter { $0["kind"] == "not-run" }
        #expect(notRun.count == 5, "\(records)")
        #expect(notRun.allSatisfy { $0["severity"] == "warning" && $0["line"] != "0" })
    }

    @Test("simulate and paths refuse what they do not run in one line naming the first, exit 3; render draws it",
          arguments: SCXMLCorpus.documents())
    func refuseAndRender(_ name: String) throws {
        let path = try SCXMLCorpus.path(name)
        let spec = try FlowFile.parseSCXML(try SCXMLCorpus.bytes(name), file: path)
        let out = scratch.path(name + ".svg")
        let render = try Flowviz.run(["render", path, "-o", out])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(FileManager.default.fileExists(atPath: out))
        guard let first = spec.warnings.first else { return }
        for command in [["simulate", path, "--events", "x"], ["paths", path], ["view", path, "--events", "x", "-o", scratch.path("v.html")]] {
            let result = try Flowviz.run(command)
            #expect(result.status == 3, "\(command[0]): \(result.stderr)")
            #expect(result.stderr.hasPrefix("\(first.location.map { "\($0)" } ?? ""): error: \(first.message)"), "\(command[0]): \(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "one line: \(result.stderr)")
        }
    }

    @Test("render draws a state's data and the invocations it does not run under its name")
    func renderData() throws {
        let path = try SCXMLCorpus.path("qt-two-invokes.scxml")
        let dot = scratch.path("two.dot")
        #expect(try Flowviz.run(["render", path, "-o", dot]).status == 0)
        let text = try String(contentsOfFile: dot, encoding: .utf8)
        #expect(text.contains(#"paying\ninvoke(srcexpr='payment-' + provider + '.scxml', idlocation=paymentSession, nam…"#), "\(text)")
        #expect(text.contains("address = <empty>") == false)
        #expect(text.contains(#"address\npaymentSession\nprovider = 'card'"#), "the document's own data as the graph's label: \(text)")
    }

    // MARK: convert

    @Test("convert: SCXML to JSON on standard output, and back to SCXML from the output's extension, to the same spec")
    func convertBothWays() throws {
        let door = try flowFile("door.scxml").path
        let json = try Flowviz.run(["convert", door, "--to", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stderr.isEmpty, "door.scxml's executable content is all labels JSON writes back: \(json.stderr)")
        let original = try FlowFile.parseSCXML(Array(try Data(contentsOf: URL(fileURLWithPath: door))), file: door)
        #expect(json.stdout == original.json())
        let jsonPath = try scratch.file("door.json", json.stdout)
        let scxmlPath = scratch.path("door-again.scxml")
        let back = try Flowviz.run(["convert", jsonPath, "-o", scxmlPath])
        #expect(back.status == 0 && back.stdout.isEmpty, "\(back.stderr)")
        let again = try FlowFile.parseSCXML(Array(try Data(contentsOf: URL(fileURLWithPath: scxmlPath))), file: scxmlPath)
        #expect(again.json() == original.json())
        // --to wins over the output's extension; - is standard output.
        let forced = try Flowviz.run(["convert", jsonPath, "--to", "scxml", "-o", "-"])
        #expect(forced.stdout == again.scxml())
    }

    @Test("convert: data kept as text survives SCXML → JSON → SCXML; what JSON leaves out is said in one note")
    func convertCorpus() throws {
        for name in SCXMLCorpus.documents() {
            let path = try SCXMLCorpus.path(name)
            let original = try FlowFile.parseSCXML(try SCXMLCorpus.bytes(name), file: path)
            let jsonPath = scratch.path(name + ".json")
            let json = try Flowviz.run(["convert", path, "-o", jsonPath])
            #expect(json.status == 0, "\(name): \(json.stderr)")
            let notes = json.stderr.split(separator: "\n")
            #expect(notes.count <= 1 && notes.allSatisfy { $0.hasPrefix("note: \(path): JSON leaves out ") }, "\(name): \(json.stderr)")
            let back = try Flowviz.run(["convert", jsonPath, "--to", "scxml"])
            #expect(back.status == 0, "\(name): \(back.stderr)")
            let again = try FlowFile.parseSCXML(back.stdout, file: path)
            #expect(again.statesInDocumentOrder.map(\.data) == original.statesInDocumentOrder.map(\.data), "\(name)")
            #expect(again.data == original.data, "\(name)")
            #expect(again.statesInDocumentOrder.map(\.name) == original.statesInDocumentOrder.map(\.name), "\(name)")
        }
        let note = try Flowviz.run(["convert", try SCXMLCorpus.path("qt-media-player.scxml"), "--to", "json"])
        #expect(note.stderr.contains("JSON leaves out executable content"), "\(note.stderr)")
    }

    @Test("convert: a JSON spec of the engine's semantics says, in one note, that SCXML has SCXML's")
    func convertSemanticsNote() throws {
        let path = try scratch.file("w.json", """
        { "flowspec": 1, "name": "w", "initial": "a", "states": [ { "name": "a", "transitions": [ { "event": "go", "target": "b" } ] }, { "name": "b", "final": true } ] }
        """)
        let result = try Flowviz.run(["convert", path, "--to", "scxml"])
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("note: \(path) has the engine's semantics"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(try FlowFile.parseSCXML(result.stdout, file: "w.scxml").states.map(\.name) == ["a", "b"])
    }

    @Test("convert: bad input is one readable line and exit 1; a bad command line is a usage error", arguments: [
        ("bad.scxml", "<scxml><state id='a'></scxml>", ":1:24: error: </scxml> closes <state>"),
        ("bad.json", "{ \"flowspec\": 1, \"name\": \"x\" }", ":1:1: error: the flow spec needs a 'initial' field"),
        ("prefix.scxml", "<scxml><qt:editorinfo/></scxml>", ":1:8: error: the namespace prefix 'qt' is not declared"),
        ("empty.json", "", ":1:1: error: the file is empty"),
    ])
    func convertBadInput(name: String, text: String, expected: String) throws {
        let path = try scratch.file(name, text)
        let result = try Flowviz.run(["convert", path, "--to", "json"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix(path + expected), "\(result.stderr)")
        #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
    }

    @Test("convert --help lists its exit statuses; its example runs as written from the repository's root, and so do the docs'")
    func convertHelp() throws {
        let help = try Flowviz.run(["convert", "--help"])
        let paragraphs = help.stdout.components(separatedBy: "\n\n").map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        #expect(help.status == 0)
        #expect(paragraphs.contains { $0.hasPrefix("Exit status: 0") && $0.contains("64 the command line is wrong") }, "\(help.stdout)")
        let example = try #require(paragraphs.first { $0.hasPrefix("Example: flowviz ") })
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = try Flowviz.run(example.dropFirst("Example: flowviz ".count).split(separator: " ").map(String.init), input: nil, in: root)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(example): \(result.stderr)")
        #expect(try FlowFile.parse(result.stdout, file: "feed.json").name == "feed")
        // docs/flowviz.md: the format from the output's extension; standard input and output.
        let out = scratch.path("feed.scxml")
        #expect(try Flowviz.run(["convert", "docs/flows/specs/feed.json", "-o", out], input: nil, in: root).status == 0)
        let piped = try Flowviz.run(["convert", "-", "--to", "scxml"], input: try Data(contentsOf: root.appendingPathComponent("docs/flows/specs/sign-up.json")), in: nil)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try FlowFile.parseSCXML(piped.stdout, file: "s.scxml").name == "sign-up")
    }

    @Test("convert: a missing file, an unwritable output and a missing format")
    func convertProblems() throws {
        let missing = try Flowviz.run(["convert", scratch.path("nope.scxml"), "--to", "json"])
        #expect(missing.status == 1 && missing.stderr == "\(scratch.path("nope.scxml")): error: no such file\n")
        let door = try flowFile("door.scxml").path
        let unwritable = try Flowviz.run(["convert", door, "-o", scratch.path("no/such/folder/door.json")])
        #expect(unwritable.status == 1 && unwritable.stderr.contains("error: cannot write"), "\(unwritable.stderr)")
        let noFormat = try Flowviz.run(["convert", door])
        #expect(noFormat.status == 64 && noFormat.stderr.contains("give --to json or --to scxml"), "\(noFormat.stderr)")
        let unknown = try Flowviz.run(["convert", door, "-o", scratch.path("door.txt")])
        #expect(unknown.status == 64)
        let badTo = try Flowviz.run(["convert", door, "--to", "yaml"])
        #expect(badTo.status == 64)
    }
}
