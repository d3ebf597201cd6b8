import Flowstate
import FlowstateExamples
import FlowTesting
import FlowTestSupport
import Testing

/// A step tester that drives a runtime states every step the runtime runs, those of timers that
/// fire on the runtime's clock between the tester's calls included (they used to go unseen).
@Suite("A step tester on a runtime: a timer that fires on the runtime's clock is a step to state")
@MainActor
struct StepTesterRuntimeTimerTests {
    nonisolated static func text(of issue: Issue) -> String { issue.comments.map(\.rawValue).joined(separator: "\n") }

    /// A started tester of the two-factor code on a runtime whose clock the test moves.
    func started() async throws -> (FlowStepTester<TwoFactorCode>, FlowRuntime<TwoFactorCode>, ManualClock) {
        let clock = ManualClock()
        let runtime = try FlowRuntime(TwoFactorCode.definition, clock: clock) { _, _ in }
        let tester = FlowStepTester(runtime: runtime)
        try tester.start {
            $0.state(.waiting)
            $0.effects([.sendCode])
        }
        #expect(await eventually { clock.sleeperCount == 1 })
        clock.advance(by: .seconds(30))
        #expect(await eventually { runtime.state == .canResend })
        return (tester, runtime, clock)
    }

    @Test("The timer's step is stated with receive() before the next send")
    func stated() async throws {
        let (tester, _, _) = try await started()
        tester.receive {
            $0.transition(to: .canResend)
            $0.effects([.showResend])
        }
        try tester.send(.resend) {
            $0.transition(to: .waiting)
            $0.effects([.hideResend, .sendCode])
        }
        tester.finish()
    }

    @Test("Left unstated, the timer's step fails the next send, and the send's step starts from where the timer left")
    func unstated() async throws {
        let (tester, _, _) = try await started()
        try withKnownIssue {
            try tester.send(.resend) {
                $0.transition(to: .waiting)
                $0.effects([.hideResend, .sendCode])
            }
        } matching: { issue in
            Self.text(of: issue).contains("1 step caused by events the effect handler sent (or by timers: after the first that advance(by:) fired, or on a runtime's clock) was not stated with receive():\n  waiting --timer(t0 of s1 #1)--> canResend / [showResend]")
        }
        tester.finish()
    }
}
