@testable import FlowSpec
import FlowTestSupport
import Flowstate
import Foundation
import Testing

/// Big generated flows (issue 39): `definition(_:)` is written in builder bodies of at most
/// `DefinitionWriter.bodyLimit` declarations, so that type-checking it takes time in proportion to the
/// flow; the parts declare what one body would, in the same order, each at its file's line.
@Suite("Typed Swift of big flows: a definition in parts")
struct GeneratedFlowSizeTests {
    /// A flat flow file of `count` states `state <i>`, each with two transitions (as `make bench`'s
    /// compile group generates): `next<i>` guarded by `ok` to the next state, `jump<i>` to another.
    static func flat(_ count: Int) throws -> FlowFile {
        let states = (0..<count).map { i in
            """
                { "name": "state \(i)", "entry": ["show(\(i % 7))"],
                  "transitions": [
                    { "event": "next\(i)", "guard": "ok", "target": "state \((i + 1) % count)", "effects": ["push(screen\(i))"] },
                    { "event": "jump\(i)", "target": "state \((i * 7919 + 104_729) % count)" } ] }
            """
        }
        return try FlowFile.parse("""
        { "flowspec": 1, "name": "big", "initial": "state 0",
          "states": [
        \(states.joined(separator: ",\n"))
          ] }
        """, file: "big.json")
    }

    /// A chain of `depth` states, each inside the one before, the innermost with a transition out.
    static func deep(_ depth: Int) -> FlowFile {
        var state = FlowFile.State(name: "s\(depth - 1)")
        state.transitions = [FlowFile.Transition(event: "out", target: "s0")]
        for level in (0..<(depth - 1)).reversed() {
            var outer = FlowFile.State(name: "s\(level)")
            outer.states = [state]
            state = outer
        }
        return FlowFile(name: "deep", initial: "s0", states: [state])
    }

    static func source(_ spec: FlowFile, limit: Int? = nil) throws -> String {
        var writer = SwiftFlowWriter(spec: spec, typeName: nil, isPublic: true, file: nil)
        if let limit { writer.bodyLimit = limit }
        return try writer.write()
    }

