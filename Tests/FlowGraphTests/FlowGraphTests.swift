@testable import FlowGraph
@testable import FlowGraphviz
import FlowTestSupport
import Flowstate
import FlowstateExamples
import Foundation
import PropertyBased
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("FlowDiagram: DOT and Mermaid")
struct FlowGraphTests {
    @Test("The example flows' DOT and Mermaid match their golden files, byte for byte")
    func golden() throws {
        try expectGolden(DOTWriter.dot(FlowDiagram(SignUp.definition)), "sign-up.dot")
        try expectGolden(MermaidWriter.mermaid(FlowDiagram(SignUp.definition)), "sign-up.mmd")
        try expectGolden(DOTWriter.dot(FlowDiagram(FirstLaunch.definition)), "first-launch.dot")
        try expectGolden(MermaidWriter.mermaid(FlowDiagram(FirstLaunch.definition)), "first-launch.mmd")
    }

    @Test("The graph has the flow's states and transitions; compound states are clusters")
    func structure() {
        let graph = FlowDiagram(SignUp.definition)
        #expect(graph.nodes.map(\.label) == ["signingUp", "email", "password", "twoFactor", "done", "cancelled"])
        #expect(graph.nodes.first?.kind == .compound)
        #expect(graph.nodes.filter { $0.kind == .final }.map(\.label) == ["done", "cancelled"])
        #expect(graph.edges.count == SignUp.definition.transitions.count)
        #expect(graph.initial == "s0")
    }

    @Test("Parallel edges merge into one edge whose label lists them")
    func merging() {
        let graph = FlowDiagram(SignUp.definition, mergeParallelEdges: true)
        let selfLoops = graph.edges.filter { $0.from == "s2" && $0.to == "s2" }
        #expect(selfLoops.count == 1)
        #expect(graph.edges.count == SignUp.definition.transitions.count)  // no parallel pairs except self loops
        var two = FlowDiagram(name: "x", initial: "a", nodes: [
            .init(id: "a", label: "a", kind: .state), .init(id: "b", label: "b", kind: .state),
        ], edges: [
            .init(from: "a", to: "b", label: "go", events: ["go"]),
            .init(from: "a", to: "b", label: "next", events: ["next"]),
        ])
        two.mergeEdges()
        #expect(two.edges.map(\.label) == ["go\nnext"])
    }

    @Test("Writing is deterministic: the same definition gives the same bytes")
    func deterministic() {
        #expect(DOTWriter.dot(FlowDiagram(SignUp.definition)) == DOTWriter.dot(FlowDiagram(SignUp.definition)))
        #expect(MermaidWriter.mermaid(FlowDiagram(Feed.definition)) == MermaidWriter.mermaid(FlowDiagram(Feed.definition)))
    }

    @Test("Attributes override the defaults")
    func overrides() {
        var graph = FlowDiagram(SignUp.definition)
        graph.graphAttributes["rankdir"] = "TB"
        graph.nodes[1].attributes["color"] = "red"
        let dot = DOTWriter.dot(graph)
        #expect(dot.contains("rankdir=\"TB\""))
        #expect(!dot.contains("rankdir=\"LR\""))
        #expect(dot.contains("s1 [color=\"red\", label=\"email\"]"))
    }

    @Test("Regression: '&;' in a label and '--' in a flow's name still render well-formed SVG")
    func entityAndCommentRegression() throws {
        // Found by the rendering property: Graphviz copies `&...;` from labels into SVG unescaped
        // (`&;` is not XML), and puts the graph's name into an XML comment (where `--` is illegal).
        let definition = Named.hostileFlow(["&;", "a--b"])
        let renamed = FlowDefinition<Named>("x -- y --> z", initial: "only &; --",
                                            elements: [Final<Named>("only &; --", output: "&amp;").element])
        for graph in [FlowDiagram(definition), FlowDiagram(renamed)] {
            let svg = try GraphvizRenderer.shared.render(graph, format: .svg)
            #expect(SVGNodeCounter.count(svg) == graph.nodes.count + 1)
        }
        #expect(DOTWriter.quote("a & b") == "\"a &amp; b\"")
    }

