import Flowstate
@testable import FlowTesting
import Testing

@Suite("FlowIndex: the engine's report and the one structural walk")
struct FlowIndexTests {
    typealias State = Corners.State

    static func position(_ state: State) -> Int { Corners.definition.position(of: state)! }

    @Test("The leaves a step's transitions were taken from are read off the engine's microsteps")
    func leavesFromMicrosteps() throws {
        let index = FlowIndex(Corners.definition)
        var machine = try FlowMachine(Corners.definition)
        let (_, start) = try machine.startReportingMicrosteps(completions: .taken)
        #expect(index.leaves(taking: start, from: Self.position(.idle)).isEmpty, "the start takes no transition")
        // go(0): t0 from idle, then the eventless t5 from deciding (entered and left within the step).
        var going = machine
        let (step, microsteps) = try going.sendReportingMicrosteps(.go(0), completions: .taken)
        #expect(step.transitions.map(\.position) == [0, 5])
        #expect(index.leaves(taking: microsteps, from: Self.position(.idle))
                    == [Self.position(.idle), Self.position(.deciding)])
        // poke: a targetless transition, taken from idle, which it leaves active.
        var poking = machine
        let (_, poked) = try poking.sendReportingMicrosteps(.poke, completions: .taken)
        #expect(index.leaves(taking: poked, from: Self.position(.idle)) == [Self.position(.idle)])
        // enter, then poke from inner: a transition declared on no leaf's own state is taken from the leaf.
        var entering = machine
        _ = try entering.sendReportingMicrosteps(.enter, completions: .taken)
        let (_, back) = try entering.sendReportingMicrosteps(.poke, completions: .taken)
        #expect(index.leaves(taking: back, from: Self.position(.inner)) == [Self.position(.inner)])
    }

    @Test("Structural reachability over the leaves: forward from the initial leaf, backward to a goal")
    func leafWalk() {
        let index = FlowIndex(Corners.definition)
        let reached = index.structurallyReachable(from: [Self.position(.idle)])
        let names = Corners.definition.states.map(\.state)
        #expect(names.indices.filter { reached[$0] }.map { names[$0] }
                    == [.idle, .deciding, .left, .right, .inner, .looping, .bouncing, .done],
                "a compound state is no leaf; the island is reached from nowhere")
        let reaching = index.structurallyReaching(Self.position(.group))
        #expect(names.indices.filter { reaching[$0] }.map { names[$0] } == [.idle, .group, .inner, .island],
                "into the group: from idle (enter), from inside it, and from the island (poke to idle)")
    }

    @Test("Structural reachability over SCXML's entry sets: what the path finder's reasons follow")
    func entryWalk() {
        let index = FlowIndex(Corners.definition)
        let entries = index.entrySets()
        let names = Corners.definition.states.map(\.state)
        let entered = index.structurallyEntered(from: [Self.position(.idle)], entries: entries)
        #expect(names.indices.filter { entered[$0] }.map { names[$0] }
                    == [.idle, .deciding, .left, .right, .group, .inner, .looping, .bouncing, .done])
        let entering = index.structurallyEntering(Self.position(.done), entries: entries)
        #expect(names.indices.filter { entering[$0] }.map { names[$0] }
                    == [.idle, .deciding, .left, .right, .inner, .island, .done],
                "the group is entered, never a source: only the states inside a source lead on")
    }
}
