import FlowSpec
import Flowstate
import FlowstateExamples
import Testing

/// The Swift snippets of `docs/flowspec.md`, verbatim, compiled and run (`DocSnippetCheckTests` in
/// FlowstateTests fails when one is missing).
@Suite("Docs: the flow spec snippets run as written")
struct SpecArticleSnippetTests {
    // MARK: docs/flowspec.md

    @Test("docs/flowspec.md: write, read, run")
    func flowspec() throws {
        let text = FlowFile(SignUp.definition).json()                 // write
        let spec = try FlowFile.parse(text, file: "sign-up.json")      // read (errors carry file:line:column)
        let definition = spec.definition(guards: ["valid email": true]) // run or draw (string-typed)

        var machine = try FlowMachine(definition)
        #expect(try machine.start().state == "email")
        #expect(try machine.send("submitEmail").state == "password")
    }
}
