import FlowGraph
import Flowstate

/// A problem in a flow file (JSON spec or SCXML): malformed text, a field or element that does not
/// belong, a missing or mistyped field. It says what and where (`file:line:column`).
public struct FlowSpecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value to match on. The set of codes can grow.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Hashable, Sendable {
            case malformedJSON = "malformed-json"
            case unknownField = "unknown-field"
            case missingField = "missing-field"
            case wrongType = "wrong-type"
            case unsupportedVersion = "unsupported-version"
            case malformedXML = "malformed-xml"
            case unsupported = "unsupported"
            case invalidValue = "invalid-value"
            case cannotGenerate = "cannot-generate"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The text is not JSON (or not UTF-8).
        public static let malformedJSON = Code(.malformedJSON)
        /// An object has a field the spec does not define.
        public static let unknownField = Code(.unknownField)
        /// A required field is missing.
        public static let missingField = Code(.missingField)
        /// A field has the wrong type.
        public static let wrongType = Code(.wrongType)
        /// The `flowspec` version is not one this library reads.
        public static let unsupportedVersion = Code(.unsupportedVersion)
        /// The text is not well-formed XML.
        public static let malformedXML = Code(.malformedXML)
        /// An SCXML element or attribute that this reader does not read (for example `<history>`),
        /// or a value it cannot use (a transition with several targets).
        public static let unsupported = Code(.unsupported)
        /// A value is present but wrong (for example an SCXML state without children that names an
        /// initial child).
        public static let invalidValue = Code(.invalidValue)

        /// The flow uses what a typed Swift flow cannot express (several initial states, an SCXML
        /// wildcard descriptor, a history without one plain default target...), or two of its names
        /// become the same Swift identifier
        /// (`FlowFile.swiftSource(typeName:isPublic:file:)`).
        public static let cannotGenerate = Code(.cannotGenerate)

        /// The code's stable name, kebab-case (`malformed-json`).
        public var description: String { backing.rawValue }
    }

    /// What went wrong.
    public internal(set) var code: Code
    /// A sentence for people.
    public internal(set) var message: String
    /// Where: the file, line and column.
    public internal(set) var location: FlowSourceLocation

    /// Creates an error.
    public init(code: Code, message: String, location: FlowSourceLocation) {
        self.code = code
        self.message = message
        self.location = location
    }

    /// `file:line:column: error: message`, one line, the package's one format for problems
    /// (docs/ARCHITECTURE.md, "Errors").
    public var description: String { "\(location): error: \(message)" }
}
