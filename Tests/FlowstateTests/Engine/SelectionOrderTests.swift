@testable import Flowstate
import PropertyBased
import Testing

/// The order the selection tries each leaf's transitions in (`FlowSelectionOrder`, kept in the
/// compiled table for the path finder), against the rule docs/ARCHITECTURE.md states: the leaf's own
/// transitions, then its parent's, up to the top, each state's in declaration order; delayed and
/// completion transitions included, a transition to an undeclared state left out.
@Suite struct SelectionOrderTests {
    /// The rule, from the definition's public declarations only.
    static func expected<F: Flow>(_ definition: FlowDefinition<F>, from leaf: F.State) -> [Int] {
        var chain: [F.State] = []
        var state: F.State? = leaf
        while let s = state {
            chain.append(s)
            state = definition.declaration(of: s)?.parent
        }
        var result: [Int] = []
        for s in chain {
            for (t, transition) in definition.transitions.enumerated() where transition.source == s {
                if let target = transition.target, definition.declaration(of: target) == nil { continue }
                result.append(t)
            }
        }
        return result
    }

    @Test("Generated flows, an undeclared target injected: every state's order follows the rule")
    func generated() async {
        await propertyCheck(count: 200, input: Generators.validFlows, Gen.int(in: 0...1000)) { flow, pick in
            var flow = flow
            let source = pick % flow.count
            flow.transitions.append(.init(source: source, event: 1, guardKind: 0, target: flow.count + 3))
            let definition = flow.definition
            let order = definition.selectionOrder
            for (s, declaration) in definition.states.enumerated() {
                #expect(order.transitions(from: s, in: definition.hierarchy)
                            == Self.expected(definition, from: declaration.state), "state \(s) of \(flow)")
            }
        }
    }

    enum Upload: Flow {
        enum State: Hashable, Sendable { case session, sending, waiting, done }
        enum Event: FlowEvent { case cancel, retry }
        typealias Effect = String
        typealias Output = Void

        static let definition = FlowDefinition<Upload>("upload", initial: .session) {
            StateNode(.session, initial: .sending) {
                On(.cancel, to: nil, effects: ["stop"])
                StateNode(.sending) {
                    After(.seconds(5), to: .waiting)
                    On(.retry, to: .sending)
                }
                StateNode(.waiting) {
                    On(.retry, to: .sending)
                }
                Final(.done, output: ())
                On(done: .session, to: .session)
            }
        }
    }

    @Test("A delayed transition, a completion transition and a final leaf's ancestors' transitions are listed")
    func example() throws {
        let definition = Upload.definition
        let order = definition.selectionOrder
        let number = { (state: Upload.State) in try #require(definition.position(of: state)) }
        let declared = definition.transitions
        func names(_ leaf: Upload.State) throws -> [String] {
            try order.transitions(from: number(leaf), in: definition.hierarchy).map { t in
                let d = declared[t]
                return "\(d.source)->\(d.target.map { "\($0)" } ?? "nil")"
            }
        }
        #expect(try names(.sending) == ["sending->waiting", "sending->sending", "session->nil", "session->session"])
        #expect(try names(.done) == ["session->nil", "session->session"])
    }
}