    @Test("Escaping: quotes, backslashes, newlines and Mermaid's syntax characters")
    func escaping() {
        #expect(DOTWriter.quote("say \"hi\"\\n\nnext") == "\"say \\\"hi\\\"\\\\n\\nnext\"")
        #expect(MermaidWriter.escape("a:b;c#\"<{|}>[]") == "a#58;b#59;c#35;#quot;#lt;#123;#124;#125;#gt;#91;#93;")
    }

    /// A flow whose every name is hostile: one state per name, in a chain, the last one final.

    @Test("Any names yield DOT that libcgraph parses, with exactly the flow's nodes and edges")
    func hostileNamesParse() async {
        await propertyCheck(count: 150, input: Named.hostile.array(of: 1...8)) { names in
            let definition = Named.hostileFlow(names)
            let graph = FlowDiagram(definition)
            let parsed = try GraphvizRenderer.shared.parse(dot: DOTWriter.dot(graph))
            #expect(parsed.nodes == definition.states.count + 1, "the states and the start point")
            #expect(parsed.edges == definition.transitions.count + 1, "the transitions and the start edge")
            let mermaid = MermaidWriter.mermaid(graph)
            let effectLines = graph.nodes.map(\.detailLines.count).reduce(0, +)
            #expect(mermaid.split(separator: "\n").count
                        == 1 + definition.states.count + effectLines + 1 + definition.transitions.count + 1,
                    "one line per state, per entry effect, the start, each transition and the final state: no name broke a line")
        }
    }

    @Test("Rendering yields well-formed SVG with one node per state (and the start point)")
    func renderedNodeCount() async {
        await propertyCheck(count: 40, input: Named.hostile.array(of: 1...6)) { names in
            let definition = Named.hostileFlow(names)
            let svg = try GraphvizRenderer.shared.render(FlowDiagram(definition), format: .svg)
            #expect(SVGNodeCounter.count(svg) == definition.states.count + 1)
        }
    }
}

@Suite("FlowDiagram: live trees and traces")
struct TreeGraphTests {
    @Test("A live tree draws each child machine inside the state that runs it, current states highlighted")
    func liveTree() throws {
        let supervisor = Supervisor()
        let launch = try supervisor.start(FirstLaunch.definition) { _, _ in }
        try supervisor.send(.createAccount, to: launch)
        let signUp = supervisor.handle(of: supervisor.machines[1].id, as: SignUp.self)!
        try supervisor.send(.submitEmail("ada@example.com"), to: signUp)
        let graph = FlowDiagram(supervisor: supervisor)
        let slot = try #require(graph.nodes.first { $0.label == "creatingAccount" })
        let childCluster = try #require(graph.nodes.first { $0.label.hasPrefix("sign-up #") })
        #expect(childCluster.parent == slot.id, "the child machine sits inside the state that runs it")
        #expect(slot.kind == .compound)
        let current = try #require(graph.nodes.first { $0.label == "password" })
        #expect(current.attributes["fillcolor"] != nil, "the child's current state is highlighted")
        let parsed = try GraphvizRenderer.shared.parse(dot: DOTWriter.dot(graph))
        // The states, the start point, and the initial marker of each compound state that names its
        // initial child (a state that only runs a child machine names none).
        let markers = graph.nodes.filter { $0.kind == .compound && !$0.isParallel && $0.initialChild != nil }.count
        #expect(markers == 2, "sign-up's signingUp, and the sign-up machine's cluster")
        #expect(parsed.nodes == graph.nodes.filter { $0.kind != .compound }.count + 1 + markers)
        let svg = try GraphvizRenderer.shared.render(graph, format: .svg)
        #expect(SVGNodeCounter.count(svg) == parsed.nodes)
    }

