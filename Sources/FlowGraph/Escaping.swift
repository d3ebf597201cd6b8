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
