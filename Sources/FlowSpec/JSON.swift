import FlowGraph
import Flowstate

/// A JSON value that remembers where it was written, so that every problem found later can name its
/// line and column. Foundation's decoder cannot.
struct JSON: Sendable {
    enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSON])
        /// Fields in the order written (duplicates are refused by the parser).
        case object([(key: String, keyLocation: FlowSourceLocation, value: JSON)])
    }

    var value: Value
    var location: FlowSourceLocation

    var typeName: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A JSON parser over UTF-8 bytes (RFC 8259) that tracks lines and columns. Depth and size are
/// bounded, so hostile input cannot exhaust the stack.
struct JSONParser {
    private let bytes: [UInt8]
    private var cursor: SourceCursor
    private var index: Int {
        get { cursor.index }
        set { cursor.index = newValue }
    }
    private var depth = 0
    static let maxDepth = 256

    init(_ bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.cursor = SourceCursor(bytes, file: file)
    }

    static func parse(_ bytes: [UInt8], file: String) throws(FlowSpecError) -> JSON {
        try parse(bytes, file: file, streaming: nil, each: { _ in }).root
    }

    /// Parses a document, handing the items of one array to `each` as they are read instead of
    /// keeping them: the array that is the value of field `field` of the root object (a flow spec's
    /// `states`). In the tree returned, that field's value is an empty array (at the array's place);
    /// `streamed` says whether it was read so. A spec's states are thus converted one top-level state
    /// at a time, and the tree of the whole file never exists at once.
    static func parse(_ bytes: [UInt8], file: String, streaming field: String?,
                      each: (JSON) -> Void) throws(FlowSpecError) -> (root: JSON, streamed: Bool) {
        var parser = JSONParser(bytes, file: file)
        parser.skipWhitespace()
        if parser.index == bytes.count {
            throw parser.error("the file is empty: expected a JSON object")
        }
        let value: JSON
        var streamed = false
        if let field, bytes[parser.index] == UInt8(ascii: "{") {
            value = try parser.parseObject(parser.here, streaming: field, streamed: &streamed, each: each)
        } else {
            value = try parser.parseValue()
        }
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected text after the JSON value") }
        return (value, streamed)
    }

    private var here: FlowSourceLocation { cursor.here }

    private func error(_ message: String) -> FlowSpecError {
        FlowSpecError(code: .malformedJSON, message: message, location: here)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                cursor.advance()
            default:
                return
            }
        }
    }

    private mutating func parseValue() throws(FlowSpecError) -> JSON {
        guard index < bytes.count else { throw error("unexpected end of file: expected a value") }
        let start = here
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(start)
        case UInt8(ascii: "["): return try parseArray(start)
        case UInt8(ascii: "\""): return JSON(value: .string(try parseString()), location: start)
        case UInt8(ascii: "t"): try expect("true"); return JSON(value: .bool(true), location: start)
        case UInt8(ascii: "f"): try expect("false"); return JSON(value: .bool(false), location: start)
        case UInt8(ascii: "n"): try expect("null"); return JSON(value: .null, location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSON(value: .number(try parseNumber()), location: start)
        default:
            throw error("unexpected character \(describe(bytes[index])): expected a value")
        }
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func expect(_ word: String) throws(FlowSpecError) {
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw error("invalid literal: expected '\(word)'") }
            index += 1
        }
    }

    private mutating func nest() throws(FlowSpecError) {
        depth += 1
        if depth > Self.maxDepth { throw error("nested more than \(Self.maxDepth) levels deep") }
    }

    private mutating func parseObject(_ start: FlowSourceLocation) throws(FlowSpecError) -> JSON {
        var streamed = false
        return try parseObject(start, streaming: nil, streamed: &streamed, each: { _ in })
    }

    /// An object; the items of its array field `streaming`, if any, go to `each` (see
    /// `parse(_:file:streaming:each:)`).
    private mutating func parseObject(_ start: FlowSourceLocation, streaming: String?, streamed: inout Bool,
                                      each: (JSON) -> Void) throws(FlowSpecError) -> JSON {
        try nest()
        defer { depth -= 1 }
        index += 1
        var fields: [(key: String, keyLocation: FlowSourceLocation, value: JSON)] = []
        var seen = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return JSON(value: .object(fields), location: start)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a field name in quotes")
            }
            let keyLocation = here
            let key = try parseString()
            guard seen.insert(key).inserted else {
                throw FlowSpecError(code: .malformedJSON, message: "field '\(key)' appears twice", location: keyLocation)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after '\(key)'") }
            index += 1
            skipWhitespace()
            if key == streaming, index < bytes.count, bytes[index] == UInt8(ascii: "[") {
                let arrayStart = here
                try parseArray(arrayStart, each: each)
                streamed = true
                fields.append((key, keyLocation, JSON(value: .array([]), location: arrayStart)))
            } else {
                fields.append((key, keyLocation, try parseValue()))
            }
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file: the object is not closed") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return JSON(value: .object(fields), location: start) }
            throw error("expected ',' or '}' in the object")
        }
    }

    private mutating func parseArray(_ start: FlowSourceLocation) throws(FlowSpecError) -> JSON {
        var items: [JSON] = []
        try parseArray(start) { items.append($0) }
        return JSON(value: .array(items), location: start)
    }

    /// An array, each item handed to `each` as soon as it is read.
    private mutating func parseArray(_ start: FlowSourceLocation, each: (JSON) -> Void) throws(FlowSpecError) {
        try nest()
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            each(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of file: the array is not closed") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return }
            throw error("expected ',' or ']' in the array")
        }
    }

    private mutating func parseString() throws(FlowSpecError) -> String {
        index += 1  // the opening quote
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []  // raw UTF-8 between escapes
        func flush() throws(FlowSpecError) {
            guard !run.isEmpty else { return }
            guard let text = String(validating: run, as: UTF8.self) else { throw error("the string is not valid UTF-8") }
            scalars.append(contentsOf: text.unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while true {
            guard index < bytes.count else { throw error("unexpected end of file: the string is not closed") }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                try flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flush()
                index += 1
                guard index < bytes.count else { throw error("unexpected end of file in an escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {  // a surrogate pair
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("a lone surrogate in \\u escape") }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("an invalid surrogate pair in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape") }
                    scalars.append(scalar)
                default:
                    throw error("invalid escape \\\(Character(Unicode.Scalar(escape)))")
                }
            case 0..<0x20:
                throw error(byte == UInt8(ascii: "\n") ? "a line break inside a string (write \\n)" : "a control character inside a string")
            default:
                run.append(byte)
                index += 1
            }
        }
    }

    private mutating func hex4() throws(FlowSpecError) -> UInt32 {
        var code: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else { throw error("expected 4 hex digits in \\u escape") }
            code = code * 16 + digit
            index += 1
        }
        return code
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func parseNumber() throws(FlowSpecError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits() -> Int {
            var count = 0
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1; count += 1 }
            return count
        }
        guard digits() > 0 else { throw error("invalid number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("invalid number: digits expected after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("invalid number: digits expected in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = Double(text) else { throw error("invalid number '\(text)'") }
        return number
    }
}
