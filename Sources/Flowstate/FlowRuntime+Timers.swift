/// The timers a ``FlowRuntime`` has scheduled on its clock: one sleeping task per armed timer, which
/// hops to the runtime's actor to deliver it when it wakes.
final class FlowRuntimeTimers<F: Flow> {
    let clock: any Clock<Duration>
    let isolation: any Actor
    private var scheduled: [FlowTimer: Task<Void, Never>] = [:]
    /// Timers delivered while a step was under way, in the order they came due.
    private var due: [FlowTimer] = []

    init(clock: any Clock<Duration>, isolation: any Actor) {
        self.clock = clock
        self.isolation = isolation
    }

    /// Schedules an armed timer, or cancels a cancelled one.
    func apply(_ change: FlowTimerChange, for runtime: FlowRuntime<F>) {
        switch change {
        case .arm(let timer, let delay):
            scheduled[timer] = RuntimeReference(runtime).schedule(timer, after: delay, clock: clock, on: isolation)
        case .cancel(let timer):
            scheduled.removeValue(forKey: timer)?.cancel()
            due.removeAll { $0 == timer }
        }
    }

    func isScheduled(_ timer: FlowTimer) -> Bool { scheduled[timer] != nil }

    /// A scheduled timer came due: it is no longer scheduled, and waits to fire.
    func markDue(_ timer: FlowTimer) {
        scheduled[timer] = nil
        due.append(timer)
    }

    /// The next timer that came due and waits to fire.
    func takeDue() -> FlowTimer? { due.isEmpty ? nil : due.removeFirst() }

    var scheduledTimers: [FlowTimer] { scheduled.keys.sorted { $0.generation < $1.generation } }

    func cancelAll() {
        for task in scheduled.values { task.cancel() }
        scheduled.removeAll()
        due.removeAll()
    }

    /// The runtime, held weakly by a sleeping task and read only on the runtime's actor.
    private final class RuntimeReference: @unchecked Sendable {
        // @unchecked: written once in `init`; `runtime` is read only by `deliver`, on the runtime's actor.
        weak var runtime: FlowRuntime<F>?
        init(_ runtime: FlowRuntime<F>) { self.runtime = runtime }

        /// A task that sleeps `delay` on `clock`, then delivers `timer` on the runtime's actor.
        func schedule(_ timer: FlowTimer, after delay: Duration, clock: any Clock<Duration>, on isolation: any Actor)
            -> Task<Void, Never>
        {
            Task {
                do { try await clock.sleep(for: delay) } catch { return }  // cancelled
                await self.deliver(timer, on: isolation)
            }
        }

        /// Runs on the runtime's actor.
        private func deliver(_ timer: FlowTimer, on isolation: isolated any Actor) {
            runtime?.deliver(timer)
        }
    }
}
