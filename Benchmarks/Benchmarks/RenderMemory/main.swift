import FlowGraph
import FlowGraphviz
import Foundation

// Renders one small flow N times in one process (one reused Graphviz context) and prints the
// process's peak resident memory (VmHWM) at checkpoints. Memory that grew with renders would show
// as a rising peak. Run: swift run -c release RenderMemory 30000
let total = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 10_000
let dot = "digraph \"flow\" { node [shape=box]; a [label=\"email\"]; b [label=\"password\"]; "
    + "c [label=\"done\"]; a -> b [label=\"submitEmail [valid] / push\"]; b -> c [label=\"submit\"]; }"

func peakResidentKB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return -1 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

var bytes = 0
var done = 0
for checkpoint in [1, 1_000, 10_000, 30_000, 100_000] where checkpoint <= total {
    while done < checkpoint {
        bytes &+= try GraphvizRenderer.shared.render(dot: dot, format: .svg).count
        done += 1
    }
    print("renders: \(done), peak resident: \(peakResidentKB()) KB")
}
print("(\(bytes) bytes of SVG)")
