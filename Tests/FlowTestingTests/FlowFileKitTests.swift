import FlowSpec
import FlowTesting
import Flowstate
import Testing

/// A flow read from a file is tested with the kit as a typed flow is: `FlowFile.definition()` is a
/// `FlowDefinition<StringFlow>`, and `StringFlow`'s events (`SpecEvent`) are their own kinds, so the path
/// finder explores it with no samples and the step tester states its steps with string literals.
@Suite("A flow file tested with the kit: path finder, cover and step tester on its definition")
struct FlowFileKitTests {
    static let signUp = """
    <scxml initial="email">
      <state id="email"><transition event="submit" target="password"/></state>
      <state id="password">
        <transition event="back" target="email"/>
        <transition event="submit" cond="valid" target="done"/>
      </state>
      <final id="done"/>
    </scxml>
    """

    @Test("The path finder finds the shortest path to the file's final state and covers every transition")
    func pathfinder() throws {
        let file = try FlowFile.parseSCXML(Self.signUp, file: "sign-up.scxml")
        let pathfinder = try FlowPathfinder(file.definition())
        let path = try #require(pathfinder.shortestPath(to: "done"))
        #expect(path.events == ["submit", "submit"])
        let cover = pathfinder.transitionCover()
        #expect(cover.uncovered.isEmpty, "\(cover.gaps)")
        #expect(cover.covered.count == 3)
    }

    @Test("The step tester states each step of the file's flow; a guard's truth rides on the event")
    func stepTester() throws {
        let file = try FlowFile.parseSCXML(Self.signUp, file: "sign-up.scxml")
        let tester = try FlowStepTester(file.definition())
        try tester.start { $0.state("email") }
        try tester.send("submit") { $0.transition(to: "password") }
        try tester.send(SpecEvent("submit", guards: ["valid": false])) { $0.rejected() }  // its guard failed
        try tester.send("submit") {
            $0.transition(to: "done")
            $0.finished(output: "done")
        }
        tester.finish()
    }
}
