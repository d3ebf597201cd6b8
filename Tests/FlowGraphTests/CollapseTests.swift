import FlowGraph
import FlowGraphviz
import FlowTestSupport
import Foundation
import Testing

/// Flows nested deeper than the call stack allows: level `i` is a compound state holding a leaf and
/// level `i + 1`; each leaf has a transition to the next leaf and a seeded random jump.
enum DeepFlows {
    static func chain(_ depth: Int, seed: UInt64 = 0xC0FFEE) -> FlowDiagram {
        var random = seed
        func next() -> Int {  // xorshift64*
            random ^= random >> 12
            random ^= random << 25
            random ^= random >> 27
            return Int((random &* 2_685_821_657_736_338_717) >> 33)
        }
        var nodes: [FlowDiagram.Node] = []
        nodes.reserveCapacity(2 * depth)
        for i in 0..<depth {
            nodes.append(FlowDiagram.Node(id: "c\(i)", label: "level \(i)", kind: .compound, parent: i == 0 ? nil : "c\(i - 1)"))
            nodes.append(FlowDiagram.Node(id: "l\(i)", label: "leaf \(i)", kind: i == depth - 1 ? .final : .state, parent: "c\(i)"))
        }
        var edges: [FlowDiagram.Edge] = []
        for i in 0..<(depth - 1) {
            edges.append(FlowDiagram.Edge(from: "l\(i)", to: "l\(i + 1)", label: "next\(i)", events: ["next\(i)"], transitions: [edges.count]))
            edges.append(FlowDiagram.Edge(from: "l\(i)", to: "l\(next() % depth)", label: "jump\(i)", events: ["jump\(i)"],
                                        transitions: [edges.count]))
        }
        return FlowDiagram(name: "deep-\(depth)", initial: "l0", nodes: nodes, edges: edges)
    }
}

/// Checks what every set of pages must hold: each state drawn as itself in exactly one page, each
/// collapsed state given a page, each page but the overview drawn collapsed in exactly one other,
/// and each transition drawn exactly once between two nodes of a page (stubs aside).
func checkPages(_ graph: FlowDiagram, _ pages: [FlowDiagram.Page], sourceLocation: SourceLocation = #_sourceLocation) {
    var drawnAsItself: [String: Int] = [:]
    var collapsedIn: [String: Int] = [:]
    var drawnTransitions: [Int: Int] = [:]
    var stubEdges = 0
    for page in pages {
        var stubs: Set<String> = []
        for node in page.graph.nodes {
            if node.attributes[FlowDiagram.stubAttribute] != nil {
                stubs.insert(node.id)
            } else if node.attributes[FlowDiagram.collapsedStatesAttribute] != nil {
                collapsedIn[node.id, default: 0] += 1
            } else {
                drawnAsItself[node.id, default: 0] += 1
            }
        }
        for edge in page.graph.edges {
            if stubs.contains(edge.from) || stubs.contains(edge.to) {
                stubEdges += 1
                #expect(!(stubs.contains(edge.from) && stubs.contains(edge.to)), "a stub edge has one end on its page",
                        sourceLocation: sourceLocation)
            } else {
                for t in edge.transitions { drawnTransitions[t, default: 0] += 1 }
            }
        }
    }
    let ids = Set(graph.nodes.map(\.id))
    #expect(drawnAsItself.count == ids.count && Set(drawnAsItself.keys) == ids, "every state is drawn", sourceLocation: sourceLocation)
    #expect(drawnAsItself.values.allSatisfy { $0 == 1 }, "in exactly one page", sourceLocation: sourceLocation)
    let pageStates = pages.compactMap(\.state)
    #expect(pages.first?.state == nil && pageStates.count == pages.count - 1, "the overview first", sourceLocation: sourceLocation)
    #expect(Set(pageStates) == Set(collapsedIn.keys), "a page for every collapsed state, and no other", sourceLocation: sourceLocation)
    #expect(collapsedIn.values.allSatisfy { $0 == 1 }, "each reached from exactly one page", sourceLocation: sourceLocation)
    let all = graph.edges.flatMap(\.transitions)
    #expect(drawnTransitions.count == all.count && drawnTransitions.values.allSatisfy { $0 == 1 },
            "every transition drawn exactly once (\(drawnTransitions.count) of \(all.count))", sourceLocation: sourceLocation)
    #expect(stubEdges <= 2 * all.count, sourceLocation: sourceLocation)
}

