import Flowstate
import FlowTesting
import Testing

/// A counter whose guard reads the context: `finish` ends the flow only after three `add`s.
enum CappedTally: Flow {
    enum State: Hashable, Sendable { case counting, done }
    enum Event: Hashable, Sendable, FlowEvent { case add, finish }
    typealias Effect = Never
    typealias Output = Int
    struct Context: Hashable, Sendable { var total = 0 }

    static let add = Update<CappedTally>("add(1), up to 3") { context, _ in context.total = min(context.total + 1, 3) }
    static let enough = Guard<CappedTally>("total at least 3") { context, _ in context.total >= 3 }

    static let definition = FlowDefinition<CappedTally>("tally", initial: .counting, context: Context()) {
        StateNode(.counting) {
            On(.add, to: nil, update: add)
            On(.finish, guard: enough, to: .done)
        }
        Final(.done, outputLabel: "total") { context, _ in context.total }
    }
}

/// The same counter over a context the path finder cannot compare (not `Hashable`).
enum OpaqueTally: Flow {
    enum State: Hashable, Sendable { case counting, done }
    enum Event: Hashable, Sendable, FlowEvent { case add, finish }
    typealias Effect = Never
    typealias Output = Int
    struct Context: Sendable { var total = 0 }

    static let add = Update<OpaqueTally>("add(1)") { context, _ in context.total += 1 }
    static let enough = Guard<OpaqueTally>("total at least 3") { context, _ in context.total >= 3 }

    static let definition = FlowDefinition<OpaqueTally>("opaque tally", initial: .counting, context: Context()) {
        StateNode(.counting) {
            On(.add, to: nil, update: add)
            On(.finish, guard: enough, to: .done)
        }
        Final(.done, outputLabel: "total") { context, _ in context.total }
    }
}

/// A parent whose `verifying` state runs a two-step child; the child's output is the parent's
/// `verified` or `refused` event, which no user ever sends.
enum ChildGate: Flow {
    enum State: Hashable, Sendable { case start, verifying, open, shut }
    enum Event: Hashable, Sendable, FlowEvent { case begin, verified, refused }
    typealias Effect = Never
    typealias Output = Bool

    static let definition = FlowDefinition<ChildGate>("gate", initial: .start) {
        StateNode(.start) { On(.begin, to: .verifying) }
        StateNode(.verifying, runs: ChildFlow(GateCheck.definition) { (ok: Bool) in ok ? .verified : .refused }) {
            On(.verified, to: .open)
            On(.refused, to: .shut)
        }
        Final(.open, output: true)
        Final(.shut, output: false)
    }
}

/// The gate's child: `code` then `confirm` passes; `give up` fails.
enum GateCheck: Flow {
    enum State: Hashable, Sendable { case asking, confirming, passed, failed }
    enum Event: Hashable, Sendable, FlowEvent { case code, confirm, giveUp }
    typealias Effect = Never
    typealias Output = Bool

    static let definition = FlowDefinition<GateCheck>("check", initial: .asking) {
        StateNode(.asking) {
            On(.code, to: .confirming)
            On(.giveUp, to: .failed)
        }
        StateNode(.confirming) { On(.confirm, to: .passed) }
        Final(.passed, output: true)
        Final(.failed, output: false)
    }
}

/// A child with payload events: only a sample code of the right length passes.
enum PinCheck: Flow {
    enum State: Hashable, Sendable { case asking, passed }
    enum Event: Sendable, FlowEvent {
        case pin(String)
        var kind: Kind { .pin }
        enum Kind: Hashable, Sendable { case pin }
    }
    typealias Effect = Never
    typealias Output = String

    static let fourDigits = Guard<PinCheck>("four digits") { event in
        if case .pin(let pin) = event { pin.count == 4 } else { false }
    }
    static let definition = FlowDefinition<PinCheck>("pin", initial: .asking) {
        StateNode(.asking) { On(.pin, guard: fourDigits, to: .passed) }
        Final(.passed, outputLabel: "pin") { event in
            if case .pin(let pin) = event { pin } else { "" }
        }
    }
}

enum PinGate: Flow {
    enum State: Hashable, Sendable { case asking, open }
    enum Event: Hashable, Sendable, FlowEvent { case unlocked }
    typealias Effect = Never
    typealias Output = Bool

    static let definition = FlowDefinition<PinGate>("pin gate", initial: .asking) {
        StateNode(.asking, runs: ChildFlow(PinCheck.definition) { (_: String) in .unlocked }) {
            On(.unlocked, to: .open)
        }
        Final(.open, output: true)
    }
}

@Suite("Path finder: context, children and the search limit (issue 21)")
struct PathfinderRegressionTests {
    static let id = FlowTransitionID.init(position:)

