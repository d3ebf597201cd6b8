import FlowGraph
import FlowSpec
import Flowstate
import FlowstateExamples
import FlowTesting
import Foundation
import GeneratedFlows
import Testing

/// The sign-up seed flow, written as SCXML (`Examples/GeneratedFlows/sign-up.scxml`), compiled into a
/// typed flow by the FlowCodegen plugin at build time, and used as a hand-written flow is (issue 26).
@Suite("A flow file compiled into a typed flow by the build-tool plugin")
struct GeneratedFlowTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("Swift definition -> file -> generated Swift gives the same spec, and the example file is what the project writes")
    func roundTrip() throws {
        let generated = GeneratedFlows.SignUp.definition(SignUpRules())
        #expect(FlowSpec(generated).json() == FlowSpec(FlowstateExamples.SignUp.definition).json())
        #expect(generated.validate().isEmpty)
        let file = Self.packageRoot.appending(path: "Examples/GeneratedFlows/sign-up.scxml")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == FlowSpec(FlowstateExamples.SignUp.definition).scxml(),
                "the example's SCXML is the sign-up example's, as the SCXML writer writes it")
        #expect(GeneratedFlows.SignUp.State.allCases.map(\.description)
                    == ["signingUp", "email", "password", "twoFactor", "done", "cancelled"])
        #expect(GeneratedFlows.SignUp.Effect.pushPassword.description == "push(password)")
    }

    @Test("The generated flow runs under the supervisor; its effects reach the app's requirements")
    func supervised() throws {
        let rules = SignUpRules()
        let supervisor = Supervisor()
        let id = try supervisor.start(GeneratedFlows.SignUp.definition(rules)) { effect, _ in
            GeneratedFlows.SignUp.perform(effect, with: rules)
        }
        try supervisor.send(.submitEmail, to: id)
        try supervisor.send(.submitPassword, to: id)
        try supervisor.send(.submitCode, to: id)
        #expect(rules.log.all == ["present(email)", "push(password)", "push(twoFactor)", "sendCode", "dismiss"], "leaving signingUp for done dismisses")
        #expect(supervisor.liveCount == 0)
    }

    @Test("The testing kit tests it: every step stated, and the path finder reaches every state")
    func testingKit() throws {
        let definition = GeneratedFlows.SignUp.definition(SignUpRules())
        let tester = try FlowStepTester(definition)
        try tester.start {
            $0.state(.email)
            $0.effects([.presentEmail])
        }
        try tester.send(.submitEmail) {
            $0.transition(to: .password)
            $0.effects([.pushPassword])
        }
        try tester.send(.back) {
            $0.transition(to: .email)
            $0.effects([.pop])
        }
        tester.finish()
        let finder = try FlowPathfinder(definition) { kind in [kind] }
        #expect(finder.shortestPath(to: .done)?.events == [.submitEmail, .submitPassword, .submitCode])
        #expect(finder.unreachableStates.isEmpty)
    }
}
