import FlowGraph
import Flowstate

/// An XML element that remembers where it was written (the `<` that opens it, and each attribute's
/// name), so every problem found later can name its line and column.
struct XMLNode: Sendable {
    /// The local name (a namespace prefix is dropped: `sc:state` is `state`).
    var name: String
    /// Attributes in the order written, by local name.
    var attributes: [(name: String, value: String, location: FlowSourceLocation)]
    /// Child elements in order (text, comments and processing instructions are not kept).
    var children: [XMLNode]
    /// Where the element opens.
    var location: FlowSourceLocation

    /// The value of an attribute.
    func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    /// Where an attribute was written (the element's place if it is absent).
    func location(of name: String) -> FlowSourceLocation {
        attributes.first { $0.name == name }?.location ?? location
    }
}

/// A non-validating XML 1.0 parser over UTF-8 bytes, enough for SCXML documents: elements, attributes,
/// the five predefined entities and character references, comments, CDATA sections, processing
/// instructions. A DOCTYPE is refused (no entity expansion, so no "billion laughs"). Depth and size
/// are bounded, so hostile input cannot exhaust the stack.
struct XMLParser {
    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    static let maxDepth = 256

    private init(_ bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// Parses a document and returns its root element.
    static func parse(_ bytes: [UInt8], file: String) throws(FlowSpecError) -> XMLNode {
        var parser = XMLParser(bytes, file: file)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }  // a UTF-8 byte order mark
        try parser.skipMisc()
        guard parser.index < bytes.count else { throw parser.error("the file is empty: expected an XML document") }
        guard parser.peek == UInt8(ascii: "<") else { throw parser.error("expected '<' to open the root element") }
        let root = try parser.parseElement()
        try parser.skipMisc()
        guard parser.index == bytes.count else { throw parser.error("unexpected content after the root element") }
        return root
    }

    // MARK: Positions and errors

    private var here: FlowSourceLocation {
        FlowSourceLocation(file: file, line: line, column: index - lineStart + 1)
    }

    private func error(_ message: String, at location: FlowSourceLocation? = nil) -> FlowSpecError {
        FlowSpecError(code: .malformedXML, message: message, location: location ?? here)
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }

    private func looking(at text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return index + utf8.count <= bytes.count && bytes[index..<index + utf8.count].elementsEqual(utf8)
    }

