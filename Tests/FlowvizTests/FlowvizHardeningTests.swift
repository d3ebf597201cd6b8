import FlowGraph
@testable import FlowSpec
import FlowTestSupport
import Foundation
import Testing

extension Flowviz {
    /// Runs the binary in `directory`, with `input` on standard input.
    static func run(_ arguments: [String], input: Data?, in directory: URL?) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let inPipe = Pipe()
        let out = Pipe()
        let err = Pipe()
        process.standardInput = inPipe
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if let input { inPipe.fileHandleForWriting.write(input) }
        try inPipe.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// The repository's root (the examples in the help name files under docs/).
private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

@Suite("flowviz: help, standard input, odd files, invalid flows")
struct FlowvizHardeningTests {
    static let commands = ["validate", "render", "simulate", "paths", "routes", "diff"]

    @Test("Every subcommand's help lists its exit statuses", arguments: commands)
    func helpListsExitStatuses(command: String) throws {
        let help = try Flowviz.run([command, "--help"])
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")  // unwrapped
        #expect(help.status == 0)
        #expect(text.contains("Exit status: 0"), "\(command) --help:\n\(help.stdout)")
        #expect(text.contains("64 the command line is wrong"))
    }

    @Test("Every example in the help runs as written, on the repository's own files", arguments: commands)
    func helpExamplesRun(command: String) throws {
        let help = try Flowviz.run([command, "--help"])
        // An example is a paragraph (the help wraps long lines) starting with "Example: flowviz".
        let paragraphs = help.stdout.components(separatedBy: "\n\n").map {
            $0.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        let examples = paragraphs.compactMap { paragraph -> [String]? in
            guard paragraph.hasPrefix("Example: flowviz ") else { return nil }
            return paragraph.dropFirst("Example: flowviz ".count).split(separator: " ").map(String.init)
        }
        #expect(!examples.isEmpty, "\(command) --help has an example")
        let scratch = try Scratch()
        try FileManager.default.createSymbolicLink(at: scratch.folder.appendingPathComponent("docs"),
                                                   withDestinationURL: repository.appendingPathComponent("docs"))
        for example in examples {
            let result = try Flowviz.run(example, input: nil, in: scratch.folder)
            let allowed: Set<Int32> = command == "diff" ? [0, 1] : [0]  // diff's 1 means "differences"
            #expect(allowed.contains(result.status), "flowviz \(example.joined(separator: " ")): \(result.stderr)")
            #expect(!result.stderr.contains("error:"), "\(result.stderr)")
        }
    }

    @Test("- reads the flow from standard input, for every command that reads a flow")
    func standardInput() throws {
        let spec = try Data(contentsOf: repository.appendingPathComponent("docs/flows/specs/sign-up.json"))
        let scratch = try Scratch()
        let validate = try Flowviz.run(["validate", "-"], input: spec, in: nil)
        #expect(validate.status == 0, "\(validate.stderr)")
        let render = try Flowviz.run(["render", "-", "-o", scratch.path("out.dot")], input: spec, in: nil)
        #expect(render.status == 0, "\(render.stderr)")
        #expect(try String(contentsOfFile: scratch.path("out.dot"), encoding: .utf8).contains("digraph"))
        let paths = try Flowviz.run(["paths", "-", "--to", "twoFactor"], input: spec, in: nil)
        #expect(paths.status == 0, "\(paths.stderr)")
        let simulate = try Flowviz.run(["simulate", "-", "--events", "submitEmail"], input: spec, in: nil)
        #expect(simulate.status == 0, "\(simulate.stderr)")
        let empty = try Flowviz.run(["validate", "-"], input: Data(), in: nil)
        #expect(empty.status == 2)
        #expect(empty.stderr == "<stdin>:1:1: error: the input is empty: expected a flow file\n")
    }

    @Test("A device is named as such, not read (never 'empty', never a hang)")
    func devices() throws {
        let zero = try Flowviz.run(["validate", "/dev/zero"])
        #expect(zero.status == 2)
        #expect(zero.stderr == "/dev/zero: error: is a character device, not a flow file (give a regular file, or - for standard input)\n")
    }

    @Test("Oversized files: the size is rounded up, never shown as the limit itself")
    func oversizedMessage() throws {
        let scratch = try Scratch()
        let path = scratch.path("big.json")
        _ = FileManager.default.createFile(atPath: path, contents: Data(count: 10 * 1_048_576 + 1))
        let result = try Flowviz.run(["validate", path])
        #expect(result.status == 2)
        #expect(result.stderr == "\(path): error: the file is 10.1 MB; flow files are limited to 10 MB\n")
    }

    @Test("render draws an invalid flow with its broken transitions marked, reports each error and exits 1")
    func renderInvalid() throws {
        let scratch = try Scratch()
        let file = try scratch.file("broken.json", """
            { "flowspec": 1, "name": "broken", "initial": "a", "states": [
              { "name": "a", "transitions": [ { "event": "go", "target": "nowhere" }, { "event": "ok", "target": "b" } ] },
              { "name": "b" } ] }
            """)
        let result = try Flowviz.run(["render", file, "-o", scratch.path("broken.dot")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("nowhere"), "\(result.stderr)")
        let dot = try String(contentsOfFile: scratch.path("broken.dot"), encoding: .utf8)
        #expect(dot.contains("nowhere?"), "the missing target is drawn")
        #expect(dot.contains("#dc2626"), "and marked")
    }
}
