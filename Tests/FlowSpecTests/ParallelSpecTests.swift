import FlowGraph
@testable import FlowSpec
import FlowSpecTestSupport
import Flowstate
import Foundation
import Testing

/// Flow files with parallel states (issue 24): several targets and several initial states read,
/// written, diffed, drawn and validated; parallel states simulated and explored.
@Suite("Flow files with parallel states")
struct ParallelSpecTests {
    /// Two regions, a transition into one state of each, and a completion.
    static let regions = """
    <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="regions" initial="idle">
      <state id="idle">
        <transition event="go" target="a2 b2"/>
        <transition event="start" target="p"/>
      </state>
      <parallel id="p">
        <onexit><log label="left p"/></onexit>
        <transition event="done.state.p" target="idle"/>
        <state id="a">
          <state id="a1"><transition event="next" target="a2"/></state>
          <state id="a2"><transition event="next" target="aDone"/></state>
          <final id="aDone"/>
        </state>
        <state id="b">
          <state id="b1"><transition event="next" target="b2"/></state>
          <state id="b2"><transition event="finish" target="bDone"/></state>
          <final id="bDone"/>
        </state>
      </parallel>
    </scxml>
    """

    @Test("SCXML: several targets and several initial states read, write back and read the same")
    func scxmlRoundTrip() throws {
        let spec = try FlowFile.parseSCXML(Array(Self.regions.utf8), file: "regions.scxml")
        let go = spec.states[0].transitions[0]
        #expect(go.targets == ["a2", "b2"] && go.target == "a2")
        let again = try FlowFile.parseSCXML(spec.scxml(), file: "again.scxml")
        #expect(again.json() == spec.json())
        #expect(spec.scxml().contains("target=\"a2 b2\""))
        let initial = try FlowFile.parseSCXML(Array("""
        <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a2 b1">
          <parallel id="p">
            <state id="a"><state id="a1"/><state id="a2"/></state>
            <state id="b"><initial><transition target="b2"/></initial><state id="b1"/><state id="b2"/></state>
          </parallel>
        </scxml>
        """.utf8), file: "initial.scxml")
        #expect(initial.initialStates == ["a2", "b1"] && initial.initial == "a2")
        #expect(try FlowFile.parseSCXML(initial.scxml(), file: "i.scxml").initialStates == ["a2", "b1"])
        #expect(initial.validate().filter { $0.severity == .error }.isEmpty)
    }

    @Test("JSON: a target or initial is a string or an array of strings; one is written as a string")
    func json() throws {
        let spec = try FlowFile.parseSCXML(Array(Self.regions.utf8), file: "regions.scxml")
        let text = spec.json()
        #expect(text.contains("\"target\": [\"a2\", \"b2\"]"))
        #expect(text.contains("\"target\": \"p\""))
        let read = try FlowFile.parse(text, file: "regions.json")
        #expect(read.states[0].transitions[0].targets == ["a2", "b2"])
        #expect(read.json() == text)
        let several = try FlowFile.parse("""
        {"flowspec": 1, "name": "f", "initial": ["x", "y"], "states": [
          {"name": "p", "parallel": true, "states": [
            {"name": "r1", "initial": "x", "states": [{"name": "w"}, {"name": "x"}]},
            {"name": "r2", "states": [{"name": "y"}, {"name": "z"}]}]}]}
        """, file: "f.json")
        #expect(several.initialStates == ["x", "y"])
        #expect(several.states[0].states[0].initialStates == ["x"])
        #expect(several.json().contains("\"initial\": [\"x\", \"y\"]"))
        #expect(throws: FlowSpecError.self) {
            try FlowFile.parse(#"{"flowspec": 1, "name": "f", "initial": [], "states": [{"name": "a"}]}"#, file: "e.json")
        }
        #expect(throws: FlowSpecError.self) {
            try FlowFile.parse(#"{"flowspec": 1, "name": "f", "initial": "a", "states": [{"name": "a", "transitions": [{"event": "e", "target": [1]}]}]}"#, file: "e.json")
        }
    }