    @Test("A guard that reads the context is explored with the context the engine holds")
    func contextGuard() throws {
        let pathfinder = try FlowPathfinder(CappedTally.definition)
        #expect(pathfinder.isComplete)
        let path = try #require(pathfinder.shortestPath(to: .done), "\(pathfinder.reachability(of: .done))")
        #expect(path.events == [.add, .add, .add, .finish])
        let machine = try path.replay()
        #expect(machine.output == 3)
        #expect(pathfinder.transitionCover().uncovered.isEmpty)
    }

    @Test("A context without equality is not blamed on a guard: the reason says it could not be compared")
    func contextNotCompared() throws {
        let pathfinder = try FlowPathfinder(OpaqueTally.definition)
        let reason = pathfinder.reachability(of: .done).reason
        #expect(reason == .contextNotCompared(transitions: [Self.id(1)]))
        #expect(reason?.description.contains("Hashable") == true)
        #expect(pathfinder.transitionCover().gaps[Self.id(1)] == .contextNotCompared)
    }

    @Test("At the configuration limit, a transition whose step was dropped is a search-limit gap, not 'not taken'")
    func coverGapAtTheLimit() throws {
        // Two configurations: `counting` with totals 0 and 1. The step `finish` is never enabled
        // there, and `add` from total 1 is dropped by the limit.
        let pathfinder = try FlowPathfinder(CappedTally.definition, maxConfigurations: 2)
        #expect(!pathfinder.isComplete)
        let cover = pathfinder.transitionCover()
        #expect(cover.gaps[Self.id(1)] == .searchLimitReached)
        #expect(pathfinder.reachability(of: .done).reason == .searchLimitReached)

        // The gate with a limit of one configuration: the engine takes `begin`, but its step is
        // dropped because it leads to a configuration the limit leaves out.
        let small = try FlowPathfinder(ChildGate.definition, maxConfigurations: 1)
        #expect(!small.isComplete)
        #expect(small.transitionCover().gaps[Self.id(0)] == .searchLimitReached)
    }

    @Test("A declared child is run to find its outputs: the parent's output events need no samples")
    func childOutputs() throws {
        let pathfinder = try FlowPathfinder(ChildGate.definition, samples: [.begin])
        #expect(pathfinder.isComplete)
        #expect(pathfinder.reachableStates == [.start, .verifying, .open, .shut])
        let open = try #require(pathfinder.shortestPath(to: .open))
        #expect(open.events == [.begin, .verified])
        try open.replay()
        #expect(pathfinder.transitionCover().uncovered.isEmpty)
    }

    @Test("A child with payload events is run with the child samples given; without them its outputs are missing")
    func childSamples() throws {
        let without = try FlowPathfinder(PinGate.definition, samples: [PinGate.Event]())
        #expect(without.reachability(of: .open).reason == .missingSamples(kinds: [.unlocked]))

        let wrong = try FlowPathfinder(PinGate.definition, samples: [PinGate.Event](),
                                       childSamples: [PinCheck.Event.pin("12")])
        #expect(wrong.reachability(of: .open).reason == .missingSamples(kinds: [.unlocked]))

        let right = try FlowPathfinder(PinGate.definition, samples: [PinGate.Event](),
                                       childSamples: [PinCheck.Event.pin("12"), PinCheck.Event.pin("1234")])
        #expect(right.shortestPath(to: .open)?.events == [.unlocked])
    }
}

/// A child that cannot start: its eventless transitions loop.
enum LoopingCheck: Flow {
    enum State: Hashable, Sendable { case a, b, done }
    enum Event: Hashable, Sendable, FlowEvent { case go }
    typealias Effect = Never
    typealias Output = Bool

    static let definition = FlowDefinition<LoopingCheck>("looping", initial: .a) {
        StateNode(.a) {
            Always(to: .b)
            On(.go, to: .done)
        }
        StateNode(.b) { Always(to: .a) }
        Final(.done, output: true)
    }
}

enum LoopingGate: Flow {
    enum State: Hashable, Sendable { case start, checking, open }
    enum Event: Hashable, Sendable, FlowEvent { case begin, passed }
    typealias Effect = Never
    typealias Output = Bool

    static let definition = FlowDefinition<LoopingGate>("looping gate", initial: .start) {
        StateNode(.start) { On(.begin, to: .checking) }
        StateNode(.checking, runs: ChildFlow(LoopingCheck.definition) { _ in .passed }) { On(.passed, to: .open) }
        Final(.open, output: true)
    }
}

@Suite("Path finder: a declared child that cannot start")
struct PathfinderChildErrorTests {
    @Test("The exploration throws, naming the child and the state, instead of reporting no outputs")
    func childCannotStart() {
        #expect(throws: FlowError.self) { try FlowPathfinder(LoopingGate.definition, samples: [.begin]) }
        do {
            _ = try FlowPathfinder(LoopingGate.definition, samples: [.begin])
        } catch {
            #expect(error.message.hasPrefix("the child flow 'looping' that state 'checking' runs cannot start: "))
        }
    }
}
