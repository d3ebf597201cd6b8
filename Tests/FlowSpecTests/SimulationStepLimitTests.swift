@testable import FlowSpec
import FlowSpecTestSupport
import Testing

/// Issue 37, item 7: a document that sends itself events for ever stops at the default step limit
/// soon enough that a test or a preview does not seem to hang, and the stop says which limit it hit
/// and how to raise it. Steps are counted from the records, never timed.
@Suite("FlowSimulation's step limit: a self-sending document stops early, and says how to go further")
struct SimulationStepLimitTests {
    /// The transitions a run recorded: one per step the engine took.
    static func steps(_ simulation: FlowSimulation) -> Int {
        simulation.records.count { if case .transitioned = $0 { true } else { false } }
    }

    @Test("The default limit stops a self-sending document after 100,000 steps, naming the limit and how to raise it")
    func defaultLimit() throws {
        let simulation = try FlowSimulation(try FlowFile.parseSCXML(SpecSamples.busy, file: "busy.scxml"))
        #expect(simulation.stepLimit == 100_000)
        let problem = #expect(throws: FlowSimulation.Problem.self) { try simulation.start() }
        let message = problem?.description ?? ""
        #expect(message.hasPrefix("error: more than 100000 steps: the run was stopped"), "\(message)")
        #expect(message.contains("step limit") && message.contains("stepLimit") && message.contains("--max-steps"),
                "the message says which limit stopped the run and how to raise it: \(message)")
        #expect(Self.steps(simulation) == 100_000, "every step up to the limit is taken, and not one more")
        #expect(simulation.configuration == ["a"], "the run stopped between steps, in a state")
    }

    @Test("A limit set by hand (the old form) is the one that stops the run, and the message names it")
    func limitSetByHand() throws {
        let simulation = try FlowSimulation(try FlowFile.parseSCXML(SpecSamples.busy, file: "busy.scxml"))
        simulation.stepLimit = 2_500
        let problem = #expect(throws: FlowSimulation.Problem.self) { try simulation.start() }
        #expect(problem?.description.hasPrefix("error: more than 2500 steps: the run was stopped") == true,
                "\(String(describing: problem))")
        #expect(Self.steps(simulation) == 2_500)
    }

    @Test("Other stops do not claim the step limit: a loop of internal events, the time limit")
    func otherStops() throws {
        let raising = try FlowSimulation(try FlowFile.parseSCXML("""
        <scxml initial="a">
          <state id="a"><onentry><raise event="again"/></onentry><transition event="again" target="a"/></state>
        </scxml>
        """, file: "raise.scxml"))
        let loop = #expect(throws: FlowSimulation.Problem.self) { try raising.start() }
        #expect(loop?.description.contains("internal events") == true && loop?.description.contains("step limit") == false,
                "\(String(describing: loop))")
        let timed = try FlowSimulation(try FlowFile.parseSCXML(SpecSamples.busy, file: "busy.scxml"))
        timed.stepLimit = .max
        timed.timeLimit = .zero
        let stopped = #expect(throws: FlowSimulation.Problem.self) { try timed.start() }
        #expect(stopped?.description.contains("of processing") == true && stopped?.description.contains("step limit") == false,
                "\(String(describing: stopped))")
    }
}
