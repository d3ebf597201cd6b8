/// Something that happened in a ``Supervisor``'s tree, for observers and for drawing a run.
///
/// Observers (``Supervisor/observe(_:)``, ``Supervisor/events()``, the supervisor's logger) receive the
/// events in the order they happen, synchronously, while the step that caused them is processed: a
/// child's `tornDown` comes before its parent's, and a machine's `completed` before its own `tornDown`
/// (`docs/SUPERVISOR.md` states the teardown order). The labels they carry (states,
/// event kinds, outputs) are `String(describing:)` of the flow's values, made only while someone
/// observes; a machine of a flow with parallel states resting in several leaves is labelled with every
/// active leaf, in document order, joined by ", " (`"inbox, talking"`). An observer is never re-entered: a ``Supervisor/send(_:to:)`` or a spawn it makes is
/// queued and processed after the step, as for a handler.
///
/// ```swift
/// let observation = supervisor.observe { event in
///     if case .tornDown(let id, reason: .ownerReleased) = event { print("\(id) went with its screen") }
/// }
/// ```
public enum TreeEvent: Hashable, Sendable, CustomStringConvertible {
    /// A machine started, under `parent` (`nil` for a root), in `state`; `transitions` are the
    /// eventless transitions its start took (empty for a restored machine).
    case spawned(MachineID, flow: String, parent: MachineID?, state: String, transitions: FlowTransitions)
    /// A machine took a transition. `event` is the event's kind, as diagrams label it (payloads are
    /// left out: observe the machine's steps to see them). `transitions` are the transitions the
    /// engine took, by declaration (``FlowStep/transitions``).
    case transitioned(MachineID, from: String, to: String, event: String, transitions: FlowTransitions)
    /// A machine reached a final state with an output: the typed value (cast it with
    /// ``Output/as(_:)``) and its description.
    case completed(MachineID, output: Output)
    /// A machine's effect handler threw.
    case failed(MachineID, failure: SupervisionFailure)
    /// A machine was started again by its ``FailurePolicy/restart(maxRestarts:within:)`` policy;
    /// `replacement` is the new machine.
    case restarted(MachineID, replacement: MachineID)
    /// A machine was torn down.
    case tornDown(MachineID, reason: TeardownReason)
    /// Something addressed to a machine that is gone was dropped (never delivered to another).
    case dropped(MachineID, what: String)
    /// A queued event was refused by its machine (for example, unhandled under
    /// ``UnhandledEventPolicy/fail``): the error that a direct ``Supervisor/send(_:to:)`` would have thrown.
    case refused(MachineID, event: String, error: FlowError)

    /// A machine's output as a tree event carries it: the flow's typed value, and the line it prints.
    ///
    /// ```swift
    /// if case .completed(_, let output) = event, let result = output.as(SignUp.Output.self) { print(result) }
    /// ```
    public struct Output: Hashable, Sendable, CustomStringConvertible {
        /// The flow's output, typed as the flow declares it.
        public let value: any Sendable
        /// `String(describing:)` of the value.
        public let description: String

        /// Wraps an output.
        public init(_ value: any Sendable) {
            self.value = value
            description = String(describing: value)
        }

        /// The value as `type`, or `nil` when it is of another type.
        public func `as`<T>(_ type: T.Type = T.self) -> T? { value as? T }

        /// Two outputs are equal when they print the same line: tree events compare as the lines they
        /// print, whatever the flows' output types (compare typed values with ``as(_:)``).
        public static func == (lhs: Output, rhs: Output) -> Bool { lhs.description == rhs.description }

        /// Hashes the description, as `==` compares it.
        public func hash(into hasher: inout Hasher) { hasher.combine(description) }
    }

    /// One line.
    public var description: String {
        switch self {
        case .spawned(let id, let flow, let parent, let state, _):
            "\(id) spawned '\(flow)' in \(state)" + (parent.map { " under \($0)" } ?? "")
        case .transitioned(let id, let from, let to, let event, _): "\(id) \(from) --\(event)--> \(to)"
        case .completed(let id, let output): "\(id) completed: \(output)"
        case .failed(let id, let failure): "\(id) failed: \(failure.message)"
        case .restarted(let id, let replacement): "\(id) restarted as \(replacement)"
        case .tornDown(let id, let reason): "\(id) torn down (\(reason))"
        case .dropped(let id, let what): "\(id) gone: dropped \(what)"
        case .refused(let id, let event, let error): "\(id) refused '\(event)': \(error.message)"
        }
    }
}

/// Why a machine was torn down.
public enum TeardownReason: Hashable, Sendable, CustomStringConvertible {
    /// Its parent left the state that runs it.
    case parentLeftState
    /// Its parent (or an ancestor) was torn down or finished.
    case parentTornDown
    /// It reached a final state.
    case completed
    /// `Supervisor.stop(_:)` was called on it or an ancestor.
    case stopped
    /// The object its lifetime was bound to was deallocated.
    case ownerReleased
    /// Its effect handler threw.
    case failed

    /// The reason's name.
    public var description: String {
        switch self {
        case .parentLeftState: "parent left its state"
        case .parentTornDown: "parent torn down"
        case .completed: "completed"
        case .stopped: "stopped"
        case .ownerReleased: "owner released"
        case .failed: "failed"
        }
    }
}

/// The machines one teardown removed, in the order they were torn down: children before their
/// parent, siblings in reverse order (reverse spawn order; declared children in reverse document order
/// of their states).
public struct TeardownRecord: Hashable, Sendable {
    /// Each machine, with its flow's name.
    public var machines: [(id: MachineID, flow: String)] { zip(ids, flows).map { ($0, $1) } }
    /// The identities, in teardown order.
    public private(set) var ids: [MachineID] = []
    private var flows: [String] = []

    /// Whether nothing was torn down.
    public var isEmpty: Bool { ids.isEmpty }

    mutating func append(_ id: MachineID, flow: String) {
        ids.append(id)
        flows.append(flow)
    }
}
