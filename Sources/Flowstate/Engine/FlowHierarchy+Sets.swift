// SCXML's exit and entry sets (computeExitSet, computeEntrySet, addDescendantStatesToEnter,
// addAncestorStatesToEnter) and what histories record, over the hierarchy; and the same sets for a
// move along one chain of states (no parallel state, no history), which the compiler lays out each
// move's exit and entry effects by and a flat flow's microstep report lists.

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

    // MARK: One chain's exit and entry sets

    /// The exit set of a move out of one chain of states: `leaf` and its ancestors that are
    /// descendants of `domain` (an ancestor of `leaf`, or ``root``), innermost first, appended to
    /// `exited`. When the configuration is `leaf` and its ancestors (a flow without parallel states),
    /// this is ``computeExitSet(_:configuration:history:)`` of a transition whose domain is `domain`,
    /// in its order, walked up from the leaf: no sort, no allocation but `exited`'s growth.
    ///
    /// - Parameter marked: The states to list, as a shortcut up (`marked[s]`: the nearest
    ///   ancestor-or-self of `s` to list, or -1), so that the walk steps over the others (the compiler
    ///   lists the states with exit effects); `nil`: every state of the set.
    package func appendChainExitSet(from leaf: Int, below domain: Int, marked: [Int]? = nil, to exited: inout [Int]) {
        var s = Self.listed(leaf, by: marked)
        while s >= 0 && isDescendant(s, of: domain) {
            exited.append(s)
            s = Self.listed(parent(of: s), by: marked)
        }
    }

    /// The entry set of a move into one chain of states: the ancestors of `target` that are
    /// descendants of `domain` (an ancestor of `target`, or ``root``), `target`, then its initial
    /// descendants down to its default-entry leaf, outermost first, appended to `entered`. When no
    /// parallel state lies between `target` and `domain`, entering `target` enters none, and
    /// `target` is not a history, this is ``computeEntrySet(_:history:)`` of a transition to
    /// `target` whose domain is `domain`, in its order: no sort, no allocation but `entered`'s growth.
    ///
    /// - Parameters:
    ///   - markedUp: The states to list among `target` and its ancestors, as a shortcut up (see
    ///     ``appendChainExitSet(from:below:marked:to:)``); `nil`: all of them.
    ///   - markedDown: The states to list among the initial descendants, as a shortcut down
    ///     (`markedDown[s]`: the first state to list on the chain of initial children that starts at
    ///     `s` itself, or -1); `nil`: all of them. (The compiler lists the states with entry effects.)
    package func appendChainEntrySet(entering target: Int, below domain: Int, markedUp: [Int]? = nil,
                                     markedDown: [Int]? = nil, to entered: inout [Int]) {
        guard target >= 0 else { return }
        let start = entered.count
        var s = Self.listed(target, by: markedUp)
        while s >= 0 && isDescendant(s, of: domain) {
            entered.append(s)
            s = Self.listed(parent(of: s), by: markedUp)
        }
        entered[start...].reverse()
        s = Self.listed(initialChild(of: target), by: markedDown)
        while s >= 0 {
            entered.append(s)
            s = Self.listed(initialChild(of: s), by: markedDown)
        }
    }

    /// The state a chain walk lists at `state` (-1: none): `state` itself without a shortcut, else
    /// what the shortcut says.
    @inline(__always)
    private static func listed(_ state: Int, by shortcut: [Int]?) -> Int {
        guard state >= 0, let shortcut else { return state }
        return shortcut[state]
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
