/// An error from Graphviz: a graph it could not read, lay out or render, with Graphviz's own message.
public struct GraphvizError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, as a value to match on. The set of codes can grow.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The DOT text could not be parsed.
        public static let invalidDOT = Code("invalid-dot")
        /// The layout failed (for example, an unknown layout engine).
        public static let layoutFailed = Code("layout-failed")
        /// Rendering failed (for example, an unknown output format).
        public static let renderFailed = Code("render-failed")
        /// Graphviz could not be initialized.
        public static let unavailable = Code("unavailable")
        /// The output could not be written to a file.
        public static let writeFailed = Code("write-failed")

        /// The code's stable name.
        public var description: String { name }
    }

    /// What failed.
    public internal(set) var code: Code
    /// Graphviz's messages (or ours), one sentence.
    public internal(set) var message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
