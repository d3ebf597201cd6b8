/// An object whose lifetime bounds machines of a ``Supervisor``: when it is deallocated, every
/// machine spawned with it as `owner` is torn down (reason ``TeardownReason/ownerReleased``), before
/// the supervisor's next public call observes the tree.
///
/// Keep it alive from what the flow belongs to: on iOS, a stored property of the view controller
/// that shows the flow. The supervisor holds it weakly. Its deallocation costs the supervisor
/// O(1) per machine it owned: nothing scans the tree.
///
/// A lifetime is not `Sendable`: it lives, and is released, in the isolation domain of the supervisor
/// it is used with (on iOS, the main actor).
public final class FlowLifetime {
    private var registrations: [(inbox: WeakReleaseInbox, machine: MachineID)] = []

    /// Creates a lifetime.
    public init() {}

    func register(_ machine: MachineID, in inbox: ReleaseInbox) {
        registrations.append((WeakReleaseInbox(inbox), machine))
    }

    deinit {
        for registration in registrations { registration.inbox.value?.released.append(registration.machine) }
    }
}

/// Where lifetimes report the machines they owned, for the supervisor to tear down at its next call.
@usableFromInline
final class ReleaseInbox {
    @usableFromInline @exclusivity(unchecked) var released: [MachineID] = []
    init() {}
}

struct WeakReleaseInbox {
    weak var value: ReleaseInbox?
    init(_ value: ReleaseInbox) { self.value = value }
}
