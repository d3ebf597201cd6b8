/// The actor a host goes back to (a supervisor for its async effects and timers, a runtime for its
/// timers), held without keeping it alive: one home for the rule, used by the host and by the task that
/// sleeps until the host's next timer.
///
/// Any actor is held weakly: an actor that keeps a supervisor or a runtime must not be kept alive by it,
/// nor by its pending timers. The main actor, global and immortal, is held by name: a weak reference to
/// it would form a side table that is never freed (LeakSanitizer reports it).
struct HeldIsolation: Sendable {
    private weak var other: (any Actor)?
    private let isMain: Bool

    /// Holds `actor` (nothing when `nil`).
    init(_ actor: (any Actor)?) {
        if let actor, actor === MainActor.shared {
            isMain = true
        } else {
            isMain = false
            other = actor
        }
    }

    /// The actor, while it lives.
    var actor: (any Actor)? { isMain ? MainActor.shared : other }
}
