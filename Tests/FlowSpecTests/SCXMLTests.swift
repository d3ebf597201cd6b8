@testable import FlowGraph
@testable import FlowSpec
import FlowSpecTestSupport
import Flowstate
import FlowstateExamples
import Foundation
import PropertyBased
import Testing

@Suite("SCXML: reading, writing, simulating")
struct SCXMLTests {
    @Test("The structure is read: nesting, <initial>, finals with donedata, conditions, events lists, executable content")
    func reads() throws {
        let spec = try readSpec("door.scxml")
        #expect(spec.name == "door" && spec.initial == "closed" && spec.semantics == .scxml)
        let index = SpecIndex(spec)
        #expect(index.order == ["closed", "opening", "open", "wide", "ajar", "shutDone", "checking", "broken"])
        #expect(index.parent["ajar"] == "open")
        #expect(index.states["open"]?.initial == nil, "the <initial> names the first child: kept implicit")
        #expect(index.states["opening"]?.entry == ["raise(opened.fully)"])
        #expect(index.states["closed"]?.entry == ["show closed"])
        #expect(index.states["broken"]?.output == "needs repair")
        #expect(index.states["shutDone"]?.isFinal == true)
        #expect(index.transitions.first { $0.source == "wide" }?.transition.event == "narrow knock")
        #expect(spec.definition().validate().filter { $0.severity == .error }.isEmpty)
    }

