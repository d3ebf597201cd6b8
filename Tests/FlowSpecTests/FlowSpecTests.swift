import FlowGraph
@testable import FlowSpec
import FlowTestSupport
import Flowstate
import FlowstateExamples
import Foundation
import PropertyBased
import Testing

@Suite("Flow spec (JSON)")
struct FlowSpecTests {
    func parse(_ text: String) throws(FlowSpecError) -> FlowFile { try FlowFile.parse(text, file: "flow.json") }

    func error(_ text: String) -> FlowSpecError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("A Swift definition writes its spec in one call; the sign-up spec matches its golden file")
    func golden() throws {
        try expectGolden(FlowFile(SignUp.definition).json(), "sign-up.flowspec.json")
    }

    @Test("The module's name qualifies its types: no type is named like the module (issue 22)")
    func moduleQualifiedNames() throws {
        let text = FlowSpec.FlowFile(SignUp.definition).json()
        let spec = try FlowSpec.FlowFile.parse(text, file: "sign-up.json")
        #expect(spec.json() == text)
        let event: FlowSpec.SpecEvent = "submitEmail"
        #expect(event == Flowstate.SpecEvent("submitEmail"))
    }

    @Test("Definition to spec to definition gives the same graph (the example flows)")
    func roundTripExamples() throws {
        let signUp = try parse(FlowFile(SignUp.definition).json()).definition()
        #expect(FlowDiagram(signUp) == FlowDiagram(SignUp.definition))
        let photo = try parse(FlowFile(PhotoCreation.definition).json()).definition()
        #expect(FlowDiagram(photo) == FlowDiagram(PhotoCreation.definition))
        #expect(signUp.validate().isEmpty)
    }

    @Test("Round trip for any names: definition to spec to graph equals definition to graph")
    func roundTripProperty() async {
        await propertyCheck(count: 150, input: Named.hostile.array(of: 1...8)) { names in
            let definition = Named.hostileFlow(names)
            let text = FlowFile(definition).json()
            let back = try FlowFile.parse(text, file: "generated.json")
            #expect(FlowDiagram(back.definition()) == FlowDiagram(definition), "\(text)")
            #expect(back.json() == text, "writing is stable")
        }
    }

    @Test("A spec runs on the engine; guards take their truth from the caller")
    func runs() throws {
        let spec = try parse("""
        { "flowspec": 1, "name": "door", "initial": "closed",
          "states": [
            { "name": "closed", "transitions": [ { "event": "open", "guard": "unlocked", "target": "open" } ] },
            { "name": "open", "transitions": [ { "event": "close", "target": "closed", "effects": ["creak"] } ] } ] }
        """)
        var locked = try FlowMachine(spec.definition(guards: ["unlocked": false]))
        _ = try locked.start()
        #expect(try locked.send("open") == .rejected(state: "closed", event: "open"))
        var machine = try FlowMachine(spec.definition())
        _ = try machine.start()
        _ = try machine.send("open")
        #expect(Array(try machine.send("close").effects) == ["creak"])
    }

    @Test("Validation issues of a spec point into the file")
    func validationLocations() throws {
        let spec = try parse("""
        {
          "flowspec": 1, "name": "door", "initial": "closed",
          "states": [
            { "name": "closed",
              "transitions": [ { "event": "open", "target": "opne" } ] }
          ]
        }
        """)
        let issue = try #require(spec.definition().validate().first { $0.kind == .unknownTarget })
        #expect(issue.description == "flow.json:5:24: error: transition from 'closed' on 'open' targets 'opne', which is not a declared state")
    }

    @Test("Malformed JSON is reported at its line and column")
    func malformed() {
        let e = error("{\n  \"flowspec\": 1,\n  \"name\": \"x\" \"initial\": \"a\"\n}")
        #expect(e?.code == .malformedJSON)
        #expect(e?.description == "flow.json:3:15: error: expected ',' or '}' in the object")
    }

    @Test("An unknown field is reported at the field's name")
    func unknownField() {
        let e = error("{ \"flowspec\": 1, \"name\": \"x\", \"initial\": \"a\",\n  \"states\": [ { \"name\": \"a\", \"colour\": \"red\" } ] }")
        #expect(e?.code == .unknownField)
        #expect(e?.location.line == 2)
        #expect(e?.location.column == 30)
        #expect(e?.message.hasPrefix("unknown field 'colour' in a state") == true)
    }

