@testable import FlowSpec
import FlowTestSupport
import Flowstate
import Foundation
import PropertyBased
import Testing

/// `FlowFile.swiftSource`: what the FlowCodegen plugin and `flowviz generate swift` write (issue 26).
/// That the generated code compiles and behaves is `GeneratedFlowTests` (the plugin builds it).
@Suite("Typed Swift from a flow file")
struct SwiftGeneratorTests {
    @Test("Names become Swift identifiers predictably", arguments: [
        ("present(email)", "presentEmail"), ("valid email", "validEmail"), ("6 digits", "_6Digits"),
        ("Sign-Up", "signUp"), ("default", "`default`"), ("", "unnamed"), ("中", "u4E2D"), ("a.b.c", "aBC"),
        ("done.state.x", "doneStateX"), ("already camelCase", "alreadyCamelCase"),
    ])
    func identifiers(name: String, expected: String) {
        #expect(SwiftIdentifier.make(name) == expected)
    }

    @Test("Every identifier is a valid Swift identifier (or a backticked keyword), for any name")
    func identifiersAreValid() async {
        let valid = try! Regex("^(`[A-Za-z_][A-Za-z0-9_]*`|[A-Za-z_][A-Za-z0-9_]*)$")
        await propertyCheck(count: 300, input: Named.hostile) { name in
            let identifier = SwiftIdentifier.make(name)
            #expect(identifier.wholeMatch(of: valid) != nil, "\(name) -> \(identifier)")
            #expect(SwiftIdentifier.make(name, upper: true).first?.isLowercase != true)
        }
    }

    static func spec(_ json: String) throws -> FlowFile { try FlowFile.parse(json, file: "flow.json") }

    @Test("Two names that become one identifier are an error naming both, at the place of the second")
    func collisions() throws {
        let spec = try Self.spec("""
        { "flowspec": 1, "name": "door", "initial": "a",
          "states": [
            { "name": "a", "transitions": [ { "event": "open-door", "target": "b" },
                                            { "event": "open door", "target": "a" } ] },
            { "name": "b", "final": true } ] }
        """)
        #expect(throws: FlowFile.SwiftGenerationError.self) { try spec.swiftSource() }
        do {
            _ = try spec.swiftSource()
        } catch {
            #expect(error.description == "flow.json:4:37: error: event 'open door' and event 'open-door' both become the Swift name 'openDoor': rename one")
            #expect(error.problems.map(\.code) == [.cannotGenerate])
            #expect(error.code == .notTypeable && error.message == error.description)
        }
    }

