import FlowGraph
import FlowGraphviz
import FlowTestSupport
import Flowstate
import Foundation
import Testing

@Suite("Drawing parallel states")
struct ParallelDrawingTests {
    @Test("A parallel state is a dashed cluster marked ∥ with its regions inside; several targets are several edges")
    func drawsRegions() throws {
        let graph = FlowDiagram(Media.definition)
        let busy = try #require(graph.nodes.first { $0.label == "busy" })
        #expect(busy.kind == .compound && busy.attributes["style"] == "dashed,rounded" && busy.attributes["label"] == "busy ∥")
        for region in ["download", "player"] {
            #expect(graph.nodes.first { $0.label == region }?.parent == busy.id)
        }
        let idle = try #require(graph.id(ofLabel: "idle"))
        let toBoth = graph.edges.filter { $0.from == idle && $0.label == "play" }.map(\.to)
        #expect(Set(toBoth) == Set([graph.id(ofLabel: "fetching"), graph.id(ofLabel: "playing")].compactMap { $0 }))
        let dot = DOTWriter.dot(graph)
        #expect(dot.contains("busy ∥"), "\(dot)")
        let svg = try GraphvizRenderer.shared.render(graph, format: .svg)
        #expect(String(decoding: svg, as: UTF8.self).contains("busy ∥"))
    }

    @Test("Every active leaf is highlighted, and a trace of a parallel flow records and overlays them")
    func highlightsEveryLeaf() throws {
        var machine = try FlowMachine(Media.definition)
        var trace = FlowTrace(steps: [])
        trace.append(try machine.start())
        let step = try machine.send(.start)
        trace.append(step)
        #expect(trace.steps.last?.leaves == ["fetching", "paused"])
        var graph = FlowDiagram(Media.definition)
        graph.highlight(states: step.leaves.map(\.rawValue))
        for label in ["fetching", "paused"] {
            #expect(graph.nodes.first { $0.label == label }?.attributes["fillcolor"] == "#ffe08a", "\(label)")
        }
        #expect(graph.nodes.first { $0.label == "idle" }?.attributes["fillcolor"] == nil)
        var overlaid = FlowDiagram(Media.definition)
        overlaid.overlay(trace)
        for label in ["fetching", "paused", "idle"] {
            #expect(overlaid.nodes.first { $0.label == label }?.attributes["xlabel"] == "×1", "\(label)")
        }
        let decoded = try JSONDecoder().decode(FlowTrace.self, from: JSONEncoder().encode(trace))
        #expect(decoded == trace)
    }

    @Test("A live tree whose machine rests in two regions highlights every active leaf")
    @MainActor
    func liveTreeHighlightsEveryLeaf() throws {
        let supervisor = Supervisor()
        let media = try supervisor.start(Media.definition) { _, _ in }
        try supervisor.send(.start, to: media)
        #expect(supervisor.machines.first?.leaves == ["fetching", "paused"])
        let graph = FlowDiagram(supervisor: supervisor)
        for label in ["fetching", "paused"] {
            #expect(graph.nodes.first { $0.label == label }?.attributes["fillcolor"] == "#ffe08a", "\(label)")
        }
        #expect(graph.nodes.first { $0.label == "playing" }?.attributes["fillcolor"] == nil)
    }

    @Test("Mermaid marks the initial child of every composite state and region ([*] -->), the declared one, and none in a parallel state")
    func mermaidInitialChildren() throws {
        // Each compound state and region starts at a child that is not its first.
        let flow = FlowDefinition<Named>("starts", initial: "main") {
            Parallel("main") {
                StateNode("selection", initial: "onBrowse") {
                    StateNode("onFeed")
                    StateNode("onBrowse")
                    On("selectBrowse", to: "onBrowse")
                }
                StateNode("stack", initial: "inner") {
                    StateNode("root")
                    StateNode("inner", initial: "y") {
                        StateNode("x")
                        StateNode("y")
                    }
                }
            }
        }
        let graph = FlowDiagram(flow)
        let mermaid = MermaidWriter.mermaid(graph)
        // The block of each composite state: the lines between `state id {` and its closing brace.
        var blocks: [String: [String]] = [:]
        var open: [String] = []
        for line in mermaid.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("state "), line.hasSuffix(" {") {
                open.append(String(line.dropFirst(6).dropLast(2)))
            } else if line == "}" {
                _ = open.popLast()
            } else if let current = open.last {
                blocks[current, default: []].append(line)
            }
        }
        let id = { (label: String) throws -> String in try #require(graph.id(ofLabel: label)) }
        for (compound, initial) in [("selection", "onBrowse"), ("stack", "inner"), ("inner", "y")] {
            let marks = blocks[try id(compound), default: []].filter { $0.hasPrefix("[*] --> ") }
            #expect(marks == ["[*] --> \(try id(initial))"], "\(compound)\n\(mermaid)")
        }
        #expect(blocks[try id("main"), default: []].filter { $0.hasPrefix("[*]") }.isEmpty, "\(mermaid)")
    }
}
