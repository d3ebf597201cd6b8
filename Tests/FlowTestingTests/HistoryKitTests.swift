import Flowstate
import FlowTesting
import Testing

/// A tour whose shallow history defaults to a step it never remembers: `main` is always left from
/// `first` or `second`, so `back` restores one of them and never enters `third`.
enum Tour: Flow {
    enum State: Hashable, Sendable { case main, resume, first, second, third, away }
    enum Event: Hashable, Sendable, FlowEvent { case next, leave, back }
    typealias Effect = Never
    typealias Output = Void

    static let definition = FlowDefinition<Tour>("tour", initial: .main) {
        StateNode(.main, initial: .first) {
            History(.resume, .shallow, default: .third)
            StateNode(.first) { On(.next, to: .second) }
            StateNode(.second)
            StateNode(.third)
            On(.leave, to: .away)
        }
        StateNode(.away) { On(.back, to: .resume) }
    }
}

/// The kit asks the engine what a step entered: a flow with history states is not read as if each
/// history entered its default (`FlowDefinition.configurationChange` did, and the kit's flat path
/// used it for flows with history but without parallel states).
@Suite("The testing kit with history states")
struct HistoryKitTests {
    @Test("A path through a history that remembers visits what it remembers, not the history's default")
    func pathVisitsWhatTheHistoryRemembers() throws {
        var machine = try FlowMachine(Tour.definition)
        let start = try machine.start()
        let steps = try [Tour.Event.next, .leave, .back].map { event throws(FlowError) in try machine.send(event) }
        let path = FlowPath(definition: Tour.definition, start: start, steps: steps)
        try path.replay()
        #expect(path.state == .second)
        #expect(path.visits(.second) && path.visits(.away) && path.visits(.first))
        #expect(!path.visits(.third), "the history remembered second: its default third is never entered")
    }

    @Test("The path finder tells configurations apart by what the histories remember, and never passes through a default it did not enter")
    func pathfinderFollowsTheHistory() throws {
        let pathfinder = try FlowPathfinder(Tour.definition, samples: [.next, .leave, .back])
        // Where the tour rests, and what `resume` remembers: first and second before any `leave`
        // (nothing); away remembering first, or second; then first and second remembering first,
        // and second remembering second. Without the history, three.
        #expect(pathfinder.configurationCount == 7)
        #expect(pathfinder.reachability(of: .second).path?.events == [.next])
        guard case .unreachable = pathfinder.reachability(of: .third) else {
            Issue.record("third is never entered: \(pathfinder.reachability(of: .third))")
            return
        }
    }
}
