import Flowstate
import FlowTestSupport
import Testing
import FlowTesting

// The article's flow (Sources/Flowstate/Flowstate.docc/DelayedTransitions.md), verbatim.
enum Code: Flow {
    enum State: Hashable, Sendable { case entering, waiting, canResend, verified }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case resend, verify }
    enum Effect: Hashable, Sendable { case sendCode, showResend }
    typealias Output = Void
}

@Suite("Delayed transitions: the article's snippets")
@MainActor
struct DelayArticleTests {
    static func makeCode() -> FlowDefinition<Code> {
        let code = FlowDefinition<Code>("code", initial: .entering) {
            StateNode(.entering, initial: .waiting, entry: [.sendCode]) {
                StateNode(.waiting) {
                    After(.seconds(30), to: .canResend, effects: [.showResend])
                }
                StateNode(.canResend) {
                    On(.resend, to: .waiting, effects: [.sendCode])
                }
                On(.verify, to: .verified)
            }
            Final(.verified)
        }
        return code
    }

    @Test("The machine reports the timer, fires it, and ignores a stale one")
    func machine() throws {
        let code = Self.makeCode()
        #expect(code.validate().isEmpty)
        var machine = try FlowMachine(code)
        let start = try machine.start()
        guard case .arm(let timer, after: let delay) = start.timers.first else { return }
        #expect(delay == .seconds(30))
        #expect(code.state(of: timer) == .waiting)

        let ready = try machine.fire(timer)
        #expect(ready.state == .canResend)
        #expect(ready.event == nil && ready.timer == timer)
        #expect(Array(ready.effects) == [.showResend])

        _ = try machine.send(.resend)                  // waiting again: a new timer
        let stale = try machine.fire(timer)
        #expect(stale.kind == .ignored)
        #expect(machine.armedTimers.count == 1)
    }

    @Test("The runtime on a test clock")
    func runtime() async throws {
        let code = Self.makeCode()
        let clock = ManualClock()
        var performed: [Code.Effect] = []
        let runtime = try FlowRuntime(code, clock: clock) { effect, _ in performed.append(effect) }
        try runtime.start()
        #expect(await eventually { clock.sleeperCount == 1 })
        clock.advance(by: .seconds(30))
        #expect(await eventually { runtime.state == .canResend })
        #expect(performed == [.sendCode, .showResend])
    }

    @Test("A supervised tree on a test clock")
    func supervised() async throws {
        let screenFlow = Screen.definition
        let clock = ManualClock()
        var performed: [String] = []
        let supervisor = Supervisor(clock: clock)
        let screen = try supervisor.start(screenFlow) { effect, _ in performed.append(effect) }
        clock.advance(by: .seconds(3))
        // The task sleeps until the deadline on the clock: advanced before it sleeps, it wakes at once.
        #expect(await eventually { supervisor.state(of: screen) == .idle })
        #expect(performed == ["show toast", "hide toast", "toast finished"])
    }
}
