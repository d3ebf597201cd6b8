import Benchmark
import BenchmarkSupport
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

/// The older baseline: the hand-rolled coordinator pattern, children kept in an array and removed by
/// hand (no map, no teardown order). See `HandTree` for the baseline `make bench` checks against.
final class HandCoordinator {
    var children: [HandCoordinator] = []
    var state = Screen.State.shown
}

/// Spawns `count` machines under one root (flat) or as root -> mids -> leaves (three levels, with
/// `Int(sqrt(count))` mids of as many leaves each).
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

    treeBenchmarks()
    heapBenchmarks()
    ownerBenchmarks()
    timerQueueBenchmarks()

    // The earlier comparison (docs/PERFORMANCE.md, "Supervisor: spawn and teardown"), not part of
    // `make bench`: against bare child arrays, flat and three levels.
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

/// The sizes of the linearity checks: 1k, 10k, 100k and 1M machines, as three-level trees.
let treeSizes: [(count: Int, label: String, iterations: Int, seconds: Int)] = [
    (1_000, "1k", 200, 10), (10_000, "10k", 50, 10), (100_000, "100k", 15, 10), (1_000_000, "1M", 5, 20),
]

/// Spawn plus teardown, and the heap an idle tree keeps, against `HandTree` in the same run.
/// Names start with "Tree:"; `check-ratios.py` divides by the machine count (the name's `N machines`).
func treeBenchmarks() {
    for size in treeSizes {
        let fanOut = Int(Double(size.count).squareRoot())
        let machines = 1 + fanOut + fanOut * fanOut
        let timed = ratioConfiguration(maxIterations: size.iterations, maxDuration: .seconds(size.seconds))
        let memory = ratioConfiguration(maxIterations: size.count >= 1_000_000 ? 3 : 5)

        Benchmark("Tree: spawn + teardown, \(size.label), \(machines) machines (hand-written tree)",
                  configuration: timed) { benchmark in
            let tree = HandTree()
            let count = benchmark.measure { tree.tearDown(handTree(tree, fanOut: fanOut)) }
            precondition(count == machines && tree.nodes.isEmpty)
        }

        // Paired: the hand-written tree of the same size runs just before, in every iteration.
        Benchmark("Tree: spawn + teardown, \(size.label), \(machines) machines (Supervisor)",
                  configuration: timed) { benchmark in
            let tree = HandTree()
            let supervisor = Supervisor()
            let record = try benchmark.measure(pairedWith: {
                precondition(tree.tearDown(handTree(tree, fanOut: fanOut)) == machines)
            }) {
                supervisor.stop(try spawnTree(supervisor, count: size.count, levels: 3))
            }
            precondition(record.ids.count == machines && supervisor.liveCount == 0 && tree.nodes.isEmpty)
        }

        Benchmark("Tree: idle, \(size.label), \(machines) machines (hand-written tree)",
                  configuration: memory) { benchmark in
            let tree = HandTree()
            let root = benchmark.measure { handTree(tree, fanOut: fanOut) }
            precondition(tree.nodes.count == machines)
            tree.tearDown(root)
        }

        Benchmark("Tree: idle, \(size.label), \(machines) machines (Supervisor)",
                  configuration: memory) { benchmark in
            let supervisor = Supervisor()
            let root = try benchmark.measure { try spawnTree(supervisor, count: size.count, levels: 3) }
            precondition(supervisor.liveCount == machines)
            supervisor.stop(root)
        }
    }
}

/// The heap per idle supervised machine (docs/PERFORMANCE.md, "The heap per machine"): `count` one-screen
/// machines spawned under one root and left idle. `check-ratios.py --only heap` divides the heap the
/// spawns leave allocated, and the allocations they make, by the machine count, against absolute
/// thresholds near today's figures (a box that grows by a heap block's 16 bytes, or an allocation
/// more per machine, fails). Names start with "Heap:".
let heapSizes: [(count: Int, label: String)] = [(10_000, "10k"), (100_000, "100k")]

func heapBenchmarks() {
    for size in heapSizes {
        Benchmark("Heap: \(size.label) idle machines spawned under one root, \(size.count) machines",
                  configuration: ratioConfiguration(maxIterations: 5)) { benchmark in
            let supervisor = Supervisor()
            let root = try supervisor.start(screen) { _, _ in }
            try benchmark.measure {
                for _ in 0..<size.count {
                    try supervisor.spawn(screen, under: root, handler: { _, _ in }, output: { _ in nil })
                }
            }
            precondition(supervisor.liveCount == size.count + 1)
            supervisor.stop(root)
        }
    }
}

/// Owner-bound spawns: each child bound to its own `FlowLifetime`, kept alive in an array and released
/// at the end (outside the measured region; the sweep must then tear every one of them down).
/// Linear is 10x from 1k to 10k. Names start with "Owner:"; the spawns without an owner are the
/// reference for what linear looks like on the machine.
func ownerBenchmarks() {
    /// A supervisor with a root to spawn under.
    func prepare() throws -> (Supervisor, MachineHandle<Screen>) {
        let supervisor = Supervisor()
        return (supervisor, try supervisor.start(screen) { _, _ in })
    }
    func lifetimes(_ count: Int) -> [FlowLifetime] { (0..<count).map { _ in FlowLifetime() } }
    func spawnOwned(_ supervisor: Supervisor, _ root: MachineHandle<Screen>, _ owners: [FlowLifetime]) throws {
        for owner in owners {
            try supervisor.spawn(screen, under: root, owner: owner, handler: { _, _ in }, output: { _ in nil })
        }
    }
    /// Releases the lifetimes: the sweep must tear down every machine they owned.
    func release(_ supervisor: Supervisor, _ root: MachineHandle<Screen>, _ owners: inout [FlowLifetime]) {
        precondition(supervisor.liveCount == owners.count + 1)
        owners = []
        supervisor.sweep()
        precondition(supervisor.liveCount == 1, "owner-bound machines outlived their owners")
        supervisor.stop(root)
    }

    Benchmark("Owner: 1k owner-bound spawns", configuration: ratioConfiguration(maxIterations: 100)) { benchmark in
        let (supervisor, root) = try prepare()
        var owners = lifetimes(1_000)
        try benchmark.measure { try spawnOwned(supervisor, root, owners) }
        release(supervisor, root, &owners)
    }

    // Paired: 1k owner-bound spawns (in a supervisor of their own) just before, in every iteration.
    Benchmark("Owner: 10k owner-bound spawns", configuration: ratioConfiguration(maxIterations: 20)) { benchmark in
        let (small, smallRoot) = try prepare()
        let (supervisor, root) = try prepare()
        var smallOwners = lifetimes(1_000), owners = lifetimes(10_000)
        try benchmark.measure(pairedWith: { try spawnOwned(small, smallRoot, smallOwners) }) {
            try spawnOwned(supervisor, root, owners)
        }
        release(small, smallRoot, &smallOwners)
        release(supervisor, root, &owners)
    }

    for (count, label, iterations) in [(1_000, "1k", 100), (10_000, "10k", 20)] {
        Benchmark("Owner: \(label) spawns without owner", configuration: ratioConfiguration(maxIterations: iterations)) {
            benchmark in
            let supervisor = Supervisor()
            let root = try supervisor.start(screen) { _, _ in }
            try benchmark.measure {
                for _ in 0..<count {
                    try supervisor.spawn(screen, under: root, handler: { _, _ in }, output: { _ in nil })
                }
            }
            precondition(supervisor.liveCount == count + 1)
            supervisor.stop(root)
        }
    }
}
