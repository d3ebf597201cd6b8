import Benchmark
import FlowGraph
import FlowSpec
import FlowGraphviz
import Flowstate
import Foundation

enum Named: Flow {
    typealias State = String
    typealias Event = String
    typealias Effect = String
    typealias Output = String
}

/// `count` states with `perState` labelled transitions each, a chain plus deterministic back edges.
func generatedFlow(_ count: Int, perState: Int = 2) -> FlowDefinition<Named> {
    let elements = (0..<count).map { i -> FlowElement<Named> in
        StateNode<Named>("state \(i)") {
            On("next\(i)", guard: Guard("ok") { _ in true }, to: "state \((i + 1) % count)", effects: ["push(screen\(i))"])
            for k in 1..<perState {
                On("jump\(i)_\(k)", to: "state \((i * 7919 + k * 104_729) % count)", effects: ["effect\(k)"])
            }
        }.element
    }
    return FlowDefinition("generated", initial: "state 0", elements: elements)
}

/// `count` leaf states nested three levels deep (groups of 5 leaves in groups of 4 in top-level
/// groups), each leaf with two labelled transitions: to the next leaf (across groups) and a jump.
func nestedFlow(_ count: Int) -> FlowDefinition<Named> {
    func leaf(_ i: Int) -> FlowElement<Named> {
        StateNode<Named>("state \(i)") {
            On("next\(i)", guard: Guard("ok") { _ in true }, to: "state \((i + 1) % count)", effects: ["push(screen\(i))"])
            On("jump\(i)", to: "state \((i * 7919 + 104_729) % count)", effects: ["effect\(i)"])
        }.element
    }
    var top: [FlowElement<Named>] = []
    var i = 0
    var group = 0
    while i < count {
        var middles: [FlowElement<Named>] = []
        for _ in 0..<4 where i < count {
            let leaves = (i..<min(i + 5, count)).map(leaf)
            i += leaves.count
            group += 1
            middles.append(StateNode<Named>("group \(group)") { leaves }.element)
        }
        group += 1
        top.append(StateNode<Named>("section \(group)") { middles }.element)
    }
    return FlowDefinition("nested", initial: "state 0", elements: top)
}

/// The DOT text the renderer lays out for a graph (the layout policy applied).
func laidOutDOT(_ graph: FlowDiagram) -> String {
    var bounded = graph
    LayoutPolicy.bound(&bounded)
    return LayoutPolicy.dot(bounded)
}

/// Runs the `dot` binary on DOT text (the baseline), returning the SVG's size; with a `limit`, stopped
/// (and 0 returned) after that many seconds.
func runDot(_ dot: String, limit: Double? = nil) -> Int {
    let process = Process()
    if let limit {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["\(Int(limit))", "/usr/bin/dot", "-Tsvg"]
    } else {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dot")
        process.arguments = ["-Tsvg"]
    }
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try! process.run()
    input.fileHandleForWriting.write(Data(dot.utf8))
    try! input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data.count
}

let thirty = DOTWriter.dot(FlowDiagram(generatedFlow(30, perState: 1)))

// `bigSpecText` and `bigSpec`, the spec check's file: BigSpec.swift (shared with Support/SpecDriver).

/// The baseline for `paths`: a plain breadth-first search from the initial state over the spec's
/// transitions (no engine, no guards), returning each state's distance.
func breadthFirst(_ spec: FlowFile) -> [Int] {
    var index: [String: Int] = [:]
    for (i, state) in spec.states.enumerated() { index[state.name] = i }
    let adjacency = spec.states.map { state in state.transitions.compactMap { $0.target.flatMap { index[$0] } } }
    var distance = Array(repeating: -1, count: spec.states.count)
    var queue = [index[spec.initial]!]
    distance[queue[0]] = 0
    var head = 0
    while head < queue.count {
        let node = queue[head]
        head += 1
        for next in adjacency[node] where distance[next] < 0 {
            distance[next] = distance[node] + 1
            queue.append(next)
        }
    }
    return distance
}

