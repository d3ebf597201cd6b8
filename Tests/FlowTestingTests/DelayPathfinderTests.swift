import Flowstate
import FlowTestSupport
import FlowTesting
import Testing

/// Regressions of the path finder with delayed transitions, found by review: each failed before its fix.
@Suite("Delayed transitions: the path finder's regressions")
struct DelayPathfinderTests {
    @Test("Every simple path with a timer replays and visits its target, whatever generation its route arms")
    func simplePathsWithTimersReplay() throws {
        let finder = try FlowPathfinder(DelayChain.definition)
        let paths = finder.simplePaths(to: .d)
        #expect(paths.count >= 2, "\(paths)")
        for path in paths {
            #expect(throws: Never.self) { try path.replay() }
            #expect(path.visits(.d), "\(path)")
        }
    }

    enum Counter: Flow {
        enum State: Hashable, Sendable { case p, q, r }
        enum Event: FlowEvent, Hashable { typealias Kind = Self; case a, b }
        typealias Effect = Never
        typealias Output = Void
        typealias Context = Int
    }

    @Test("The path finder tells a state with its timer armed from the same state with it spent")
    func spentTimersAreTold() throws {
        // p's targetless timer counts once per entry of p; q leads on to r once the count is 2: only by
        // firing, leaving, coming back (count 1, the timer armed again) and firing again.
        let definition = FlowDefinition<Counter>("counter", initial: .p, context: 0) {
            StateNode(.p) {
                After(.seconds(1), to: nil, update: Update("count") { count, _ in count += 1 })
                On(.a, to: .q)
            }
            StateNode(.q) {
                On(.b, to: .p, update: Update("one") { count, _ in count = 1 })
                Always(guard: Guard("twice") { count, _ in count >= 2 }, to: .r)
            }
            StateNode(.r)
        }
        let finder = try FlowPathfinder(definition)
        let path = try #require(finder.shortestPath(to: .r))
        try path.replay()
        #expect(path.events == [.a, .b, .a])
    }
}
