/// Armed timers ordered by deadline: what a host (``FlowRuntime``, ``Supervisor``) schedules on its
/// clock, with one sleeping task for the earliest deadline; the one timer queue of the package (the
/// step tester's virtual clock and the flow files' interpreter keep theirs in it too).
///
/// Each timer has an identity (`Key`: for a runtime its ``FlowTimer``, for a supervisor the machine
/// and the timer) and a deadline, an offset from an origin the host chose (the clock's instant when
/// it was created). Timers are ordered by deadline, and timers with the same deadline by the order
/// they were armed in (the earlier arming first). A key is armed at most once: arming an armed key
/// again replaces its deadline and counts as a new arming.
///
/// An indexed binary min-heap: ``arm(_:at:)``, ``cancel(_:)`` and ``popDue(at:)`` cost O(log n) each,
/// ``next`` and ``contains(_:)`` O(1); no operation scans the timers or sorts them (only ``ordered``,
/// which returns them all, sorts).
///
/// Not part of the public API: `FlowTesting` (the step tester's virtual clock), `FlowSpec` (the
/// interpreter's delayed `<send>`s and timers, keyed by the order they were sent, so that sends due
/// at the same time come in that order) and the benchmarks (`make bench`, a separate package that
/// measures the O(log n) claim at 10,000 timers) reach it through `@_spi(TimerQueue) import Flowstate`.
@_spi(TimerQueue)
public struct FlowTimerQueue<Key: Hashable & Sendable>: Sendable {
    /// One armed timer: its key, deadline and arming order.
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline var key: Key
        @usableFromInline var deadline: Duration
        @usableFromInline var order: UInt64

        @usableFromInline
        init(key: Key, deadline: Duration, order: UInt64) {
            self.key = key
            self.deadline = deadline
            self.order = order
        }

        /// Whether `self` comes due before `other`: earlier deadline, then earlier arming.
        @inlinable
        func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : order < other.order
        }
    }

    /// The heap: `heap[0]` is the earliest timer; each entry precedes its two children.
    @usableFromInline var heap: [Entry] = []
    /// Where each armed key is in `heap`.
    @usableFromInline var positions: [Key: Int] = [:]
    /// The arming order of the next timer armed.
    @usableFromInline var nextOrder: UInt64 = 0
    /// How many times an entry has moved one level up or down the heap, in all: what the O(log n)
    /// claim bounds (the complexity test reads it; counting costs an addition per move).
    @usableFromInline package internal(set) var levelMoves = 0

    /// An empty queue.
    @inlinable @_spi(TimerQueue) public init() {}

    /// How many timers are armed.
    @inlinable @_spi(TimerQueue) public var count: Int { heap.count }

    /// Whether no timer is armed.
    package var isEmpty: Bool { heap.isEmpty }

    /// Whether `key` is armed.
    package func contains(_ key: Key) -> Bool { positions[key] != nil }

    /// The deadline of `key`, or `nil` when it is not armed.
    package func deadline(of key: Key) -> Duration? { positions[key].map { heap[$0].deadline } }

    /// The timer that comes due first (earliest deadline, then earliest arming), or `nil` when none is armed.
    package var next: (key: Key, deadline: Duration)? { heap.first.map { ($0.key, $0.deadline) } }

    /// The earliest deadline, or `nil` when no timer is armed: when a host's sleeping task wakes.
    package var nextDeadline: Duration? { heap.first?.deadline }

    /// Every armed timer in the order they come due (deadline, then arming order). O(n log n).
    package var ordered: [(key: Key, deadline: Duration)] {
        heap.sorted { $0.precedes($1) }.map { ($0.key, $0.deadline) }
    }

    /// Arms `key` to come due at `deadline`; an armed key is re-armed (its old deadline forgotten).
    @inlinable @_spi(TimerQueue) public mutating func arm(_ key: Key, at deadline: Duration) {
        if positions[key] != nil { cancel(key) }
        let entry = Entry(key: key, deadline: deadline, order: nextOrder)
        nextOrder &+= 1
        heap.append(entry)
        positions[key] = heap.count - 1
        siftUp(heap.count - 1)
    }

    /// Cancels `key`: it will not come due.
    /// - Returns: Its deadline, or `nil` when it was not armed (nothing changes).
    @discardableResult @inlinable
    @_spi(TimerQueue) public mutating func cancel(_ key: Key) -> Duration? {
        guard let index = positions.removeValue(forKey: key) else { return nil }
        let removed = heap[index]
        let last = heap.removeLast()
        if index < heap.count {
            heap[index] = last
            positions[last.key] = index
            // The moved entry may belong above or below its new place.
            if index > 0 && last.precedes(heap[(index - 1) / 2]) { siftUp(index) } else { siftDown(index) }
        }
        return removed.deadline
    }

    /// Removes and returns the timer that comes due first if it is due at `now` (its deadline is at
    /// or before `now`); `nil` otherwise. Calling it until it returns `nil` gives every timer due at
    /// `now`, in the order they come due.
    package mutating func popDue(at now: Duration) -> Key? {
        guard let first = heap.first, first.deadline <= now else { return nil }
        cancel(first.key)
        return first.key
    }

    /// Removes and returns every timer due at `now`, in the order they come due.
    package mutating func removeDue(at now: Duration) -> [Key] {
        var due: [Key] = []
        while let key = popDue(at: now) { due.append(key) }
        return due
    }

    /// Cancels every timer.
    package mutating func removeAll() {
        heap.removeAll()
        positions.removeAll()
    }

    @usableFromInline
    mutating func siftUp(_ start: Int) {
        var child = start
        let entry = heap[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard entry.precedes(heap[parent]) else { break }
            heap[child] = heap[parent]
            positions[heap[child].key] = child
            child = parent
            levelMoves &+= 1
        }
        heap[child] = entry
        positions[entry.key] = child
    }

    @usableFromInline
    mutating func siftDown(_ start: Int) {
        var parent = start
        let entry = heap[parent]
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            let child = right < count && heap[right].precedes(heap[left]) ? right : left
            guard heap[child].precedes(entry) else { break }
            heap[parent] = heap[child]
            positions[heap[parent].key] = parent
            parent = child
            levelMoves &+= 1
        }
        heap[parent] = entry
        positions[entry.key] = parent
    }
}