    private mutating func skip(_ text: String) {
        for _ in text.utf8 { advance() }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private mutating func skipSpace() {
        while let byte = peek, Self.isSpace(byte) { advance() }
    }

    /// Skips up to and including `terminator`, or fails naming what was left open.
    private mutating func skip(through terminator: String, opened what: String, at start: FlowSourceLocation)
        throws(FlowSpecError)
    {
        while index < bytes.count {
            if looking(at: terminator) {
                skip(terminator)
                return
            }
            advance()
        }
        throw error("unexpected end of file: \(what) opened at \(start.line):\(start.column) is not closed", at: here)
    }

    /// Whitespace, comments and processing instructions (the XML declaration among them).
    private mutating func skipMisc() throws(FlowSpecError) {
        while true {
            skipSpace()
            let start = here
            if looking(at: "<!--") {
                try skip(through: "-->", opened: "a comment", at: start)
            } else if looking(at: "<?") {
                try skip(through: "?>", opened: "a processing instruction", at: start)
            } else if looking(at: "<!DOCTYPE") || looking(at: "<!doctype") {
                throw error("a DOCTYPE is not allowed in a flow file")
            } else {
                return
            }
        }
    }

    // MARK: Names, attributes, elements

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"),
             UInt8(ascii: "."):
            true
        default:
            byte >= 0x80  // names may be any Unicode letter; UTF-8 continuation bytes are taken whole
        }
    }

    private mutating func parseName(_ what: String) throws(FlowSpecError) -> String {
        let start = index
        while let byte = peek, Self.isNameByte(byte) { advance() }
        guard index > start else {
            let found = peek.map { describe($0) } ?? "the end of the file"
            throw error("expected \(what), found \(found)")
        }
        let name = String(decoding: bytes[start..<index], as: UTF8.self)
        if let colon = name.lastIndex(of: ":") { return String(name[name.index(after: colon)...]) }
        return name
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func parseElement() throws(FlowSpecError) -> XMLNode {
        let start = here
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw error("elements are nested more than \(Self.maxDepth) deep") }
        advance()  // <
        let rawStart = index
        let name = try parseName("an element name")
        let rawName = String(decoding: bytes[rawStart..<index], as: UTF8.self)
        var node = XMLNode(name: name, attributes: [], children: [], location: start)
        while true {
            let hadSpace = peek.map(Self.isSpace) ?? false
            skipSpace()
            guard let byte = peek else { throw error("unexpected end of file inside <\(rawName)> opened at \(start.line):\(start.column)") }
            if byte == UInt8(ascii: "/") {
                advance()
                guard peek == UInt8(ascii: ">") else { throw error("expected '>' after '/' in <\(rawName)>") }
                advance()
                return node
            }
            if byte == UInt8(ascii: ">") {
                advance()
                break
            }
            guard hadSpace else { throw error("expected a space before the attribute in <\(rawName)>") }
            let attributeStart = here
            let attribute = try parseName("an attribute name")
            guard !node.attributes.contains(where: { $0.name == attribute }) else {
                throw error("attribute '\(attribute)' is given twice in <\(rawName)>", at: attributeStart)
            }
            skipSpace()
            guard peek == UInt8(ascii: "=") else { throw error("expected '=' after attribute '\(attribute)'") }
            advance()
            skipSpace()
            node.attributes.append((attribute, try parseQuoted(), attributeStart))
        }
        // Content, up to the matching end tag.
        while true {
            guard index < bytes.count else {
                throw error("unexpected end of file: <\(rawName)> opened at \(start.line):\(start.column) is not closed")
            }
            let contentStart = here
            if looking(at: "</") {
                skip("</")
                let closing = here
                let endStart = index
                _ = try parseName("an element name")
                let endName = String(decoding: bytes[endStart..<index], as: UTF8.self)
                guard endName == rawName else {
                    throw error("</\(endName)> closes <\(rawName)> opened at \(start.line):\(start.column)", at: closing)
                }
                skipSpace()
                guard peek == UInt8(ascii: ">") else { throw error("expected '>' to end </\(endName)>") }
                advance()
                return node
            } else if looking(at: "<!--") {
                try skip(through: "-->", opened: "a comment", at: contentStart)
            } else if looking(at: "<![CDATA[") {
                try skip(through: "]]>", opened: "a CDATA section", at: contentStart)
            } else if looking(at: "<?") {
                try skip(through: "?>", opened: "a processing instruction", at: contentStart)
            } else if looking(at: "<!") {
                throw error("unexpected '<!' in <\(rawName)>")
            } else if peek == UInt8(ascii: "<") {
                node.children.append(try parseElement())
            } else if peek == UInt8(ascii: "&") {
                _ = try parseReference()
            } else {
                advance()  // text is not kept (SCXML's structure lives in elements and attributes)
            }
        }
    }

    private mutating func parseQuoted() throws(FlowSpecError) -> String {
        guard let quote = peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error("expected a quoted attribute value")
        }
        let start = here
        advance()
        var value: [UInt8] = []
        while true {
            guard let byte = peek else {
                throw error("unexpected end of file: the attribute value opened at \(start.line):\(start.column) is not closed")
            }
            if byte == quote {
                advance()
                break
            }
            if byte == UInt8(ascii: "<") { throw error("'<' is not allowed in an attribute value") }
            if byte == UInt8(ascii: "&") {
                value += try parseReference()
            } else {
                // Attribute-value normalization: whitespace characters become spaces.
                value.append(Self.isSpace(byte) ? 0x20 : byte)
                advance()
            }
        }
        guard let text = String(validating: value, as: UTF8.self) else {
            throw error("the attribute value is not valid UTF-8", at: start)
        }
        return text
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#N;`, `&#xN;`: the bytes they stand for.
    private mutating func parseReference() throws(FlowSpecError) -> [UInt8] {
        let start = here
        advance()  // &
        let nameStart = index
        while let byte = peek, byte != UInt8(ascii: ";"), index - nameStart < 12 { advance() }
        guard peek == UInt8(ascii: ";") else { throw error("an entity reference is not closed with ';'", at: start) }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
        advance()
        switch name {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var digits = Substring(name)
            var radix = 10
            guard digits.first == "#" else { throw error("unknown entity '&\(name);'", at: start) }
            digits = digits.dropFirst()
            if digits.first == "x" {
                radix = 16
                digits = digits.dropFirst()
            }
            guard let code = UInt32(digits, radix: radix), code != 0, let scalar = Unicode.Scalar(code) else {
                throw error("invalid character reference '&\(name);'", at: start)
            }
            return Array(String(Character(scalar)).utf8)
        }
    }
}
