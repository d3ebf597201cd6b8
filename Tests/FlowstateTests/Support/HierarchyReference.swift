/// A reference model of SCXML's hierarchy procedures (Appendix D of the recommendation, "Algorithm for
/// SCXML Interpretation"), written from the recommendation's definitions and nothing else: sets and
/// naive searches over a parent array, no depths, no shortcuts, nothing shared with `FlowHierarchy`.
/// -1 is the `<scxml>` element. Only for the small trees of tests (its searches are quadratic).
struct HierarchyReference {
    /// Each state's parent, -1 at the top. A parent has a lower number than its children.
    let parents: [Int]
    /// Each state's declared initial child, -1 for none (then the first child in document order).
    let declaredInitial: [Int]

    var count: Int { parents.count }

    /// The children of `state` (-1: the top-level states) in the order they are written, which is
    /// their numbering.
    func children(of state: Int) -> [Int] { (0..<count).filter { parents[$0] == state } }

    /// Document order: the order in which a reader meets the states, a parent before its children and
    /// a state's subtree before its next sibling. Computed by a depth-first walk over written children.
    var documentOrder: [Int] {
        var order: [Int] = []
        func visit(_ state: Int) {
            order.append(state)
            for child in children(of: state) { visit(child) }
        }
        for top in children(of: -1) { visit(top) }
        return order
    }

    /// Each state's rank in document order.
    var rank: [Int] {
        var rank = [Int](repeating: 0, count: count)
        for (k, s) in documentOrder.enumerated() { rank[s] = k }
        return rank
    }

    /// "A compound state is a `<state>` with child states" (no parallel states here); `<scxml>` is
    /// treated like one by `findLCCA`.
    func isCompound(_ state: Int) -> Bool { state == -1 || !children(of: state).isEmpty }

    /// "The parent, or the parent's parent, and so on", innermost first; `<scxml>` (-1) not listed.
    func properAncestorList(_ state: Int) -> [Int] {
        var result: [Int] = []
        var s = parents[state]
        while s != -1 {
            result.append(s)
            s = parents[s]
        }
        return result
    }

    /// `isDescendant(state1, state2)`: state1 is a child of state2, or a child of a child, and so on.
    /// Every state is a descendant of `<scxml>`, which is no one's.
    func isDescendant(_ state1: Int, _ state2: Int) -> Bool {
        state1 != -1 && (state2 == -1 || properAncestorList(state1).contains(state2))
    }

    /// `getProperAncestors(state1, state2)`: the ancestors of state1 in ancestry order up to but not
    /// including state2; empty when state2 is state1's parent, state1 itself or a descendant of it
    /// (and, for the states this model compares, when it is unrelated).
    func getProperAncestors(_ state1: Int, _ state2: Int) -> [Int] {
        if state2 == -1 { return properAncestorList(state1) }
        guard isDescendant(state1, state2) else { return [] }
        return Array(properAncestorList(state1).prefix { $0 != state2 })
    }

    /// `findLCCA(stateList)`: "the `<state>` or `<scxml>` element s such that s is a proper ancestor of
    /// all states on stateList and no descendant of s has this property", compound. Found by trying
    /// every candidate.
    func findLCCA(_ states: [Int]) -> Int {
        let candidates = ([-1] + Array(0..<count)).filter { s in
            isCompound(s) && states.allSatisfy { isDescendant($0, s) && $0 != s }
        }
        return candidates.first { s in !candidates.contains { $0 != s && isDescendant($0, s) } }!
    }

    /// `getTransitionDomain(t)`: none without targets; the source for an internal transition from a
    /// compound state to its own descendants; else the LCCA of the source and the targets.
    func getTransitionDomain(source: Int, targets: [Int], isInternal: Bool) -> Int? {
        if targets.isEmpty { return nil }
        if isInternal && source >= 0 && !children(of: source).isEmpty && targets.allSatisfy({ isDescendant($0, source) }) {
            return source
        }
        return findLCCA([source] + targets)
    }

    /// A state's initial child: the declared one if it is a child, else the first child.
    func initialChild(_ state: Int) -> Int? {
        let kids = children(of: state)
        if kids.contains(declaredInitial[state]) { return declaredInitial[state] }
        return kids.first
    }

    /// `computeExitSet(transitions)`: the states of the configuration that are descendants of the
    /// domain of a transition with targets, sorted by exit order (reverse document order).
    func computeExitSet(_ transitions: [(source: Int, targets: [Int], isInternal: Bool)], configuration: Set<Int>) -> [Int] {
        var exit: Set<Int> = []
        for t in transitions {
            guard let domain = getTransitionDomain(source: t.source, targets: t.targets, isInternal: t.isInternal) else { continue }
            for s in configuration where isDescendant(s, domain) { exit.insert(s) }
        }
        let rank = self.rank
        return exit.sorted { rank[$0] > rank[$1] }
    }

    /// `computeEntrySet(transitions)` with `addDescendantStatesToEnter` and `addAncestorStatesToEnter`
    /// (no history, no parallel states), sorted by entry order (document order).
    func computeEntrySet(_ transitions: [(source: Int, targets: [Int], isInternal: Bool)]) -> [Int] {
        var statesToEnter: Set<Int> = []
        func addDescendantStatesToEnter(_ state: Int) {
            statesToEnter.insert(state)
            if let initial = initialChild(state) {
                addDescendantStatesToEnter(initial)
                addAncestorStatesToEnter(initial, state)
            }
        }
        func addAncestorStatesToEnter(_ state: Int, _ ancestor: Int) {
            for anc in getProperAncestors(state, ancestor) { statesToEnter.insert(anc) }
        }
        for t in transitions {
            for s in t.targets { addDescendantStatesToEnter(s) }
            guard let ancestor = getTransitionDomain(source: t.source, targets: t.targets, isInternal: t.isInternal) else {
                continue
            }
            for s in t.targets { addAncestorStatesToEnter(s, ancestor) }
        }
        let rank = self.rank
        return statesToEnter.sorted { rank[$0] < rank[$1] }
    }
}
