import FlowGraph
@testable import FlowSpec
import FlowSpecTestSupport
import Flowstate
import Foundation
import Testing

/// A `<history>` without a default transition (issue 37, item 5): SCXML requires one, Qt SCXML does
/// not (it enters the parent's initial state, `QTBUG-76091`), and two of Qt's own test documents have
/// none. `Corpus/qt-style-history-*.scxml` are hand-written documents of the same shape (the
/// corpus's rule: nothing copied, so nothing under another license; `Corpus/README.md`). They read,
/// validate with a warning naming the missing default and what stands for it, draw, and simulate as
/// Qt runs its own.
@Suite("A history without a default transition (Qt's documents)")
struct HistoryWithoutDefaultTests {
    /// The shape of Qt's `tests/auto/statemachine/historystate.scxml`: a history never targeted.
    static let statemachine = "qt-style-history-timeout.scxml"
    /// The shape of Qt's `tests/auto/compiled/historyState.scxml`: `toHistory` targets it before `On`
    /// was ever entered.
    static let compiled = "qt-style-history-on-off.scxml"

    static func read(_ name: String) throws -> FlowFile {
        try FlowFile.parseSCXML(try SCXMLCorpus.bytes(name), file: name)
    }

    @Test("Qt's two documents validate without errors, with one invalid-history warning at the <history>, naming the default used")
    func validates() throws {
        for (name, history, parent, initial, place) in [
            (Self.statemachine, "HistoryState", "Working", "State1", "9:9"),
            (Self.compiled, "History_1", "On", "Beta", "16:9"),
        ] {
            let issues = try Self.read(name).validate()
            #expect(issues.filter { $0.severity == .error }.isEmpty, "\(name): \(issues)")
            let warnings = issues.filter { $0.kind == .invalidHistory }
            #expect(warnings.count == 1, "\(name): \(issues)")
            let warning = try #require(warnings.first)
            #expect(warning.severity == .warning)
            #expect(warning.description == "\(name):\(place): warning: history '\(history)' has no default transition "
                + "(SCXML requires one): until '\(parent)' is first exited, entering the history enters '\(initial)', "
                + "the initial state of '\(parent)', as Qt SCXML does", "\(warning)")
        }
    }

    @Test("The compiled test's run: toHistory before On was ever entered enters Beta, On's initial state; later, what On remembers")
    func simulatesCompiled() throws {
        let simulation = try FlowSimulation(try Self.read(Self.compiled))
        try simulation.start()
        #expect(simulation.configuration == ["Off"])
        try simulation.send("toHistory")
        #expect(simulation.configuration == ["Beta", "On"], "Qt's tst_Compiled::historyState expects Beta")
        try simulation.send("toDelta")
        try simulation.send("toOff")
        try simulation.send("toHistory")
        #expect(simulation.configuration == ["Delta", "On"], "remembered")
        #expect(simulation.unhandledEvents.isEmpty)
    }

    @Test("The state machine test's run: State1's delayed timeout reaches State2")
    func simulatesStatemachine() throws {
        let simulation = try FlowSimulation(try Self.read(Self.statemachine))
        try simulation.start()
        #expect(simulation.configuration == ["State1", "Working"])
        try simulation.advance(by: 1000)
        #expect(simulation.configuration == ["State2"], "Qt's tst_StateMachine::historyState waits for State2")
    }

    @Test("Paths reach every state of the compiled test, through the history too")
    func paths() throws {
        let paths = try FlowFilePathfinder(try Self.read(Self.compiled))
        #expect(paths.unreachable.isEmpty, "\(paths.unreachable)")
        #expect(Set(paths.reached).isSuperset(of: ["Off", "Alpha", "Beta", "Delta"]), "\(paths.reached)")
    }

    @Test("Both draw: the history is a circle with an edge to the state it enters by default")
    func draws() throws {
        for (name, history, initial) in [(Self.statemachine, "HistoryState", "State1"), (Self.compiled, "History_1", "Beta")] {
            let graph = FlowDiagram(try Self.read(name))
            let node = try #require(graph.nodes.first { $0.attributes["tooltip"] == "shallow history '\(history)'" }, "\(name)")
            #expect(node.attributes["label"] == "H")
            let target = try #require(graph.id(ofLabel: initial))
            #expect(graph.edges.contains { $0.from == node.id && $0.to == target }, "\(name)")
            #expect(DOTWriter.dot(graph).contains("shallow history '\(history)'"))
        }
    }

    @Test("Written back, the history still has no default transition (nothing invented in the file)")
    func roundTrip() throws {
        for name in [Self.statemachine, Self.compiled] {
            let (spec, written) = try expectRoundTrip(try SCXMLCorpus.bytes(name), file: name)
            let history = try #require(spec.statesInDocumentOrder.first { $0.history != nil })
            #expect(history.transitions.isEmpty)
            #expect(!written.contains("<history type=\"shallow\" id=\"\(history.name)\"><transition"), "\(written)")
        }
    }

    @Test("A JSON spec's history without transitions: the same warning; the first state that is not a history stands in")
    func json() throws {
        let spec = try FlowFile.parse("""
            { "flowspec": 1, "name": "tabs", "initial": "off",
              "states": [
                { "name": "off", "transitions": [ { "event": "back", "target": "last" } ] },
                { "name": "tabs", "states": [
                  { "name": "last", "history": "deep" },
                  { "name": "home", "transitions": [ { "event": "next", "target": "cart" } ] },
                  { "name": "cart" }
                ], "transitions": [ { "event": "off", "target": "off" } ] }
              ] }
            """, file: "tabs.json")
        let issues = spec.validate()
        #expect(issues.filter { $0.severity == .error }.isEmpty, "\(issues)")
        #expect(issues.contains { $0.kind == .invalidHistory && $0.severity == .warning
            && $0.message.contains("entering the history enters 'home', the initial state of 'tabs'") }, "\(issues)")
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        try simulation.send("back")
        #expect(simulation.configuration == ["home", "tabs"])
    }

    @Test("A history that is its parent's only state has nothing to enter by default: the engine's error at the parent, no empty name")
    func nothingToEnter() throws {
        let spec = try FlowFile.parseSCXML("""
            <scxml initial="off" xmlns="http://www.w3.org/2005/07/scxml" version="1.0">
              <state id="off"><transition event="go" target="h"/></state>
              <state id="alone">
                <history id="h"/>
              </state>
            </scxml>
            """, file: "alone.scxml")
        let issues = spec.validate()
        #expect(issues.filter { $0.severity == .error }.map(\.description) == [
            "alone.scxml:3:3: error: state 'alone' contains history states only: a compound state needs a state to enter",
        ], "\(issues)")
        #expect(!issues.contains { $0.message.contains("targets ''") }, "no message about an empty name: \(issues)")
    }
}
