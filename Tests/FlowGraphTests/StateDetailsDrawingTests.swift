import FlowGraph
@testable import FlowGraphviz
import FlowTestSupport
import Flowstate
import FlowstateExamples
import Foundation
import Testing

/// The lines of text an SVG draws, in document order (Graphviz writes each line of a label as a
/// `<text>`, runs of spaces as no-break spaces); `nil` when the SVG is not well-formed XML.
func svgLines(_ svg: [UInt8]) -> [String]? {
    SVGTextCollector.collect(svg)?.texts.map { $0.replacingOccurrences(of: "\u{A0}", with: " ") }
}

/// Issue 23: diagrams show a state's entry and exit effects (`entry / ...`, `exit / ...`) and the child
/// flow it runs (`runs ▸ child`) in the state, in every writer, from Swift and from flow files.
@Suite("Drawing: entry and exit effects and child flows in their states (issue 23)")
struct StateDetailsDrawingTests {
    /// A flow with emits on entry and exit, and a compound state with effects of its own.
    enum Shop: Flow {
        typealias State = String
        typealias Event = String
        typealias Effect = String
        typealias Output = String
        struct Context: Hashable, Sendable {
            var items = 0
        }

        static let definition = FlowDefinition<Shop>("shop", initial: "shopping", context: Context()) {
            StateNode("shopping", entry: ["openCart"], exit: ["closeCart"]) {
                StateNode("browsing", entry: ["load(catalog)"],
                          emitOnEntry: [Emit("show(count)") { context, _ in "show \(context.items)" }],
                          emitOnExit: [Emit("hide(count)") { _, _ in "hide" }]) {
                    On("pay", to: "paid")
                }
            }
            Final("paid", output: "paid")
        }
    }

    @Test("A state's node carries its entry and exit labels, emits after effects; one builder makes the lines")
    func nodeLines() throws {
        let graph = FlowDiagram(SignUp.definition)
        let signingUp = try #require(graph.nodes.first { $0.label == "signingUp" })
        #expect(signingUp.entry == ["present(email)"])
        #expect(signingUp.exit == ["dismiss"])
        #expect(signingUp.detailLines == ["entry / present(email)", "exit / dismiss"])
        #expect(signingUp.lines() == ["signingUp", "entry / present(email)", "exit / dismiss"])
        #expect(signingUp.lines(title: "signingUp ∥").first == "signingUp ∥")
        let twoFactor = try #require(graph.nodes.first { $0.label == "twoFactor" })
        #expect(twoFactor.detailLines == ["entry / sendCode"])
        #expect(graph.nodes.first { $0.label == "email" }?.detailLines == [])

        let shop = FlowDiagram(Shop.definition)
        let browsing = try #require(shop.nodes.first { $0.label == "browsing" })
        #expect(browsing.detailLines == ["entry / load(catalog)", "entry / show(count)", "exit / hide(count)"])

        let launch = FlowDiagram(FirstLaunch.definition)
        let creating = try #require(launch.nodes.first { $0.label == "creatingAccount" })
        #expect(creating.detailLines == ["runs ▸ sign-up"])
    }

    @Test("Drawing flows: what a state shows (the article's snippet, as written)")
    func article() {
        let twoFactor = FlowDiagram(SignUp.definition).nodes[3]
        let lines = twoFactor.lines()                      // ["twoFactor", "entry / sendCode"]

        #expect(lines == ["twoFactor", "entry / sendCode"])
        #expect(DOTWriter.dot(FlowDiagram(SignUp.definition)).contains("s3 [label=\"twoFactor\\nentry / sendCode\"];"))
        #expect(MermaidWriter.mermaid(FlowDiagram(SignUp.definition)).contains("state \"twoFactor\" as s3\n    s3 : entry / sendCode\n"))
    }

    @Test("DOT draws the lines in the state's box, and a compound state's in its cluster label")
    func dot() {
        let dot = DOTWriter.dot(FlowDiagram(SignUp.definition))
        #expect(dot.contains("    label=\"signingUp\\nentry / present(email)\\nexit / dismiss\";\n"))
        #expect(dot.contains("    s3 [label=\"twoFactor\\nentry / sendCode\"];\n"))
        #expect(dot.contains("    s1 [label=\"email\"];\n"), "a state without effects keeps its one-line label")

        let shop = DOTWriter.dot(FlowDiagram(Shop.definition))
        #expect(shop.contains("s1 [label=\"browsing\\nentry / load(catalog)\\nentry / show(count)\\nexit / hide(count)\"];"))
        #expect(shop.contains("label=\"shopping\\nentry / openCart\\nexit / closeCart\";"))

        let launch = DOTWriter.dot(FlowDiagram(FirstLaunch.definition))
        #expect(launch.contains("s1 [label=\"creatingAccount\\nruns ▸ sign-up\", style=\"rounded,dashed\"];"))
    }

