/// An error from a ``Supervisor``: a machine that is gone, a step that failed, a snapshot that no
/// longer matches its definition.
public struct SupervisorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value to match on. The set of codes can grow.
    ///
    /// A supervisor shares some codes with the engine (``invalidDefinition``, ``effectFailed``,
    /// ``reentrantCall``, ``noIsolation``): those are the engine's ``FlowError/Code`` values, declared
    /// once there with their names. An engine error with one of them surfaces under it, with the
    /// engine's error as ``SupervisorError/underlying``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Own: String, Hashable, Sendable {
            case machineGone = "machine-gone"
            case stepFailed = "step-failed"
            case snapshotMismatch = "snapshot-mismatch"
            case contextNotCodable = "context-not-codable"
        }

        private enum Backing: Hashable, Sendable {
            /// A code of the supervisor's own.
            case own(Own)
            /// A code the supervisor shares with the engine: the engine's, under its name.
            case engine(FlowError.Code)
        }

        private let backing: Backing
        private init(_ own: Own) { backing = .own(own) }
        private init(engine code: FlowError.Code) { backing = .engine(code) }

        /// The codes a supervisor shares with the engine: the one list to extend when a supervisor
        /// can meet another of the engine's codes and should report it under the same name.
        private static let shared: [FlowError.Code] = [.invalidDefinition, .effectFailed, .reentrantCall,
                                                       .noIsolation]

        /// The engine's code, when the supervisor shares it (`shared`), or `nil`.
        init?(_ code: FlowError.Code) {
            guard Self.shared.contains(code) else { return nil }
            self.init(engine: code)
        }

        /// The machine was torn down (or never existed in this supervisor).
        public static let machineGone = Code(.machineGone)
        /// The machine refused the event (see ``SupervisorError/underlying``).
        public static let stepFailed = Code(.stepFailed)
        /// The machine's effect handler threw; the failure policy was applied
        /// (``FlowError/Code/effectFailed``).
        public static let effectFailed = Code(engine: .effectFailed)
        /// The definition cannot run (validation errors; ``FlowError/Code/invalidDefinition``).
        public static let invalidDefinition = Code(engine: .invalidDefinition)
        /// A snapshot names a flow, state or child that the definition no longer has.
        public static let snapshotMismatch = Code(.snapshotMismatch)
        /// Asynchronous work needs a supervisor created in an isolation domain (an actor;
        /// ``FlowError/Code/noIsolation``).
        public static let noIsolation = Code(engine: .noIsolation)
        /// The call cannot be made from inside a handler, hook or observer (the tree is mid-step;
        /// ``FlowError/Code/reentrantCall``).
        public static let reentrantCall = Code(engine: .reentrantCall)
        /// A snapshot was asked of a machine whose flow has a context that is not `Codable`.
        public static let contextNotCodable = Code(.contextNotCodable)

        /// The code's stable name, kebab-case (`machine-gone`); a shared code's is the engine's
        /// (`invalid-definition`).
        public var description: String {
            switch backing {
            case .own(let own): own.rawValue
            case .engine(let code): code.description
            }
        }
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

    /// The supervisor's error for an engine error: the one conversion. An engine code the supervisor
    /// shares keeps its name; any other becomes `fallback`, the supervisor's word for the operation
    /// that met it (`stepFailed` for a start or a step, `snapshotMismatch` for a restore). The
    /// engine's error is kept as `underlying` and its message as `message`.
    @usableFromInline
    init(_ error: FlowError, otherwise fallback: Code) {
        self.init(code: Code(error.code) ?? fallback, message: error.message, underlying: error)
    }

    /// `error: message`, one line, the package's one format for problems (docs/ARCHITECTURE.md,
    /// "Errors"; a supervisor error has no source location).
    public var description: String { "error: \(message)" }
}
