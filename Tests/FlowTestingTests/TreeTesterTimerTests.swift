import Flowstate
import FlowTesting
import Testing

/// A banner: shown, then hidden after 3 seconds; hidden, it can be shown again.
enum Banner: Flow {
    enum State: Hashable, Sendable { case shown, hidden }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case show }
    typealias Effect = String
    typealias Output = Void

    static let definition = FlowDefinition<Banner>("banner", initial: .shown) {
        StateNode(.shown) { After(.seconds(3), to: .hidden) }
        StateNode(.hidden) { On(.show, to: .shown) }
    }
}

@Suite("The tree tester drives time")
struct TreeTesterTimerTests {
    @Test("advance(by:) fires the timers that come due on a virtual clock, and the test states what they did")
    func advanceFires() throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let banner = try tester.step {
            try supervisor.start(Banner.definition, handler: tester.recording())
        } expect: {
            $0.spawned(Banner.definition, in: .shown)
        }
        #expect(tester.advance(by: .seconds(2)) == 0)  // nothing due: nothing to state
        #expect(tester.advance(by: .seconds(1)) { $0.transition(banner, to: .hidden) } == 1)
        try tester.send(.show, to: banner) { $0.transition(banner, to: .shown) }  // armed again, from t=3s
        #expect(tester.advance(by: .seconds(2)) == 0)
        withKnownIssue("a timer fired and its transition is not stated") {
            tester.advance(by: .seconds(1))
        }
        tester.finish(running: [banner.id])
    }
}
