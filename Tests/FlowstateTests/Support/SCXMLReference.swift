import Flowstate

/// A reference interpreter written from docs/SEMANTICS.md, which follows the W3C SCXML
/// recommendation's algorithm (its appendix D, with parallel states, history states, internal
/// transitions and the internal queue's `done.state` events). It reads the flow as a *document* (``GeneratedFlow/document``) and keeps what
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
    /// SCXML's `historyValue`: what each history remembers (docs: *History states*).
    private(set) var historyValue: [Int: [Int]] = [:]
    private var phase = Phase.ready
    private enum Phase { case ready, running, finished, failedToStart }
    /// The states the last step exited and entered, in the order it did (for `configurationChange`).
    private(set) var exited: [Int] = []
    private(set) var entered: [Int] = []

    /// A timer of a delayed transition (docs: *Delayed transitions*): the pseudo-event "the timer of
    /// transition `transition`, armed by `state` as the `generation`th, fired".
    struct Timer: Hashable, CustomStringConvertible {
        var state: Int
        var transition: Int
        var generation: Int
        var description: String { "timer(t\(transition) of \(state) #\(generation))" }
    }
    enum TimerChange: Hashable { case arm(Timer), cancel(Timer) }
    /// The armed timers, in the order they were armed; how many were ever armed; what the last step
    /// did to them.
    private(set) var armed: [Timer] = []
    private var generation = 0
    private(set) var timerChanges: [TimerChange] = []

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
    private func isHistory(_ s: Int) -> Bool { flow.histories[s] != nil }
    private func isParallel(_ s: Int) -> Bool { flow.parallels.contains(s) && !childStates[s].isEmpty }
    private func isCompound(_ s: Int) -> Bool { !childStates[s].isEmpty && !isParallel(s) }

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
    private func initialChild(_ s: Int) -> Int { flow.initialChildren[s] ?? childStates[s].first { !isHistory($0) }! }

    private func documentOrder(_ states: some Sequence<Int>) -> [Int] { states.sorted { order[$0] < order[$1] } }

    /// The configuration, innermost first (reverse document order: SCXML's exit order).
    var innermostFirst: [Int] { documentOrder(configuration).reversed() }

    /// The active atomic states, in document order.
    private var atomicStates: [Int] { documentOrder(configuration.filter(isAtomic)) }

    // MARK: Selecting transitions

    /// What a selection matches: an event, eventless transitions, or a `done.state` event.
    private enum Trigger { case event(Gx.Event), eventless, done(Int), timer(Int) }

    /// SCXML's `selectTransitions` / `selectEventlessTransitions`: for each active atomic state in
    /// document order, the state itself then its proper ancestors; for each, its transitions in
    /// document order; the first that matches and whose guard holds, each transition once.
    /// `matched`: some transition matched, guards aside. Guards over the event see `event` (for
    /// eventless and completion transitions, the step's event); `In` guards see the configuration.
    private func select(_ trigger: Trigger, event: Gx.Event?) -> (enabled: [Int], matched: Bool) {
        var matched = false
        var enabled: [Int] = []
        for leaf in atomicStates {
            search: for state in [leaf] + properAncestors(leaf, upTo: nil) {
                for t in transitionsOf[state] {
                    let transition = flow.transitions[t]
                    switch trigger {
                    case .event(let e): guard transition.done == nil && transition.event == e.kind else { continue }
                    case .eventless:
                        guard transition.done == nil && transition.event == nil && transition.delay == nil else { continue }
                    case .done(let d): guard transition.done == d else { continue }
                    case .timer(let fired): guard t == fired else { continue }
                    }
                    matched = true
                    let holds = transition.guardKind == 5
                        ? configuration.contains(transition.inState)
                        : GeneratedFlow.passes(transition.guardKind, event, leaf: leaf)
                    guard holds else { continue }
                    if !enabled.contains(t) { enabled.append(t) }
                    break search
                }
            }
        }
        return (enabled, matched)
    }

    /// SCXML's `removeConflictingTransitions`: of two transitions whose exit sets intersect, the one
    /// whose source is a descendant of the other's wins, else the one selected first.
    private func removeConflicts(_ enabled: [Int]) -> [Int] {
        var filtered: [Int] = []
        for t1 in enabled {
            var preempted = false
            var toRemove = Set<Int>()
            for t2 in filtered where !exitSet([t1]).isDisjoint(with: exitSet([t2])) {
                if isDescendant(flow.transitions[t1].source, of: flow.transitions[t2].source) {
                    toRemove.insert(t2)
                } else {
                    preempted = true
                    break
                }
            }
            if !preempted {
                filtered.removeAll { toRemove.contains($0) }
                filtered.append(t1)
            }
        }
        return filtered
    }

    // MARK: Taking transitions

    /// SCXML's `getTransitionDomain` (docs: *Internal transitions*): for an internal transition whose
    /// source is compound (not atomic, not parallel) and whose every effective target is a proper
    /// descendant of the source, the source; for any other, `findLCCA([source] + effective targets)`,
    /// the nearest proper ancestor of the source that is compound (not parallel) and has every
    /// effective target as a descendant, or the root (`nil`).
    private func domain(_ t: GeneratedFlow.Transition, target: Int) -> Int? {
        let targets = effectiveTargets(target)
        if t.isInternal && isCompound(t.source) && targets.allSatisfy({ isDescendant($0, of: t.source) }) {
            return t.source
        }
        return properAncestors(t.source, upTo: nil).first { a in isCompound(a) && targets.allSatisfy { isDescendant($0, of: a) } }
    }

    /// SCXML's `getEffectiveTargetStates`: the target, or for a history what it remembers, else its
    /// default (docs: a default is never a history).
    private func effectiveTargets(_ target: Int) -> [Int] {
        guard let history = flow.histories[target] else { return [target] }
        return historyValue[target] ?? [history.default]
    }

    /// SCXML's `computeExitSet`: every active state below the domain of a transition with a target.
    private func exitSet(_ transitions: [Int]) -> Set<Int> {
        var result = Set<Int>()
        for t in transitions {
            let transition = flow.transitions[t]
            guard let target = transition.target else { continue }
            let domain = domain(transition, target: target)
            result.formUnion(configuration.filter { isDescendant($0, of: domain) })
        }
        return result
    }

    /// SCXML's `addDescendantStatesToEnter`: the state, then (compound) its initial child's, or
    /// (parallel) each region's that nothing entered yet is inside of.
    private func addDescendants(_ s: Int, to toEnter: inout Set<Int>) {
        if isHistory(s) {
            let targets = effectiveTargets(s)
            for t in targets { addDescendants(t, to: &toEnter) }
            for t in targets { addAncestors(t, below: flow.parents[s], to: &toEnter) }
            return
        }
        toEnter.insert(s)
        if isParallel(s) {
            for child in childStates[s] where !isHistory(child) && !toEnter.contains(where: { $0 == child || isDescendant($0, of: child) }) {
                addDescendants(child, to: &toEnter)
            }
        } else if isCompound(s) {
            addDescendants(initialChild(s), to: &toEnter)
        }
    }

    /// SCXML's `addAncestorStatesToEnter`: the proper ancestors of `s` below the domain, and the
    /// regions of each parallel one that nothing entered is inside of.
    private func addAncestors(_ s: Int, below domain: Int?, to toEnter: inout Set<Int>) {
        for anc in properAncestors(s, upTo: domain) {
            toEnter.insert(anc)
            guard isParallel(anc) else { continue }
            for child in childStates[anc] where !isHistory(child) && !toEnter.contains(where: { $0 == child || isDescendant($0, of: child) }) {
                addDescendants(child, to: &toEnter)
            }
        }
    }

    /// SCXML's `isInFinalState`.
    private func isInFinalState(_ s: Int) -> Bool {
        if isParallel(s) { return childStates[s].filter { !isHistory($0) }.allSatisfy(isInFinalState) }
        return childStates[s].contains { flow.finals.contains($0) && configuration.contains($0) }
    }

    /// The state a step finished in (docs: a final state with no parallel ancestor finishes the flow).
    private var finishedIn: Int?
    /// `done.state` events raised and not yet processed.
    private var internalQueue: [Int] = []

    /// Enters `states` in document order; a final state finishes the flow or raises `done.state`.
    private mutating func enter(_ states: Set<Int>, effects: inout [Gx.Effect]) {
        for state in documentOrder(states) {
            configuration.insert(state)
            effects.append(.entry(state))
            entered.append(state)
            // Docs: entering a state arms a timer for each of its delayed transitions, in document order.
            for t in transitionsOf[state] where flow.transitions[t].delay != nil {
                generation += 1
                let timer = Timer(state: state, transition: t, generation: generation)
                armed.append(timer)
                timerChanges.append(.arm(timer))
            }
            guard flow.finals.contains(state) else { continue }
            if !flow.hasParallelAncestor(state) {
                finishedIn = state
            } else {
                let parent = flow.parents[state]
                internalQueue.append(parent)
                let grandparent = flow.parents[parent]
                if grandparent >= 0 && isParallel(grandparent) && isInFinalState(grandparent) {
                    internalQueue.append(grandparent)
                }
            }
        }
    }

    /// SCXML's `microstep`: exit set (reverse document order), each transition's effects, entry set
    /// (document order).
    private mutating func microstep(_ transitions: [Int], effects: inout [Gx.Effect], taken: inout [Int]) {
        let exiting = exitSet(transitions)
        // Docs, *History states*: each history of an exited state records, before any exit.
        for (h, history) in flow.histories where exiting.contains(flow.parents[h]) {
            let p = flow.parents[h]
            historyValue[h] = documentOrder(configuration.filter {
                history.deep ? isAtomic($0) && isDescendant($0, of: p) : flow.parents[$0] == p
            })
        }
        for state in documentOrder(exiting).reversed() {
            if !flow.finals.contains(state) { effects.append(.exit(state)) }  // a final state declares no exit
            // Docs: exiting a state cancels its armed timers.
            for timer in armed where timer.state == state { timerChanges.append(.cancel(timer)) }
            armed.removeAll { $0.state == state }
            configuration.remove(state)
            exited.append(state)
        }
        var toEnter = Set<Int>()
        for t in transitions {
            let transition = flow.transitions[t]
            effects += transition.fails ? [.boom] : [.transition(t)]
            taken.append(position[t])
            guard let target = transition.target else { continue }
            addDescendants(target, to: &toEnter)
            for effective in effectiveTargets(target) {
                addAncestors(effective, below: domain(transition, target: target), to: &toEnter)
            }
        }
        enter(toEnter, effects: &effects)
    }

    /// Eventless transitions while any is enabled, else the next `done.state` event, at most 1,000
    /// microsteps (their guards see the step's event).
    private mutating func macrostep(_ effects: inout [Gx.Effect], _ taken: inout [Int], event: Gx.Event?) -> Bool {
        var count = 0
        while finishedIn == nil {
            var enabled = select(.eventless, event: event).enabled
            if enabled.isEmpty {
                guard !internalQueue.isEmpty else { break }
                enabled = select(.done(internalQueue.removeFirst()), event: event).enabled
                if enabled.isEmpty { continue }
            }
            count += 1
            if count > 1_000 { return false }
            microstep(removeConflicts(enabled), effects: &effects, taken: &taken)
        }
        return true
    }

    private mutating func settled(_ effects: [Gx.Effect], _ taken: [Int]) -> Outcome {
        if let finishedIn {
            // Docs: finishing cancels every timer left.
            timerChanges += armed.map { .cancel($0) }
            armed = []
            return .finished(to: finishedIn, effects: effects, output: finishedIn, taken: taken)
        }
        return .moved(to: atomicStates[0], effects: effects, taken: taken)
    }

    // MARK: Steps

    mutating func start() -> Outcome {
        exited = []
        entered = []
        timerChanges = []
        guard phase == .ready else { return .failed(.alreadyStarted) }
        var effects: [Gx.Effect] = []
        var toEnter = Set<Int>()
        addDescendants(flow.initial, to: &toEnter)
        addAncestors(flow.initial, below: nil, to: &toEnter)
        enter(toEnter, effects: &effects)
        var taken: [Int] = []
        guard macrostep(&effects, &taken, event: nil) else {
            configuration = []
            (armed, generation, timerChanges) = ([], 0, [])
            phase = .failedToStart  // the machine was never started
            return .failed(.eventlessLoop)
        }
        phase = finishedIn != nil ? .finished : .running
        return settled(effects, taken)
    }

    mutating func send(_ event: Gx.Event) -> Outcome {
        exited = []
        entered = []
        timerChanges = []
        switch phase {
        case .ready, .failedToStart: return .failed(.notStarted)
        case .finished: return .failed(.finished)
        case .running: break
        }
        let (enabled, matched) = select(.event(event), event: event)
        guard !enabled.isEmpty else {
            if matched { return .rejected }
            return flow.failsOnUnhandled ? .failed(.unhandledEvent) : .ignored
        }
        let saved = self
        var effects: [Gx.Effect] = []
        var taken: [Int] = []
        let transitions = removeConflicts(enabled)
        microstep(transitions, effects: &effects, taken: &taken)
        // Without parallel states (docs): a targetless transition performs only its effects, and no
        // eventless transition follows it. With them, every microstep is followed by the fixed point.
        if !flow.parallels.isEmpty || transitions.contains(where: { flow.transitions[$0].target != nil }) {
            guard macrostep(&effects, &taken, event: event) else {
                self = saved
                return .failed(.eventlessLoop)
            }
        }
        if finishedIn != nil { phase = .finished }
        return settled(effects, taken)
    }

    /// Fires `timer` (docs: *Delayed transitions*): ignored unless it is armed; else it is spent, and
    /// its transition, the only one its pseudo-event selects, is taken as an event's would be when its
    /// guard holds (for some active atomic state inside its state, with no event).
    mutating func fire(_ timer: Timer) -> Outcome {
        exited = []
        entered = []
        timerChanges = []
        guard phase == .running, armed.contains(timer) else { return .ignored }
        let saved = self
        armed.removeAll { $0 == timer }
        let enabled = select(.timer(timer.transition), event: nil).enabled
        guard !enabled.isEmpty else { return .rejected }
        var effects: [Gx.Effect] = []
        var taken: [Int] = []
        microstep(enabled, effects: &effects, taken: &taken)
        if !flow.parallels.isEmpty || flow.transitions[timer.transition].target != nil {
            guard macrostep(&effects, &taken, event: nil) else {
                self = saved
                timerChanges = []
                return .failed(.eventlessLoop)
            }
        }
        if finishedIn != nil { phase = .finished }
        return settled(effects, taken)
    }

    /// Stops the machine: its timers are cancelled.
    mutating func stop() {
        armed = []
        phase = .finished
    }

    /// What stopping the machine performs: the exits of its active states, innermost first (nothing
    /// once it has finished or before it started).
    func stopEffects() -> [Gx.Effect] {
        phase == .running ? innermostFirst.filter { !flow.finals.contains($0) }.map { .exit($0) } : []
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
