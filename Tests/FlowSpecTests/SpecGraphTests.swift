import FlowGraph
import FlowSpec
import Flowstate
import FlowstateExamples
import Testing

/// Issue 23 for flow files: a graph built from a flow file shows a state's entry and exit effects
/// and the child flow it runs (`StateDetailsDrawingTests` in FlowGraphTests does it for Swift flows).
@Suite("Drawing flow files: entry and exit effects and child flows in their states (issue 23)")
struct SpecGraphTests {
    @Test("A graph built from a flow file draws its states' entry and exit labels and the child each runs")
    func flowFile() throws {
        let spec = try FlowFile.parse("""
            {
              "flowspec": 1,
              "name": "login",
              "initial": "form",
              "states": [
                { "name": "form", "entry": ["show(login)"], "exit": ["hide(login)"],
                  "transitions": [ { "event": "submit", "target": "checking" } ] },
                { "name": "checking", "child": "twoFactor",
                  "transitions": [ { "event": "ok", "target": "in" } ] },
                { "name": "both", "parallel": true, "entry": ["track"],
                  "states": [ { "name": "left" }, { "name": "right" } ] },
                { "name": "in", "final": true, "output": "loggedIn" }
              ]
            }
            """, file: "login.json")
        let graph = FlowDiagram(spec)
        let form = try #require(graph.nodes.first { $0.label == "form" })
        #expect(form.detailLines == ["entry / show(login)", "exit / hide(login)"])
        let dot = DOTWriter.dot(graph)
        #expect(dot.contains("s0 [label=\"form\\nentry / show(login)\\nexit / hide(login)\"];"))
        #expect(dot.contains("s1 [label=\"checking\\nruns ▸ twoFactor\", style=\"rounded,dashed\"];"))
        #expect(dot.contains("label=\"both ∥\\nentry / track\";"), "a parallel state keeps its mark and its lines")
        let mermaid = MermaidWriter.mermaid(graph)
        #expect(mermaid.contains("  s0 : entry / show(login)\n  s0 : exit / hide(login)\n"))
        #expect(mermaid.contains("  s1 : runs ▸ twoFactor\n"))
        // The file and the Swift definition it was exported from draw the same lines.
        #expect(FlowDiagram(try FlowFile.parse(FlowFile(SignUp.definition).json(), file: "sign-up.json")).nodes.map(\.detailLines)
                == FlowDiagram(SignUp.definition).nodes.map(\.detailLines))
    }
}
