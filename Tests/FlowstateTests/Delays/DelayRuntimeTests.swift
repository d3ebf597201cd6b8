import Flowstate
import FlowTestSupport
import Testing
import FlowTesting

@Suite("Delayed transitions in the runtime")
@MainActor
struct DelayRuntimeTests {
    /// A runtime of the verification flow on a manual clock, recording effects.
    @MainActor
    final class Host {
        var effects: [Verify.Effect] = []
        let clock = ManualClock()
        var runtime: FlowRuntime<Verify>!

        init(_ definition: FlowDefinition<Verify> = DelayTests.verify) throws {
            runtime = try FlowRuntime(definition, clock: clock) { [unowned self] effect, _ in effects.append(effect) }
        }
    }

    @Test("A timer fires on the runtime's clock once its delay has passed, not before")
    func firesWhenDue() async throws {
        let host = try Host()
        try host.runtime.start()
        #expect(await eventually { host.clock.sleeperCount == 1 })  // one sleeping task, for the earliest deadline
        host.effects = []
        host.clock.advance(by: .seconds(29))
        for _ in 0..<100 { await Task.yield() }
        #expect(host.runtime.state == .waiting)
        host.clock.advance(by: .seconds(1))
        #expect(await eventually { host.runtime.state == .canResend })
        #expect(host.effects == [.exit(.waiting), .resendAvailable, .entry(.canResend)])
        #expect(host.runtime.scheduledTimers.count == 1)
    }

    @Test("A timer whose state was left is cancelled: it never fires")
    func leftStateNeverFires() async throws {
        let host = try Host()
        var steps: [FlowStep<Verify>] = []
        host.runtime.observe { steps.append($0) }
        try host.runtime.start()
        #expect(await eventually { host.clock.sleeperCount == 1 })  // one sleeping task, for the earliest deadline
        try host.runtime.send(.submit)
        #expect(host.runtime.scheduledTimers.isEmpty)
        #expect(await eventually { host.clock.sleeperCount == 0 })  // the sleeping task was cancelled
        host.clock.advance(by: .seconds(600))
        for _ in 0..<100 { await Task.yield() }
        #expect(host.runtime.state == .verifying)
        #expect(steps.count == 2)
    }

    @Test("Stopping cancels every timer")
    func stopCancels() async throws {
        let host = try Host()
        try host.runtime.start()
        #expect(await eventually { host.clock.sleeperCount == 1 })  // one sleeping task, for the earliest deadline
        try host.runtime.stop()
        #expect(host.runtime.scheduledTimers.isEmpty)
        #expect(await eventually { host.clock.sleeperCount == 0 })
        host.clock.advance(by: .seconds(600))
        for _ in 0..<100 { await Task.yield() }
        #expect(host.effects.last == .exit(.codeSent))
    }

    @Test("A re-armed timer counts from its new entry; the outer state's timer keeps its own deadline")
    func nestedTimers() async throws {
        let host = try Host()
        try host.runtime.start()
        #expect(await eventually { host.clock.sleeperCount == 1 })  // one sleeping task, for the earliest deadline
        host.clock.advance(by: .seconds(30))
        #expect(await eventually { host.runtime.state == .canResend })
        try host.runtime.send(.resend)  // back to waiting: its timer is armed again, 30s from now
        #expect(await eventually { host.clock.sleeperCount == 1 })  // one sleeping task, for the earliest deadline
        host.clock.advance(by: .seconds(29))
        for _ in 0..<100 { await Task.yield() }
        #expect(host.runtime.state == .waiting)
        host.clock.advance(by: .seconds(1))  // 60s: waiting's new timer
        #expect(await eventually { host.runtime.state == .canResend })
        host.clock.advance(by: .seconds(240))  // 300s: the outer timer's 5 minutes
        #expect(await eventually { host.runtime.state == .locked })
        #expect(host.effects.suffix(4) == [.exit(.canResend), .exit(.codeSent), .lockedOut, .entry(.locked)])
        #expect(host.runtime.scheduledTimers.isEmpty)
    }

    @Test("A runtime of a flow with delays needs an actor to fire its timers on")
    nonisolated func needsIsolation() async throws {
        #expect(throws: FlowError.self) {
            _ = try FlowRuntime(DelayTests.verify) { _, _ in }
        }
        // A flow without delays runs anywhere, as before.
        _ = try FlowRuntime(ParallelTests.player) { _, _ in }
    }
}
