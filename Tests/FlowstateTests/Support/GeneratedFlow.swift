import Flowstate
import PropertyBased

/// The flow used by property tests: integer states, events with an integer kind and payload, and
/// effects that name exactly which state was entered or exited and which transition was taken.
enum Gx: Flow {
    typealias State = Int
    struct Event: FlowEvent, Hashable, CustomStringConvertible {
        var kind: Int
        var payload: Int
        var description: String { "e\(kind)(\(payload))" }
    }
    enum Effect: Hashable, Sendable, CustomStringConvertible {
        case entry(Int), exit(Int), transition(Int)
        var description: String {
            switch self {
            case .entry(let s): "entry(\(s))"
            case .exit(let s): "exit(\(s))"
            case .transition(let t): "t\(t)"
            }
        }
    }
    typealias Output = Int
}

/// A generated flow as plain data, built deterministically from a list of random integers so that
/// the property library can shrink it by shrinking the list.
struct GeneratedFlow: Sendable, CustomStringConvertible {
    struct Transition: Sendable {
        var source: Int
        var event: Int?  // nil: eventless
        var guardKind: Int  // 0 none, 1 payload even, 2 payload odd, 3 payload multiple of 3
        var target: Int?  // nil: targetless
    }

    var count: Int
    var parents: [Int]  // -1 for top level; a parent always has a lower index
    var finals: Set<Int>
    var transitions: [Transition]
    var initial: Int = 0

    var description: String {
        let ts = transitions.map { t in
            "\(t.source)-\(t.event.map { "e\($0)" } ?? "ε")[g\(t.guardKind)]->\(t.target.map(String.init) ?? "·")"
        }
        return "GeneratedFlow(n: \(count), parents: \(parents), finals: \(finals.sorted()), transitions: \(ts))"
    }

    /// Any structure, possibly with eventless transitions, targetless transitions and guards; always
    /// free of validation errors (duplicate unguarded pairs are made guarded).
    init(numbers: [Int], allowEventless: Bool = true) {
        var source = NumberSource(numbers)
        count = 2 + source.next(9)
        var finals = Set<Int>()
        for s in 1..<count where source.next(5) == 0 { finals.insert(s) }
        var parents = [Int](repeating: -1, count: count)
        for s in 1..<count where source.next(3) == 0 {
            let candidates = (0..<s).filter { !finals.contains($0) }
            if !candidates.isEmpty { parents[s] = candidates[source.next(candidates.count)] }
        }
        self.parents = parents
        self.finals = finals
        var transitions: [Transition] = []
        var unguarded = Set<[Int]>()
        let edgeCount = count + source.next(2 * count)
        for _ in 0..<edgeCount {
            let sources = (0..<count).filter { !finals.contains($0) }
            let s = sources[source.next(sources.count)]
            let eventless = allowEventless && source.next(8) == 0
            let event: Int? = eventless ? nil : source.next(4)
            var guardKind = source.next(4)
            let target: Int? = (!eventless && source.next(10) == 0) ? nil : source.next(count)
            let key = [s, event ?? -1]
            if guardKind == 0 {
                if unguarded.contains(key) { guardKind = 1 } else { unguarded.insert(key) }
            }
            transitions.append(Transition(source: s, event: event, guardKind: guardKind, target: target))
        }
        self.transitions = transitions
    }

    /// A flow that validates with no issue at all: a chain 0 -> 1 -> ... -> last (final) that reaches
    /// every state, plus guarded extra transitions.
    static func valid(numbers: [Int]) -> GeneratedFlow {
        var source = NumberSource(numbers)
        var flow = GeneratedFlow(count: 0, parents: [], finals: [], transitions: [])
        flow.count = 2 + source.next(9)
        let last = flow.count - 1
        flow.finals = [last]
        flow.parents = (0..<flow.count).map { s in
            s == 0 || s == last || source.next(3) != 0 ? -1 : source.next(s)
        }
        for s in 0..<last {
            flow.transitions.append(Transition(source: s, event: 0, guardKind: 0, target: s + 1))
        }
        for _ in 0..<source.next(2 * flow.count) {
            flow.transitions.append(Transition(source: source.next(last), event: 1 + source.next(3),
                                               guardKind: 1 + source.next(3), target: source.next(flow.count)))
        }
        return flow
    }

    private init(count: Int, parents: [Int], finals: Set<Int>, transitions: [Transition]) {
        self.count = count
        self.parents = parents
        self.finals = finals
        self.transitions = transitions
    }

    static func guardFor(_ kind: Int) -> Guard<Gx>? {
        switch kind {
        case 1: Guard("even") { $0.payload % 2 == 0 }
        case 2: Guard("odd") { $0.payload % 2 != 0 }
        case 3: Guard("triple") { $0.payload % 3 == 0 }
        default: nil
        }
    }

    static func passes(_ kind: Int, _ event: Gx.Event?) -> Bool {
        guard kind != 0 else { return true }
        guard let event else { return false }
        switch kind {
        case 1: return event.payload % 2 == 0
        case 2: return event.payload % 2 != 0
        default: return event.payload % 3 == 0
        }
    }

    func children(of s: Int) -> [Int] { (0..<count).filter { parents[$0] == s } }

    /// The Flowstate definition of this flow.
    var definition: FlowDefinition<Gx> {
        FlowDefinition("generated", initial: initial, elements: elements(parent: -1))
    }

    func elements(parent: Int) -> [FlowElement<Gx>] {
        (0..<count).filter { parents[$0] == parent }.map { s in
            if finals.contains(s) {
                return Final<Gx>(s, output: s, entry: [.entry(s)]).element
            }
            let body = transitions.enumerated().filter { $0.element.source == s }.map { i, t in
                if let event = t.event {
                    On<Gx>(event, guard: Self.guardFor(t.guardKind), to: t.target, effects: [.transition(i)]).element
                } else {
                    Always<Gx>(guard: Self.guardFor(t.guardKind), to: t.target!, effects: [.transition(i)]).element
                }
            }
            return StateNode<Gx>(s, entry: [.entry(s)], exit: [.exit(s)]) {
                elements(parent: s)
                body
            }.element
        }
    }
}

/// Reads bounded choices from a list of random integers, cycling when it runs out.
struct NumberSource {
    private let numbers: [Int]
    private var position = 0

    init(_ numbers: [Int]) { self.numbers = numbers.isEmpty ? [0] : numbers }

    /// A number in `0..<bound`.
    mutating func next(_ bound: Int) -> Int {
        defer { position += 1 }
        return abs(numbers[position % numbers.count] &+ position) % max(bound, 1)
    }
}

enum Generators {
    /// Random integers that a `GeneratedFlow` is built from.
    static let numbers = Gen.int(in: 0...10_000).array(of: 4...120)
    /// A sequence of events over kinds 0..<4 with small payloads.
    static let events = zip(Gen.int(in: 0...3), Gen.int(in: 0...5)).map { Gx.Event(kind: $0, payload: $1) }
        .array(of: 0...40)
}
