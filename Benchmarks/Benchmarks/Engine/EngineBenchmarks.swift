import Benchmark
import Flowstate

let events = checkoutEvents(count: 1_000_000)

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

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions],
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 30
    )

    // Both implementations must agree before either is measured.
    var check = try! FlowMachine(checkoutDefinition)
    _ = try! check.start()
    var baseline = HandWrittenCheckout()
    let engineSum = runEngine(&check, events)
    let switchSum = runSwitch(&baseline, events)
    precondition(engineSum == switchSum, "engine \(engineSum) != switch \(switchSum): the flows differ")

    Benchmark("Engine: 1M events, 10-state flow (Flowstate)") { benchmark in
        var machine = try FlowMachine(checkoutDefinition)
        _ = try machine.start()
        benchmark.startMeasurement()
        blackHole(runEngine(&machine, events))
        benchmark.stopMeasurement()
    }

    Benchmark("Engine: 1M events, 10-state flow (hand-written switch)") { benchmark in
        var machine = HandWrittenCheckout()
        benchmark.startMeasurement()
        blackHole(runSwitch(&machine, events))
        benchmark.stopMeasurement()
    }
}
