import FlowGraph
@testable import FlowGraphviz
import FlowTestSupport
import Flowstate
import FlowstateExamples
import Foundation
import Testing

@Suite("FlowGraphviz: rendering")
struct RenderingTests {
    @Test("SVG, PNG and PDF render in-process", arguments: [RenderFormat.svg, .png, .pdf])
    func formats(_ format: RenderFormat) throws {
        let bytes = try GraphvizRenderer.shared.render(FlowDiagram(SignUp.definition), format: format)
        let magic: [UInt8] = switch format.name {
        case "png": [0x89, 0x50, 0x4E, 0x47]
        case "pdf": Array("%PDF".utf8)
        default: Array("<?xm".utf8)
        }
        #expect(Array(bytes.prefix(4)) == magic)
    }

    @Test("Malformed DOT is a typed error carrying Graphviz's message")
    func invalidDOT() {
        let error = #expect(throws: GraphvizError.self) {
            try GraphvizRenderer.shared.render(dot: "digraph { a -> ; [[ }", format: .svg)
        }
        #expect(error?.code == .invalidDOT)
        #expect(error?.message.hasPrefix("syntax error in line ") == true, "Graphviz's words, without its 'Error :' prefix")
        #expect(error?.message.hasSuffix(" near ';'") == true)
    }

    @Test("An invalid attribute statement is refused by the parser")
    func invalidAttribute() {
        let error = #expect(throws: GraphvizError.self) {
            try GraphvizRenderer.shared.render(dot: "digraph { node [shape=]; a }", format: .svg)
        }
        #expect(error?.code == .invalidDOT)
    }

    @Test("An unknown layout engine is a typed layout error")
    func unknownEngine() {
        let error = #expect(throws: GraphvizError.self) {
            try GraphvizRenderer.shared.render(dot: "digraph { a -> b }", format: .svg, engine: "spiral")
        }
        #expect(error?.code == .layoutFailed)
        #expect(error?.message.contains("spiral") == true)
    }

    @Test("An unknown format is a typed render error")
    func unknownFormat() {
        let error = #expect(throws: GraphvizError.self) {
            try GraphvizRenderer.shared.render(dot: "digraph { a -> b }", format: RenderFormat("gif-of-doom"))
        }
        #expect(error?.code == .renderFailed)
        #expect(error?.message.contains("gif-of-doom") == true)
    }

    @Test("A Graphviz error is in the package's one style: kebab-case code names, `error: message`")
    func errorStyle() {
        let codes: [GraphvizError.Code] = [.invalidDOT, .layoutFailed, .renderFailed, .unavailable, .writeFailed]
        #expect(codes.map(\.description) == ["invalid-dot", "layout-failed", "render-failed", "unavailable", "write-failed"])
        let error = #expect(throws: GraphvizError.self) {
            try GraphvizRenderer.shared.render(dot: "digraph { a -> b }", format: .svg, engine: "spiral")
        }
        #expect(error.map { "\($0)" } == error.map { "error: \($0.message)" })
        #expect(GraphvizError(code: .writeFailed, message: "cannot write x").description == "error: cannot write x")
    }

    @Test("After an error the renderer still works (the context is reused, nothing is left behind)")
    func recovers() throws {
        _ = try? GraphvizRenderer.shared.render(dot: "digraph {", format: .svg)
        let svg = try GraphvizRenderer.shared.render(dot: "digraph { a -> b }", format: .svg)
        #expect(SVGNodeCounter.count(svg) == 2)
    }

    /// A flow like the issue's: `count` states, two labelled transitions each, random back edges.
    static func bigFlow(_ count: Int) -> FlowDefinition<Named> {
        let elements = (0..<count).map { i -> FlowElement<Named> in
            let jump = (i * 7919 + 13) % count
            return StateNode<Named>("state \(i)") {
                On("next\(i)", guard: Guard("ok") { _ in true }, to: "state \((i + 1) % count)", effects: ["push(screen\(i))"])
                On("jump\(i)", to: "state \(jump)", effects: ["effect\(jump)"])
            }.element
        }
        return FlowDefinition("big", initial: "state 0", elements: elements)
    }

    @Test("A 200-state, 400-transition flow renders (bounded layout) with every node")
    func largeFlow() throws {
        let graph = FlowDiagram(Self.bigFlow(200))
        #expect(LayoutPolicy.isLarge(nodes: graph.nodes.count, edges: graph.edges.count))
        let svg = try GraphvizRenderer.shared.render(graph, format: .svg)
        #expect(SVGNodeCounter.count(svg) == 201)
        var bounded = graph
        LayoutPolicy.bound(&bounded)
        let laidOut = LayoutPolicy.dot(bounded)
        #expect(!laidOut.contains("xlabel="), "labels are laid out as nodes, never placed over the drawing")
        #expect(laidOut.contains("next0 [ok] / push(screen0)"))
        #expect(!LayoutPolicy.isLarge(nodes: 6, edges: 8), "small flows keep inline labels")
    }

    @Test("Many concurrent renders are safe and agree")
    func concurrent() async throws {
        let dot = DOTWriter.dot(FlowDiagram(SignUp.definition))
        let expected = try GraphvizRenderer.shared.render(dot: dot, format: .svg)
        let results = await withTaskGroup(of: [UInt8]?.self) { group in
            for _ in 0..<64 {
                group.addTask { try? GraphvizRenderer.shared.render(dot: dot, format: .svg) }
            }
            var all: [[UInt8]?] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 64)
        #expect(results.allSatisfy { $0 == expected })
    }
}
