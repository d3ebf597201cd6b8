#!/usr/bin/env python3
"""Mutation check: deliberate mistakes in the engine, the supervisor, the flow-file interpreter and the
navigation model must each fail a test.

`make mutate` runs this. Each mutation below is one textual search-and-replace in one source file; it
names the test target (its *suite*) whose tests must catch it and, in `tests`, the tests of that suite
that do (recorded from a run of the whole suite, `--full`). The script keeps one copy of the package
(the working tree as it is: tracked and untracked files, not ignored ones) and its build folder in a
folder that outlives the run (`--work`; a later run copies only the files that changed, so its builds
are incremental). For each suite with mutations to run it trims the copy's manifest to the suite's
dependency closure (the targets and the package dependencies they use: no swift-syntax, no DocC
plugin), builds the test binary, checks that each mutation's tests exist (a test filter that selects
nothing is an error) and that they pass unmutated, then applies each mutation in turn (on the copy
only), builds, runs its tests in the test binary itself (Swift Testing's `--filter`, no SwiftPM), and
reports which tests caught it. A mutation that no test catches "survived": the script then exits 1.
`--full` runs every test of the suite for each mutation instead (the check as it was; much slower).

Where the time goes (issue 37): a mutation cost about 80 s when each ran `swift build` and then the
whole suite through `swift test`; the suite's tests were most of it (`FlowstateTests`' 269 tests: 656 s
at load average 13, against 75 s for the mutation's build). Now a mutation costs its incremental
build (the mutated file, the module's interface, the link: 3 to 8 s at load 1 to 3; other modules are
not recompiled) and its own tests (0 to 2 s, but a property that a mutation breaks spends 10 s to
3 minutes shrinking; three mutations have no other catcher, and `run-misses-start-events` waits for
its test's one-minute limit). `make mutate`, all 53 mutations: 759 s (12.7 minutes) at load average
1 to 3, the copy's build folder kept from an earlier run (the first build of the FlowNavigationTests
and FlowTestingTests closures, 48 s and 89 s, included). A first run also builds the copy from
nothing (one cold debug build of the suites' closure, without swift-syntax).

Each mutation's search text must occur exactly once in its file; when the source moves on and the
text is no longer there (or is there twice), the script stops with an error naming the mutation,
so that the patch is updated rather than silently skipped. `--check` checks only that (that each
mutation's tests are declared in its suite's sources, and that the suites' target lists match
Package.swift), on the working tree itself, in about a second: `make test` runs it first, so a
mutation that stops applying fails the tests, not the next `make mutate`.

A test that crashes the test process is named from the crash's backtrace and the run repeated
without it, so that every other test still reports whether it caught the mutation.

Usage: Tests/Mutations/mutate.py [--only NAME ...] [--full] [--fresh] [--work DIR] [--list] [--check]
[--swift SWIFT] (--only takes a mutation's name or a suite's.) Standard library only.
"""

import argparse
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEST_TIMEOUT = 900  # seconds; a run that hangs counts as caught (reported as a timeout)


@dataclass
class Suite:
    """A test target, the tests of which must catch its mutations (`swift test --filter NAME`)."""
    name: str
    # The copy's manifest keeps only these targets: the test target and every target it depends on,
    # directly or not (package products such as PropertyBased come with their packages). Listed by
    # hand; `--check` compares them with the closure it reads from Package.swift.
    targets: list


SUITES = [
    Suite("FlowstateTests", ["Flowstate", "FlowGraph", "FlowNavigation", "FlowTesting", "FlowstateExamples", "FlowTestSupport",
                             "FlowstateTests"]),
    # FlowSpec's interpreter (SCXML and JSON flow files), FlowFilePathfinder, the W3C tests: no Graphviz.
    Suite("FlowSpecTests", ["Flowstate", "FlowGraph", "FlowSpec", "FlowstateExamples", "FlowTestSupport",
                            "FlowSpecTestSupport", "FlowSpecTests"]),
    Suite("FlowNavigationTests", ["Flowstate", "FlowNavigation", "FlowGraph", "CoordinatorExamples",
                                  "FlowSpec", "FlowCodegen", "flowstate-codegen",  # the shop's SCXML flow
                                  "flowstate-examples", "FlowNavigationTests"]),
    # The testing kit: the path finder's exploration and its reasons.
    Suite("FlowTestingTests", ["Flowstate", "FlowGraph", "FlowSpec", "FlowTesting", "FlowNavigation", "FlowstateExamples",
                               "CoordinatorExamples", "GeneratedFlows", "FlowCodegen", "flowstate-codegen",
                               "FlowTestSupport", "FlowTestingTests"]),
]
SUITE_NAMES = [s.name for s in SUITES]


@dataclass
class Mutation:
    name: str
    suite: str  # the test target whose tests must catch it
    what: str
    file: str
    search: str
    replace: str
    # The tests of the suite that must catch it, each `Type` (a suite type: all its tests) or
    # `Type/function`: the tests `make mutate` runs for it (`--full` runs the whole suite). Every one
    # must name a test that exists (`--check` reads the test sources; a run lists the built tests).
    tests: list = field(default_factory=list)


