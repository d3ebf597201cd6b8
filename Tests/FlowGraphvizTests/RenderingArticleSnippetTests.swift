import FlowGraph
import FlowGraphviz
import Flowstate
import FlowstateExamples
import Foundation
import Testing

/// The Swift snippets of `FlowGraphviz`'s DocC article "Rendering flows", verbatim, compiled and run
/// (`DocSnippetCheckTests` in FlowstateTests fails when one is missing).
@Suite("Docs: the FlowGraphviz snippets run as written")
struct RenderingArticleSnippetTests {
    // MARK: Sources/FlowGraphviz/FlowGraphviz.docc/RenderingFlows.md

    @Test("Rendering flows: render a graph and DOT text")
    func render() throws {
        let svg = try GraphvizRenderer.shared.render(FlowDiagram(SignUp.definition), format: .svg)
        let pdf = try GraphvizRenderer.shared.render(dot: "digraph { a -> b }", format: .pdf, engine: "dot")

        #expect(String(decoding: svg, as: UTF8.self).contains("<svg"))
        #expect(pdf.starts(with: Array("%PDF".utf8)))
    }

    @Test("Rendering flows: legibility")
    func legibility() throws {
        for problem in try GraphvizRenderer.shared.legibility(of: FlowDiagram(SignUp.definition)) {
            print(problem)   // edge label 'cancel' (s1 -> s4) overlaps node 'editing' (s2)
        }
    }

    @Test("Rendering flows: too big for one picture")
    func bigFlows() throws {
        let graph = FlowDiagram(SignUp.definition)
        let depth = LayoutPolicy.collapseDepth(for: graph)           // nil: draw it whole
        var pictures: [[UInt8]] = []                                 // SVG bytes, the overview first
        for page in graph.pages(depth: depth) {
            pictures.append(try GraphvizRenderer.shared.render(page.graph))
        }

        #expect(depth == nil && pictures.count == 1)
    }

    @Test("Rendering flows: an interactive page of a runtime's run and of a tree's machine")
    func viewer() throws {
        // A machine's or runtime's steps...
        let runtime = try FlowRuntime(SignUp.definition) { effect, _ in print("perform \(effect)") }
        let recorder = FlowTraceRecorder(runtime)
        try runtime.start()
        try runtime.send(.submitEmail("ada@example.com"))
        let html = try FlowViewer(SignUp.definition, trace: recorder.trace).html()  // or .write(to: path)

        // ...or one machine of a supervisor's tree, with the effects the supervisor performed.
        let supervisor = Supervisor()
        let treeRecorder = FlowTraceRecorder(supervisor)
        let root = try supervisor.start(FirstLaunch.definition, handler: treeRecorder.recording { effect, context in
            print("perform \(effect)")
        })
        try supervisor.send(.createAccount, to: root)
        let page = try FlowViewer(supervisor.outline(of: root.id)!, trace: treeRecorder.trace(of: root.id)).html()

        #expect(recorder.trace.steps.count == 2)
        #expect(treeRecorder.trace(of: root.id).steps.count == 2)
        #expect(html.hasPrefix("<!DOCTYPE html>") && page.hasPrefix("<!DOCTYPE html>"))
    }
}
