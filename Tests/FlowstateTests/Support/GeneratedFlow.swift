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
        /// `transition(i)` is the effect of `GeneratedFlow.transitions[i]`; `boom` is the effect of a
        /// failing transition (the tree tests' handlers throw on it).
        case entry(Int), exit(Int), transition(Int), boom
        var description: String {
            switch self {
            case .entry(let s): "entry(\(s))"
            case .exit(let s): "exit(\(s))"
            case .transition(let t): "t\(t)"
            case .boom: "boom"
            }
        }
    }
    typealias Output = Int
}

/// A generated flow as plain data. States are numbered with a parent always before its children;
/// the order in which states and transitions are *written* (the document the definition is built
/// from, ``document``) is a different one: a state's transitions are written before, between or after
/// its child states (`Transition.slot`), so a transition's declaration position is not its number.
struct GeneratedFlow: Sendable, CustomStringConvertible {
    struct Transition: Sendable, Hashable {
        var source: Int
        var event: Int?  // nil: eventless
        var guardKind: Int  // 0 none, 1 payload even, 2 payload odd, 3 payload multiple of 3, 4 leaf state even
        var target: Int?  // nil: targetless (never for an eventless transition)
        /// Where it is written among its source's child states: before the child at `slot`, or after
        /// every child when `slot` is at least their count.
        var slot = 0
        /// Its effect is `.boom` rather than `.transition(i)`.
        var fails = false
        /// A completion transition (`On(done:)`): the state whose `done.state` it reacts to (`event` is
        /// then `nil`).
        var done: Int? = nil
        /// For guard kind 5 (`Guard.in`), the state it asks about.
        var inState = 0
        /// Declared internal (`type: .internal`): from a compound source to targets inside it, the
        /// source is not exited (docs: *Internal transitions*); anywhere else it runs as an external one.
        var isInternal = false
        /// A delayed transition (`After`): its delay in seconds (`event` and `done` are then `nil`).
        var delay: Int? = nil
    }

    var count: Int
    var parents: [Int]  // -1 for top level; a parent always has a lower number
    var finals: Set<Int>
    /// Compound states that name their initial child (`StateNode(initial:)`); the others start in
    /// their first child.
    var initialChildren: [Int: Int] = [:]
    var transitions: [Transition]
    var initial: Int = 0
    var failsOnUnhandled = false
    /// Parallel states (`Parallel`): their children are regions.
    var parallels: Set<Int> = []
    /// History pseudo-states (`History`): whether each is deep, and its default target.
    var histories: [Int: (deep: Bool, default: Int)] = [:]

    var description: String {
        let ts = transitions.enumerated().map { i, t -> String in
            let trigger: String = if let delay = t.delay { "after\(delay)s" } else if let done = t.done { "done\(done)" }
                else if let event = t.event { "e\(event)" } else { "ε" }
            let guardText: String = t.guardKind == 0 ? "" : t.guardKind == 5 ? "[in\(t.inState)]" : "[g\(t.guardKind)]"
            let target: String = t.target.map(String.init) ?? "·"
            let slot: String = t.slot == 0 ? "" : "@\(t.slot)"
            return "t\(i): \(t.source)-\(trigger)\(guardText)->\(target)\(slot)\(t.fails ? "!" : "")"
                + (t.isInternal ? "~" : "")
        }
        let hs = histories.keys.sorted().map { "\($0)\(histories[$0]!.deep ? "*" : "")->\(histories[$0]!.default)" }
        return "GeneratedFlow(parents: \(parents), finals: \(finals.sorted()), parallels: \(parallels.sorted()), "
            + "histories: [\(hs.joined(separator: ", "))], "
            + "initialChildren: \(initialChildren), "
            + "unhandled: \(failsOnUnhandled ? "fail" : "ignore"), transitions: [\(ts.joined(separator: ", "))])"
    }

    // MARK: From generated numbers

    /// A state as generated: where it nests (0 or 1: top level; more: under a recent earlier
    /// non-final state), whether it is final (3), which child it names as initial (0: none).
    typealias StateSpec = (parent: Int, final: Int, initial: Int)
    /// A transition as generated: the numbers pick, in turn, the source among the states that are not
    /// final, the event kind (`eventKinds`: eventless), the guard, the target (`count`: targetless)
    /// and where it is written. The event number's quotient by `eventKinds + 1` also picks the type:
    /// 1 makes it internal with its target picked among the source's descendants when it has any, 3
    /// internal with its target as picked (often one where `internal` changes nothing), else external.
    typealias TransitionSpec = (source: Int, event: Int, guardKind: Int, target: Int, slot: Int)

