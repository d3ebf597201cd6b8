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

/// A context of two fields: `left` bumps one, `both` bumps both.
enum Pair: Flow {
    typealias State = String
    enum Event: String, FlowEvent, Hashable { case left, both }
    typealias Effect = String
    typealias Output = Int
    struct Context: Equatable, Sendable { var left = 0, right = 0 }

    static let definition = FlowDefinition<Pair>("pair", initial: "only", context: Context()) {
        StateNode("only") {
            On(.left, to: nil, update: Update("bump left") { context, _ in context.left += 1 })
            On(.both, to: nil, update: Update("bump both") { context, _ in
                context.left += 1
                context.right += 1
            })
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

    @Test("One field stated: it is checked, and every other field must be as it was")
    func field() throws {
        let tester = try FlowStepTester(Pair.definition)
        try tester.start { $0.state("only") }
        try tester.send(.left) { $0.context(\.left, 1) }
        try withKnownIssue {
            try tester.send(.left) { $0.context(\.left, 5) }
        } matching: { issue in
            Self.text(of: issue).contains("context: expected Context(left: 5, right: 0), actual Context(left: 2, right: 0)")
        }
        try withKnownIssue {
            try tester.send(.both) { $0.context(\.left, 3) }  // right changed too, unstated
        } matching: { issue in
            Self.text(of: issue).contains("context: expected Context(left: 3, right: 0), actual Context(left: 3, right: 1)")
        }
        try tester.send(.both) {
            $0.context(\.left, 4)
            $0.context(\.right, 2)
        }
        tester.finish()
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
