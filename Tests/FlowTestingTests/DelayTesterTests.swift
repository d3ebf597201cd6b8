import Flowstate
import FlowTesting
import Testing

/// A code screen: the code may be resent after 30 seconds; after two minutes the screen expires.
enum CodeScreen: Flow {
    enum State: Hashable, Sendable { case screen, waiting, canResend, expired, done }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case resend, submit }
    enum Effect: Hashable, Sendable { case showResend, hideResend, expire }
    enum Output: Hashable, Sendable { case verified }
}

@Suite("Step tester: delayed transitions")
struct DelayTesterTests {
    static let definition = FlowDefinition<CodeScreen>("code", initial: .screen) {
        StateNode(.screen, initial: .waiting) {
            StateNode(.waiting) { After(.seconds(30), to: .canResend, effects: [.showResend]) }
            StateNode(.canResend) { On(.resend, to: .waiting, effects: [.hideResend]) }
            On(.submit, to: .done)
            After(.seconds(120), to: .expired, effects: [.expire])
        }
        StateNode(.expired)
        Final(.done, output: .verified)
    }

    @Test("advance(by:) fires what comes due; the test states each firing")
    func advanceFires() throws {
        let tester = try FlowStepTester(Self.definition)
        try tester.start { $0.state(.waiting) }
        try tester.advance(by: .seconds(29))  // nothing due yet
        try tester.advance(by: .seconds(1)) {
            $0.transition(to: .canResend)
            $0.effects([.showResend])
        }
        try tester.send(.resend) {
            $0.transition(to: .waiting)
            $0.effects([.hideResend])
        }
        // 120s after the start: waiting's new timer (due at 60s) fires first, then the screen's.
        let steps = try tester.advance(by: .seconds(90)) {
            $0.transition(to: .canResend)
            $0.effects([.showResend])
        }
        #expect(steps.map(\.state) == [.canResend, .expired])
        tester.receive {
            $0.transition(to: .expired)
            $0.effects([.expire])
        }
        tester.finish()
    }

    @Test("A firing the test does not state fails it, as an un-stated effect does")
    func unstatedFiringFails() throws {
        let tester = try FlowStepTester(Self.definition)
        try tester.start { $0.state(.waiting) }
        withKnownIssue {
            try tester.advance(by: .seconds(30))
        }
        withKnownIssue {
            try tester.advance(by: .seconds(1)) { $0.state(.expired) }  // nothing fires
        }
        tester.finish()
    }

    @Test("A timer cancelled by leaving its state never fires in the tester")
    func cancelledNeverFires() throws {
        let tester = try FlowStepTester(Self.definition)
        try tester.start { $0.state(.waiting) }
        try tester.send(.submit) {
            $0.transition(to: .done)
            $0.finished(output: .verified)
        }
        #expect(try tester.advance(by: .seconds(600)).isEmpty)
        tester.finish()
    }

    @Test("The path finder takes a timer's firing as an edge; its paths replay by firing the timers again")
    func pathfinderFiresTimers() throws {
        let pathfinder = try FlowPathfinder(Self.definition, samples: [.resend, .submit])
        #expect(pathfinder.unreachableStates.isEmpty, "\(pathfinder.unreachableStates)")
        let path = try #require(pathfinder.shortestPath(to: .expired))
        #expect(path.events.isEmpty)
        #expect(path.timers.count == 1)
        #expect(path.states == [.waiting, .expired])
        try path.replay()
        #expect(path.visits(.expired))
        let resend = try #require(pathfinder.shortestPath(to: .canResend))
        #expect(resend.timers.map { Self.definition.state(of: $0) } == [.waiting])
        for path in pathfinder.transitionCover().paths { try path.replay() }
        #expect(pathfinder.transitionCover().gaps.isEmpty, "\(pathfinder.transitionCover().gaps)")
    }
}