/// The sum of a numeric attribute over a graph's nodes.
func attributeSum(_ graph: FlowDiagram, _ attribute: String) -> Int {
    var sum = 0
    for node in graph.nodes { if let value = node.attributes[attribute].flatMap({ Int($0) }) { sum += value } }
    return sum
}

/// Checks that a collapsed picture accounts for everything: its nodes plus the states collapsed
/// ones hold are the flow's states, its edges' transitions plus those collapsed states hide are the
/// flow's transitions.
func checkCounts(_ graph: FlowDiagram, collapsed: FlowDiagram, sourceLocation: SourceLocation = #_sourceLocation) {
    let held: Int = attributeSum(collapsed, FlowDiagram.collapsedStatesAttribute)
    let hidden: Int = attributeSum(collapsed, FlowDiagram.collapsedTransitionsAttribute)
    let drawnCount: Int = collapsed.edges.map(\.transitionCount).reduce(0, +)
    let total: Int = graph.edges.map(\.transitionCount).reduce(0, +)
    #expect(collapsed.nodes.count + held == graph.nodes.count, "states add up", sourceLocation: sourceLocation)
    #expect(drawnCount + hidden == total, "transitions add up", sourceLocation: sourceLocation)
    let drawn = collapsed.edges.flatMap(\.transitions)
    #expect(Set(drawn).count == drawn.count, "no transition drawn twice", sourceLocation: sourceLocation)
}

@Suite("FlowDiagram: collapsed states, clusters and pages")
struct CollapseTests {
    /// `a`, a cluster `G` holding `g1`, `g2` and a cluster `H` holding `h1`, `h2`, and a final `z`.
    static let small: FlowDiagram = {
        let nodes = [
            FlowDiagram.Node(id: "a", label: "a", kind: .state),
            FlowDiagram.Node(id: "G", label: "G", kind: .compound),
            FlowDiagram.Node(id: "g1", label: "g1", kind: .state, parent: "G"),
            FlowDiagram.Node(id: "g2", label: "g2", kind: .state, parent: "G"),
            FlowDiagram.Node(id: "H", label: "H", kind: .compound, parent: "G"),
            FlowDiagram.Node(id: "h1", label: "h1", kind: .state, parent: "H"),
            FlowDiagram.Node(id: "h2", label: "h2", kind: .state, parent: "H"),
            FlowDiagram.Node(id: "z", label: "z", kind: .final),
        ]
        let ends = [("a", "g1", "go"), ("a", "h1", "deep"), ("a", "G", "enter"), ("g1", "g2", "in"), ("h1", "h2", "inner"),
                    ("g2", "z", "done"), ("h2", "z", "out"), ("G", "z", "cancel")]
        let edges = ends.enumerated().map { i, e in FlowDiagram.Edge(from: e.0, to: e.1, label: e.2, events: [e.2], transitions: [i]) }
        return FlowDiagram(name: "small", initial: "a", nodes: nodes, edges: edges)
    }()

