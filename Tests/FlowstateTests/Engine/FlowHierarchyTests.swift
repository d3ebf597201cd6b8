import Flowstate
import PropertyBased
import Testing

/// A random tree (a parent numbered before its children, not necessarily in document order), with
/// declared initial children and the states a test asks about, as generated numbers (each shrinks
/// towards 0: a flat tree, no declared initial child, state 0).
struct HierarchyCase: Sendable, CustomStringConvertible {
    var parents: [Int]
    var initials: [Int]
    /// Numbers the test turns into states, lists and flags, in turn (each taken modulo what it picks from).
    var picks: [Int]

    /// The tree: state `i`'s parent is picked among `-1` and the states before it.
    init(parentPicks: [Int], initialPicks: [Int], picks: [Int]) {
        let parents = parentPicks.enumerated().map { i, pick in pick % (i + 1) - 1 }
        self.parents = parents
        // 0: none declared; k: state k - 1, which may well not be a child (then it is ignored).
        initials = parents.indices.map { i in i < initialPicks.count ? initialPicks[i] % (parents.count + 1) - 1 : -1 }
        self.picks = picks.isEmpty ? [0] : picks
    }

    var description: String { "parents: \(parents), initials: \(initials), picks: \(picks)" }

    var hierarchy: FlowHierarchy { FlowHierarchy(parents: parents, initialChildren: initials) }
    var reference: HierarchyReference { HierarchyReference(parents: parents, declaredInitial: initials) }

    /// The `k`th pick, as a state.
    func state(_ k: Int) -> Int { picks[k % picks.count] % parents.count }
    /// The `k`th pick, as a state or -1 (the root).
    func stateOrRoot(_ k: Int) -> Int { picks[k % picks.count] % (parents.count + 1) - 1 }
    /// A non-empty list of states from the picks, starting at the `k`th.
    func list(_ k: Int) -> [Int] { (0...(picks[k % picks.count] % 3)).map { state(k + 1 + $0) } }
}

enum HierarchyGenerators {
    static let cases = zip(Gen.int(in: 0...12).array(of: 1...14), Gen.int(in: 0...15).array(of: 0...14),
                           Gen.int(in: 0...40).array(of: 1...10))
        .map { HierarchyCase(parentPicks: $0, initialPicks: $1, picks: $2) }
}

@Suite("FlowHierarchy: the one index of the state hierarchy")
struct FlowHierarchyTests {
    // A document:            0
    //                      /   \
    //                     1     4
    //                    / \     \
    //                   2   3     5      6 (top level, atomic)
    static let parents = [-1, 0, 1, 1, 0, 4, -1]
    static let tree = FlowHierarchy(parents: parents, initialChildren: [4, -1, -1, -1, -1, -1, -1])

    @Test("Structure: parents, depths, children in document order, initial children, default entry")
    func structure() {
        let h = Self.tree
        #expect(h.count == 7)
        #expect((0..<7).map(h.documentPosition(of:)) == Array(0..<7), "numbered in document order")
        #expect((0..<7).map(h.parent(of:)) == Self.parents)
        #expect((0..<7).map(h.depth(of:)) == [0, 1, 2, 2, 1, 2, 0])
        #expect(h.depth(of: FlowHierarchy.root) == -1)
        #expect(Array(h.children(of: FlowHierarchy.root)) == [0, 6])
        #expect(Array(h.children(of: 0)) == [1, 4])
        #expect(Array(h.children(of: 1)) == [2, 3])
        #expect(h.children(of: 2).isEmpty)
        #expect((0..<7).map(h.isAtomic) == [false, false, true, true, false, true, true])
        #expect(h.isCompound(FlowHierarchy.root))
        #expect((0..<7).map(h.initialChild(of:)) == [4, 2, -1, -1, 5, -1, -1], "0 declares 4; the others start in their first child")
        #expect((0..<7).map(h.defaultEntryLeaf(of:)) == [5, 2, 2, 3, 5, 5, 6])
    }

