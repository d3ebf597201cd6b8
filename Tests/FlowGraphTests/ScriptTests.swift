import FlowGraph
import FlowGraphviz
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Labels in every script the exporter must draw.
let scriptSamples: [(script: String, text: String)] = [
    ("Chinese", "确认订单"),
    ("Japanese", "注文を確認する"),
    ("Korean", "주문 확인"),
    ("Arabic", "تأكيد الطلب"),
    ("Hebrew", "אישור הזמנה"),
    ("emoji", "🚀 📦 ✅ 😀"),
    ("combining", "e\u{301} n\u{303} a\u{310}\u{308} Zo\u{308}e"),
]

/// A character no font has (the last private-use character of plane 16).
let missingCharacter: Unicode.Scalar = "\u{10FFFD}"

/// The text of an SVG's `<text>` elements and their `font-family` attributes.
final class SVGTextCollector: NSObject, XMLParserDelegate {
    var texts: [String] = []
    var families: Set<String> = []
    private var current: String?
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard name == "text" else { return }
        current = ""
        if let family = attributes["font-family"] { families.insert(family) }
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) { current? += string }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text", let text = current { texts.append(text) }
        current = nil
    }
    static func collect(_ svg: [UInt8]) -> SVGTextCollector? {
        let parser = XMLParser(data: Data(svg))
        let collector = SVGTextCollector()
        parser.delegate = collector
        return parser.parse() ? collector : nil
    }
}

/// A flow whose states are named in every sample script, with transitions between them.
func scriptGraph(_ labels: [String]) -> FlowGraph {
    let nodes = labels.enumerated().map { FlowGraph.Node(id: "s\($0)", label: $1, kind: .state) }
    let edges = labels.indices.dropLast().map {
        FlowGraph.Edge(from: "s\($0)", to: "s\($0 + 1)", label: "→ \(labels[$0 + 1])", events: ["e\($0)"])
    }
    return FlowGraph(name: "scripts", initial: "s0", nodes: nodes, edges: edges)
}

@Suite("FlowGraphviz: every script")
struct ScriptTests {
    /// The families of the default font list.
    static let listed = Set(DOTWriter.defaultFontName.split(separator: ",").map { String($0) })