    @Test("A child spawned bound to a screen is drawn inside the state its parent rests in, as a declared child is")
    func spawnedChildInsideItsState() throws {
        // Seed 004's coordinator: the host sends createAccount, then starts the account flow bound to
        // its first screen (Coordinator.start spawns it so, under the launch flow).
        let launchFlow = FlowDefinition<Named>("launch", initial: "welcome") {
            StateNode("welcome") { On("createAccount", to: "creatingAccount") }
            StateNode("creatingAccount") { On("accountCreated", to: "home") }
            StateNode("home")
        }
        let accountFlow = FlowDefinition<Named>("account", initial: "email") {
            StateNode("email") { On("next", to: "created") }
            Final("created", output: "created")
        }
        let supervisor = Supervisor()
        let launch = try supervisor.start(launchFlow) { _, _ in }
        try supervisor.send("createAccount", to: launch)
        let screen = FlowLifetime()
        try supervisor.spawn(accountFlow, under: launch, owner: screen, handler: { _, _ in }, output: { _ in "accountCreated" })
        let graph = FlowDiagram(supervisor: supervisor)
        let state = try #require(graph.nodes.first { $0.label == "creatingAccount" })
        let child = try #require(graph.nodes.first { $0.label.hasPrefix("account #") })
        #expect(child.parent == state.id, "the child machine sits inside the state its parent rests in")
        #expect(state.kind == .compound && state.attributes["color"] == "#d4a017", "drawn around it, highlighted as current")
        let parsed = try GraphvizRenderer.shared.parse(dot: DOTWriter.dot(graph))
        #expect(child.initialChild == graph.id(ofLabel: "email"), "the child's cluster marks where its flow starts")
        #expect(parsed.nodes == graph.nodes.filter { $0.kind != .compound }.count + 2, "the states, the start, the child's marker")
        withExtendedLifetime(screen) {}
    }

    @Test("A trace recorded from tree events overlays the same way as one from steps")
    func treeEventTrace() throws {
        let supervisor = Supervisor()
        var events: [TreeEvent] = []
        supervisor.observe { events.append($0) }
        let signUp = try supervisor.start(SignUp.definition) { _, _ in }
        for event: SignUp.Event in [.submitEmail("x"), .submitEmail("ada@example.com"), .back, .cancel] {
            try supervisor.send(event, to: signUp)
        }
        let trace = FlowTrace(events, machine: signUp.id)
        #expect(trace.steps.map(\.event) == [nil, "submitEmail", "submitEmail", "back", "cancel"])
        var fromEvents = FlowDiagram(SignUp.definition)
        fromEvents.overlay(trace)
        var machine = try FlowMachine(SignUp.definition)
        var steps = [try machine.start()]
        for event: SignUp.Event in [.submitEmail("x"), .submitEmail("ada@example.com"), .back, .cancel] {
            steps.append(try machine.send(event))
        }
        var fromSteps = FlowDiagram(SignUp.definition)
        fromSteps.overlay(FlowTrace(steps))
        #expect(fromEvents == fromSteps)
    }

    @Test("A trace overlay counts visits and taken transitions")
    func overlay() throws {
        var machine = try FlowMachine(SignUp.definition)
        var steps = [try machine.start()]
        for event: SignUp.Event in [.submitEmail("x"), .submitEmail("ada@example.com"), .back, .cancel] {
            steps.append(try machine.send(event))
        }
        var graph = FlowDiagram(SignUp.definition)
        graph.overlay(FlowTrace(steps), lastPathLength: 1)
        let email = try #require(graph.nodes.first { $0.label == "email" })
        #expect(email.attributes["xlabel"] == "×3", "start, the invalid email (a self loop), back")
        let cancel = try #require(graph.edges.first { $0.events == ["cancel"] })
        #expect(cancel.attributes["color"] == "#dc2626", "the last transition taken is red")
        #expect(cancel.attributes["label"]?.hasSuffix("(×1)") == true)
        let back = try #require(graph.edges.first { $0.events == ["back"] && $0.to == email.id })
        #expect(back.attributes["color"] == nil)
    }
}

/// Regressions: the overlay draws the transitions the engine reported, so custom labels and paths
/// through decision (eventless) states are drawn, and two transitions between the same states on the
/// same event are told apart.
@Suite("Overlay from reported transitions")
struct OverlayTransitionTests {
    enum Door: Flow {
        enum State: String, Hashable, Sendable { case closed, deciding, open, locked }
        enum Event: FlowEvent { case push, pull }
        typealias Effect = String
        typealias Output = Never
    }

    static let isLocked = Guard<Door>("locked") { _ in false }

    static let definition = FlowDefinition<Door>("door", initial: .closed) {
        StateNode(.closed) {
            On(.push, to: .deciding, label: "shove it")
            On(.pull, to: .deciding, label: "tug")
        }
        StateNode(.deciding) {
            Always(guard: isLocked, to: .locked)
            Always(to: .open)
        }
        StateNode(.open) { On(.pull, to: .closed) }
        StateNode(.locked) { On(.pull, to: .closed) }
    }