    /// Any structure: nesting, final states, named initial children, eventless and targetless
    /// transitions, guards; always free of validation errors (a second unguarded transition of a state
    /// on the same event is given a guard). Every number shrinks towards a simpler flow: 0 is top
    /// level, not final, no named initial child, event 0, no guard, target 0, written first.
    init(states: [StateSpec], transitions specs: [TransitionSpec], failsOnUnhandled: Bool = false,
         allowEventless: Bool = true, eventKinds: Int = 4) {
        count = max(1, states.count)
        var finals = Set<Int>()
        var parents = [Int](repeating: -1, count: count)
        for s in 1..<max(count, 1) {
            let spec = states[s]
            if spec.final == 3 { finals.insert(s) }
            guard spec.parent >= 2 else { continue }
            let candidates = (0..<s).filter { !finals.contains($0) }
            if !candidates.isEmpty { parents[s] = candidates[candidates.count - 1 - (spec.parent - 2) % candidates.count] }
        }
        self.parents = parents
        self.finals = finals
        let count = count
        var initialChildren: [Int: Int] = [:]
        for s in 0..<count where states.indices.contains(s) && states[s].initial > 0 {
            let kids = (0..<count).filter { parents[$0] == s }
            if !kids.isEmpty { initialChildren[s] = kids[states[s].initial % kids.count] }
        }
        self.initialChildren = initialChildren
        self.failsOnUnhandled = failsOnUnhandled
        let sources = (0..<count).filter { !finals.contains($0) }
        var unguarded = Set<[Int]>()
        transitions = specs.map { spec in
            let source = sources[spec.source % sources.count]
            let eventless = allowEventless && spec.event % (eventKinds + 1) == eventKinds
            let event: Int? = eventless ? nil : spec.event % eventKinds
            var guardKind = spec.guardKind
            let pick = spec.target % (count + 1)
            var target: Int? = pick < count ? pick : (eventless ? source : nil)
            let type = (spec.event / (eventKinds + 1)) % 4
            if type == 1 {
                // Internal, into the source: the case where `internal` keeps the source active.
                let inside = (0..<count).filter { s in
                    var a = parents[s]
                    while a >= 0 && a != source { a = parents[a] }
                    return a == source
                }
                if !inside.isEmpty { target = inside[spec.target % inside.count] }
            }
            if guardKind == 0 && !unguarded.insert([source, event ?? -1]).inserted { guardKind = 1 }
            return Transition(source: source, event: event, guardKind: guardKind, target: target, slot: spec.slot,
                              isInternal: type == 1 || type == 3)
        }
    }

    /// A flow that validates with no issue at all: a chain 0 -> 1 -> ... -> last (final) on event 0
    /// that reaches every state, plus guarded extra transitions on events 1...3. `parents[i]` nests
    /// state `i + 1` (0: top level; more: under a recent earlier state).
    static func valid(parents specs: [Int], extras: [(source: Int, event: Int, guardKind: Int, target: Int)]) -> GeneratedFlow {
        let count = specs.count + 2
        let last = count - 1
        var parents = [Int](repeating: -1, count: count)
        for s in 1..<last where specs[s - 1] > 0 { parents[s] = s - 1 - (specs[s - 1] - 1) % s }
        var transitions = (0..<last).map { Transition(source: $0, event: 0, guardKind: 0, target: $0 + 1) }
        for extra in extras {
            transitions.append(Transition(source: extra.source % last, event: 1 + extra.event % 3,
                                          guardKind: 1 + extra.guardKind % 3, target: extra.target % count))
        }
        return GeneratedFlow(count: count, parents: parents, finals: [last], transitions: transitions)
    }

    /// A flow with parallel states: the structure of ``init(states:transitions:failsOnUnhandled:allowEventless:eventKinds:)``,
    /// then each state with children and no final child whose `marks` number is odd made parallel (its
    /// named initial child dropped), then transitions whose event number is past the eventless one made
    /// completion transitions (waiting for a parallel state, or for a compound state inside one) and
    /// guards of kind 5 made `In` guards.
    static func withParallels(states: [StateSpec], marks: [Int], transitions specs: [TransitionSpec],
                              failsOnUnhandled: Bool = false, allowEventless: Bool = true) -> GeneratedFlow {
        var flow = GeneratedFlow(states: states, transitions: specs, failsOnUnhandled: failsOnUnhandled,
                                 allowEventless: allowEventless, eventKinds: 4)
        for s in 0..<flow.count where s < marks.count && marks[s] % 2 == 1 {
            let kids = flow.children(of: s)
            if !kids.isEmpty && !kids.contains(where: flow.finals.contains) && !flow.finals.contains(s) {
                flow.parallels.insert(s)
                flow.initialChildren[s] = nil
            }
        }
        let completes = (0..<flow.count).filter { s in
            flow.parallels.contains(s)
                || (!flow.children(of: s).isEmpty && !flow.parallels.contains(s) && flow.hasParallelAncestor(s))
        }
        for (i, spec) in specs.enumerated() where i < flow.transitions.count {
            if allowEventless && spec.event % 7 == 6 && !completes.isEmpty {
                flow.transitions[i].event = nil
                flow.transitions[i].done = completes[spec.slot % completes.count]
            }
            if spec.guardKind == 4 && spec.slot % 2 == 1 {
                flow.transitions[i].guardKind = 5
                flow.transitions[i].inState = spec.target % flow.count
            }
        }
        return flow
    }