    @Test("Ancestry: ancestors-or-self, getProperAncestors, isDescendant, the nearest common ancestor")
    func ancestry() {
        let h = Self.tree
        #expect(Array(h.ancestorsOrSelf(of: 3)) == [3, 1, 0])
        #expect(Array(h.properAncestors(of: 3)) == [1, 0])
        #expect(Array(h.properAncestors(of: 3, upTo: 0)) == [1])
        #expect(Array(h.properAncestors(of: 3, upTo: 1)).isEmpty, "state2 is the parent")
        #expect(Array(h.properAncestors(of: 3, upTo: 3)).isEmpty, "state2 is state1")
        #expect(Array(h.properAncestors(of: 1, upTo: 3)).isEmpty, "state2 is a descendant")
        #expect(Array(h.properAncestors(of: 3, upTo: 4)).isEmpty, "state2 is unrelated")
        #expect(Array(h.properAncestors(of: 6)).isEmpty)
        #expect(h.isDescendant(3, of: 0) && h.isDescendant(3, of: 1) && h.isDescendant(3, of: FlowHierarchy.root))
        #expect(!h.isDescendant(3, of: 3) && !h.isDescendant(0, of: 3) && !h.isDescendant(3, of: 4))
        #expect(!h.isDescendant(3, of: 7) && !h.isDescendant(7, of: 0) && !h.isDescendant(-1, of: -1), "not states: false")
        #expect(h.isDescendantOrSelf(3, of: 3) && h.isDescendantOrSelf(3, of: 1) && !h.isDescendantOrSelf(1, of: 3))
        #expect(h.nearestCommonAncestorOrSelf(2, 3) == 1)
        #expect(h.nearestCommonAncestorOrSelf(2, 1) == 1)
        #expect(h.nearestCommonAncestorOrSelf(2, 5) == 0)
        #expect(h.nearestCommonAncestorOrSelf(2, 6) == FlowHierarchy.root)
    }

    @Test("findLCCA: the deepest compound proper ancestor of every state listed, never one of them")
    func lcca() {
        let h = Self.tree
        #expect(h.findLCCA([2, 3]) == 1)
        #expect(h.findLCCA([2, 1]) == 0, "1 is listed: its parent")
        #expect(h.findLCCA([2]) == 1)
        #expect(h.findLCCA([0]) == FlowHierarchy.root)
        #expect(h.findLCCA([2, 5]) == 0)
        #expect(h.findLCCA([2, 3, 6]) == FlowHierarchy.root)
        #expect(h.findLCCA([Int]()) == FlowHierarchy.root)
    }

    @Test("getTransitionDomain: none without a target; the LCCA of source and targets; an internal transition's own source")
    func domains() {
        let h = Self.tree
        #expect(h.transitionDomain(source: 2, target: nil) == nil, "a targetless transition has no domain")
        #expect(h.transitionDomain(of: .init(source: 2, targets: [])) == nil)
        #expect(h.transitionDomain(source: 2, target: 3) == 1, "siblings: their parent")
        #expect(h.transitionDomain(source: 2, target: 2) == 1, "a self-transition: its parent")
        #expect(h.transitionDomain(source: 2, target: 0) == FlowHierarchy.root, "to an ancestor: above it, so it is exited and re-entered")
        #expect(h.transitionDomain(source: 0, target: 2) == FlowHierarchy.root, "external, to a descendant: the source is exited")
        #expect(h.transitionDomain(source: 0, target: 2, isInternal: true) == 0, "internal, to a descendant: the source stays")
        #expect(h.transitionDomain(source: 0, target: 6, isInternal: true) == FlowHierarchy.root, "internal, elsewhere: as external")
        #expect(h.transitionDomain(source: 2, target: 5) == 0)
        #expect(h.transitionDomain(of: .init(source: 2, targets: [3, 5])) == 0)
        #expect(h.transitionDomain(source: FlowHierarchy.root, target: 3) == FlowHierarchy.root, "the document's initial transition")
    }

