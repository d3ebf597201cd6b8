import Benchmark
import CHeapStats

/// The metrics every ratio benchmark records (`check-ratios.py` compares them within one run).
///
/// The checker reads the harness's `influx` export: raw percentiles (nanoseconds, counts, bytes) of
/// every metric of every benchmark in one CSV file. (Not `jmh`: it needs `.throughput`, which the
/// harness leaves out when an iteration takes more than a second.)
public enum RatioMetrics {
    /// CPU time of the benchmark's thread over the measured region, in nanoseconds. Unlike wall clock,
    /// it does not count time the thread waited for a core (2 cores shared with builds), and unlike
    /// the harness's `cpuTotal` (scheduler ticks, 10 ms on Linux) it resolves nanoseconds.
    public static let threadCPU = BenchmarkMetric.custom("Thread CPU time (ns)", polarity: .prefersSmaller,
                                                         useScalingFactor: true)
    /// Heap bytes still allocated after the measured region minus before it (glibc `mallinfo2`:
    /// in-use chunks, headers included, plus mmapped chunks), clamped at 0: what the measured code
    /// keeps, without the transient allocations that `mallocBytesCount` also counts.
    public static let heapRetained = BenchmarkMetric.custom("Heap retained (bytes)", polarity: .prefersSmaller,
                                                            useScalingFactor: true)

    /// For a benchmark measured against a baseline in the same iteration
    /// (``Benchmark/measure(pairedWith:_:)``): the baseline's thread CPU time, in nanoseconds.
    public static let pairedBaselineCPU = BenchmarkMetric.custom("Paired baseline thread CPU time (ns)",
                                                                 polarity: .prefersSmaller, useScalingFactor: true)
    /// The iteration's thread CPU time divided by its paired baseline's, times 10,000 (an integer metric).
    public static let pairedRatio = BenchmarkMetric.custom("Ratio to paired baseline (x10000)",
                                                           polarity: .prefersSmaller, useScalingFactor: false)

    public static let all: [BenchmarkMetric] = [
        .wallClock, .mallocCountTotal, .mallocBytesCount, threadCPU, heapRetained, pairedBaselineCPU, pairedRatio,
    ]
}

extension Benchmark {
    /// Runs `body` as the measured region and records, besides the harness's own metrics,
    /// ``RatioMetrics/threadCPU`` and ``RatioMetrics/heapRetained``.
    @inline(__always)
    public func measure<T>(_ body: () throws -> T) rethrows -> T {
        try measureCPU(body).result
    }

    /// Runs `baseline` (timed by thread CPU time only, outside the harness's measured region), then
    /// `body` as the measured region, and records the baseline's time and the ratio of the two
    /// (``RatioMetrics/pairedBaselineCPU``, ``RatioMetrics/pairedRatio``).
    ///
    /// Both sides of the ratio run back to back in every iteration, so a load that comes and goes on
    /// the machine (a build on the other core) weighs on both alike: the median of the per-iteration
    /// ratios is steadier than the ratio of two benchmarks' medians measured seconds apart.
    @inline(__always)
    public func measure<T>(pairedWith baseline: () throws -> Void, _ body: () throws -> T) rethrows -> T {
        let baselineBefore = cheapstats_thread_cpu_ns()
        try baseline()
        let baselineCPU = max(1, cheapstats_thread_cpu_ns() - baselineBefore)
        let (result, cpu) = try measureCPU(body)
        measurement(RatioMetrics.pairedBaselineCPU, Int(baselineCPU))
        measurement(RatioMetrics.pairedRatio, Int((Double(cpu) / Double(baselineCPU) * 10_000).rounded()))
        return result
    }

    @inline(__always)
    private func measureCPU<T>(_ body: () throws -> T) rethrows -> (result: T, cpu: Int64) {
        let heapBefore = cheapstats_heap_live_bytes()
        startMeasurement()
        let cpuBefore = cheapstats_thread_cpu_ns()
        let result = try body()
        let cpuAfter = cheapstats_thread_cpu_ns()
        stopMeasurement()
        let heapAfter = cheapstats_heap_live_bytes()
        measurement(RatioMetrics.threadCPU, Int(cpuAfter - cpuBefore))
        measurement(RatioMetrics.heapRetained, max(0, Int(heapAfter - heapBefore)))
        return (result, cpuAfter - cpuBefore)
    }
}

/// The configuration of a ratio benchmark.
public func ratioConfiguration(maxIterations: Int, maxDuration: Duration = .seconds(10),
                               warmupIterations: Int = 1) -> Benchmark.Configuration {
    .init(metrics: RatioMetrics.all, timeUnits: .nanoseconds, warmupIterations: warmupIterations,
          maxDuration: maxDuration, maxIterations: maxIterations)
}
