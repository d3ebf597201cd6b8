import Flowstate
import FlowTestSupport
import FlowstateExamples
import Testing
import FlowTesting

@Suite("Two-factor code (seed 004): resend after 30 seconds")
@MainActor
struct TwoFactorCodeTests {
    @Test("The resend button appears 30 seconds after a code was sent; a wrong code does not reset the wait")
    func machine() throws {
        #expect(TwoFactorCode.definition.validate().isEmpty, "\(TwoFactorCode.definition.validate())")
        var machine = try FlowMachine(TwoFactorCode.definition)
        let start = try machine.start()
        #expect(Array(start.effects) == [.sendCode])
        guard case .arm(let timer, after: let delay) = start.timers.first else {
            Issue.record("no timer armed")
            return
        }
        #expect(delay == .seconds(30) && TwoFactorCode.definition.state(of: timer) == .waiting)
        let wrong = try machine.send(.submitCode("12"))
        #expect(Array(wrong.effects) == [.showError("wrong code")] && wrong.timers.isEmpty)
        let ready = try machine.fire(timer)
        #expect(ready.state == .canResend && Array(ready.effects) == [.showResend])
        let resent = try machine.send(.resend)
        #expect(Array(resent.effects) == [.hideResend, .sendCode])
        #expect(resent.timers.count == 1)
        let done = try machine.send(.submitCode("123456"))
        #expect(done.kind == .finished && done.output == .verified)
        #expect(done.timers.map(\.timer) == resent.timers.map(\.timer))  // cancelled
    }

    @Test("In a runtime on a test clock: nothing before 30 seconds, the button after")
    func runtime() async throws {
        let clock = ManualClock()
        var performed: [TwoFactorCode.Effect] = []
        let runtime = try FlowRuntime(TwoFactorCode.definition, clock: clock) { effect, _ in performed.append(effect) }
        try runtime.start()
        #expect(await eventually { clock.sleeperCount == 1 })
        clock.advance(by: .seconds(10))
        try runtime.send(.submitCode("nope"))
        clock.advance(by: .seconds(19))
        for _ in 0..<100 { await Task.yield() }
        #expect(runtime.state == .waiting)
        clock.advance(by: .seconds(1))
        #expect(await eventually { runtime.state == .canResend })
        #expect(performed == [.sendCode, .showError("wrong code"), .showResend])
    }
}
