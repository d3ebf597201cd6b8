/// Rewrites text scalar by scalar: `replacement` returns what to write for a scalar that needs
/// escaping, or `nil` to keep it. The one loop behind the DOT, Mermaid and JSON writers.
package func escaping(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        if let replaced = replacement(scalar) {
            out += replaced
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// Whether a scalar is a control character (C0 or DEL), which no label should carry as is.
package func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7F }

/// A string literal in a C-like language (JSON, JavaScript, Swift): `text` in double quotes, with
/// quotes, backslashes, line feeds, returns and tabs escaped by a backslash, and each other scalar
/// `escapes` picks written as `code` spells its value. The one literal writer behind the JSON flow
/// spec, the generated Swift and the viewer's data.
package func stringLiteral(_ text: String, escapes: (Unicode.Scalar) -> Bool, code: (UInt32) -> String) -> String {
    "\"" + escaping(text) { scalar in
        switch scalar {
        case "\"": "\\\""
        case "\\": "\\\\"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\t": "\\t"
        default: escapes(scalar) ? code(scalar.value) : nil
        }
    } + "\""
}

/// A JSON string literal (``stringLiteral(_:escapes:code:)``): the control characters JSON forbids
/// (below U+0020), and each scalar `alsoEscaping` picks, written as `\u` and four hexadecimal digits.
/// - Parameters:
///   - text: The string.
///   - alsoEscaping: Scalars of the Basic Multilingual Plane to write as escapes too (the viewer's
///     page escapes `<`, `>`, `&`, U+2028 and U+2029, so that its data is safe in a `<script>`
///     element).
package func jsonStringLiteral(_ text: String, alsoEscaping: (Unicode.Scalar) -> Bool = { _ in false }) -> String {
    stringLiteral(text, escapes: { $0.value < 0x20 || alsoEscaping($0) }) { value in
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
