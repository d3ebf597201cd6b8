import FlowGraph
@testable import FlowSpec
import Flowstate
import Testing

/// The SCXML driver against the W3C recommendation's rules, one regression test per problem the
/// flow files issue listed.
@Suite("SCXML driver: queues, time, targets, conditions, limits")
struct SCXMLDriverTests {
    func simulate(_ text: String, events: [SpecEvent] = []) throws -> FlowSimulation {
        let simulation = try FlowSimulation(try FlowFile.parseSCXML(text, file: "t.scxml"))
        try simulation.start()
        for event in events { try simulation.send(event) }
        return simulation
    }

    @Test("'*' beside a specific transition: document order selects, validation warns (shadowed), simulate runs")
    func documentOrder() throws {
        let text = """
        <scxml initial="a">
          <state id="a">
            <transition event="*" target="any"/>
            <transition event="go" target="specific"/>
          </state>
          <state id="b">
            <transition event="go" target="specific"/>
            <transition event="*" target="any"/>
          </state>
          <final id="any"/><final id="specific"/>
        </scxml>
        """
        let spec = try FlowFile.parseSCXML(text, file: "t.scxml")
        let issues = spec.validate()
        #expect(issues.allSatisfy { $0.severity == .warning }, "\(issues)")
        #expect(issues.filter { $0.kind == .shadowedTransition }.map { $0.location?.line } == [4],
                "only 'go' after '*' is dead; '*' after 'go' still takes other events")
        #expect(try simulate(text, events: ["go"]).configuration == ["any"])
    }

    @Test("Events a document sends itself while starting are processed, before later events")
    func sendsAtStart() throws {
        let simulation = try simulate("""
        <scxml initial="a">
          <state id="a">
            <onentry><send event="ready"/></onentry>
            <transition event="ready" target="b"/>
            <transition event="later" target="wrong"/>
          </state>
          <state id="b"><transition event="later" target="done"/></state>
          <final id="done"/><final id="wrong"/>
        </scxml>
        """, events: ["later"])
        #expect(simulation.configuration == ["done"])
    }

    @Test("Delayed events wait on virtual time, in due order; <cancel> drops one; simulate says when each fired")
    func delayedAndCancelled() throws {
        let simulation = try simulate("""
        <scxml initial="a">
          <state id="a">
            <onentry>
              <send event="slow" delay="2s"/>
              <send event="fast" delay="500ms"/>
              <send event="never" delay="1s" id="doomed"/>
              <cancel sendid="doomed"/>
            </onentry>
            <transition event="fast" target="b"/>
            <transition event="never" target="wrong"/>
          </state>
          <state id="b"><transition event="slow" target="done"/><transition event="never" target="wrong"/></state>
          <final id="done"/><final id="wrong"/>
        </scxml>
        """)
        #expect(simulation.configuration == ["a"], "nothing fires before time moves")
        #expect(simulation.nextDelayedEvent == 500)
        try simulation.advance(by: 499)
        #expect(simulation.configuration == ["a"])
        try simulation.advance(by: 1)
        #expect(simulation.configuration == ["b"])
        try simulation.runDelayedEvents()
        #expect(simulation.configuration == ["done"])
        #expect(simulation.now == 2000)
        let fired = simulation.records.compactMap { record -> String? in
            if case .fired = record { record.description } else { nil }
        }
        #expect(fired == ["at 500ms: fast (delayed)", "at 2s: slow (delayed)"])
    }

    @Test("A clock can drive delayed events (here a test clock that never sleeps)")
    func clock() async throws {
        let simulation = try simulate("""
        <scxml initial="a">
          <state id="a"><onentry><send event="tick" delay="1.5s"/></onentry><transition event="tick" target="done"/></state>
          <final id="done"/>
        </scxml>
        """)
        let clock = TestClock()
        try await simulation.run(on: clock)
        #expect(simulation.isFinished)
        #expect(clock.slept == [.milliseconds(1500)])
    }

    @Test("<if>/<elseif>/<else> run the first branch whose condition holds; In() sees the configuration")
    func conditions() throws {
        let simulation = try simulate("""
        <scxml initial="p">
          <state id="p">
            <state id="a">
              <onentry>
                <if cond="In('b')"><raise event="wrong"/>
                <elseif cond="In('p')"/><raise event="right"/>
                <else/><raise event="wrong"/>
                </if>
              </onentry>
              <transition event="right" target="done"/>
              <transition event="wrong" target="fail"/>
            </state>
          </state>
          <final id="done"/><final id="fail"/>
        </scxml>
        """)
        #expect(simulation.configuration == ["done"])
    }

    @Test("A failing instruction raises error.execution and abandons the rest of its block")
    func errorExecution() throws {
        let simulation = try simulate("""
        <scxml initial="a">
          <state id="a">
            <onentry><send event="x" target="http://nowhere"/><raise event="notReached"/></onentry>
            <transition event="error.execution" target="done"/>
            <transition event="notReached" target="fail"/>
          </state>
          <final id="done"/><final id="fail"/>
        </scxml>
        """)
        #expect(simulation.configuration == ["done"])
    }

    @Test("A document that keeps itself busy stops at the step limit with one line, never a hang")
    func busy() throws {
        let spec = try FlowFile.parseSCXML("""
        <scxml initial="a">
          <state id="a"><onentry><send event="again"/></onentry><transition event="again" target="a"/></state>
        </scxml>
        """, file: "busy.scxml")
        let simulation = try FlowSimulation(spec)
        simulation.stepLimit = 1_000
        let problem = #expect(throws: FlowSimulation.Problem.self) { try simulation.start() }
        #expect(problem?.description.contains("more than 1000 steps") == true)
        let raising = try FlowSimulation(try FlowFile.parseSCXML("""
        <scxml initial="a">
          <state id="a"><onentry><raise event="again"/></onentry><transition event="again" target="a"/></state>
        </scxml>
        """, file: "raise.scxml"))
        let loop = #expect(throws: FlowSimulation.Problem.self) { try raising.start() }
        #expect(loop?.description.contains("internal events") == true)
    }

    @Test("An eventless loop reached through an event is reported as an eventless loop")
    func eventlessLoop() throws {
        let simulation = try simulate("""
        <scxml initial="a">
          <state id="a"><transition event="go" target="b"/></state>
          <state id="b"><transition target="c"/></state>
          <state id="c"><transition target="b"/></state>
        </scxml>
        """)
        let problem = #expect(throws: FlowSimulation.Problem.self) { try simulation.send("go") }
        #expect(problem?.description.contains("eventless") == true, "\(String(describing: problem))")
    }

    @Test("Control characters and any Unicode in names are carried, never a crash")
    func controlCharacters() throws {
        let simulation = try simulate("""
        <scxml initial="a&#1;">
          <state id="a&#1;"><transition event="g&#1;o.😀" target="b&#x202E;"/></state>
          <final id="b&#x202E;"/>
        </scxml>
        """, events: [SpecEvent("g\u{1}o.😀.x")])
        #expect(simulation.configuration == ["b\u{202E}"])
    }

    @Test("Paths explore a 100,000-state chain; each path is computed on demand")
    func longChain() throws {
        let n = 100_000
        let states = (0..<n).map { i -> FlowFile.State in
            var state = FlowFile.State(name: "s\(i)")
            if i + 1 < n { state.transitions = [FlowFile.Transition(event: "next", target: "s\(i + 1)")] }
            state.isFinal = i + 1 == n
            return state
        }
        let paths = try FlowFilePathfinder(FlowFile(name: "chain", initial: "s0", states: states))
        #expect(paths.reached.count == n)
        #expect(paths.shortestPath(to: "s\(n - 1)")?.count == n - 1)
        #expect(paths.uncovered.isEmpty)
    }
}

