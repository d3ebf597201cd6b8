import FlowSpec
import FlowSpecTestSupport
import Flowstate
import Testing

@Suite("Validation: a final state that runs a child flow (issue 21)")
struct FinalChildValidationTests {
    @Test("A flow file whose final state runs a child is an error at the state's line and column")
    func flowFile() throws {
        let spec = try FlowFile.parse(SpecSamples.finalStateWithChild, file: "login.json")
        let issues = spec.validate().filter { $0.kind == .finalStateWithChild }
        #expect(issues.count == 1)
        let issue = try #require(issues.first)
        #expect(issue.severity == .error)
        #expect(issue.description == "login.json:4:5: error: final state 'done' runs child flow 'twoFactor', "
                + "which would never run: the flow finishes when it enters the state")
    }

    @Test("A child on a state that is not final is not reported")
    func notFinal() throws {
        let spec = try FlowFile.parse(SpecSamples.finalStateWithChild.replacingOccurrences(of: "\"final\": true, ", with: ""), file: "x.json")
        #expect(!spec.validate().contains { $0.kind == .finalStateWithChild })
    }
}