    @Test("Collapsing the top level: a cluster becomes one node counting what it holds, its edges redirected and merged")
    func collapseTopLevel() throws {
        let graph = Self.small
        let collapsed = graph.collapsed(toDepth: 0)
        #expect(collapsed.nodes.map(\.id) == ["a", "G", "z"])
        let g = try #require(collapsed.node("G"))
        #expect(g.kind == .state && g.label == "G\n5 states, 2 transitions inside")
        #expect(g.attributes[FlowDiagram.collapsedStatesAttribute] == "5" && g.attributes[FlowDiagram.collapsedTransitionsAttribute] == "2")
        #expect(collapsed.edges.map { "\($0.from)->\($0.to)" } == ["a->G", "G->z"])
        #expect(collapsed.edges[0].label == "3 transitions\ngo, deep, enter" && collapsed.edges[0].transitions == [0, 1, 2])
        #expect(collapsed.edges[1].events == ["done", "out", "cancel"] && collapsed.edges[1].transitionCount == 3)
        checkCounts(graph, collapsed: collapsed)
        let result = graph.collapsing(["G", "a", "nowhere"])
        #expect(result.graph == collapsed, "by set: the same picture; a leaf and an unknown name are ignored")
        #expect(result.representative == ["a": "a", "G": "G", "g1": "G", "g2": "G", "H": "G", "h1": "G", "h2": "G", "z": "z"])
        #expect(DOTWriter.dot(collapsed).contains("\(FlowDiagram.collapsedStatesAttribute)=\"5\""))
    }

