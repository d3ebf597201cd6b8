import FlowGraph
@testable import FlowSpec
import FlowSpecTestSupport
import Flowstate
import Foundation
import Testing

/// Flow files at scale: memory and work linear in the file's size, and the limits that stop a
/// document that keeps itself busy. No test here asserts on time; sizes are asserted on the
/// structures themselves (the peak of a whole run is measured by the command in docs/PERFORMANCE.md,
/// "Flow files").
@Suite("Flow files at scale: memory, work, limits")
struct SpecScaleTests {
    /// A chain of `n` states as JSON text, one line a state (what `flowviz paths` reads).
    static func chainJSON(_ n: Int) -> String {
        var text = "{\"flowspec\": 1, \"name\": \"chain\", \"initial\": \"s0\", \"states\": [\n"
        for i in 0..<n {
            text += i + 1 < n ? "{\"name\": \"s\(i)\", \"transitions\": [{\"event\": \"next\", \"target\": \"s\(i + 1)\"}]},\n"
                : "{\"name\": \"s\(i)\", \"final\": true}\n"
        }
        return text + "]}\n"
    }

    @Test("A 100,000-state chain read from JSON: the states are kept at their size, the index copies no state, the exploration keeps a few words a state")
    func chainFootprint() throws {
        let n = 100_000
        let spec = try FlowFile.parse(Self.chainJSON(n), file: "chain.json")
        #expect(spec.states.count == n)
        #expect(spec.states.capacity < n + n / 100, "the states read one at a time are not left with the slack of doubling")
        let index = SpecIndex(spec)
        // A state is some 180 bytes and a transition some 100: the index holds numbers only (and the
        // table of names, shared with the spec).
        #expect(index.footprint < 128 * n, "\(index.footprint / n) bytes a state")
        let compiled = spec.compile()
        #expect(!compiled.validate().contains { $0.severity == .error })
        let paths = try FlowFilePathfinder(compiled)
        #expect(paths.reached.count == n)
        #expect(paths.shortestPath(to: "s\(n - 1)")?.count == n - 1)
        #expect(paths.cover.count == 1 && paths.cover[0].count == n - 1, "one sequence takes the whole chain")
        #expect(paths.footprint < 160 * n, "\(paths.footprint / n) bytes a state")
    }

    @Test("States read as they stream keep the reader's order of problems: syntax first, then the top-level fields, then the first bad state")
    func streamedProblems() {
        func problem(_ text: String) -> String {
            do {
                _ = try FlowFile.parse(text, file: "p.json")
                return "parsed"
            } catch {
                return error.description
            }
        }
        let badState = #"{"name": "a", "colour": 1}"#
        // A bad state, then a syntax error further on: the syntax error.
        #expect(problem(#"{"flowspec": 1, "name": "f", "initial": "a", "states": [\#(badState)], "x": }"#)
            .contains("expected a value"))
        // A bad state and an unknown top-level field after the states: the field.
        #expect(problem(#"{"flowspec": 1, "name": "f", "initial": "a", "states": [\#(badState)], "extra": 1}"#)
            .contains("unknown field 'extra' in the flow spec"))
        // A bad state and a missing name: the name.
        #expect(problem(#"{"flowspec": 1, "initial": "a", "states": [\#(badState)]}"#).contains("needs a 'name'"))
        // Only the bad states: the first one.
        #expect(problem(#"{"flowspec": 1, "name": "f", "initial": "a", "states": [{"name": "ok"}, \#(badState), {"nme": 2}]}"#)
            .contains("unknown field 'colour' in a state"))
        // `states` that is not an array is still said so.
        #expect(problem(#"{"flowspec": 1, "name": "f", "initial": "a", "states": 3}"#).contains("'states' in the flow spec must be an array"))
    }

    @Test("Reading states as they stream gives the spec written (nested states, every field, each with its place)")
    func streamedSameSpec() throws {
        for seed in 0..<50 {
            let spec = SpecGenerator.spec((0..<40).map { ($0 * 7919 + seed * 104_729) % 1000 })
            let back = try FlowFile.parse(spec.json(), file: "g.json")
            #expect(back.json() == spec.json())
            #expect(back.statesInDocumentOrder.count == spec.statesInDocumentOrder.count)
            #expect(back.statesInDocumentOrder.allSatisfy { $0.location?.file == "g.json" && $0.location!.line > 0 })
        }
    }

    @Test("Validation and exploration compiled once agree with each compiling for itself")
    func compiledOnce() throws {
        for name in ["checkout.json", "login.json", "door.scxml"] {
            let spec = try readSpec(name)
            let compiled = spec.compile()
            #expect(compiled.validate().map(\.description) == spec.validate().map(\.description), "\(name)")
            let once = try FlowFilePathfinder(compiled), alone = try FlowFilePathfinder(spec)
            #expect(once.cover == alone.cover && once.reached == alone.reached && once.unreachable == alone.unreachable, "\(name)")
            for state in alone.states { #expect(once.shortestPath(to: state) == alone.shortestPath(to: state), "\(name): \(state)") }
        }
    }
}

extension SpecScaleTests {
    @Test("A document that keeps itself busy stops at the time limit with one line (the outcome asserted, not the time)")
    func timeLimit() throws {
        let simulation = try FlowSimulation(try FlowFile.parseSCXML(SpecSamples.busy, file: "busy.scxml"))
        simulation.stepLimit = .max  // only the time limit can stop it
        simulation.timeLimit = .milliseconds(20)
        let problem = #expect(throws: FlowSimulation.Problem.self) { try simulation.start() }
        #expect(problem?.description == "error: more than 20ms of processing: the run was stopped (a document that keeps itself busy)",
                "\(String(describing: problem))")
        #expect(simulation.configuration == ["a"], "the run stopped between steps, in a state")
        // The limit counts all calls together: what is left of it is spent, so the next call stops too.
        let again = #expect(throws: FlowSimulation.Problem.self) { try simulation.send("again") }
        #expect(again?.description.contains("of processing") == true)
    }

    @Test("Without a time limit a run is not timed; a run that ends in time is not stopped")
    func timeLimitUnset() throws {
        let simulation = try FlowSimulation(try readSpec("door.scxml"))
        #expect(simulation.timeLimit == nil)
        simulation.timeLimit = .seconds(3600)
        try simulation.start()
        try simulation.send("open")
        #expect(simulation.configuration == ["wide", "open"])
    }
}