    @Test("Missing fields, wrong types and other versions are typed errors", arguments: [
        ("{ \"flowspec\": 1, \"initial\": \"a\", \"states\": [] }", "missing-field"),
        ("{ \"flowspec\": 1, \"name\": 3, \"initial\": \"a\", \"states\": [] }", "wrong-type"),
        ("{ \"flowspec\": 2, \"name\": \"x\", \"initial\": \"a\", \"states\": [] }", "unsupported-version"),
        ("[1, 2]", "wrong-type"),
        ("{ \"flowspec\": 1, \"name\": \"x\", \"initial\": \"a\", \"states\": [ { \"name\": \"a\", \"transitions\": [ {} ] } ] }", "missing-field"),
    ])
    func typedErrors(text: String, code: String) {
        #expect(error(text)?.code.description == code)
    }

    @Test("Empty, binary, truncated and absurdly nested input are errors, never crashes", arguments: [
        "", "   \n ", "\u{0}\u{1}\u{2}", "{", "{\"name\": \"unterminated", String(repeating: "[", count: 100_000), "{\"a\":1,}", "nul",
        "\"\\ud800\"", "{\"flowspec\": 1e999999}",
    ])
    func hostileInput(text: String) {
        #expect(error(text) != nil)
    }

    @Test("Invalid UTF-8 is an error with a location")
    func invalidUTF8() {
        let bytes: [UInt8] = Array("{\"name\": \"".utf8) + [0xFF, 0xFE] + Array("\"}".utf8)
        #expect(throws: FlowSpecError.self) { try FlowFile.parse(bytes, file: "binary.json") }
    }

    @Test("Any byte soup is rejected or read, never a crash")
    func fuzz() async {
        await propertyCheck(count: 300, input: Gen.uint8(in: 0...255).array(of: 0...200)) { bytes in
            _ = try? FlowFile.parse(bytes, file: "fuzz.json")
        }
        let valid = Array(FlowFile(SignUp.definition).json().utf8)
        await propertyCheck(count: 300, input: Gen.int(in: 0...(valid.count - 1)), Gen.uint8(in: 0...255)) { position, byte in
            var mutated = valid
            mutated[position] = byte
            if let spec = try? FlowFile.parse(mutated, file: "mutated.json") {
                _ = spec.definition().validate()
            }
        }
    }

    @Test("The specs of a live tree: each flow once, the same as its definition's spec, and runnable by flowviz's simulation")
    func liveTree() throws {
        let supervisor = Supervisor()
        let launch = try supervisor.start(FirstLaunch.definition) { _, _ in }
        try supervisor.send(.createAccount, to: launch)
        let specs = FlowFile.specs(of: supervisor)
        #expect(specs.map(\.name) == [FirstLaunch.definition.name, SignUp.definition.name])
        // A live machine's spec is its flow's alone: the definition's also holds its children's documents.
        var alone = FlowFile(FirstLaunch.definition)
        #expect(alone.documents.keys.sorted() == [SignUp.definition.name])
        alone.documents = [:]
        #expect(specs[0].json() == alone.json())
        #expect(specs[0].states[1].childOutputs == [.init(output: "signedUp", event: "accountCreated"),
                                                    .init(output: "cancelled", event: "accountCancelled")])
        #expect(specs[1].json() == FlowFile(SignUp.definition).json())
        let simulation = try FlowSimulation(specs[0], children: { name in specs.first { $0.name == name } })
        try simulation.start()
        try simulation.send("createAccount")
        #expect(simulation.machines == ["first-launch: creatingAccount", "  sign-up: email"])
    }

    @Test("The DocC article FlowFiles.md: its code runs as written")
    func article() throws {
        let text = FlowFile(SignUp.definition).json()
        let spec = try FlowFile.parse(text, file: "sign-up.json")
        let paths = try FlowFilePathfinder(spec)
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        for event in paths.shortestPath(to: "twoFactor")! { try simulation.send(event) }
        #expect(simulation.configuration.first == "twoFactor")
    }
}

@Suite("FlowSimulation problems: one error shape")
struct SimulationProblemCodeTests {
    @Test("A child flow not found, and an event after the end, have their codes")
    func codes() throws {
        let parent = try FlowFile.parse("""
            { "flowspec": 1, "name": "parent", "initial": "a", "states": [
              { "name": "a", "child": "missing", "transitions": [ { "event": "go", "target": "b" } ] },
              { "name": "b", "final": true } ] }
            """, file: "parent.json")
        do {
            _ = try FlowSimulation(parent)
            Issue.record("a missing child flow was simulated")
        } catch {
            #expect(error.code == .childNotFound, "\(error)")
            #expect(error.code.description == "child-not-found")
        }
    }
}

