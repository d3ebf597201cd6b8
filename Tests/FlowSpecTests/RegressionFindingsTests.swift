@testable import FlowSpec
import FlowSpecTestSupport
import Flowstate
import Testing

/// Bugs found while making executable content a tree and keying the path finder by the engine's key
/// (issue 41), each failing before its fix.
@Suite("Issue 41's findings in FlowSpec")
struct RegressionFindingsTests {
    /// The writer used to rebuild a top-level element from its label, and `send(event=charge,
    /// target=#_internal)` also reads as one `event`: it wrote `<send event="event=charge,
    /// target=#_internal">`, which the reader makes the same unsupported action of (a `<send>` with
    /// `<content>`), so no round trip noticed the changed event.
    @Test("A <send> with <content> is written with its own attributes, not with attributes read from its label")
    func sendWithContentKeepsItsAttributes() throws {
        let (_, written) = try expectRoundTrip(Array("""
        <scxml initial="a"><state id="a"><onentry>
          <send event="charge" target="#_internal"><content expr="1"/></send>
          <send type="http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor"><param name="p" expr="1"/></send>
        </onentry></state></scxml>
        """.utf8), file: "send.scxml")
        #expect(written.contains("<send event=\"charge\" target=\"#_internal\">"), "\(written)")
        #expect(written.contains("<send type=\"http://www.w3.org/TR/scxml/#BasicHTTPEventProcessor\">"), "\(written)")
        #expect(!written.contains("event=\"event=") && !written.contains("event=\"type="), "\(written)")
    }

    /// The path finder keyed a node by its leaves (and histories) alone: after a targetless delayed
    /// transition fired, the run was in the same leaf with one timer fewer armed, taken for the start
    /// node and never explored, so the second timer's target was reported unreachable. The engine's
    /// key (`FlowMachine.explorationKey`) has the armed timers.
    @Test("A state reached by a second timer, after a targetless first one fired, is found")
    func secondTimerAfterATargetlessOne() throws {
        let spec = try FlowFile.parse("""
        { "flowspec": 1, "name": "f", "initial": "a",
          "states": [ { "name": "a", "transitions": [ { "after": "1s", "effects": ["ping"] }, { "after": "2s", "target": "b" } ] },
                      { "name": "b" } ] }
        """, file: "f.json")
        let paths = try FlowFilePathfinder(spec)
        #expect(paths.unreachable.isEmpty, "\(paths.unreachable)")
        #expect(paths.shortestPath(to: "b")?.map(\.description) == ["wait 1s", "wait 1s"])
        #expect(paths.uncovered.isEmpty)
    }
}
