import Benchmark
import BenchmarkSupport
import Flowstate

// One event, four ways, in one run: the hand-written switch (the baseline), the pure engine
// (`FlowMachine.send`), the runtime host (`FlowRuntime.send`) and a supervised root
// (`Supervisor.send`). Each drives the 10-state checkout flow (CheckoutFlow.swift) with the same
// 1,000,000 events and must compute the same checksum: the sum of every effect performed plus the
// final state. `check-ratios.py` turns the medians into ratios and fails `make bench` past the
// thresholds. Names starting with "Send:" are the ones `make bench` runs.

let eventCount = 1_000_000
let events = checkoutEvents(count: eventCount)
let jukeboxEventList = jukeboxEvents(count: eventCount)

/// The checksum every implementation must reach, computed once by the baseline.
let expectedChecksum: Int = {
    var machine = HandWrittenCheckout()
    return runSwitch(&machine, events)
}()

/// Runs the engine over `events`: the checksum of every effect performed plus the final state.
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

@inline(never)
func runSwitch(_ machine: inout HandWrittenCheckout, _ events: [Checkout.Event]) -> Int {
    var sum = 0
    for event in events { sum &+= machine.send(event) }
    return sum &+ machine.state.rawValue
}

/// Where the runtime's and the supervisor's effect handlers add up the effects they are given:
/// the same work as the engine loop's `sum &+= effect`, so that all three do the same thing per
/// effect and can be checked against the switch.
final class EffectSum {
    var value = 0
}

@inline(never)
func runRuntime(_ runtime: FlowRuntime<Checkout>, _ events: [Checkout.Event]) {
    for event in events {
        do {
            try runtime.send(event)
        } catch {
            continue
        }
    }
}

@inline(never)
func runSupervisor(_ supervisor: Supervisor, _ root: MachineHandle<Checkout>, _ events: [Checkout.Event]) {
    for event in events {
        do {
            try supervisor.send(event, to: root)
        } catch {
            continue
        }
    }
}

@inline(never)
func runContextEngine(_ machine: inout FlowMachine<ContextCheckout>, _ events: [Checkout.Event]) -> Int {
    var sum = 0
    for event in events {
        do {
            for effect in try machine.send(event).effects { sum &+= effect }
        } catch {
            continue
        }
    }
    return sum &+ machine.state.rawValue &+ machine.context.items &+ machine.context.visits
}

@inline(never)
func runContextSwitch(_ machine: inout HandWrittenContextCheckout, _ events: [Checkout.Event]) -> Int {
    var sum = 0
    for event in events { sum &+= machine.send(event) }
    return sum &+ machine.state.rawValue &+ machine.cart.items &+ machine.cart.visits
}

func checked(_ checksum: Int, _ what: String) {
    precondition(checksum == expectedChecksum,
                 "\(what): checksum \(checksum) != switch \(expectedChecksum): the flows differ")
}

/// A started engine, for a run of the events.
func startedMachine() throws -> FlowMachine<Checkout> {
    var machine = try FlowMachine(checkoutDefinition)
    _ = try machine.start()
    return machine
}

