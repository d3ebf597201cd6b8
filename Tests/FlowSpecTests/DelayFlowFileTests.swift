import FlowGraph
@testable import FlowSpec
import Flowstate
import FlowstateExamples
import FlowSpecTestSupport
import Foundation
import Testing

/// Delayed transitions in flow files (issue 25, "Flow files carry delays"): JSON's `"after"`, SCXML's
/// `<send delay>`/`<cancel>` idiom, validated by the engine, drawn `after 30s`, simulated on virtual
/// time, explored (time passing is an edge), and generated as `After`. The two-factor code screen of
/// `Examples/Flows/TwoFactorCode.swift`, with an expiry after 5 minutes, in both formats.
@Suite("Delayed transitions in flow files")
struct DelayFlowFileTests {
    static func text(_ name: String) throws -> String {
        let url = try flowFile(name)
        return try String(contentsOf: url, encoding: .utf8)
    }

    static func json() throws -> FlowFile { try FlowFile.parse(try text("two-factor-code.json"), file: "two-factor-code.json") }
    static func scxml() throws -> FlowFile {
        try FlowFile.parseSCXML(try text("two-factor-code.scxml"), file: "two-factor-code.scxml")
    }

    /// Each transition as `source: after 30s [guard] -> target / effects`, in document order.
    static func transitions(_ spec: FlowFile) -> [String] {
        spec.transitionsInDocumentOrder.map { source, t in
            "\(source): \(t.eventLabel ?? "-")" + (t.guardName.map { " [\($0)]" } ?? "") + " -> \(t.target ?? "-")"
                + (t.effects.isEmpty ? "" : " / " + t.effects.joined(separator: ", "))
        }
    }

    static let expected = [
        "entering: submitCode [6 digits] -> verified",
        "entering: submitCode -> - / showError(wrong code)",
        "entering: cancel -> cancelled",
        "entering: after 5min -> expired",
        "waiting: after 30s -> canResend / showResend",
        "canResend: resend -> waiting / hideResend, sendCode",
    ]

    // MARK: Reading and writing

    @Test("JSON: 'after' reads as a delay, and the spec writes back to the same bytes")
    func jsonReadsAndWrites() throws {
        let spec = try Self.json()
        #expect(Self.transitions(spec) == Self.expected)
        let delays = spec.transitionsInDocumentOrder.compactMap(\.transition.delay)
        #expect(delays == [.seconds(300), .seconds(30)])
        #expect(spec.transitionsInDocumentOrder.allSatisfy { $0.transition.delay == nil || $0.transition.event == nil })
        #expect(spec.json() == (try Self.text("two-factor-code.json")))
    }

    @Test("JSON: a delay is a number of seconds or a string with a unit (ms, s, min, h), read exactly", arguments: [
        ("30", Duration.seconds(30)), ("0.5", .milliseconds(500)), ("\"30s\"", .seconds(30)), ("\"500ms\"", .milliseconds(500)),
        ("\"1.5s\"", .milliseconds(1500)), ("\"5min\"", .seconds(300)), ("\"1h\"", .seconds(3600)), ("\"0.1s\"", .milliseconds(100)),
        ("\"2.5min\"", .seconds(150)), ("\"0s\"", .zero), ("\"-2s\"", .seconds(-2)),
    ])
    func delayFormats(text: String, expected: Duration) throws {
        let spec = try FlowFile.parse("""
        { "flowspec": 1, "name": "f", "initial": "a",
          "states": [ { "name": "a", "transitions": [ { "after": \(text), "target": "b" } ] }, { "name": "b" } ] }
        """, file: "f.json")
        #expect(spec.states[0].transitions[0].delay == expected)
        #expect(spec.states[0].transitions[0].event == nil)
        // Written back as the diagram labels it, and read back to the same delay.
        let again = try FlowFile.parse(spec.json(), file: "f.json")
        #expect(again.states[0].transitions[0].delay == expected)
    }

