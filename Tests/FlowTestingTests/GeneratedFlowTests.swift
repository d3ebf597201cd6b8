import FlowGraph
import FlowSpec
import Flowstate
import FlowstateExamples
import FlowTesting
import Foundation
import GeneratedFlows
import PropertyBased
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
        #expect(FlowFile(generated).json() == FlowFile(FlowstateExamples.SignUp.definition).json())
        #expect(generated.validate().isEmpty)
        let file = Self.packageRoot.appending(path: "Examples/GeneratedFlows/sign-up.scxml")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == FlowFile(FlowstateExamples.SignUp.definition).scxml(),
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

    @Test("Parallel and history states: Swift definition -> file -> generated Swift gives the same spec, and the example file is what the project writes")
    func radioRoundTrip() throws {
        let generated = GeneratedFlows.Radio.definition(RadioRules())
        #expect(generated.validate().isEmpty, "\(generated.validate())")
        #expect(FlowFile(generated).json() == FlowFile(HandRadio.definition).json())
        let file = Self.packageRoot.appending(path: "Examples/GeneratedFlows/radio.scxml")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == FlowFile(HandRadio.definition).scxml(), "\(FlowFile(HandRadio.definition).scxml())")
    }

    @Test("The generated radio runs its regions, its history and its completion as the hand-written one does")
    func radioRuns() throws {
        var generated = try FlowMachine(GeneratedFlows.Radio.definition(RadioRules()))
        var hand = try FlowMachine(HandRadio.definition)
        func names<S>(_ states: [S]) -> [String] { states.map { "\($0)" } }
        #expect(names(try generated.start().leaves) == names(try hand.start().leaves))
        func send(_ events: [String]) throws {
            for name in events {
                let a = try generated.send(try #require(GeneratedFlows.Radio.Event(rawValue: name)))
                let b = try hand.send(try #require(HandRadio.Event(rawValue: name)))
                #expect(names(a.leaves) == names(b.leaves), "after \(name)")
                #expect(names(Array(a.effects)) == names(Array(b.effects)), "after \(name)")
            }
        }
        try send(["power", "louder", "toggle", "power", "resume"])
        // `resume` came back to the band last tuned (am), with the volume's initial state.
        #expect(names(hand.configuration.reversed()) == ["on", "band", "am", "volume", "quiet"])
        #expect(names(generated.configuration.reversed()) == ["on", "band", "am", "volume", "quiet"])
        try send(["reset"])
        #expect(names(generated.configuration.reversed()) == ["on", "band", "am", "volume", "loud"])
        // Ejecting completes the band's region: `on` turns off.
        try send(["eject"])
        #expect(names(hand.configuration) == ["off"] && names(generated.configuration) == ["off"])
    }
}

extension GeneratedFlowTests {
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

    @Test("Generated flows with parallel and history states compile without warnings: the radio example and 30 generated parallel definitions' files")
    func parallelGeneratedCodeCompiles() throws {
        let modules = try #require(Self.builtModules, "the test binary's modules folder")
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let swiftc = try #require(path.split(separator: ":").map { "\($0)/swiftc" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }, "swiftc on PATH")
        let radioFile = Self.packageRoot.appending(path: "Examples/GeneratedFlows/radio.scxml")
        let radio = try FlowFile.parseSCXML(String(contentsOf: radioFile, encoding: .utf8), file: "radio.scxml")
        var source = try radio.swiftSource(typeName: "Radio") + "\n"
        let blueprints = FlowGen.definitions(states: 2...10, events: 3, maxDepth: 3, parallelRate: 0.6)
        var rng = Xoshiro(seed: (24, 2, 4, 24))
        var parallel = 0
        for k in 0..<30 {
            let definition = blueprints.run(using: &rng).definition
            guard definition.isValid else { continue }
            if definition.hierarchy.hasParallel { parallel += 1 }
            source += try FlowFile(definition).swiftSource(typeName: "Generated\(k)") + "\n"
        }
        #expect(parallel >= 10, "the generated definitions have parallel states")
        let folder = FileManager.default.temporaryDirectory.appending(path: "flowstate-generated-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "Generated.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments = ["-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", modules.path, file.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text.prefix(3000))")
    }
}

/// The radio of `Examples/GeneratedFlows/radio.scxml`, written by hand: the band and the volume are
/// regions of `on`; `resume` comes back to the band last tuned; `reset` targets a state in each
/// region; ejecting completes the band's region, and `on` turns off.
enum HandRadio: Flow {
    enum State: String, Hashable, Sendable { case off, on, band, lastBand, fm, am, ejected, volume, quiet, loud }
    enum Event: String, FlowEvent, Hashable { typealias Kind = Self; case power, resume, reset, toggle, eject, louder, quieter }
    enum Effect: String, Hashable, Sendable { case showOff, showOn, hideOn, lowerVolume }
    enum Output: String, Hashable, Sendable { case ejected }

    static let definition = FlowDefinition<HandRadio>("radio", initial: .off) {
        StateNode(.off, entry: [.showOff]) {
            On(.power, to: .on)
            On(.resume, to: .lastBand)
        }
        Parallel(.on, entry: [.showOn], exit: [.hideOn]) {
            StateNode(.band) {
                History(.lastBand, .shallow, default: .fm)
                StateNode(.fm) { On(.toggle, guard: Guard("strong signal", condition: { true }), to: .am) }
                StateNode(.am) {
                    On(.toggle, to: .fm)
                    On(.eject, to: .ejected)
                }
                Final(.ejected, output: .ejected)
            }
            StateNode(.volume) {
                StateNode(.quiet) { On(.louder, to: .loud) }
                StateNode(.loud) { On(.quieter, to: .quiet, effects: [.lowerVolume]) }
            }
            On(.power, to: .off)
            On(.reset, to: [.am, .loud])
            On(done: .band, to: .off)
        }
    }
}
