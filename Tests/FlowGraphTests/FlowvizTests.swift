import FlowGraph
import FlowstateExamples
import Foundation
import Testing

/// Runs the built `flowviz` binary, as a user would.
struct Flowviz {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The binary sits beside the test bundle in the build folder.
    static let binary: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("flowviz")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: "flowviz")
    }()

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// A temporary folder with files in it.
struct Scratch {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowviz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func file(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
}

@Suite("flowviz (end to end)")
struct FlowvizTests {
    let scratch: Scratch
    let signUp: String

    init() throws {
        scratch = try Scratch()
        signUp = try scratch.file("sign-up.json", FlowSpec(SignUp.definition).json())
    }

    @Test("validate: a good file passes silently")
    func validateGood() throws {
        let result = try Flowviz.run(["validate", signUp])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
    }

    @Test("validate: every problem of every file, one line each with file:line:column; exit 1 on errors")
    func validateProblems() throws {
        let bad = try scratch.file("bad.json", """
        { "flowspec": 1, "name": "door", "initial": "closed",
          "states": [
            { "name": "closed", "transitions": [ { "event": "open", "target": "opne" } ] },
            { "name": "lost" }
          ] }
        """)
        let result = try Flowviz.run(["validate", signUp, bad])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("\(bad):3:42: error: transition from 'closed' on 'open' targets 'opne', which is not a declared state"))
        #expect(lines.contains("\(bad):4:5: warning: state 'lost' is unreachable from the initial state 'closed'"))
    }

    @Test("validate: warnings pass unless --strict")
    func strict() throws {
        let warned = try scratch.file("warned.json", """
        { "flowspec": 1, "name": "w", "initial": "a", "states": [ { "name": "a", "transitions": [ { "event": "go", "target": "a" } ] }, { "name": "b" } ] }
        """)
        #expect(try Flowviz.run(["validate", warned]).status == 0)
        #expect(try Flowviz.run(["validate", "--strict", warned]).status == 1)
    }

    @Test("validate --format json prints machine-readable records")
    func json() throws {
        let warned = try scratch.file("warned.json", """
        { "flowspec": 1, "name": "w", "initial": "a", "states": [ { "name": "a" } ] }
        """)
        let result = try Flowviz.run(["validate", "--format", "json", warned])
        let records = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: String]]
        #expect(records?.first?["kind"] == "dead-end")
        #expect(records?.first?["line"] == "1")
    }

    @Test("Bad files: one readable line on stderr, exit 2, never a stack trace", arguments: [
        ("malformed.json", "{\n  \"flowspec\": 1,,\n}", ":2:17: error: expected a field name in quotes"),
        ("empty.json", "", ":1:1: error: the file is empty: expected a flow file"),
        ("unknown.json", "{ \"flowspec\": 1, \"name\": \"x\", \"initial\": \"a\", \"states\": [], \"colour\": 1 }", ":1:61: error: unknown field 'colour'"),
    ])
    func badFiles(name: String, text: String, expected: String) throws {
        let path = try scratch.file(name, text)
        for command in [["validate", path], ["render", path, "-o", scratch.path("out.svg")]] {
            let result = try Flowviz.run(command)
            #expect(result.status == 2)
            #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
            #expect(result.stderr.hasPrefix(path + expected), "\(result.stderr)")
        }
    }

    @Test("A 50 MB file is refused in one line, without being read")
    func tooLarge() throws {
        let path = scratch.path("huge.json")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 50 * 1_048_576)  // sparse: 50 MB on paper
        try handle.close()
        let result = try Flowviz.run(["validate", path])
        #expect(result.status == 2)
        #expect(result.stderr == "\(path): error: the file is 50 MB; flow files are limited to 10 MB\n")
    }

    @Test("A missing file and a directory are one line each, exit 2")
    func missingAndDirectory() throws {
        let missing = try Flowviz.run(["validate", scratch.path("nope.json")])
        #expect(missing.status == 2)
        #expect(missing.stderr == "\(scratch.path("nope.json")): error: no such file\n")
        let directory = try Flowviz.run(["validate", scratch.folder.path])
        #expect(directory.status == 2)
        #expect(directory.stderr.hasSuffix("error: is a directory, not a flow file\n"))
    }

    @Test("render: the format comes from the extension", arguments: [
        ("out.svg", "<?xml"), ("out.dot", "digraph"), ("out.mmd", "stateDiagram-v2"), ("out.png", "\u{FFFD}PNG"), ("out.pdf", "%PDF"),
    ])
    func render(name: String, prefix: String) throws {
        let output = scratch.path(name)
        let result = try Flowviz.run(["render", signUp, "-o", output, "--highlight", "password"])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(String(decoding: data.prefix(prefix.utf8.count + 2), as: UTF8.self).hasPrefix(prefix))
    }

    @Test("render: an unknown format is a usage error (exit 64); an unknown state to highlight is exit 2")
    func renderErrors() throws {
        let usage = try Flowviz.run(["render", signUp, "-o", scratch.path("out.gif")])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("unknown format 'gif'"))
        let highlight = try Flowviz.run(["render", signUp, "-o", scratch.path("out.svg"), "--highlight", "nowhere"])
        #expect(highlight.status == 2)
        #expect(highlight.stderr == "\(signUp): error: no state 'nowhere' to highlight\n")
    }

    @Test("--help shows an example for each command; --version prints the version")
    func help() throws {
        #expect(try Flowviz.run(["validate", "--help"]).stdout.contains("Example: flowviz validate"))
        #expect(try Flowviz.run(["render", "--help"]).stdout.contains("Example: flowviz render"))
        #expect(try Flowviz.run(["--version"]).stdout == "0.1.0\n")
    }
}