    /// `definition(_:)`'s declarations as one body would declare them: each call of a part replaced
    /// by the part's own lines, every line without its indentation.
    static func inlined(_ source: String) -> [String] {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.drop { $0 == " " }) }
        var bodies: [String: [String]] = [:]
        var current: String?
        var definition: [String] = []
        var inDefinition = false
        for line in lines {
            if line.hasPrefix("private static func definitionPart") {
                current = String(line.dropFirst("private static func ".count).prefix { $0 != "(" })
                bodies[current!] = []
            } else if line.contains("static func definition(_ requirements") {
                inDefinition = true
            } else if let name = current {
                if line == "}" && bodies[name]!.filter({ $0.hasSuffix("{") }).count
                    == bodies[name]!.filter({ $0 == "}" }).count {
                    current = nil
                } else {
                    bodies[name]!.append(line)
                }
            } else if inDefinition {
                if line == "}" && definition.filter({ $0.hasSuffix("{") }).count == definition.filter({ $0 == "}" }).count {
                    inDefinition = false
                } else {
                    definition.append(line)
                }
            }
        }
        var out: [String] = []
        var pending = Array(definition.reversed())
        while let line = pending.popLast() {
            if line.hasPrefix("definitionPart"), line.hasSuffix("(requirements)") {
                let name = String(line.prefix { $0 != "(" })
                pending.append(contentsOf: (bodies[name] ?? ["missing \(name)"]).reversed())
            } else {
                out.append(line)
            }
        }
        return out
    }

    /// How many declarations (states and transitions) each builder body of `source` holds, nested
    /// bodies included: a body's count is every declaration line between its braces.
    static func bodySizes(_ source: String) -> [Int] {
        let lines = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let declarations = ["StateNode<", "StateNode(", "Parallel<", "Parallel(", "Final(", "History(", "On(", "Always(", "After(", "definitionPart"]
        var sizes: [Int] = []
        var count: Int?
        for line in lines {
            if line.hasPrefix("FlowDefinition(") || line.hasPrefix("private static func definitionPart") {
                if let count { sizes.append(count) }
                count = 0
            } else if count != nil, declarations.contains(where: { line.hasPrefix($0) }) {
                count! += 1
            }
        }
        if let count { sizes.append(count) }
        return sizes
    }

    @Test("A small flow's definition is one builder body, as before")
    func smallFlowInOneBody() throws {
        let source = try Self.source(Self.flat(5))
        #expect(!source.contains("definitionPart"))
        #expect(source.contains("        FlowDefinition(\"big\", initial: State.state0) {\n"))
        #expect(source.contains("            StateNode<Big>(State.state1, entry: [Effect.show1]) {\n"))
        #expect(source.contains("                On(Event.jump1, to: State.state3)\n"))
        #expect(Self.inlined(source) == Self.inlined(try Self.source(Self.flat(5), limit: .max)))
    }

    @Test("A big flow's definition is cut into parts of at most 30 declarations that declare what one body would, in order",
          arguments: [40, 300, 1_000])
    func bigFlowInParts(states: Int) throws {
        let spec = try Self.flat(states)
        let source = try Self.source(spec)
        #expect(source.contains("private static func definitionPart0(_ requirements: some Requirements) -> [FlowElement<Big>] {"))
        let sizes = Self.bodySizes(source)
        #expect(sizes.count > states * 3 / DefinitionWriter.bodyLimit)
        #expect(sizes.allSatisfy { $0 <= DefinitionWriter.bodyLimit }, "\(sizes)")
        let whole = try Self.source(spec, limit: .max)
        #expect(!whole.contains("definitionPart"))
        #expect(Self.bodySizes(whole) == [states * 3])
        let inlined = Self.inlined(source)
        #expect(inlined.count == Self.inlined(whole).count)
        #expect(inlined == Self.inlined(whole))
        #expect(try Self.source(spec) == source, "deterministic")
    }

    @Test("A state too big for one body keeps its place, its own body in parts; a deep chain is written without deep recursion")
    func bigStates() throws {
        // 60 children in one compound state, between two small states.
        var states = [FlowFile.State(name: "first"), FlowFile.State(name: "group"), FlowFile.State(name: "last")]
        states[0].transitions = [FlowFile.Transition(event: "go", target: "group")]
        states[1].states = (0..<60).map { i in
            var state = FlowFile.State(name: "child \(i)")
            state.transitions = [FlowFile.Transition(event: "next", target: "child \((i + 1) % 60)")]
            return state
        }
        states[1].transitions = [FlowFile.Transition(event: "leave", target: "last")]
        let spec = FlowFile(name: "group", initial: "first", states: states)
        let source = try Self.source(spec)
        // The three states in three parts (the group alone in the second), the group's body in parts after them.
        #expect(source.contains("        FlowDefinition(\"group\", initial: State.first) {\n            definitionPart0(requirements)\n"
            + "            definitionPart1(requirements)\n            definitionPart2(requirements)\n        }\n"))
        #expect(source.contains("        StateNode<Group>(State.group) {\n            definitionPart3(requirements)\n"))
        #expect(Self.bodySizes(source).allSatisfy { $0 <= DefinitionWriter.bodyLimit })
        #expect(Self.inlined(source) == Self.inlined(try Self.source(spec, limit: .max)))

        // 3,000 levels: one state per part; every state once, the innermost transition once.
        let deep = try Self.source(Self.deep(3_000))
        #expect(deep.contains("definitionPart2900("))
        for level in [0, 1_500, 2_999] {
            #expect(deep.components(separatedBy: "StateNode<Deep>(State.s\(level)").count == 2)
        }
        #expect(deep.components(separatedBy: "On(Event.out, to: State.s0)").count == 2)
    }

    @Test("A compiler error in a part of a big generated definition points at the flow file's line")
    func errorInAPartAtTheFilesLine() throws {
        let modules = try #require(SwiftGeneratorTests.builtModules, "the test binary's modules folder")
        let swiftc = try #require(SwiftGeneratorTests.swiftc, "swiftc on PATH")
        let spec = try Self.flat(120)
        // The file's line of state 97's `jump97` transition, and of state 42.
        let transition = try #require(spec.states[97].transitions[1].location?.line)
        let state = try #require(spec.states[42].location?.line)
        var source = try spec.swiftSource()
        #expect(source.contains("#sourceLocation(file: \"big.json\", line: \(transition))\n            On(Event.jump97, to: State.state"))
        // A transition the flow's types cannot mean (what a generator's mistake would write), and a
        // state the flow does not declare.
        source = source.replacingOccurrences(of: "On(Event.jump97,", with: "On(Event.jump97x,")
        source = source.replacingOccurrences(of: "StateNode<Big>(State.state42,", with: "StateNode<Big>(State.state42x,")
        let folder = try Scratch()
        let file = try folder.file("Big.swift", source)
        let (status, text) = try SwiftGeneratorTests.typecheck(file, swiftc: swiftc, modules: modules, ["-diagnostic-style", "llvm"])
        #expect(status != 0)
        // At the transition's own line, not its state's: the state names the flow type
        // (`StateNode<Big>`), so its body is checked against it.
        #expect(text.contains("big.json:\(transition):") && text.contains("jump97x"), "\(text.prefix(3000))")
        #expect(!text.contains("could not be inferred"), "\(text.prefix(3000))")
        #expect(text.contains("big.json:\(state):") && text.contains("state42x"), "\(text.prefix(3000))")
        #expect(!text.contains("Big.swift:"), "every error is at the flow file's line: \(text.prefix(3000))")
    }

    /// An SCXML player whose two regions hold `count` states each: a deep history, `In()` guards
    /// across regions, finals whose completions a `done.state` transition waits for, a transition
    /// with two targets; without `parallel`, the regions are children of a compound state, without
    /// finals (its `In()` is then the generated `isActive`).
    static func player(_ count: Int, parallel: Bool = true) throws -> FlowFile {
        func region(_ name: String, other: String) -> String {
            let end = parallel ? "\(name)Done" : "idle"
            let states = (0..<count).map { i in
                "      <state id='\(name)\(i)'><transition event='step' target='\(name)\((i + 1) % count)'/>"
                    + "<transition event='jump' cond=\"In('\(other)\(i)')\" target='\(name)\((i * 7) % count)'/>"
                    + "<transition event='end' target='\(end)'/></state>"
            }
            return "    <state id='\(name)' initial='\(name)0'>\n      <history id='\(name)History' type='deep'>"
                + "<transition target='\(name)0'/></history>\n" + states.joined(separator: "\n")
                + (parallel ? "\n      <final id='\(name)Done'/>" : "") + "\n    </state>"
        }
        let body = region("audio", other: "video") + "\n" + region("video", other: "audio")
        let doneEvent = parallel ? "<transition event='done.state.playing' target='idle'/>" : ""
        return try FlowFile.parseSCXML("""
        <scxml xmlns="http://www.w3.org/2005/07/scxml" name="player" initial="idle">
          <state id="idle"><transition event="play" target="playing"/><transition event="resume" target="audioHistory"/></state>
          <\(parallel ? "parallel" : "state") id="playing">
            <transition event="reset" target="\(parallel ? "audio1 video1" : "audio1")"/>
            \(doneEvent)
        \(body)
          </\(parallel ? "parallel" : "state")>
        </scxml>
        """, file: "player.scxml")
    }

    @Test("Big generated flows compile without warnings against Flowstate: flat, deep, parallel with history, In() and completions")
    func bigFlowCompiles() throws {
        let modules = try #require(SwiftGeneratorTests.builtModules, "the test binary's modules folder")
        let swiftc = try #require(SwiftGeneratorTests.swiftc, "swiftc on PATH")
        let folder = try Scratch()
        let parallel = try Self.player(25).swiftSource(typeName: "Player")
        let nested = try Self.player(25, parallel: false).swiftSource(typeName: "NestedPlayer")
        for source in [parallel, nested] {
            #expect(source.contains("definitionPart10(") && Self.bodySizes(source).allSatisfy { $0 <= DefinitionWriter.bodyLimit })
        }
        #expect(parallel.contains("On(Event.jump, guard: .in(State.video3), to: State.audio21)"), "\(parallel)")
        #expect(parallel.contains("On(done: State.playing, to: State.idle)") && parallel.contains("On(Event.reset, to: [State.audio1, State.video1])"))
        #expect(nested.contains("static func isActive(") && nested.contains("History(State.audioHistory, .deep, default: State.audio0)"))
        let source = try Self.flat(150).swiftSource() + "\n" + Self.deep(40).swiftSource() + "\n" + parallel + "\n" + nested
        let file = try folder.file("Big.swift", source)
        let (status, text) = try SwiftGeneratorTests.typecheck(file, swiftc: swiftc, modules: modules, ["-warnings-as-errors"])
        #expect(status == 0, "\(text.prefix(3000))")
    }
}
