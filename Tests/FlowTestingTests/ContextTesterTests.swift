import Flowstate
import FlowTesting
import Testing

/// A counter whose count is its context: `add` changes it through an update, `show` derives an effect.
enum Tally: Flow {
    typealias State = String
    enum Event: String, FlowEvent, Hashable { case add, show, addTwice }
    typealias Effect = String
    typealias Output = Int
    typealias Context = Int

    static let add = Update<Tally>("add one") { count, _ in count += 1 }
    static let definition = FlowDefinition<Tally>("tally", initial: "counting", context: 0) {
        StateNode("counting") {
            On(.add, to: nil, update: add)
            On(.show, to: nil, emit: [Emit("show(count)") { count, _ in "count \(count)" }])
            On(.addTwice, to: nil, update: add, effects: ["again"])
        }
    }
}

@Suite("FlowStepTester: the context is part of what a step must state")
struct ContextTesterTests {
    static func text(of issue: Issue) -> String { issue.comments.map(\.rawValue).joined(separator: "\n") }

    @Test("A stated context is checked; a context that did not change needs no statement")
    func stated() throws {
        let tester = try FlowStepTester(Tally.definition)
        try tester.start { $0.state("counting") }
        try tester.send(.add) { $0.context(1) }
        try tester.send(.show) { $0.effects(["count 1"]) }
        #expect(tester.context == 1)
        tester.finish()
    }

    @Test("An unstated change of the context fails at the line of the send; a wrong one shows both")
    func unstatedAndWrong() throws {
        let tester = try FlowStepTester(Tally.definition)
        try tester.start { $0.state("counting") }
        let line = #line + 2
        try withKnownIssue {
            try tester.send(.add)
        } matching: { issue in
            issue.sourceLocation?.line == line
                && Self.text(of: issue).contains("unstated context change: 0 -> 1 (state it with $0.context(...))")
        }
        try withKnownIssue {
            try tester.send(.add) { $0.context(5) }
        } matching: { issue in
            Self.text(of: issue).contains("context: expected 5, actual 2")
        }
    }

    @Test("With a runtime, the context is stated on the last step of the call, once the queue has run")
    func runtime() throws {
        let runtime = try FlowRuntime(Tally.definition) { effect, runtime in
            if effect == "again" { try runtime.send(.add) }
        }
        let tester = FlowStepTester(runtime: runtime)
        try tester.start { $0.state("counting") }
        try tester.send(.addTwice) { $0.effects(["again"]) }
        tester.receive { $0.context(2) }
        try withKnownIssue {
            try tester.send(.addTwice) {
                $0.effects(["again"])
                $0.context(3)
            }
            tester.receive { $0.context(4) }
        } matching: { issue in
            Self.text(of: issue).contains("the context is checked on the last step of the call")
        }
        tester.finish()
    }
}