    @Test("Mermaid writes the lines as the state's description lines, a composite state's in its title")
    func mermaid() {
        let text = MermaidWriter.mermaid(FlowDiagram(SignUp.definition))
        #expect(text.contains("  state \"signingUp<br/>entry / present(email)<br/>exit / dismiss\" as s0\n"))
        #expect(text.contains("    state \"twoFactor\" as s3\n    s3 : entry / sendCode\n"))
        #expect(!text.contains("    s1 :"), "a state without effects has no description line")

        let shop = MermaidWriter.mermaid(FlowDiagram(Shop.definition))
        #expect(shop.contains("""
                state "browsing" as s1
                s1 : entry / load(catalog)
                s1 : entry / show(count)
                s1 : exit / hide(count)

            """))

        let launch = MermaidWriter.mermaid(FlowDiagram(FirstLaunch.definition))
        #expect(launch.contains("  state \"creatingAccount\" as s1\n  s1 : runs ▸ sign-up\n"))
    }

    @Test("Every name in an effect line is escaped: DOT quoting, Mermaid entity codes")
    func escaping() {
        let definition = FlowDefinition<Named>("x", initial: "a") {
            StateNode<Named>("a", entry: ["say \"hi\": #1 {x}"], exit: ["two\nlines \\ ;"]) {
                On<Named>("go", to: "b")
            }
            Final<Named>("b", output: "b")
        }
        let graph = FlowDiagram(definition)
        let dot = DOTWriter.dot(graph)
        #expect(dot.contains("s0 [label=\"a\\nentry / say \\\"hi\\\": #1 {x}\\nexit / two\\nlines \\\\ ;\"];"))
        let mermaid = MermaidWriter.mermaid(graph)
        #expect(mermaid.contains("  s0 : entry / say #quot;hi#quot;#58; #35;1 #123;x#125;\n"))
        #expect(mermaid.contains("  s0 : exit / two<br/>lines #92; #59;\n"))
        #expect(DOTWriter.dot(graph) == dot && MermaidWriter.mermaid(graph) == mermaid, "deterministic")
    }

    @Test("A node's label attribute replaces its name; the effect and child lines stay")
    func labelOverride() throws {
        var graph = FlowDiagram(SignUp.definition)
        graph.nodes[0].attributes["label"] = "signingUp ∥"
        graph.nodes[3].attributes["label"] = "2FA"
        let dot = DOTWriter.dot(graph)
        #expect(dot.contains("label=\"signingUp ∥\\nentry / present(email)\\nexit / dismiss\";"))
        #expect(dot.contains("s3 [label=\"2FA\\nentry / sendCode\"];"))
    }

    @Test("The SVG libgvc renders draws each line: entry, exit and the child the state runs")
    func svg() throws {
        let signUp = try #require(svgLines(try GraphvizRenderer.shared.render(FlowDiagram(SignUp.definition), format: .svg)))
        for line in ["signingUp", "entry / present(email)", "exit / dismiss", "twoFactor", "entry / sendCode"] {
            #expect(signUp.contains(line), "\(line) is drawn")
        }
        let launch = try #require(svgLines(try GraphvizRenderer.shared.render(FlowDiagram(FirstLaunch.definition), format: .svg)))
        #expect(launch.contains("runs ▸ sign-up"))
        let shop = try #require(svgLines(try GraphvizRenderer.shared.render(FlowDiagram(Shop.definition), format: .svg)))
        for line in ["entry / openCart", "exit / closeCart", "entry / show(count)", "exit / hide(count)"] {
            #expect(shop.contains(line), "\(line) is drawn")
        }
    }

    @Test("The pictures with effect lines are legible, and the check reads the lines as part of their labels")
    func legible() throws {
        for graph in [FlowDiagram(SignUp.definition), FlowDiagram(FirstLaunch.definition), FlowDiagram(Shop.definition)] {
            let problems = try GraphvizRenderer.shared.legibility(of: graph)
            #expect(problems.isEmpty, "\(graph.name): \(problems)")
        }
        var graph = FlowDiagram(SignUp.definition)
        LayoutPolicy.bound(&graph)
        let layout = try GraphvizRenderer.shared.laidOut(dot: LayoutPolicy.dot(graph))
        #expect(layout.items.contains { $0.kind == .clusterLabel && $0.text == "signingUp entry / present(email) exit / dismiss" })
        #expect(layout.items.contains { $0.kind == .node && $0.text == "twoFactor entry / sendCode" })
    }

    @Test("A character no font draws in an entry or exit line is reported, in a state and in a cluster label")
    func missingGlyphs() throws {
        let definition = FlowDefinition<Named>("x", initial: "outer") {
            StateNode<Named>("outer", exit: ["close(\u{10FFFD})"]) {
                StateNode<Named>("inner", entry: ["open(\u{10FFFC})"]) {
                    On<Named>("go", to: "done")
                }
            }
            Final<Named>("done", output: "done")
        }
        let problems = try GraphvizRenderer.shared.legibility(of: FlowDiagram(definition))
        let glyphs = problems.compactMap { problem -> (LegibilityItem, [Unicode.Scalar])? in
            if case .missingGlyphs(let scalars) = problem.kind { (problem.item, scalars) } else { nil }
        }
        #expect(glyphs.contains { $0.0.kind == .node && $0.0.text == "inner entry / open(\u{10FFFC})" && $0.1 == ["\u{10FFFC}"] },
                "\(problems)")
        #expect(glyphs.contains { $0.0.kind == .clusterLabel && $0.0.text == "outer exit / close(\u{10FFFD})" && $0.1 == ["\u{10FFFD}"] },
                "\(problems)")
    }

    @Test("A live tree draws the child machine inside the state that runs it, which names the child")
    func liveTree() throws {
        let supervisor = Supervisor()
        let launch = try supervisor.start(FirstLaunch.definition) { _, _ in }
        try supervisor.send(.createAccount, to: launch)
        let graph = FlowDiagram(supervisor: supervisor)
        let slot = try #require(graph.nodes.first { $0.label == "creatingAccount" })
        let child = try #require(graph.nodes.first { $0.kind == .compound && $0.parent == slot.id })
        #expect(child.label.hasPrefix("sign-up"))
        let dot = DOTWriter.dot(graph)
        #expect(dot.contains("label=\"creatingAccount\\nruns ▸ sign-up\";"))
        #expect(dot.contains("label=\"signingUp\\nentry / present(email)\\nexit / dismiss\";"),
                "the child machine's own states show their effects")
    }
}
