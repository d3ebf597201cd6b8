import Flowstate

/// A deliberately naive interpreter of the same semantics (SCXML's, without parallel states):
/// it recomputes everything from the generated structure at every step, with no compiled tables.
/// The engine must agree with it on every step.
struct ReferenceInterpreter {
    enum Outcome: Equatable, CustomStringConvertible {
        case moved(to: Int, effects: [Gx.Effect])
        case finished(to: Int, effects: [Gx.Effect], output: Int)
        case ignored
        case rejected
        case loop
        case stopped

        var description: String {
            switch self {
            case .moved(let to, let effects): "moved(\(to), \(effects))"
            case .finished(let to, let effects, let output): "finished(\(to), \(effects), \(output))"
            case .ignored: "ignored"
            case .rejected: "rejected"
            case .loop: "loop"
            case .stopped: "stopped"
            }
        }
    }

    let flow: GeneratedFlow
    var leaf = -1
    var done = false

    init(_ flow: GeneratedFlow) { self.flow = flow }

    func ancestors(_ s: Int) -> [Int] {
        var result: [Int] = []
        var s = s
        while s >= 0 {
            result.append(s)
            s = flow.parents[s]
        }
        return result
    }

    func initialLeaf(_ s: Int) -> Int {
        let kids = flow.children(of: s)
        return kids.isEmpty ? s : initialLeaf(kids[0])
    }

    /// Exits, transition effects and entries for taking transition `index` from the active `leaf`.
    func effects(leaf: Int, index: Int) -> (Int, [Gx.Effect]) {
        let t = flow.transitions[index]
        guard let target = t.target else { return (leaf, [.transition(index)]) }
        let domain = ancestors(t.source).dropFirst().first { ancestors(target).dropFirst().contains($0) } ?? -1
        var effects: [Gx.Effect] = ancestors(leaf).prefix { $0 != domain }.map { .exit($0) }
        effects.append(.transition(index))
        let entered = ancestors(target).prefix { $0 != domain }.reversed()
            + ancestors(initialLeaf(target)).prefix { $0 != target }.reversed()
        effects += entered.map { .entry($0) }
        return (initialLeaf(target), effects)
    }

    func firstEnabled(leaf: Int, event: Int?, payload: Gx.Event?) -> (index: Int?, matched: Bool) {
        var matched = false
        for s in ancestors(leaf) {
            for (i, t) in flow.transitions.enumerated() where t.source == s && t.event == event {
                if event == nil && t.target == nil { continue }
                matched = true
                if GeneratedFlow.passes(t.guardKind, payload) { return (i, true) }
            }
        }
        return (nil, matched)
    }

    mutating func settle(_ leaf: Int, _ effects: [Gx.Effect], _ event: Gx.Event?) -> Outcome {
        var leaf = leaf
        var effects = effects
        var taken = 0
        while !flow.finals.contains(leaf), let i = firstEnabled(leaf: leaf, event: nil, payload: event).index {
            taken += 1
            if taken > 1_000 { return .loop }
            let (next, more) = self.effects(leaf: leaf, index: i)
            effects += more
            leaf = next
        }
        self.leaf = leaf
        if flow.finals.contains(leaf) {
            done = true
            return .finished(to: leaf, effects: effects, output: leaf)
        }
        return .moved(to: leaf, effects: effects)
    }

    mutating func start() -> Outcome {
        let entered = ancestors(initialLeaf(flow.initial)).reversed().map { Gx.Effect.entry($0) }
        let outcome = settle(initialLeaf(flow.initial), entered, nil)
        if outcome == .loop { done = true }  // the engine stays unstarted and refuses events
        return outcome
    }

    mutating func send(_ event: Gx.Event) -> Outcome {
        if done { return .stopped }
        let (index, matched) = firstEnabled(leaf: leaf, event: event.kind, payload: event)
        guard let index else { return matched ? .rejected : .ignored }
        let (next, effects) = self.effects(leaf: leaf, index: index)
        if flow.transitions[index].target == nil { return .moved(to: leaf, effects: effects) }
        let saved = self
        let outcome = settle(next, effects, event)
        if outcome == .loop { self = saved }
        return outcome
    }
}

extension ReferenceInterpreter.Outcome {
    /// The outcome the engine reported, in the reference's terms.
    init(_ result: Result<FlowStep<Gx>, FlowError>) {
        switch result {
        case .success(.started(let state, let effects, _)), .success(.transitioned(_, let state, _, let effects, _)):
            self = .moved(to: state, effects: Array(effects))
        case .success(.finished(_, let state, _, let effects, let output, _)):
            self = .finished(to: state, effects: Array(effects), output: output)
        case .success(.ignored):
            self = .ignored
        case .success(.rejected):
            self = .rejected
        case .failure(let error) where error.code == .eventlessLoop:
            self = .loop
        case .failure:
            self = .stopped
        }
    }
}