    /// `flow` with history states: for each compound (not parallel) state whose `marks` number is 1
    /// (shallow) or 2 (deep) modulo 3, a history appended as its last child, defaulting to one of its
    /// children (shallow) or to a state inside it (deep), picked by the mark; then each transition
    /// whose `retargets` number is 3 modulo 4 retargeted to a history picked by the number.
    static func withHistories(_ flow: GeneratedFlow, marks: [Int], retargets: [Int]) -> GeneratedFlow {
        var flow = flow
        let base = flow.count
        var added: [Int] = []
        for s in 0..<base where s < marks.count && marks[s] % 3 != 0 {
            let kids = flow.children(of: s)
            guard !kids.isEmpty, !flow.parallels.contains(s), !flow.finals.contains(s) else { continue }
            let deep = marks[s] % 3 == 2
            let inside = deep ? (0..<base).filter { flow.isBelow($0, s) } : kids
            let h = flow.count
            flow.count += 1
            flow.parents.append(s)
            flow.histories[h] = (deep, inside[(marks[s] / 3) % inside.count])
            added.append(h)
        }
        guard !added.isEmpty else { return flow }
        for i in flow.transitions.indices where i < retargets.count && retargets[i] % 4 == 3 && flow.transitions[i].target != nil {
            flow.transitions[i].target = added[(retargets[i] / 4) % added.count]
        }
        return flow
    }

    /// `flow` with delayed transitions: each transition whose `marks` number is 2 modulo 3 made an
    /// `After` of 1 to 4 seconds (picked by the number), keeping its source, guard and target (an
    /// `After` is external: SCXML's delayed send names no transition type).
    static func withDelays(_ flow: GeneratedFlow, marks: [Int]) -> GeneratedFlow {
        var flow = flow
        for i in flow.transitions.indices where i < marks.count && marks[i] % 3 == 2 {
            flow.transitions[i].isInternal = false
            flow.transitions[i].event = nil
            flow.transitions[i].done = nil
            flow.transitions[i].delay = 1 + (marks[i] / 3) % 4
        }
        return flow
    }

    /// Whether `s` is strictly inside `ancestor`.
    func isBelow(_ s: Int, _ ancestor: Int) -> Bool {
        var a = parents[s]
        while a >= 0 {
            if a == ancestor { return true }
            a = parents[a]
        }
        return false
    }

    /// Whether a proper ancestor of `s` is parallel.
    func hasParallelAncestor(_ s: Int) -> Bool {
        var a = parents[s]
        while a >= 0 {
            if parallels.contains(a) { return true }
            a = parents[a]
        }
        return false
    }

    init(count: Int, parents: [Int], finals: Set<Int>, transitions: [Transition]) {
        self.count = count
        self.parents = parents
        self.finals = finals
        self.transitions = transitions
    }

    // MARK: Guards

    static func guardFor<G: Flow>(_ kind: Int) -> Guard<G>? where G.State == Int, G.Event == Gx.Event {
        switch kind {
        case 1: Guard("even") { $0.payload % 2 == 0 }
        case 2: Guard("odd") { $0.payload % 2 != 0 }
        case 3: Guard("triple") { $0.payload % 3 == 0 }
        case 4: Guard("even leaf", evaluate: { state, _ in state % 2 == 0 })
        default: nil
        }
    }

    /// Whether a guard of `kind` holds for `event` (`nil` while starting) in the leaf state `leaf`:
    /// what ``guardFor(_:)``'s closures compute, written again as data.
    static func passes(_ kind: Int, _ event: Gx.Event?, leaf: Int) -> Bool {
        switch kind {
        case 0: return true
        case 4: return leaf % 2 == 0
        default:
            guard let event else { return false }  // a guard over the event is false without one
            switch kind {
            case 1: return event.payload % 2 == 0
            case 2: return event.payload % 2 != 0
            default: return event.payload % 3 == 0
            }
        }
    }

