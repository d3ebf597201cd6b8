import Flowstate
import PropertyBased
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

    @Test("A flat flow's report: the initial entry, then one microstep per transition, from the compiler's domains")
    func flat() throws {
        let flow = FlowDefinition<Player>("flat", initial: .idle) {
            StateNode(.idle) { On(.play, to: .muted) }
            StateNode(.playing) {
                StateNode(.muted) { On(.toggleSound, to: .audible) }
                StateNode(.audible) { On(.toggleSize, to: nil) }
            }
        }
        func p(_ state: Player.State) -> Int { flow.position(of: state)! }
        var machine = try FlowMachine(flow)
        let (started, initial) = try machine.startReportingMicrosteps()
        #expect(started.state == .idle && initial == [FlowMicrostep(actions: [.enter(p(.idle))])])
        let (step, microsteps) = try machine.sendReportingMicrosteps(.play)
        #expect(step.state == .muted)
        #expect(microsteps == [FlowMicrostep(actions: [.exit(p(.idle)), .take(FlowTransitionID(position: 0)),
                                                       .enter(p(.playing)), .enter(p(.muted))])])
        // Inside `playing`: the domain is `playing`, which stays.
        let (_, inside) = try machine.sendReportingMicrosteps(.toggleSound)
        #expect(inside == [FlowMicrostep(actions: [.exit(p(.muted)), .take(FlowTransitionID(position: 1)),
                                                   .enter(p(.audible))])])
        // A targetless transition takes, and exits and enters nothing.
        let (_, targetless) = try machine.sendReportingMicrosteps(.toggleSize)
        #expect(targetless == [FlowMicrostep(actions: [.take(FlowTransitionID(position: 2))])])
        // An ignored event took nothing.
        let (ignored, none) = try machine.sendReportingMicrosteps(.play)
        #expect(ignored.kind == .ignored && none.isEmpty)
    }

    @Test("On generated flat, parallel and history flows, the report's exits and entries are SCXML's, and the step is send's")
    func agreesWithSCXML() async {
        await Self.reportAgrees(Generators.flows(), count: 200)
        await Self.reportAgrees(Generators.parallelFlows(), count: 200)
        await Self.reportAgrees(Generators.historyFlows(parallel: false), count: 200)
        await Self.reportAgrees(Generators.historyFlows(parallel: true), count: 200)
    }

    /// Every step of `flows` reported with the engine taking its completions: the exits and entries
    /// of its microsteps, in order, are those the reference interpreter performed (it tracks the
    /// configuration and what histories remember), and the step is the one `send` returns.
    static func reportAgrees(_ flows: Generator<GeneratedFlow, some SendableSequenceType>, count: Int) async {
        await propertyCheck(count: count, input: flows, Generators.events) { flow, events in
            let definition = flow.definition
            guard definition.isValid else { return }
            var reference = SCXMLReference(flow)
            var reporting = try FlowMachine(definition)
            var plain = reporting
            for event in [nil] + events.map(Optional.some) {
                let expected = event.map { reference.send($0) } ?? reference.start()
                let reported = Result { () throws(FlowError) in
                    if let event { try reporting.sendReportingMicrosteps(event, completions: .taken) }
                    else { try reporting.startReportingMicrosteps(completions: .taken) }
                }
                let step = Result { () throws(FlowError) in
                    if let event { try plain.send(event) } else { try plain.start() }
                }
                let context = "after \(event.map { "\($0)" } ?? "start")\n\(flow)\nevents: \(events)"
                #expect(reported.map(\.step) == step, "\(context)")
                guard SCXMLReference.Outcome(step) == expected, case .success(let report) = reported else { return }
                // The report numbers states by position; the reference by the flow's own numbers.
                let states = definition.states.map(\.state)
                #expect(report.microsteps.flatMap(\.exited).map { states[$0] } == reference.exited,
                        "exits \(report.microsteps)\n\(context)")
                #expect(report.microsteps.flatMap(\.entered).map { states[$0] } == reference.entered,
                        "entries \(report.microsteps)\n\(context)")
                let taken = report.microsteps.flatMap(\.actions).compactMap { if case .take(let id) = $0 { id } else { nil } }
                #expect(taken == Array(report.step.transitions), "transitions\n\(context)")
            }
        }
    }
}
