import Benchmark
import Flowstate

/// The smallest useful coordinator: one screen, one way out.
enum Screen: Flow {
    enum State: Hashable, Sendable { case shown, closed }
    enum Event: FlowEvent { case close }
    typealias Effect = Int
    typealias Output = Void
}

let screen = FlowDefinition<Screen>("screen", initial: .shown) {
    StateNode(.shown) { On(.close, to: .closed) }
    Final(.closed)
}

/// The baseline: the hand-rolled coordinator pattern, children kept in an array and removed by hand.
final class HandCoordinator {
    var children: [HandCoordinator] = []
    var state = Screen.State.shown
}

/// Spawns `count` machines under one root (flat) or as root -> mids -> leaves (three levels).
@inline(never)
func spawnTree(_ supervisor: Supervisor, count: Int, levels: Int) throws -> MachineHandle<Screen> {
    let root = try supervisor.start(screen) { _, _ in }
    if levels == 1 {
        for _ in 0..<count { try supervisor.spawn(screen, under: root, handler: { _, _ in }, output: { _ in nil }) }
    } else {
        let fanOut = Int(Double(count).squareRoot())
        for _ in 0..<fanOut {
            let mid = try supervisor.spawn(screen, under: root, handler: { _, _ in }, output: { _ in nil })
            for _ in 0..<fanOut { try supervisor.spawn(screen, under: mid, handler: { _, _ in }, output: { _ in nil }) }
        }
    }
    return root
}

@inline(never)
func handTree(count: Int, levels: Int) -> HandCoordinator {
    let root = HandCoordinator()
    if levels == 1 {
        for _ in 0..<count { root.children.append(HandCoordinator()) }
    } else {
        let fanOut = Int(Double(count).squareRoot())
        for _ in 0..<fanOut {
            let mid = HandCoordinator()
            for _ in 0..<fanOut { mid.children.append(HandCoordinator()) }
            root.children.append(mid)
        }
    }
    return root
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .mallocBytesCount, .peakMemoryResidentDelta],
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 10
    )

    for (count, label) in [(10_000, "10k"), (100_000, "100k"), (1_000_000, "1M")] {
        for levels in [1, 3] {
            let shape = levels == 1 ? "flat" : "3-level"
            Benchmark("Supervisor: spawn + teardown \(label) \(shape) (Flowstate)",
                      configuration: .init(maxIterations: count >= 1_000_000 ? 3 : 10)) { benchmark in
                let supervisor = Supervisor()
                benchmark.startMeasurement()
                let root = try spawnTree(supervisor, count: count, levels: levels)
                let record = supervisor.stop(root)
                benchmark.stopMeasurement()
                precondition(record.ids.count >= count && supervisor.liveCount == 0)
            }
            Benchmark("Supervisor: spawn + teardown \(label) \(shape) (hand-written child arrays)",
                      configuration: .init(maxIterations: count >= 1_000_000 ? 3 : 10)) { benchmark in
                benchmark.startMeasurement()
                var root: HandCoordinator? = handTree(count: count, levels: levels)
                blackHole(root)
                root = nil
                benchmark.stopMeasurement()
            }
        }
    }

    Benchmark("Supervisor: 100k idle machines, spawn only (memory per machine)",
              configuration: .init(metrics: [.mallocBytesCount, .peakMemoryResidentDelta], maxIterations: 3)) { benchmark in
        let supervisor = Supervisor()
        benchmark.startMeasurement()
        let root = try spawnTree(supervisor, count: 100_000, levels: 1)
        benchmark.stopMeasurement()
        blackHole(supervisor.liveCount)
        supervisor.stop(root)
    }
}
