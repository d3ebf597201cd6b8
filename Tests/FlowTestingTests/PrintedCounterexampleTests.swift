import FlowTesting
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
    }
}
