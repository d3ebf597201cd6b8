import FlowGraph
@testable import FlowSpec
import FlowSpecTestSupport
import Foundation
import Testing

/// The W3C SCXML conformance tests (the IRP suite) that need only the null
/// data model (`<parallel>` and `<history>` included), converted by `W3C/convert.py` (see `W3C/README.md` for their
/// origin, license and the list of tests left out, each with its reason).
enum W3CSuite {
    static var folder: URL? { w3cFolder("null") }

    /// Tests that qualify by their constructs but check an optional feature the simulation does not
    /// have, each with the reason.
    static let optional: [String: String] = [
        "test577.scxml": "optional: expects the BasicHTTP event I/O processor's error.communication; without that processor the recommendation prescribes error.execution",
    ]

    /// The top-level tests (sub-documents such as `test239sub1.scxml` are the children they invoke).
    static func tests() -> [String] {
        guard let folder, let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter {
            $0.hasPrefix("test") && $0.hasSuffix(".scxml") && !$0.contains("sub") && optional[$0] == nil
        }.sorted()
    }

    /// A child document by its `<invoke src>`: `file:` and plain paths, relative to the test's folder.
    static func child(_ src: String) -> FlowFile? {
        guard let folder else { return nil }
        let path = src.hasPrefix("file:") ? String(src.dropFirst(5)) : src
        let url = folder.appendingPathComponent(path)
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? FlowFile.parseSCXML(Array(data), file: url.lastPathComponent)
    }
}

@Suite("W3C SCXML conformance tests (null data model)")
struct W3CTests {
    @Test("The converted suite is there")
    func present() {
        #expect(W3CSuite.tests().count == 37, "\(W3CSuite.tests())")
        #expect(W3CSuite.tests().contains("test387.scxml"))  // <history>, shallow and deep defaults
        for parallel in ["test310.scxml", "test404.scxml", "test405.scxml", "test406.scxml", "test413.scxml",
                         "test417.scxml", "test436.scxml"] {
            #expect(W3CSuite.tests().contains(parallel))
        }
    }

    @Test("Each test ends in 'pass'", arguments: W3CSuite.tests())
    func passes(_ name: String) throws {
        let url = try #require(W3CSuite.folder?.appendingPathComponent(name))
        let spec = try FlowFile.parseSCXML(Array(try Data(contentsOf: url)), file: name)
        let simulation = try FlowSimulation(spec, children: W3CSuite.child)
        try simulation.start()
        try simulation.runDelayedEvents()
        #expect(simulation.configuration == ["pass"], "\(name):\n\(simulation.records.map(\.description).joined(separator: "\n"))")
        #expect(simulation.isFinished)
    }
}

extension W3CTests {
    /// Every test outside the null-data-model set, as written (its `conf:` constructs unconverted):
    /// reading or simulating it ends in one line that names what is not supported, never a crash,
    /// a hang, or a run that claims to pass.
    @Test("The rest of the suite: one line naming what is not supported, never a crash")
    func refusals() throws {
        let folder = try #require(w3cFolder("txml"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txml") }.sorted()
        #expect(names.count > 200)
        for name in names {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            let line: String
            do {
                let spec = try FlowFile.parseSCXML(bytes, file: name)
                let simulation = try FlowSimulation(spec, children: { _ in nil })
                simulation.stepLimit = 10_000
                try simulation.start()
                try simulation.runDelayedEvents()
                // Without its conf: constructs converted, no test may reach 'pass'.
                #expect(simulation.configuration != ["pass"], "\(name) passed unconverted")
                continue
            } catch let error as FlowSpecError {
                line = error.description
            } catch let problem as FlowSimulation.Problem {
                line = problem.description
            }
            #expect(!line.contains("\n"), "\(name): \(line)")
            #expect(line.contains("error:"), "\(name): \(line)")
        }
    }
}