    @Test("Exit and entry sets: exit order is reverse document order, entry order document order, default entry followed")
    func exitAndEntry() {
        let h = Self.tree
        let configuration = Array(h.ancestorsOrSelf(of: 3))  // 3, 1, 0
        #expect(h.computeExitSet([.init(source: 3, target: 5)], configuration: configuration) == [3, 1])
        #expect(h.computeEntrySet([.init(source: 3, target: 5)]) == [4, 5])
        #expect(h.computeExitSet([.init(source: 1, target: 0)], configuration: configuration) == [3, 1, 0])
        #expect(h.computeEntrySet([.init(source: 1, target: 0)]) == [0, 4, 5], "0 enters its declared initial child 4")
        #expect(h.computeExitSet([.init(source: 3, target: nil)], configuration: configuration).isEmpty)
        #expect(h.computeEntrySet([.init(source: 3, target: nil)]).isEmpty)
        #expect(h.computeExitSet([.init(source: 3, target: 3)], configuration: configuration) == [3])
        #expect(h.computeEntrySet([.init(source: 3, target: 3)]) == [3])
        #expect(h.computeEntrySet([.init(source: FlowHierarchy.root, target: 1)]) == [0, 1, 2])
        // Sets of states, as a configuration with parallel regions will be: each state once, in order.
        #expect(h.computeExitSet([.init(source: 2, target: 3), .init(source: 5, target: 4)],
                                 configuration: [0, 1, 2, 4, 5, 2]) == [5, 4, 2, 1])
        #expect(h.computeEntrySet([.init(source: 2, target: 3), .init(source: 5, target: 4)]) == [3, 4, 5])
    }

    @Test("Bad input makes a tree: a parent that does not come first is read as the root, a wrong initial child as none")
    func badInput() {
        let h = FlowHierarchy(parents: [3, 0, 1, -7, 2], initialChildren: [2, 0, 9])
        #expect((0..<5).map(h.parent(of:)) == [-1, 0, 1, -1, 2])
        #expect((0..<5).map(h.initialChild(of:)) == [1, 2, 4, -1, -1])
        #expect(FlowHierarchy(parents: []).count == 0)
        #expect(FlowHierarchy(parents: []).children(of: FlowHierarchy.root).isEmpty)
    }

    @Test("A chain 100,000 states deep: no question recurses, ancestry is linear, the default entry is precomputed")
    func deepChain() {
        let n = 100_000
        let h = FlowHierarchy(parents: (0..<n).map { $0 - 1 })
        #expect(h.depth(of: n - 1) == n - 1)
        #expect(h.defaultEntryLeaf(of: 0) == n - 1)
        var count = 0
        for _ in h.ancestorsOrSelf(of: n - 1) { count += 1 }
        #expect(count == n)
        #expect(h.isDescendant(n - 1, of: 0))
        #expect(h.findLCCA([n - 1, n - 2]) == n - 3)
        #expect(h.transitionDomain(source: n - 1, target: 0) == FlowHierarchy.root)
        #expect(h.computeEntrySet([.init(source: n - 1, target: 0)]).count == n)
        #expect(h.computeExitSet([.init(source: n - 1, target: n - 2)], configuration: h.ancestorsOrSelf(of: n - 1))
            == [n - 1, n - 2])
        var chain: [Int] = []
        h.appendChainExitSet(from: n - 1, below: FlowHierarchy.root, to: &chain)
        #expect(chain.count == n && chain.first == n - 1)
        chain.removeAll()
        h.appendChainEntrySet(entering: 0, below: FlowHierarchy.root, to: &chain)
        #expect(chain == Array(0..<n))
    }

    @Test("Random trees: every procedure agrees with a model written from SCXML's definitions")
    func agreesWithReference() async {
        await propertyCheck(count: 400, input: HierarchyGenerators.cases) { c in
            let h = c.hierarchy
            let r = c.reference
            let n = c.parents.count
            // Structure.
            #expect((0..<n).map(h.documentPosition(of:)) == r.rank, "document order\n\(c)")
            for s in 0..<n {
                #expect(h.parent(of: s) == r.parents[s], "parent of \(s)\n\(c)")
                #expect(h.depth(of: s) == r.properAncestorList(s).count, "depth of \(s)\n\(c)")
                #expect(Array(h.children(of: s)) == r.children(of: s), "children of \(s)\n\(c)")
                #expect(h.isCompound(s) == r.isCompound(s), "compound \(s)\n\(c)")
                #expect(h.initialChild(of: s) == (r.initialChild(s) ?? -1), "initial child of \(s)\n\(c)")
                var leaf = s
                while let next = r.initialChild(leaf) { leaf = next }
                #expect(h.defaultEntryLeaf(of: s) == leaf, "default entry of \(s)\n\(c)")
                #expect(Array(h.ancestorsOrSelf(of: s)) == [s] + r.properAncestorList(s), "ancestors of \(s)\n\(c)")
            }
            #expect(Array(h.children(of: FlowHierarchy.root)) == r.children(of: -1), "top level\n\(c)")
            // Ancestry, for the picked states.
            let a = c.state(0), b = c.stateOrRoot(1)
            #expect(Array(h.properAncestors(of: a, upTo: b)) == r.getProperAncestors(a, b), "getProperAncestors(\(a), \(b))\n\(c)")
            #expect(h.isDescendant(a, of: b) == r.isDescendant(a, b), "isDescendant(\(a), \(b))\n\(c)")
            let list = c.list(2)
            #expect(h.findLCCA(list) == r.findLCCA(list), "findLCCA(\(list))\n\(c)")
            // Transitions: a source, zero to two targets, internal or not.
            let source = c.state(3)
            let targets = Array(list.prefix(c.picks[4 % c.picks.count] % 3))
            let isInternal = c.picks[5 % c.picks.count] % 2 == 1
            let transition = FlowHierarchy.TransitionSpan(source: source, targets: targets, isInternal: isInternal)
            #expect(h.transitionDomain(of: transition) == r.getTransitionDomain(source: source, targets: targets, isInternal: isInternal),
                    "getTransitionDomain(\(transition))\n\(c)")
            // A configuration as today's engine has one (an atomic state and its ancestors), and any set.
            let leaf = h.defaultEntryLeaf(of: c.state(6))
            let configuration = Set([leaf] + r.properAncestorList(leaf))
            let arbitrary = Set((0..<n).filter { (c.picks[$0 % c.picks.count] >> ($0 % 5)) & 1 == 1 })
            let second = FlowHierarchy.TransitionSpan(source: c.state(7), target: c.state(8))
            let both: [(source: Int, targets: [Int], isInternal: Bool)] =
                [(source, targets, isInternal), (second.source, second.targets, false)]
            for set in [configuration, arbitrary] {
                #expect(h.computeExitSet([transition], configuration: set)
                            == r.computeExitSet([(source, targets, isInternal)], configuration: set),
                        "computeExitSet([\(transition)], \(set.sorted()))\n\(c)")
                #expect(h.computeExitSet([transition, second], configuration: set) == r.computeExitSet(both, configuration: set),
                        "computeExitSet([\(transition), \(second)], \(set.sorted()))\n\(c)")
            }
            #expect(h.computeEntrySet([transition]) == r.computeEntrySet([(source, targets, isInternal)]),
                    "computeEntrySet([\(transition)])\n\(c)")
            #expect(h.computeEntrySet([transition, second]) == r.computeEntrySet(both), "computeEntrySet([\(transition), \(second)])\n\(c)")
            // One chain's sets (these trees have no parallel state): a move from the configuration's
            // leaf, by a transition declared on it or an ancestor, to a picked state.
            let chain = Array(h.ancestorsOrSelf(of: leaf))
            let move = (source: chain[c.picks[9 % c.picks.count] % chain.count], targets: [c.state(10)], isInternal: false)
            let domain = h.transitionDomain(of: .init(source: move.source, targets: move.targets)) ?? FlowHierarchy.root
            var exited: [Int] = [], entered: [Int] = []
            h.appendChainExitSet(from: leaf, below: domain, to: &exited)
            h.appendChainEntrySet(entering: move.targets[0], below: domain, to: &entered)
            #expect(exited == r.computeExitSet([move], configuration: configuration), "chain exit set of \(move)\n\(c)")
            #expect(entered == r.computeEntrySet([move]), "chain entry set of \(move)\n\(c)")
            // Through shortcuts over some marked states (as the compiler passes its states with effects):
            // the marked states of the same sets, in the same order.
            let marked = (0..<n).map { (c.picks[($0 + 3) % c.picks.count] >> ($0 % 4)) & 1 == 1 }
            var up = [Int](repeating: -1, count: n), down = [Int](repeating: -1, count: n)
            for s in 0..<n { up[s] = marked[s] ? s : (h.parent(of: s) >= 0 ? up[h.parent(of: s)] : -1) }
            for s in (0..<n).reversed() {
                down[s] = marked[s] ? s : (h.initialChild(of: s) >= 0 ? down[h.initialChild(of: s)] : -1)
            }
            var markedExits: [Int] = [], markedEntries: [Int] = []
            h.appendChainExitSet(from: leaf, below: domain, marked: up, to: &markedExits)
            h.appendChainEntrySet(entering: move.targets[0], below: domain, markedUp: up, markedDown: down,
                                  to: &markedEntries)
            #expect(markedExits == exited.filter { marked[$0] }, "marked chain exit set of \(move)\n\(c)")
            #expect(markedEntries == entered.filter { marked[$0] }, "marked chain entry set of \(move)\n\(c)")
        }
    }

    @Test("A compiled definition's hierarchy is the one its declarations describe")
    func definitionsHierarchy() async {
        await propertyCheck(count: 200, input: Generators.flows()) { flow in
            let definition = flow.definition
            let h = definition.hierarchy
            let states = definition.states
            #expect(h.count == states.count)
            for (i, declaration) in states.enumerated() {
                #expect(definition.position(of: declaration.state) == i)
                let parent = h.parent(of: i)
                #expect((parent >= 0 ? states[parent].state : nil) == declaration.parent, "parent of \(i)\n\(flow)")
                #expect(h.children(of: i).map { states[$0].state } == declaration.children, "children of \(i)\n\(flow)")
                let initial = h.initialChild(of: i)
                #expect((initial >= 0 ? states[initial].state : nil) == declaration.initialChild, "initial of \(i)\n\(flow)")
            }
        }
    }
}