    @Test("Collapsing one level down keeps the outer cluster and redirects single transitions with their labels")
    func collapseInner() throws {
        let graph = Self.small
        let collapsed = graph.collapsed(toDepth: 1)
        #expect(collapsed.nodes.map(\.id) == ["a", "G", "g1", "g2", "H", "z"])
        #expect(collapsed.node("G")?.kind == .compound && collapsed.node("H")?.kind == .state)
        #expect(collapsed.node("H")?.attributes[FlowDiagram.collapsedTransitionsAttribute] == "1")
        #expect(collapsed.edges.map { "\($0.from)->\($0.to):\($0.label)" }
            == ["a->g1:go", "a->H:deep", "a->G:enter", "g1->g2:in", "g2->z:done", "H->z:out", "G->z:cancel"])
        checkCounts(graph, collapsed: collapsed)
        #expect(graph.collapsed(toDepth: 2) == graph, "nothing to collapse at depth 2: the same graph")
        #expect(graph.collapsed(toDepth: -3) == graph.collapsed(toDepth: 0))
        #expect(graph.collapsed(toDepth: .max) == graph && graph.pages(depth: .max).count == 1 && graph.cluster("G", depth: .max) != nil)
        #expect(graph.collapsing([String]()).graph == graph)
        let sizes = graph.collapsedSizes()
        #expect(sizes.map(\.nodes) == [3, 6, 8] && sizes.map(\.edges) == [6, 7, 8], "before merging")
    }

    @Test("A cluster's page draws its transitions with states outside to stubs")
    func clusterPage() throws {
        let graph = Self.small
        let page = try #require(graph.cluster("H"))
        #expect(page.nodes.map(\.id) == ["H", "h1", "h2", "a", "z"])
        #expect(page.node("H")?.parent == nil && page.node("h1")?.parent == "H")
        let stub = try #require(page.node("a"))
        #expect(stub.label == "↗ a" && stub.attributes[FlowDiagram.stubAttribute] == "")
        #expect(page.node("z")?.attributes[FlowDiagram.stubAttribute] == "")
        #expect(page.edges.map(\.label) == ["deep", "inner", "out"])
        #expect(page.initial == nil, "the flow does not start here")
        let outer = try #require(graph.cluster("G", depth: 0))
        #expect(outer.node("H")?.attributes[FlowDiagram.collapsedStatesAttribute] == "2")
        #expect(outer.edges.map { "\($0.from)->\($0.to):\($0.label)" }
            == ["a->g1:go", "a->H:deep", "a->G:enter", "g1->g2:in", "g2->z:done", "H->z:out", "G->z:cancel"],
                "drawn alone, a cluster shows its collapsed states' transitions with states outside too")
        let paged = try #require(graph.pages(depth: 0).first { $0.state == "G" }?.graph)
        #expect(paged.edges.map(\.label) == ["go", "enter", "in", "done", "cancel"], "in pages, H's own page shows them")
        #expect(graph.cluster("g1") == nil && graph.cluster("nowhere") == nil)
        #expect(try GraphvizRenderer.shared.legibility(of: page) == [])
    }

    @Test("Overview and pages of big generated nested flows: every state in exactly one page, each page legible",
          arguments: [800, 1600])
    func generatedPages(count: Int) throws {
        var graph = LegibilityFlows.generated(count, nested: true)
        let depth = try #require(LayoutPolicy.collapseDepth(for: graph), "too big for one picture")
        let pages = graph.pages(depth: depth)
        checkPages(graph, pages)
        checkCounts(graph, collapsed: pages[0].graph)
        #expect(pages[0].graph == graph.collapsed(toDepth: depth), "the overview is the collapsed graph")
        #expect(pages[0].graph.nodes.count <= LayoutPolicy.pictureLimit.states)
        if pages[0].graph.edges.count > LayoutPolicy.pictureLimit.transitions {  // many long edges: references
            var bounded = pages[0].graph
            LayoutPolicy.bound(&bounded)
            #expect(LayoutPolicy.dot(bounded).contains("class=\"edgelabel reference\""))
        }
        // Every page, as the renderer draws it, with and without a trace.
        let trace = LegibilityFlows.trace(of: graph)
        for (i, page) in pages.enumerated() where count == 800 || i < 12 {
            #expect(try GraphvizRenderer.shared.legibility(of: page.graph) == [], "page \(page.state ?? "overview")")
        }
        // A group drawn alone, its parts collapsed: their transitions with states outside end at stubs.
        let group = try #require(graph.cluster("c7", depth: 0))
        let stubs = group.nodes.filter { $0.attributes[FlowDiagram.stubAttribute] != nil }
        #expect(stubs.count > 10 && stubs.allSatisfy { $0.label.hasPrefix("↗ ") })
        #expect(try GraphvizRenderer.shared.legibility(of: group) == [], "group c7 drawn alone")
        var traced = pages[0].graph
        traced.overlay(trace)
        #expect(try GraphvizRenderer.shared.legibility(of: traced) == [], "the overview with a trace")
        graph.overlay(trace)  // a trace on the flow survives collapsing: drawn where its states are
        #expect(graph.collapsed(toDepth: depth).edges.contains { $0.attributes["color"] == "#dc2626" })
    }

    @Test("A flow nested 100,000 levels deep is collapsed, paged and measured without recursion")
    func deepNesting() throws {
        let graph = DeepFlows.chain(100_000)
        let sizes = graph.collapsedSizes()
        #expect(sizes.count == 100_001 && sizes.last?.nodes == graph.nodes.count && sizes.last?.edges == graph.edges.count)
        let depth = try #require(LayoutPolicy.collapseDepth(for: graph))
        let limit = LayoutPolicy.pictureLimit.states
        #expect(sizes[depth].nodes <= limit && sizes[depth + 1].nodes > limit, "the deepest that fits: \(depth)")
        let pages = graph.pages(depth: depth)
        checkPages(graph, pages)
        checkCounts(graph, collapsed: pages[0].graph)
        let roots = (0..<100_000).filter { $0 >= depth && ($0 - depth) % (depth + 1) == 0 }.count
        #expect(pages.count == 1 + roots && roots > 300, "\(pages.count) pages: a level every \(depth + 1) has its own")
        #expect(try GraphvizRenderer.shared.legibility(of: pages[0].graph) == [])
        let middle = try #require(graph.cluster("c50000", depth: 10))
        #expect(middle.nodes.filter { $0.attributes[FlowDiagram.stubAttribute] == nil }.count == 1 + 22)
        checkCounts(graph, collapsed: graph.collapsed(toDepth: 7))
    }

    @Test("Bad input never crashes: cycles of parents, unknown parents and ends, repeated identifiers")
    func badInput() {
        let nodes = [
            FlowDiagram.Node(id: "x", label: "x", kind: .compound, parent: "y"),
            FlowDiagram.Node(id: "y", label: "y", kind: .compound, parent: "x"),
            FlowDiagram.Node(id: "s", label: "s", kind: .state, parent: "x"),
            FlowDiagram.Node(id: "s", label: "again", kind: .state, parent: "nowhere"),
            FlowDiagram.Node(id: "t", label: "t", kind: .state, parent: "t"),
            FlowDiagram.Node(id: "u", label: "u", kind: .state, parent: "t"),
        ]
        let edges = [FlowDiagram.Edge(from: "s", to: "ghost", label: "lost", events: []),
                     FlowDiagram.Edge(from: "ghost", to: "u", label: "found", events: [nil, nil]),
                     FlowDiagram.Edge(from: "s", to: "s", label: "stay", events: ["stay"])]
        let graph = FlowDiagram(name: "bad", initial: "ghost", nodes: nodes, edges: edges)
        for depth in [0, 1, 2, 5] {
            let collapsed = graph.collapsed(toDepth: depth)
            let drawn: Int = collapsed.edges.map(\.transitionCount).reduce(0, +)
            #expect(drawn + attributeSum(collapsed, FlowDiagram.collapsedTransitionsAttribute) == 4)
            #expect(!graph.pages(depth: depth).isEmpty)
        }
        #expect(graph.cluster("x") != nil && graph.cluster("t", depth: 0) != nil, "a state with children is a cluster")
        #expect(!graph.collapsedSizes().isEmpty && graph.collapsedSizes(under: "ghost").isEmpty)
        let empty = FlowDiagram(name: "empty", initial: nil, nodes: [], edges: [])
        #expect(empty.collapsed(toDepth: 0) == empty && empty.pages(depth: 0).count == 1 && empty.collapsedSizes().isEmpty)
        #expect(LayoutPolicy.collapseDepth(for: empty) == nil)
    }

    @Test("Measured: whole pictures against collapsed pages (FLOWSTATE_MEASURE=1)",
          .enabled(if: ProcessInfo.processInfo.environment["FLOWSTATE_MEASURE"] != nil))
    func measure() throws {
        func seconds(_ body: () throws -> Void) rethrows -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        }
        print("| leaves | states | transitions | whole (s) | problems | depth | pages | overview nodes, edges | slowest page (s) | all pages (s) | problems |")
        for count in [100, 200, 300, 400, 800, 1600] {
            let graph = LegibilityFlows.generated(count, nested: true)
            var problems = 0
            let whole = try seconds { _ = try GraphvizRenderer.shared.render(graph, format: .svg) }
            problems = try GraphvizRenderer.shared.legibility(of: graph).count
            let depth = LayoutPolicy.collapseDepth(for: graph)
            var slowest = 0.0, total = 0.0, pageProblems = 0
            let pages = graph.pages(depth: depth)
            for page in pages {
                let time = try seconds { _ = try GraphvizRenderer.shared.render(page.graph, format: .svg) }
                slowest = max(slowest, time)
                total += time
                pageProblems += try GraphvizRenderer.shared.legibility(of: page.graph).count
            }
            let overview = pages[0].graph
            print("| \(count) | \(graph.nodes.count) | \(graph.edges.count) | \(whole) | \(problems) | \(depth.map(String.init) ?? "-") | "
                  + "\(pages.count) | \(overview.nodes.count), \(overview.edges.count) | \(slowest) | \(total) | \(pageProblems) |")
        }
        let deep = DeepFlows.chain(100_000)
        let transform = seconds { _ = deep.pages(depth: LayoutPolicy.collapseDepth(for: deep)) }
        print("100,000 levels: collapseDepth + pages: \(transform) s")
    }
}