MUTATIONS = [
    # The engine and the supervisor: FlowstateTests (the properties against the SCXML reference).
    Mutation(
        name="document-order",
        suite="FlowstateTests",
        what="a state's transitions are tried in reverse declaration order",
        file="Sources/Flowstate/Definition/FlowCompiler+Table.swift",
        search="for r in shortcuts.bySource[shortcuts.sourceRanges[source]..<shortcuts.sourceRanges[source + 1]] {",
        replace="for r in shortcuts.bySource[shortcuts.sourceRanges[source]..<shortcuts.sourceRanges[source + 1]]"
        ".reversed() {",
        tests=["SignUpFlowTests"],
    ),
    Mutation(
        name="exit-order",
        suite="FlowstateTests",
        what="a transition's exit effects run outermost first",
        file="Sources/Flowstate/Engine/FlowHierarchy+Sets.swift",
        search="""        var s = Self.listed(leaf, by: marked)
        while s >= 0 && isDescendant(s, of: domain) {
            exited.append(s)""",
        replace="""        let outermost = exited.count
        var s = Self.listed(leaf, by: marked)
        while s >= 0 && isDescendant(s, of: domain) {
            exited.insert(s, at: outermost)""",
        tests=["EngineProperties/effectOrder", "DeepDefinitionTests/domains", "DeepDefinitionTests/app"],
    ),
    Mutation(
        name="parallel-conflict-winner",
        suite="FlowstateTests",
        what="of two conflicting transitions in parallel regions, the later-selected one wins (not the descendant's or the first)",
        file="Sources/Flowstate/Engine/FlowMachine+Algorithm.swift",
        search="""                if hierarchy.isDescendant(Int(parallel.transitions[t1].source), of: Int(parallel.transitions[t2].source)) {""",
        replace="""                if true {""",
        tests=["ParallelTests", "EngineProperties/parallelAgreesWithSCXML"],
    ),
    Mutation(
        name="parallel-common-exit-order",
        suite="FlowstateTests",
        what="the common step of a parallel flow exits the regions of several moves in document order (earlier region first)",
        file="Sources/Flowstate/Engine/FlowMachine+CommonStep.swift",
        search="""        for i in moves.reversed() {""",
        replace="""        for i in moves {""",
        tests=["ParallelCommonStepTests/commonStep", "InternalTransitionTests/parallelCommonStep"],
    ),
    Mutation(
        name="parallel-common-takes-any-move",
        suite="FlowstateTests",
        what="the common step of a parallel flow takes moves that leave or enter a parallel state, or enter a final state",
        file="Sources/Flowstate/Engine/FlowMachine+CommonStep.swift",
        search="""            for k in activeLeaves where table.parallelSlowLeaf[Int(active[Int(k)])] { return nil }""",
        replace="""            for k in activeLeaves where table.parallelSlowLeaf[Int(active[Int(k)])] && k < 0 { return nil }""",
        tests=["ParallelCommonStepTests/generalWhenNeeded", "ParallelCommonStepTests/commonStep"],
    ),
    Mutation(
        name="parallel-common-leaves-stay",
        suite="FlowstateTests",
        what="the common step leaves the positions of the later regions' leaves where they were when a move changes how many states its region has active",
        file="Sources/Flowstate/Engine/FlowMachine+CommonStep.swift",
        search="""            for j in activeLeaves.indices where activeLeaves[j] >= from { activeLeaves[j] &+= moved }""",
        replace="""            for j in activeLeaves.indices where activeLeaves[j] >= from { activeLeaves[j] &+= 0 }""",
        tests=["ParallelActiveLeavesTests/leavesMove"],
    ),
    Mutation(
        name="parallel-common-shared-targetless-twice",
        suite="FlowstateTests",
        what="the common step takes a targetless transition of a parallel state once per active leaf that selects it",
        file="Sources/Flowstate/Engine/FlowMachine+CommonStep.swift",
        search="""            if first < 0 || !targetless || !holds(moves[i].declaration, moves) {""",
        replace="""            if first < Int32.max || !targetless || !holds(moves[i].declaration, moves) {""",
        tests=["ParallelCommonStepTests/sharedTargetlessTakenOnce"],
    ),
    Mutation(
        name="parallel-table-number-stays",
        suite="FlowstateTests",
        what="a common step the configuration table decides leaves the machine's configuration number where it was",
        file="Sources/Flowstate/Engine/FlowMachine+CommonStep.swift",
        search="""        commonConfiguration = outcome.next""",
        replace="""        _ = outcome.next""",
        tests=["ParallelConfigurationTableTests/stepsAgree", "ParallelConfigurationTableTests/dynamicOutcomes"],
    ),
    Mutation(
        name="parallel-table-in-guard-inverted",
        suite="FlowstateTests",
        what="the configuration table answers an `In` guard the wrong way round when it is built",
        file="Sources/Flowstate/Engine/FlowTable+CommonStep.swift",
        search="""                        if g < 0 || (inStates[g] >= 0 && isActive(Int(inStates[g]), in: set, hierarchy)) {""",
        replace="""                        if g < 0 || (inStates[g] >= 0 && !isActive(Int(inStates[g]), in: set, hierarchy)) {""",
        tests=["ParallelConfigurationTableTests/inGuardsDecided"],
    ),
    Mutation(
        name="inline-step-ignores-guard",
        suite="FlowstateTests",
        what="the step `send` takes inline takes a guarded move without asking its guard",
        file="Sources/Flowstate/Engine/FlowMachine.swift",
        search="""            if move.settles && move.guardIndex < 0 { return takeSettling(move, from: source, event: event) }""",
        replace="""            if move.settles { return takeSettling(move, from: source, event: event) }""",
        tests=["KindIndexTests/inlineStepAgreesWithTheFullStep"],
    ),
    Mutation(
        name="kind-index-keeps-last",
        suite="FlowstateTests",
        what="the one-byte kind index points at a state's last move of a kind, not its first",
        file="Sources/Flowstate/Engine/FlowTable.swift",
        search="""                for entry in (ranges[row]..<ranges[row + 1]).reversed() {  // each byte keeps its first entry""",
        replace="""                for entry in ranges[row]..<ranges[row + 1] {  // each byte keeps its first entry""",
        tests=["KindIndexTests/indexAgreesWithAScan"],
    ),
    Mutation(
        name="forwarded-failure-wrapped",
        suite="FlowstateTests",
        what="a declared child's effect that failed in an ancestor's handler is wrapped again as a failure of the child's route",
        file="Sources/Flowstate/Supervisor/EffectContext.swift",
        search="""        (error as? ForwardedFailure)?.failure ?? EffectFailure(""",
        replace="""        EffectFailure(""",
        tests=["MachineBoxTests/forwardedFailureKeepsItsOrigin"],
    ),
    Mutation(
        name="run-misses-start-events",
        suite="FlowstateTests",
        what="Supervisor.run ignores what happened to its root while it started (a failure, a restart): the wait never ends",
        file="Sources/Flowstate/Supervisor/Supervisor+Async.swift",
        search="""        for event in early { follower.follow(event) }""",
        replace="""        _ = early""",
        tests=["SupervisorRunTests/rootFailsWhileStarting"],
    ),
    Mutation(
        name="statechart-storage-shared",
        suite="FlowstateTests",
        what="copies of a machine share its statechart storage (timers, history, step storage) instead of copying them on write",
        file="Sources/Flowstate/Engine/FlowMachine.swift",
        search="""        if !isKnownUniquelyReferenced(&statechart) {""",
        replace="""        if statechart == nil {""",
        tests=["StatechartStorageTests"],
    ),
    Mutation(
        name="table-guard-boxes-kept",
        suite="FlowstateTests",
        what="a compiled table never releases the boxes of its guards (what they capture lives forever)",
        file="Sources/Flowstate/Engine/FlowTable.swift",
        search="""        for box in guards { box.release() }""",
        replace="""        for _ in guards {}""",
        tests=["TableLifetimeTests"],
    ),
    Mutation(
        name="parallel-table-number-not-refreshed",
        suite="FlowstateTests",
        what="a common step the selection decides does not look up the machine's new configuration in the table",
        file="Sources/Flowstate/Engine/FlowMachine+CommonStep.swift",
        search="""        defer { refreshCommonConfiguration() }  // after the moves below are applied""",
        replace="""        defer { _ = table.configRanges }""",
        tests=["ParallelConfigurationTableTests/stepsAgree", "ParallelConfigurationTableTests/dynamicOutcomes"],
    ),
    Mutation(
        name="parallel-exit-order",
        suite="FlowstateTests",
        what="a parallel flow's exit set is exited in document order (earlier regions first)",
        file="Sources/Flowstate/Engine/FlowMachine+Algorithm.swift",
        search="""        for s in exitSet {""",
        replace="""        for s in exitSet.reversed() {""",
        tests=["ParallelTests/stopExitsEverything", "ParallelTests/leavesFromOneRegion"],
    ),
    Mutation(
        name="delay-not-cancelled",
        suite="FlowstateTests",
        what="exiting a state leaves its delayed transitions' timers armed (a stale timer would fire)",
        file="Sources/Flowstate/Engine/FlowMachine+Algorithm.swift",
        search="""            if parallel.hasDelays { step.timers.disarm(state: s, into: &step.timerChanges) }""",
        replace="""            if parallel.hasDelays && false { step.timers.disarm(state: s, into: &step.timerChanges) }""",
        tests=["DelayTests/leaveAndReenter", "DelayTests/fireTakesTransition"],
    ),
    Mutation(
        name="delay-guard-first-leaf",
        suite="FlowstateTests",
        what="a fired timer's guard is asked of its state itself, not of the active atomic states inside it",
        file="Sources/Flowstate/Engine/FlowMachine+Parallel.swift",
        search="""                && conditionMatch(transition, parallel, Int($0), step, event: nil)""",
        replace="""                && conditionMatch(transition, parallel, source, step, event: nil)""",
        tests=["DelayTests/parallelRegions", "DelayProperties/parallelAgrees"],
    ),
    Mutation(
        name="history-deep-as-shallow",
        suite="FlowstateTests",
        what="a deep history remembers its state's active child, as a shallow one does",
        file="Sources/Flowstate/Engine/FlowHierarchy.swift",
        search="""                let deep = histories[h] == 2""",
        replace="""                let deep = false""",
        tests=["HistoryTests/shallowAndDeep"],
    ),
    Mutation(
        name="history-not-recorded",
        suite="FlowstateTests",
        what="exiting a state records nothing in its histories (they always enter their defaults)",
        file="Sources/Flowstate/Engine/FlowHierarchy.swift",
        search="""        for s in exiting {
            for h in histories(of: s) {""",
        replace="""        for s in exiting.prefix(0) {
            for h in histories(of: s) {""",
        tests=["HistoryTests/shallowAndDeep", "HistoryTests/articleExample"],
    ),
    Mutation(
        name="history-domain",
        suite="FlowstateTests",
        what="a transition to a history takes its domain from the history, not from its effective targets",
        file="Sources/Flowstate/Engine/FlowHierarchy.swift",
        search="""        guard hasHistory && transition.targets.contains(where: isHistory) else {""",
        replace="""        guard hasHistory && transition.targets.isEmpty else {""",
        tests=["HistoryTests/effectiveDomain"],
    ),
    Mutation(
        name="internal-as-external",
        suite="FlowstateTests",
        what="an internal transition from a compound state to its descendants exits and re-enters its source",
        file="Sources/Flowstate/Engine/FlowHierarchy.swift",
        search="""        if isInternal && isCompound(source) && targets.allSatisfy({ isDescendant($0, of: source) }) {""",
        replace="""        if false && isInternal && isCompound(source) && targets.allSatisfy({ isDescendant($0, of: source) }) {""",
        tests=["InternalTransitionTests/articleExample", "InternalTransitionTests/inspectable"],
    ),
    Mutation(
        name="internal-parallel-source-kept",
        suite="FlowstateTests",
        what="an internal transition of a parallel state to its descendants keeps the parallel state (SCXML: only a compound source does)",
        file="Sources/Flowstate/Engine/FlowHierarchy.swift",
        search="""        if isInternal && isCompound(source) && targets.allSatisfy({ isDescendant($0, of: source) }) {""",
        replace="""        if isInternal && !isAtomic(source) && targets.allSatisfy({ isDescendant($0, of: source) }) {""",
        tests=["InternalTransitionTests/parallelCommonStep", "EngineProperties/parallelAgreesWithSCXML"],
    ),
    Mutation(
        name="parallel-every-region",
        suite="FlowstateTests",
        what="entering a parallel state enters only its first region",
        file="Sources/Flowstate/Engine/FlowHierarchy+Sets.swift",
        search="""                for region in children(of: s).reversed()""",
        replace="""                for region in children(of: s).prefix(1)""",
        tests=["ParallelTests/entersEveryRegion"],
    ),
    Mutation(
        name="teardown-order",
        suite="FlowstateTests",
        what="siblings are torn down in spawn order (the first spawned first)",
        file="Sources/Flowstate/Supervisor/SupervisorCore.swift",
        search="""            var c = nodes[Int(s)].firstChild  // pushed first to last: the last child is torn down first
            while c >= 0 {
                stack.append((c, false))
                c = nodes[Int(c)].next
            }""",
        replace="""            var c = nodes[Int(s)].lastChild
            while c >= 0 {
                stack.append((c, false))
                c = nodes[Int(c)].previous
            }""",
        tests=["SupervisorCoreTests/teardownPlan", "SupervisorTests/stopRoot", "SupervisorModelTests/agreesWithModel"],
    ),
    Mutation(
        name="guard-ignored",
        suite="FlowstateTests",
        what="every guard holds",
        file="Sources/Flowstate/Engine/FlowTable.swift",
        search="move.guardIndex < 0 || guardHolds(Int(move.guardIndex), state: state, event: event, context: context)",
        replace="true",
        tests=["ContextTests", "SignUpFlowTests"],
    ),
    Mutation(
        name="child-not-torn-down",
        suite="FlowstateTests",
        what="the declared child of a state the parent leaves keeps running",
        file="Sources/Flowstate/Supervisor/SupervisorCore+Steps.swift",
        search="if parentState >= 0 && (finished || !isActive(parentState)) {",
        replace="if parentState >= 0 && finished {",
        tests=["SupervisorTests/leavingTearsDown", "SupervisorCoreTests/childrenToStop"],
    ),
    Mutation(
        name="declared-spawn-order",
        suite="FlowstateTests",
        what="a declared child goes last whatever its state: a parallel state's children are torn down in reverse spawn order, not SCXML's exit order",
        file="Sources/Flowstate/Supervisor/SupervisorCore+Steps.swift",
        search="""                if s < state { break }
                firstLater = c""",
        replace="""                break""",
        tests=["ParallelSupervisorTests/stopParent", "ParallelSupervisorTests/wholeParallelLeft", "SupervisorCoreTests/declaredPlacement"],
    ),
    Mutation(
        name="parallel-entered-from-leaf",
        suite="FlowstateTests",
        what="the states a parallel flow's step entered are found from its first leaf, not the engine's configuration before the step",
        file="Sources/Flowstate/Supervisor/Supervisor+Send.swift",
        search="let configurationBefore = before.isEmpty ? box.configuration(atLeaf: summary.from) : before",
        replace="let configurationBefore = box.configuration(atLeaf: summary.from)",
        tests=["ParallelSupervisorTests/oneRegionLeaves", "ParallelSupervisorTests/selfTransitionKeepsChild", "ParallelSupervisorTests/outputsFinishRegions"],
    ),
    Mutation(
        name="restart-intensity",
        suite="FlowstateTests",
        what="one restart more than maxRestarts is allowed within the window (< became <=)",
        file="Sources/Flowstate/Supervisor/SupervisorCore+Failure.swift",
        search="guard instants.count < maxRestarts, failedStarts <= maxRestarts else { return false }",
        replace="guard instants.count <= maxRestarts, failedStarts <= maxRestarts else { return false }",
        tests=["SupervisorTests/restartIntensity", "SupervisorCoreTests/restartLimitMatchesModel"],
    ),
    Mutation(
        name="declared-starts-reversed",
        suite="FlowstateTests",
        what="the starts taken next (declared children, restarts) are taken innermost first",
        file="Sources/Flowstate/Supervisor/SupervisorCore.swift",
        search="for id in ids.reversed() { startStack.append(id) }",
        replace="for id in ids { startStack.append(id) }",
        tests=["SupervisorCoreTests/queueOrder", "SupervisorTests/declaredChildren"],
    ),
    Mutation(
        name="parent-gone-ignores-teardown",
        suite="FlowstateTests",
        what="a machine being torn down still takes children and messages",
        file="Sources/Flowstate/Supervisor/SupervisorCore.swift",
        search="slot < 0 || (nodes[Int(slot)].serial != 0 && nodes[Int(slot)].lifecycle != .stopping)",
        replace="slot < 0 || nodes[Int(slot)].serial != 0",
        tests=["SupervisorCoreTests/parentGone"],
    ),
    # SCXML transition selection as the flow-file interpreter gets it: FlowSpecTests (SCXML, driver
    # and W3C tests). The interpreter hands selection to the engine, so two of these are in it.
    Mutation(
        name="file-internal-dropped",
        suite="FlowSpecTests",
        what="a flow file's internal transitions are declared to the engine as external ones",
        file="Sources/FlowSpec/FlowSpec+Definition.swift",
        search="""                let type: TransitionType = t.isInternal ? .internal : .external""",
        replace="""                let type: TransitionType = t.isInternal ? .external : .external""",
        tests=["InternalTransitionFileTests"],
    ),
    Mutation(
        name="scxml-document-order",
        suite="FlowSpecTests",
        what="a flow file state's transitions are declared to the engine in reverse document order",
        file="Sources/FlowSpec/FlowSpec+Definition.swift",
        search="for (k, t) in state.transitions.enumerated() {",
        replace="for (k, t) in state.transitions.enumerated().reversed() {",
        tests=["SCXMLDriverTests/documentOrder", "W3CTests/passes"],
    ),
    Mutation(
        name="scxml-ancestor-first",
        suite="FlowSpecTests",
        what="an ancestor's transitions are tried before its descendants' (outermost state first)",
        file="Sources/Flowstate/Definition/FlowCompiler+Table.swift",
        search="""                var source = shortcuts.movesUp[leaf]
                while source >= 0 {""",
        replace="""                var chain: [Int] = []
                var up = shortcuts.movesUp[leaf]
                while up >= 0 {
                    chain.insert(up, at: 0)
                    up = above(up, in: shortcuts.movesUp)
                }
                for var source in chain {""",
        tests=["InterpreterSelectionTests"],
    ),
    Mutation(
        name="scxml-wildcard-last",
        suite="FlowSpecTests",
        what="a '*' transition matches only the events no other descriptor of the file matches",
        file="Sources/FlowSpec/FlowSpec+Definition.swift",
        search='if d == "*" { return all }',
        replace='if d == "*" { return [""] }',
        tests=["SCXMLDriverTests/documentOrder", "W3CTests/passes"],
    ),
    Mutation(
        name="scxml-prefix-ignored",
        suite="FlowSpecTests",
        what="a descriptor matches only the names of its own class, not those of the longer descriptors "
        "it is a prefix of ('error' misses 'error.send' when a transition names 'error.send')",
        file="Sources/FlowSpec/FlowSpec+Definition.swift",
        search="for p in EventDescriptor.prefixes(of: Substring(c)) where descriptors.contains(String(p)) {",
        replace="for p in EventDescriptor.prefixes(of: Substring(c)).prefix(1) where descriptors.contains(String(p)) {",
        tests=["InterpreterSelectionTests"],
    ),
    Mutation(
        name="eventless-after-event",
        suite="FlowSpecTests",
        what="eventless transitions are not taken after an event's transition (only at start)",
        file="Sources/Flowstate/Engine/FlowMachine.swift",
        search="if table.hasEventless(target) {",
        replace="if false, table.hasEventless(target) {",
        tests=["SCXMLTests/simulates", "SCXMLDriverTests/eventlessLoop"],
    ),
    # Queue order in the interpreter.
    Mutation(
        name="raise-queued-externally",
        suite="FlowSpecTests",
        what="a raised event goes on the external queue, behind the events already waiting there",
        file="Sources/FlowSpec/SpecInterpreter+Content.swift",
        search="""            case .raise(let name):
                sessions[s]?.internalQueue.append(SpecEvent(name))""",
        replace="""            case .raise(let name):
                sessions[s]?.externalQueue.append(Queued(event: SpecEvent(name), origin: nil))""",
        tests=["W3CTests/passes", "SCXMLTests/simulates"],
    ),
    Mutation(
        name="internal-queue-lifo",
        suite="FlowSpecTests",
        what="the internal queue is taken last in, first out",
        file="Sources/FlowSpec/SpecInterpreter.swift",
        search="let event = sessions[s]!.internalQueue.removeFirst()",
        replace="let event = sessions[s]!.internalQueue.removeLast()",
        tests=["W3CTests/passes"],
    ),
    Mutation(
        name="external-queue-lifo",
        suite="FlowSpecTests",
        what="the external queue is taken last in, first out",
        file="Sources/FlowSpec/SpecInterpreter.swift",
        search="let item = sessions[s]!.externalQueue.removeFirst()",
        replace="let item = sessions[s]!.externalQueue.removeLast()",
        tests=["W3CTests/passes"],
    ),
    # The path finder's exploration and reasons: FlowTestingTests.
    Mutation(
        name="pathfinder-context-ignored",
        suite="FlowTestingTests",
        what="configurations are told apart by state alone, even for a Hashable context",
        file="Sources/FlowTesting/FlowPathfinder.swift",
        search="context: comparable ? (machine.context as? any Hashable).map { AnyHashable($0) } : nil)",
        replace="context: nil)",
        tests=["PathfinderRegressionTests/contextGuard"],
    ),
    Mutation(
        name="pathfinder-blames-guard",
        suite="FlowTestingTests",
        what="a context that was not compared is reported as a guard that blocked",
        file="Sources/FlowTesting/FlowPathfinder.swift",
        search="return contextIgnored ? .contextNotCompared(transitions: blocking) : .blocked(transitions: blocking)",
        replace="return .blocked(transitions: blocking)",
        tests=["PathfinderRegressionTests/contextNotCompared"],
    ),
    Mutation(
        name="pathfinder-limit-not-taken",
        suite="FlowTestingTests",
        what="a cover gap at the configuration limit is reported as 'not taken'",
        file="Sources/FlowTesting/FlowPathfinder+Paths.swift",
        search="""            } else if !isComplete {
                // The engine may have taken it""",
        replace="""            } else if isComplete && !isComplete {
                // The engine may have taken it""",
        tests=["PathfinderRegressionTests/coverGapAtTheLimit"],
    ),
    Mutation(
        name="pathfinder-parallel-one-leaf",
        suite="FlowTestingTests",
        what="a flow with parallel states' configurations are told apart by their first leaf alone",
        file="Sources/FlowTesting/FlowPathfinder.swift",
        search="if let s = index.position[state], index.hierarchy.isAtomic(s) { leaves.append(s) }",
        replace="if let s = index.position[state], index.hierarchy.isAtomic(s) { leaves = [s] }",
        tests=["ParallelKitTests/togglesMakeFourConfigurations", "ParallelKitTests/pathfinderReachesEveryState"],
    ),
    Mutation(
        name="pathfinder-parallel-entries-guessed",
        suite="FlowTestingTests",
        what="the states a flow's start passes through are not asked of the engine",
        file="Sources/FlowTesting/FlowPathfinder.swift",
        search="for s in Self.entered(by: startMicrosteps) where firstEntered[s] == nil { firstEntered[s] = -1 }",
        replace="_ = startMicrosteps",
        tests=["ParallelKitTests/generatedParallelNoPathAgreesWithValidation"],
    ),
    Mutation(
        name="flat-report-exits-domain",
        suite="FlowstateTests",
        what="the report of a flat flow's step exits the transition's domain too",
        file="Sources/Flowstate/Engine/FlowMachine+Microsteps.swift",
        search="let domain = Int(report.domain)",
        replace="let domain = report.domain < 0 ? Int(report.domain) : table.hierarchy.parent(of: Int(report.domain))",
        tests=["MicrostepReportTests/flat"],
    ),
    Mutation(
        name="pathfinder-children-not-run",
        suite="FlowTestingTests",
        what="the events a declared child's outputs become are never sent",
        file="Sources/FlowTesting/FlowPathfinder.swift",
        search="for event in (grouped[kind] ?? []) + (fromChildren[kind] ?? []) {",
        replace="for event in grouped[kind] ?? [] {",
        tests=["PathfinderRegressionTests/childOutputs"],
    ),
    # Navigation bookkeeping: FlowNavigationTests.
    Mutation(
        name="multipop-order",
        suite="FlowNavigationTests",
        what="screens popped at once are reported bottom first",
        file="Sources/FlowNavigation/NavigationModel.swift",
        search="return shown[remaining...].reversed().map { .wentBack(from: $0.screen) }",
        replace="return shown[remaining...].map { .wentBack(from: $0.screen) }",
        tests=["NavigationModelTests/multiPop", "NavigationModelTests/path"],
    ),
    Mutation(
        name="multipop-one-event",
        suite="FlowNavigationTests",
        what="screens popped at once are reported by one wentBack, the top screen's",
        file="Sources/FlowNavigation/NavigationModel.swift",
        search="return shown[remaining...].reversed().map { .wentBack(from: $0.screen) }",
        replace="return shown[remaining...].suffix(1).map { .wentBack(from: $0.screen) }",
        tests=["NavigationModelTests/multiPop"],
    ),
    Mutation(
        name="dismiss-order",
        suite="FlowNavigationTests",
        what="modal stacks dismissed together are reported bottom first",
        file="Sources/FlowNavigation/NavigationModel.swift",
        search="return gone.reversed().compactMap { $0.first.map { .dismissed($0.screen) } }",
        replace="return gone.compactMap { $0.first.map { .dismissed($0.screen) } }",
        tests=["NavigationModelTests/lowerModal"],
    ),
    Mutation(
        name="dismiss-one-event",
        suite="FlowNavigationTests",
        what="modal stacks dismissed together are reported by one dismissed, the dismissed level's",
        file="Sources/FlowNavigation/NavigationModel.swift",
        search="return gone.reversed().compactMap { $0.first.map { .dismissed($0.screen) } }",
        replace="return gone.prefix(1).compactMap { $0.first.map { .dismissed($0.screen) } }",
        tests=["NavigationModelTests/lowerModal"],
    ),
    Mutation(
        name="gesture-no-climb",
        suite="FlowTestingTests",
        what="the user's gesture on a declared child's screen is offered to that child only, never to the flows it runs under",
        file="Sources/FlowNavigation/Coordinator+Screens.swift",
        search="""            if routes[id] != nil { return false }  // the flow the coordinator started: the last to ask
            candidate = parents[id] ?? nil""",
        replace="""            if routes[id] != nil { return false }  // the flow the coordinator started: the last to ask
            candidate = nil""",
        tests=["AppTutorialTests"],
    ),
    Mutation(
        name="layout-never-pops",
        suite="FlowNavigationTests",
        what="the commands that show a layout never pop what the stacks show beyond what they share with it",
        file="Sources/FlowNavigation/ScreenMap.swift",
        search="        let pops = shown.count - common",
        replace="        let pops = 0",
        tests=["NavigationLayoutProperties/fromAnother", "ShopTests/restoreMidCheckout"],
    ),
    Mutation(
        name="send-not-batched",
        suite="FlowNavigationTests",
        what="Coordinator.send shows the declared stacks after each step of the tree, not once after the call",
        file="Sources/FlowNavigation/Coordinator.swift",
        search="        try batch { () throws(SupervisorError) in try supervisor.send(event, to: machine) }",
        replace="        try supervisor.send(event, to: machine)",
        tests=["ShopTests/loginDetour"],
    ),
    Mutation(
        name="screen-owner-not-restored",
        suite="FlowNavigationTests",
        what="when one of two live flows showing the same screen value goes, the screen is left with no owner",
        file="Sources/FlowNavigation/Coordinator.swift",
        search="            if let other = bindings.first(where: { $0.value.screens.contains(screen) })?.key {",
        replace="            if let other = Optional<MachineID>.none {",
        tests=["CoordinatorRegressionTests/sameScreenTwoOwners"],
    ),
    Mutation(
        name="entered-states-merge",
        suite="FlowstateTests",
        what="the merge of two configurations keeps a state that was active before the step (a self-transition restarts its child)",
        file="Sources/Flowstate/Supervisor/SupervisorCore+Steps.swift",
        search="if b == before.count || before[b] != state { entered.append(state) }",
        replace="entered.append(state)",
        tests=["SupervisorCoreTests/enteredStates", "SupervisorCoreTests/entryPlans", "ParallelSupervisorTests/selfTransitionKeepsChild"],
    ),
    Mutation(
        name="restart-owner-gone",
        suite="FlowstateTests",
        what="a machine whose owner is gone is restarted by its failure policy",
        file="Sources/Flowstate/Supervisor/SupervisorCore+Failure.swift",
        search="if allowed && node.ownerGone { return .stop }",
        replace="",
        tests=["SupervisorCoreTests/ownerGone"],
    ),
]