    @Test("JSON: a bad delay is an error at its file:line:column", arguments: [
        ("\"30 seconds\"", "f.json:2:58: error: 'after' is '30 seconds', not a delay: a number of seconds or a string such as \"30s\", \"500ms\", \"1.5s\" or \"5min\" (units: ms, s, min, h)"),
        ("\"s\"", "f.json:2:58: error: 'after' is 's', not a delay: a number of seconds or a string such as \"30s\", \"500ms\", \"1.5s\" or \"5min\" (units: ms, s, min, h)"),
        ("true", "f.json:2:58: error: 'after' in a transition must be a delay: a number of seconds or a string such as \"30s\", \"500ms\", \"1.5s\" or \"5min\", not a boolean"),
    ])
    func badDelays(text: String, message: String) throws {
        do {
            _ = try FlowFile.parse("""
            { "flowspec": 1, "name": "f", "initial": "a",
              "states": [ { "name": "a", "transitions": [ { "after": \(text), "target": "b" } ] }, { "name": "b" } ] }
            """, file: "f.json")
            Issue.record("a bad delay was read")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("JSON: a delayed transition has no event, one target at most, and is not internal")
    func delayedTransitionShape() throws {
        for (fields, message) in [
            ("\"event\": \"go\", \"after\": \"1s\", \"target\": \"b\"", "a transition has an 'event' or an 'after' (a delay), not both"),
            ("\"after\": \"1s\", \"target\": [\"b\", \"c\"]", "a delayed transition ('after') has one 'target' or none, not several"),
            ("\"after\": \"1s\", \"target\": \"b\", \"internal\": true", "a delayed transition ('after') cannot be 'internal'"),
        ] {
            do {
                _ = try FlowFile.parse("""
                { "flowspec": 1, "name": "f", "initial": "a",
                  "states": [ { "name": "a", "transitions": [ { \(fields) } ] }, { "name": "b" }, { "name": "c" } ] }
                """, file: "f.json")
                Issue.record("read: \(fields)")
            } catch {
                #expect(error.message == message)
                #expect(error.location.line == 2)
            }
        }
        // Targetless: a delayed effect, allowed (as a typed `After(_:to: nil)`).
        let targetless = try FlowFile.parse("""
        { "flowspec": 1, "name": "f", "initial": "a",
          "states": [ { "name": "a", "transitions": [ { "after": "1s", "effects": ["ping"] } ] } ] }
        """, file: "f.json")
        #expect(targetless.validate().filter { $0.severity == .error }.isEmpty)
    }

    @Test("SCXML: the <send delay>/<cancel> idiom reads as the delayed transitions the JSON file declares")
    func scxmlIdiom() throws {
        let spec = try Self.scxml()
        #expect(Self.transitions(spec) == Self.expected)
        let entering = spec.states[0]
        #expect(entering.entry == ["sendCode"])  // the idiom's send and cancel are not effects
        #expect(entering.exit.isEmpty && entering.onExit.isEmpty)
        #expect(spec.states[0].states[0].onEntry.isEmpty)
        #expect(spec.validate().isEmpty, "\(spec.validate())")
    }

    @Test("SCXML: a delayed transition is written as the idiom, which reads back to the same spec, stably")
    func scxmlRoundTrip() throws {
        for spec in [try Self.scxml(), try Self.json()] {
            let written = spec.scxml()
            let back = try FlowFile.parseSCXML(written, file: "two-factor-code.scxml")
            #expect(Self.transitions(back) == Self.expected, "written:\n\(written)")
            #expect(back.scxml() == written)
            if spec.semantics == .scxml {
                #expect(back.json() == spec.json())
                #expect(canonical(back) == canonical(spec))
            }
        }
        // The events and ids are made from the states' names, numbered past the names the document uses.
        let written = try Self.json().scxml()
        #expect(written.contains("<send event=\"after_entering\" delay=\"300s\" id=\"after_entering\"/>"), "\(written)")
        #expect(written.contains("<cancel sendid=\"after_waiting\"/>"))
        #expect(written.contains("<transition event=\"after_waiting\" target=\"canResend\">"))
        var taken = try Self.json()
        taken.states[0].states[1].transitions[0].event = "after_waiting"  // canResend's event now takes the name
        let renamed = taken.scxml()
        #expect(renamed.contains("<send event=\"after_waiting-2\" delay=\"30s\" id=\"after_waiting-2\"/>"), "\(renamed)")
        let back = try FlowFile.parseSCXML(renamed, file: "t.scxml")
        #expect(back.states[0].states[0].transitions[0].delay == .seconds(30))
        #expect(back.states[0].states[1].transitions[0].event == "after_waiting")
    }

    @Test("SCXML: a <send delay> that is not the idiom keeps its meaning, a delayed event", arguments: [
        // The event is sent elsewhere too.
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a">
          <state id="a">
            <onentry><send event="t" delay="1s" id="x"/></onentry>
            <onexit><cancel sendid="x"/></onexit>
            <transition event="t" target="b"/>
            <transition event="poke"><send event="t"/></transition>
          </state>
          <state id="b"/>
        </scxml>
        """,
        // Not cancelled on exit.
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a">
          <state id="a">
            <onentry><send event="t" delay="1s" id="x"/></onentry>
            <transition event="t" target="b"/>
          </state>
          <state id="b"/>
        </scxml>
        """,
        // Sent with other content in its <onentry>.
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a">
          <state id="a">
            <onentry><log label="hi"/><send event="t" delay="1s" id="x"/></onentry>
            <onexit><cancel sendid="x"/></onexit>
            <transition event="t" target="b"/>
          </state>
          <state id="b"/>
        </scxml>
        """,
        // Another transition's descriptor matches the event.
        """
        <scxml xmlns="http://www.w3.org/2005/07/scxml" initial="a">
          <state id="a">
            <onentry><send event="t.x" delay="1s" id="x"/></onentry>
            <onexit><cancel sendid="x"/></onexit>
            <transition event="t.x" target="b"/>
          </state>
          <state id="b"><transition event="t" target="a"/></state>
        </scxml>
        """,
    ])
    func notTheIdiom(document: String) throws {
        let spec = try FlowFile.parseSCXML(document, file: "t.scxml")
        #expect(spec.transitionsInDocumentOrder.allSatisfy { $0.transition.delay == nil })
        #expect(spec.states[0].onEntry.count == 1)
        // Still a delayed event: the state is left after a second.
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        try simulation.advance(by: 999)
        #expect(simulation.configuration == ["a"])
        try simulation.advance(by: 1)
        #expect(simulation.configuration == ["b"])
    }

    // MARK: Validation and drawing

    @Test("Validation: the engine's invalid-delay rules, at the file's places")
    func validation() throws {
        let spec = try FlowFile.parse("""
        { "flowspec": 1, "name": "f", "initial": "a",
          "states": [ { "name": "a", "transitions": [ { "after": "0s", "target": "b" }, { "after": -1, "target": "b" } ] },
                      { "name": "b", "states": [ { "name": "h", "history": "shallow", "transitions": [ { "after": "1s", "target": "c" } ] },
                                                 { "name": "c" } ] },
                      { "name": "d", "final": true, "transitions": [ { "after": "1s", "target": "a" } ] } ] }
        """, file: "f.json")
        let delays = spec.validate().filter { $0.kind == .invalidDelay }.map(\.description)
        #expect(delays == [
            "f.json:2:47: error: delayed transition from 'a' has delay 0s: a delay must be positive",
            "f.json:2:81: error: delayed transition from 'a' has delay -1s: a delay must be positive",
            "f.json:5:62: error: delayed transition declared on final state 'd', which never waits: declare it on a state the flow rests in",
            "f.json:3:96: error: delayed transition declared on history 'h', which never waits: declare it on a state the flow rests in",
        ])
        // The same rules as a typed flow's `After`.
        let typed = FlowDefinition<StringFlow>("f", initial: "a") {
            StateNode("a") { After(.zero, to: "b") }
            StateNode("b")
        }.validate().filter { $0.kind == .invalidDelay }
        #expect(typed.map(\.message) == ["delayed transition from 'a' has delay 0s: a delay must be positive"])
    }

    @Test("Drawing: the edge label 'after 30s' comes from the definition's graph, as a typed flow's does")
    func drawing() throws {
        for spec in [try Self.json(), try Self.scxml()] {
            let graph = FlowDiagram(spec)
            let labels = Set(graph.edges.map(\.label))
            #expect(labels.isSuperset(of: ["after 30s / showResend", "after 5min"]), "\(labels)")
            #expect(DOTWriter.dot(graph).contains("after 30s"))
        }
        // The typed example draws its delay the same way.
        let typed = FlowDiagram(TwoFactorCode.definition)
        #expect(typed.edges.contains { $0.label == "after 30s / showResend" })
    }

    // MARK: Running

    @Test("Simulate: timers fire on virtual time, are cancelled when their state is left, and re-armed on re-entry")
    func simulates() throws {
        for spec in [try Self.json(), try Self.scxml()] {
            let simulation = try FlowSimulation(spec)
            try simulation.start()
            #expect(simulation.configuration == ["waiting", "entering"])
            try simulation.advance(by: 29_999)
            #expect(simulation.configuration == ["waiting", "entering"])
            try simulation.advance(by: 1)
            #expect(simulation.configuration == ["canResend", "entering"])
            try simulation.send("resend")  // at 30s: the resend timer is armed again, due at 60s
            try simulation.perform(.wait(milliseconds: 30_000))
            #expect(simulation.configuration == ["canResend", "entering"])
            try simulation.advance(by: 240_000)  // 5 minutes after the start: expired
            #expect(simulation.isFinished)
            #expect(simulation.configuration == ["expired"])
            let lines = simulation.records.map(\.description)
            #expect(lines == [
                "start --> waiting / sendCode",
                "at 30s: after 30s (delayed)",
                "waiting --after 30s--> canResend / showResend",
                "canResend --resend--> waiting / hideResend, sendCode",
                "at 60s: after 30s (delayed)",
                "waiting --after 30s--> canResend / showResend",
                "at 300s: after 5min (delayed)",
                "canResend --after 5min--> expired",
                "finished: expired",
            ], "\(lines)")
            // The trace names the file's transitions, for render --trace.
            #expect(simulation.trace.steps.map(\.event) == [nil, "after 30s", "resend", "after 30s", "after 5min"])
        }
    }

    @Test("Simulate: a timer whose state was left never fires; the end of a script does not wait for timers")
    func cancelledTimers() throws {
        let simulation = try FlowSimulation(try Self.json())
        try simulation.start()
        try simulation.send(SpecEvent("submitCode", guards: ["6 digits": true]))
        #expect(simulation.isFinished)
        #expect(simulation.nextDelayedEvent == nil)
        let waiting = try FlowSimulation(try Self.json())
        try waiting.start()
        try waiting.runDelayedEvents()  // no delayed <send>: time does not pass
        #expect(waiting.now == 0)
        #expect(waiting.configuration == ["waiting", "entering"])
        #expect(waiting.nextDelayedEvent == 30_000)
    }

    @Test("Simulation scripts: 'wait D' lets time pass; a bad duration is an error naming the step")
    func scripts() throws {
        let inputs = try FlowSimulation.Input.list("resend, wait 30s, submitCode[6 digits], wait 1.5s, wait 5min").get()
        #expect(inputs == [.event("resend"), .wait(milliseconds: 30_000), .event(SpecEvent("submitCode", guards: ["6 digits": true])),
                           .wait(milliseconds: 1500), .wait(milliseconds: 300_000)])
        #expect(inputs.map(\.description) == ["resend", "wait 30s", "submitCode[6 digits]", "wait 1.5s", "wait 300s"])
        switch FlowSimulation.Input.list("resend, wait soon") {
        case .success: Issue.record("'wait soon' was read")
        case .failure(let error):
            #expect(error.description == "step 2 'wait soon': 'wait' takes a positive duration such as 30s, 500ms or 5min")
        }
    }

    @Test("Paths: time passing is an edge ('wait 30s'); every transition is covered, and each path replays in simulate")
    func paths() throws {
        for spec in [try Self.json(), try Self.scxml()] {
            let paths = try FlowFilePathfinder(spec)
            #expect(paths.unreachable.isEmpty, "\(paths.unreachable)")
            #expect(paths.uncovered.isEmpty, "\(paths.uncovered.map(\.eventLabel))")
            #expect(paths.shortestPath(to: "canResend")?.map(\.description) == ["wait 30s"])
            #expect(paths.shortestPath(to: "expired")?.map(\.description) == ["wait 30s", "wait 270s"])
            for state in ["canResend", "expired", "verified", "cancelled"] {
                let path = try #require(paths.shortestPath(to: state))
                let script = try FlowSimulation.Input.list(path.map(\.description).joined(separator: ", ")).get()
                let simulation = try FlowSimulation(spec)
                try simulation.start()
                for input in script { try simulation.perform(input) }
                #expect(simulation.configuration.first == state, "\(path)")
            }
            #expect(paths.cover.contains { $0.contains { $0.name == "wait 30s" } })
        }
    }

    // MARK: Generating Swift

    @Test("generate swift writes After(...), the line the typed example declares")
    func generatesAfter() throws {
        let source = try Self.json().swiftSource(typeName: "TwoFactorCodeFile")
        #expect(source.contains("After(.seconds(30), to: State.canResend, effects: [Effect.showResend])"), "\(source)")
        #expect(source.contains("After(.seconds(300), to: State.expired)"))
        // The typed example's declaration: the same, with the implicit members a person writes (the
        // generator names each value's type, which type-checks faster: docs/PERFORMANCE.md).
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/Flows/TwoFactorCode.swift")
        let typed = try String(contentsOf: example, encoding: .utf8)
        #expect(typed.contains("After(.seconds(30), to: .canResend, effects: [.showResend])"))
        #expect(try Self.scxml().swiftSource(typeName: "TwoFactorCodeFile").contains("After(.seconds(300), to: State.expired)"))
        #expect(SwiftFlowWriter.durationExpression(.milliseconds(1500)) == ".milliseconds(1500)")
        #expect(SwiftFlowWriter.durationExpression(.seconds(5)) == ".seconds(5)")
    }

    @Test("The file is the typed example's spec, plus the expiry: the typed flow exports the same delayed transition")
    func sameAsTypedExample() throws {
        var file = try Self.json()
        // Without the expiry, the file is what the typed example exports.
        file.states[0].transitions.removeAll { $0.delay == .seconds(300) }
        file.states.removeAll { $0.name == "expired" }
        let typed = FlowFile(TwoFactorCode.definition)
        #expect(Self.transitions(file) == Self.transitions(typed))
        #expect(file.json() == typed.json())
        #expect(DOTWriter.dot(FlowDiagram(file)) == DOTWriter.dot(FlowDiagram(typed)))
    }
}
