// Structural reachability: the one walk over the hierarchy and the states transitions enter that the
// compiler's reachability checks and FlowTesting's path finder ask (forward: what can be entered
// from some states; backward: what can lead into a goal).

/// A structural reachability walk: which states can follow which, over *moves* (a state, and the
/// states a transition declared there enters or settles in), ignoring guards, events, samples and
/// which states are active together. An over-approximation of what a machine does, so what it calls
/// unreachable is.
///
/// The walk is over one graph whose nodes are states (numbered as a ``FlowHierarchy`` numbers them):
/// each move is an edge from its source to each state it enters; with a hierarchy
/// (``init(count:hierarchy:)``), each state has an edge to its parent too (a state active means its
/// ancestors are). ``reached(from:)`` follows the edges forward, ``reaching(_:)`` backward (with a
/// hierarchy, a state that leads into the goal makes each of its children lead there too). Either is
/// one worklist over a compressed adjacency built for the direction asked: linear in the states and
/// the moves' entered states, no recursion (a hierarchy or a chain of moves may be deeper than a
/// thread's stack allows recursion).
///
/// Its users: the compiler's `checkReachability(table:)` (leaves and the table's moves) and
/// `checkParallelReachability` (states and SCXML's entry sets, ``entering(_:in:)``), and FlowTesting's
/// `FlowIndex` (the path finder's reasons for an unreachable state).
package struct StructuralWalk: Sendable {
    /// The number of states (nodes).
    package let count: Int
    /// The hierarchy whose parent links the walk follows too, or `nil` for moves only.
    let hierarchy: FlowHierarchy?
    /// Each move's source.
    private var sources: [Int32] = []
    /// The states move `m` enters are `entered[enteredStarts[m]..<enteredStarts[m + 1]]`.
    private var enteredStarts: [Int32] = [0]
    private var entered: [Int32] = []

    /// A walk over `count` states and no moves yet.
    /// - Parameter hierarchy: When given, every state leads to its parent as well (forward), and a
    ///   state leading into the goal makes its children lead there too (backward). Its `count` must be
    ///   at least `count`.
    package init(count: Int, hierarchy: FlowHierarchy? = nil) {
        self.count = hierarchy.map { min(max(0, count), $0.count) } ?? max(0, count)
        self.hierarchy = hierarchy
    }

    /// The number of moves added.
    package var moveCount: Int { sources.count }

    /// Adds a move from `source` that enters `states`. A source or state that is not one of the
    /// walk's (below 0 or not below ``count``) is dropped; a move from no state is not added.
    package mutating func addMove(from source: Int, entering states: some Sequence<Int>) {
        guard source >= 0 && source < count else { return }
        sources.append(Int32(source))
        for s in states where s >= 0 && s < count { entered.append(Int32(s)) }
        enteredStarts.append(Int32(entered.count))
    }

    /// The walk over the states of `hierarchy` (following its parent links) whose moves are the
    /// `transitions`, each from its source to SCXML's entry set
    /// (``FlowHierarchy/computeEntrySet(_:history:)``: each target with its default entry, a history
    /// its default targets, and the targets' ancestors below the domain with their other regions).
    /// A targetless transition, or one from ``FlowHierarchy/root``, adds no move.
    package static func entering(_ transitions: some Sequence<FlowHierarchy.TransitionSpan>, in hierarchy: FlowHierarchy)
        -> StructuralWalk
    {
        var walk = StructuralWalk(count: hierarchy.count, hierarchy: hierarchy)
        for transition in transitions where transition.source >= 0 && !transition.targets.isEmpty {
            walk.addMove(from: transition.source, entering: hierarchy.computeEntrySet(CollectionOfOne(transition)))
        }
        return walk
    }

    /// The states reachable from `start` (each reached from itself): the states of `start`, and those
    /// a move from a reached state enters (with a hierarchy: and the parent of a reached state).
    package func reached(from start: some Sequence<Int>) -> [Bool] {
        // Forward adjacency: each source's moves' entered states, then (with a hierarchy) its parent.
        var starts = [Int32](repeating: 0, count: count + 1)
        for m in sources.indices { starts[Int(sources[m]) + 1] += enteredStarts[m + 1] - enteredStarts[m] }
        if let hierarchy {
            for s in 0..<count where hierarchy.parent(of: s) >= 0 { starts[s + 1] += 1 }
        }
        for s in 0..<count { starts[s + 1] += starts[s] }
        var fill = starts
        var next = [Int32](repeating: 0, count: Int(starts[count]))
        for m in sources.indices {
            let source = Int(sources[m])
            for k in Int(enteredStarts[m])..<Int(enteredStarts[m + 1]) {
                next[Int(fill[source])] = entered[k]
                fill[source] += 1
            }
        }
        if let hierarchy {
            for s in 0..<count where hierarchy.parent(of: s) >= 0 {
                next[Int(fill[s])] = Int32(hierarchy.parent(of: s))
                fill[s] += 1
            }
        }
        return Self.closure(of: start, count: count, starts: starts, next: next)
    }

    /// The states from which some state of `goal` is reachable (the states of `goal` included): the
    /// source of each move that enters a state already found (with a hierarchy: and the children of
    /// a state found, whose being active means it is).
    package func reaching(_ goal: some Sequence<Int>) -> [Bool] {
        // Backward adjacency: for each state, the sources of the moves that enter it, then (with a
        // hierarchy) its children.
        var starts = [Int32](repeating: 0, count: count + 1)
        for s in entered { starts[Int(s) + 1] += 1 }
        if let hierarchy {
            for s in 0..<count where hierarchy.parent(of: s) >= 0 { starts[hierarchy.parent(of: s) + 1] += 1 }
        }
        for s in 0..<count { starts[s + 1] += starts[s] }
        var fill = starts
        var next = [Int32](repeating: 0, count: Int(starts[count]))
        for m in sources.indices {
            for k in Int(enteredStarts[m])..<Int(enteredStarts[m + 1]) {
                let s = Int(entered[k])
                next[Int(fill[s])] = sources[m]
                fill[s] += 1
            }
        }
        if let hierarchy {
            for s in 0..<count where hierarchy.parent(of: s) >= 0 {
                let p = hierarchy.parent(of: s)
                next[Int(fill[p])] = Int32(s)
                fill[p] += 1
            }
        }
        return Self.closure(of: goal, count: count, starts: starts, next: next)
    }

    /// The one worklist: the states of `seeds` (those that are states), and every state `next` leads
    /// to from one found (state `s` leads to `next[starts[s]..<starts[s + 1]]`), each found once.
    private static func closure(of seeds: some Sequence<Int>, count: Int, starts: [Int32], next: [Int32]) -> [Bool] {
        var found = [Bool](repeating: false, count: count)
        var work: [Int] = []
        for s in seeds where s >= 0 && s < count && !found[s] {
            found[s] = true
            work.append(s)
        }
        while let s = work.popLast() {
            for k in Int(starts[s])..<Int(starts[s + 1]) {
                let t = Int(next[k])
                if !found[t] {
                    found[t] = true
                    work.append(t)
                }
            }
        }
        return found
    }
}