let benchmarks: @Sendable () -> Void = {
    let configuration = ratioConfiguration(maxIterations: 30, maxDuration: .seconds(10))

    // Each subject is measured against its baseline twice: as separate benchmarks (the baseline's
    // own row, allocations, wall clock), and paired in every iteration (`measure(pairedWith:)`: the
    // baseline runs just before the measured region), which is what `check-ratios.py` divides.

    Benchmark("Send: hand-written switch, 1M events (baseline)", configuration: configuration) { benchmark in
        var machine = HandWrittenCheckout()
        let checksum = benchmark.measure { runSwitch(&machine, events) }
        checked(checksum, "switch")
    }

    Benchmark("Send: FlowMachine.send, 1M events", configuration: configuration) { benchmark in
        var baseline = HandWrittenCheckout()
        var machine = try startedMachine()
        let checksum = benchmark.measure(pairedWith: { checked(runSwitch(&baseline, events), "switch") }) {
            runEngine(&machine, events)
        }
        checked(checksum, "FlowMachine")
    }

    // The same engine, the step held every other way a caller holds it (StepForms.swift), each
    // against the same switch in the same iteration.
    for form in stepForms {
        Benchmark(form.name, configuration: configuration) { benchmark in
            var baseline = HandWrittenCheckout()
            var machine = try startedMachine()
            let checksum = benchmark.measure(pairedWith: { checked(runSwitch(&baseline, events), "switch") }) {
                form.run(&machine, events)
            }
            checked(checksum, form.name)
        }
    }

    // The cost of context: the same flow with updates, a context guard and derived effects, against
    // the same switch over the same struct.
    Benchmark("Send: hand-written switch with context, 1M events (baseline)", configuration: configuration) { benchmark in
        var machine = HandWrittenContextCheckout()
        _ = benchmark.measure { runContextSwitch(&machine, events) }
    }

    Benchmark("Send: FlowMachine.send with context (updates, context guard, emits), 1M events",
              configuration: configuration) { benchmark in
        // The cart carries over from one iteration to the next in both, so each iteration's checksum
        // is compared with the baseline's in the same iteration.
        var baseline = HandWrittenContextCheckout()
        var baselineChecksum = 0
        var machine = try FlowMachine(contextCheckoutDefinition)
        _ = try machine.start()
        let checksum = benchmark.measure(pairedWith: { baselineChecksum = runContextSwitch(&baseline, events) }) {
            runContextEngine(&machine, events)
        }
        precondition(checksum == baselineChecksum,
                     "FlowMachine with context: checksum \(checksum) != switch \(baselineChecksum): the flows differ")
    }

    // A flow with parallel states (ParallelFlow.swift): two regions of five states against two
    // hand-written switches given the same events, the step bound, and read field by field.
    Benchmark("Send: two hand-written switches (two regions), 1M events (baseline)", configuration: configuration) {
        benchmark in
        var machine = HandWrittenJukebox()
        _ = benchmark.measure { runJukeboxSwitches(&machine, jukeboxEventList) }
    }
    for (name, run) in [
        ("Send: FlowMachine.send, two regions of five states, step bound to a let, 1M events", runJukeboxEngine),
        ("Send: FlowMachine.send, two regions of five states, step's state, effects and transitions read, 1M events",
         runJukeboxEngineProperties),
    ] as [(String, @Sendable (inout FlowMachine<Jukebox>, [Jukebox.Event]) -> Int)] {
        Benchmark(name, configuration: configuration) { benchmark in
            // Both start from their initial states and carry over from one iteration to the next, so
            // each iteration's checksums are compared in the same iteration.
            var baseline = HandWrittenJukebox()
            var baselineChecksum = 0
            var machine = try FlowMachine(jukeboxDefinition)
            _ = try machine.start()
            let checksum = benchmark.measure(pairedWith: {
                baselineChecksum = runJukeboxSwitches(&baseline, jukeboxEventList)
            }) {
                run(&machine, jukeboxEventList)
            }
            precondition(checksum == baselineChecksum,
                         "\(name): checksum \(checksum) != switches \(baselineChecksum): the flows differ")
        }
    }

    Benchmark("Send: FlowRuntime.send, 1M events (no-op handler, no observers)",
              configuration: configuration) { benchmark in
        var baseline = try startedMachine()
        let sum = EffectSum()
        let runtime = try FlowRuntime(checkoutDefinition) { effect, _ in sum.value &+= effect }
        try runtime.start()
        sum.value = 0
        benchmark.measure(pairedWith: { checked(runEngine(&baseline, events), "FlowMachine") }) {
            runRuntime(runtime, events)
        }
        checked(sum.value &+ runtime.state.rawValue, "FlowRuntime")
    }

    Benchmark("Send: Supervisor.send to a running root, 1M events (no observers)",
              configuration: configuration) { benchmark in
        var baseline = try startedMachine()
        let sum = EffectSum()
        let supervisor = Supervisor()
        let root = try supervisor.start(checkoutDefinition) { effect, _ in sum.value &+= effect }
        sum.value = 0
        benchmark.measure(pairedWith: { checked(runEngine(&baseline, events), "FlowMachine") }) {
            runSupervisor(supervisor, root, events)
        }
        checked(sum.value &+ (supervisor.state(of: root)?.rawValue ?? -1), "Supervisor")
        supervisor.stop(root)
    }
}
