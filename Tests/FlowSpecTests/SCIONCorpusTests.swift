import FlowGraph
@testable import FlowSpec
import FlowSpecTestSupport
import Flowstate
import Foundation
import Testing

/// The SCION test framework's 282 SCXML documents (`Corpus/scion`, provenance in its
/// `PROVENANCE.md`): real documents written by others, with data models, scripts, history states,
/// internal transitions and parallel regions. Every one reads, validates without an error, draws, and
/// writes back to SCXML that reads as the same spec (the four that name several states in a `target`
/// or `initial` too, since issue 24).
@Suite("SCXML corpus: the SCION test framework's documents")
struct SCIONCorpusTests {
    /// The documents that name several states in a `target` or `initial`.
    static let severalTargets = [
        "more-parallel/test9.scxml", "w3c-ecma/test364.txml.scxml", "w3c-ecma/test413.txml.scxml",
        "w3c-ecma/test576.txml.scxml",
    ]

    @Test("The corpus is whole: 282 documents, its provenance and license beside them")
    func whole() throws {
        let folder = try #require(SCIONCorpus.folder)
        #expect(SCIONCorpus.documents().count == 282)
        let provenance = try String(contentsOf: folder.appendingPathComponent("PROVENANCE.md"), encoding: .utf8)
        #expect(provenance.contains("64aa8fb9a4ae9e2d729dfde1a81b1411d9aa67a2"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("LICENSE.txt").path))
    }

    @Test("The documents with several targets or initial states read them all")
    func severalTargetsRead() throws {
        let folder = try #require(SCIONCorpus.folder)
        for name in Self.severalTargets {
            let path = folder.appendingPathComponent(name).path
            let spec = try FlowFile.parseSCXML(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
            let several = spec.initialStates.count > 1 || spec.statesInDocumentOrder.contains {
                $0.initialStates.count > 1 || $0.transitions.contains { $0.targets.count > 1 }
            }
            #expect(several, "\(name)")
        }
    }

    @Test("History states are drawn H and H*, internal transitions dotted; simulate runs both")
    func historyAndInternal() throws {
        let spec = try FlowFile.parseSCXML("""
        <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="app">
          <state id="app">
            <history id="last" type="deep"><transition target="home"/></history>
            <state id="home"><transition event="next" target="detail"/></state>
            <state id="detail"/>
            <transition event="refresh" target="detail" type="internal"/>
            <transition event="interrupt" target="alert"/>
          </state>
          <state id="alert"><transition event="resume" target="last"/></state>
        </scxml>
        """, file: "tabs.scxml")
        let app = spec.states[0]
        #expect(app.initial == "home", "the default initial child is the first that is not a history")
        #expect(app.states[0].history == .deep && app.states[0].transitions[0].target == "home")
        #expect(app.transitions[0].isInternal)
        let graph = FlowDiagram(spec)
        let last = try #require(graph.nodes.first { $0.label == "last" })
        #expect(last.attributes["label"] == "H*" && last.attributes["shape"] == "circle")
        #expect(graph.edges.contains { $0.label == "refresh (internal)" && $0.attributes["style"] == "dotted" })
        #expect(try FlowFile.parse(spec.json(), file: "tabs.json").json() == spec.json(), "JSON keeps both")
        #expect(try FlowFile.parseSCXML(spec.scxml(), file: "again.scxml").json() == spec.json(), "SCXML keeps both")
        #expect(spec.validate().filter { $0.severity == .error }.isEmpty)
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        try simulation.send("refresh")  // internal: app stays, home is left for detail
        #expect(simulation.configuration == ["detail", "app"])
        try simulation.send("interrupt")
        try simulation.send("resume")  // the deep history remembers detail
        #expect(simulation.configuration == ["detail", "app"])
        // Both are generated as Swift now: the history (`History`) and the internal transition.
        let source = try spec.swiftSource()
        #expect(source.contains("History(") && source.contains("type: .internal"))
    }
}