    // MARK: The document

    func children(of s: Int) -> [Int] { (0..<count).filter { parents[$0] == s } }

    /// One item of the written flow.
    enum Item: Hashable { case open(Int), transition(Int), close }

    /// The flow as it is written, in order: each state opens, then its transitions and child states
    /// interleaved as their slots say (child states in number order), then closes. Iterative.
    var document: [Item] {
        var kids = [[Int]](repeating: [], count: count + 1)  // kids[count]: the top level
        for s in 0..<count { kids[parents[s] >= 0 ? parents[s] : count].append(s) }
        var items: [Item] = []
        var stack: [(state: Int, next: Int)] = [(count, 0)]
        while var frame = stack.popLast() {
            let children = kids[frame.state]
            if frame.state < count {
                for (i, t) in transitions.enumerated()
                where t.source == frame.state && min(t.slot, children.count) == frame.next {
                    items.append(.transition(i))
                }
            }
            if frame.next < children.count {
                let child = children[frame.next]
                frame.next += 1
                stack.append(frame)
                items.append(.open(child))
                stack.append((child, 0))
            } else if frame.state < count {
                items.append(.close)
            }
        }
        return items
    }

    /// The Flowstate definition of this flow: the document, built without recursion.
    var definition: FlowDefinition<Gx> { definition() }

    /// The definition, named `name`, whose states in `runs` run those declared children.
    func definition(name: String = "generated", runs: [Int: ChildFlow<Gx>] = [:]) -> FlowDefinition<Gx> {
        let elements: [FlowElement<Gx>] = elements(transition: { i in
            let t = transitions[i]
            let effects: [Gx.Effect] = t.fails ? [.boom] : [.transition(i)]
            let condition: Guard<Gx>? = t.guardKind == 5 ? .in(t.inState) : Self.guardFor(t.guardKind)
            let type: TransitionType = t.isInternal ? .internal : .external
            return if let delay = t.delay {
                After<Gx>(.seconds(delay), guard: condition, to: t.target, effects: effects).element
            } else if let done = t.done {
                On<Gx>(done: done, guard: condition, to: t.target, type: type, effects: effects).element
            } else if let event = t.event {
                On<Gx>(event, guard: condition, to: t.target, type: type, effects: effects).element
            } else {
                Always<Gx>(guard: condition, to: t.target!, type: type, effects: effects).element
            }
        }, state: { s, body in
            if let history = histories[s] {
                History<Gx>(s, history.deep ? .deep : .shallow, default: history.default).element
            } else if finals.contains(s) {
                Final<Gx>(s, output: s, entry: [.entry(s)]).element
            } else if parallels.contains(s) {
                Parallel<Gx>(s, runs: runs[s], entry: [.entry(s)], exit: [.exit(s)]) { body }.element
            } else {
                StateNode<Gx>(s, initial: initialChildren[s], runs: runs[s], entry: [.entry(s)], exit: [.exit(s)]) {
                    body
                }.element
            }
        })
        return FlowDefinition(name, initial: initial, unhandledEvents: failsOnUnhandled ? .fail : .ignore,
                              elements: elements)
    }

    /// The document's elements for any flow type: `transition` makes transition `i`, `state` makes
    /// state `s` around its body. Built without recursion.
    func elements<G: Flow>(transition: (Int) -> FlowElement<G>,
                           state: (Int, [FlowElement<G>]) -> FlowElement<G>) -> [FlowElement<G>] {
        var lists: [[FlowElement<G>]] = [[]]
        var open: [Int] = []
        for item in document {
            switch item {
            case .open(let s):
                open.append(s)
                lists.append([])
            case .transition(let i):
                lists[lists.count - 1].append(transition(i))
            case .close:
                let s = open.removeLast()
                let body = lists.removeLast()
                lists[lists.count - 1].append(state(s, body))
            }
        }
        return lists[0]
    }
}

enum Generators {
    static let stateSpecs = zip(Gen.int(in: 0...4), Gen.int(in: 0...3), Gen.int(in: 0...3))
        .map { GeneratedFlow.StateSpec(parent: $0, final: $1, initial: $2) }
        .array(of: 1...11)
    static let transitionSpecs = zip(Gen.int(in: 0...20), Gen.int(in: 0...20), Gen.int(in: 0...4),
                                     Gen.int(in: 0...20), Gen.int(in: 0...3))
        .map { GeneratedFlow.TransitionSpec(source: $0, event: $1, guardKind: $2, target: $3, slot: $4) }
        .array(of: 1...30)