def log(message):
    print(message, flush=True)


def package_files():
    """The working tree's files as git sees them: tracked and untracked, ignored ones left out."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, check=True, capture_output=True,
    ).stdout.decode()
    files = [f for f in out.split("\0") if f and os.path.isfile(os.path.join(ROOT, f))]
    if os.path.isfile(os.path.join(ROOT, "Package.resolved")):
        files.append("Package.resolved")  # ignored by git, but it pins the dependencies
    return sorted(set(files))


def sync_package(destination):
    """Makes `destination` hold the working tree's files and no other: a file whose bytes are already
    there is left alone (its time too, so that the build folder beside it stays incremental from the
    last run), any other is copied, and a file no longer in the tree is removed. Build folders
    (`.build*`) are kept. Returns how many files were written."""
    wanted = set(package_files())
    written = 0
    for f in sorted(wanted):
        if f == "Package.swift":
            continue  # written by trim_manifest
        source, target = os.path.join(ROOT, f), os.path.join(destination, f)
        if os.path.isfile(target) and os.path.getsize(target) == os.path.getsize(source):
            with open(source, "rb") as a, open(target, "rb") as b:
                if a.read() == b.read():
                    continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(source, target)
        written += 1
    for folder, folders, names in os.walk(destination):
        relative = os.path.relpath(folder, destination)
        if relative == ".":
            folders[:] = [d for d in folders if not d.startswith(".build")]
        for name in names:
            f = os.path.normpath(os.path.join(relative, name))
            if f not in wanted and f != WORK_MARKER:
                os.remove(os.path.join(folder, name))
    return written


MANIFEST_TRIM = """

