/// The identity of one machine in a ``Supervisor``'s tree. Identities are never reused, so a stale
/// handle can never reach a machine that replaced the one it named.
public struct MachineID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The number, unique within its supervisor.
    public let rawValue: UInt64

    /// Creates an identity.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// Orders identities by creation.
    public static func < (lhs: MachineID, rhs: MachineID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#n`.
    public var description: String { "#\(rawValue)" }
}

/// A typed handle to a machine in a ``Supervisor``'s tree: what you send events through.
public struct MachineHandle<F: Flow>: Hashable, Sendable, CustomStringConvertible {
    /// The machine's identity.
    public let id: MachineID

    init(id: MachineID) { self.id = id }

    /// `#n`.
    public var description: String { id.description }
}
