/// An error from running a flow: an event the machine cannot take, a machine in the wrong phase,
/// a definition that cannot run, or an effect handler that failed.
///
/// Match on ``code``; the set of codes can grow without breaking source compatibility.
public struct FlowError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value to match on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Hashable, Sendable {
            case invalidDefinition = "invalid-definition"
            case notStarted = "not-started"
            case alreadyStarted = "already-started"
            case finished = "finished"
            case unhandledEvent = "unhandled-event"
            case eventlessLoop = "eventless-loop"
            case effectFailed = "effect-failed"
            case runtimeFailed = "runtime-failed"
            case unknownState = "unknown-state"
            case stopped = "stopped"
            case reentrantCall = "reentrant-call"
            case invalidHistory = "invalid-history"
            case noIsolation = "no-isolation"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The definition has validation errors and cannot be started.
        public static let invalidDefinition = Code(.invalidDefinition)
        /// An event was sent before the machine was started.
        public static let notStarted = Code(.notStarted)
        /// The machine was started twice.
        public static let alreadyStarted = Code(.alreadyStarted)
        /// An event was sent to a machine that has reached a final state.
        public static let finished = Code(.finished)
        /// No transition of the current state reacts to the event, and the definition reports that as an error.
        public static let unhandledEvent = Code(.unhandledEvent)
        /// Eventless transitions kept firing without settling in a state.
        public static let eventlessLoop = Code(.eventlessLoop)
        /// The host's effect handler threw while performing an effect.
        public static let effectFailed = Code(.effectFailed)
        /// The runtime stopped after an effect handler failed and takes no more events.
        public static let runtimeFailed = Code(.runtimeFailed)
        /// A state that the definition does not declare was named (for example when restoring).
        public static let unknownState = Code(.unknownState)

        /// An event was sent to a machine that was stopped.
        public static let stopped = Code(.stopped)

        /// The call cannot be made from inside a handler or observer of the same runtime.
        public static let reentrantCall = Code(.reentrantCall)

        /// A restored machine was given a history that the flow's history states cannot remember (a
        /// state that is not a history, or remembered states outside the history's state).
        public static let invalidHistory = Code(.invalidHistory)

        /// A runtime of a flow with delayed transitions (``After``) was created outside any actor: its
        /// timers would have no isolation to fire in. Create it on the actor that owns it (the main
        /// actor, for a coordinator).
        public static let noIsolation = Code(.noIsolation)

        /// The code's stable name, kebab-case (`invalid-definition`), as the other error codes of the
        /// package spell theirs.
        public var description: String { backing.rawValue }
    }

    /// What went wrong.
    public internal(set) var code: Code
    /// A sentence for people: what happened, to which flow, in which state.
    public internal(set) var message: String
    /// Where the problem was declared, when it comes from a definition.
    public internal(set) var location: FlowSourceLocation?

    /// Creates an error.
    public init(code: Code, message: String, location: FlowSourceLocation? = nil) {
        self.code = code
        self.message = message
        self.location = location
    }

    /// `[location: ]error: message`, one line, the package's one format for problems
    /// (docs/ARCHITECTURE.md, "Errors").
    public var description: String { (location.map { "\($0): " } ?? "") + "error: \(message)" }
}
