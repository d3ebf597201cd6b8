import Flowstate

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A plain release executable that runs the Engine benchmark's step loops outside the harness, for
// `valgrind --tool=callgrind` and `perf record` (the harness runs its own threads and measurement
// code around each loop). StepForms.swift and CheckoutFlow.swift are the benchmark's own files
// (symbolic links); `switch` and `expression` repeat its `runSwitch` and `runEngine`.
//
//     swift build -c release --product StepDriver
//     .build/release/StepDriver all 1000000          # every loop: checksum, best thread CPU ns/event, / switch
//     valgrind --tool=callgrind .build/release/StepDriver bound 100000   # one loop (after the switch's)
//
// Each loop must reach the switch's checksum. Times are the best of five runs of thread CPU time:
// a quick look, not the benchmark (`make bench` measures the ratios).

@inline(never)
func runSwitch(_ machine: inout HandWrittenCheckout, _ events: [Checkout.Event]) -> Int {
    var sum = 0
    for event in events { sum &+= machine.send(event) }
    return sum &+ machine.state.rawValue
}

@inline(never)
func runEngine(_ machine: inout FlowMachine<Checkout>, _ events: [Checkout.Event]) -> Int {
    var sum = 0
    for event in events {
        do {
            for effect in try machine.send(event).effects { sum &+= effect }
        } catch {
            continue
        }
    }
    return sum &+ machine.state.rawValue
}

func threadCPUNanoseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}

/// The best of `runs` thread CPU times of `body`, in nanoseconds per event.
func best(_ runs: Int, _ count: Int, _ body: () -> Int) -> (checksum: Int, nanoseconds: Double) {
    var checksum = 0
    var fastest = Double.infinity
    for _ in 0..<runs {
        let start = threadCPUNanoseconds()
        checksum = body()
        fastest = min(fastest, threadCPUNanoseconds() - start)
    }
    return (checksum, fastest / Double(count))
}

let arguments = CommandLine.arguments
let form = arguments.count > 1 ? arguments[1] : "all"
let count = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
let runs = form == "all" ? 5 : 1
let events = checkoutEvents(count: count)

let loops: [(String, (inout FlowMachine<Checkout>, [Checkout.Event]) -> Int)] = [
    ("expression", runEngine),
    ("bound", runEngineBound),
    ("switched", runEngineSwitched),
    ("switched-result", runEngineSwitchedResult),
    ("passed", runEnginePassed),
    ("generic", runEnginePassedGeneric),
    ("properties", runEngineProperties),
]
let baseline = best(runs, count) {
    var machine = HandWrittenCheckout()
    return runSwitch(&machine, events)
}
print("switch: checksum \(baseline.checksum), \((baseline.nanoseconds * 100).rounded() / 100) ns/event")
let chosen = loops.filter { form == "all" || $0.0 == form }
precondition(["switch", "supervisor", "tree", "jukebox"].contains(form) || !chosen.isEmpty,
             "unknown loop '\(form)': switch, supervisor, tree, \(loops.map(\.0).joined(separator: ", ")) or all")
for (name, run) in chosen {
    let result = best(runs, count) {
        var machine = try! FlowMachine(checkoutDefinition)
        _ = try! machine.start()
        return run(&machine, events)
    }
    precondition(result.checksum == baseline.checksum, "\(name): checksum \(result.checksum) != switch \(baseline.checksum)")
    let ratio = (result.nanoseconds / baseline.nanoseconds * 100).rounded() / 100
    print("\(name): checksum \(result.checksum), \((result.nanoseconds * 100).rounded() / 100) ns/event, \(ratio)x switch")
}

// The supervisor's loops, for the instruction counts of docs/PERFORMANCE.md ("How the supervisor got
// there"): `supervisor` sends the same events to a supervised root (its handler adds each effect to a
// sum, and must reach the switch's checksum); `tree` starts a root, spawns `count` children under it
// and stops it.
//
//     valgrind --tool=callgrind .build/release/StepDriver supervisor 100000
//     valgrind --tool=callgrind .build/release/StepDriver tree 20000

final class EffectSum { var value = 0 }

@inline(never)
func runSupervisor(_ supervisor: Supervisor, _ root: MachineHandle<Checkout>, _ events: [Checkout.Event]) {
    for event in events {
        do { try supervisor.send(event, to: root) } catch { continue }
    }
}

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

@inline(never)
func runTree(_ count: Int) -> Int {
    let supervisor = Supervisor()
    let root = try! supervisor.start(screen) { _, _ in }
    for _ in 0..<count { try! supervisor.spawn(screen, under: root, handler: { _, _ in }, output: { _ in nil }) }
    return supervisor.stop(root).ids.count
}

// The two-region flow's loops (ParallelFlow.swift), against its two switches:
//
//     .build/release/StepDriver jukebox 1000000
//     valgrind --tool=callgrind .build/release/StepDriver jukebox 100000

if form == "jukebox" {
    let jukeboxEventList = jukeboxEvents(count: count)
    let switches = best(5, count) {
        var machine = HandWrittenJukebox()
        return runJukeboxSwitches(&machine, jukeboxEventList)
    }
    print("two switches: checksum \(switches.checksum), \((switches.nanoseconds * 100).rounded() / 100) ns/event")
    for (name, run) in [("bound", runJukeboxEngine), ("properties", runJukeboxEngineProperties)] {
        let result = best(5, count) {
            var machine = try! FlowMachine(jukeboxDefinition)
            _ = try! machine.start()
            return run(&machine, jukeboxEventList)
        }
        precondition(result.checksum == switches.checksum, "\(name): checksum \(result.checksum) != \(switches.checksum)")
        let ratio = (result.nanoseconds / switches.nanoseconds * 100).rounded() / 100
        print("jukebox \(name): \((result.nanoseconds * 100).rounded() / 100) ns/event, \(ratio)x two switches")
    }
}

if form == "supervisor" {
    let result = best(runs, count) {
        let sum = EffectSum()
        let supervisor = Supervisor()
        let root = try! supervisor.start(checkoutDefinition) { effect, _ in sum.value &+= effect }
        sum.value = 0
        runSupervisor(supervisor, root, events)
        return sum.value &+ (supervisor.state(of: root)?.rawValue ?? -1)
    }
    precondition(result.checksum == baseline.checksum, "supervisor: checksum \(result.checksum) != switch \(baseline.checksum)")
    let ratio = (result.nanoseconds / baseline.nanoseconds * 100).rounded() / 100
    print("supervisor: checksum \(result.checksum), \((result.nanoseconds * 100).rounded() / 100) ns/event, \(ratio)x switch")
}
if form == "tree" {
    print("tree: \(runTree(count)) machines torn down")
}