    @Test("What a typed flow cannot mean is refused, each at its line: wildcard descriptors, nested SCXML finals outside parallel states, several initial states, completions outside parallel states")
    func refusals() throws {
        let scxml = try FlowFile.parseSCXML("""
        <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="p">
          <parallel id="p">
            <state id="r"><transition event="error.*" target="r"/></state>
            <state id="s" initial="t"><state id="t"/><final id="f"/></state>
          </parallel>
          <state id="c" initial="a b">
            <transition event="done.state.c" target="p"/>
            <state id="a"/><final id="b"/>
          </state>
        </scxml>
        """, file: "chart.scxml")
        do {
            _ = try scxml.swiftSource()
            Issue.record("a chart with a wildcard was generated")
        } catch {
            #expect(error.problems.map(\.description) == [
                "chart.scxml:3:19: error: event descriptor 'error.*' matches several events: a typed flow matches exact events",
                "chart.scxml:6:3: error: state 'c' starts in several states (a, b): a typed state names one initial child",
                "chart.scxml:7:5: error: a transition of 'c' waits for done.state.c: a typed flow raises done.state only for states inside parallel states (a final state elsewhere finishes the flow)",
                "chart.scxml:8:20: error: final state 'b' is nested: under SCXML it raises done.state.c, but a typed flow finishes at every final state outside parallel states",
            ])
        }
    }

    @Test("Parallel and history states are written as Parallel and History; several targets as an array; a region's completion as On(done:); In() asks the configuration")
    func parallelAndHistory() throws {
        let scxml = try FlowFile.parseSCXML("""
        <scxml xmlns="http://www.w3.org/2005/07/scxml" name="player" initial="idle">
          <state id="idle"><transition event="play" target="playing"/></state>
          <parallel id="playing">
            <transition event="reset" target="muted big"/>
            <transition event="done.state.playing" target="idle"/>
            <state id="audio">
              <history id="lastSound" type="deep"><transition target="muted"/></history>
              <state id="muted"><transition event="toggle" target="loud"/></state>
              <state id="loud"><transition event="stop" target="audioDone"/></state>
              <final id="audioDone"/>
            </state>
            <state id="video">
              <state id="small"><transition event="grow" cond="In('loud')" target="big"/></state>
              <state id="big"><transition event="stop" target="videoDone"/></state>
              <final id="videoDone"/>
            </state>
          </parallel>
        </scxml>
        """, file: "player.scxml")
        let source = try scxml.swiftSource()
        #expect(source.contains("            Parallel<Player>(State.playing) {\n"))
        #expect(source.contains("                    History(State.lastSound, .deep, default: State.muted)\n"))
        #expect(source.contains("                On(Event.reset, to: [State.muted, State.big])\n"))
        #expect(source.contains("                On(done: State.playing, to: State.idle)\n"))
        #expect(source.contains("On(Event.grow, guard: .in(State.loud), to: State.big)"))
        #expect(!source.contains("doneStatePlaying") && !source.contains("func isActive"))
    }

    @Test("The generated source is deterministic, names every name as written, and carries the file's lines")
    func shape() throws {
        let spec = try Self.spec("""
        { "flowspec": 1, "name": "sign in", "initial": "form",
          "states": [
            { "name": "form", "entry": ["show(form)"],
              "transitions": [ { "event": "submit", "guard": "valid", "update": "remember", "target": "done" } ] },
            { "name": "done", "final": true, "output": "signed in" } ] }
        """)
        let source = try spec.swiftSource()
        #expect(try spec.swiftSource() == source)
        #expect(source.contains("public enum SignIn: Flow {"))
        #expect(source.contains("case showForm = \"show(form)\""))
        #expect(source.contains("case signedIn = \"signed in\""))
        #expect(source.contains("#sourceLocation(file: \"flow.json\", line: 4)\n        func valid(_ event: Event?) -> Bool"))
        #expect(source.contains("On(Event.submit, guard: guardValid(requirements), to: State.done, update: Update(\"remember\") { _, _ in })"))
        #expect(source.contains("    private static func guardValid(_ requirements: some Requirements) -> Guard<SignIn> {\n"
            + "        #sourceLocation(file: \"flow.json\", line: 4)\n"
            + "        Guard(\"valid\", evaluate: { _, event in requirements.valid(event) })\n"))
        let internalSource = try spec.swiftSource(typeName: "Login", isPublic: false)
        #expect(internalSource.contains("\nenum Login: Flow {") && !internalSource.contains("public "))
    }

    @Test("Generated definitions' specs always generate: every name appears as a raw value, every guard and effect as a requirement")
    func generatesAnyExportedFlow() async {
        await propertyCheck(count: 100, input: Gen.int(in: 0...999).array(of: 20...120)) { genes in
            let spec = FlowFile(ExportGen.flow("p", genes: genes))
            let source = try spec.swiftSource()
            for state in spec.statesInDocumentOrder {
                #expect(source.contains(" = \(SwiftFlowWriter.quote(state.name))\n"))
                for t in state.transitions {
                    if let guardName = t.guardName { #expect(source.contains("func \(SwiftIdentifier.make(guardName))(_ event: Event?) -> Bool")) }
                    for effect in t.effects { #expect(source.contains("func \(SwiftIdentifier.make(effect))()")) }
                }
            }
        }
    }
}

extension SwiftGeneratorTests {
    /// The folder of the modules this test binary was built with (`.build/<configuration>/Modules`),
    /// where the compiler finds `Flowstate` for generated code; `nil` if the layout is another.
    static var builtModules: URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        for _ in 0..<6 {
            folder = folder.deletingLastPathComponent()
            let modules = folder.appendingPathComponent("Modules")
            if FileManager.default.fileExists(atPath: modules.appendingPathComponent("Flowstate.swiftmodule").path) {
                return modules
            }
        }
        return nil
    }

    /// The Swift compiler beside the `swift` that runs the tests (`PATH`).
    static var swiftc: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Type-checks `file` in Swift 6 mode against the built modules, with `options`: the compiler's
    /// exit status and what it printed on standard error.
    static func typecheck(_ file: String, swiftc: String, modules: URL, _ options: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments = ["-typecheck", "-swift-version", "6"] + options + ["-I", modules.path, file]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test("A guard the file gains and the app does not implement fails the build at the file's line")
    func driftFailsAtTheFilesLine() throws {
        let modules = try #require(Self.builtModules, "the test binary's modules folder")
        let swiftc = try #require(Self.swiftc, "swiftc on PATH")
        let spec = try Self.spec("""
        { "flowspec": 1, "name": "sign in", "initial": "form",
          "states": [
            { "name": "form", "entry": ["show(form)"],
              "transitions": [ { "event": "submit", "guard": "valid", "target": "done" } ] },
            { "name": "done", "final": true } ] }
        """)
        // The app implements the effect but not the guard (line 4 of the file). The compiler's
        // LLVM-style diagnostics print the note's location as the file's (docs: TypedFlowsFromFiles).
        let app = "\nstruct Rules: SignIn.Requirements {\n    func showForm() {}\n}\n"
        let folder = try Scratch()
        let file = try folder.file("SignIn.swift", try spec.swiftSource() + app)
        let (status, text) = try Self.typecheck(file, swiftc: swiftc, modules: modules, ["-diagnostic-style", "llvm"])
        #expect(status != 0)
        #expect(text.contains("does not conform to protocol"), "\(text.prefix(2000))")
        #expect(text.contains("flow.json:4:") && text.contains("valid"), "\(text.prefix(2000))")
    }

    @Test("Generated flows compile without warnings: 30 generated definitions' files, type-checked against Flowstate")
    func generatedCodeCompiles() throws {
        let modules = try #require(Self.builtModules, "the test binary's modules folder")
        let swiftc = try #require(Self.swiftc, "swiftc on PATH")
        var source = ""
        let genes = Gen.int(in: 0...999).array(of: 20...120)
        var rng = Xoshiro(seed: (26, 2, 6, 26))
        for k in 0..<30 {
            let spec = FlowFile(ExportGen.flow("p", genes: genes.run(using: &rng)))
            source += try spec.swiftSource(typeName: "Generated\(k)") + "\n"
        }
        let folder = try Scratch()
        let file = try folder.file("Generated.swift", source)
        let (status, text) = try Self.typecheck(file, swiftc: swiftc, modules: modules, ["-warnings-as-errors"])
        #expect(status == 0, "\(text.prefix(3000))")
    }
}
