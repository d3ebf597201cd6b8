/// The identity of one machine in a ``Supervisor``'s tree. Identities are never reused, so a stale
/// handle can never reach a machine that replaced the one it named; and an identity given by one
/// supervisor names no machine of another.
public struct MachineID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The number, unique within its supervisor, increasing in creation order.
    public let rawValue: UInt64
    /// The supervisor that gave the identity (0: made by hand, names no machine).
    @usableFromInline let scope: UInt64
    /// Where the supervisor keeps the machine: a hint checked against `rawValue`, not part of the identity.
    @usableFromInline let slot: Int32

    /// Creates an identity by hand, for tests and logs: it names no machine of any supervisor.
    public init(rawValue: UInt64) {
        self.init(rawValue: rawValue, scope: 0, slot: -1)
    }

    @usableFromInline
    init(rawValue: UInt64, scope: UInt64, slot: Int32) {
        self.rawValue = rawValue
        self.scope = scope
        self.slot = slot
    }

    /// Two identities are equal when the same supervisor gave the same number.
    public static func == (lhs: MachineID, rhs: MachineID) -> Bool {
        lhs.rawValue == rhs.rawValue && lhs.scope == rhs.scope
    }

    /// Hashes the supervisor and the number.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rawValue)
        hasher.combine(scope)
    }

    /// Orders identities by creation.
    public static func < (lhs: MachineID, rhs: MachineID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#n`.
    public var description: String { "#\(rawValue)" }
}

/// A typed handle to a machine in a ``Supervisor``'s tree: what you send events through.
///
/// A handle names one incarnation of one machine. Once that machine is torn down (it finished, was
/// stopped, its owner went away, or it failed and was restarted as a new machine), the handle names
/// nothing: sending through it is a ``SupervisorError`` with code ``SupervisorError/Code/machineGone``.
/// After a restart, find the replacement through ``TreeEvent/restarted(_:replacement:)`` or
/// ``Supervisor/handle(of:as:)``.
public struct MachineHandle<F: Flow>: Hashable, Sendable, CustomStringConvertible {
    /// The machine's identity.
    public let id: MachineID

    @usableFromInline
    init(id: MachineID) { self.id = id }

    /// A handle for a machine identity, for test kits that name machines already gone (not API).
    package static func naming(_ id: MachineID) -> Self { Self(id: id) }

    /// `#n`.
    public var description: String { id.description }
}
