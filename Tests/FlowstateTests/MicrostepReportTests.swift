import Flowstate
import Testing

/// The engine's report of a parallel flow's microsteps (`sendReportingMicrosteps`), which the flow
/// files' interpreter replays: what it lists is what the engine did, in the engine's order.
@Suite("Microsteps reported by the engine")
struct MicrostepReportTests {
    typealias Action = FlowMicrostep.Action

    static func position(_ state: Player.State) -> Int { ParallelTests.player.position(of: state)! }

    @Test("Exits, transitions and entries in the engine's order; the effects are those of send")
    func order() throws {
        var reporting = try FlowMachine(ParallelTests.player)
        var plain = try FlowMachine(ParallelTests.player)
        let (started, initial) = try reporting.startReportingMicrosteps()
        #expect(Array(started.effects) == Array(try plain.start().effects))
        #expect(initial.map(\.actions) == [[.enter(Self.position(.idle))]])
        let (play, microsteps) = try reporting.sendReportingMicrosteps(.play)
        #expect(Array(play.effects) == Array(try plain.send(.play).effects))
        #expect(play.leaves == [.muted, .small])
        let taken = try #require(play.transitions.first)
        #expect(microsteps.map(\.actions) == [[
            .exit(Self.position(.idle)), .take(taken), .enter(Self.position(.playing)), .enter(Self.position(.audio)),
            .enter(Self.position(.muted)), .enter(Self.position(.video)), .enter(Self.position(.small)),
        ]])
        // Leaving the parallel state: later regions first, each state's descendants before it.
        let (_, stop) = try reporting.sendReportingMicrosteps(.stop)
        let exits = stop.flatMap(\.actions).filter { if case .exit = $0 { true } else { false } }
        #expect(exits == [Action.exit(Self.position(.small)), .exit(Self.position(.video)), .exit(Self.position(.muted)),
                          .exit(Self.position(.audio)), .exit(Self.position(.playing))])
    }

    @Test("done.state is reported after the final state's entry, for the caller to deliver, not processed")
    func doneReported() throws {
        var machine = try FlowMachine(ParallelTests.player)
        _ = try machine.startReportingMicrosteps()
        for event in [Player.Event.play, .toggleSound, .toggleSize] { _ = try machine.sendReportingMicrosteps(event) }
        _ = try machine.sendReportingMicrosteps(.finishAudio)
        let (step, microsteps) = try machine.sendReportingMicrosteps(.finishVideo)
        let actions = microsteps.flatMap(\.actions)
        let ended = try #require(actions.firstIndex(of: .enter(Self.position(.ended))))
        #expect(Array(actions[(ended + 1)...]) == [.done(Self.position(.video)), .done(Self.position(.playing))])
        // `On(done: .playing)` is the caller's to trigger: the machine stays in the parallel state.
        #expect(step.leaves == [.done, .ended])
        #expect(machine.isActive(.playing))
        // The machine's own send processes it.
        var own = try FlowMachine(ParallelTests.player)
        _ = try own.start()
        for event in [Player.Event.play, .toggleSound, .toggleSize, .finishAudio, .finishVideo] { _ = try own.send(event) }
        #expect(own.state == .idle)
    }

    @Test("A flat flow's report is its step alone: nothing is recorded")
    func flat() throws {
        let flow = FlowDefinition<Player>("flat", initial: .idle) {
            StateNode(.idle) { On(.play, to: .muted) }
            StateNode(.muted)
        }
        var machine = try FlowMachine(flow)
        #expect(try machine.startReportingMicrosteps().microsteps.isEmpty)
        let (step, microsteps) = try machine.sendReportingMicrosteps(.play)
        #expect(step.state == .muted && microsteps.isEmpty)
    }
}