    @Test("Malformed or unsupported SCXML: one error with its line and column", arguments: [
        ("<scxml><state id='a'></scxml>", "1:24", "</scxml> closes <state>"),
        ("<scxml><state id='a'><history id='h' type='wide'/></state></scxml>", "1:38", "<history type=\"wide\">: use shallow or deep"),
        ("<scxml><stat id='a'/></scxml>", "1:8", "unknown element <stat> in <scxml>"),
        ("<!DOCTYPE x [<!ENTITY a 'b'>]><scxml/>", "1:1", "a DOCTYPE is not allowed"),
        ("<scxml><state id='a'><transition event='e' target='  '/></state></scxml>", "1:44", "'target' is empty"),
        ("<scxml>\n  <state id='a' x='1' x='2'/></scxml>", "2:23", "attribute 'x' is given twice"),
        ("<scxml><state id='a &bogus;'/></scxml>", "1:21", "unknown entity '&bogus;'"),
        ("<html/>", "1:1", "the root element is <html>, not <scxml>"),
        ("<scxml initial='a'></scxml>", "1:8", "<scxml> names an initial state 'a' but contains no <state>"),
        ("<scxml><qt:editorinfo/></scxml>", "1:8", "the namespace prefix 'qt' is not declared"),
        ("   ", "1:4", "the file is empty"),
        ("<scxml><state id='a'><transition event='e' type='sideways' target='a'/></state></scxml>", "1:44",
         "<transition type=\"sideways\">: use external or internal"),
        ("<scxml><state id='a'><onentry><send event='e' delay='soon'/></onentry></state></scxml>", "1:47",
         "<send delay=\"soon\"> is not a duration"),
    ])
    func errors(text: String, place: String, message: String) {
        do {
            let spec = try FlowFile.parseSCXML(text, file: "bad.scxml")
            Issue.record("parsed: \(spec.json())")
        } catch {
            #expect(error.description.hasPrefix("bad.scxml:\(place)"), "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test("Entities and character references are decoded; the writer escapes what it must")
    func entities() throws {
        let spec = try FlowFile.parseSCXML("<scxml><state id='a&amp;b&#x4E2D;&lt;'/></scxml>", file: "e.scxml")
        #expect(spec.states.first?.name == "a&b中<")
        let back = try FlowFile.parseSCXML(spec.scxml(), file: "e.scxml")
        #expect(back.states.first?.name == "a&b中<")
    }

    @Test("SCXML round trip for generated flows: spec to SCXML to spec writes the same spec")
    func roundTrip() async {
        await propertyCheck(count: 200, input: SpecGenerator.genes) { genes in
            let spec = SpecGenerator.spec(genes)
            let text = spec.scxml()
            let back = try FlowFile.parseSCXML(text, file: "g.scxml")
            var expected = spec
            expected.semantics = .scxml
            #expect(back.json() == expected.json(), "\(text)")
            #expect(back.scxml() == text, "writing is stable")
            #expect(FlowDiagram(back) == FlowDiagram(expected))
        }
    }

    @Test("The example flows survive SCXML and draw the same graph")
    func examplesRoundTrip() throws {
        for definition in [SignUp.definition] {
            let spec = FlowFile(definition)
            let back = try FlowFile.parseSCXML(spec.scxml(), file: "sign-up.scxml")
            #expect(FlowDiagram(back.definition()) == FlowDiagram(definition))
        }
    }

    @Test("Simulation follows SCXML: dotted-prefix matching, raise before the next event, done.state, In(), eventless")
    func simulates() throws {
        let simulation = try FlowSimulation(try readSpec("door.scxml"))
        try simulation.start()
        #expect(simulation.configuration == ["closed"])
        try simulation.send("open")  // guard 'unlocked' defaults to true; raise(opened.fully) matches 'opened'
        #expect(simulation.configuration == ["wide", "open"])
        try simulation.send("close")  // In('ajar') is false
        #expect(simulation.configuration == ["wide", "open"])
        try simulation.send("knock")  // the second descriptor of 'narrow knock'
        try simulation.send("close")
        #expect(simulation.configuration == ["closed"])
        try simulation.send(SpecEvent("open", guards: ["unlocked": false]))
        #expect(simulation.configuration == ["closed"])
        try simulation.send("open")
        try simulation.send("narrow")
        try simulation.send("shut")  // shutDone is a nested final: done.state.open takes the flow to closed
        #expect(simulation.configuration == ["closed"])
        #expect(!simulation.isFinished)
        try simulation.send("open")
        try simulation.send(SpecEvent("slam", guards: ["cracked": false]))  // the decision state's second branch
        #expect(simulation.configuration == ["closed"])
        try simulation.send("error.hinge")  // 'error' matches 'error.hinge'
        #expect(simulation.isFinished)
        #expect(simulation.records.last == .finished(machine: [], output: "needs repair"))
        #expect(throws: FlowSimulation.Problem.self) { try simulation.send("open") }
        let internalSteps = simulation.records.filter {
            if case .transitioned(_, _, _, _, true, _) = $0 { true } else { false }
        }
        #expect(internalSteps.count == 4, "opened.fully twice, done.state.open once, and no other")
    }

    @Test("A child flow runs as a child machine; its output reaches the parent as an event; it is torn down")
    func children() throws {
        let login = try readSpec("login.json")
        let simulation = try FlowSimulation(try readSpec("checkout.json"), children: { $0 == "login" ? login : nil })
        try simulation.start()
        try simulation.send("checkout")
        #expect(simulation.machines == ["checkout: signingIn", "  login: form"])
        try simulation.send(SpecEvent("submit", guards: ["valid": false]))
        #expect(simulation.records.suffix(2) == [
            .unhandled(machine: [], state: "signingIn", event: "submit[!valid]", rejected: false),
            .unhandled(machine: ["login"], state: "form", event: "submit[!valid]", rejected: true),
        ], "the root ignores it; the child flow it is forwarded to rejects it")
        #expect(simulation.unhandledEvents == [SpecEvent("submit", guards: ["valid": false])])
        try simulation.send("submit")
        #expect(simulation.configuration == ["paying"])
        #expect(simulation.machines == ["checkout: paying"], "no zombie child")
        try simulation.send("pay")
        #expect(simulation.isFinished)
        #expect(throws: FlowSimulation.Problem.self) {
            _ = try FlowSimulation(try readSpec("checkout.json"))  // the child is missing
        }
    }

    @Test("A raise loop is stopped with an error, not a hang")
    func raiseLoop() throws {
        let spec = try FlowFile.parseSCXML("""
        <scxml initial="a"><state id="a"><transition event="go" target="b"/></state>
          <state id="b"><onentry><raise event="go"/></onentry><transition event="go" target="b"/></state></scxml>
        """, file: "loop.scxml")
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        #expect(throws: FlowSimulation.Problem.self) { try simulation.send("go") }
    }

    @Test("Parallel states are drawn, simulated (every region active) and explored")
    func parallel() throws {
        let spec = try FlowFile.parseSCXML("""
        <scxml initial="p"><parallel id="p"><state id="x"/><state id="y"/></parallel></scxml>
        """, file: "p.scxml")
        #expect(DOTWriter.dot(FlowDiagram(spec)).contains("style=\"dashed,rounded\""))
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        #expect(simulation.configuration == ["y", "x", "p"])
        #expect(try FlowFilePathfinder(spec).reached == ["p", "x", "y"])
    }

    @Test("Event lists with guard truths: printing and reading agree")
    func eventList() async throws {
        #expect(SpecEvent(parsing: "submit[valid email, !locked]") == SpecEvent("submit", guards: ["valid email": true, "locked": false]))
        #expect(try SpecEvent.list("a, b[x,!y] ,c").get() == ["a", SpecEvent("b", guards: ["x": true, "y": false]), "c"])
        #expect((try? SpecEvent.list("a,,b").get()) == nil)
        #expect((try? SpecEvent.list("a[b").get()) == nil)
        let names = ["a", "b c", "é", "x.y", "-"]
        await propertyCheck(input: Gen.int(in: 0...4).array(of: 1...4), Gen.bool.array(of: 0...3)) { picks, truths in
            let guards = picks.dropFirst().map { names[$0] }
            let event = SpecEvent(names[picks[0]], guards: Dictionary(zip(guards, truths), uniquingKeysWith: { a, _ in a }))
            #expect(SpecEvent(parsing: Substring(event.description)) == event)
        }
    }
}

