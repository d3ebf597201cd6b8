/// What a ``Supervisor`` does when a machine's effect handler throws.
public enum FailurePolicy: Hashable, Sendable {
    /// Tear down the failed machine's subtree and deliver a typed failure event to its parent (see
    /// ``ChildFlow``). A parent with no failure mapping fails in turn, under its own policy; a root that
    /// escalates stops the whole tree cleanly. The default, as in OTP.
    case escalate
    /// Tear down the failed machine's subtree; the parent is not told, beyond the tree event.
    case stop
    /// Tear down the failed machine's subtree and start the same flow again from its initial state,
    /// in the same place. More than `maxRestarts` restarts within `window` escalate instead.
    case restart(maxRestarts: Int, within: Duration)
}

/// Why a machine failed: the error its effect handler threw.
///
/// It has the one shape of the package's errors: a ``code`` to match on, and read-only fields.
public struct SupervisionFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value to match on. The set of codes can grow.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Hashable, Sendable {
            case effectFailed = "effect-failed"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// An effect handler threw while performing an effect (on a step, or an exit effect on teardown).
        public static let effectFailed = Code(.effectFailed)

        /// The code's stable name, kebab-case (`effect-failed`).
        public var description: String { backing.rawValue }
    }

    /// What went wrong: ``Code/effectFailed``.
    public var code: Code { .effectFailed }
    /// The machine that failed.
    public let machine: MachineID
    /// Its flow's name.
    public let flow: String
    /// The effect being performed.
    public let effect: String
    /// The error, described.
    public let message: String

    /// `flow #n failed performing effect: message`.
    public var description: String { "flow '\(flow)' \(machine) failed performing '\(effect)': \(message)" }
}
