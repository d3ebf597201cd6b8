import Foundation

/// A clock that only moves when a test advances it: `advance(by:)` resumes every sleeper whose
/// deadline has come, in deadline order. Tests never wait on a real clock.
///
/// Give it to a `FlowRuntime` or a `Supervisor` whose flows have delayed
/// transitions (`After`), then move time on:
///
/// ```swift
/// let clock = ManualClock()
/// let runtime = try FlowRuntime(code, clock: clock) { effect, _ in performed.append(effect) }
/// try runtime.start()
/// clock.advance(by: .seconds(30))  // the runtime's timer task wakes, and fires the transition
/// ```
///
/// The runtime fires a timer on its own actor after the clock resumes its sleeper, so a test awaits
/// the effect (for example by yielding until it shows). `FlowStepTester` and `FlowTreeTester` drive
/// time themselves, step by step, without a clock. It may be used from any thread.
public final class ManualClock: Clock, @unchecked Sendable {
    // @unchecked: every mutable field is read and written under `lock`.
    /// A point in the clock's time: how far it is from the clock's start.
    public struct Instant: InstantProtocol {
        /// The time since the clock's start.
        public var offset: Duration
        /// The instant `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }
        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `lhs` comes before `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [Sleeper] = []
    private var cancelled: Set<Int> = []
    private var nextID = 0

    /// A clock at zero, with no sleeper.
    public init() {}

    /// The clock's time: its start, advanced by every ``advance(by:)`` so far.
    public var now: Instant { lock.withLock { current } }
    /// Zero: the clock moves only by ``advance(by:)``, by any amount.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on the clock.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    /// Suspends until ``advance(by:)`` moves the clock to `deadline` or past it (at once when it is
    /// there already); throws `CancellationError` when the sleeping task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = lock.withLock { () -> Int in
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resume: Result<Void, any Error>? = lock.withLock {
                    if cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= current { return .success(()) }
                    sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let sleeper = lock.withLock { () -> Sleeper? in
                guard let k = sleepers.firstIndex(where: { $0.id == id }) else {
                    cancelled.insert(id)
                    return nil
                }
                return sleepers.remove(at: k)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on and wakes every sleeper whose deadline has come, earliest first.
    public func advance(by duration: Duration) {
        let due = lock.withLock { () -> [Sleeper] in
            current = current.advanced(by: duration)
            let due = sleepers.filter { $0.deadline <= current }.sorted { $0.deadline < $1.deadline }
            sleepers.removeAll { $0.deadline <= current }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
