import Flowstate
import FlowTestSupport
import Testing
import FlowTesting

/// Regressions found by reviewing delayed transitions: each test failed before its fix.
@Suite("Delayed transitions: regressions")
struct DelayRegressionTests {
    enum Chain: Flow {
        enum State: Hashable, Sendable { case a, b, c, d, both, left, l1, l2, right, r1 }
        enum Event: FlowEvent, Hashable { typealias Kind = Self; case x, y, z }
        typealias Effect = Never
        typealias Output = Void
    }

    @Test("A restored machine numbers its timers after the saved machine's: an old timer stays stale")
    func restoredGenerationsDoNotCollide() throws {
        var saved = try FlowMachine(DelayChain.definition)
        _ = try saved.start()
        _ = try saved.send(.y)
        let first = try #require(saved.armedTimers.first)  // b's timer
        _ = try saved.fire(first)  // back in a: spent
        _ = try saved.send(.y)     // b again, a new generation
        #expect(saved.lastTimerGeneration == 2)
        var restored = try FlowMachine(DelayChain.definition, resumingIn: [.b], lastTimerGeneration: saved.lastTimerGeneration)
        #expect(restored.armedTimers.map(\.generation) == [3])
        #expect(try restored.fire(first).kind == .ignored)
        // Without the saved generation the restored machine numbers from 1, as documented.
        let fresh = try FlowMachine(DelayChain.definition, resumingIn: [.b])
        #expect(fresh.armedTimers.map(\.generation) == [1])
    }

    @Test("A stale timer's step in a flow with parallel states reports every active leaf")
    func staleTimerStepLeaves() throws {
        let definition = FlowDefinition<Chain>("regions", initial: .both) {
            Parallel(.both) {
                StateNode(.left, initial: .l1) {
                    StateNode(.l1) { After(.seconds(1), to: .l2) }
                    StateNode(.l2)
                }
                StateNode(.right, initial: .r1) { StateNode(.r1) }
            }
        }
        var machine = try FlowMachine(definition)
        let timer = try #require(try machine.start().timers.first?.timer)
        _ = try machine.fire(timer)
        let stale = try machine.fire(timer)
        #expect(stale.kind == .ignored)
        #expect(stale.leaves == [.l2, .r1])
    }

    @Test("A delay too long for milliseconds is labelled, not trapped on")
    func hugeDelayLabel() {
        let delay = Duration.seconds(10_000_000_000_000_000) + .milliseconds(1)
        #expect(FlowTimer.label(of: delay).hasSuffix("s"))
        let after = After<Chain>(delay, to: .b)
        #expect(FlowDefinition<Chain>("huge", initial: .a) { StateNode(.a) { after }; StateNode(.b) }
            .validate().filter { $0.severity == .error }.isEmpty)
    }

    @Test("An unguarded delayed transition with a target shadows the longer ones of its state (and later equal ones)")
    func shadowedDelays() throws {
        let line = #line + 3
        let definition = FlowDefinition<Chain>("shadow", initial: .a) {
            StateNode(.a) {
                After(.seconds(2), to: .c)
                After(.seconds(1), to: .b)
                After(.seconds(1), to: .d)
                After(.seconds(1), guard: nil, to: nil)
            }
            StateNode(.b)
            StateNode(.c)
            Final(.d)
        }
        let shadowed = definition.validate().filter { $0.kind == .shadowedTransition }
        #expect(shadowed.map { $0.location?.line ?? 0 }.sorted() == [line, line + 2, line + 3], "\(shadowed)")
        #expect(shadowed.allSatisfy { $0.severity == .warning })
        #expect(shadowed.contains { $0.message.contains("after 2s") && $0.message.contains("after 1s") })
        // Guarded or targetless ones do not shadow.
        let fine = FlowDefinition<Chain>("fine", initial: .a) {
            StateNode(.a) {
                After(.seconds(1), guard: Guard("never", condition: { false }), to: .b)
                After(.seconds(1), to: nil)
                After(.seconds(2), to: .c)
            }
            StateNode(.b)
            StateNode(.c)
        }
        #expect(fine.validate().filter { $0.kind == .shadowedTransition }.isEmpty)
    }
}

/// An actor that owns a runtime and a supervisor, each with a timer pending.
actor TimerOwner {
    var runtime: FlowRuntime<Verify>?
    var supervisor: Supervisor?

    func start(clock: ManualClock) throws {
        runtime = try FlowRuntime(DelayTests.verify, clock: clock) { _, _ in }
        try runtime?.start()
        let supervisor = Supervisor(clock: clock)
        _ = try supervisor.start(DelayTests.verify) { _, _ in }
        self.supervisor = supervisor
    }
}

@Suite("Delayed transitions: who keeps whom")
struct TimerOwnershipTests {
    @Test("A pending timer keeps neither the actor that owns the runtime and the supervisor, nor them")
    func ownerIsFreed() async throws {
        let clock = ManualClock()
        weak var weakOwner: TimerOwner?
        do {
            let owner = TimerOwner()
            try await owner.start(clock: clock)
            weakOwner = owner
            #expect(await eventually { clock.sleeperCount == 2 })  // the runtime's and the supervisor's
        }
        #expect(await eventually { weakOwner == nil })
        #expect(await eventually { clock.sleeperCount == 0 })  // their sleeping tasks were cancelled
    }
}
