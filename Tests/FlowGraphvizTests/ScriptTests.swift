@testable import FlowGraph
@testable import FlowGraphviz
import FlowTestSupport
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

/// A flow whose states are named in every sample script, with transitions between them.
func scriptGraph(_ labels: [String]) -> FlowDiagram {
    let nodes = labels.enumerated().map { FlowDiagram.Node(id: "s\($0)", label: $1, kind: .state) }
    let edges = labels.indices.dropLast().map {
        FlowDiagram.Edge(from: "s\($0)", to: "s\($0 + 1)", label: "→ \(labels[$0 + 1])", events: ["e\($0)"])
    }
    return FlowDiagram(name: "scripts", initial: "s0", nodes: nodes, edges: edges)
}

/// zlib's `uncompress`, loaded at run time from the library cairo itself links (no headers or link
/// flags): enough to read the pixels of a PNG and the images of a PDF.
enum Zlib {
    typealias Uncompress = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt>?,
                                           UnsafePointer<UInt8>?, UInt) -> Int32

    static func inflate(_ data: [UInt8], size: Int) -> [UInt8]? {
        var function: Uncompress?
        for name in ["libz.so.1", "libz.so", "libz.dylib"] {
            if let handle = dlopen(name, RTLD_NOW), let symbol = dlsym(handle, "uncompress") {
                function = unsafeBitCast(symbol, to: Uncompress.self)
                break
            }
        }
        guard let uncompress = function, size > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: size)
        var length = UInt(size)
        let status = out.withUnsafeMutableBufferPointer { target in
            data.withUnsafeBufferPointer { source in uncompress(target.baseAddress, &length, source.baseAddress, UInt(source.count)) }
        }
        return status == 0 ? Array(out.prefix(Int(length))) : nil
    }
}

/// Pixels as red, green, blue (and alpha) bytes, `channels` a pixel.
struct Pixels {
    var width: Int
    var height: Int
    var channels: Int
    var data: [UInt8]

    /// How many opaque pixels are strongly colored (their channels far apart): black text, gray
    /// antialiasing and white paper have none.
    var coloredCount: Int {
        var count = 0
        var i = 0
        while i + 2 < data.count {
            let (r, g, b) = (Int(data[i]), Int(data[i + 1]), Int(data[i + 2]))
            let opaque = channels < 4 || data[i + 3] > 128
            if opaque && max(r, g, b) - min(r, g, b) > 96 { count += 1 }
            i += channels
        }
        return count
    }

    /// A PNG's pixels (8-bit RGB or RGBA, not interlaced, as cairo writes them), or `nil`.
    static func png(_ bytes: [UInt8]) -> Pixels? {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var (width, height, channels) = (0, 0, 0)
        var compressed: [UInt8] = []
        var i = 8
        while i + 8 <= bytes.count {
            let length = be32(i), body = i + 8
            guard length >= 0, body + length + 4 <= bytes.count else { return nil }
            switch String(decoding: bytes[i + 4..<body], as: UTF8.self) {
            case "IHDR":
                guard bytes[body + 8] == 8, bytes[body + 12] == 0 else { return nil }
                (width, height) = (be32(body), be32(body + 4))
                channels = [2: 3, 6: 4][Int(bytes[body + 9])] ?? 0
            case "IDAT":
                compressed += bytes[body..<body + length]
            default:
                break
            }
            i = body + length + 4
        }
        let stride = width * channels
        guard channels > 0, width > 0, height > 0,
              let raw = Zlib.inflate(compressed, size: height * (stride + 1)), raw.count == height * (stride + 1) else { return nil }
        var out = [UInt8](repeating: 0, count: height * stride)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            for x in 0..<stride {
                let a = x >= channels ? Int(out[y * stride + x - channels]) : 0
                let b = y > 0 ? Int(out[(y - 1) * stride + x]) : 0
                let c = x >= channels && y > 0 ? Int(out[(y - 1) * stride + x - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                    predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: return nil
                }
                out[y * stride + x] = UInt8((Int(raw[y * (stride + 1) + 1 + x]) + predicted) & 0xFF)
            }
        }
        return Pixels(width: width, height: height, channels: channels, data: out)
    }

    /// The RGB images of a PDF (as cairo writes them: Flate-compressed image XObjects).
    static func pdfImages(_ bytes: [UInt8]) -> [Pixels] {
        let text = String(decoding: bytes.map { $0 < 0x80 ? $0 : 0x3F }, as: UTF8.self)  // byte offsets kept
        var images: [Pixels] = []
        var searchFrom = text.startIndex
        while let marker = text.range(of: "/ColorSpace /DeviceRGB", range: searchFrom..<text.endIndex) {
            searchFrom = marker.upperBound
            guard let start = text.range(of: "<<", options: .backwards, range: text.startIndex..<marker.lowerBound),
                  let streamStart = text.range(of: "stream", range: marker.upperBound..<text.endIndex),
                  let end = text.range(of: "endstream", range: streamStart.upperBound..<text.endIndex) else { continue }
            let dictionary = String(text[start.lowerBound..<streamStart.lowerBound])
            func number(_ key: String) -> Int? {
                guard let range = dictionary.range(of: key + " ") else { return nil }
                return Int(dictionary[range.upperBound...].prefix { $0.isNumber })
            }
            guard dictionary.contains("/Subtype /Image"), dictionary.contains("/FlateDecode"),
                  let width = number("/Width"), let height = number("/Height") else { continue }
            var first = text.utf8.distance(from: text.startIndex, to: streamStart.upperBound)
            while first < bytes.count, bytes[first] == 0x0D || bytes[first] == 0x0A { first += 1 }
            let last = text.utf8.distance(from: text.startIndex, to: end.lowerBound)
            guard first < last, let data = Zlib.inflate(Array(bytes[first..<last]), size: width * height * 3) else { continue }
            images.append(Pixels(width: width, height: height, channels: 3, data: data))
        }
        return images
    }
}

