import Flowstate
import FlowTesting
import Testing

/// The *History states* article's purchase flow: a login detour that comes back by history.
enum ArticlePurchase: Flow {
    enum State: Hashable, Sendable { case checkout, resume, cart, payment, review, login, paid }
    enum Event: FlowEvent, Hashable, CaseIterable { typealias Kind = Self; case next, needsLogin, loggedIn }
    enum Effect: Hashable, Sendable { case show(State) }
    typealias Output = Void

    static let definition = FlowDefinition<ArticlePurchase>("purchase", initial: .checkout) {
        StateNode(.checkout, initial: .cart) {
            History(.resume, .shallow, default: .cart)
            StateNode(.cart, entry: [.show(.cart)]) { On(.next, to: .payment) }
            StateNode(.payment, entry: [.show(.payment)]) { On(.next, to: .review) }
            StateNode(.review, entry: [.show(.review)]) { On(.next, to: .paid) }
            On(.needsLogin, to: .login)
        }
        StateNode(.login, entry: [.show(.login)]) {
            On(.loggedIn, to: .resume)
        }
        Final(.paid)
    }
}

/// Issue 37, item 2: a history state is reached when a step takes a transition that targets it; the
/// path finder called it unreachable ("no path of declared transitions leads there").
@Suite("The path finder reaches history states")
struct HistoryReachabilityTests {
    @Test("The article's purchase flow: every state reached, the history by the step that takes loggedIn")
    func articlePurchase() throws {
        let pathfinder = try FlowPathfinder(ArticlePurchase.definition)
        #expect(pathfinder.unreachableStates.isEmpty, "\(pathfinder.unreachableStates)")
        #expect(pathfinder.reachableStates.contains(.resume))
        let path = try #require(pathfinder.shortestPath(to: .resume))
        #expect(path.events == [.needsLogin, .loggedIn], "\(path.events)")
        try path.replay()
        guard case .reachable(let reached) = pathfinder.reachability(of: .resume) else {
            Issue.record("\(pathfinder.reachability(of: .resume))")
            return
        }
        #expect(reached.events == [.needsLogin, .loggedIn])
        #expect(pathfinder.shortestPaths[.resume]?.events == [.needsLogin, .loggedIn])
        // The cover takes the transition into the history.
        let cover = pathfinder.transitionCover()
        #expect(cover.paths.contains { $0.events.contains(.loggedIn) })
    }

    @Test("A history whose only way in is never taken is unreachable, with a reason that names the missing sample")
    func historyWithoutItsEvent() throws {
        let pathfinder = try FlowPathfinder(ArticlePurchase.definition, samples: [.next, .needsLogin])
        #expect(pathfinder.unreachableStates == [.resume], "\(pathfinder.unreachableStates)")
        #expect(pathfinder.shortestPath(to: .resume) == nil)
        guard case .unreachable(.missingSamples(let kinds)) = pathfinder.reachability(of: .resume) else {
            Issue.record("\(pathfinder.reachability(of: .resume))")
            return
        }
        #expect(kinds == [.loggedIn])
    }
}
