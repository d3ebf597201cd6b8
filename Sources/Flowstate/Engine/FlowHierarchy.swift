/// The hierarchy of a flow's states, and the procedures of SCXML's algorithm that depend on nothing
/// else: the one place the package answers "who contains whom" (the compiler, the engine's
/// configuration, the supervisor, the testing kit and the flow files all read it).
///
/// States are numbered from 0, a parent before its children, siblings in the order they are written
/// (the compiler and the flow files number them in document order, which also makes a state's
/// descendants follow it); ``root`` (-1) stands for the document itself, SCXML's `<scxml>` element,
/// the parent of the top-level states. The structure is kept in flat arrays of 32-bit integers, built
/// in one pass each; nothing recurses over it, so a hierarchy may be deeper than a thread's stack
/// allows recursion, and no question allocates unless its answer is a new array. Each state's position
/// in document order and the end of its subtree's positions are kept too, so that whether a state is
/// a descendant of another is one comparison, however deep.
///
/// The procedures are named after those of the recommendation's Appendix D
/// ([SCXML, Algorithm for SCXML Interpretation](https://www.w3.org/TR/scxml/#AlgorithmforSCXMLInterpretation)):
/// ``properAncestors(of:upTo:)`` (`getProperAncestors`), ``isDescendant(_:of:)``, ``findLCCA(_:)``,
/// ``transitionDomain(of:)`` (`getTransitionDomain`), ``computeExitSet(_:configuration:)`` and
/// ``computeEntrySet(_:)``. Exit and entry sets operate on sets of states (a configuration), as the
/// recommendation's do. A state with children is compound unless it is declared parallel, in which
/// case all its children (its regions) are active together.
///
/// A history pseudo-state (SCXML's `<history>`) is numbered as a child of its state but is never
/// active, never a default initial child and never a region: a transition that targets it targets what
/// it remembers (a ``HistoryValue``, which the machine keeps and ``recordHistory(exiting:configuration:into:)``
/// fills as SCXML's `exitStates` does), or its default targets. The procedures that depend on what is
/// remembered (domains, exit and entry sets) take it as an argument; a flow without history passes
/// none and pays nothing.
package struct FlowHierarchy: Sendable {
    /// The document root (SCXML's `<scxml>` element): the parent of the top-level states, and the
    /// domain of a transition that leaves them.
    package static let root = -1

    /// A transition as far as the hierarchy is concerned: where it is declared and what it targets.
    package struct TransitionSpan: Sendable, Hashable {
        /// The state the transition is declared on; ``FlowHierarchy/root`` for the document's initial
        /// transition (its domain is the root).
        package var source: Int
        /// The states it targets, empty for a targetless transition (which exits and enters nothing).
        package var targets: [Int]
        /// SCXML's `type="internal"`: a transition from a compound state to its own descendants
        /// does not exit its source (`On(..., type: .internal)`; ``transitionDomain(of:history:)`` honours it).
        package var isInternal: Bool

        /// A transition from `source` to `targets`, external unless `isInternal`.
        package init(source: Int, targets: [Int], isInternal: Bool = false) {
            self.source = source
            self.targets = targets
            self.isInternal = isInternal
        }

        /// A transition from `source` to `target`, or targetless when `target` is `nil`.
        package init(source: Int, target: Int?, isInternal: Bool = false) {
            self.init(source: source, targets: target.map { [$0] } ?? [], isInternal: isInternal)
        }
    }

    /// Each state's parent, or ``root``; always less than the state.
    let parents: [Int32]
    /// The children of state `s` are `childList[childStart[s + 1]..<childStart[s + 2]]`, in document
    /// order; the top-level states are `childList[childStart[0]..<childStart[1]]`.
    let childStart: [Int32]
    /// Every state, grouped by parent (top-level states first).
    let childList: [Int32]
    /// Each compound state's initial child (the declared one, else its first child), or -1 for an
    /// atomic state.
    let initials: [Int32]
    /// The atomic state each state's default entry settles in (itself for an atomic state).
    let defaultLeaves: [Int32]
    /// Each state's position in document order (pre-order over the children lists); empty when every
    /// state's position is its number (the compiler's numbering, and a valid file's), which saves
    /// four bytes a state.
    let positions: [Int32]
    /// The position just after the last descendant of each state: its descendants are the states
    /// whose positions lie strictly between its own and this one.
    let subtreeEnds: [Int32]
    /// Whether each state is parallel; empty when none is (a flat flow pays nothing for them).
    let parallels: [Bool]
    /// Each state's history depth (0: not a history, 1: shallow, 2: deep); empty when there is no
    /// history (a flow without pays nothing for them).
    let histories: [UInt8]
    /// Each history's default targets, by history.
    let historyDefaults: [Int: [Int]]

    /// What the histories of a machine remember: for each history that has been recorded, the states
    /// SCXML's `historyValue[h.id]` holds (a shallow history's active child, a deep history's active
    /// atomic descendants, in document order).
    package typealias HistoryValue = [Int: [Int]]

    /// Builds the hierarchy of `parents.count` states, each numbered after its parent, siblings in the
    /// order they are written.
    /// - Parameters:
    ///   - parents: Each state's parent, or ``root``. A parent must come before its child; an entry
    ///     that does not (a number not less than the state's own, or below -1) is read as ``root``,
    ///     so any input makes a tree.
    ///   - initialChildren: For each state, its declared initial child, or -1 for none (an array
    ///     shorter than `parents` declares none for the rest). A declared child that is not a child
    ///     of the state is ignored: the state's initial child is then its first child, as SCXML's
    ///     default is.
    ///   - parallel: For each state, whether it is parallel (SCXML's `<parallel>`: its children are
    ///     regions, all active together); an array shorter than `parents` declares none for the rest.
    ///     A parallel state without children is atomic.
    ///   - history: For each state, whether it is a history pseudo-state and of which depth (`nil`: a
    ///     state); an array shorter than `parents` declares none for the rest. A history is never a
    ///     state's default initial child (its first child that is not a history); a declared one may be
    ///     a history (SCXML's `initial` naming one: entering the state enters what it remembers).
    ///   - historyDefaults: Each history's default targets (states that are not histories; others are
    ///     dropped).
    package init(parents: [Int], initialChildren: [Int] = [], parallel: [Bool] = [],
                 history: [HistoryDepth?] = [], historyDefaults: [Int: [Int]] = [:]) {
        let n = parents.count
        var histories = [UInt8](repeating: 0, count: n)
        var anyHistory = false
        for s in 0..<min(n, history.count) {
            guard let depth = history[s] else { continue }
            histories[s] = depth == .deep ? 2 : 1
            anyHistory = true
        }
        var parents32 = [Int32](repeating: -1, count: n)
        var childStart = [Int32](repeating: 0, count: n + 2)
        for i in 0..<n {
            let p = parents[i]
            guard p >= 0 && p < i else { continue }
            parents32[i] = Int32(p)
        }
        for p in parents32 { childStart[Int(p) + 2] += 1 }
        for k in 0..<(n + 1) { childStart[k + 1] += childStart[k] }
        var fill = childStart
        var childList = [Int32](repeating: 0, count: n)
        for i in 0..<n {
            let bucket = Int(parents32[i]) + 1
            childList[Int(fill[bucket])] = Int32(i)
            fill[bucket] += 1
        }
        var initials = [Int32](repeating: -1, count: n)
        for s in 0..<n where childStart[s + 1] < childStart[s + 2] {
            let declared = s < initialChildren.count ? initialChildren[s] : -1
            if declared > s && declared < n && parents32[declared] == Int32(s) {
                initials[s] = Int32(declared)
            } else if !anyHistory {
                initials[s] = childList[Int(childStart[s + 1])]
            } else {
                // The first child that is not a history (-1 when every child is one).
                initials[s] = childList[Int(childStart[s + 1])..<Int(childStart[s + 2])]
                    .first { histories[Int($0)] == 0 } ?? -1
            }
        }
        // A child comes after its parent, so a backward pass sees every child first (initial child,
        // subtree sizes) and a forward pass every parent first (positions).
        var defaultLeaves = [Int32](repeating: 0, count: n)
        var sizes = [Int32](repeating: 1, count: n)
        for s in stride(from: n - 1, through: 0, by: -1) {
            let c = initials[s]
            defaultLeaves[s] = c >= 0 ? defaultLeaves[Int(c)] : Int32(s)
            let p = Int(parents32[s])
            if p >= 0 { sizes[p] += sizes[s] }
        }
        // A state's position is the next free one inside its parent's subtree (children are met in
        // the order they are written); a state's own descendants then take the positions after it.
        var positions = [Int32](repeating: 0, count: n)
        var nextInside = [Int32](repeating: 0, count: n + 1)  // by state + 1; the root's first
        for s in 0..<n {
            let bucket = Int(parents32[s]) + 1
            positions[s] = nextInside[bucket]
            nextInside[bucket] += sizes[s]
            nextInside[s + 1] = positions[s] + 1
        }
        var subtreeEnds = sizes
        var isIdentity = true
        for s in 0..<n {
            subtreeEnds[s] += positions[s]
            if positions[s] != Int32(s) { isIdentity = false }
        }
        self.positions = isIdentity ? [] : positions
        self.subtreeEnds = subtreeEnds
        var parallels = [Bool](repeating: false, count: n)
        var anyParallel = false
        for s in 0..<min(n, parallel.count) where parallel[s] && childStart[s + 1] < childStart[s + 2] {
            parallels[s] = true
            anyParallel = true
        }
        self.parallels = anyParallel ? parallels : []
        self.histories = anyHistory ? histories : []
        var defaults: [Int: [Int]] = [:]
        if anyHistory {
            for (h, targets) in historyDefaults where h >= 0 && h < n && histories[h] != 0 {
                defaults[h] = targets.filter { $0 >= 0 && $0 < n && histories[$0] == 0 }
            }
        }
        self.historyDefaults = defaults
        self.parents = parents32
        self.childStart = childStart
        self.childList = childList
        self.initials = initials
        self.defaultLeaves = defaultLeaves
    }

    // MARK: Structure

    /// The number of states.
    package var count: Int { parents.count }

    /// The position of `state` in document order, from 0: a state comes after its parent and after
    /// its earlier siblings' descendants. (The same as its number when states are numbered in
    /// document order, as the compiler numbers them.)
    @inline(__always)
    package func documentPosition(of state: Int) -> Int { positions.isEmpty ? state : Int(positions[state]) }

    /// The state that contains `state`, or ``root`` for a top-level state.
    @inline(__always)
    package func parent(of state: Int) -> Int { Int(parents[state]) }

    /// How many proper ancestors `state` has: 0 for a top-level state, -1 for ``root``. O(depth): no
    /// procedure needs it (whether a state is below another is ``isDescendant(_:of:)``, O(1)), so it
    /// is counted rather than stored.
    package func depth(of state: Int) -> Int {
        var depth = -1
        for _ in ancestorsOrSelf(of: state) { depth += 1 }
        return depth
    }

    /// The children of `state` in document order; of ``root``, the top-level states.
    package func children(of state: Int) -> Children {
        Children(list: childList, range: Int(childStart[state + 1])..<Int(childStart[state + 2]))
    }

    /// Whether `state` has no children (SCXML's atomic state).
    package func isAtomic(_ state: Int) -> Bool { childStart[state + 1] == childStart[state + 2] }

    /// Whether `state` has children and is not parallel (SCXML's compound state: one child active at
    /// a time). ``root`` counts as compound, as `<scxml>` does for ``findLCCA(_:)``.
    package func isCompound(_ state: Int) -> Bool {
        state == Self.root || (!isAtomic(state) && !isParallel(state))
    }

    /// Whether `state` is parallel (SCXML's `<parallel>`): it has children, its regions, and entering
    /// it enters every one of them. ``root`` is not.
    @inline(__always)
    package func isParallel(_ state: Int) -> Bool { state >= 0 && !parallels.isEmpty && parallels[state] }

    /// Whether any state is parallel: when none is, a configuration is one atomic state and its
    /// ancestors.
    package var hasParallel: Bool { !parallels.isEmpty }

    /// Whether any state is a history pseudo-state: when one is, what a machine remembers is part of
    /// its state, and a transition's domain and entry set depend on it.
    package var hasHistory: Bool { !histories.isEmpty }

    /// Whether `state` is a history pseudo-state (SCXML's `<history>`). ``root`` is not.
    @inline(__always)
    package func isHistory(_ state: Int) -> Bool { state >= 0 && !histories.isEmpty && histories[state] != 0 }

    /// What the history `state` remembers, or `nil` when `state` is not a history.
    package func historyDepth(of state: Int) -> HistoryDepth? {
        guard isHistory(state) else { return nil }
        return histories[state] == 2 ? .deep : .shallow
    }

    /// The default targets of the history `state` (entered when it remembers nothing); empty for a
    /// state that is not a history.
    package func historyDefault(of state: Int) -> [Int] { historyDefaults[state] ?? [] }

    /// The history pseudo-states declared in `state`, in document order.
    package func histories(of state: Int) -> [Int] {
        guard hasHistory else { return [] }
        return children(of: state).filter { histories[$0] != 0 }
    }

    /// The child a compound state's default entry enters (its declared initial child, else its first
    /// child), or -1 for an atomic state. (For a parallel state, its first region: entering it enters
    /// them all, see ``computeEntrySet(_:)``.)
    package func initialChild(of state: Int) -> Int { Int(initials[state]) }

    /// The number just after the last descendant of `state` (``count`` for ``root``): with states
    /// numbered in document order (the compiler's numbering), the descendants of `state` are the
    /// numbers strictly between the two.
    package func subtreeEnd(of state: Int) -> Int { state < 0 ? count : Int(subtreeEnds[state]) }

    /// The atomic state that entering `state` by default settles in, following initial children
    /// (`state` itself when it is atomic). Precomputed: O(1). Inside a parallel state it follows the
    /// first region only: a configuration with parallel states is a set (``computeEntrySet(_:)``).
    package func defaultEntryLeaf(of state: Int) -> Int { Int(defaultLeaves[state]) }

    /// Whether the default entry of `state` enters a parallel state (itself, or one of the initial
    /// descendants it enters). O(depth).
    package func defaultEntryEntersParallel(_ state: Int) -> Bool {
        guard hasParallel else { return false }
        var s = state
        while s >= 0 {
            if parallels[s] { return true }
            s = initialChild(of: s)
        }
        return false
    }

    /// The nearest proper ancestor of `state` that is parallel, or ``root`` when none is. O(depth).
    package func nearestParallelAncestor(of state: Int) -> Int {
        guard hasParallel else { return Self.root }
        for s in properAncestors(of: state) where parallels[s] { return s }
        return Self.root
    }

    /// The bytes the hierarchy's storage takes (array capacities), for tests that keep indexes small.
    package var footprint: Int {
        (parents.capacity + childStart.capacity + childList.capacity + initials.capacity
            + defaultLeaves.capacity + positions.capacity + subtreeEnds.capacity) * MemoryLayout<Int32>.stride
            + parallels.capacity + histories.capacity
    }

    // MARK: Ancestry

    /// `state`, then its parent, and so on up to its top-level ancestor, innermost first: the
    /// configuration of a machine resting in `state`, when no state is parallel. Iterating allocates
    /// nothing.
    package func ancestorsOrSelf(of state: Int) -> Ancestry {
        Ancestry(parents: parents, first: state, stop: Self.root)
    }

    /// SCXML's `getProperAncestors(state1, state2)`: the ancestors of `state`, innermost first, up to
    /// but not including `ancestor` (``root`` lists them all; the `<scxml>` element itself is never
    /// listed). Empty when `ancestor` is not a proper ancestor of `state` (its parent, itself, a
    /// descendant, or unrelated) and when `state` is not a state. Iterating allocates nothing.
    package func properAncestors(of state: Int, upTo ancestor: Int = root) -> Ancestry {
        guard state >= 0 && state < parents.count && (ancestor == Self.root || isDescendant(state, of: ancestor)) else {
            return Ancestry(parents: parents, first: Self.root, stop: Self.root)
        }
        return Ancestry(parents: parents, first: parent(of: state), stop: ancestor)
    }

    /// SCXML's `isDescendant(state1, state2)`: whether `state` is a child of `ancestor`, or a child of
    /// a child, and so on (every state is a descendant of ``root``; no state is its own; a number that
    /// is not a state is no one's descendant). O(1): two comparisons of document positions.
    package func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
        guard state >= 0 && state < parents.count && ancestor < parents.count else { return false }
        if ancestor < 0 { return ancestor == Self.root }
        let position = documentPosition(of: state)
        return documentPosition(of: ancestor) < position && position < Int(subtreeEnds[ancestor])
    }

    /// Whether `state` is `ancestor` or one of its descendants (for a machine resting in atomic state
    /// `state`: whether `ancestor` is active, SCXML's `In()`).
    package func isDescendantOrSelf(_ state: Int, of ancestor: Int) -> Bool {
        state == ancestor || isDescendant(state, of: ancestor)
    }

    /// The deepest state that is `a` or one of its ancestors and `b` or one of theirs, or ``root``.
    /// O(depth of `a`), no allocation.
    package func nearestCommonAncestorOrSelf(_ a: Int, _ b: Int) -> Int {
        guard b >= 0 else { return Self.root }
        var a = a
        while a >= 0 && !isDescendantOrSelf(b, of: a) { a = Int(parents[a]) }
        return a < 0 ? Self.root : a
    }

    /// SCXML's `findLCCA(stateList)`, the least common compound ancestor: the deepest compound state
    /// (or ``root``) that is a proper ancestor of every state listed. Never one of them; ``root`` for
    /// an empty list. O(the states' depths), no allocation.
    package func findLCCA(_ states: some Sequence<Int>) -> Int {
        var iterator = states.makeIterator()
        guard let first = iterator.next() else { return Self.root }
        return lcca(first, then: IteratorSequence(iterator))
    }

    /// ``findLCCA(_:)`` of `first` followed by `rest`.
    private func lcca(_ first: Int, then rest: some Sequence<Int>) -> Int {
        // The nearest common ancestor-or-self of them all, and whether it is one of them (it can be
        // only the state that made it, or the one it was before: the others lie strictly below).
        var common = first
        var isListed = true
        for state in rest {
            let next = nearestCommonAncestorOrSelf(common, state)
            isListed = next == state || (next == common && isListed)
            common = next
            if common == Self.root { return Self.root }
        }
        var s = isListed ? parent(of: common) : common
        while !isCompound(s) { s = parent(of: s) }
        return s
    }

    /// SCXML's `getTransitionDomain(t)`: the state whose descendants the transition exits and enters;
    /// ``root`` for a transition that leaves the top level; `nil` for a targetless transition, which
    /// has no domain. An internal transition from a compound state to its own descendants has its
    /// source as its domain; any other has the ``findLCCA(_:)`` of its source and targets.
    package func transitionDomain(of transition: TransitionSpan, history: HistoryValue = [:]) -> Int? {
        guard hasHistory && transition.targets.contains(where: isHistory) else {
            return transitionDomain(source: transition.source, targets: transition.targets, isInternal: transition.isInternal)
        }
        return transitionDomain(source: transition.source, targets: effectiveTargets(transition.targets, history: history),
                                isInternal: transition.isInternal)
    }

    /// SCXML's `getEffectiveTargetStates(transition)`: `targets`, each history replaced by what it
    /// remembers in `history`, or by its default targets (themselves expanded) when it remembers
    /// nothing. Each state once, in the order met. Iterative.
    package func effectiveTargets(_ targets: [Int], history: HistoryValue) -> [Int] {
        guard hasHistory else { return targets }
        var result: [Int] = []
        var pending = Array(targets.reversed())
        var expanded: Set<Int> = []
        while let s = pending.popLast() {
            if isHistory(s) {
                guard expanded.insert(s).inserted else { continue }
                pending.append(contentsOf: (history[s] ?? historyDefault(of: s)).reversed())
            } else if !result.contains(s) {
                result.append(s)
            }
        }
        return result
    }

    /// SCXML's `exitStates` first loop: for each state of `exiting` (an exit set) that declares
    /// histories, records in `history` what each remembers of `configuration` (the configuration
    /// before any state is exited): a shallow history its parent's active children, a deep one its
    /// parent's active atomic descendants, in document order.
    package func recordHistory(exiting: [Int], configuration: some Collection<Int>, into history: inout HistoryValue) {
        guard hasHistory else { return }
        for s in exiting {
            for h in histories(of: s) {
                let deep = histories[h] == 2
                var remembered: [Int] = []
                for c in configuration where !isHistory(c) {
                    if deep ? (isAtomic(c) && isDescendant(c, of: s)) : parent(of: c) == s { remembered.append(c) }
                }
                history[h] = inDocumentOrder(remembered, reversed: false)
            }
        }
    }

    /// ``transitionDomain(of:)`` of a transition from `source` to `target` (`nil`: targetless),
    /// without allocating.
    package func transitionDomain(source: Int, target: Int?, isInternal: Bool = false) -> Int? {
        guard let target else { return nil }
        return transitionDomain(source: source, targets: CollectionOfOne(target), isInternal: isInternal)
    }

    /// ``transitionDomain(of:)`` of a transition given by its parts.
    private func transitionDomain(source: Int, targets: some Collection<Int>, isInternal: Bool) -> Int? {
        guard !targets.isEmpty else { return nil }
        if isInternal && isCompound(source) && targets.allSatisfy({ isDescendant($0, of: source) }) {
            return source
        }
        return lcca(source, then: targets)
    }

    // MARK: Views

    /// The children of a state, in document order: a view of the hierarchy's storage.
    package struct Children: RandomAccessCollection, Sendable {
        /// Every state, grouped by parent.
        let list: [Int32]
        /// Where this state's children are in `list`.
        let range: Range<Int>

        /// Always 0.
        package var startIndex: Int { 0 }
        /// How many children.
        package var endIndex: Int { range.count }
        /// The `position`th child.
        package subscript(position: Int) -> Int { Int(list[range.lowerBound + position]) }
    }

    /// A state and the states above it, innermost first, up to (not including) a stop: a walk of the
    /// parent array that allocates nothing.
    package struct Ancestry: Sequence, IteratorProtocol, Sendable {
        /// The hierarchy's parents.
        let parents: [Int32]
        /// The next state to report, or ``FlowHierarchy/root`` when the walk is over.
        var current: Int
        /// The state the walk stops at, not reported.
        let stop: Int

        /// A walk from `first` that stops at `stop` (or at the root).
        init(parents: [Int32], first: Int, stop: Int) {
            self.parents = parents
            self.current = first
            self.stop = stop
        }

        /// The next state up, or `nil` at the stop.
        package mutating func next() -> Int? {
            guard current >= 0 && current != stop else { return nil }
            defer { current = Int(parents[current]) }
            return current
        }
    }
}

extension FlowDefinition {
    /// The hierarchy of the definition's states, numbered as ``states`` lists them (the compiler's,
    /// shared by the table and every machine).
    package var hierarchy: FlowHierarchy { table.hierarchy }

    /// The number of a declared state in ``hierarchy`` (its position in ``states``), or `nil` for a
    /// state the definition does not declare.
    package func position(of state: F.State) -> Int? { table.index[state] }
}
