import FlowSpec
import Flowstate
import Testing

@Suite("Validation: a final state that runs a child flow (issue 21)")
struct FinalChildValidationTests {
    static let json = """
    { "flowspec": 1, "name": "login", "initial": "password",
      "states": [
        { "name": "password", "transitions": [ { "event": "ok", "target": "done" } ] },
        { "name": "done", "final": true, "child": "twoFactor" }
      ] }
    """

    @Test("A flow file whose final state runs a child is an error at the state's line and column")
    func flowFile() throws {
        let spec = try FlowSpec.parse(Self.json, file: "login.json")
        let issues = spec.validate().filter { $0.kind == .finalStateWithChild }
        #expect(issues.count == 1)
        let issue = try #require(issues.first)
        #expect(issue.severity == .error)
        #expect(issue.description == "login.json:4:5: error: final state 'done' runs child flow 'twoFactor', "
                + "which would never run: the flow finishes when it enters the state")
    }

    @Test("flowviz validate refuses it with one line and exit 1")
    func flowviz() throws {
        let scratch = try Scratch()
        let file = try scratch.file("login.json", Self.json)
        let result = try Flowviz.run(["validate", file])
        #expect(result.status == 1)
        #expect(result.stdout.contains("\(file):4:5: error: final state 'done' runs child flow 'twoFactor'"))
    }

    @Test("A child on a state that is not final is not reported")
    func notFinal() throws {
        let spec = try FlowSpec.parse(Self.json.replacingOccurrences(of: "\"final\": true, ", with: ""), file: "x.json")
        #expect(!spec.validate().contains { $0.kind == .finalStateWithChild })
    }
}