// Added by Tests/Mutations/mutate.py to its copy: only what the tests it runs need is built.
let mutationTargets: Set<String> = [%s]
package.targets.removeAll { !mutationTargets.contains($0.name) }
package.products.removeAll()
"""


# The manifest's target declarations: `.target(`, `.testTarget(`, `.executableTarget(`, ...
TARGET_CALL = re.compile(r"\.(?:target|testTarget|executableTarget|macro|systemLibrary|binaryTarget|plugin)\(")


def balanced(text, start):
    """The text from `start` (an opening bracket) to its closing bracket, both included."""
    pairs = {"(": ")", "[": "]"}
    stack = []
    i = start
    in_string = False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in pairs:
            stack.append(pairs[c])
        elif stack and c == stack[-1]:
            stack.pop()
            if not stack:
                return text[start:i + 1]
        i += 1
    return None


def manifest_dependencies(manifest):
    """Each target's dependencies on other targets of the package (package products left out), read
    from Package.swift's text: {target: [target, ...]}. Whole-line comments are ignored."""
    text = "\n".join(line for line in manifest.splitlines() if not line.lstrip().startswith("//"))
    targets = {}
    for match in TARGET_CALL.finditer(text):
        call = balanced(text, match.end() - 1)
        if call is None:
            continue
        name = re.search(r'\bname:\s*"([^"]+)"', call)
        if not name or re.search(r"\btargets:\s*\[", call):
            continue  # not a target (a `.plugin(name:targets:)` is a product)
        dependencies = []
        found = re.search(r"\bdependencies:\s*\[", call)
        if found:
            items = balanced(call, found.end() - 1) or ""
            items = re.sub(r"\.product\([^()]*\)", "", items)  # products of other packages
            dependencies = re.findall(r'"([^"]+)"', items)
        # A build-tool plugin a target uses is part of its build, with the tool the plugin runs.
        found = re.search(r"\bplugins:\s*\[", call)
        if found:
            dependencies += re.findall(r'"([^"]+)"', balanced(call, found.end() - 1) or "")
        targets.setdefault(name.group(1), dependencies)
    return targets


