import FlowGraph
@testable import FlowGraphviz
import FlowSpec
import FlowSpecTestSupport
import FlowTestSupport
import Flowstate
import FlowstateExamples
import Foundation
import Testing

/// The folder `make demo` draws into.
let flowsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("docs/flows")

@Suite("FlowGraphviz: legibility")
struct LegibilityTests {
    @Test("Labels laid over each other and over a node are reported, each naming both things")
    func overlapsAreFound() throws {
        // Positions pinned (neato, in points): a label node (as DOTWriter writes them) in large type
        // right on the edge a -> b, where Graphviz puts that edge's label, and the edge p -> q crossing
        // the node 'bystander' at its middle, where its label goes.
        let dot = """
        digraph overlap {
          graph [inputscale=72, splines=line];
          node [shape=box, fontsize=11]; edge [fontsize=11];
          a [pos="0,0!"]; b [pos="300,0!"];
          l [shape=plaintext, fontsize=30, label="second label", \(DOTWriter.labelNodeAttribute)="c -> d", pos="150,0!"];
          m [label="bystander", pos="500,0!"]; p [pos="400,-150!"]; q [pos="600,150!"];
          a -> b [label="first label"];
          p -> q [label="across"];
        }
        """
        let problems = try GraphvizRenderer.shared.legibility(of: dot, engine: "neato")
        let overlap = try #require(problems.first { $0.kind == .labelsOverlap })
        #expect(Set([overlap.item.text, overlap.other?.text]) == ["first label", "second label"])
        #expect(Set([overlap.item.owner, overlap.other?.owner]) == ["a -> b", "c -> d"])
        let onNode = try #require(problems.first { $0.kind == .labelOverNode })
        #expect(onNode.item.text == "across" && onNode.item.owner == "p -> q")
        #expect(onNode.other?.text == "bystander" && onNode.other?.kind == .node)
        #expect(onNode.description == "edge label 'across' (p -> q) overlaps node 'bystander' (m)")
        #expect(problems.count == 2, "nothing else: \(problems)")
    }

    @Test("A layout with room for every label has no problems")
    func roomyLayoutPasses() throws {
        let dot = """
        digraph roomy { rankdir=LR; node [shape=box];
          a -> b [label="go"]; b -> c [label="stop & think"]; c -> a [label="again"]; b -> b [label="stay"];
          a [xlabel="×2"]; subgraph cluster_x { label="inner"; c; d; } c -> d [label="in"];
        }
        """
        #expect(try GraphvizRenderer.shared.legibility(of: dot) == [])
    }

    @Test("The rules: clipping, a node's own external label, touching boxes, unplaced labels, missing glyphs")
    func rules() {
        typealias Box = LegibilityItem.Box
        let node = LegibilityItem(kind: .node, text: "home", owner: "n", box: Box(x: 50, y: 50, width: 40, height: 20))
        let own = LegibilityItem(kind: .nodeLabel, text: "×3", owner: "n", box: Box(x: 60, y: 40, width: 10, height: 10))
        let touching = LegibilityItem(kind: .edgeLabel, text: "next", owner: "n -> m", box: Box(x: 80, y: 50, width: 20, height: 10))
        let outside = LegibilityItem(kind: .edgeLabel, text: "far", owner: "m -> n", box: Box(x: 195, y: 100, width: 20, height: 10))
        let unknown = LegibilityItem(kind: .edgeLabel, text: "go \u{10FFFD}", owner: "m -> m", box: Box(x: 150, y: 150, width: 20, height: 10))
        let unplaced = LegibilityItem(kind: .edgeLabel, text: "lost", owner: "m -> k", box: Box(x: 0, y: 0, width: 20, height: 10))
        let layout = GraphvizRenderer.Layout(bounds: Box(x: 100, y: 100, width: 200, height: 200),
                                             items: [node, own, touching, outside, unknown], unplaced: [unplaced],
                                             ownerNode: [1: 0])
        let problems = GraphvizRenderer.problems(in: layout)
        #expect(problems.contains(LegibilityProblem(kind: .clipped, item: outside)))
        #expect(problems.contains(LegibilityProblem(kind: .notDrawn, item: unplaced)))
        #expect(problems.contains(LegibilityProblem(kind: .missingGlyphs(["\u{10FFFD}"]), item: unknown)))
        #expect(problems.count == 3, "a node's own xlabel and a label touching a node are fine: \(problems)")
        // Without the owner, the same xlabel lies over the node.
        let stranger = GraphvizRenderer.problems(in: GraphvizRenderer.Layout(bounds: layout.bounds, items: [node, own]))
        #expect(stranger == [LegibilityProblem(kind: .labelOverNode, item: own, other: node)])
    }

