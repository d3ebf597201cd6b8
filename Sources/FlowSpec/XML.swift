import FlowGraph
import Flowstate

/// An XML element that remembers where it was written (the `<` that opens it, and each attribute's
/// name), so every problem found later can name its line and column.
///
/// Only SCXML is kept: elements and attributes of other namespaces (Qt Creator's `<qt:editorinfo>`,
/// the W3C tests' `conf:` attributes) are read, checked for well-formedness and left out.
struct XMLNode: Sendable {
    /// The local name (a namespace prefix is dropped: `sc:state` is `state`).
    var name: String
    /// Attributes in the order written, by local name (namespace declarations and attributes of
    /// other namespaces left out).
    var attributes: [(name: String, value: String, location: FlowSourceLocation)]
    /// Child elements in order (comments and processing instructions are not kept).
    var children: [XMLNode]
    /// Where the element opens.
    var location: FlowSourceLocation
    /// The element's character data (text, CDATA sections, references decoded), all of it joined,
    /// without leading and trailing whitespace; empty when it is only whitespace. Where it stood
    /// between child elements is not kept.
    var text = ""

    init(name: String, attributes: [(name: String, value: String, location: FlowSourceLocation)],
         children: [XMLNode], location: FlowSourceLocation, text: String = "") {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.location = location
        self.text = text
    }

    /// The value of an attribute.
    func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }

    /// Where an attribute was written (the element's place if it is absent).
    func location(of name: String) -> FlowSourceLocation {
        attributes.first { $0.name == name }?.location ?? location
    }

    /// The element as XML text on one line: attributes in their order, then the text, then the
    /// children; what ``XMLParser`` reads back to the same element (its places aside).
    var xml: String {
        var out = ""
        write(into: &out)
        return out
    }

    private func write(into out: inout String) {
        out += "<" + name
        for attribute in attributes { out += " " + attribute.name + "=" + Self.quote(attribute.value) }
        if text.isEmpty && children.isEmpty {
            out += "/>"
            return
        }
        out += ">" + Self.escapeText(text)
        for child in children { child.write(into: &out) }
        out += "</" + name + ">"
    }

    /// Character data with `&`, `<`, `>` and carriage returns escaped.
    static func escapeText(_ text: String) -> String { escape(text, inAttribute: false) }

    /// An attribute value in double quotes, escaped as character data is, and `"`, line feeds and
    /// tabs besides (a reader's attribute-value normalization would turn the last two into spaces).
    static func quote(_ text: String) -> String { "\"" + escape(text, inAttribute: true) + "\"" }

    /// The one XML escaping table, for character data and for attribute values.
    private static func escape(_ text: String, inAttribute: Bool) -> String {
        escaping(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\r": "&#13;"
            case "\"" where inAttribute: "&quot;"
            case "\n" where inAttribute: "&#10;"
            case "\t" where inAttribute: "&#9;"
            default: nil
            }
        }
    }
}

/// A non-validating XML 1.0 parser over UTF-8 bytes, enough for SCXML documents: elements, attributes,
/// the five predefined entities and character references, comments, CDATA sections, processing
/// instructions, namespaces. A DOCTYPE is refused (no entity expansion, so no "billion laughs"). Depth
/// and size are bounded, so hostile input cannot exhaust the stack.
///
/// Namespaces (Namespaces in XML 1.0): every name is a qualified name whose prefix is declared. The
/// elements kept are those of SCXML's namespace, of the root element's namespace, and of no namespace;
/// the attributes kept are those without a prefix (and any whose prefix is bound to one of those
/// namespaces). The rest is read and left out.
struct XMLParser {
    private let bytes: [UInt8]
    private var cursor: SourceCursor
    private var index: Int {
        get { cursor.index }
        set { cursor.index = newValue }
    }
    private var depth = 0
    static let maxDepth = 256
    /// SCXML's namespace.
    static let scxmlNamespace = "http://www.w3.org/2005/07/scxml"
    /// The namespace the `xml` prefix is bound to.
    private static let xmlNamespace = "http://www.w3.org/XML/1998/namespace"
    /// The namespaces whose elements are kept: SCXML's and the root element's.
    private var kept: Set<String> = [XMLParser.scxmlNamespace]
    /// The namespace bindings in scope, innermost last: (prefix, namespace); prefix `""` is the
    /// default namespace, namespace `""` none.
    private var bindings: [(prefix: String, namespace: String)] = [("xml", XMLParser.xmlNamespace)]