/// A clock that records the instants it is asked to sleep until and returns at once.
final class TestClock: Clock, @unchecked Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }
    private(set) var now = Instant(offset: .zero)
    private(set) var slept: [Duration] = []
    var minimumResolution: Duration { .zero }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        slept.append(deadline.offset)
        now = deadline
    }
}

extension SCXMLDriverTests {
    @Test("Data is refused by simulate in one line naming the element; drawing and validation still read the file")
    func dataRefused() throws {
        for (text, words) in [
            ("<scxml><datamodel><data id='x'/></datamodel><state id='a'/></scxml>", "declares data or a script"),
            ("<scxml><state id='a'><onentry><assign location='x' expr='1'/></onentry></state></scxml>", "<assign> needs a data model"),
            ("<scxml><state id='a'><onentry><send eventexpr='x'/></onentry></state></scxml>", "<send eventexpr> needs a data model"),
        ] {
            let spec = try FlowFile.parseSCXML(text, file: "data.scxml")
            #expect(!spec.validate().contains { $0.severity == .error })
            let problem = #expect(throws: FlowSimulation.Problem.self) { try FlowSimulation(spec) }
            #expect(problem?.description.contains(words) == true, "\(String(describing: problem))")
            #expect(problem?.description.hasPrefix("data.scxml:1:") == true)
        }
    }

