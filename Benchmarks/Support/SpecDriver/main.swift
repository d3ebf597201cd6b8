import FlowSpec
import Flowstate

// The spec check (`check-ratios.py --only spec`) outside the harness, for `perf record` and for timing
// each part alone: the same 10,000-state, 50,000-transition file as the Exporter benchmark's
// `bigSpecText` (BigSpec.swift), compiled, validated and explored.
//
//     cd Benchmarks && swift build -c release --product SpecDriver
//     .build/release/SpecDriver all 3          # compile, validate, paths: milliseconds, three times
//     perf record -g .build/release/SpecDriver all 1 && perf report --no-children --sort symbol

// `bigSpecText` and `bigSpec`: BigSpec.swift, the Exporter benchmark's file (a link). Globals of another
// file are made on first use: made here, before anything is timed.
precondition(bigSpec.states.count == 10_000)

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
