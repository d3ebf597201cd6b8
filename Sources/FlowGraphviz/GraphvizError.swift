/// An error from Graphviz: a graph it could not read, lay out or render, with Graphviz's own message.
public struct GraphvizError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, as a value to match on. The set of codes can grow.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Hashable, Sendable {
            case invalidDOT = "invalid-dot"
            case layoutFailed = "layout-failed"
            case renderFailed = "render-failed"
            case unavailable = "unavailable"
            case writeFailed = "write-failed"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The DOT text could not be parsed.
        public static let invalidDOT = Code(.invalidDOT)
        /// The layout failed (for example, an unknown layout engine).
        public static let layoutFailed = Code(.layoutFailed)
        /// Rendering failed (for example, an unknown output format).
        public static let renderFailed = Code(.renderFailed)
        /// Graphviz could not be initialized.
        public static let unavailable = Code(.unavailable)
        /// The output could not be written to a file.
        public static let writeFailed = Code(.writeFailed)

        /// The code's stable name, kebab-case (`invalid-dot`), as the package's other error codes
        /// spell theirs.
        public var description: String { backing.rawValue }
    }

    /// What failed.
    public let code: Code
    /// Graphviz's messages (or ours), one sentence.
    public let message: String

    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// `error: message`, one line, the package's one format for problems (docs/ARCHITECTURE.md,
    /// "Errors"; a Graphviz error has no source location).
    public var description: String { "error: \(message)" }
}
