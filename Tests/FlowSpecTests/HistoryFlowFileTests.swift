import FlowGraph
@testable import FlowSpec
import Flowstate
import Foundation
import Testing

/// `<history>` in flow files: read, run by the simulation and the path explorer, drawn as typed
/// definitions' histories are (one place: the definition's outline).
@Suite("History states in flow files")
struct HistoryFlowFileTests {
    static let scxml = """
        <scxml initial="app" xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <state id="app" initial="home">
            <history id="last" type="deep"><transition target="home"/></history>
            <state id="home"><transition event="open" target="detail"/></state>
            <state id="detail" initial="page1">
              <state id="page1"><transition event="next" target="page2"/></state>
              <state id="page2"><transition event="done" target="finished"/></state>
            </state>
            <transition event="lock" target="locked"/>
          </state>
          <state id="locked"><transition event="unlock" target="last"/></state>
          <final id="finished"/>
        </scxml>
        """

    static func spec() throws -> FlowFile { try FlowFile.parseSCXML(Array(scxml.utf8), file: "history.scxml") }

    @Test("simulate enters what a deep history remembers, or its default")
    func simulates() throws {
        let simulation = try FlowSimulation(try Self.spec())
        try simulation.start()
        try simulation.send("lock")
        try simulation.send("unlock")
        #expect(simulation.configuration == ["home", "app"])  // remembered: app was left from home
        try simulation.send("open")
        try simulation.send("next")
        try simulation.send("lock")
        #expect(simulation.configuration == ["locked"])
        try simulation.send("unlock")
        #expect(simulation.configuration == ["page2", "detail", "app"])  // deep: the leaf, not detail's initial child
        try simulation.send("done")
        #expect(simulation.isFinished)
    }

    @Test("paths explore configurations with what the histories remember: every state is reached")
    func paths() throws {
        let paths = try FlowFilePathfinder(try Self.spec())
        #expect(paths.unreachable.isEmpty, "\(paths.unreachable)")
        #expect(Set(paths.reached).isSuperset(of: ["home", "page1", "page2", "locked", "finished"]), "\(paths.reached)")
        #expect(paths.uncovered.isEmpty, "\(paths.uncovered)")
    }

    @Test("A history is drawn H or H* with an edge to its default, the same for a file and a typed definition")
    func drawing() throws {
        let file = FlowDiagram(try Self.spec())
        let typed = FlowDiagram(FlowDefinition<StringFlow>("history", initial: "app") {
            StateNode("app", initial: "home") {
                History("last", .deep, default: "home")
                StateNode("home")
            }
        })
        for graph in [file, typed] {
            let node = try #require(graph.nodes.first { $0.attributes["tooltip"] == "deep history 'last'" })
            #expect(node.attributes["label"] == "H*" && node.attributes["shape"] == "circle")
            let home = try #require(graph.id(ofLabel: "home"))
            #expect(graph.edges.contains { $0.from == node.id && $0.to == home && $0.label.isEmpty })
        }
        // The file's spec of a typed definition keeps the history and its default.
        let spec = FlowFile(FlowDefinition<StringFlow>("history", initial: "app") {
            StateNode("app", initial: "home") {
                History("last", .shallow, default: "home")
                StateNode("home")
            }
        })
        let last = try #require(spec.states.first?.states.first)
        #expect(last.history == .shallow && last.transitions.first?.target == "home")
    }
}
