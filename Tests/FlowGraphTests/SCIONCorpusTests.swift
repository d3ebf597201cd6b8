import FlowGraph
import FlowGraphviz
@testable import FlowSpec
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
    static var folder: URL? { SCXMLCorpus.folder?.appendingPathComponent("scion") }

    /// Every document, by its path under `Corpus/scion`.
    static func documents() -> [String] {
        guard let folder, let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".scxml") }.sorted()
    }

    /// The documents not read yet, with the message each is refused with.
    static let refused: [String: String] = [:]

    /// The documents that name several states in a `target` or `initial`.
    static let severalTargets = [
        "more-parallel/test9.scxml", "w3c-ecma/test364.txml.scxml", "w3c-ecma/test413.txml.scxml",
        "w3c-ecma/test576.txml.scxml",
    ]

    @Test("The corpus is whole: 282 documents, its provenance and license beside them")
    func whole() throws {
        let folder = try #require(Self.folder)
        #expect(Self.documents().count == 282)
        let provenance = try String(contentsOf: folder.appendingPathComponent("PROVENANCE.md"), encoding: .utf8)
        #expect(provenance.contains("64aa8fb9a4ae9e2d729dfde1a81b1411d9aa67a2"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("LICENSE.txt").path))
    }

    @Test("Every document reads, validates without an error, draws as DOT that Graphviz parses, and writes back as the same spec")
    func everyDocument() throws {
        let folder = try #require(Self.folder)
        var read = 0, history = 0, internals = 0
        for name in Self.documents() {
            let path = folder.appendingPathComponent(name).path
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            if let message = Self.refused[name] {
                #expect(throws: FlowSpecError.self) { try FlowSpec.parseSCXML(bytes, file: path) }
                do {
                    _ = try FlowSpec.parseSCXML(bytes, file: path)
                } catch {
                    #expect(error.description == "\(path):\(message)")
                }
                continue
            }
            let spec: FlowSpec
            do {
                spec = try FlowSpec.parseSCXML(bytes, file: path)
            } catch {
                Issue.record("\(name): \(error)")
                continue
            }
            read += 1
            let errors = spec.validate().filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(name): \(errors.map(\.description))")
            let dot = DOTWriter.dot(FlowGraph(spec))
            let parsed = try GraphvizRenderer.shared.parse(dot: dot)
            #expect(parsed.nodes >= spec.statesInDocumentOrder.filter(\.states.isEmpty).count, "\(name)")
            try expectRoundTrip(bytes, file: path)
            let states = spec.statesInDocumentOrder
            if states.contains(where: { $0.history != nil }) { history += 1 }
            if states.contains(where: { $0.transitions.contains(where: \.isInternal) }) { internals += 1 }
        }
        #expect(read == 282)
        #expect(history == 9 && internals >= 5, "history: \(history), internal: \(internals)")
    }

    @Test("The documents with several targets or initial states read them all")
    func severalTargetsRead() throws {
        let folder = try #require(Self.folder)
        for name in Self.severalTargets {
            let path = folder.appendingPathComponent(name).path
            let spec = try FlowSpec.parseSCXML(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
            let several = spec.initialStates.count > 1 || spec.statesInDocumentOrder.contains {
                $0.initialStates.count > 1 || $0.transitions.contains { $0.targets.count > 1 }
            }
            #expect(several, "\(name)")
        }
    }

    @Test("History states are drawn H and H*, internal transitions dotted; simulate runs both")
    func historyAndInternal() throws {
        let spec = try FlowSpec.parseSCXML("""
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
        let graph = FlowGraph(spec)
        let last = try #require(graph.nodes.first { $0.label == "last" })
        #expect(last.attributes["label"] == "H*" && last.attributes["shape"] == "circle")
        #expect(graph.edges.contains { $0.label == "refresh (internal)" && $0.attributes["style"] == "dotted" })
        #expect(try FlowSpec.parse(spec.json(), file: "tabs.json").json() == spec.json(), "JSON keeps both")
        #expect(try FlowSpec.parseSCXML(spec.scxml(), file: "again.scxml").json() == spec.json(), "SCXML keeps both")
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
