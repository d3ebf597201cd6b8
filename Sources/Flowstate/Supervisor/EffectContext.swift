/// Performs one effect of a machine in a ``Supervisor``'s tree.
///
/// It runs on the supervisor's isolation domain, synchronously, while the step is processed. Events it
/// sends (``EffectContext/send(_:)``) are queued until the step completes. Throwing applies the
/// machine's ``FailurePolicy``.
public typealias EffectHandler<F: Flow> = (F.Effect, EffectContext<F>) throws -> Void

/// What an effect handler can do besides performing the effect.
public struct EffectContext<F: Flow> {
    /// The machine whose handler runs.
    public let machine: MachineHandle<F>
    /// The machine that produced the effect: `machine` itself, or a declared child whose effects were
    /// mapped to this machine's effects.
    public let origin: MachineID
    /// The supervisor, through the one weak link it owns: a context costs a retain, not a weak
    /// reference of its own (measured: a fifth of a send).
    @usableFromInline let link: SupervisorLink
    var supervisor: Supervisor? { link.supervisor }

    @usableFromInline
    init(machine: MachineHandle<F>, origin: MachineID, link: SupervisorLink) {
        self.machine = machine
        self.origin = origin
        self.link = link
    }

    /// Queues an event for ``machine``, processed after the current step. It never throws: an event
    /// for a machine that is gone is dropped and reported (``TreeEvent/dropped(_:what:)``), and one
    /// its machine refuses is reported (``TreeEvent/refused(_:event:error:)``), whenever it is sent
    /// (a context kept and used after its step sends at once).
    public func send(_ event: F.Event) {
        guard let supervisor else { return }
        do {
            try supervisor.send(event, to: machine)
        } catch let error where error.code == .stepFailed {
            if let underlying = error.underlying {
                supervisor.publish(.refused(machine.id, event: "\(event)", error: underlying))
            }
        } catch {
            // `.machineGone`: already reported as dropped.
        }
    }

    /// Starts asynchronous work on behalf of ``origin``. Its result, if any, is sent to ``machine``
    /// on the supervisor's isolation domain. If ``origin`` or ``machine`` is torn down first, the work
    /// is cancelled and its result is dropped and reported (``TreeEvent/dropped(_:what:)``), never
    /// delivered to another machine.
    ///
    /// A task, not a run: ``Supervisor/run(_:context:policy:isolation:handler:)`` runs a flow to its
    /// end, this starts work and returns at once (docs/ARCHITECTURE.md, "Glossary").
    /// - Throws: ``SupervisorError/Code/noIsolation`` when the supervisor was created outside any
    ///   isolation domain (create it on an actor, such as the main actor, to run async effects).
    public func task(_ operation: @escaping @Sendable () async throws -> F.Event?) throws(SupervisorError) {
        guard let supervisor else { return }
        try supervisor.startTask(origin: origin, target: machine, operation)
    }
}

/// A supervisor's weak reference to itself, shared by every ``EffectContext`` it makes.
@usableFromInline
final class SupervisorLink {
    weak var supervisor: Supervisor?
    init() {}
}

/// How a box performs its machine's effects: with a handler of its own, or by forwarding them
/// (mapped) to its parent's handler. One closure either way, two words: an enum of the two closures
/// needs a tag byte, which put every box past a heap block boundary (docs/PERFORMANCE.md, the heap
/// per machine).
@usableFromInline
struct EffectRoute<F: Flow> {
    /// Performs one effect. A forwarded effect's failure (the parent's handler threw) comes out as a
    /// ``ForwardedFailure``, reported as it is; anything else the handler throws is the machine's
    /// failure.
    @usableFromInline let perform: (F.Effect, EffectContext<F>) throws -> Void

    @usableFromInline
    init(perform: @escaping (F.Effect, EffectContext<F>) throws -> Void) { self.perform = perform }

    /// Effects performed by the machine's own handler.
    @inlinable
    static func handler(_ handler: @escaping EffectHandler<F>) -> Self { Self(perform: handler) }

    /// A declared child's effects: each mapped to its parent's effect (or dropped, for `nil`) and
    /// performed by the parent's route, on behalf of the effect's origin.
    static func mapped<P>(_ map: @escaping @Sendable (F.Effect) -> P?) -> Self {
        Self { effect, context in
            // The supervisor is there: a route runs only inside one of its calls (a step, a stop),
            // never from its deinit.
            guard let mapped = map(effect), let supervisor = context.supervisor else { return }
            do throws(EffectFailure) {
                try supervisor.forwardToParent(mapped, from: context.machine.id, origin: context.origin)
            } catch {
                throw ForwardedFailure(failure: error)
            }
        }
    }

    /// The failure an effect's error is: a forwarded effect's own failure, or a new one of `origin`.
    @usableFromInline
    static func failure(_ error: any Error, origin: MachineID, effect: F.Effect) -> EffectFailure {
        (error as? ForwardedFailure)?.failure ?? EffectFailure(origin: origin, effect: "\(effect)", message: "\(error)")
    }
}

/// A forwarded effect's failure, carried out of the route's closure unchanged (internal: a user's
/// handler cannot throw one).
@usableFromInline
struct ForwardedFailure: Error {
    @usableFromInline let failure: EffectFailure
}
