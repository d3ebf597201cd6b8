import FlowGraph
@testable import FlowGraphviz
import FlowSpec
import FlowSpecTestSupport
import FlowTestSupport
import Flowstate
import FlowstateExamples
import Foundation
import Testing

// What statechart pictures mark (issue 37, "Pictures of statecharts"): the initial child of every
// compound state and region, the initial arrow into a parallel state, transitions declared on a
// region drawn from the region. Checked on the DOT the writers produce, and on Graphviz's layout.

/// The structure of DOT text as `DOTWriter` writes it: which cluster each node is declared in, the
/// initial markers (point nodes), and the edges with their `lhead` / `ltail`.
struct DOTStructure {
    struct Edge {
        var from: String
        var to: String
        var lhead: String?
        var ltail: String?
        var attributes: String
    }

    /// Node identifier -> the compound state whose cluster declares it (`nil`: the graph itself).
    var holder: [String: String?] = [:]
    /// The point nodes (initial markers), with the compound state whose cluster declares them.
    var markers: [(id: String, in: String?)] = []
    var edges: [Edge] = []

    init(_ dot: String) {
        var clusters: [String] = []
        for raw in dot.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("subgraph cluster_") {
                clusters.append(String(line.dropFirst("subgraph cluster_".count).dropLast(2)))
            } else if line == "}" {
                _ = clusters.popLast()
            } else if let arrow = line.range(of: " -> "), arrow.lowerBound < (line.range(of: " [")?.lowerBound ?? line.endIndex) {
                let from = String(line[..<arrow.lowerBound])
                let rest = line[arrow.upperBound...]
                let to = String(rest.prefix { $0 != " " && $0 != ";" })
                edges.append(Edge(from: from, to: to, lhead: Self.value("lhead", in: line).map { String($0.dropFirst(8)) },
                                  ltail: Self.value("ltail", in: line).map { String($0.dropFirst(8)) },
                                  attributes: String(rest)))
            } else if let bracket = line.range(of: " [") {
                let id = String(line[..<bracket.lowerBound])
                holder[id] = clusters.last
                if line.contains("shape=point") || line.contains("shape=\"point\"") { markers.append((id, clusters.last)) }
            }
        }
    }

    /// An attribute's value in a line, quoted or not.
    static func value(_ name: String, in line: String) -> String? {
        guard let start = line.range(of: "\(name)=") else { return nil }
        let value = line[start.upperBound...].drop { $0 == "\"" }
        return String(value.prefix { $0 != "\"" && $0 != "]" && $0 != "," })
    }
}

/// What a flow says of its compound states: each one's label, whether it is parallel, and the label
/// of its initial child.
struct Compound {
    var label: String
    var isParallel: Bool
    var initialChild: String?

    /// A definition's compound and parallel states, as the definition declares them.
    static func of<F: Flow>(_ definition: FlowDefinition<F>) -> [Compound] {
        let states = definition.states
        return states.compactMap { state in
            guard state.kind == .compound || state.kind == .parallel else { return nil }
            let initial = state.initialChild.flatMap { child in states.first { $0.state == child }?.label }
            return Compound(label: state.label, isParallel: state.kind == .parallel, initialChild: initial)
        }
    }

    /// A flow file's compound and parallel states, as the file declares them (the first child when it
    /// names none).
    static func of(_ spec: FlowFile) -> [Compound] {
        spec.statesInDocumentOrder.compactMap { state in
            let children = state.states.filter { $0.history == nil }
            guard !children.isEmpty else { return nil }
            return Compound(label: state.name, isParallel: state.isParallel, initialChild: state.initial ?? children.first?.name)
        }
    }
}

