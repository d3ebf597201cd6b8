import FlowSpec
import Flowstate
import FlowstateExamples
import FlowTesting
import Foundation
import GeneratedFlows
import Testing

/// The two-factor code screen (`Examples/Flows/TwoFactorCode.swift`) written as SCXML
/// (`Examples/GeneratedFlows/two-factor-code.scxml`), its delayed transition as SCXML's `<send delay>`/
/// `<cancel>` idiom, and compiled back into a typed flow by the FlowCodegen plugin: the generated
/// `After` compiles, has the typed example's spec, and runs under the step tester's virtual clock
/// (issue 25, "Flow files carry delays").
@Suite("A flow file with a delayed transition compiled into a typed flow")
struct GeneratedDelayFlowTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("Swift definition -> SCXML (the idiom) -> generated Swift gives the same spec, delay included")
    func roundTrip() throws {
        let generated = GeneratedFlows.TwoFactorCode.definition(TwoFactorCodeRules())
        let typed = FlowFile(FlowstateExamples.TwoFactorCode.definition)
        #expect(FlowFile(generated).json() == typed.json())
        #expect(FlowFile(generated).json().contains("\"after\": \"30s\""))
        #expect(generated.validate().isEmpty)
        let file = Self.packageRoot.appending(path: "Examples/GeneratedFlows/two-factor-code.scxml")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == typed.scxml(), "the example's SCXML is the two-factor example's, as the SCXML writer writes it")
        #expect(text.contains("<send event=\"after_waiting\" delay=\"30s\" id=\"after_waiting\"/>"))
    }

    @Test("The generated flow's timer fires on the step tester's virtual clock")
    func runs() throws {
        let rules = TwoFactorCodeRules(validCode: false)
        let tester = try FlowStepTester(GeneratedFlows.TwoFactorCode.definition(rules))
        try tester.start {
            $0.state(.waiting)
            $0.effects([.sendCode])
        }
        try tester.send(.resend) { $0.ignored() }
        try tester.advance(by: .seconds(29))
        try tester.advance(by: .seconds(1)) {
            $0.transition(to: .canResend)
            $0.effects([.showResend])
        }
        try tester.send(.submitCode) {
            $0.effects([.showErrorWrongCode])
        }
        try tester.send(.resend) {
            $0.transition(to: .waiting)
            $0.effects([.hideResend, .sendCode])
        }
        tester.finish()
    }
}