    @Test("An installed font has every sample character, and it is a font of the default list", arguments: scriptSamples.map(\.script))
    func fontsCoverEveryScript(script: String) throws {
        let text = try #require(scriptSamples.first { $0.script == script }).text
        #expect(FontCoverage.missingCharacters(in: text) == [], "\(script) has characters no installed font draws (make deps)")
        for scalar in text.unicodeScalars where !scalar.properties.isWhitespace {
            let family = FontCoverage.family(for: scalar)
            #expect(family.map { Self.listed.contains($0) || $0 == "Liberation Sans" } == true,
                    "U+\(String(scalar.value, radix: 16)) in \(script) is drawn with \(family ?? "no font"), not a font of the list")
        }
    }

    @Test("Chinese, Japanese and Korean come from the CJK font; a character no font has is found missing")
    func chosenFonts() {
        #expect(FontCoverage.isAvailable, "fontconfig loads (Graphviz's text layout needs it)")
        for scalar in "确を주".unicodeScalars { #expect(FontCoverage.family(for: scalar) == "WenQuanYi Micro Hei") }
        #expect(FontCoverage.family(for: "ت") == "DejaVu Sans")
        #expect(FontCoverage.family(for: missingCharacter) == nil)
        #expect(FontCoverage.missingCharacters(in: "ok \(missingCharacter)") == [missingCharacter])
    }

    @Test("Pango, which draws PNG and PDF, finds a glyph for every sample character (and not for a missing one)")
    func pangoDrawsGlyphs() throws {
        for (script, text) in scriptSamples {
            #expect(FontCoverage.unknownGlyphCount(in: text) == 0, "\(script) would be drawn as boxes")
        }
        #expect(FontCoverage.unknownGlyphCount(in: "a\(missingCharacter)b") == 1, "the check can fail")
        #expect(FontCoverage.unknownGlyphCount(in: "a\(missingCharacter)b", fontName: "DejaVu Sans") == 1)
    }

    @Test("PNG and PDF renders carry the glyphs of the fonts that cover each script")
    func pdfEmbedsTheCoveringFonts() throws {
        let graph = scriptGraph(scriptSamples.map(\.text))
        let png = try GraphvizRenderer.shared.render(graph, format: .png)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let pdf = String(decoding: try GraphvizRenderer.shared.render(graph, format: .pdf), as: Unicode.ASCII.self)
        var families: Set<String> = []
        for (_, text) in scriptSamples {
            for scalar in text.unicodeScalars where !scalar.properties.isWhitespace {
                if let family = FontCoverage.family(for: scalar) { families.insert(family) }
            }
        }
        #expect(families.contains("WenQuanYi Micro Hei") && families.contains("DejaVu Sans"))
        for family in families {
            // Cairo embeds a subset of each font it draws with, named `/FontName /ABCDEF+PostScriptName`.
            let postScript = family.replacingOccurrences(of: " ", with: "")
            #expect(pdf.contains("+\(postScript)"), "the PDF draws with \(family)")
        }
        // A label no font can draw is found by the legibility check, naming the character.
        let problems = try GraphvizRenderer.shared.legibility(of: scriptGraph(["fine", "bad \(missingCharacter)"]))
        #expect(problems.map(\.kind) == [.missingGlyphs([missingCharacter]), .missingGlyphs([missingCharacter])],
                "the state's label and the label of the edge into it")
        #expect(problems.first?.description.contains("U+10FFFD") == true)
        #expect(try GraphvizRenderer.shared.legibility(of: graph) == [], "every script is drawn, without overlaps")
    }

    @Test("SVG keeps every script's text exactly, with the font list for the viewer")
    func svgText() throws {
        let svg = try GraphvizRenderer.shared.render(scriptGraph(scriptSamples.map(\.text)), format: .svg)
        let collected = try #require(SVGTextCollector.collect(svg), "well-formed XML")
        for (script, text) in scriptSamples {
            #expect(collected.texts.contains(text), "\(script): \(text)")
            #expect(collected.texts.contains("→ \(text)") || script == scriptSamples[0].script)
        }
        #expect(collected.families == [DOTWriter.defaultFontName])
    }

    @Test("DOT, SVG and Mermaid escape quotes, backslashes, markup and control characters in any script")
    func escaping() throws {
        let tricky = "say \"注文\" <b> & \\ 🚀\u{1}\u{7F}\tend"
        #expect(DOTWriter.quote(tricky) == "\"say \\\"注文\\\" <b> &amp; \\\\ 🚀   end\"")
        #expect(DOTWriter.quote("a\nب\r") == "\"a\\nب\\r\"")
        #expect(MermaidWriter.escape("a:b;c#d\"e\nf\u{1}g{h}|[i]<j>\\ 😀 שלום")
            == "a#58;b#59;c#35;d#quot;e<br/>f g#123;h#125;#124;#91;i#93;#lt;j#gt;#92; 😀 שלום")

        let labels = [tricky, "line one\nשורה שתיים", "x & y; \"z\""]
        let graph = scriptGraph(labels)
        let parsed = try GraphvizRenderer.shared.parse(dot: DOTWriter.dot(graph))
        #expect(parsed.nodes == labels.count + 1, "every label parses (and the start point)")
        let collected = try #require(SVGTextCollector.collect(try GraphvizRenderer.shared.render(graph, format: .svg)))
        // Graphviz keeps runs of spaces in SVG as no-break spaces.
        let texts = collected.texts.map { $0.replacingOccurrences(of: "\u{A0}", with: " ") }
        #expect(texts.contains("say \"注文\" <b> & \\ 🚀   end"), "controls drawn as spaces: \(texts)")
        #expect(texts.contains("line one") && texts.contains("שורה שתיים"))
        #expect(texts.contains("x & y; \"z\""))

        let mermaid = MermaidWriter.mermaid(graph)
        #expect(mermaid.contains("state \"say #quot;注文#quot; #lt;b#gt; & #92; 🚀   end\" as s0"))
        #expect(mermaid.contains("state \"line one<br/>שורה שתיים\" as s1"))
        #expect(!mermaid.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no control character survives")
    }
}