/// Checks that `dot` (of `graph`) marks the initial child of every compound state and region once,
/// inside its cluster, and marks nothing in a parallel state; returns the problems found.
func initialMarkProblems(_ dot: String, graph: FlowDiagram, compounds: [Compound]) -> [String] {
    let structure = DOTStructure(dot)
    var problems: [String] = []
    var expectedMarkers = graph.initial == nil ? 0 : 1
    let top = structure.markers.filter { $0.in == nil }
    if top.count != expectedMarkers { problems.append("\(top.count) initial markers at the top level") }
    for compound in compounds {
        guard let id = graph.id(ofLabel: compound.label) else {
            problems.append("no node '\(compound.label)'")
            continue
        }
        let inside = structure.markers.filter { $0.in == id }
        if compound.isParallel {
            if !inside.isEmpty { problems.append("parallel '\(compound.label)' has \(inside.count) initial markers") }
            continue
        }
        expectedMarkers += 1
        guard inside.count == 1, let marker = inside.first else {
            problems.append("'\(compound.label)' has \(inside.count) initial markers in its cluster")
            continue
        }
        let arrows = structure.edges.filter { $0.from == marker.id }
        guard arrows.count == 1, let arrow = arrows.first else {
            problems.append("the initial marker of '\(compound.label)' has \(arrows.count) arrows")
            continue
        }
        guard let child = compound.initialChild.flatMap({ graph.id(ofLabel: $0) }), let node = graph.node(child) else {
            problems.append("'\(compound.label)' has no initial child in the graph")
            continue
        }
        let points = node.kind == .compound ? arrow.lhead == child : arrow.to == child && arrow.lhead == nil
        if !points {
            problems.append("the initial marker of '\(compound.label)' points at \(arrow.lhead ?? arrow.to), not '\(node.label)'")
        }
    }
    if structure.markers.count != expectedMarkers {
        problems.append("\(structure.markers.count) initial markers in all, \(expectedMarkers) expected")
    }
    return problems
}

/// The tabs of issue 37's shopping app: which tab is selected is one region, each tab's stack another;
/// the selection's transitions are declared on the region, and each region starts at a child that is
/// not its first.
enum Tabs {
    static let definition = FlowDefinition<Named>("tabs", initial: "main") {
        Parallel("main") {
            StateNode("selection", initial: "onBrowse") {
                StateNode("onFeed")
                StateNode("onBrowse")
                On("selectBrowse", to: "onBrowse")
                On("selectFeed", to: "onFeed")
            }
            StateNode("stack", initial: "root") {
                StateNode("detail") { On("back", to: "root") }
                StateNode("root") { On("open", to: "detail") }
            }
        }
    }

    /// Nested three deep, each level starting at a child that is not its first, the inner one compound.
    static let nested = FlowDefinition<Named>("nested", initial: "outer") {
        StateNode("outer", initial: "inner") {
            StateNode("before") { On("go", to: "inner") }
            StateNode("inner", initial: "y") {
                StateNode("x") { On("next", to: "y") }
                StateNode("y") { On("next", to: "x") }
                On("leave", to: "before")
            }
        }
    }
}

@Suite("Statechart marks: initial children, parallel states, region transitions")
struct StatechartMarksTests {
    /// The flow files checked: a parallel state's regions with initial children of their own, a
    /// compound state with `<initial>`, and the tabs as SCXML.
    static func specs() throws -> [FlowFile] {
        let tabs = """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="tabs-file" initial="main">
          <parallel id="main">
            <state id="selection" initial="onBrowse">
              <state id="onFeed"/><state id="onBrowse"/>
              <transition event="selectBrowse" target="onBrowse"/>
            </state>
            <state id="stack"><state id="root"><transition event="open" target="detail"/></state><state id="detail"/></state>
          </parallel>
        </scxml>
        """
        return [try readSpec("player.scxml"), try readSpec("door.scxml"), try FlowFile.parseSCXML(Array(tabs.utf8), file: "tabs.scxml")]
    }

    @Test("Every compound state and region marks its initial child once, inside its cluster; a parallel state marks none")
    func initialChildren() throws {
        var cases: [(FlowDiagram, [Compound])] = [
            (FlowDiagram(Tabs.definition), Compound.of(Tabs.definition)),
            (FlowDiagram(Tabs.nested), Compound.of(Tabs.nested)),
            (FlowDiagram(Media.definition), Compound.of(Media.definition)),
            (FlowDiagram(SignUp.definition), Compound.of(SignUp.definition)),
        ]
        for spec in try Self.specs() { cases.append((FlowDiagram(spec), Compound.of(spec))) }
        for (graph, compounds) in cases {
            #expect(compounds.contains { !$0.isParallel }, "\(graph.name) has a compound state to check")
            var bounded = graph
            LayoutPolicy.bound(&bounded)
            // The DOT of the graph as written (inline labels) and as the renderer draws it (label nodes).
            for dot in [DOTWriter.dot(graph), LayoutPolicy.dot(bounded)] {
                let problems = initialMarkProblems(dot, graph: graph, compounds: compounds)
                #expect(problems.isEmpty, "\(graph.name): \(problems)\n\(dot)")
            }
            // The picture the renderer draws is legible. (Inline labels in clusters are not always:
            // Graphviz places them across cluster borders, one reason the renderer draws clustered
            // graphs with label nodes.)
            let illegible = try GraphvizRenderer.shared.legibility(of: LayoutPolicy.dot(bounded))
            #expect(illegible == [], "\(graph.name): \(illegible.map(\.description))")
        }
    }