    @Test("A custom label and a path through a decision state are drawn from the engine's report")
    func customLabelAndEventless() throws {
        var machine = try FlowMachine(Self.definition)
        let steps = [try machine.start(), try machine.send(.push), try machine.send(.pull), try machine.send(.pull)]
        #expect(steps[1].transitions.map(\.position) == [0, 3], "shove it, then the unguarded Always")
        #expect(steps[3].transitions.map(\.position) == [1, 3], "tug, then the same Always")
        var graph = FlowDiagram(Self.definition)
        graph.overlay(FlowTrace(steps))
        let widths = graph.edges.map { $0.attributes["penwidth"] }
        #expect(widths == ["2", "2", nil, "3", "2", nil], "each taken edge counted once per use; the Always twice")
        #expect(graph.edges[0].attributes["label"] == "shove it (×1)")
    }

    @Test("A trace from a supervisor's tree events carries the same transitions")
    func fromTreeEvents() throws {
        let supervisor = Supervisor()
        var events: [TreeEvent] = []
        supervisor.observe { events.append($0) }
        let door = try supervisor.start(Self.definition) { _, _ in }
        try supervisor.send(.push, to: door)
        let trace = FlowTrace(events, machine: door.id)
        #expect(trace.steps.map(\.transitions) == [[], [0, 3]])
    }
}

/// Regression (a new user's trial, stop 37): Mermaid drew a parallel state as an ordinary composite
/// state whose first region was its initial child, so the other region looked unreachable.
@Suite struct MermaidParallelTests {
    @Test("Mermaid draws a parallel state's regions as concurrent compartments (--), with no initial region")
    func regionsAreConcurrent() throws {
        let graph = FlowDiagram(Media.definition)
        let busy = try #require(graph.nodes.first { $0.label == "busy" })
        let download = try #require(graph.nodes.first { $0.label == "download" })
        let player = try #require(graph.nodes.first { $0.label == "player" })
        #expect(busy.isParallel && !download.isParallel && !player.isParallel)
        let lines = MermaidWriter.mermaid(graph).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let open = try #require(lines.firstIndex(of: "state \(busy.id) {"))
        let region2 = try #require(lines.firstIndex(of: "state \(player.id) {"))
        let region1 = try #require(lines.firstIndex(of: "state \(download.id) {"))
        #expect(open < region1 && region1 < region2)
        // The separator sits between the two regions, at the parallel state's level.
        let separators = lines.indices.filter { lines[$0] == "--" }
        #expect(separators.count == 1)
        #expect(separators.allSatisfy { region1 < $0 && $0 < region2 })
        #expect(!lines.contains("[*] --> \(download.id)") && !lines.contains("[*] --> \(player.id)"),
                "every region is entered: none is the parallel state's initial child")
        // Inside each region, its initial state is still marked.
        let fetching = try #require(graph.nodes.first { $0.label == "fetching" })
        #expect(lines.contains("[*] --> \(fetching.id)"))
    }
}

/// Regression (a new user's trial, stop 37): in a flow with parallel states, the overlay counted a
/// leaf once per step it stayed active in, so a region that did not move was "visited" again.
@Suite struct OverlayParallelVisitsTests {
    @Test("A parallel flow's overlay counts a leaf when it is entered, not each step it stays active")
    func visitsAreEntries() throws {
        var machine = try FlowMachine(Media.definition)
        var steps = [try machine.start()]
        for event: Media.Event in [.start, .fetched, .play, .pause, .play] { steps.append(try machine.send(event)) }
        var graph = FlowDiagram(Media.definition)
        graph.overlay(FlowTrace(steps))
        func visits(_ label: String) -> String? { graph.nodes.first { $0.label == label }?.attributes["xlabel"] }
        #expect(visits("idle") == "×1")
        #expect(visits("fetching") == "×1")
        #expect(visits("fetched") == "×1", "entered once; the player moved three times beside it")
        #expect(visits("paused") == "×2", "entered on start, and again after pause")
        #expect(visits("playing") == "×2")
    }
}
