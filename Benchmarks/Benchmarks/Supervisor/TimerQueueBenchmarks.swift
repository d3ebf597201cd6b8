import Benchmark
import BenchmarkSupport
@_spi(TimerQueue) import Flowstate

// Issue 25: "10,000 armed timers cost O(log n) each to arm and cancel". The queue that runtimes and
// supervisors keep their armed timers in (`FlowTimerQueue`), filled to 1,000 and to 10,000 timers and
// emptied again: every timer is armed with an earlier deadline than all before it (so each arming
// climbs to the top of the heap, the worst case), then the timers are cancelled in a shuffled order.
// `check-ratios.py` divides the cost per timer at 10,000 by the cost per timer at 1,000 (paired in
// every iteration): O(log n) is about log2(10,000) / log2(1,000) = 1.33x, a queue that scans or
// shifts its timers about 10x.

/// Arms `count` timers with decreasing deadlines, then cancels them in `cancelOrder`.
@inline(never)
func armAndCancel(_ count: Int, cancelOrder: [Int]) -> Int {
    var queue = FlowTimerQueue<Int>()
    for key in 0..<count { queue.arm(key, at: .milliseconds(count - key)) }
    let armed = queue.count
    for key in cancelOrder { queue.cancel(key) }
    precondition(queue.count == 0 && armed == count, "the queue lost or kept timers")
    return armed
}

/// `0..<count` in a fixed pseudo-random order (the same in every run).
func shuffledKeys(_ count: Int) -> [Int] {
    var keys = Array(0..<count)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for i in stride(from: count - 1, to: 0, by: -1) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        keys.swapAt(i, Int((state >> 33) % UInt64(i + 1)))
    }
    return keys
}

func timerQueueBenchmarks() {
    let small = shuffledKeys(1_000), large = shuffledKeys(10_000)
    Benchmark("Timers: 1k armed and cancelled", configuration: ratioConfiguration(maxIterations: 200)) { benchmark in
        benchmark.measure { blackHole(armAndCancel(1_000, cancelOrder: small)) }
    }
    // Paired: the 1k run just before, in every iteration.
    Benchmark("Timers: 10k armed and cancelled", configuration: ratioConfiguration(maxIterations: 50)) { benchmark in
        benchmark.measure(pairedWith: { blackHole(armAndCancel(1_000, cancelOrder: small)) }) {
            blackHole(armAndCancel(10_000, cancelOrder: large))
        }
    }
}
