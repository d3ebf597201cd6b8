@testable import FlowSpec
import Testing

/// SCXML's transition selection (the recommendation's `selectTransitions`, section 3.13 and
/// Appendix D) as a flow file's simulation performs it: the active atomic state's transitions first,
/// then its parent's, and so on up, each state's in document order; a transition's event descriptor
/// matches every event name it is a dotted-token prefix of, whatever other descriptors the file has.
/// `make mutate` checks that these tests fail when the engine tries ancestors first
/// (`scxml-ancestor-first`) or a descriptor misses the names of a longer descriptor of the file
/// (`scxml-prefix-ignored`).
@Suite("SCXML transition selection: the atomic state first, then its ancestors; descriptors by dotted prefix")
struct InterpreterSelectionTests {
    /// The configuration (innermost state first) after starting the document and sending `events`.
    func configuration(_ text: String, after events: [SpecEvent]) throws -> [String] {
        let simulation = try FlowSimulation(try FlowFile.parseSCXML(text, file: "t.scxml"))
        try simulation.start()
        for event in events { try simulation.send(event) }
        return simulation.configuration
    }

    /// `go` is handled by the atomic state, by its parent and by the top-level state, each declared
    /// before its children, so document order alone would pick the outermost one.
    static let nested = """
    <scxml initial="top">
      <state id="top" initial="middle">
        <transition event="go" target="byTop"/>
        <transition event="other" target="byTop"/>
        <state id="middle" initial="leaf">
          <transition event="go" target="byMiddle"/>
          <transition event="go.fast" target="byMiddle"/>
          <state id="leaf">
            <transition event="go" cond="leafReady" target="byLeaf"/>
          </state>
        </state>
      </state>
      <final id="byTop"/><final id="byMiddle"/><final id="byLeaf"/>
    </scxml>
    """

    @Test("A descendant's transition preempts its ancestors', though they come first in the document")
    func descendantFirst() throws {
        #expect(try configuration(Self.nested, after: ["go"]) == ["byLeaf"])
        // The leaf's guard fails: its parent's transition is next, before the top-level state's.
        #expect(try configuration(Self.nested, after: [SpecEvent("go", guards: ["leafReady": false])]) == ["byMiddle"])
        // Only an ancestor handles the event: it is taken from the leaf.
        #expect(try configuration(Self.nested, after: ["other"]) == ["byTop"])
    }

    @Test("The nearer state's transition wins over a more specific descriptor further up")
    func nearerBeatsMoreSpecific() throws {
        // `go.fast`: the leaf's `go` matches it (dotted prefix) and is selected before the parent's
        // more specific `go.fast`, because the leaf is searched first.
        #expect(try configuration(Self.nested, after: ["go.fast"]) == ["byLeaf"])
        #expect(try configuration(Self.nested, after: [SpecEvent("go.fast", guards: ["leafReady": false])])
                == ["byMiddle"])
    }

    /// `error` in `a`, the longer `error.send` in `b`: the file has both descriptors.
    static let prefixes = """
    <scxml initial="a">
      <state id="a">
        <transition event="error" target="general"/>
        <transition event="toB" target="b"/>
      </state>
      <state id="b">
        <transition event="error.send" target="specific"/>
      </state>
      <final id="general"/><final id="specific"/>
    </scxml>
    """

    @Test("A descriptor matches the names of a longer descriptor of the file, and the names below it")
    func prefixMatchesLongerDescriptors() throws {
        #expect(try configuration(Self.prefixes, after: ["error"]) == ["general"])
        #expect(try configuration(Self.prefixes, after: ["error.send"]) == ["general"], "'error' matches 'error.send'")
        #expect(try configuration(Self.prefixes, after: ["error.send.failed"]) == ["general"])
        #expect(try configuration(Self.prefixes, after: ["error.execution"]) == ["general"])
        #expect(try configuration(Self.prefixes, after: ["errors"]) == ["a"], "a token prefix, not a string prefix")
    }

    @Test("A longer descriptor matches its own names and those below it, never a shorter name")
    func longerDescriptorMatchesOnlyBelowIt() throws {
        #expect(try configuration(Self.prefixes, after: ["toB", "error.send"]) == ["specific"])
        #expect(try configuration(Self.prefixes, after: ["toB", "error.send.failed"]) == ["specific"])
        #expect(try configuration(Self.prefixes, after: ["toB", "error"]) == ["b"])
        #expect(try configuration(Self.prefixes, after: ["toB", "error.execution"]) == ["b"])
    }
}
