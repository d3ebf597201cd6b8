@_spi(TimerQueue) @testable import Flowstate
import PropertyBased
import Testing

/// The timer queue hosts schedule timers with (``FlowTimerQueue``), on its own and against a naive model.
@Suite("Timer queue")
struct TimerQueueTests {
    @Test("Timers come due in deadline order, ties in arming order")
    func order() {
        var queue = FlowTimerQueue<String>()
        queue.arm("c", at: .seconds(30))
        queue.arm("a", at: .seconds(10))
        queue.arm("b", at: .seconds(10))
        queue.arm("d", at: .seconds(5))
        #expect(queue.count == 4)
        #expect(queue.nextDeadline == .seconds(5))
        #expect(queue.next?.key == "d")
        #expect(queue.removeDue(at: .seconds(4)).isEmpty)
        #expect(queue.removeDue(at: .seconds(10)) == ["d", "a", "b"])
        #expect(queue.nextDeadline == .seconds(30))
        #expect(queue.popDue(at: .seconds(29)) == nil)
        #expect(queue.popDue(at: .seconds(31)) == "c")
        #expect(queue.isEmpty && queue.nextDeadline == nil && queue.next == nil)
    }

    @Test("Cancelling removes a timer; re-arming replaces its deadline and counts as a new arming")
    func cancelAndRearm() {
        var queue = FlowTimerQueue<Int>()
        for k in 0..<10 { queue.arm(k, at: .seconds(10 - k)) }
        #expect(queue.cancel(9) == .seconds(1))
        #expect(queue.cancel(9) == nil)
        #expect(!queue.contains(9) && queue.contains(8))
        #expect(queue.nextDeadline == .seconds(2))
        queue.arm(0, at: .seconds(2))  // was 10s: now tied with 8, armed after it
        #expect(queue.deadline(of: 0) == .seconds(2))
        #expect(queue.count == 9)
        #expect(queue.removeDue(at: .seconds(3)) == [8, 0, 7])
        #expect(queue.ordered.map(\.key) == [6, 5, 4, 3, 2, 1])
        queue.removeAll()
        #expect(queue.isEmpty && !queue.contains(6))
    }

    /// The naive model, from ``FlowTimerQueue``'s doc comment: a key is armed at most once, arming an
    /// armed key replaces its deadline and counts as a new arming; timers come due by deadline, ties by
    /// arming order. A sorted array, re-sorted after every change.
    struct Model {
        var timers: [(key: Int, deadline: Duration, order: Int)] = []
        var armings = 0

        mutating func arm(_ key: Int, at deadline: Duration) {
            timers.removeAll { $0.key == key }
            timers.append((key, deadline, armings))
            armings += 1
            timers.sort { ($0.deadline, $0.order) < ($1.deadline, $1.order) }
        }

        mutating func cancel(_ key: Int) -> Duration? {
            guard let k = timers.firstIndex(where: { $0.key == key }) else { return nil }
            return timers.remove(at: k).deadline
        }

        mutating func removeDue(at now: Duration) -> [Int] {
            let due = timers.prefix { $0.deadline <= now }.map(\.key)
            timers.removeFirst(due.count)
            return due
        }
    }

    /// An operation: 0-4 arm, 5-7 cancel, 8 take what is due, 9 pop one; a key and a time.
    struct Op: CustomStringConvertible {
        let kind: Int, key: Int, time: Int
        var description: String { "op(\(kind), key \(key), t \(time))" }
    }

    static let ops = zip(Gen.int(in: 0...9), Gen.int(in: 0...30), Gen.int(in: 0...40))
        .map { Op(kind: $0, key: $1, time: $2) }.array(of: 1...120)

    @Test("10,000 timers: each arm and cancel moves an entry at most log2(n) levels, whatever the order")
    func logarithmic() {
        // The work of an operation is the levels its entry moves (one swap each); the heap's height
        // bounds it: floor(log2(n)) for n timers. Counted, not timed.
        let n = 10_000
        let height = Int.bitWidth - 1 - n.leadingZeroBitCount  // floor(log2(10,000)) = 13
        var generator = SystemRandomNumberGenerator()
        for order in ["increasing", "decreasing", "random"] {
            var queue = FlowTimerQueue<Int>()
            var worst = 0
            for k in 0..<n {
                let deadline: Duration = switch order {
                case "increasing": .milliseconds(k)
                case "decreasing": .milliseconds(n - k)
                default: .milliseconds(Int.random(in: 0..<1_000_000, using: &generator))
                }
                let before = queue.levelMoves
                queue.arm(k, at: deadline)
                worst = max(worst, queue.levelMoves - before)
            }
            #expect(queue.count == n)
            for k in (0..<n).shuffled(using: &generator) {
                let before = queue.levelMoves
                queue.cancel(k)
                worst = max(worst, queue.levelMoves - before)
            }
            #expect(queue.isEmpty)
            #expect(worst <= height, "\(order): an operation moved an entry \(worst) levels, more than log2(n) = \(height)")
            // Decreasing deadlines make every arming climb to the root: the bound is reached, so
            // the count is the real work (a linear queue would move thousands of entries).
            if order == "decreasing" { #expect(worst == height) }
        }
    }

    @Test("Property: the queue agrees with a sorted array on every operation")
    func agreesWithModel() async {
        await propertyCheck(count: 400, input: Self.ops) { ops in
            var queue = FlowTimerQueue<Int>()
            var model = Model()
            for op in ops {
                let time = Duration.seconds(op.time)
                switch op.kind {
                case 0...4:
                    queue.arm(op.key, at: time)
                    model.arm(op.key, at: time)
                case 5...7:
                    #expect(queue.cancel(op.key) == model.cancel(op.key), "\(op)")
                case 8:
                    #expect(queue.removeDue(at: time) == model.removeDue(at: time), "\(op)")
                default:
                    let expected = model.timers.first.flatMap { $0.deadline <= time ? $0.key : nil }
                    if expected != nil { model.timers.removeFirst() }
                    #expect(queue.popDue(at: time) == expected, "\(op)")
                }
                #expect(queue.count == model.timers.count)
                #expect(queue.nextDeadline == model.timers.first?.deadline)
                #expect(queue.next?.key == model.timers.first?.key)
                #expect(queue.ordered.map(\.key) == model.timers.map(\.key), "\(ops)")
                #expect(queue.contains(op.key) == model.timers.contains { $0.key == op.key })
            }
        }
    }
}
