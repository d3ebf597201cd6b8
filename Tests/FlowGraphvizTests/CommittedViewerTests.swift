import FlowGraph
import FlowGraphviz
import Flowstate
import FlowstateExamples
import Foundation
import Testing

/// `docs/flows/sign-up-viewer.html` is what `make demo` writes, not a page left from an older viewer.
@Suite("The committed viewer page")
struct CommittedViewerTests {
    /// The page's data and script: everything but the drawing, whose bytes depend on Graphviz's
    /// version and the fonts installed.
    static func dataAndScript(_ page: String) -> [Substring] {
        Array(page.split(separator: "<script").dropFirst())
    }

    @Test("docs/flows/sign-up-viewer.html carries the data and script the viewer writes for the demo's session")
    func committedPageIsCurrent() throws {
        // The demo's session (Examples/Demo/main.swift).
        let session: [SignUp.Event] = [
            .submitEmail("ada"), .submitEmail("ada@example.com"),
            .submitPassword("short"), .submitPassword("correct horse"),
            .back, .submitPassword("correct horse battery"),
            .submitCode("12"), .submitCode("123456"),
        ]
        var machine = try FlowMachine(SignUp.definition)
        var steps = [try machine.start()]
        for event in session { steps.append(try machine.send(event)) }
        let written = try FlowViewer(SignUp.definition, trace: FlowTrace(steps)).html()
        let committed = try String(contentsOf: flowsFolder.appendingPathComponent("sign-up-viewer.html"), encoding: .utf8)
        let expected = Self.dataAndScript(written)
        #expect(expected.count >= 2)
        let current = Self.dataAndScript(committed) == expected
        #expect(current, "docs/flows/sign-up-viewer.html is stale: run `make demo` and commit what it writes")
    }
}
