import Flowstate

/// A reference interpreter written from docs/SEMANTICS.md, which follows the W3C SCXML
/// recommendation's algorithm (its appendix D, without parallel states, internal transitions or an
/// internal queue). It reads the flow as a *document* (``GeneratedFlow/document``) and keeps what
/// SCXML keeps: a configuration that is a set of states. Nothing is compiled or cached; nothing of
/// `FlowCompiler`'s is reused (no per-leaf tables, no shortcuts), so a mistake shared by the two is
/// a mistake in reading the same document twice, in two different ways.
///
/// Where docs/SEMANTICS.md narrows SCXML, it follows the docs: any final state finishes the machine
/// (SCXML raises `done.state` for a nested one); an ignored or rejected event changes nothing (SCXML
/// would look at eventless transitions again); a targetless transition performs only its effects,
/// and no eventless transition follows it; more than 1,000 eventless transitions in one step is an
/// error that leaves the machine as it was.
struct SCXMLReference {
    /// What a step did, in terms both the reference and the engine can state.
    enum Outcome: Equatable, CustomStringConvertible {
        /// `taken`: the transitions taken, by their position in the document.
        case moved(to: Int, effects: [Gx.Effect], taken: [Int])
        case finished(to: Int, effects: [Gx.Effect], output: Int, taken: [Int])
        case ignored
        case rejected
        /// An error: `.unhandledEvent` (no transition reacts, under `.fail`), `.eventlessLoop`, or the
        /// machine is not running (`.notStarted` after a start that looped, `.finished`).
        case failed(FlowError.Code)

        var description: String {
            switch self {
            case .moved(let to, let effects, let taken): "moved(\(to), \(effects), taken: \(taken))"
            case .finished(let to, let effects, let output, let taken):
                "finished(\(to), \(effects), output: \(output), taken: \(taken))"
            case .ignored: "ignored"
            case .rejected: "rejected"
            case .failed(let code): "failed(\(code))"
            }
        }
    }

    // The document, read once.
    let flow: GeneratedFlow
    /// Each state's position in document order.
    private let order: [Int]
    /// Each state's child states, in document order.
    private let childStates: [[Int]]
    /// Each state's transitions (their numbers in `flow.transitions`), in document order.
    private let transitionsOf: [[Int]]
    /// Each transition's position among all the document's transitions: its declaration identity.
    let position: [Int]

    // The running machine.
    private(set) var configuration = Set<Int>()
    private var phase = Phase.ready
    private enum Phase { case ready, running, finished, failedToStart }
    /// The states the last step exited and entered, in the order it did (for `configurationChange`).
    private(set) var exited: [Int] = []
    private(set) var entered: [Int] = []

    init(_ flow: GeneratedFlow) {
        self.flow = flow
        var order = [Int](repeating: 0, count: flow.count)
        var childStates = [[Int]](repeating: [], count: flow.count)
        var transitionsOf = [[Int]](repeating: [], count: flow.count)
        var position = [Int](repeating: -1, count: flow.transitions.count)
        var open: [Int] = []
        var states = 0
        var transitions = 0
        for item in flow.document {
            switch item {
            case .open(let s):
                if let parent = open.last { childStates[parent].append(s) }
                order[s] = states
                states += 1
                open.append(s)
            case .transition(let t):
                transitionsOf[open.last!].append(t)
                position[t] = transitions
                transitions += 1
            case .close:
                open.removeLast()
            }
        }
        self.order = order
        self.childStates = childStates
        self.transitionsOf = transitionsOf
        self.position = position
    }

    /// The transition (its number in `flow.transitions`) declared at `position` in the document.
    func transition(at position: Int) -> Int { self.position.firstIndex(of: position)! }

    // MARK: The document's structure

    private func isAtomic(_ s: Int) -> Bool { childStates[s].isEmpty }

    /// SCXML's `getProperAncestors(state, stop)`: the ancestors of `s`, nearest first, up to but
    /// excluding `stop` (`nil`: up to the document root).
    private func properAncestors(_ s: Int, upTo stop: Int?) -> [Int] {
        var result: [Int] = []
        var a = flow.parents[s]
        while a >= 0 && a != stop {
            result.append(a)
            a = flow.parents[a]
        }
        return result
    }

    /// SCXML's `isDescendant(s, ancestor)`: strictly below (`nil`: the document root, above everything).
    private func isDescendant(_ s: Int, of ancestor: Int?) -> Bool {
        guard let ancestor else { return true }
        return properAncestors(s, upTo: nil).contains(ancestor)
    }

    /// The initial child: the one named by `initial:`, else the first child in document order.
    private func initialChild(_ s: Int) -> Int { flow.initialChildren[s] ?? childStates[s][0] }

    private func documentOrder(_ states: some Sequence<Int>) -> [Int] { states.sorted { order[$0] < order[$1] } }

    /// The configuration, innermost first (reverse document order: SCXML's exit order).
    var innermostFirst: [Int] { documentOrder(configuration).reversed() }

    // MARK: Selecting transitions

    /// SCXML's `selectTransitions` / `selectEventlessTransitions`: for the atomic state of the
    /// configuration, the state itself then its proper ancestors; for each, its transitions in document
    /// order; the first that matches (`event` for an event, no event for eventless ones) and whose guard
    /// holds. `matched`: some transition matched the event but its guard did not hold.
    private func select(event: Gx.Event?, eventless: Bool) -> (transition: Int?, matched: Bool) {
        var matched = false
        let atomic = configuration.filter(isAtomic)
        precondition(atomic.count == 1, "a configuration without parallel states has one atomic state")
        let leaf = atomic.first!
        for state in [leaf] + properAncestors(leaf, upTo: nil) {
            for t in transitionsOf[state] {
                let transition = flow.transitions[t]
                guard eventless ? transition.event == nil : transition.event == event?.kind else { continue }
                matched = true
                if GeneratedFlow.passes(transition.guardKind, event, leaf: leaf) { return (t, true) }
            }
        }
        return (nil, matched)
    }