@Suite("Paths: shortest paths and transition cover")
struct PathsTests {
    @Test("The door's paths: every state, transient ones marked, and a cover that takes every transition")
    func door() throws {
        let paths = try FlowFilePathfinder(try readSpec("door.scxml"))
        let open = SpecEvent("open", guards: ["unlocked": true])
        #expect(paths.shortestPath(to: "ajar") == [open, "narrow"])
        #expect(paths.shortestPath(to: "opening") == [open])
        #expect(paths.isPassedThrough("opening") && !paths.isPassedThrough("ajar"))
        #expect(paths.unreachable.isEmpty)
        #expect(paths.uncovered.isEmpty)
    }

    @Test("Every shortest path replays in the simulation to its state; the cover takes every transition it claims")
    func replay() async {
        await propertyCheck(count: 200, input: SpecGenerator.genes) { genes in
            let spec = SpecGenerator.spec(genes)
            guard !spec.definition().validate().contains(where: { $0.severity == .error }) else { return }
            let paths = try FlowFilePathfinder(spec)
            for state in paths.reached {
                let events = try #require(paths.shortestPath(to: state))
                let simulation = try FlowSimulation(spec)
                try simulation.start()
                for event in events { try simulation.send(event) }
                #expect(simulation.configuration.contains(state), "\(state) by \(events): \(simulation.records)\n\(spec.json())")
            }
            var taken: Set<Int> = []
            for sequence in paths.cover {
                let simulation = try FlowSimulation(spec)
                try simulation.start()
                for event in sequence { try simulation.send(event) }
                taken.formUnion(simulation.takenTransitions)
            }
            #expect(taken.count == paths.transitionCount - paths.uncovered.count, "\(spec.json())")
            // What is not covered is unreachable or shadowed: never taken by any single step either.
            #expect(paths.unreachable.allSatisfy { paths.shortestPath(to: $0) == nil })
        }
    }
}

/// Generated flow files: nested states, finals, events with dotted names, guards (named, literal and
/// In()), targetless transitions, effects; either semantics.
enum SpecGenerator {
    static let genes = Gen.int(in: 0...999).array(of: 4...60)

    static func spec(_ genes: [Int]) -> FlowFile {
        var g = genes.makeIterator()
        func next() -> Int { g.next() ?? 0 }
        let count = 2 + next() % 7
        var parents: [Int?] = [nil]
        var finals: Set<Int> = []
        for i in 1..<count {
            let p = next() % (i + 2)
            parents.append(p < i && !finals.contains(p) ? p : nil)
            if next() % 5 == 0 { finals.insert(i) }
        }
        // A final state holds nothing: its would-be children go to the top level.
        for i in 0..<count where parents[i].map(finals.contains) == true { parents[i] = nil }
        let events = ["a", "b", "a.x", "c"]
        let guards: [String?] = [nil, nil, "g", "h", "true", "In('s1')"]
        var transitions: [Int: [FlowFile.Transition]] = [:]
        while let gene = g.next() {
            let source = gene % count
            guard !finals.contains(source) else { continue }
            let target = next() % (count + 1)
            var t = FlowFile.Transition(event: events[next() % events.count], guardName: guards[next() % guards.count],
                                        target: target == count ? nil : "s\(target)")
            if next() % 3 == 0 { t.effects = ["e\(gene % 4)"] }
            transitions[source, default: []].append(t)
        }
        func make(_ i: Int) -> FlowFile.State {
            var state = FlowFile.State(name: "s\(i)")
            state.isFinal = finals.contains(i)
            state.transitions = transitions[i] ?? []
            state.states = (0..<count).filter { parents[$0] == i }.map(make)
            return state
        }
        let top = (0..<count).filter { parents[$0] == nil }
        var spec = FlowFile(name: "g", initial: "s\(top.first { !finals.contains($0) } ?? top[0])", states: top.map(make))
        if genes.first.map({ $0 % 2 == 0 }) == true { spec.semantics = .scxml }
        return spec
    }
}