    @Test("Targets that cannot be active together are an error at the transition's place")
    func conflictingTargets() throws {
        let spec = try FlowFile.parseSCXML(Array("""
        <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="p">
          <parallel id="p">
            <state id="a"><state id="a1"/><state id="a2"/></state>
            <state id="b"><state id="b1"/></state>
            <transition event="bad" target="a1 a2"/>
          </parallel>
        </scxml>
        """.utf8), file: "bad.scxml")
        let errors = spec.validate().filter { $0.severity == .error }
        #expect(errors.map(\.kind) == [.conflictingTargets])
        #expect(errors.first?.description.hasPrefix("bad.scxml:5:5: error: transition from 'p' on 'bad' targets 'a1' and 'a2', which cannot be active together") == true,
                "\(errors.map(\.description))")
        let initial = try FlowFile.parseSCXML(Array("""
        <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a1 a2">
          <parallel id="p">
            <state id="a"><state id="a1"/><state id="a2"/></state>
            <state id="b"><state id="b1"/></state>
          </parallel>
        </scxml>
        """.utf8), file: "initial.scxml")
        let initialErrors = initial.validate().filter { $0.kind == .conflictingTargets }
        #expect(initialErrors.map(\.description) == [
            "initial.scxml:1:1: error: the initial states of flow 'initial' include 'a1' and 'a2', which cannot be active together: several initial states must lie in different regions of a parallel state",
        ])
        let nested = try FlowFile.parseSCXML(Array("""
        <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="s">
          <state id="s" initial="a1 a2">
            <parallel id="p">
              <state id="a"><state id="a1"/><state id="a2"/></state>
              <state id="b"><state id="b1"/></state>
            </parallel>
          </state>
        </scxml>
        """.utf8), file: "nested.scxml")
        #expect(nested.validate().filter { $0.kind == .conflictingTargets }.map(\.description) == [
            "nested.scxml:2:3: error: the initial states of state 's' are 'a1' and 'a2', which cannot be active together: several initial states must lie in different regions of a parallel state",
        ])
    }

    @Test("A transition with several targets is drawn as an edge to each; a diff names every target")
    func drawnAndDiffed() throws {
        let spec = try FlowFile.parseSCXML(Array(Self.regions.utf8), file: "regions.scxml")
        let graph = FlowDiagram(spec)
        let idle = try #require(graph.id(ofLabel: "idle"))
        let targets = graph.edges.filter { $0.from == idle && $0.label == "go" }.map(\.to)
        #expect(Set(targets) == Set([graph.id(ofLabel: "a2"), graph.id(ofLabel: "b2")].compactMap { $0 }), "\(graph.edges)")
        var changed = spec
        changed.states[0].transitions[0].targets = ["a1", "b2"]
        let diff = FlowDiff(old: spec, new: changed)
        #expect(diff.changes.map(\.description) == ["~ transition idle --go-->: target: a2 b2 -> a1 b2"])
    }

    @Test("Simulated: every region's leaf, exits in reverse document order, done.state from the engine")
    func simulated() throws {
        let spec = try FlowFile.parseSCXML(Array(Self.regions.utf8), file: "regions.scxml")
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        try simulation.send("go")
        #expect(simulation.configuration == ["b2", "b", "a2", "a", "p"])
        try simulation.send("next")  // a2 -> aDone (done.state.a); b2 has no 'next'
        #expect(simulation.configuration == ["b2", "b", "aDone", "a", "p"])
        try simulation.send("finish")  // bDone: done.state.b, then done.state.p -> idle
        #expect(simulation.configuration == ["idle"])
        #expect(simulation.records.map(\.description) == [
            "start --> idle",
            "idle --go--> a2, b2",
            "a2, b2 --next--> aDone, b2",
            "aDone, b2 ignores done.state.a",
            "aDone, b2 --finish--> aDone, bDone",
            "aDone, bDone ignores done.state.b",
            "aDone, bDone --done.state.p--> idle / left p  (internal)",
        ])
    }

    @Test("The example of docs/flowspec.md: player.scxml simulates and explores")
    func player() throws {
        let spec = try readSpec("player.scxml")
        #expect(spec.validate().filter { $0.severity == .error }.isEmpty)
        let simulation = try FlowSimulation(spec)
        for event in ["play", "toggleSound", "toggleSize"] { try simulation.send(SpecEvent(event)) }
        #expect(simulation.configuration == ["full", "video", "audible", "audio", "playing"])
        try simulation.send("end")
        #expect(simulation.configuration == ["idle"])
        let paths = try FlowFilePathfinder(spec)
        #expect(paths.unreachable.isEmpty, "\(paths.unreachable)")
        #expect(paths.uncovered.isEmpty, "\(paths.uncovered.map { $0.event ?? "" })")
        #expect(paths.reached.contains("audible") && paths.reached.contains("full"))
        #expect(paths.isPassedThrough("watched"))
        // Each path replays in the simulation to a configuration holding its state.
        for state in ["audible", "full"] {
            let path = try #require(paths.shortestPath(to: state))
            let replay = try FlowSimulation(spec)
            for event in path { try replay.send(event) }
            #expect(replay.configuration.contains(state), "\(state): \(path)")
        }
        // Configurations, not leaves: {audible, full} is reached although audible and full are each
        // reached earlier in other configurations.
        #expect(paths.cover.count >= 2)
    }

    @Test("A JSON spec with parallel states: a final in a region raises done.state.<region> for the file")
    func jsonSemantics() throws {
        let spec = try FlowFile.parse("""
        {"flowspec": 1, "name": "j", "initial": "p", "states": [
          {"name": "p", "parallel": true,
           "transitions": [{"event": "done.state.r1", "target": "out"}],
           "states": [
            {"name": "r1", "states": [{"name": "x", "transitions": [{"event": "go", "target": "xDone"}]}, {"name": "xDone", "final": true}]},
            {"name": "r2", "states": [{"name": "y"}]}]},
          {"name": "out", "final": true}]}
        """, file: "j.json")
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        #expect(simulation.configuration == ["y", "r2", "x", "r1", "p"])
        try simulation.send("go")
        #expect(simulation.isFinished)
        #expect(simulation.configuration == ["out"])
    }

    @Test("The SCION corpus' document with several targets simulates to both targets")
    func scionTest9() throws {
        let folder = try #require(SCIONCorpus.folder)
        let path = folder.appendingPathComponent("more-parallel/test9.scxml").path
        let spec = try FlowFile.parseSCXML(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        #expect(simulation.configuration == ["x"])
        try simulation.send("t")
        #expect(Set(simulation.configuration) == ["a22", "a2", "a", "b22", "b2", "b", "p"])
    }
}

extension ParallelSpecTests {
    enum Tabs: Flow {
        typealias State = String
        typealias Event = String
        typealias Effect = String
        typealias Output = Void
    }

    @Test("A Swift definition with Parallel and several targets writes a spec that reads, runs and draws the same")
    func exported() throws {
        let definition = FlowDefinition<Tabs>("tabs", initial: "idle") {
            StateNode("idle") { On("deep", to: ["b1", "c2"]) }
            Parallel("p") {
                StateNode("b") { StateNode("b0"); StateNode("b1") }
                StateNode("c") { StateNode("c0"); StateNode("c2") }
                On("back", to: "idle")
            }
        }
        #expect(definition.isValid, "\(definition.validate())")
        let spec = FlowFile(definition)
        #expect(spec.states[1].isParallel)
        #expect(spec.states[0].transitions[0].targets == ["b1", "c2"])
        let read = try FlowFile.parse(spec.json(), file: "tabs.json")
        let simulation = try FlowSimulation(read)
        try simulation.send("deep")
        #expect(simulation.configuration == ["c2", "c", "b1", "b", "p"])
        #expect(FlowDiagram(read).edges.filter { $0.label == "deep" }.count == 2)
    }
}
