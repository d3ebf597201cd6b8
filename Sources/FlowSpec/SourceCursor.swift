import Flowstate

/// Where a parser is in a flow file's bytes: the offset, and the line and column it is at. The JSON
/// and the XML parser both keep one, so that their errors say `file:line:column` the same way (one
/// home for the line count).
struct SourceCursor {
    /// The file's bytes.
    let bytes: [UInt8]
    /// The file's name, as locations show it.
    let file: String
    /// The offset of the next byte to read.
    var index = 0
    /// The line `index` is on, counted from 1.
    private var line = 1
    /// The offset where that line starts.
    private var lineStart = 0

    init(_ bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// The location of `index`: its line, and its column counted in bytes from 1.
    var here: FlowSourceLocation {
        FlowSourceLocation(file: file, line: line, column: index - lineStart + 1)
    }

    /// Moves past the byte at `index`, a line feed ending its line.
    mutating func advance() {
        if bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }
}