    @Test("An invoked child: started when the macrostep ends, cancelled on exit with its exit blocks run, its late events dropped")
    func invokeLifecycle() throws {
        let simulation = try simulate("""
        <scxml initial="a">
          <state id="a">
            <invoke id="kid"><content>
              <scxml initial="k"><state id="k">
                <onentry><send event="hello" target="#_parent"/></onentry>
                <onexit><send event="late" target="#_parent"/></onexit>
              </state></scxml>
            </content></invoke>
            <transition event="hello" target="b"/>
          </state>
          <state id="b"><transition event="late" target="fail"/><transition event="go" target="done"/></state>
          <final id="done"/><final id="fail"/>
        </scxml>
        """, events: ["go"])
        #expect(simulation.configuration == ["done"], "\(simulation.records)")
        #expect(simulation.records.contains {
            if case .stopped(let machine, let reason) = $0 { machine.count == 1 && reason.hasPrefix("cancelled") } else { false }
        }, "the child was cancelled when 'a' was exited; its 'late' event, sent by its exit block, was dropped")
    }
}

extension SCXMLDriverTests {
    @Test("A block built in code whose <if> has no condition fails with error.execution, the rest abandoned")
    func conditionMissing() throws {
        var a = FlowFile.State(name: "a")
        a.onEntry = [FlowFile.Executable([.log(label: "once", expr: nil), .if([.init("", [.raise(event: "never")])]),
                                          .raise(event: "abandoned")])]
        a.transitions = [FlowFile.Transition(event: "error.execution", target: "done")]
        var done = FlowFile.State(name: "done")
        done.isFinal = true
        var spec = FlowFile(name: "loop", initial: "a", states: [a, done])
        spec.semantics = .scxml
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        #expect(simulation.configuration == ["done"])
    }
}

extension SCXMLDriverTests {
    /// `exitInterpreter` exits every state of a finished session with its `<onexit>` blocks, each on
    /// its own: a block that fails abandons itself only (error.execution), so the next block of the same
    /// state still runs. Here the second block tells the parent, which then leaves `a` before
    /// `done.invoke.kid` arrives.
    @Test("A finished child's exit: a failing <onexit> block does not skip the next block of the same state")
    func failingExitBlockAtInterpreterExit() throws {
        let simulation = try simulate("""
        <scxml initial="a">
          <state id="a">
            <invoke id="kid" autoforward="true"><content>
              <scxml initial="k">
                <state id="k"><transition event="finish" target="end"/></state>
                <final id="end">
                  <onexit><send type="http://example.com/unknown" event="never"/><send event="skipped" target="#_parent"/></onexit>
                  <onexit><send event="exited" target="#_parent"/></onexit>
                </final>
              </scxml>
            </content></invoke>
            <transition event="skipped" target="fail"/>
            <transition event="exited" target="b"/>
            <transition event="done.invoke.kid" target="fail"/>
          </state>
          <state id="b"><transition event="done.invoke.kid" target="pass"/></state>
          <final id="pass"/><final id="fail"/>
        </scxml>
        """, events: ["finish"])
        #expect(simulation.configuration == ["pass"], "\(simulation.records)")
    }
}