def manifest_problems():
    """Each suite's targets are declared by Package.swift and are the test target's dependency closure."""
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as f:
        manifest = f.read()
    declared = manifest_dependencies(manifest)
    problems = []
    for suite in SUITES:
        missing = [t for t in suite.targets if f'"{t}"' not in manifest]
        if missing:
            problems.append(f"suite {suite.name}: Package.swift no longer declares {', '.join(missing)}; "
                            "update its targets in SUITES")
            continue
        if suite.name not in declared:
            continue  # not read from the manifest's text: the build of the copy will tell
        closure = set()
        stack = [suite.name]
        while stack:
            t = stack.pop()
            if t in closure:
                continue
            closure.add(t)
            stack.extend(d for d in declared.get(t, []) if d in declared)
        unlisted = sorted(closure - set(suite.targets))
        if unlisted:
            problems.append(f"suite {suite.name}: Package.swift makes it depend on {', '.join(unlisted)}, "
                            "which its targets in SUITES leave out")
        extra = sorted(set(suite.targets) - closure)
        if extra:
            problems.append(f"suite {suite.name}: its targets in SUITES list {', '.join(extra)}, "
                            "which it does not depend on in Package.swift")
    return problems


def packages_used(manifest, targets):
    """The identities of the packages whose products or plugins the given targets use (read from the
    manifest's text, as `manifest_dependencies` reads it)."""
    text = "\n".join(line for line in manifest.splitlines() if not line.lstrip().startswith("//"))
    used = set()
    for match in TARGET_CALL.finditer(text):
        call = balanced(text, match.end() - 1) or ""
        name = re.search(r'\bname:\s*"([^"]+)"', call)
        if name and name.group(1) in targets and not re.search(r"\btargets:\s*\[", call):
            used.update(p.lower() for p in re.findall(r'\.(?:product|plugin)\([^()]*\bpackage:\s*"([^"]+)"', call))
    return used


