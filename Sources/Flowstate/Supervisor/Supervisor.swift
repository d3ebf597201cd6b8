import Logging

// Exclusivity: the hot stored properties are `@exclusivity(unchecked)`. No user code runs while one
// of them is being accessed (handlers, hooks and observers are called between accesses, and guards
// are `@Sendable` closures that cannot reach the supervisor), so the dynamic checks could never fire;
// they cost a third of a send (measured with callgrind).
//
// The shell: this class holds the core (the tree, the queue and the rules, `SupervisorCore`), the
// type-erased machines, observers and clocks, and performs what the core decides. By concern:
// Supervisor+Launch.swift (start, spawn, declared children), Supervisor+Send.swift (events and the
// step's follow-up), Supervisor+Failure.swift (policies, restarts), Supervisor+Teardown.swift (stop,
// sweep, teardown), Supervisor+Observation.swift (tree events), Supervisor+Tasks.swift (async
// effects), Supervisor+Snapshot.swift, Supervisor+Inspection.swift, Supervisor+Async.swift.

/// Runs a tree of flow machines: roots you start, children their states declare (``ChildFlow``), and
/// children you spawn bound to a ``FlowLifetime``. Teardown is deterministic: children before their
/// parent, siblings in reverse spawn order (declared children in SCXML's exit order: reverse document
/// order of their states, for a flow with parallel states), each machine's exit effects and teardown
/// hook exactly once, and a subtree's teardown completes before the next queued event is processed.
///
/// ## Isolation
/// A supervisor is not `Sendable`: it lives in the isolation domain that created it (on iOS, the main
/// actor) and is used there synchronously; the compiler keeps it there. To drive one tree from many
/// tasks, own the supervisor in an actor and call it through the actor. Asynchronous effects
/// (``EffectContext/task(_:)``) run off that domain and deliver their result back to it, through the
/// queue, which is why the supervisor remembers the isolation it was created in.
///
/// ## Run to completion and re-entrancy
/// All machines of the tree share one FIFO queue. A step (an event, a start, a stop) is processed
/// completely, with every teardown, spawn and restart it causes, before the next queued message. A
/// handler, hook or observer is never re-entered, and a step never continues on a machine that was torn
/// down. Calls made from inside a handler, a teardown hook or an observer (while a step is being
/// processed) behave as follows:
///
/// | Call | Inside a step |
/// | --- | --- |
/// | ``send(_:to:)`` | Queued; delivered after the step, in FIFO order. |
/// | ``stop(_:)-(MachineID)`` | Queued; performed after the step, in FIFO order; returns an empty record. |
/// | ``sweep()`` | Returns an empty record: machines whose owner is gone are swept after the step, before the next queued message. |
/// | ``start(_:context:policy:onTeardown:output:handler:)``, ``spawn(_:under:context:owner:policy:onTeardown:handler:failure:output:)`` | The handle is returned at once; the machine is started after the step, in FIFO order. Spawning under a machine being torn down is refused (``SupervisorError/Code/machineGone``). |
/// | ``snapshot()``, ``restore(_:definition:policy:handler:)`` | Refused with ``SupervisorError/Code/reentrantCall``: the tree is mid-step. |
/// | Inspection (``machines``, ``state(of:)``, ...) | Allowed: it reads the tree as it is mid-step. |
/// | ``observe(_:)``, ``events()`` | Allowed: the observer sees the events emitted from then on. |
public final class Supervisor {
    /// The tree, the queue and the rules: every decision is the core's.
    @usableFromInline @exclusivity(unchecked) var core: SupervisorCore
    /// The machines, by slot (parallel to the core's nodes).
    @usableFromInline @exclusivity(unchecked) var boxes: [AnyMachineBox?] = []
    /// Whether anyone observes tree events (observers, streams or a logger): labels are made only then.
    @usableFromInline @exclusivity(unchecked) var isObserved = false
    /// The weak reference every effect context shares.
    @usableFromInline let link = SupervisorLink()
    /// Owner lifetimes report the machines they owned here when they are deallocated.
    @usableFromInline let inbox = ReleaseInbox()
    /// What sweeps tore down since ``sweep()`` began (it returns it).
    var swept = TeardownRecord()
    var nextTask: UInt64 = 1
    /// Who observes tree events (``observe(_:)``, ``events()``).
    let observers = ObserverRegistry<TreeEvent>()
    let logger: Logger?
    let now: () -> Duration
    /// The clock delayed transitions (``After``) wait on, read as offsets from the supervisor's creation.
    let timerClock: TimerClock
    /// The one task sleeping until the earliest timer's deadline.
    var timerSleeper: TimerSleeper?
    var timerSleepers: UInt64 = 0
    /// The time a test advanced the supervisor's timers by, beyond its clock (``advanceTimers(by:)``).
    var timerShift: Duration = .zero
    /// The isolation the supervisor was created in, held without keeping it alive (``HeldIsolation``).
    var isolation: (any Actor)? { heldIsolation.actor }
    let heldIsolation: HeldIsolation

