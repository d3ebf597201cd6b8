import Benchmark
import BenchmarkSupport
import FlowSpec
import Flowstate

// A flow file run by FlowSimulation (SCXML's queues and sessions around the engine, a record of every
// step) against the engine's own step on the same flow: `FlowMachine.send` on the definition the file
// compiles to, given the same events (issue 37, item 7). `check-ratios.py --only simulate` divides the
// two, per step, paired in every iteration. Names starting with "Simulate:" are the ones it runs.

/// The self-sending document of the step limit: each step's entry sends `again` to the session's own
/// external queue, and `again` re-enters `a`. A run stops only at its step limit.
let busyDocument = """
<scxml initial="a">
  <state id="a"><onentry><send event="again"/></onentry><transition event="again" target="a"/></state>
</scxml>
"""

/// A ring of ten states with three events each, as a JSON flow spec: what `flowviz simulate` runs a
/// script of events on.
let ringDocument: String = {
    let n = 10
    let states = (0..<n).map { i in
        """
        {"name": "s\(i)", "transitions": [\
        {"event": "next", "target": "s\((i + 1) % n)", "effects": ["show\((i + 1) % n)"]}, \
        {"event": "back", "target": "s\((i + n - 1) % n)"}, \
        {"event": "reset", "target": "s0"}]}
        """
    }
    return "{\"flowspec\": 1, \"name\": \"ring\", \"initial\": \"s0\", \"states\": [\n" + states.joined(separator: ",\n") + "\n]}\n"
}()

let busySpec = try! FlowFile.parseSCXML(busyDocument, file: "busy.scxml")
let ringSpec = try! FlowFile.parse(ringDocument, file: "ring.json")

/// Steps a busy run takes before its limit stops it, per iteration.
let busySteps = 10_000
/// Events of the ring's script, per iteration: next, next, back, next, reset, ... (every event taken).
let ringEventCount = 10_000
let ringEvents: [SpecEvent] = (0..<ringEventCount).map { i in
    switch i % 7 {
    case 2, 5: SpecEvent("back")
    case 6: SpecEvent("reset")
    default: SpecEvent("next")
    }
}

/// The engine's step on `definition`, `count` times the same event: the state it ends in.
@inline(never)
func runEngine(_ machine: inout FlowMachine<StringFlow>, _ event: SpecEvent, count: Int) -> String {
    for _ in 0..<count { _ = try? machine.send(event) }
    return machine.state
}

@inline(never)
func runEngine(_ machine: inout FlowMachine<StringFlow>, _ events: [SpecEvent]) -> String {
    for event in events { _ = try? machine.send(event) }
    return machine.state
}

func startedMachine(_ spec: FlowFile) -> FlowMachine<StringFlow> {
    var machine = try! FlowMachine(spec.definition())
    _ = try! machine.start()
    return machine
}

let benchmarks: @Sendable () -> Void = {
    let configuration = ratioConfiguration(maxIterations: 30, maxDuration: .seconds(10))

    Benchmark("Simulate: FlowMachine.send, again and again, 10k steps (baseline)", configuration: configuration) {
        benchmark in
        var machine = startedMachine(busySpec)
        let state = benchmark.measure { runEngine(&machine, SpecEvent("again"), count: busySteps) }
        precondition(state == "a")
    }

    Benchmark("Simulate: FlowSimulation of a self-sending document, 10k steps to its step limit",
              configuration: configuration) { benchmark in
        var machine = startedMachine(busySpec)
        let simulation = try FlowSimulation(busySpec)
        simulation.stepLimit = busySteps
        let stopped = benchmark.measure(pairedWith: { precondition(runEngine(&machine, SpecEvent("again"), count: busySteps) == "a") }) {
            do {
                try simulation.start()
                return false
            } catch {
                return true
            }
        }
        let steps = simulation.records.count { if case .transitioned = $0 { true } else { false } }
        precondition(stopped && steps == busySteps && simulation.configuration == ["a"],
                     "the simulation took \(steps) steps, not \(busySteps)")
    }

    Benchmark("Simulate: FlowMachine.send, a ring's script, 10k events (baseline)", configuration: configuration) {
        benchmark in
        var machine = startedMachine(ringSpec)
        _ = benchmark.measure { runEngine(&machine, ringEvents) }
    }

    Benchmark("Simulate: FlowSimulation.send, a ring's script, 10k events", configuration: configuration) { benchmark in
        var machine = startedMachine(ringSpec)
        var engineState = ""
        let simulation = try FlowSimulation(ringSpec)
        try simulation.start()
        try benchmark.measure(pairedWith: { engineState = runEngine(&machine, ringEvents) }) {
            for event in ringEvents { try simulation.send(event) }
        }
        let steps = simulation.records.count { if case .transitioned = $0 { true } else { false } }
        precondition(steps == ringEventCount && simulation.configuration == [engineState],
                     "the simulation took \(steps) steps to \(simulation.configuration), the engine went to \(engineState)")
    }
}
