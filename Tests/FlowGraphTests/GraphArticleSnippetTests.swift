import FlowGraph
import Flowstate
import FlowstateExamples
import Foundation
import Testing

/// The Swift snippets of the DocC articles of `FlowDiagram` ("Drawing flows", "Flows too big for one
/// picture"), verbatim, compiled and run (`DocSnippetCheckTests` in FlowstateTests fails when one is
/// missing here; `RenderingArticleSnippetTests` in FlowGraphvizTests and `SpecArticleSnippetTests` in
/// FlowSpecTests hold the FlowGraphviz and flow spec ones). Names a snippet takes from its article's
/// prose (`graph`, `steps`) are defined before it.
@Suite("Docs: the FlowDiagram snippets run as written")
struct GraphArticleSnippetTests {
    // MARK: Sources/FlowGraph/FlowGraph.docc/DrawingFlows.md

    @Test("Drawing flows: a definition as a graph")
    func drawing() {
        let graph = FlowDiagram(SignUp.definition)            // states, clusters, labelled edges
        let dot = DOTWriter.dot(graph)                     // Graphviz DOT, same bytes every time
        let mermaid = MermaidWriter.mermaid(graph)         // stateDiagram-v2, for GitHub Markdown

        #expect(dot.hasPrefix("digraph") && dot == DOTWriter.dot(FlowDiagram(SignUp.definition)))
        #expect(mermaid.hasPrefix("stateDiagram-v2"))
    }

    @Test("Drawing flows: attributes and the current state")
    func attributes() {
        var graph = FlowDiagram(SignUp.definition)
        graph.graphAttributes["rankdir"] = "TB"
        graph.highlight(state: "password")                 // the current state, and the states containing it

        let dot = DOTWriter.dot(graph)
        #expect(dot.contains("rankdir=\"TB\"") || dot.contains("rankdir=TB"))
        #expect(dot != DOTWriter.dot(FlowDiagram(SignUp.definition)))
    }

    @Test("Drawing flows: a run on the picture")
    func overlay() throws {
        var machine = try FlowMachine(SignUp.definition)
        var steps = [try machine.start()]
        for event: SignUp.Event in [.submitEmail("ada@example.com"), .back, .cancel] {
            steps.append(try machine.send(event))
        }

        var graph = FlowDiagram(SignUp.definition)
        graph.overlay(FlowTrace(steps), lastPathLength: 5)

        #expect(graph != FlowDiagram(SignUp.definition))
        #expect(DOTWriter.dot(graph).contains("label=\"cancel (×1)\""), "the taken transitions carry their counts")
    }

    // MARK: Sources/FlowGraph/FlowGraph.docc/CollapsingFlows.md

    /// A nested graph whose states `s4` (holding `s12`) and `s9` are compound, for the article's names.
    static let nested: FlowDiagram = {
        let nodes: [FlowDiagram.Node] = [
            .init(id: "s0", label: "start", kind: .state),
            .init(id: "s4", label: "outer", kind: .compound),
            .init(id: "s5", label: "first", kind: .state, parent: "s4"),
            .init(id: "s6", label: "inner", kind: .compound, parent: "s4"),
            .init(id: "s12", label: "deep", kind: .state, parent: "s6"),
            .init(id: "s9", label: "other", kind: .compound),
            .init(id: "s10", label: "a", kind: .state, parent: "s9"),
            .init(id: "s11", label: "b", kind: .state, parent: "s9"),
            .init(id: "s13", label: "done", kind: .final),
        ]
        let edges: [FlowDiagram.Edge] = [
            .init(from: "s0", to: "s5", label: "go", events: ["go"], transitions: [0]),
            .init(from: "s5", to: "s12", label: "in", events: ["in"], transitions: [1]),
            .init(from: "s12", to: "s10", label: "next", events: ["next"], transitions: [2]),
            .init(from: "s10", to: "s11", label: "on", events: ["on"], transitions: [3]),
            .init(from: "s11", to: "s13", label: "done", events: ["done"], transitions: [4]),
            .init(from: "s9", to: "s13", label: "cancel", events: ["cancel"], transitions: [5]),
        ]
        return FlowDiagram(name: "nested", initial: "s0", nodes: nodes, edges: edges)
    }()

    @Test("Flows too big for one picture: collapse")
    func collapse() {
        let graph = Self.nested
        let overview = graph.collapsed(toDepth: 1)          // the top level and what it holds directly
        let chosen = graph.collapsing(["s4", "s9"])         // these compound states; where each state went:
        let drawnAs = chosen.representative["s12"]          // "s4"

        #expect(drawnAs == "s4")
        #expect(overview.node("s6")?.kind == .state, "s6 is collapsed at depth 1")
        #expect(chosen.graph.nodes.map(\.id) == ["s0", "s4", "s9", "s13"])
    }

    @Test("Flows too big for one picture: pages")
    func pages() {
        let graph = Self.nested
        var files: [String: String] = [:]                   // file name: DOT text
        for page in graph.pages(depth: 1) {
            files["\(page.state ?? "overview").dot"] = DOTWriter.dot(page.graph)  // page.state: nil for the overview
        }

        #expect(files.keys.sorted() == ["overview.dot", "s6.dot"])
    }
}
