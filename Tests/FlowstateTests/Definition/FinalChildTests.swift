@testable import Flowstate
import Testing

/// The engine's check, on elements built the way a flow file's are (the DSL's `Final` has no child
/// parameter, so Swift code cannot declare one through it).
@Suite("Validation: a final state that runs a child flow (issue 21)")
struct FinalChildTests {
    enum Child: Flow {
        enum State: Hashable, Sendable { case only }
        enum Event: Hashable, Sendable, FlowEvent { case go }
        typealias Effect = String
        typealias Output = String
        static let definition = FlowDefinition<Child>("child", initial: .only) { Final(.only, output: "done") }
    }

    enum Parent: Flow {
        enum State: Hashable, Sendable { case start, end }
        enum Event: Hashable, Sendable, FlowEvent { case go, childDone }
        typealias Effect = String
        typealias Output = String
    }

    @Test("The definition reports an error at the final state's location, and a machine refuses to start")
    func refused() throws {
        let location = FlowSourceLocation(file: "Login.swift", line: 7, column: 9)
        let final = FlowElement<Parent>(node: .state(.init(
            state: .end, initial: nil, entry: [], exit: [],
            output: OutputRule(label: "done", compute: { _, _ in "done" }),
            child: ChildFlow(Child.definition) { _ in .childDone }, location: location)))
        let definition = FlowDefinition<Parent>("parent", initial: .start, elements: [
            StateNode(.start) { On(.go, to: .end) }.element, final,
        ])
        let issues = definition.validate().filter { $0.kind == .finalStateWithChild }
        #expect(issues.map(\.description) == [
            "Login.swift:7:9: error: final state 'end' runs child flow 'child', which would never run: "
                + "the flow finishes when it enters the state",
        ])
        #expect(throws: FlowError.self) { try FlowMachine(definition) }
    }
}
