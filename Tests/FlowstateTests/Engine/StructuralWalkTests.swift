@testable import Flowstate
import Testing

@Suite("StructuralWalk: the one structural reachability walk")
struct StructuralWalkTests {
    /// The states marked in `found`.
    static func states(_ found: [Bool]) -> [Int] { found.indices.filter { found[$0] } }

    @Test("Moves only: forward from the start, backward to the goal, each state from itself")
    func movesOnly() {
        // 0 → 1 → 2 ← 3, and 4 alone.
        var walk = StructuralWalk(count: 5)
        walk.addMove(from: 0, entering: [1])
        walk.addMove(from: 1, entering: [2])
        walk.addMove(from: 3, entering: [2])
        #expect(walk.moveCount == 3)
        #expect(Self.states(walk.reached(from: [0])) == [0, 1, 2])
        #expect(Self.states(walk.reached(from: [3])) == [2, 3])
        #expect(Self.states(walk.reached(from: [4])) == [4])
        #expect(Self.states(walk.reached(from: [])) == [])
        #expect(Self.states(walk.reaching([2])) == [0, 1, 2, 3])
        #expect(Self.states(walk.reaching([1])) == [0, 1])
        #expect(Self.states(walk.reaching([4])) == [4])
    }

    @Test("A cycle is walked once, and what is not a state is dropped")
    func cyclesAndBadNumbers() {
        var walk = StructuralWalk(count: 3)
        walk.addMove(from: 0, entering: [1, 7, -1])
        walk.addMove(from: 1, entering: [0])
        walk.addMove(from: 9, entering: [2])  // no such source: not added
        walk.addMove(from: -1, entering: [2])
        #expect(walk.moveCount == 2)
        #expect(Self.states(walk.reached(from: [1, 1, -3, 12])) == [0, 1])
        #expect(Self.states(walk.reaching([0])) == [0, 1])
        #expect(Self.states(walk.reaching([2])) == [2])
    }

    // 0 S (compound: 1, 2), 3 T (atomic).
    static let small = FlowHierarchy(parents: [-1, 0, 0, -1])

    @Test("With a hierarchy: a reached state reaches its ancestors; a state leading to the goal, its descendants")
    func hierarchy() {
        var walk = StructuralWalk(count: 4, hierarchy: Self.small)
        walk.addMove(from: 0, entering: [3])  // a transition declared on S
        // From S's child 1: S is active with it, so S's transition is followed.
        #expect(Self.states(walk.reached(from: [1])) == [0, 1, 3])
        // T is reached from inside S (either child), or from S.
        #expect(Self.states(walk.reaching([3])) == [0, 1, 2, 3])
        // A goal's descendants lead there (being in one is being in the goal).
        #expect(Self.states(walk.reaching([0])) == [0, 1, 2])
        // Without the hierarchy, the move is S's alone.
        var flat = StructuralWalk(count: 4)
        flat.addMove(from: 0, entering: [3])
        #expect(Self.states(flat.reached(from: [1])) == [1])
        #expect(Self.states(flat.reaching([3])) == [0, 3])
    }

    // 0 P (parallel: regions 1 and 4), 1 R1 (2, 3), 4 R2 (5, 6), 7 A (atomic, top level).
    static let parallel = FlowHierarchy(parents: [-1, 0, 1, 1, 0, 4, 4, -1],
                                        parallel: [true, false, false, false, false, false, false, false])

    @Test("Parallel regions: entering a state of one region enters the other's default entry")
    func parallelRegions() {
        let h = Self.parallel
        let intoR1 = FlowHierarchy.TransitionSpan(source: 7, target: 3)
        let walk = StructuralWalk.entering([intoR1], in: h)
        #expect(Self.states(walk.reached(from: [7])) == [0, 1, 3, 4, 5, 7], "6 is not R2's default entry")
        let moving = StructuralWalk.entering([intoR1, FlowHierarchy.TransitionSpan(source: 5, target: 6)], in: h)
        #expect(Self.states(moving.reached(from: [7])) == [0, 1, 3, 4, 5, 6, 7])
        // Into 6: from 5 (or inside it), and from A, which enters 5.
        #expect(Self.states(moving.reaching([6])) == [5, 6, 7])
        // Into region R1's 2: nothing enters it.
        #expect(Self.states(moving.reaching([2])) == [2])
        // A targetless transition, or one from the root, adds no move.
        #expect(StructuralWalk.entering([FlowHierarchy.TransitionSpan(source: 7, target: nil),
                                         FlowHierarchy.TransitionSpan(source: FlowHierarchy.root, target: 3)], in: h)
                    .moveCount == 0)
    }

    // 0 S (compound: 1 H, a shallow history whose default is 3; 2; 3), 4 A (atomic, top level).
    static let history = FlowHierarchy(parents: [-1, 0, 0, 0, -1], history: [nil, .shallow, nil, nil, nil],
                                       historyDefaults: [1: [3]])

    @Test("History: a transition into a history enters its default targets, never the history")
    func history() {
        let h = Self.history
        let walk = StructuralWalk.entering([FlowHierarchy.TransitionSpan(source: 4, target: 1)], in: h)
        #expect(Self.states(walk.reached(from: [4])) == [0, 3, 4], "S and H's default 3; not S's initial 2, not H")
        #expect(Self.states(walk.reaching([3])) == [3, 4])
        #expect(Self.states(walk.reaching([2])) == [2])
    }

    @Test("A chain 100,000 moves long, and a hierarchy 100,000 states deep: the walk does not recurse")
    func deep() {
        let n = 100_000
        var chain = StructuralWalk(count: n)
        for s in 0..<(n - 1) { chain.addMove(from: s, entering: [s + 1]) }
        #expect(chain.reached(from: [0]).allSatisfy { $0 })
        #expect(chain.reaching([n - 1]).allSatisfy { $0 })
        let reached = chain.reached(from: [n / 2])
        #expect(!reached[n / 2 - 1] && reached[n / 2] && reached[n - 1])

        // Each state inside the one before: the innermost reaches every ancestor, and everything
        // leads into the outermost.
        let nested = StructuralWalk(count: n, hierarchy: FlowHierarchy(parents: (0..<n).map { $0 - 1 }))
        #expect(nested.reached(from: [n - 1]).allSatisfy { $0 })
        #expect(nested.reaching([0]).allSatisfy { $0 })
        #expect(Self.states(nested.reached(from: [0])) == [0])
    }
}
