/// An error from a ``Supervisor``: a machine that is gone, a step that failed, a snapshot that no
/// longer matches its definition.
public struct SupervisorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value to match on. The set of codes can grow.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Hashable, Sendable {
            case machineGone = "machine-gone"
            case stepFailed = "step-failed"
            case effectFailed = "effect-failed"
            case invalidDefinition = "invalid-definition"
            case snapshotMismatch = "snapshot-mismatch"
            case noIsolation = "no-isolation"
            case reentrantCall = "reentrant-call"
            case contextNotCodable = "context-not-codable"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The machine was torn down (or never existed in this supervisor).
        public static let machineGone = Code(.machineGone)
        /// The machine refused the event (see ``SupervisorError/underlying``).
        public static let stepFailed = Code(.stepFailed)
        /// The machine's effect handler threw; the failure policy was applied.
        public static let effectFailed = Code(.effectFailed)
        /// The definition cannot run (validation errors).
        public static let invalidDefinition = Code(.invalidDefinition)
        /// A snapshot names a flow, state or child that the definition no longer has.
        public static let snapshotMismatch = Code(.snapshotMismatch)
        /// Asynchronous work needs a supervisor created in an isolation domain (an actor).
        public static let noIsolation = Code(.noIsolation)
        /// The call cannot be made from inside a handler, hook or observer (the tree is mid-step).
        public static let reentrantCall = Code(.reentrantCall)
        /// A snapshot was asked of a machine whose flow has a context that is not `Codable`.
        public static let contextNotCodable = Code(.contextNotCodable)

        /// The code's stable name, kebab-case (`machine-gone`).
        public var description: String { backing.rawValue }
    }

    /// What went wrong.
    public internal(set) var code: Code
    /// A sentence for people.
    public internal(set) var message: String
    /// The engine's error, when a step failed.
    public internal(set) var underlying: FlowError?

    /// Creates an error.
    public init(code: Code, message: String, underlying: FlowError? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// `error: message`, one line, the package's one format for problems (docs/ARCHITECTURE.md,
    /// "Errors"; a supervisor error has no source location).
    public var description: String { "error: \(message)" }
}