    /// Generated flows, shrinking through the library's own shrinkers: fewer states and transitions
    /// (elements removed from the arrays), and each number towards 0 (a simpler flow).
    /// `failingPolicy`: a quarter of them fail on unhandled events (`UnhandledEventPolicy.fail`).
    static func flows(allowEventless: Bool = true, failingPolicy: Bool = true)
        -> Generator<GeneratedFlow, some SendableSequenceType>
    {
        zip(stateSpecs, transitionSpecs, Gen.int(in: 0...3)).map { states, transitions, policy in
            GeneratedFlow(states: states, transitions: transitions, failsOnUnhandled: failingPolicy && policy == 3,
                          allowEventless: allowEventless)
        }
    }

    /// Flows free of any validation issue (see `GeneratedFlow.valid`).
    static let validFlows = zip(
        Gen.int(in: 0...3).array(of: 0...9),
        zip(Gen.int(in: 0...20), Gen.int(in: 0...2), Gen.int(in: 0...2), Gen.int(in: 0...20))
            .map { (source: $0, event: $1, guardKind: $2, target: $3) }.array(of: 0...20)
    ).map { GeneratedFlow.valid(parents: $0, extras: $1) }

    /// Generated flows with parallel states (``GeneratedFlow/withParallels(states:marks:transitions:failsOnUnhandled:)``),
    /// shrinking as ``flows(allowEventless:failingPolicy:)`` do, and each mark towards 0 (not parallel).
    /// `allowEventless: false`: no eventless or completion transitions (the flows whose steps the
    /// engine's common step of parallel flows can take).
    static func parallelFlows(allowEventless: Bool = true) -> Generator<GeneratedFlow, some SendableSequenceType> {
        zip(stateSpecs, Gen.int(in: 0...3).array(of: 11...11), transitionSpecs, Gen.int(in: 0...3))
            .map { states, marks, transitions, policy in
                GeneratedFlow.withParallels(states: states, marks: marks, transitions: transitions,
                                            failsOnUnhandled: policy == 3, allowEventless: allowEventless)
            }
    }

    /// Generated flows with history states (``GeneratedFlow/withHistories(_:marks:retargets:)``) over
    /// flows without parallel states or, with `parallel`, with them; shrinking towards no history.
    static func historyFlows(parallel: Bool) -> Generator<GeneratedFlow, some SendableSequenceType> {
        zip(stateSpecs, Gen.int(in: 0...11).array(of: 11...11), transitionSpecs, Gen.int(in: 0...11).array(of: 30...30))
            .map { states, marks, transitions, retargets in
                let flow = parallel
                    ? GeneratedFlow.withParallels(states: states, marks: marks, transitions: transitions)
                    : GeneratedFlow(states: states, transitions: transitions)
                return GeneratedFlow.withHistories(flow, marks: marks.map { $0 / 2 }, retargets: retargets)
            }
    }

    /// Generated flows with delayed transitions (``GeneratedFlow/withDelays(_:marks:)``), over flows
    /// with parallel and history states when `parallel`, else over flat ones; shrinking towards no delay.
    static func delayFlows(parallel: Bool) -> Generator<GeneratedFlow, some SendableSequenceType> {
        zip(stateSpecs, Gen.int(in: 0...11).array(of: 11...11), transitionSpecs, Gen.int(in: 0...11).array(of: 30...30))
            .map { states, marks, transitions, delays in
                let flow = parallel
                    ? GeneratedFlow.withHistories(
                        GeneratedFlow.withParallels(states: states, marks: marks, transitions: transitions),
                        marks: marks.map { $0 / 2 }, retargets: delays.map { $0 / 3 })
                    : GeneratedFlow(states: states, transitions: transitions)
                return GeneratedFlow.withDelays(flow, marks: delays)
            }
    }

    /// Inputs for flows with delayed transitions: an event, or (choice 0) the firing of the armed timer
    /// the payload picks, or (choice 1) of any timer armed so far, stale or not.
    static let timedInputs = zip(Gen.int(in: 0...3), Gen.int(in: 0...3), Gen.int(in: 0...5))
        .map { (choice: $0, event: Gx.Event(kind: $1, payload: $2)) }
        .array(of: 0...40)

    /// A sequence of events over kinds 0..<4 with small payloads.
    static let events = zip(Gen.int(in: 0...3), Gen.int(in: 0...5)).map { Gx.Event(kind: $0, payload: $1) }
        .array(of: 0...40)
}
