import FlowGraph
@testable import FlowGraphviz
@testable import FlowSpec
import FlowSpecTestSupport
import FlowTestSupport
import Flowstate
import Foundation
import Testing

// Flow files drawn by Graphviz: the corpora's documents, and the flows that once broke it.

/// The lines of text an SVG draws (Graphviz writes runs of spaces as no-break spaces).
func drawnLines(_ svg: [UInt8]) -> [String] {
    SVGTextCollector.collect(svg)?.texts.map { $0.replacingOccurrences(of: "\u{A0}", with: " ") } ?? []
}

@Suite("SCXML corpus drawn: every document renders, with its data")
struct CorpusDrawingTests {
    @Test("Every corpus document reads, validates without errors, renders, and draws its data", arguments: SCXMLCorpus.documents())
    func corpusDocument(_ name: String) throws {
        let spec = try FlowFile.parseSCXML(try SCXMLCorpus.bytes(name), file: name)
        if spec.states.isEmpty {
            // Nothing to validate: the reader says so, as a warning (flowviz validate passes it).
            #expect(spec.warnings.map(\.message) == ["<scxml> contains no <state>, <parallel> or <final>: there is nothing to run"])
        } else {
            let errors = spec.validate().filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(errors.map(\.description))")
        }
        var graph = FlowDiagram(spec)
        graph.showKeptSCXML(of: spec)
        let svg = try GraphvizRenderer.shared.render(graph, format: .svg)
        let text = String(decoding: svg, as: UTF8.self)
        #expect(text.hasPrefix("<?xml") || text.contains("<svg"), "\(name)")
        for state in spec.statesInDocumentOrder where !state.data.isEmpty {
            let first = try #require(FlowFile.dataLines(state.data).first)
            #expect(drawnLines(svg).contains(first), "\(name): '\(first)' drawn under state '\(state.name)'")
        }
    }
}

/// The SCION test framework's documents (`SCIONCorpusTests` in FlowSpecTests reads and runs them).
@Suite("SCXML corpus drawn: the SCION test framework's documents")
struct SCIONDrawingTests {
    @Test("Every document reads, validates without an error, draws as DOT that Graphviz parses, and writes back as the same spec")
    func everyDocument() throws {
        let folder = try #require(SCIONCorpus.folder)
        var read = 0, history = 0, internals = 0
        for name in SCIONCorpus.documents() {
            let path = folder.appendingPathComponent(name).path
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            if let message = SCIONCorpus.refused[name] {
                #expect(throws: FlowSpecError.self) { try FlowFile.parseSCXML(bytes, file: path) }
                do {
                    _ = try FlowFile.parseSCXML(bytes, file: path)
                } catch {
                    #expect(error.description == "\(path):\(message)")
                }
                continue
            }
            let spec: FlowFile
            do {
                spec = try FlowFile.parseSCXML(bytes, file: path)
            } catch {
                Issue.record("\(name): \(error)")
                continue
            }
            read += 1
            let errors = spec.validate().filter { $0.severity == .error }
            #expect(errors.isEmpty, "\(name): \(errors.map(\.description))")
            let dot = DOTWriter.dot(FlowDiagram(spec))
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
}

@Suite("Regressions")
struct RegressionTests {
    @Test("A clustered flow with labelled cycles renders in-process (Graphviz 2.43 double-frees on edge labels there; make sanitize checks)")
    func clusteredCycleRenders() throws {
        let spec = try readSpec("door.scxml")
        for format in [RenderFormatName.svg, .png] {
            let bytes = try GraphvizRenderer.shared.render(FlowDiagram(spec), format: format.format)
            #expect(!bytes.isEmpty)
        }
        var graph = FlowDiagram(spec)
        LayoutPolicy.bound(&graph)
        #expect(graph.externalEdgeLabels, "clusters get external edge labels")
    }

    enum RenderFormatName { case svg, png
        var format: RenderFormat { self == .svg ? .svg : .png }
    }
}