    @Test("Every picture make demo renders (docs/flows/*.dot) is legible")
    func committedPictures() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: flowsFolder.path).filter { $0.hasSuffix(".dot") }.sorted()
        #expect(files.count >= 14, "the demo draws 14 flows")
        for file in files {
            let dot = try String(contentsOf: flowsFolder.appendingPathComponent(file), encoding: .utf8)
            let problems = try GraphvizRenderer.shared.legibility(of: dot)
            #expect(problems.isEmpty, "\(file): \(problems.map(\.description).joined(separator: "; "))")
        }
    }

    @Test("The example flows, with the demo's trace overlaid, are legible as the renderer draws them")
    func exampleFlows() throws {
        var machine = try FlowMachine(SignUp.definition)
        var steps = [try machine.start()]
        let session: [SignUp.Event] = [
            .submitEmail("ada"), .submitEmail("ada@example.com"), .submitPassword("short"),
            .submitPassword("correct horse"), .back, .submitPassword("correct horse battery"),
            .submitCode("12"), .submitCode("123456"),
        ]
        for event in session { steps.append(try machine.send(event)) }
        var traced = FlowDiagram(SignUp.definition)
        traced.overlay(FlowTrace(steps))
        let graphs = [traced, FlowDiagram(SignUp.definition), FlowDiagram(FirstLaunch.definition),
                      FlowDiagram(PhotoCreation.definition), FlowDiagram(Feed.definition)]
        for graph in graphs {
            let problems = try GraphvizRenderer.shared.legibility(of: graph)
            #expect(problems.isEmpty, "\(graph.name): \(problems.map(\.description).joined(separator: "; "))")
        }
    }

    @Test("Generated flows, flat and nested three deep, with and without a trace, are legible", arguments: [25, 50, 100])
    func generatedFlows(count: Int) throws {
        for nested in [false, true] {
            for traced in [false, true] {
                var graph = LegibilityFlows.generated(count, nested: nested)
                if traced { graph.overlay(LegibilityFlows.trace(of: graph)) }
                let problems = try GraphvizRenderer.shared.legibility(of: graph)
                #expect(problems.isEmpty, "\(graph.name)\(traced ? " traced" : ""): \(problems.prefix(5).map(\.description))")
            }
        }
    }

    @Test("200 states, flat and nested three deep, with and without a trace, are legible as the renderer draws them")
    func twoHundredStates() throws {
        for nested in [false, true] {
            for traced in [false, true] {
                var graph = LegibilityFlows.generated(200, nested: nested)
                if traced { graph.overlay(LegibilityFlows.trace(of: graph)) }
                let problems = try GraphvizRenderer.shared.legibility(of: graph)
                #expect(problems.isEmpty, "\(graph.name)\(traced ? " traced" : ""): \(problems.prefix(5).map(\.description))")
            }
        }
    }

    @Test("A big flat flow draws its long edges as references to their targets, and loses no label")
    func references() throws {
        var graph = LegibilityFlows.generated(200, nested: false)
        LayoutPolicy.bound(&graph)
        #expect(EdgeLabelPlacement(for: graph) == .external, "what DOTWriter writes for it by default")
        let dot = LayoutPolicy.dot(graph)
        #expect(!dot.contains("xlabel"))
        let layer = DOTWriter.layers(of: graph)
        var references = 0
        for edge in graph.edges {
            let span = abs(layer[edge.to]! - layer[edge.from]!)
            let target = graph.node(edge.to)!.label
            let drawn = dot.contains("label=\"\(edge.label)\"")
            let referenced = dot.contains("label=\"\(edge.label)\\n→ \(target)\"")
            #expect(drawn != referenced, "\(edge.label) is drawn exactly one way")
            #expect(referenced == (span > LayoutPolicy.referenceSpan && edge.from != edge.to), "\(edge.label) spans \(span)")
            if referenced { references += 1 }
        }
        #expect(references > 100, "most random jumps are long")
        #expect(dot.contains("class=\"edgelabel reference\""))
    }

    @Test("Layers: a depth-first search turns cycles around, then longest paths")
    func layers() {
        let nodes = ["a", "b", "c", "d"].map { FlowDiagram.Node(id: $0, label: $0, kind: .state) }
        let edges = [("a", "b"), ("b", "c"), ("c", "a"), ("a", "c"), ("d", "b"), ("c", "c")].map {
            FlowDiagram.Edge(from: $0.0, to: $0.1, label: "", events: [nil])
        }
        let graph = FlowDiagram(name: "g", initial: "a", nodes: nodes, edges: edges)
        #expect(DOTWriter.layers(of: graph) == ["a": 0, "b": 1, "c": 2, "d": 0])
    }

    @Test("Clustered flows draw labels as label nodes: no Graphviz edge label, which Graphviz 2.43's double free needs")
    func clusteredLabelsAreNodes() throws {
        let spec = try readSpec("door.scxml")
        var graph = FlowDiagram(spec)
        LayoutPolicy.bound(&graph)
        #expect(EdgeLabelPlacement(for: graph) == .labelNodes)
        let dot = DOTWriter.dot(graph)
        let edgeLines = dot.split(separator: "\n").filter { $0.contains(" -> ") && !$0.contains(DOTWriter.labelNodeAttribute) }
        #expect(!edgeLines.isEmpty)
        #expect(edgeLines.allSatisfy { !$0.contains("label=") }, "no edge carries a label")
        #expect(dot.contains("\(DOTWriter.labelNodeAttribute)=\"s0 -> s1\", fontsize=\"9\", height=\"0\", label=\"open [unlocked]\""))
        for format in [RenderFormat.svg, .png, .pdf] {
            #expect(try !GraphvizRenderer.shared.render(dot: dot, format: format).isEmpty)
        }
        #expect(try GraphvizRenderer.shared.legibility(of: dot) == [])
        // The same graph with inline labels keeps them on the edges (what small flat flows get).
        #expect(DOTWriter.dot(graph, edgeLabels: .inline).contains("label=\"open [unlocked]\""))
    }

    @Test("A label node sits in the innermost cluster holding both ends of its edge")
    func labelNodePlacement() {
        let graph = LegibilityFlows.generated(25, nested: true)
        var bounded = graph
        LayoutPolicy.bound(&bounded)
        let dot = DOTWriter.dot(bounded)
        // s0 -> s1 share the innermost cluster c2: the label node is written inside it, before it closes.
        let lines = dot.split(separator: "\n").map(String.init)
        let open = lines.firstIndex { $0.contains("subgraph cluster_c2 {") }
        let label = lines.firstIndex { $0.contains("label=\"next0 [ok] / push(screen0)\"") }
        let close = open.flatMap { start in lines[start...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "}" } }
        #expect(open != nil && label != nil && close != nil)
        if let open, let label, let close { #expect(open < label && label < close) }
        // A cancel from the outer group c0 leaves the group: its label node is at the top level.
        #expect(lines.contains { $0.hasPrefix("  __label") && $0.contains("cancel c0") })
    }
}
