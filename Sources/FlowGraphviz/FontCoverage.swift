import CGraphviz
import FlowGraph

/// Which installed fonts draw a label's characters, as Graphviz's text layout (Pango, with
/// fontconfig) chooses them.
///
/// A `fontname` is a list of families (`DOTWriter.defaultFontName`); each character is drawn with
/// the first font, in fontconfig's order for that list, that has a glyph for it. A character no
/// installed font has is drawn as a box: ``missingCharacters(in:fontName:)`` names them, and the
/// legibility check (`GraphvizRenderer.legibility(of:)`) reports them.
public enum FontCoverage {
    // Guarded by `Graphviz.lock`: fontconfig's sorted fonts for each font name, and the answers given.
    nonisolated(unsafe) private static var sorted: [String: UnsafeMutablePointer<fs_font_set>] = [:]
    nonisolated(unsafe) private static var answers: [String: [UInt32: String?]] = [:]

    /// The family of the installed font that draws a character with a font name, or `nil` when no
    /// installed font has it.
    public static func family(for scalar: Unicode.Scalar, fontName: String = DOTWriter.defaultFontName) -> String? {
        Graphviz.locked { lockedFamily(for: scalar, fontName: fontName) }
    }

    /// The family of the installed font Graphviz's text layout (Pango) draws a character with in PNG
    /// and PDF: for a character Unicode presents as an emoji by default (its `Emoji_Presentation`
    /// property, for example 🚀 or 🫠), Pango asks fontconfig for the generic family `emoji` before
    /// the label's font list, and fontconfig gives the color emoji font when one is installed
    /// (Debian: fonts-noto-color-emoji, whose Noto Color Emoji covers Unicode 15 and draws in color
    /// through cairo); for any other character, the same as ``family(for:fontName:)``. `nil` when
    /// no installed font has it.
    public static func drawingFamily(for scalar: Unicode.Scalar, fontName: String = DOTWriter.defaultFontName) -> String? {
        Graphviz.locked {
            if scalar.properties.isEmojiPresentation, let emoji = lockedFamily(for: scalar, fontName: "emoji") { return emoji }
            return lockedFamily(for: scalar, fontName: fontName)
        }
    }

    /// The installed family fontconfig draws a family name with: the family itself when it is
    /// installed, else what fontconfig substitutes for it (an alias such as `sans-serif`'s default,
    /// or a metric-compatible clone: Liberation Sans or Nimbus Sans for Helvetica); `nil` when
    /// fontconfig cannot be loaded or knows no font.
    static func resolvedFamily(of family: String) -> String? {
        Graphviz.locked {
            guard let fonts = fonts(for: family) else { return nil }
            var buffer = [CChar](repeating: 0, count: 256)
            guard fs_fonts_first_family(fonts, &buffer, Int32(buffer.count)) == 1 else { return nil }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// Whether fontconfig, which Graphviz's text layout uses to find fonts, can be loaded to answer.
    /// Without it, ``family(for:fontName:)`` knows no font and ``missingCharacters(in:fontName:)``
    /// reports nothing.
    public static var isAvailable: Bool {
        Graphviz.locked { fonts(for: DOTWriter.defaultFontName) != nil }
    }

    /// The characters of a text that no installed font draws with a font name (whitespace, controls
    /// and invisible formatting characters, which have no glyph to draw, are not counted); empty
    /// when fontconfig is not available to tell.
    public static func missingCharacters(in text: String, fontName: String = DOTWriter.defaultFontName) -> [Unicode.Scalar] {
        Graphviz.locked {
            guard fonts(for: fontName) != nil else { return [] }
            var missing: [Unicode.Scalar] = []
            for scalar in text.unicodeScalars where isDrawn(scalar) && !missing.contains(scalar) {
                if lockedFamily(for: scalar, fontName: fontName) == nil { missing.append(scalar) }
            }
            return missing
        }
    }

    /// How many characters of a text Pango, as Graphviz's PNG and PDF renderers use it, draws as a
    /// missing-glyph box with a font name; `nil` when Pango cannot be loaded.
    static func unknownGlyphCount(in text: String, fontName: String = DOTWriter.defaultFontName,
                                         size: Double = 11) -> Int? {
        let count = Graphviz.locked { fs_pango_unknown_glyphs(fontName, size, text) }
        return count < 0 ? nil : Int(count)
    }

    /// Whether a character is drawn with a glyph (not whitespace, a control or a default-ignorable
    /// formatting character such as a zero-width joiner or a variation selector).
    static func isDrawn(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.properties.isWhitespace && !scalar.properties.isDefaultIgnorableCodePoint
            && scalar.properties.generalCategory != .control
    }

    /// fontconfig's sorted fonts for a font name, found once; called with the lock held.
    private static func fonts(for fontName: String) -> UnsafeMutablePointer<fs_font_set>? {
        if let known = sorted[fontName] { return known }
        guard let fonts = fs_fonts_sorted(fontName) else { return nil }
        sorted[fontName] = fonts
        return fonts
    }

    /// Called with the lock held.
    private static func lockedFamily(for scalar: Unicode.Scalar, fontName: String) -> String? {
        if let known = answers[fontName]?[scalar.value] { return known }
        guard let fonts = fonts(for: fontName) else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        let found = fs_fonts_family_for(fonts, scalar.value, &buffer, Int32(buffer.count)) == 1
        let family: String? = found ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        answers[fontName, default: [:]][scalar.value] = family
        return family
    }
}
