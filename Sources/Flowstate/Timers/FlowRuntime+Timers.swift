/// The timers a ``FlowRuntime`` has scheduled on its clock: one queue (``FlowTimerQueue``) ordered by
/// deadline, and one sleeping task, for the earliest deadline, re-armed whenever the earliest changes.
/// When it wakes it hops to the runtime's actor, which fires every timer then due, in deadline order.
final class FlowRuntimeTimers<F: Flow> {
    /// The actor timers fire on, held as the sleeping task holds it (``HeldIsolation``): an actor that
    /// keeps the runtime is not kept alive by the runtime's timers.
    private let isolation: HeldIsolation
    /// The clock, read as offsets from when the runtime was created: what deadlines are.
    let clock: TimerClock
    private var queue = FlowTimerQueue<FlowTimer>()
    /// Timers that came due while a step was under way (or are about to fire), in the order they came due.
    private var due: [FlowTimer] = []
    /// The sleeping task, the deadline it wakes at, and its number (a woken task that was replaced
    /// meanwhile is recognised by it).
    private var sleeper: (task: Task<Void, Never>, deadline: Duration, number: UInt64)?
    private var sleepers: UInt64 = 0

    init(clock: any Clock<Duration>, isolation: any Actor) {
        self.clock = TimerClock(clock)
        self.isolation = HeldIsolation(isolation)
    }

    /// Schedules the timers a step armed and cancels those it cancelled, then re-arms the sleeping
    /// task if the earliest deadline changed.
    func apply(_ changes: [FlowTimerChange], for runtime: FlowRuntime<F>) {
        guard !changes.isEmpty else { return }
        for change in changes {
            switch change {
            case .arm(let timer, let delay):
                queue.arm(timer, at: clock.now() + delay)
            case .cancel(let timer):
                queue.cancel(timer)
                due.removeAll { $0 == timer }
            }
        }
        reschedule(for: runtime)
    }

    /// Whether `timer` is scheduled or came due and waits to fire.
    func isScheduled(_ timer: FlowTimer) -> Bool { queue.contains(timer) || due.contains(timer) }

    /// The sleeping task numbered `number` woke: every timer due now moves to the timers waiting to
    /// fire, and the task for the next deadline is started.
    func wake(_ number: UInt64, for runtime: FlowRuntime<F>) {
        if sleeper?.number == number { sleeper = nil }
        due.append(contentsOf: queue.removeDue(at: clock.now()))
        reschedule(for: runtime)
    }

    /// The next timer that came due and waits to fire.
    func takeDue() -> FlowTimer? { due.isEmpty ? nil : due.removeFirst() }

    /// The timers scheduled and not yet fired, in arming order.
    var scheduledTimers: [FlowTimer] {
        (queue.ordered.map(\.key) + due).sorted { $0.generation < $1.generation }
    }

    func cancelAll() {
        sleeper?.task.cancel()
        sleeper = nil
        queue.removeAll()
        due.removeAll()
    }

    /// Keeps one task sleeping until the earliest deadline (none when no timer is scheduled).
    private func reschedule(for runtime: FlowRuntime<F>) {
        let next = queue.nextDeadline
        if sleeper?.deadline == next { return }
        sleeper?.task.cancel()
        sleeper = nil
        guard let next, isolation.actor != nil else { return }
        sleepers &+= 1
        let task = RuntimeReference(runtime).sleep(sleepers, until: next, clock: clock, on: isolation)
        sleeper = (task, next, sleepers)
    }

    /// The runtime, held weakly by a sleeping task and read only on the runtime's actor.
    private final class RuntimeReference: @unchecked Sendable {
        // @unchecked: written once in `init`; `runtime` is read only by `wake`, on the runtime's actor.
        weak var runtime: FlowRuntime<F>?
        init(_ runtime: FlowRuntime<F>) { self.runtime = runtime }

        /// A task that sleeps until `deadline` on `clock`, then wakes the runtime on its actor.
        func sleep(_ number: UInt64, until deadline: Duration, clock: TimerClock, on held: HeldIsolation)
            -> Task<Void, Never>
        {
            Task {
                do { try await clock.sleep(until: deadline) } catch { return }  // cancelled
                guard let isolation = held.actor else { return }  // the actor is gone, and the runtime with it
                await self.wake(number, on: isolation)
            }
        }

        /// Runs on the runtime's actor.
        private func wake(_ number: UInt64, on isolation: isolated any Actor) {
            runtime?.wake(number)
        }
    }
}

/// A clock read as durations since an origin (the instant the host was created): what timer deadlines
/// are. Type-erases an `any Clock<Duration>` without losing its instants, so a deadline is slept
/// until as an instant of the clock (not for a delay measured when the sleep begins).
struct TimerClock: Sendable {
    /// The time since the origin.
    let now: @Sendable () -> Duration
    /// Sleeps until the origin plus `deadline`; throws `CancellationError` when cancelled.
    let sleep: @Sendable (Duration) async throws -> Void

    /// `clock`, from its current instant.
    init(_ clock: any Clock<Duration>) {
        (now, sleep) = Self.reader(clock)
    }

    private static func reader<C: Clock>(_ clock: C)
        -> (@Sendable () -> Duration, @Sendable (Duration) async throws -> Void) where C.Duration == Duration
    {
        let origin = clock.now
        return ({ origin.duration(to: clock.now) },
                { deadline in try await clock.sleep(until: origin.advanced(by: deadline), tolerance: nil) })
    }

    /// Sleeps until the origin plus `deadline`.
    func sleep(until deadline: Duration) async throws { try await sleep(deadline) }
}