    private init(_ bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.cursor = SourceCursor(bytes, file: file)
    }

    /// Parses a document and returns its root element.
    static func parse(_ bytes: [UInt8], file: String) throws(FlowSpecError) -> XMLNode {
        var parser = XMLParser(bytes, file: file)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }  // a UTF-8 byte order mark
        try parser.skipMisc()
        guard parser.index < bytes.count else { throw parser.error("the file is empty: expected an XML document") }
        guard parser.peek == UInt8(ascii: "<") else { throw parser.error("expected '<' to open the root element") }
        // The root element is always kept: its namespace is one of those kept.
        guard let root = try parser.parseElement(root: true) else { throw parser.error("the root element could not be read") }
        try parser.skipMisc()
        guard parser.index == bytes.count else { throw parser.error("unexpected content after the root element") }
        return root
    }

    // MARK: Positions and errors

    private var here: FlowSourceLocation { cursor.here }

    private func error(_ message: String, at location: FlowSourceLocation? = nil) -> FlowSpecError {
        FlowSpecError(code: .malformedXML, message: message, location: location ?? here)
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func advance() {
        cursor.advance()
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

    /// A name as written (with its prefix, if any), checked to be a qualified name: valid UTF-8, at
    /// most one `:`, with a name on each side.
    private mutating func parseName(_ what: String) throws(FlowSpecError) -> String {
        let startLocation = here
        let start = index
        while let byte = peek, Self.isNameByte(byte) { advance() }
        guard index > start else {
            let found = peek.map { describe($0) } ?? "the end of the file"
            throw error("expected \(what), found \(found)")
        }
        guard let name = String(validating: bytes[start..<index], as: UTF8.self) else {
            throw error("\(what) is not valid UTF-8", at: startLocation)
        }
        let parts = name.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts.contains(where: \.isEmpty) else {
            throw error("'\(name)' is not a valid name: a name has at most one ':', between a namespace prefix and a local name",
                        at: startLocation)
        }
        return name
    }

    /// A qualified name's prefix (`""` for none) and local name.
    private static func split(_ name: String) -> (prefix: String, local: String) {
        guard let colon = name.firstIndex(of: ":") else { return ("", name) }
        return (String(name[..<colon]), String(name[name.index(after: colon)...]))
    }

    /// The namespace a prefix is bound to (`""`: no namespace), or an error if it is not declared.
    private func namespace(of prefix: String, at location: FlowSourceLocation) throws(FlowSpecError) -> String {
        if let binding = bindings.last(where: { $0.prefix == prefix }) { return binding.namespace }
        if prefix.isEmpty { return "" }
        throw error("the namespace prefix '\(prefix)' is not declared (xmlns:\(prefix)=\"...\")", at: location)
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    /// An element and what it contains; `nil` for an element of another namespace (read, checked
    /// and left out).
    private mutating func parseElement(root: Bool = false) throws(FlowSpecError) -> XMLNode? {
        let start = here
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw error("elements are nested more than \(Self.maxDepth) deep") }
        advance()  // <
        let rawName = try parseName("an element name")
        var raw: [(name: String, value: String, location: FlowSourceLocation)] = []
        var empty = false
        while true {
            let hadSpace = peek.map(Self.isSpace) ?? false
            skipSpace()
            guard let byte = peek else { throw error("unexpected end of file inside <\(rawName)> opened at \(start.line):\(start.column)") }
            if byte == UInt8(ascii: "/") {
                advance()
                guard peek == UInt8(ascii: ">") else { throw error("expected '>' after '/' in <\(rawName)>") }
                advance()
                empty = true
                break
            }
            if byte == UInt8(ascii: ">") {
                advance()
                break
            }
            guard hadSpace else { throw error("expected a space before the attribute in <\(rawName)>") }
            let attributeStart = here
            let attribute = try parseName("an attribute name")
            guard !raw.contains(where: { $0.name == attribute }) else {
                throw error("attribute '\(attribute)' is given twice in <\(rawName)>", at: attributeStart)
            }
            skipSpace()
            guard peek == UInt8(ascii: "=") else { throw error("expected '=' after attribute '\(attribute)'") }
            advance()
            skipSpace()
            raw.append((attribute, try parseQuoted(), attributeStart))
        }
        // Namespace declarations first: they apply to the element's own name and attributes.
        let outerBindings = bindings.count
        defer { bindings.removeLast(bindings.count - outerBindings) }
        for attribute in raw {
            if attribute.name == "xmlns" {
                bindings.append(("", attribute.value))
            } else if attribute.name.hasPrefix("xmlns:") {
                let prefix = String(attribute.name.dropFirst("xmlns:".count))
                guard !attribute.value.isEmpty else {
                    throw error("the namespace prefix '\(prefix)' is declared with an empty namespace", at: attribute.location)
                }
                bindings.append((prefix, attribute.value))
            }
        }
        let (prefix, name) = Self.split(rawName)
        let elementNamespace = try namespace(of: prefix, at: start)
        if root, !elementNamespace.isEmpty { kept.insert(elementNamespace) }
        let keep = elementNamespace.isEmpty || kept.contains(elementNamespace)
        var node = XMLNode(name: name, attributes: [], children: [], location: start)
        for attribute in raw where attribute.name != "xmlns" && !attribute.name.hasPrefix("xmlns:") {
            let (attributePrefix, local) = Self.split(attribute.name)
            if !attributePrefix.isEmpty {
                // A prefixed attribute is in its prefix's namespace; unprefixed ones are the element's own.
                // (`sc:xmlns` would be written back as a namespace declaration: it is no attribute of SCXML.)
                guard kept.contains(try namespace(of: attributePrefix, at: attribute.location)), local != "xmlns" else { continue }
            }
            guard !node.attributes.contains(where: { $0.name == local }) else {
                throw error("attribute '\(local)' is given twice in <\(rawName)>", at: attribute.location)
            }
            node.attributes.append((local, attribute.value, attribute.location))
        }
        if empty { return keep ? node : nil }
        // Content, up to the matching end tag. Character data is kept from its first character
        // that is not whitespace.
        var text: [UInt8] = []
        func append(_ bytes: some Sequence<UInt8>, to text: inout [UInt8]) {
            for byte in bytes where !text.isEmpty || !Self.isSpace(byte) { text.append(byte) }
        }
        while true {
            guard index < bytes.count else {
                throw error("unexpected end of file: <\(rawName)> opened at \(start.line):\(start.column) is not closed")
            }
            let contentStart = here
            if looking(at: "</") {
                skip("</")
                let closing = here
                let endStart = index
                while let byte = peek, Self.isNameByte(byte) { advance() }
                let endName = String(decoding: bytes[endStart..<index], as: UTF8.self)
                guard endName == rawName else {
                    throw error("</\(endName)> closes <\(rawName)> opened at \(start.line):\(start.column)", at: closing)
                }
                skipSpace()
                guard peek == UInt8(ascii: ">") else { throw error("expected '>' to end </\(endName)>") }
                advance()
                guard keep else { return nil }
                while let last = text.last, Self.isSpace(last) { text.removeLast() }
                if !text.isEmpty { node.text = String(decoding: text, as: UTF8.self) }
                return node
            } else if looking(at: "<!--") {
                try skip(through: "-->", opened: "a comment", at: contentStart)
            } else if looking(at: "<![CDATA[") {
                skip("<![CDATA[")
                let from = index
                try skip(through: "]]>", opened: "a CDATA section", at: contentStart)
                if keep { append(bytes[from..<index - 3], to: &text) }
            } else if looking(at: "<?") {
                try skip(through: "?>", opened: "a processing instruction", at: contentStart)
            } else if looking(at: "<!") {
                throw error("unexpected '<!' in <\(rawName)>")
            } else if peek == UInt8(ascii: "<") {
                if let child = try parseElement(), keep { node.children.append(child) }
            } else if peek == UInt8(ascii: "&") {
                let decoded = try parseReference()
                if keep { append(decoded, to: &text) }
            } else {
                if keep, !text.isEmpty || !Self.isSpace(bytes[index]) { text.append(bytes[index]) }
                advance()
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