/// Emoji of recent Unicode versions: U+1FAE0 melting face and U+1F979 face holding back tears
/// (Unicode 14), U+1FAE8 shaking face (Unicode 15). Symbola (Unicode 9) has none of them.
let recentEmoji = "\u{1FAE0} \u{1F979} \u{1FAE8}"

@Suite("FlowGraphviz: every script")
struct ScriptTests {
    /// The families of the default font list, and what fontconfig draws each with on this machine
    /// (a listed family that is not installed is drawn with its alias or metric-compatible clone:
    /// Helvetica with Liberation Sans, or with Nimbus Sans where the URW base fonts are installed).
    static let listed: Set<String> = {
        let names = DOTWriter.defaultFontName.split(separator: ",").map { String($0) }
        return Set(names + names.compactMap { FontCoverage.resolvedFamily(of: $0) })
    }()

    @Test("An installed font has every sample character, and it is a font of the default list", arguments: scriptSamples.map(\.script))
    func fontsCoverEveryScript(script: String) throws {
        let text = try #require(scriptSamples.first { $0.script == script }).text
        #expect(FontCoverage.missingCharacters(in: text) == [], "\(script) has characters no installed font draws (make deps)")
        for scalar in text.unicodeScalars where !scalar.properties.isWhitespace {
            let family = FontCoverage.family(for: scalar)
            #expect(family.map { Self.listed.contains($0) } == true,
                    "U+\(String(scalar.value, radix: 16)) in \(script) is drawn with \(family ?? "no font"), not a font of the list")
        }
    }

    @Test("A listed family resolves to what fontconfig substitutes for it: itself when installed, else a clone")
    func resolvedFamilies() {
        #expect(FontCoverage.resolvedFamily(of: "DejaVu Sans") == "DejaVu Sans")
        #expect(FontCoverage.resolvedFamily(of: "WenQuanYi Micro Hei") == "WenQuanYi Micro Hei")
        // Helvetica itself is not installed by `make deps`: fontconfig names what it substitutes
        // (Liberation Sans, or Nimbus Sans where the URW base fonts are installed).
        #expect(FontCoverage.resolvedFamily(of: "Helvetica") != nil)
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
                if let family = FontCoverage.drawingFamily(for: scalar) { families.insert(family) }
            }
        }
        #expect(families.contains("WenQuanYi Micro Hei") && families.contains("DejaVu Sans"))
        // A color emoji font's glyphs are bitmaps: cairo draws them as images, not as an embedded
        // font (`colorEmoji` checks those images).
        for family in families where family != "Noto Color Emoji" {
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

    @Test("Emoji of recent Unicode versions are found in the color emoji font, and PNG and PDF draw them in color")
    func colorEmoji() throws {
        for scalar in recentEmoji.unicodeScalars where !scalar.properties.isWhitespace {
            let hex = "U+" + String(scalar.value, radix: 16, uppercase: true)
            #expect(FontCoverage.drawingFamily(for: scalar) == "Noto Color Emoji", "\(hex) (make deps installs fonts-noto-color-emoji)")
            #expect(FontCoverage.family(for: scalar) != nil && FontCoverage.family(for: scalar) != "Symbola", "\(hex)")
        }
        #expect(FontCoverage.missingCharacters(in: recentEmoji) == [])
        #expect(FontCoverage.unknownGlyphCount(in: recentEmoji) == 0, "Pango finds a glyph for each")
        // Older emoji are drawn in color too; a character without emoji presentation keeps the list's font.
        #expect(FontCoverage.drawingFamily(for: "🚀") == "Noto Color Emoji")
        #expect(FontCoverage.drawingFamily(for: "✓") == FontCoverage.family(for: "✓") && FontCoverage.drawingFamily(for: "✓") != "Noto Color Emoji")
        #expect(FontCoverage.drawingFamily(for: missingCharacter) == nil)

        // PNG: the emoji's pixels are colored; the same picture with text alone has none.
        let emoji = scriptGraph([recentEmoji, "🚀 go"])
        let plain = scriptGraph(["melting face", "go"])
        let colored = try #require(Pixels.png(try GraphvizRenderer.shared.render(emoji, format: .png)), "a PNG")
        let uncolored = try #require(Pixels.png(try GraphvizRenderer.shared.render(plain, format: .png)))
        #expect(colored.coloredCount > 200, "\(colored.coloredCount) colored pixels")
        #expect(uncolored.coloredCount == 0, "black text on white: \(uncolored.coloredCount)")
        // PDF: cairo draws each color glyph as an RGB image with colored pixels; text alone has none.
        let images = Pixels.pdfImages(try GraphvizRenderer.shared.render(emoji, format: .pdf))
        #expect(images.count >= 3 && images.allSatisfy { $0.coloredCount > 20 }, "\(images.map(\.coloredCount))")
        #expect(Pixels.pdfImages(try GraphvizRenderer.shared.render(plain, format: .pdf)).isEmpty)
        // SVG keeps the characters; the viewer draws them with its fonts.
        let svg = try #require(SVGTextCollector.collect(try GraphvizRenderer.shared.render(emoji, format: .svg)))
        #expect(svg.texts.contains(recentEmoji))
        #expect(try GraphvizRenderer.shared.legibility(of: emoji) == [])
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
