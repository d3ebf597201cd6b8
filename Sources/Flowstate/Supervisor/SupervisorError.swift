/// An error from a ``Supervisor``: a machine that is gone, a step that failed, a snapshot that no
/// longer matches its definition.
public struct SupervisorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value to match on. The set of codes can grow.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// The machine was torn down (or never existed in this supervisor).
        public static let machineGone = Code("machine-gone")
        /// The machine refused the event (see ``SupervisorError/underlying``).
        public static let stepFailed = Code("step-failed")
        /// The machine's effect handler threw; the failure policy was applied.
        public static let effectFailed = Code("effect-failed")
        /// The definition cannot run (validation errors).
        public static let invalidDefinition = Code("invalid-definition")
        /// A snapshot names a flow, state or child that the definition no longer has.
        public static let snapshotMismatch = Code("snapshot-mismatch")
        /// Asynchronous work needs a supervisor created in an isolation domain (an actor).
        public static let noIsolation = Code("no-isolation")
        /// The call cannot be made from inside a handler, hook or observer (the tree is mid-step).
        public static let reentrantCall = Code("reentrant-call")
        /// A snapshot was asked of a machine whose flow has a context that is not `Codable`.
        public static let contextNotCodable = Code("context-not-codable")

        /// The code's stable name.
        public var description: String { name }
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

    /// The message.
    public var description: String { message }
}