def trimmed_manifest(manifest, suite):
    """The manifest without the package dependencies the suite's targets do not use (swift-syntax, the
    DocC plugin, ...: SwiftPM builds the products of every dependency it is given, used or not), and
    with the lines that keep only the suite's targets."""
    used = packages_used(manifest, suite.targets)
    calls = [balanced(manifest, match.end() - 1) for match in re.finditer(r"\.package\(", manifest)]
    for call in calls:
        where = re.search(r'\b(?:url|path):\s*"([^"]+)"', call or "")
        if not call or not where:
            continue
        identity = where.group(1).rstrip("/").rsplit("/", 1)[-1].lower()
        identity = identity[:-4] if identity.endswith(".git") else identity
        if identity not in used:
            manifest = re.sub(r"[ \t]*\.package" + re.escape(call) + r"[ \t]*,?[ \t]*\n?", "", manifest, count=1)
    return manifest + MANIFEST_TRIM % ", ".join(f'"{t}"' for t in suite.targets)


def trim_manifest(copy, suite):
    """The copy's manifest: the working tree's, trimmed to the suite. Written only when it changes
    (SwiftPM then plans the build again; the targets two suites share are not rebuilt)."""
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as f:
        text = trimmed_manifest(f.read(), suite)
    path = os.path.join(copy, "Package.swift")
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def patch_problems(root):
    """Each mutation's suite is known, its file exists, and its search text occurs exactly once there."""
    problems = []
    names = set()
    for m in MUTATIONS:
        if m.name in names or m.name in SUITE_NAMES:
            problems.append(f"{m.name}: the name is used twice (mutation names and suite names must be distinct)")
        names.add(m.name)
        if m.suite not in SUITE_NAMES:
            problems.append(f"{m.name}: unknown suite {m.suite} (SUITES has {', '.join(SUITE_NAMES)})")
        if m.search == m.replace:
            problems.append(f"{m.name}: the replacement is the search text itself")
        path = os.path.join(root, m.file)
        if not os.path.isfile(path):
            problems.append(f"{m.name}: {m.file} does not exist")
            continue
        with open(path, encoding="utf-8") as f:
            count = f.read().count(m.search)
        if count != 1:
            problems.append(f"{m.name}: the search text occurs {count} times in {m.file} (expected exactly once)")
    return problems


def test_problems():
    """Each mutation lists the tests that catch it, and each names a suite type and function that its
    suite's test sources declare (so that a renamed test fails `--check`, not the next run)."""
    sources = {}
    for suite in SUITE_NAMES:
        text = []
        for folder, _, names in os.walk(os.path.join(ROOT, "Tests", suite)):
            for name in sorted(names):
                if name.endswith(".swift"):
                    with open(os.path.join(folder, name), encoding="utf-8") as f:
                        text.append(f.read())
        sources[suite] = "\n".join(text)
    problems = []
    for m in MUTATIONS:
        if not m.tests:
            problems.append(f"{m.name}: no tests listed (the tests of {m.suite} that catch it: run it with --full)")
        for test in m.tests:
            kind, _, function = test.partition("/")
            text = sources.get(m.suite, "")
            if not re.search(r"\b(?:struct|class|enum|actor|extension)\s+" + re.escape(kind) + r"\b", text):
                problems.append(f"{m.name}: test {test}: no type {kind} in Tests/{m.suite}")
            elif function and not re.search(r"\bfunc\s+" + re.escape(function) + r"\s*[(<]", text):
                problems.append(f"{m.name}: test {test}: no function {function} in Tests/{m.suite}")
    return problems


def table_problems():
    """docs/TESTING.md's table of mutations names every mutation, and no other: the table readers trust."""
    with open(os.path.join(ROOT, "docs", "TESTING.md"), encoding="utf-8") as f:
        listed = set(re.findall(r"^\| `([a-z0-9-]+)` \| ", f.read(), re.MULTILINE))
    names = {m.name for m in MUTATIONS}
    problems = [f"{n}: not in docs/TESTING.md's table of mutations" for n in sorted(names - listed)]
    # Rows of the other tables there name a mutation too (the tests that catch it): only names that are
    # no mutation at all are stale.
    problems += [f"{n}: docs/TESTING.md lists it, but it is no mutation" for n in sorted(listed - names)]
    return problems


