import FlowGraph
import FlowGraphviz
import FlowTestSupport
import Testing

/// When `LayoutPolicy` collapses a flow for one picture.
@Suite("FlowGraphviz: when a picture is collapsed")
struct LayoutPolicyTests {
    @Test("The automatic choice switches at the documented limit, and never collapses a flat flow")
    func automaticThreshold() {
        let limit = LayoutPolicy.pictureLimit
        func holder(_ leaves: Int, edges: Int = 0) -> FlowDiagram {
            var nodes = [FlowDiagram.Node(id: "g", label: "g", kind: .compound)]
            nodes += (0..<leaves).map { FlowDiagram.Node(id: "l\($0)", label: "l\($0)", kind: .state, parent: "g") }
            let loops = (0..<edges).map { FlowDiagram.Edge(from: "l\($0 % leaves)", to: "l\(($0 + 1) % leaves)", label: "e\($0)", events: ["e\($0)"]) }
            return FlowDiagram(name: "h", initial: "l0", nodes: nodes, edges: loops)
        }
        #expect(LayoutPolicy.collapseDepth(for: holder(limit.states - 1)) == nil, "exactly the limit: drawn whole")
        #expect(LayoutPolicy.collapseDepth(for: holder(limit.states)) == 0, "one state more: collapsed")
        #expect(LayoutPolicy.collapseDepth(for: holder(10, edges: limit.transitions)) == nil)
        #expect(LayoutPolicy.collapseDepth(for: holder(10, edges: limit.transitions + 1)) == 0, "one transition more")
        #expect(LayoutPolicy.collapseDepth(for: LegibilityFlows.generated(200, nested: false)) == nil)
        #expect(LayoutPolicy.collapseDepth(for: LegibilityFlows.generated(2_000, nested: false)) == nil, "flat: nothing to collapse")
        #expect(LayoutPolicy.collapseDepth(for: LegibilityFlows.generated(100, nested: true)) == nil)
        // 800 states nested three deep: 50 groups, 100 parts, 200 steps; 150 nodes fit, 350 do not.
        let nested = LegibilityFlows.generated(800, nested: true)
        #expect(LayoutPolicy.collapseDepth(for: nested) == 1)
        #expect(LayoutPolicy.collapseDepth(for: LegibilityFlows.generated(200, nested: true)) == nil, "288 states, 410 transitions")
        #expect(LayoutPolicy.collapseDepth(for: LegibilityFlows.generated(300, nested: true)) == 2, "432 states: steps collapsed")
        #expect(LayoutPolicy.collapseDepth(for: nested, .none) == nil && LayoutPolicy.collapseDepth(for: nested, .depth(2)) == 2)
        #expect(LayoutPolicy.collapseDepth(for: nested, under: "c0") == nil, "one group's page fits")
        #expect(LayoutPolicy.Collapse("auto") == .automatic && LayoutPolicy.Collapse("NONE") == LayoutPolicy.Collapse.none)
        #expect(LayoutPolicy.Collapse("3") == .depth(3) && LayoutPolicy.Collapse("-1") == nil && LayoutPolicy.Collapse("x") == nil)
    }
}
