import FlowGraph
import Flowstate

// Delayed transitions in flow files (the typed `After`): how a delay is written, in JSON
// (`"after": "30s"`) and in SCXML (the `<send delay>`/`<cancel>` idiom on entry and exit).

extension FlowFile {
    /// Reads a delay as flow files write it: a decimal number followed by a unit, `ms`, `s`, `min` or
    /// `h` (`"30s"`, `"500ms"`, `"1.5s"`, `"5min"`, `"1h"`), optionally signed (validation, not the
    /// reader, reports a delay that is not positive, as it does for a typed flow's). Exact: `"0.1s"` is
    /// 100 milliseconds. `nil` if the text is not such a duration.
    static func duration(parsing text: Substring) -> Duration? {
        var t = text.trimmingSpaces
        var negative = false
        if t.first == "-" {
            negative = true
            t = t.dropFirst()
        }
        // The longest unit that ends the text (`ms` before `s`).
        guard let unit = ["min", "ms", "s", "h"].first(where: { t.hasSuffix($0) }) else { return nil }
        let number = t.dropLast(unit.count)
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard !number.isEmpty, number != ".", number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              number.filter({ $0 == "." }).count <= 1 else { return nil }
        let wholeText = parts[0]
        let fractionText = parts.count > 1 ? parts[1] : ""
        guard wholeText.count <= 12, fractionText.count <= 18 else { return nil }
        let whole = Int64(wholeText.isEmpty ? "0" : String(wholeText)) ?? 0
        // The fraction in attoseconds of one unit-second: "5" is 0.5.
        let fraction = Int64(String(fractionText) + String(repeating: "0", count: 18 - fractionText.count)) ?? 0
        let part = Duration(secondsComponent: 0, attosecondsComponent: fraction)
        var result: Duration
        switch unit {
        case "ms": result = .milliseconds(whole) + part / 1000
        case "min": result = .seconds(whole * 60) + part * 60
        case "h": result = .seconds(whole * 3600) + part * 3600
        default: result = .seconds(whole) + part
        }
        if negative { result = .zero - result }
        return result
    }

    /// A delay as the JSON writer writes it: its diagram label (`FlowTimer.label(of:)`, `30s`, `5min`)
    /// when that reads back to the same duration, else its exact seconds (``exactSeconds(_:)``).
    static func delayText(_ delay: Duration) -> String {
        let label = FlowTimer.label(of: delay)
        return duration(parsing: Substring(label)) == delay ? label : exactSeconds(delay)
    }

    /// A delay in SCXML's CSS2 units: `500ms` for whole milliseconds under a second, else exact
    /// seconds (`30s`, `300s`, `1.5s`).
    static func scxmlDelayText(_ delay: Duration) -> String {
        let (seconds, attoseconds) = delay.components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        if seconds == 0, attoseconds > 0, attoseconds % perMillisecond == 0 { return "\(attoseconds / perMillisecond)ms" }
        return exactSeconds(delay)
    }

    /// A duration as exact seconds: `30s`, `1.5s`, `-2s`, `0.000000001s`.
    static func exactSeconds(_ delay: Duration) -> String {
        var (seconds, attoseconds) = delay.components
        var sign = ""
        if seconds < 0 || attoseconds < 0 {
            sign = "-"
            (seconds, attoseconds) = ((.zero - delay).components.seconds, (.zero - delay).components.attoseconds)
        }
        guard attoseconds != 0 else { return "\(sign)\(seconds)s" }
        let digits = String(attoseconds)
        var fraction = String(repeating: "0", count: max(0, 18 - digits.count)) + digits
        while fraction.last == "0" { fraction.removeLast() }
        return "\(sign)\(seconds).\(fraction)s"
    }

}

extension FlowFile.Transition {
    /// What the transition waits for, as diagrams and messages say it: its event, `after 30s` for a
    /// delayed transition (a typed `After`'s label), or `nil` for an eventless one.
    public var eventLabel: String? {
        delay.map { "after \(FlowTimer.label(of: $0))" } ?? event
    }
}

// MARK: SCXML: the <send delay>/<cancel> idiom

