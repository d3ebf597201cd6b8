import FlowGraph
@testable import FlowSpec
import FlowSpecTestSupport
import FlowTestSupport
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

@Suite("flowviz (end to end)")
struct FlowvizTests {
    let scratch: Scratch
    let signUp: String

    init() throws {
        scratch = try Scratch()
        signUp = try scratch.file("sign-up.json", FlowFile(SignUp.definition).json())
    }

    @Test("validate: a good file passes with one line that says so")
    func validateGood() throws {
        let result = try Flowviz.run(["validate", signUp])
        #expect(result.status == 0)
        #expect(result.stdout == "\(signUp): valid (6 states, 8 transitions)\n")
        #expect(result.stderr.isEmpty)
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

    @Test("--help shows an example for each command (--version: VersionTests)")
    func help() throws {
        for command in ["validate", "render", "simulate", "paths", "diff"] {
            #expect(try Flowviz.run([command, "--help"]).stdout.contains("Example: flowviz \(command)"))
        }
    }

    // MARK: simulate, paths, diff, render --trace, SCXML

    @Test("simulate: each step, the final configuration, the trace; render --trace draws it")
    func simulate() throws {
        let door = try flowFile("door.scxml").path
        let trace = scratch.path("run.trace.json")
        let result = try Flowviz.run(["simulate", door, "--events", "open,narrow,close,open[!unlocked]", "--trace-out", trace])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
        start --> closed / show closed
        closed --open--> opening / raise(opened.fully)
        opening --opened.fully--> wide  (internal)
        wide --narrow--> ajar
        ajar --close--> closed / show closed
        closed rejects open[!unlocked] (every guard false)
        configuration: closed

        """)
        let strict = try Flowviz.run(["simulate", door, "--events", "open,nothing", "--strict"])
        #expect(strict.status == 1)
        #expect(strict.stderr == "\(door): error: wide ignores nothing\n")
        let svg = scratch.path("run.svg")
        let render = try Flowviz.run(["render", door, "-o", svg, "--trace", trace])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("×2"), "the visit counts are drawn")
    }

    @Test("simulate reads events from standard input and runs child flows found beside the file")
    func simulateStdin() throws {
        let checkout = try flowFile("checkout.json").path
        let process = Process()
        process.executableURL = Flowviz.binary
        process.arguments = ["simulate", checkout]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("checkout\n# a comment\nsubmit[valid]\n".utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(text.contains("  [login] form --submit--> in"))
        #expect(text.hasSuffix("configuration: paying\n"))
    }

    @Test("simulate runs a Swift flow's exported children; --strict fails on a child output its parent ignores (issue 23)")
    func simulateExportedChildren() throws {
        let login = try scratch.file("login.json", FlowFile(Counted.login()).json())
        let ok = try Flowviz.run(["simulate", login, "--strict", "--events", "submit,submit"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout.contains("  [twoFactor] finished: verified"))
        #expect(ok.stdout.contains("verifying --codeAccepted--> signedIn"))
        // The child's output renamed to `ok` while the parent's mapping still names `verified`.
        var stale = FlowFile(Counted.login(twoFactorOutput: "ok"))
        stale.states[1].childOutputs = [.init(output: "verified", event: "codeAccepted")]
        let renamed = try scratch.file("renamed.json", stale.json())
        let validation = try Flowviz.run(["validate", renamed])
        #expect((validation.stdout + validation.stderr).contains("warning: state 'verifying' maps output 'verified' of child flow 'twoFactor', which the child never produces"))
        let strict = try Flowviz.run(["simulate", renamed, "--strict", "--events", "submit,submit"])
        #expect(strict.status == 1)
        #expect(strict.stderr == "\(renamed): error: the output of child flow 'twoFactor' reaches the root flow as event 'ok', which state 'verifying' ignores\n")
        let lenient = try Flowviz.run(["simulate", renamed, "--events", "submit,submit"])
        #expect(lenient.status == 0)
        #expect(lenient.stdout.contains("verifying ignores ok"))
    }

    @Test("simulate: a history whose default runs content is exit 3 with one line (parallel and history states run); a bad event list is a usage error")
    func simulateErrors() throws {
        let parallel = try scratch.file("p.scxml", "<scxml initial='p'>\n<parallel id='p'><state id='x'/></parallel></scxml>")
        let runs = try Flowviz.run(["simulate", parallel, "--events", "a"])
        #expect(runs.status == 0, "\(runs.stderr)")
        let history = try scratch.file("h.scxml", "<scxml initial='s'>\n<state id='s'><history id='h'><transition target='x'/></history><state id='x'/></state></scxml>")
        let ran = try Flowviz.run(["simulate", history, "--events", "a"])
        #expect(ran.status == 0, "\(ran.stderr)")
        let content = try scratch.file("c.scxml", "<scxml initial='s'>\n<state id='s'><history id='h'><transition target='x'><raise event='e'/></transition></history><state id='x'/></state></scxml>")
        let result = try Flowviz.run(["simulate", content, "--events", "a"])
        #expect(result.status == 3)
        #expect(result.stderr == "\(content):2:15: error: the default transition of <history> 'h' has executable content: it is drawn and validated, not simulated\n")
        let usage = try Flowviz.run(["simulate", signUp, "--events", "a,,b"])
        #expect(usage.status == 64)
        #expect(usage.stderr.contains("event 2 '' is not an event name"))
    }

    @Test("paths: text, JSON and --to; every --to path replays in simulate to its state")
    func paths() throws {
        let door = try flowFile("door.scxml").path
        let text = try Flowviz.run(["paths", door])
        #expect(text.status == 0)
        #expect(text.stdout.contains("  ajar: open[unlocked], narrow\n"))
        #expect(text.stdout.contains("sequences take 10 of 10 transitions"))
        let json = try Flowviz.run(["paths", door, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["shortest"] as? [String: [String]])?["broken"] == ["error"])
        for state in ["closed", "wide", "ajar", "broken"] {  // states settled in, not passed through
            let to = try Flowviz.run(["paths", door, "--to", state])
            let events = to.stdout.trimmingCharacters(in: .newlines)
            let run = try Flowviz.run(["simulate", door, "--events", events])
            let configuration = run.stdout.split(separator: "\n").last ?? ""
            #expect(configuration.hasPrefix("configuration: \(state)"), "\(state) by \(events): \(run.stdout)")
        }
        let nowhere = try Flowviz.run(["paths", door, "--to", "nowhere"])
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr == "\(door): error: no state 'nowhere'\n")
        // Names that JSON must escape come back as they were written (one string writer: FlowDiagram's).
        let odd = try scratch.file("odd.json", #"""
        { "flowspec": 1, "name": "say \"hi\" \\ é/\u0001", "initial": "a", "states": [
          { "name": "a", "transitions": [ { "event": "go\ttab", "target": "b \"quoted\"" } ] },
          { "name": "b \"quoted\"" } ] }
        """#)
        let oddJSON = try Flowviz.run(["paths", odd, "--format", "json"])
        let oddObject = try JSONSerialization.jsonObject(with: Data(oddJSON.stdout.utf8)) as? [String: Any]
        #expect(oddObject?["flow"] as? String == "say \"hi\" \\ é/\u{01}", "\(oddJSON.stdout)")
        #expect((oddObject?["shortest"] as? [String: [String]])?["b \"quoted\""] == ["go\ttab"])
    }

    @Test("diff: one line per change, exit 1, and a diagram; identical files are exit 0")
    func diff() throws {
        let old = try scratch.file("old.json", """
        { "flowspec": 1, "name": "f", "initial": "a", "states": [
          { "name": "a", "transitions": [ { "event": "go", "target": "b" }, { "event": "skip", "target": "c" } ] },
          { "name": "b" }, { "name": "c" } ] }
        """)
        let new = try scratch.file("new.json", """
        { "flowspec": 1, "name": "f", "initial": "a", "states": [
          { "name": "a", "entry": ["hello"], "transitions": [ { "event": "go", "target": "d" }, { "event": "back", "target": "a" } ] },
          { "name": "b" }, { "name": "d" } ] }
        """)
        let svg = scratch.path("diff.svg")
        let result = try Flowviz.run(["diff", old, new, "-o", svg])
        #expect(result.status == 1)
        #expect(result.stdout == """
        - state c
        ~ state a: entry: [] -> [hello]
        + state d
        - transition a --skip--> c
        ~ transition a --go-->: target: b -> d
        + transition a --back--> a

        """)
        #expect(try String(contentsOfFile: svg, encoding: .utf8).contains("#d0312d"), "removals drawn in red")
        let same = try Flowviz.run(["diff", old, old])
        #expect(same.status == 0)
        #expect(same.stdout == "no structural difference\n")
    }

    @Test("validate reads SCXML: a malformed file is one line with its place, exit 2")
    func scxmlErrors() throws {
        let bad = try scratch.file("bad.scxml", "<scxml>\n  <state id='a'>\n</scxml>")
        let result = try Flowviz.run(["validate", bad])
        #expect(result.status == 2)
        #expect(result.stderr == "\(bad):3:3: error: </scxml> closes <state> opened at 2:3\n")
        let binary = try scratch.file("binary.scxml", "<scxml>\u{0}\u{1}\u{2}")
        #expect(try Flowviz.run(["validate", binary]).status == 2)
        #expect(try Flowviz.run(["validate", try flowFile("door.scxml").path]).status == 0)
    }
}

extension FlowvizTests {
    @Test("generate swift: the typed flow on standard output or in a file; a flow it cannot type is one line per problem, exit 1")
    func generateSwift() throws {
        let printed = try Flowviz.run(["generate", "swift", signUp])
        #expect(printed.status == 0)
        #expect(printed.stdout.contains("public enum SignUp: Flow {"))
        let out = try scratch.file("SignUp.swift", "")
        let written = try Flowviz.run(["generate", "swift", signUp, "-o", out, "--type", "Onboarding", "--internal"])
        #expect(written.status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("\nenum Onboarding: Flow {"))
        let parallel = try scratch.file("p.scxml", "<scxml initial='p'>\n<parallel id='p'><state id='x'/></parallel></scxml>")
        let generated = try Flowviz.run(["generate", "swift", parallel])
        #expect(generated.status == 0 && generated.stdout.contains("Parallel<P>(State.p) {"), "\(generated.stderr)")
        let wildcard = try scratch.file("w.scxml", "<scxml initial='a'>\n<state id='a'><transition event='*' target='a'/></state></scxml>")
        let refused = try Flowviz.run(["generate", "swift", wildcard])
        #expect(refused.status == 1)
        #expect(refused.stderr == "\(wildcard):2:15: error: event descriptor '*' matches several events: a typed flow matches exact events\n")
    }
}