def check():
    """`--check`: the patches, the suites and docs/TESTING.md's table against the working tree; no copy, no build."""
    problems = patch_problems(ROOT) + manifest_problems() + test_problems() + table_problems()
    for p in problems:
        log(f"mutate --check: {p}")
    if problems:
        log(f"mutate --check: {len(problems)} problem(s); update Tests/Mutations/mutate.py (docs/TESTING.md, make mutate)")
        return 1
    log(f"mutate --check: OK, {len(MUTATIONS)} mutations apply (each search text found once), "
        f"{len(SUITES)} suites' targets match Package.swift, docs/TESTING.md lists each")
    return 0


# Swift Testing's lines: `✘ Test "Display name" recorded an issue at File.swift:12:5: ...` (or the
# function's name when the test has no display name), then `✘ Test "..." failed after ...`; a
# parameterized test's: `✘ Test "Name" recorded an issue with 1 argument name → "test421.scxml" at ...`.
FAILED_TEST = re.compile(r'✘ Test (?:"([^"]+)"|(\S+)) (?:recorded an issue|failed)(.*)')
ISSUE_WITH_ARGUMENTS = re.compile(r' with \d+ arguments? (.*?) at (\S+?):\d+:')
ISSUE_AT = re.compile(r' at (\S+?):\d+:')


def failed_test(line):
    """The test a line of Swift Testing's output says failed: (name [argument], the same with its file),
    or None."""
    match = FAILED_TEST.search(line)
    if not match:
        return None
    name = match.group(1) or match.group(2)
    rest = match.group(3)
    arguments = ISSUE_WITH_ARGUMENTS.match(rest)
    if arguments:
        shown = arguments.group(1)
        name += f" [{shown if len(shown) <= 60 else shown[:57] + '...'}]"
        return name, f"{name} ({arguments.group(2)})"
    at = ISSUE_AT.match(rest)
    return name, f"{name} ({at.group(1)})" if at else name


# A crash's backtrace names the test function it happened in, in a frame of a test file:
# `5 [ra] 0x... SignUpFlowTests.happyPath() + 4036 in FlowstatePackageTests.xctest at /.../Tests/FlowstateTests/...`
MAX_CRASHES = 5


def crash_frame(suite):
    return re.compile(r"(\w+)\.(\w+)\([^)]*\) \+ \d+ in \S+ at \S*/Tests/" + re.escape(suite.name) + r"/")


def filter_pattern(suite, test):
    """The regular expression (Swift Testing's `--filter`, matched against a test's identifier,
    `FlowstateTests.EngineProperties/agreesWithSCXML()`) of a mutation's test: `Type` (every test of
    that suite type) or `Type/function`."""
    kind, _, function = test.partition("/")
    pattern = re.escape(f"{suite.name}.{kind}/")
    return pattern + (re.escape(function) + r"\(" if function else "")


def build(copy, swift, scratch):
    """Builds the suite's test product in the copy; returns (ok, seconds, output)."""
    started = time.monotonic()
    result = subprocess.run([swift, "build", "--build-tests", "--scratch-path", scratch],
                            cwd=copy, capture_output=True, text=True, errors="replace")
    return result.returncode == 0, time.monotonic() - started, result.stdout + result.stderr


def test_binary(scratch):
    return os.path.join(scratch, "debug", "FlowstatePackageTests.xctest")