extension FlowFile {
    /// Reads each state's `<onentry><send event="E" delay="D" id="X"/></onentry>`, `<onexit><cancel
    /// sendid="X"/></onexit>` and `<transition event="E" target="T"/>` as one delayed transition
    /// (``Transition/delay``), where the document has that shape exactly: each of the `<onentry>` and
    /// `<onexit>` holds only that element, the `<send>` has no other attribute (and a delay in `s` or
    /// `ms`), the transition names `E` alone, has at most one target and is external, no other
    /// `<send>` or `<raise>` of the document (nor of its inline documents) sends `E` or uses the id
    /// `X`, and no other transition's descriptors match `E`. Any other use of `<send delay>` keeps its
    /// meaning: a delayed event.
    mutating func readDelayedTransitions() {
        // What the document sends and raises, where, and which descriptors its transitions name.
        var sent: [String: Int] = [:]
        var ids: [String: Int] = [:]
        var descriptors: [Substring: Int] = [:]
        var wildcard = false
        var delayedSends = false
        func count(_ block: Executable) {
            block.forEachAction { action in
                switch action.kind {
                case .send(let send):
                    sent[send.event, default: 0] += 1
                    if let id = send.id { ids[id, default: 0] += 1 }
                    if send.delay > 0 { delayedSends = true }
                case .raise(let event): sent[event, default: 0] += 1
                default: break
                }
            }
        }
        var documentsToScan: [FlowFile] = [self]
        while let document = documentsToScan.popLast() {
            document.forEachState { state in
                for block in state.onEntry + state.onExit { count(block) }
                for t in state.transitions {
                    if let content = t.content { count(content) }
                    for d in Self.descriptors(t.event ?? "") {
                        if d == "*" { wildcard = true } else { descriptors[d, default: 0] += 1 }
                    }
                }
            }
            documentsToScan += document.documents.values
        }
        guard delayedSends, !wildcard else { return }
        /// Whether a descriptor of some other transition matches `event` (one transition naming it is ours).
        func matchedElsewhere(_ event: String) -> Bool {
            EventDescriptor.prefixes(of: Substring(event)).enumerated().contains { k, prefix in
                (descriptors[prefix] ?? 0) > (k == 0 ? 1 : 0)
            }
        }
        func recognize(_ state: inout State) {
            guard !state.isFinal, state.history == nil else { return }
            var k = 0
            while k < state.transitions.count {
                let t = state.transitions[k]
                k += 1
                guard let event = t.event, t.delay == nil, !t.isInternal, t.targets.count <= 1,
                      Self.descriptors(event) == [Substring(event)], sent[event] == 1, !matchedElsewhere(event) else { continue }
                guard let entry = state.onEntry.firstIndex(where: { block in
                    guard block.actions.count == 1, case .send(let send) = block.actions[0].kind else { return false }
                    return send.event == event
                }), case .send(let send) = state.onEntry[entry].actions[0].kind,
                      let id = send.id, ids[id] == 1, send.target == nil, send.type == nil, send.delay > 0,
                      let exit = state.onExit.firstIndex(where: { $0.actions == [.cancel(sendID: id)] }),
                      let entryLabel = Self.labelIndex(ofBlock: entry, in: state.onEntry, labels: state.entry),
                      let exitLabel = Self.labelIndex(ofBlock: exit, in: state.onExit, labels: state.exit)
                else { continue }
                state.onEntry.remove(at: entry)
                state.entry.remove(at: entryLabel)
                state.onExit.remove(at: exit)
                state.exit.remove(at: exitLabel)
                state.transitions[k - 1].event = nil
                state.transitions[k - 1].delay = .milliseconds(send.delay)
            }
        }
        // Every state, without recursion: a path of indices to each.
        var paths: [[Int]] = states.indices.reversed().map { [$0] }
        while let path = paths.popLast() {
            Self.modify(&states, at: path, recognize)
            let children = Self.state(in: states, at: path).states.count
            paths += (0..<children).reversed().map { path + [$0] }
        }
    }

    /// The position among a state's `labels` of the label of the one-element block `block` (labels
    /// are one per top-level element, block after block); `nil` when the blocks' elements do not
    /// account for the labels.
    private static func labelIndex(ofBlock block: Int, in blocks: [Executable], labels: [String]) -> Int? {
        let counts = blocks.map(\.actions.count)
        guard counts.reduce(0, +) == labels.count, counts[block] == 1 else { return nil }
        return counts[..<block].reduce(0, +)
    }

    /// The state at a path of indices.
    private static func state(in states: [State], at path: [Int]) -> State {
        var state = states[path[0]]
        for i in path.dropFirst() { state = state.states[i] }
        return state
    }

    /// Changes the state at a path of indices in place (the path is as deep as the document nests
    /// states, which the XML reader bounds).
    private static func modify(_ states: inout [State], at path: [Int], _ body: (inout State) -> Void) {
        if path.count == 1 {
            body(&states[path[0]])
        } else {
            modify(&states[path[0]].states, at: Array(path.dropFirst()), body)
        }
    }
}