let big = generatedFlow(10_000, perState: 5)
let bigGraph = FlowDiagram(big)
let twoHundred = FlowDiagram(generatedFlow(200))

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal],
        warmupIterations: 1,
        maxDuration: .seconds(5),
        maxIterations: 50
    )

    Benchmark("Render: 30-state flow to SVG (in-process, libgvc)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try GraphvizRenderer.shared.render(dot: thirty, format: .svg)) }
    }
    Benchmark("Render: 30-state flow to SVG (dot binary)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(runDot(thirty)) }
    }

    Benchmark("Spec: parse 10,000 states and 50,000 transitions",
              configuration: .init(maxIterations: 10)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try FlowFile.parse(bigSpecText, file: "big.json"))
        }
    }

    Benchmark("Spec: validate 10,000 states and 50,000 transitions (compile the definition simulate runs, check it)",
              configuration: .init(maxIterations: 10)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(bigSpec.validate())
        }
    }

    Benchmark("Spec: paths (shortest paths and transition cover) of 10,000 states and 50,000 transitions",
              configuration: .init(maxIterations: 10)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try FlowFilePathfinder(bigSpec))
        }
    }
    // What `flowviz paths` does: one compilation, validated and explored. Information only: the check
    // adds the two benchmarks above, each compiling for itself, as `flowviz validate` then `flowviz
    // paths` do (two processes, two compilations).
    Benchmark("Spec: validate + paths compiled once (what flowviz paths does)",
              configuration: .init(maxIterations: 10)) { benchmark in
        for _ in benchmark.scaledIterations {
            let compiled = bigSpec.compile()
            blackHole(compiled.validate())
            blackHole(try FlowFilePathfinder(compiled))
        }
    }
    Benchmark("Spec: breadth-first search over the same graph (baseline, hand-written adjacency lists)",
              configuration: .init(maxIterations: 10)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(breadthFirst(bigSpec))
        }
    }

    Benchmark("Write: DOT of 10,000 states and 50,000 transitions") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(DOTWriter.dot(bigGraph)) }
    }
    Benchmark("Write: Mermaid of 10,000 states and 50,000 transitions") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(MermaidWriter.mermaid(bigGraph)) }
    }
    Benchmark("Write: graph model of 10,000 states and 50,000 transitions") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(FlowDiagram(big)) }
    }

    Benchmark("Render: 200 states, 400 transitions (in-process, layout policy)",
              configuration: .init(maxIterations: 5)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try GraphvizRenderer.shared.render(twoHundred, format: .svg)) }
    }
    Benchmark("Render: 200 states, 400 transitions (dot binary, defaults)",
              configuration: .init(warmupIterations: 0, maxDuration: .seconds(1), maxIterations: 1)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(runDot(DOTWriter.dot(twoHundred))) }
    }

    // Big flows (issue 14's targets: 200 states in under 1 s, 400 in under 5 s, flat and nested),
    // next to the `dot` binary on the same DOT in the same run (stopped after 120 s).
    // `make bench` checks the in-process times (Benchmarks/check-ratios.py, group "render").
    for size in [200, 400] {
        for (shape, definition) in [("flat", generatedFlow(size)), ("nested", nestedFlow(size))] {
            let graph = FlowDiagram(definition)
            let dot = laidOutDOT(graph)
            Benchmark("Big: \(size) states, \(shape) (in-process)",
                      configuration: .init(metrics: [.wallClock], warmupIterations: 1, maxDuration: .seconds(30),
                                           maxIterations: 5)) { benchmark in
                for _ in benchmark.scaledIterations { blackHole(try GraphvizRenderer.shared.render(graph, format: .svg)) }
            }
            Benchmark("Big: \(size) states, \(shape) (dot binary on the same DOT)",
                      configuration: .init(metrics: [.wallClock], warmupIterations: 0, maxDuration: .seconds(30),
                                           maxIterations: 3)) { benchmark in
                for _ in benchmark.scaledIterations { blackHole(runDot(dot, limit: 120)) }
            }
        }
    }

    // Memory: the malloc/free balance after 1,000 and after 10,000 renders in one process. If the
    // renderer leaked, the second would be ten times the first.
    for renders in [1_000, 10_000] {
        Benchmark("Render: \(renders) renders of a sign-up-sized flow (memory)",
                  configuration: .init(metrics: [.wallClock, .mallocFreeDelta, .peakMemoryResidentDelta],
                                       warmupIterations: 1, maxIterations: 1)) { _ in
            let dot = DOTWriter.dot(FlowDiagram(generatedFlow(6, perState: 1)))
            for _ in 0..<renders { blackHole(try GraphvizRenderer.shared.render(dot: dot, format: .svg)) }
        }
    }
}