    // MARK: Taking a transition

    /// SCXML's `getTransitionDomain`: for an external transition, `findLCCA([source] + targets)`: the
    /// first proper ancestor of the source that has the target as a descendant, or the root (`nil`).
    private func domain(_ t: GeneratedFlow.Transition, target: Int) -> Int? {
        properAncestors(t.source, upTo: nil).first { isDescendant(target, of: $0) }
    }

    /// SCXML's `microstep` for one transition: exit set (innermost first), the transition's effects,
    /// entry set (outermost first). Returns whether a final state was entered.
    private mutating func microstep(_ t: Int, effects: inout [Gx.Effect]) -> Bool {
        let transition = flow.transitions[t]
        let content: [Gx.Effect] = transition.fails ? [.boom] : [.transition(t)]
        guard let target = transition.target else {
            effects += content  // targetless: nothing is exited or entered
            return false
        }
        let domain = domain(transition, target: target)
        // computeExitSet: every active state that is a descendant of the domain, in exit order.
        let exitSet = documentOrder(configuration.filter { isDescendant($0, of: domain) }).reversed()
        // computeEntrySet: addDescendantStatesToEnter(target) then addAncestorStatesToEnter(target, domain).
        var toEnter = Set<Int>()
        var s = target
        while true {
            toEnter.insert(s)
            guard !isAtomic(s) else { break }
            s = initialChild(s)
        }
        toEnter.formUnion(properAncestors(target, upTo: domain))
        for state in exitSet {
            effects.append(.exit(state))
            configuration.remove(state)
            exited.append(state)
        }
        effects += content
        var finished = false
        for state in documentOrder(toEnter) {
            configuration.insert(state)
            effects.append(.entry(state))
            entered.append(state)
            if flow.finals.contains(state) { finished = true }
        }
        return finished
    }

    /// Eventless transitions after the step (their guards see the step's event), at most 1,000.
    private mutating func macrostep(_ effects: inout [Gx.Effect], _ taken: inout [Int], event: Gx.Event?,
                                    finished: inout Bool) -> Bool {
        var count = 0
        while !finished, let t = select(event: event, eventless: true).transition {
            count += 1
            if count > 1_000 { return false }
            finished = microstep(t, effects: &effects)
            taken.append(position[t])
        }
        return true
    }

    private var leaf: Int { configuration.first(where: isAtomic)! }

    private func settled(_ effects: [Gx.Effect], _ taken: [Int], finished: Bool) -> Outcome {
        finished ? .finished(to: leaf, effects: effects, output: leaf, taken: taken)
            : .moved(to: leaf, effects: effects, taken: taken)
    }

    // MARK: Steps

    mutating func start() -> Outcome {
        exited = []
        entered = []
        guard phase == .ready else { return .failed(.alreadyStarted) }
        var effects: [Gx.Effect] = []
        var toEnter = Set(properAncestors(flow.initial, upTo: nil))
        var s = flow.initial
        while true {
            toEnter.insert(s)
            guard !isAtomic(s) else { break }
            s = initialChild(s)
        }
        var finished = false
        for state in documentOrder(toEnter) {
            configuration.insert(state)
            effects.append(.entry(state))
            entered.append(state)
            if flow.finals.contains(state) { finished = true }
        }
        var taken: [Int] = []
        guard macrostep(&effects, &taken, event: nil, finished: &finished) else {
            configuration = []
            phase = .failedToStart  // the machine was never started
            return .failed(.eventlessLoop)
        }
        phase = finished ? .finished : .running
        return settled(effects, taken, finished: finished)
    }

    mutating func send(_ event: Gx.Event) -> Outcome {
        exited = []
        entered = []
        switch phase {
        case .ready, .failedToStart: return .failed(.notStarted)
        case .finished: return .failed(.finished)
        case .running: break
        }
        let (selected, matched) = select(event: event, eventless: false)
        guard let t = selected else {
            if matched { return .rejected }
            return flow.failsOnUnhandled ? .failed(.unhandledEvent) : .ignored
        }
        let saved = self
        var effects: [Gx.Effect] = []
        var taken = [position[t]]
        var finished = microstep(t, effects: &effects)
        if flow.transitions[t].target != nil {
            guard macrostep(&effects, &taken, event: event, finished: &finished) else {
                self = saved
                return .failed(.eventlessLoop)
            }
        }
        if finished { phase = .finished }
        return settled(effects, taken, finished: finished)
    }

    /// What stopping the machine performs: the exits of its active states, innermost first (nothing
    /// once it has finished or before it started).
    func stopEffects() -> [Gx.Effect] {
        phase == .running ? innermostFirst.map { .exit($0) } : []
    }
}

extension SCXMLReference.Outcome {
    /// The outcome the engine reported, in the reference's terms.
    init(_ result: Result<FlowStep<Gx>, FlowError>) {
        switch result {
        case .success(let step):
            let taken = step.transitions.map(\.position)
            switch step.kind {
            case .started, .transitioned:
                self = .moved(to: step.state, effects: Array(step.effects), taken: taken)
            case .finished:
                self = .finished(to: step.state, effects: Array(step.effects), output: step.output ?? step.state,
                                 taken: taken)
            case .ignored:
                self = .ignored
            case .rejected:
                self = .rejected
            }
        case .failure(let error):
            self = .failed(error.code)
        }
    }
}
