import FlowGraph
import FlowSpec

/// libFuzzer's entry point, structure-aware: the bytes choose a small SCXML flow (nested states,
/// eventless and targetless transitions, `<raise>`, `<send>` with delays and targets, `<cancel>`,
/// `<if>` on `In()`, finals, an invoked child flow that talks to its parent) and the events sent to
/// it. Simulating it must never crash and never hang: it ends, or stops at a documented limit.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var bytes = Bytes(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    let child = FuzzFlow.make("child", &bytes, invoking: nil)
    var root = FuzzFlow.make("root", &bytes, invoking: child.name)
    root.documents[child.name] = child
    _ = root.validate()
    _ = FlowDiagram(root)
    guard let simulation = try? FlowSimulation(root) else { return 0 }
    simulation.stepLimit = 5_000
    do {
        try simulation.start()
        for _ in 0..<bytes.next(4) { try simulation.send(SpecEvent(FuzzFlow.events[bytes.next(FuzzFlow.events.count)])) }
        try simulation.runDelayedEvents()
    } catch {
        precondition(!error.description.contains("\n"), "a problem is one line")
    }
    return 0
}

/// The fuzzer's bytes as a stream of small choices (zeros once they run out).
struct Bytes {
    var items: [UInt8]
    var position = 0
    init(_ items: [UInt8]) { self.items = items }
    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        defer { position += 1 }
        return position < items.count ? Int(items[position]) % bound : 0
    }
}

enum FuzzFlow {
    static let events = ["a", "b", "a.b", "a.b.c", "done.state.s0", "error.execution", "error", "tick"]
    static let descriptors = ["a", "b", "a.b", "a.*", "*", "done.state", "done.invoke", "error", "tick", "a b"]
    static let targets: [String?] = [nil, "#_internal", "#_parent", "#_kid", "#_scxml_0", "#_nowhere", "http://x"]

    static func make(_ name: String, _ bytes: inout Bytes, invoking child: String?) -> FlowFile {
        let count = 1 + bytes.next(7)
        let names = (0..<count).map { "s\($0)" }
        var states = names.map { FlowFile.State(name: $0) }
        var parent = [Int?](repeating: nil, count: count)
        for i in 1..<max(count, 1) where bytes.next(2) == 1 { parent[i] = bytes.next(i) }
        for i in 0..<count {
            states[i].isFinal = bytes.next(4) == 0 && !parent.contains(i)
            if states[i].isFinal { continue }
            for _ in 0..<bytes.next(4) {
                let eventless = bytes.next(4) == 0
                var t = FlowFile.Transition(event: eventless ? nil : descriptors[bytes.next(descriptors.count)],
                                            guardName: bytes.next(3) == 0 ? "In('\(names[bytes.next(count)])')" : nil,
                                            target: eventless || bytes.next(4) != 0 ? names[bytes.next(count)] : nil)
                t.content = block(&bytes, names)
                t.effects = t.content!.actions.map { "\($0.kind)" }
                states[i].transitions.append(t)
            }
            states[i].onEntry = [block(&bytes, names)]
            states[i].onExit = [block(&bytes, names)]
            if let child, bytes.next(5) == 0 {
                states[i].child = child
                states[i].childID = "kid"
                states[i].autoforward = bytes.next(2) == 0
            }
        }
        // Nest bottom-up: children into their parents, iteratively from the last state.
        var top: [FlowFile.State] = []
        for i in (0..<count).reversed() {
            if let p = parent[i], !states[p].isFinal {
                states[p].states.insert(states[i], at: 0)
            } else {
                top.insert(states[i], at: 0)
            }
        }
        var spec = FlowFile(name: name, initial: top.first?.name ?? "s0", states: top)
        spec.semantics = .scxml
        return spec
    }

    static func block(_ bytes: inout Bytes, _ names: [String]) -> FlowFile.Executable {
        var code: [FlowFile.Action] = []
        for _ in 0..<bytes.next(4) {
            switch bytes.next(6) {
            case 0: code.append(.raise(event: events[bytes.next(events.count)]))
            case 1:
                code.append(.send(FlowFile.Send(event: events[bytes.next(events.count)], target: targets[bytes.next(targets.count)],
                                                id: bytes.next(2) == 0 ? "t" : nil, delay: [0, 0, 10, 1000][bytes.next(4)])))
            case 2: code.append(.cancel(sendID: "t"))
            case 3:
                // if In(x) { raise } else { log }.
                code.append(.if([.init("In('\(names[bytes.next(names.count)])')", [.raise(event: events[bytes.next(events.count)])])],
                                otherwise: [.log(label: "else", expr: nil)]))
            default: code.append(.log(label: "log", expr: nil))
            }
        }
        return FlowFile.Executable(code)
    }
}

// SwiftPM makes this file's top-level code the program's `main`, so libFuzzer is started from here
// through its documented driver entry point, rather than from libFuzzer's own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzer(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
let status = runFuzzer(&argc, &argv) { data, size in fuzz(data, size) }
guard status == 0 else { fatalError("libFuzzer stopped with status \(status)") }