    /// Creates an empty supervisor in the caller's isolation domain.
    /// - Parameters:
    ///   - logger: Where tree events are logged at debug level.
    ///   - now: The clock restart windows are measured with (tests pass a manual one); defaults to
    ///     a monotonic clock.
    ///   - clock: The clock delayed transitions (``After``) wait on; `ContinuousClock` by default. A
    ///     test passes a clock it advances itself.
    ///   - isolation: The actor the supervisor is used on (the caller's, by default); async effects
    ///     deliver their results there, and timers fire there. A supervisor created outside any actor
    ///     keeps the timers its machines arm but cannot fire them.
    public init(logger: Logger? = nil, now: (() -> Duration)? = nil, clock: any Clock<Duration> = ContinuousClock(),
                isolation: isolated (any Actor)? = #isolation) {
        self.logger = logger
        self.timerClock = TimerClock(clock)
        core = SupervisorCore(scope: UInt64.random(in: 1...UInt64.max))
        if let now {
            self.now = now
        } else {
            let clock = ContinuousClock()
            let origin = clock.now
            self.now = { origin.duration(to: clock.now) }
        }
        heldIsolation = HeldIsolation(isolation)
        isObserved = logger != nil
        link.supervisor = self
    }

    deinit {
        timerSleeper?.task.cancel()
        for box in boxes {
            for task in box?.supervision?.tasks.values ?? [:].values { task.cancel() }
        }
        observers.finishStreams()
    }

    // MARK: Turns

    /// Runs `body` as one turn: sweeps released owners first, then `body`, then everything queued, in
    /// the order the core gives (``SupervisorCore/nextWork(released:)``). Only called when no step is
    /// being processed. It throws only what `body` throws (nothing for a body that cannot fail).
    /// Inlined: a turn with nothing released and nothing queued costs two checks.
    @inlinable
    func turn<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        precondition(!core.isProcessing, "a turn never starts inside a step")
        core.isProcessing = true
        defer { core.isProcessing = false }
        if !inbox.released.isEmpty { sweepReleased() }
        let result: T
        do throws(E) {
            result = try body()
        } catch {
            drain()
            if core.timersChanged { rescheduleTimers() }
            throw error
        }
        if core.hasQueued || !inbox.released.isEmpty { drain() }
        if core.timersChanged { rescheduleTimers() }
        return result
    }

    /// Brings the tree up to date before a read: machines whose owner is gone are torn down.
    /// Inside a step it does nothing (the sweep happens once the step completes).
    func settleForReading() {
        guard !core.isProcessing, !inbox.released.isEmpty else { return }
        turn {}
    }

    /// Performs what the queue holds, until it is empty.
    @usableFromInline
    func drain() {
        while let work = core.nextWork(released: !inbox.released.isEmpty) {
            switch work {
            case .sweep:
                sweepReleased()
            case .deliver(let event, let slot):
                deliver(event, to: slot)
            case .start(let slot):
                begin(slot)
            case .stop(let slot, let reason):
                tearDown(slot, reason: reason)
            case .fail(let slot, let failure):
                fail(slot, failure, whileStarting: false)
            case .dropEvent(let id, let event):
                publish(.dropped(id, what: "event '\(event)'"))
            case .dropFailure(let id, let failure):
                publish(.dropped(id, what: "async error '\(failure.message)'"))
            case .fire(let timer, let slot):
                fire(timer, to: slot)
            }
        }
    }

    // MARK: Errors

    func gone(_ id: MachineID, _ action: String) -> SupervisorError {
        if id.scope != core.scope {
            return SupervisorError(code: .machineGone,
                                   message: "cannot \(action) machine \(id): it belongs to another supervisor")
        }
        return SupervisorError(code: .machineGone, message: "cannot \(action) machine \(id): it was torn down")
    }

    func refuseInsideStep(_ action: String) throws(SupervisorError) {
        if core.isProcessing {
            throw SupervisorError(code: .reentrantCall,
                                  message: "cannot \(action) from inside a handler, hook or observer: the tree is mid-step")
        }
    }

    // MARK: For inspection and snapshots (see Supervisor+Inspection.swift, Supervisor+Snapshot.swift)

    /// Every live machine, depth first, after sweeping released owners.
    func liveTree() -> [(slot: Int32, depth: Int)] {
        settleForReading()
        return core.preorder()
    }

    func box(_ slot: Int32) -> AnyMachineBox { boxes[Int(slot)]! }

    func slot(of id: MachineID) -> Int32? {
        settleForReading()
        return core.slot(of: id)
    }
}

/// Lets an async effect's task refer to its supervisor without keeping it alive.
///
/// `@unchecked Sendable`: the task only reads `value` inside `finishTask`, which runs isolated to the
/// actor the supervisor was created on, the one domain where the supervisor is ever used.
final class WeakSupervisor: @unchecked Sendable {
    weak var value: Supervisor?
    init(_ value: Supervisor) { self.value = value }
}
