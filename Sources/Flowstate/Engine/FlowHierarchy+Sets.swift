// SCXML's exit and entry sets (computeExitSet, computeEntrySet, addDescendantStatesToEnter,
// addAncestorStatesToEnter) and what histories record, over the hierarchy.

extension FlowHierarchy {
    // MARK: Exit and entry sets

    /// SCXML's `computeExitSet(transitions)`: the states of `configuration` that are descendants of the
    /// domain of some transition with targets, each once, in exit order (reverse document order: a
    /// state's descendants before it, later siblings before earlier ones). O(configuration × domains),
    /// then a sort.
    package func computeExitSet(_ transitions: some Sequence<TransitionSpan>, configuration: some Sequence<Int>,
                                history: HistoryValue = [:]) -> [Int] {
        let domains = transitions.compactMap { transitionDomain(of: $0, history: history) }
        guard !domains.isEmpty else { return [] }
        var exited: [Int] = []
        for state in configuration where domains.contains(where: { isDescendant(state, of: $0) }) {
            exited.append(state)
        }
        return inDocumentOrder(exited, reversed: true)
    }

    /// SCXML's `computeEntrySet(transitions)`: the states the transitions enter, each once, in entry
    /// order (document order: a state before its descendants): each target and the states its default
    /// entry enters (`addDescendantStatesToEnter`), and the target's proper ancestors below the
    /// transition's domain, with the regions of each parallel one that nothing else enters
    /// (`addAncestorStatesToEnter`). A history target enters what it remembers in `history`, or its
    /// default targets; the ancestors entered are those of its effective targets
    /// (`getEffectiveTargetStates`).
    package func computeEntrySet(_ transitions: some Sequence<TransitionSpan>, history: HistoryValue = [:]) -> [Int] {
        var entered: [Int] = []
        for transition in transitions {
            guard let domain = transitionDomain(of: transition, history: history) else { continue }
            for target in transition.targets { addDescendantStatesToEnter(target, to: &entered, history: history) }
            for target in effectiveTargets(transition.targets, history: history) {
                addAncestorStatesToEnter(target, below: domain, to: &entered)
            }
        }
        return inDocumentOrder(entered, reversed: false)
    }

    /// SCXML's `addDescendantStatesToEnter(state)`: `state`; for a compound state, its initial
    /// child's default entry; for a parallel state, the default entry of each region that `entered`
    /// has no state of yet; for a history, the states it remembers in `history` (else its default
    /// targets), each entered this way, then their ancestors below the history's parent
    /// (`addAncestorStatesToEnter`). Iterative: an explicit stack of the recommendation's calls.
    package func addDescendantStatesToEnter(_ state: Int, to entered: inout [Int], history: HistoryValue = [:]) {
        var s = state
        guard hasParallel || hasHistory else {
            while s >= 0 {
                entered.append(s)
                s = initialChild(of: s)
            }
            return
        }
        var pending: [EntryCall] = [.descendants(s)]
        while let call = pending.popLast() {
            switch call {
            case .ancestors(let target, let ancestor):
                addAncestorStatesToEnter(target, below: ancestor, to: &entered)
            case .descendants(let next):
                s = next
                if isHistory(s) {
                    // Popped in the recommendation's order: each target's descendants, then each
                    // target's ancestors.
                    let targets = history[s] ?? historyDefault(of: s)
                    for target in targets.reversed() { pending.append(.ancestors(target, below: parent(of: s))) }
                    for target in targets.reversed() { pending.append(.descendants(target)) }
                    continue
                }
                entered.append(s)
                if isParallel(s) {
                    for region in children(of: s).reversed()
                    where !isHistory(region) && !entered.contains(where: { isDescendantOrSelf($0, of: region) }) {
                        pending.append(.descendants(region))
                    }
                } else if initialChild(of: s) >= 0 {
                    pending.append(.descendants(initialChild(of: s)))
                }
            }
        }
    }

    /// A call of the recommendation's entry procedures, waiting on ``addDescendantStatesToEnter(_:to:history:)``'s stack.
    private enum EntryCall {
        /// `addDescendantStatesToEnter(state)`.
        case descendants(Int)
        /// `addAncestorStatesToEnter(state, ancestor)`.
        case ancestors(Int, below: Int)
    }

    /// SCXML's `addAncestorStatesToEnter(state, ancestor)`: the proper ancestors of `state` below
    /// `ancestor`, and for each that is parallel, the default entry of each of its regions that
    /// `entered` has no state of yet.
    package func addAncestorStatesToEnter(_ state: Int, below ancestor: Int, to entered: inout [Int]) {
        for s in properAncestors(of: state, upTo: ancestor) {
            entered.append(s)
            guard isParallel(s) else { continue }
            for region in children(of: s)
            where !isHistory(region) && !entered.contains(where: { isDescendantOrSelf($0, of: region) }) {
                addDescendantStatesToEnter(region, to: &entered)
            }
        }
    }

    /// `states` in document order (entry order) or its reverse (exit order), each once.
    package func inDocumentOrder(_ states: [Int], reversed: Bool) -> [Int] {
        var sorted = reversed
            ? states.sorted { documentPosition(of: $0) > documentPosition(of: $1) }
            : states.sorted { documentPosition(of: $0) < documentPosition(of: $1) }
        var kept = 0
        for k in sorted.indices where k == 0 || sorted[k] != sorted[kept - 1] {
            sorted[kept] = sorted[k]
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        return sorted
    }
}