TEST_COUNT = re.compile(r"Test run with (\d+) tests?\b")
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def run_tests(copy, scratch, suite, patterns):
    """Runs the tests that `patterns` select (Swift Testing's `--filter`, any of them) in the built
    test binary, without SwiftPM; returns (status, failed test names, tests run, seconds, output).

    A test that crashes the test process takes the others down with it; the crashed test is named
    (from the backtrace) and the run is repeated without it, so that every test gets to report."""
    started = time.monotonic()
    failed = []  # "name (File.swift)", in the order the tests failed
    seen = set()
    skipped = []
    outputs = []
    count = 0
    while True:
        command = [test_binary(scratch), "--testing-library", "swift-testing"]
        for pattern in patterns:
            command += ["--filter", pattern]
        for pattern in skipped:
            command += ["--skip", pattern]
        # Its own process group, so that a run that hangs is ended with everything it started.
        # errors="replace": a test process that crashes can cut its output in the middle of a character.
        test = subprocess.Popen(command, cwd=copy, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                errors="replace", start_new_session=True)
        try:
            output, _ = test.communicate(timeout=TEST_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(test.pid, signal.SIGKILL)
            output, _ = test.communicate()
            outputs.append(output)
            return "timeout", failed, count, time.monotonic() - started, "\n".join(outputs)
        output = ANSI_ESCAPE.sub("", output)  # Swift Testing colours its symbols even into a pipe
        outputs.append(output)
        counted = TEST_COUNT.findall(output)
        count = max(count, int(counted[-1]) if counted else 0)
        for line in output.splitlines():
            found = failed_test(line)
            # A test's "failed" line comes after its issues, which name its file: one entry per test.
            if found and found[0] not in seen:
                seen.add(found[0])
                failed.append(found[1])
        crash = None
        if test.returncode != 0 and not counted:  # ended by a signal: no summary line
            # The crashed thread's frames: from `Thread 4 "..." crashed:` to the next thread.
            thread = re.search(r"^Thread \d+ .*crashed:$(.*?)(?=^Thread \d+ |\Z)", output, re.M | re.S)
            crash = crash_frame(suite).search(thread.group(1) if thread else output)
        if crash is None or len(skipped) == MAX_CRASHES:
            break
        name, function = crash.group(1), crash.group(2)
        failed.append(f"{name}.{function}() (crashed)")
        skipped.append(f"{re.escape(suite.name)}\\.{name}/{function}\\(")
        count = max(count, 1)
    status = "passed" if test.returncode == 0 and not failed else "failed"
    if status == "failed" and not failed:
        failed = [f"(the test run failed with status {test.returncode}; see the output)"]
    return status, failed, count, time.monotonic() - started, "\n".join(outputs)


def listed_tests(copy, scratch):
    """The identifiers of the built binary's Swift Testing tests (`--list-tests`)."""
    result = subprocess.run([test_binary(scratch), "--testing-library", "swift-testing", "--list-tests"],
                            cwd=copy, capture_output=True, text=True, errors="replace")
    return [line.strip() for line in result.stdout.splitlines() if line.strip()]


def run_suite(suite, mutations, swift, copy, full):
    """Trims the copy to the suite, builds it, checks the baseline, then runs each mutation: applied,
    built, the tests that must catch it run (with `full`, every test of the suite), undone. Returns
    [(mutation, status, failed tests, seconds)]."""
    scratch = os.path.join(copy, ".build-mutate")
    trim_manifest(copy, suite)
    originals = {}
    for m in mutations:
        with open(os.path.join(copy, m.file), encoding="utf-8") as f:
            originals.setdefault(m.file, f.read())

    log(f"==> {suite.name}: build (load average {os.getloadavg()[0]:.1f})")
    ok, seconds, output = build(copy, swift, scratch)
    if not ok:
        log(output[-6000:])
        sys.exit(f"mutate: the unmutated package does not build for {suite.name}: fix that first")
    log(f"    built ({seconds:.0f} s)")
    everything = [re.escape(suite.name) + r"\."]
    patterns = {m.name: everything if full else [filter_pattern(suite, t) for t in m.tests] for m in mutations}
    if not full:
        # A test filter that selects nothing would let its mutation survive unseen: each must select a test.
        ids = listed_tests(copy, scratch)
        unmatched = [f"{m.name}: {t}" for m in mutations for t in m.tests
                     if not any(re.search(filter_pattern(suite, t), i) for i in ids)]
        if unmatched:
            sys.exit(f"mutate: test filters that select no test of {suite.name} ({len(ids)} listed):\n  "
                     + "\n  ".join(unmatched) + "\n(update the mutation's `tests`, or run with --full)")
    baseline = sorted({p for m in mutations for p in patterns[m.name]})
    what = "every test of the suite" if full else f"the {len(baseline)} test filter(s) of its mutations"
    log(f"==> {suite.name}: baseline, {what}, unmutated")
    status, failed, count, seconds, output = run_tests(copy, scratch, suite, baseline)
    with open(os.path.join(copy, f"mutate-{suite.name}-baseline.log"), "w", encoding="utf-8") as f:
        f.write(output)  # each test's time, for choosing the tests of a mutation
    if status != "passed" or count == 0:
        log(output[-6000:])
        sys.exit(f"mutate: the unmutated package does not pass {suite.name} ({status}, {count} tests; failing: "
                 f"{', '.join(failed)}): fix that first")
    log(f"    {count} tests passed ({seconds:.0f} s)")

    results = []
    # Mutations of one file one after the other: a build recompiles the file undone and the file mutated.
    for m in sorted(mutations, key=lambda m: m.file):
        path = os.path.join(copy, m.file)
        source = originals[m.file]
        assert source.count(m.search) == 1, m.name
        with open(path, "w", encoding="utf-8") as f:
            f.write(source.replace(m.search, m.replace, 1))
        log(f"==> {m.name}: {m.what} ({m.file})")
        try:
            ok, build_seconds, output = build(copy, swift, scratch)
            count, test_seconds = 0, 0.0
            if ok:
                status, failed, count, test_seconds, output = run_tests(copy, scratch, suite, patterns[m.name])
            else:
                status, failed = "build failed", []
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(source)
        with open(os.path.join(copy, f"mutate-{m.name}.log"), "w", encoding="utf-8") as f:
            f.write(output)  # kept beside the copy until the next run
        if status == "passed" and count == 0:
            status = "no test"
        timing = f"build {build_seconds:.0f} s + tests {test_seconds:.0f} s, load average {os.getloadavg()[0]:.1f}"
        if status == "build failed":
            log(output[-4000:])
            log(f"    the mutated package does not build ({timing}): fix the patch")
        elif status == "no test":
            log(f"    NO TEST RAN: its filters select nothing ({timing})")
        elif status == "passed":
            log(f"    SURVIVED: none of {count} test(s) failed ({timing})")
        elif status == "timeout":
            log(f"    caught: the tests did not finish within {TEST_TIMEOUT} s")
        elif count == 0:
            log(f"    caught: the test process ended without a summary (a crash; see mutate-{m.name}.log) ({timing})")
        else:
            log(f"    caught by {len(failed)} of {count} test(s) ({timing})")
        results.append((m, status, failed, build_seconds + test_seconds))
    return results


WORK_MARKER = ".flowstate-mutate"  # marks a folder as this script's copy: only such a folder is synced


def work_folder():
    """Where the copy and its build folder live between runs: one folder per working tree."""
    digest = hashlib.sha1(ROOT.encode()).hexdigest()[:10]
    return os.path.join(tempfile.gettempdir(), f"flowstate-mutate-{digest}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="run only this mutation, or this suite's mutations (repeatable)")
    parser.add_argument("--full", action="store_true",
                        help="run every test of the mutation's suite, not only the tests listed as catching it "
                        "(the check as it was: slower; prints every test that catches each mutation)")
    parser.add_argument("--fresh", action="store_true",
                        help="start from an empty copy and build folder (a cold build) instead of the last run's")
    parser.add_argument("--work", default=work_folder(),
                        help="the folder of the copy and its build folder, kept between runs (default: %(default)s)")
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    parser.add_argument("--check", action="store_true",
                        help="only check, on the working tree, that every mutation applies exactly once, that its "
                        "tests exist and that the suites' targets match Package.swift (no copy, no build); "
                        "exit 1 on a problem")
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"), help="the swift driver")
    args = parser.parse_args()

    if args.check:
        return check()
    if args.list:
        for m in MUTATIONS:
            log(f"{m.name:24} {m.suite:20} {m.file}: {m.what}")
        return 0
    problems = patch_problems(ROOT) + manifest_problems()
    if problems:
        sys.exit("mutate: the patches no longer match the sources; update Tests/Mutations/mutate.py:\n  "
                 + "\n  ".join(problems))
    chosen = MUTATIONS
    if args.only:
        unknown = set(args.only) - {m.name for m in MUTATIONS} - set(SUITE_NAMES)
        if unknown:
            sys.exit(f"mutate: unknown mutation(s) or suite(s): {', '.join(sorted(unknown))} (see --list)")
        chosen = [m for m in MUTATIONS if m.name in args.only or m.suite in args.only]

    began = time.monotonic()
    copy = os.path.abspath(args.work)
    if args.fresh:
        shutil.rmtree(copy, ignore_errors=True)
    if os.path.isdir(copy) and os.listdir(copy) and not os.path.exists(os.path.join(copy, WORK_MARKER)):
        sys.exit(f"mutate: {copy} is not empty and is not a copy made by this script: choose another --work folder")
    os.makedirs(copy, exist_ok=True)
    with open(os.path.join(copy, WORK_MARKER), "w", encoding="utf-8") as f:
        f.write(f"A copy of {ROOT} for Tests/Mutations/mutate.py; files not in that tree are removed.\n")
    written = sync_package(copy)
    log(f"==> the working tree copied to {copy} ({written} file(s) written; its build folder is kept "
        f"for the next run: remove the folder to free it)")
    results = []
    for suite in SUITES:
        mutations = [m for m in chosen if m.suite == suite.name]
        if mutations:
            results += run_suite(suite, mutations, args.swift, copy, args.full)

    log("")
    log("==> summary")
    width = max(len(m.name) for m in chosen)
    for m, status, failed, seconds in results:
        verdict = {"failed": f"caught by {len(failed)} test(s) of {m.suite} ({seconds:.0f} s):",
                   "timeout": f"caught (timeout) in {m.suite}",
                   "passed": f"SURVIVED {m.suite}", "no test": f"NO TEST RAN in {m.suite}",
                   "build failed": "BUILD FAILED"}[status]
        log(f"  {m.name:{width}}  {verdict}")
        for name in failed if status == "failed" else []:
            log(f"  {'':{width}}    {name}")
    survived = [m.name for m, status, _, _ in results if status in ("passed", "no test", "build failed")]
    log(f"==> {len(results) - len(survived)} of {len(results)} mutations caught "
        f"in {time.monotonic() - began:.0f} s (load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}, "
        f"{'every test of each suite' if args.full else 'the tests listed for each mutation'})")
    if survived:
        log("==> not caught: " + ", ".join(survived))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
