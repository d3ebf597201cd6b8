/// A place in a source file: a Swift file that declares a flow, or a flow file that `flowviz` reads.
public struct FlowSourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file, as `#fileID` gives it for Swift code, or the path of a flow file.
    public var file: String
    /// The line, counted from 1.
    public var line: Int
    /// The column, counted from 1.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }
}
