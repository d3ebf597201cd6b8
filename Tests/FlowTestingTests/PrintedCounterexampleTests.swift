import FlowTesting
import Flowstate
import Testing

/// The article "Testing flows" shows a counterexample as `SupervisorCheck.counterexample` prints it
/// (`TestingFlowsArticleTests.treeCounterexample` compares the text). Pasted as it is printed, with
/// its placeholder body, it compiles and runs: the commands replay without an error.
@Suite("Article: Testing flows, the printed tree counterexample pasted as printed")
struct PrintedCounterexampleTests {
    @Test("The printed commands compile and replay")
    func pastedAsPrinted() throws {
        let universe = TestingFlowsArticleTests.universe
        try SupervisorCheck.run(universe, commands: [
            .send(machine: 0, event: 0),  // send .createAccount to #1 'first-launch' in welcome
            .spawn(flow: 0, under: 0, policy: 0),  // spawn 'first-launch' #3 under #1 'first-launch' with escalate
        ]) { supervisor, events in
            // the invariant
        }
        // Replayed with a body that looks: each command ran, the second spawned a machine under #1.
        var seen: [(live: Int, events: [TreeEvent])] = []
        try SupervisorCheck.run(universe, commands: [
            .send(machine: 0, event: 0),
            .spawn(flow: 0, under: 0, policy: 0),
        ]) { supervisor, events in
            seen.append((supervisor.liveCount, events))
        }
        #expect(seen.count == 2)
        #expect(seen.last?.live == (seen.first?.live ?? 0) + 1)
        #expect(seen.last?.events.contains { if case .spawned(_, "first-launch", _, _, _) = $0 { true } else { false } } == true)
    }
}
