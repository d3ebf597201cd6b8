// swift-tools-version: 6.2
import PackageDescription

import class Foundation.ProcessInfo
import struct Foundation.URL

// The root package is a path dependency, and a path dependency's identity is its folder's name
// (whatever the clone is called), so derive it instead of hard-coding it.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
let rootIdentity = root.lastPathComponent.lowercased()

let package = Package(
    name: "FlowstateBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark.git", from: "1.38.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Thread CPU time and live heap bytes, recorded as custom metrics by the ratio benchmarks
        // (see check-ratios.py). Not a benchmark target: it lives outside Benchmarks/Benchmarks.
        .target(name: "CHeapStats", path: "Support/CHeapStats"),
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                "CHeapStats",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Support/BenchmarkSupport"
        ),
        .executableTarget(
            name: "Engine",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Flowstate", package: rootIdentity),
            ],
            path: "Benchmarks/Engine",
            // Every function 64-byte aligned and every branch target 32-byte aligned: the hand-written
            // switch, the baseline, ran 7% faster or slower from one build to the next with its loop
            // unchanged (6.44 vs 6.90 ns per event), from where the linker happened to place it
            // (docs/PERFORMANCE.md). Aligned, the layout no longer moves the ratio.
            swiftSettings: [.unsafeFlags(["-Xllvm", "-align-all-functions=6", "-Xllvm", "-align-all-nofallthru-blocks=5"])],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The Engine benchmark's step loops as a plain executable, for callgrind and perf (not a
        // benchmark: it lives outside Benchmarks/Benchmarks).
        .executableTarget(
            name: "StepDriver",
            dependencies: [.product(name: "Flowstate", package: rootIdentity)],
            path: "Support/StepDriver"
        ),
        // The spec check outside the harness (docs/PERFORMANCE.md, "Flow files"), for perf.
        .executableTarget(
            name: "SpecDriver",
            dependencies: [
                .product(name: "Flowstate", package: rootIdentity),
                .product(name: "FlowSpec", package: rootIdentity),
            ],
            path: "Support/SpecDriver"
        ),
        .executableTarget(
            name: "SupervisorBench",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Flowstate", package: rootIdentity),
            ],
            path: "Benchmarks/Supervisor",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // FlowSimulation's step against the engine's on the same flow file (issue 37): FlowSpec, no Graphviz.
        .executableTarget(
            name: "SimulationBench",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Flowstate", package: rootIdentity),
                .product(name: "FlowSpec", package: rootIdentity),
            ],
            path: "Benchmarks/Simulation",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ExporterBench",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "Flowstate", package: rootIdentity),
                .product(name: "FlowGraph", package: rootIdentity),
                .product(name: "FlowSpec", package: rootIdentity),
                .product(name: "FlowGraphviz", package: rootIdentity),
            ],
            path: "Benchmarks/Exporter",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "RenderMemory",
            dependencies: [
                .product(name: "FlowGraph", package: rootIdentity),
                .product(name: "FlowGraphviz", package: rootIdentity),
            ],
            path: "Benchmarks/RenderMemory"
        ),
    ],
    swiftLanguageModes: [.v6]
)