    @Test("The initial arrow into a compound or parallel state at the top level reaches the cluster's near border, not a blob on it")
    func initialArrowIntoACluster() throws {
        for definition in [Tabs.definition, Tabs.nested] {
            var graph = FlowDiagram(definition)
            let target = try #require(graph.initial)
            #expect(graph.node(target)?.kind == .compound)
            LayoutPolicy.bound(&graph)
            let layout = try GraphvizRenderer.shared.laidOut(dot: LayoutPolicy.dot(graph))
            let start = try #require(layout.items.first { $0.kind == .node && $0.owner == "__start" }).box
            let cluster = try #require(layout.clusters.first { $0.owner == "cluster_\(target)" }).box
            // Left of the cluster (the graph is laid out left to right), level with it, with room for
            // the arrow between them (Graphviz's arrowhead is 10 points long).
            #expect(start.maxX + 10 <= cluster.minX, "\(graph.name): start at \(start), cluster at \(cluster)")
            #expect(cluster.minY <= start.y && start.y <= cluster.maxY, "\(graph.name): start at \(start), cluster at \(cluster)")
        }
    }

    @Test("A transition declared on a region or a compound state, to a child of its own, is drawn from the state's cluster")
    func transitionsDeclaredOnARegion() throws {
        // On the region `selection`: to its first child and to its second; on `inner`: to its own child
        // and out of it; on `stack`'s child: to the region it lies in.
        let flow = FlowDefinition<Named>("regions", initial: "main") {
            Parallel("main") {
                StateNode("selection", initial: "onBrowse") {
                    StateNode("onBrowse")
                    StateNode("onFeed")
                    On("selectBrowse", to: "onBrowse")
                    On("selectFeed", to: "onFeed")
                }
                StateNode("stack", initial: "root") {
                    StateNode("root") { On("open", to: "detail") }
                    StateNode("detail") { On("reset", to: "stack") }
                }
            }
        }
        let graph = FlowDiagram(flow)
        var bounded = graph
        LayoutPolicy.bound(&bounded)
        let cases = [("selectBrowse", "selection", "onBrowse"), ("selectFeed", "selection", "onFeed"), ("reset", "detail", "stack")]
        for dot in [DOTWriter.dot(graph), LayoutPolicy.dot(bounded)] {
            let structure = DOTStructure(dot)
            for (event, source, target) in cases {
                let from = try #require(graph.id(ofLabel: source)), to = try #require(graph.id(ofLabel: target))
                // Drawn through a node outside the state's cluster, which holds the label: Graphviz
                // clips an edge at a cluster only when its other end lies outside it.
                let line = try #require(dot.split(separator: "\n").first { $0.contains("label=\"\(event)\"") }, "\(event)\n\(dot)")
                let labelNode = String(line.trimmingCharacters(in: .whitespaces).prefix { $0 != " " })
                #expect(structure.holder[labelNode] == graph.id(ofLabel: "main"), "\(event): its label node sits in main\n\(dot)")
                let into = structure.edges.filter { $0.to == labelNode }, out = structure.edges.filter { $0.from == labelNode }
                #expect(into.count == 1 && out.count == 1, "\(event)\n\(dot)")
                guard let first = into.first, let second = out.first else { continue }
                if graph.node(from)?.kind == .compound {
                    #expect(first.ltail == from && first.from != second.to, "\(event) starts at the border of '\(source)'\n\(dot)")
                } else {
                    #expect(first.from == from && first.ltail == nil, "\(event)\n\(dot)")
                }
                if graph.node(to)?.kind == .compound {
                    #expect(second.lhead == to, "\(event) ends at the border of '\(target)'\n\(dot)")
                } else {
                    #expect(second.to == to && second.lhead == nil, "\(event)\n\(dot)")
                }
            }
            // No edge left for Graphviz to clip at a cluster its other end lies in.
            for edge in structure.edges {
                if let tail = edge.ltail { #expect(structure.holder[edge.to].flatMap { $0 }.map { !inside($0, tail, graph) } ?? true, "\(edge)") }
                if let head = edge.lhead { #expect(structure.holder[edge.from].flatMap { $0 }.map { !inside($0, head, graph) } ?? true, "\(edge)") }
            }
        }
    }
}

/// Whether `id` is `ancestor` or lies inside it in `graph`.
func inside(_ id: String, _ ancestor: String, _ graph: FlowDiagram) -> Bool {
    var current: String? = id
    while let x = current {
        if x == ancestor { return true }
        current = graph.node(x)?.parent
    }
    return false
}
