import FlowSpec
import Flowstate

// The spec check (`check-ratios.py --only spec`) outside the harness, for `perf record` and for timing
// each part alone: the same 10,000-state, 50,000-transition file as ExporterBenchmarks.swift's
// `bigSpecText`, compiled, validated and explored.
//
//     cd Benchmarks && swift build -c release --product SpecDriver
//     .build/release/SpecDriver all 3          # compile, validate, paths: milliseconds, three times
//     perf record -g .build/release/SpecDriver all 1 && perf report --no-children --sort symbol

let bigSpecText: String = {
    let states = (0..<10_000).map { i -> FlowFile.State in
        var state = FlowFile.State(name: "state \(i)")
        state.transitions = (0..<5).map { k in
            FlowFile.Transition(event: "e\(k)", guardName: k == 0 ? nil : "g\(k)",
                                target: "state \((i * 7919 + k * 104_729 + 1) % 10_000)", effects: ["fx\(k)"])
        }
        return state
    }
    return FlowFile(name: "big", initial: "state 0", states: states).json()
}()
let bigSpec = try! FlowFile.parse(bigSpecText, file: "big.json")

/// The wall time of `body`, in milliseconds.
func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let elapsed = try ContinuousClock().measure(body)
    return Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
}

let part = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "all"
let runs = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 3 : 3
precondition(["all", "compile", "validate", "paths"].contains(part), "usage: SpecDriver [all|compile|validate|paths] [runs]")
for _ in 0..<runs {
    if part == "all" || part == "compile" { print("compile", milliseconds { _ = bigSpec.compile() }) }
    if part == "all" || part == "validate" { print("validate", milliseconds { _ = bigSpec.validate() }) }
    if part == "all" || part == "paths" { print("paths", try milliseconds { _ = try FlowFilePathfinder(bigSpec) }) }
}
