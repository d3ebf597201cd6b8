import FlowSpec
import Flowstate
import Testing

/// Issue 37, item 1, for flow files: the engine's warning for a transition that exits and re-enters a
/// parallel state holding its target, with the file's place, once per transition however many event
/// descriptors it declares.
@Suite("Flow files: a transition that re-enters its parallel state")
struct ParallelReentryFileTests {
    static let tabs = """
        <scxml initial="main" xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null">
          <parallel id="main">
            <onentry><log label="showTabs"/></onentry>
            <state id="selection" initial="onA">
              <state id="onA"/>
              <state id="onB"/>
              <transition event="selectB tab.b" target="onB"/>
            </state>
            <state id="stack" initial="root">
              <state id="root"><transition event="open" target="detail"/></state>
              <state id="detail"/>
            </state>
          </parallel>
        </scxml>
        """

    @Test("SCXML: one warning at the transition's line; declared internal, none")
    func scxml() throws {
        let spec = try FlowFile.parseSCXML(Array(Self.tabs.utf8), file: "tabs.scxml")
        let issues = spec.validate().filter { $0.kind == .reentersParallelState }
        #expect(issues.count == 1, "\(spec.validate())")
        #expect(issues.first?.severity == .warning)
        #expect(issues.first?.description.hasPrefix("tabs.scxml:7:") == true, "\(issues)")
        #expect(issues.first?.message.contains("parallel state 'main'") == true, "\(issues)")

        let kept = Self.tabs.replacing("<transition event=\"selectB tab.b\"",
                                  with: "<transition type=\"internal\" event=\"selectB tab.b\"")
        let internalSpec = try FlowFile.parseSCXML(Array(kept.utf8), file: "tabs.scxml")
        #expect(internalSpec.validate().filter { $0.kind == .reentersParallelState }.isEmpty, "\(internalSpec.validate())")
    }

    @Test("The simulation does what the warning says: the other region starts again, the entry runs again")
    func simulation() throws {
        let spec = try FlowFile.parseSCXML(Array(Self.tabs.utf8), file: "tabs.scxml")
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        try simulation.send("open")
        try simulation.send("selectB")
        #expect(simulation.configuration.contains("root") && !simulation.configuration.contains("detail"),
                "\(simulation.configuration)")
    }
}
