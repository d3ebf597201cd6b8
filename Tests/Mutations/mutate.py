#!/usr/bin/env python3
"""Mutation check: deliberate mistakes in the engine, the supervisor, the flow-file interpreter and the
navigation model must each fail a test.

`make mutate` runs this. Each mutation below is one textual search-and-replace in one source file and
names the test target (its *suite*) whose tests must catch it. For each suite that has mutations to
run, the script copies the package (the working tree as it is: tracked and untracked files, not
ignored ones) to a temporary folder, trims the copy's manifest to that suite's dependency closure,
checks that the unmutated copy passes `swift test --filter SUITE`, then applies each of the suite's
mutations in turn (on the copy only), builds and runs the same tests, and reports which tests caught
it. A mutation that no test catches "survived": the script then exits 1.

Each mutation's search text must occur exactly once in its file; when the source moves on and the
text is no longer there (or is there twice), the script stops with an error naming the mutation,
so that the patch is updated rather than silently skipped. `--check` checks only that (and that the
suites' target lists match Package.swift), on the working tree itself, in about a second:
`make test` runs it first, so a mutation that stops applying fails the tests, not the next
`make mutate`.

One build folder (inside the suite's copy) serves every run of the suite: only one file changes
between two runs. The copy's manifest is trimmed to the suite's targets (Suite.targets), so that work
in progress elsewhere in the package neither slows the runs down nor breaks them. A test that crashes
the test process is named from the crash's backtrace and the run repeated without it, so that every
other test still reports whether it caught the mutation.

Usage: Tests/Mutations/mutate.py [--only NAME ...] [--keep] [--list] [--check] [--swift SWIFT]
(--only takes a mutation's name or a suite's.) Standard library only.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

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


MUTATIONS = [
    # The engine and the supervisor: FlowstateTests (the properties against the SCXML reference).
    Mutation(
        name="document-order",
        suite="FlowstateTests",
        what="a state's transitions are tried in reverse declaration order",
        file="Sources/Flowstate/FlowCompiler.swift",
        search="for r in shortcuts.bySource[shortcuts.sourceRanges[source]..<shortcuts.sourceRanges[source + 1]] {",
        replace="for r in shortcuts.bySource[shortcuts.sourceRanges[source]..<shortcuts.sourceRanges[source + 1]]"
        ".reversed() {",
    ),
    Mutation(
        name="exit-order",
        suite="FlowstateTests",
        what="a transition's exit effects run outermost first",
        file="Sources/Flowstate/FlowCompiler.swift",
        search="""        var s = shortcuts.exitUp[leaf]
        while s >= 0 && hierarchy.isDescendant(s, of: domain) {
            effects.append(contentsOf: exits[s])
            s = above(s, in: shortcuts.exitUp)
        }""",
        replace="""        var s = shortcuts.exitUp[leaf]
        var outermostFirst: [Int] = []
        while s >= 0 && hierarchy.isDescendant(s, of: domain) {
            outermostFirst.insert(s, at: 0)
            s = above(s, in: shortcuts.exitUp)
        }
        for x in outermostFirst { effects.append(contentsOf: exits[x]) }""",
    ),
    Mutation(
        name="parallel-conflict-winner",
        suite="FlowstateTests",
        what="of two conflicting transitions in parallel regions, the later-selected one wins (not the descendant's or the first)",
        file="Sources/Flowstate/FlowMachine+Parallel.swift",
        search="""                if hierarchy.isDescendant(Int(parallel.transitions[t1].source), of: Int(parallel.transitions[t2].source)) {""",
        replace="""                if true {""",
    ),
    Mutation(
        name="parallel-common-exit-order",
        suite="FlowstateTests",
        what="the common step of a parallel flow exits the regions of several moves in document order (earlier region first)",
        file="Sources/Flowstate/FlowMachine+Parallel.swift",
        search="""        for i in moves.reversed() {""",
        replace="""        for i in moves {""",
    ),
    Mutation(
        name="parallel-common-takes-any-move",
        suite="FlowstateTests",
        what="the common step of a parallel flow takes moves that leave or enter a parallel state, or enter a final state",
        file="Sources/Flowstate/FlowMachine+Parallel.swift",
        search="""            for k in activeLeaves where table.parallelSlowLeaf[Int(active[Int(k)])] { return nil }""",
        replace="""            for k in activeLeaves where table.parallelSlowLeaf[Int(active[Int(k)])] && k < 0 { return nil }""",
    ),
    Mutation(
        name="parallel-common-leaves-stay",
        suite="FlowstateTests",
        what="the common step leaves the positions of the later regions' leaves where they were when a move changes how many states its region has active",
        file="Sources/Flowstate/FlowMachine+Parallel.swift",
        search="""            for j in activeLeaves.indices where activeLeaves[j] >= from { activeLeaves[j] &+= moved }""",
        replace="""            for j in activeLeaves.indices where activeLeaves[j] >= from { activeLeaves[j] &+= 0 }""",
    ),
    Mutation(
        name="parallel-common-shared-targetless-twice",
        suite="FlowstateTests",
        what="the common step takes a targetless transition of a parallel state once per active leaf that selects it",
        file="Sources/Flowstate/FlowMachine+Parallel.swift",
        search="""            if first < 0 || !targetless || !holds(moves[i].declaration, moves) {""",
        replace="""            if first < Int32.max || !targetless || !holds(moves[i].declaration, moves) {""",
    ),
    Mutation(
        name="parallel-table-number-stays",
        suite="FlowstateTests",
        what="a common step the configuration table decides leaves the machine's configuration number where it was",
        file="Sources/Flowstate/FlowMachine+Parallel.swift",
        search="""        commonConfiguration = outcome.next""",
        replace="""        _ = outcome.next""",
    ),
    Mutation(
        name="parallel-table-in-guard-inverted",
        suite="FlowstateTests",
        what="the configuration table answers an `In` guard the wrong way round when it is built",
        file="Sources/Flowstate/FlowTable.swift",
        search="""                        if g < 0 || (inStates[g] >= 0 && isActive(Int(inStates[g]), in: set, hierarchy)) {""",
        replace="""                        if g < 0 || (inStates[g] >= 0 && !isActive(Int(inStates[g]), in: set, hierarchy)) {""",
    ),
    Mutation(
        name="inline-step-ignores-guard",
        suite="FlowstateTests",
        what="the step `send` takes inline takes a guarded move without asking its guard",
        file="Sources/Flowstate/FlowMachine.swift",
        search="""            if move.settles && move.guardIndex < 0 { return takeSettling(move, from: source, event: event) }""",
        replace="""            if move.settles { return takeSettling(move, from: source, event: event) }""",
    ),
    Mutation(
        name="kind-index-keeps-last",
        suite="FlowstateTests",
        what="the one-byte kind index points at a state's last move of a kind, not its first",
        file="Sources/Flowstate/FlowTable.swift",
        search="""                for entry in (ranges[row]..<ranges[row + 1]).reversed() {  // each byte keeps its first entry""",
        replace="""                for entry in ranges[row]..<ranges[row + 1] {  // each byte keeps its first entry""",
    ),
    Mutation(
        name="forwarded-failure-wrapped",
        suite="FlowstateTests",
        what="a declared child's effect that failed in an ancestor's handler is wrapped again as a failure of the child's route",
        file="Sources/Flowstate/Supervisor/EffectContext.swift",
        search="""        (error as? ForwardedFailure)?.failure ?? EffectFailure(""",
        replace="""        EffectFailure(""",
    ),
    Mutation(
        name="run-misses-start-events",
        suite="FlowstateTests",
        what="Supervisor.run ignores what happened to its root while it started (a failure, a restart): the wait never ends",
        file="Sources/Flowstate/Supervisor/Supervisor+Async.swift",
        search="""        for event in early { follower.follow(event) }""",
        replace="""        _ = early""",
    ),
    Mutation(
        name="machine-extras-shared",
        suite="FlowstateTests",
        what="copies of a machine share its extras (timers, history, step storage) instead of copying them on write",
        file="Sources/Flowstate/FlowMachine.swift",
        search="""        if !isKnownUniquelyReferenced(&extras) {""",
        replace="""        if extras == nil {""",
    ),
    Mutation(
        name="table-guard-boxes-kept",
        suite="FlowstateTests",
        what="a compiled table never releases the boxes of its guards (what they capture lives forever)",
        file="Sources/Flowstate/FlowTable.swift",
        search="""        for box in guards { box.release() }""",
        replace="""        for _ in guards {}""",
    ),
    Mutation(
        name="parallel-table-number-not-refreshed",
        suite="FlowstateTests",
        what="a common step the selection decides does not look up the machine's new configuration in the table",
        file="Sources/Flowstate/FlowMachine+Parallel.swift",
        search="""        defer { refreshCommonConfiguration() }  // after the moves below are applied""",
        replace="""        defer { _ = table.configRanges }""",
    ),
    Mutation(
        name="parallel-exit-order",
        suite="FlowstateTests",
        what="a parallel flow's exit set is exited in document order (earlier regions first)",
        file="Sources/Flowstate/FlowMachine+Parallel.swift",
        search="""        for s in exitSet {""",
        replace="""        for s in exitSet.reversed() {""",
    ),
    Mutation(
        name="delay-not-cancelled",
        suite="FlowstateTests",
        what="exiting a state leaves its delayed transitions' timers armed (a stale timer would fire)",
        file="Sources/Flowstate/FlowMachine+Parallel.swift",
        search="""            if parallel.hasDelays { step.timers.disarm(state: s, into: &step.timerChanges) }""",
        replace="""            if parallel.hasDelays && false { step.timers.disarm(state: s, into: &step.timerChanges) }""",
    ),
    Mutation(
        name="delay-guard-first-leaf",
        suite="FlowstateTests",
        what="a fired timer's guard is asked of its state itself, not of the active atomic states inside it",
        file="Sources/Flowstate/FlowMachine+Parallel.swift",
        search="""                && conditionMatch(transition, parallel, Int($0), step, event: nil)""",
        replace="""                && conditionMatch(transition, parallel, source, step, event: nil)""",
    ),
    Mutation(
        name="history-deep-as-shallow",
        suite="FlowstateTests",
        what="a deep history remembers its state's active child, as a shallow one does",
        file="Sources/Flowstate/FlowHierarchy.swift",
        search="""                let deep = histories[h] == 2""",
        replace="""                let deep = false""",
    ),
    Mutation(
        name="history-not-recorded",
        suite="FlowstateTests",
        what="exiting a state records nothing in its histories (they always enter their defaults)",
        file="Sources/Flowstate/FlowHierarchy.swift",
        search="""        for s in exiting {
            for h in histories(of: s) {""",
        replace="""        for s in exiting.prefix(0) {
            for h in histories(of: s) {""",
    ),
    Mutation(
        name="history-domain",
        suite="FlowstateTests",
        what="a transition to a history takes its domain from the history, not from its effective targets",
        file="Sources/Flowstate/FlowHierarchy.swift",
        search="""        guard hasHistory && transition.targets.contains(where: isHistory) else {""",
        replace="""        guard hasHistory && transition.targets.isEmpty else {""",
    ),
    Mutation(
        name="internal-as-external",
        suite="FlowstateTests",
        what="an internal transition from a compound state to its descendants exits and re-enters its source",
        file="Sources/Flowstate/FlowHierarchy.swift",
        search="""        if isInternal && isCompound(source) && targets.allSatisfy({ isDescendant($0, of: source) }) {""",
        replace="""        if false && isInternal && isCompound(source) && targets.allSatisfy({ isDescendant($0, of: source) }) {""",
    ),
    Mutation(
        name="internal-parallel-source-kept",
        suite="FlowstateTests",
        what="an internal transition of a parallel state to its descendants keeps the parallel state (SCXML: only a compound source does)",
        file="Sources/Flowstate/FlowHierarchy.swift",
        search="""        if isInternal && isCompound(source) && targets.allSatisfy({ isDescendant($0, of: source) }) {""",
        replace="""        if isInternal && !isAtomic(source) && targets.allSatisfy({ isDescendant($0, of: source) }) {""",
    ),
    Mutation(
        name="parallel-every-region",
        suite="FlowstateTests",
        what="entering a parallel state enters only its first region",
        file="Sources/Flowstate/FlowHierarchy.swift",
        search="""                for region in children(of: s).reversed()""",
        replace="""                for region in children(of: s).prefix(1)""",
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
    ),
    Mutation(
        name="guard-ignored",
        suite="FlowstateTests",
        what="every guard holds",
        file="Sources/Flowstate/FlowTable.swift",
        search="move.guardIndex < 0 || guardHolds(Int(move.guardIndex), state: state, event: event, context: context)",
        replace="true",
    ),
    Mutation(
        name="child-not-torn-down",
        suite="FlowstateTests",
        what="the declared child of a state the parent leaves keeps running",
        file="Sources/Flowstate/Supervisor/SupervisorCore.swift",
        search="if parentState >= 0 && (finished || !isActive(parentState)) {",
        replace="if parentState >= 0 && finished {",
    ),
    Mutation(
        name="declared-spawn-order",
        suite="FlowstateTests",
        what="a declared child goes last whatever its state: a parallel state's children are torn down in reverse spawn order, not SCXML's exit order",
        file="Sources/Flowstate/Supervisor/SupervisorCore.swift",
        search="""                if s < state { break }
                firstLater = c""",
        replace="""                break""",
    ),
    Mutation(
        name="parallel-entered-from-leaf",
        suite="FlowstateTests",
        what="the states a parallel flow's step entered are found from its first leaf, not the engine's configuration before the step",
        file="Sources/Flowstate/Supervisor/MachineBox.swift",
        search="if let kept = extras?.configurationBefore {",
        replace="if let kept = extras?.configurationBefore, kept.isEmpty {",
    ),
    Mutation(
        name="restart-intensity",
        suite="FlowstateTests",
        what="one restart more than maxRestarts is allowed within the window (< became <=)",
        file="Sources/Flowstate/Supervisor/SupervisorCore.swift",
        search="guard instants.count < maxRestarts, failedStarts <= maxRestarts else { return false }",
        replace="guard instants.count <= maxRestarts, failedStarts <= maxRestarts else { return false }",
    ),
    Mutation(
        name="declared-starts-reversed",
        suite="FlowstateTests",
        what="the starts taken next (declared children, restarts) are taken innermost first",
        file="Sources/Flowstate/Supervisor/SupervisorCore.swift",
        search="for id in ids.reversed() { startStack.append(id) }",
        replace="for id in ids { startStack.append(id) }",
    ),
    Mutation(
        name="parent-gone-ignores-teardown",
        suite="FlowstateTests",
        what="a machine being torn down still takes children and messages",
        file="Sources/Flowstate/Supervisor/SupervisorCore.swift",
        search="slot < 0 || (nodes[Int(slot)].serial != 0 && nodes[Int(slot)].lifecycle != .stopping)",
        replace="slot < 0 || nodes[Int(slot)].serial != 0",
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
    ),
    Mutation(
        name="scxml-document-order",
        suite="FlowSpecTests",
        what="a flow file state's transitions are declared to the engine in reverse document order",
        file="Sources/FlowSpec/FlowSpec+Definition.swift",
        search="for (k, t) in state.transitions.enumerated() {",
        replace="for (k, t) in state.transitions.enumerated().reversed() {",
    ),
    Mutation(
        name="scxml-ancestor-first",
        suite="FlowSpecTests",
        what="an ancestor's transitions are tried before its descendants' (outermost state first)",
        file="Sources/Flowstate/FlowCompiler.swift",
        search="""                var source = shortcuts.movesUp[leaf]
                while source >= 0 {""",
        replace="""                var chain: [Int] = []
                var up = shortcuts.movesUp[leaf]
                while up >= 0 {
                    chain.insert(up, at: 0)
                    up = above(up, in: shortcuts.movesUp)
                }
                for var source in chain {""",
    ),
    Mutation(
        name="scxml-wildcard-last",
        suite="FlowSpecTests",
        what="a '*' transition matches only the events no other descriptor of the file matches",
        file="Sources/FlowSpec/FlowSpec+Definition.swift",
        search='if d == "*" { return all }',
        replace='if d == "*" { return [""] }',
    ),
    Mutation(
        name="scxml-prefix-ignored",
        suite="FlowSpecTests",
        what="a descriptor matches only the names of its own class, not those of the longer descriptors "
        "it is a prefix of ('error' misses 'error.send' when a transition names 'error.send')",
        file="Sources/FlowSpec/FlowSpec+Definition.swift",
        search="for p in Self.prefixes(of: c) where descriptors.contains(p) {",
        replace="for p in Self.prefixes(of: c).prefix(1) where descriptors.contains(p) {",
    ),
    Mutation(
        name="eventless-after-event",
        suite="FlowSpecTests",
        what="eventless transitions are not taken after an event's transition (only at start)",
        file="Sources/Flowstate/FlowMachine.swift",
        search="if table.hasEventless(target) {",
        replace="if false, table.hasEventless(target) {",
    ),
    # Queue order in the interpreter.
    Mutation(
        name="raise-queued-externally",
        suite="FlowSpecTests",
        what="a raised event goes on the external queue, behind the events already waiting there",
        file="Sources/FlowSpec/SpecInterpreter.swift",
        search="""            case .raise(let name):
                sessions[s]?.internalQueue.append(SpecEvent(name))""",
        replace="""            case .raise(let name):
                sessions[s]?.externalQueue.append(Queued(event: SpecEvent(name), origin: nil))""",
    ),
    Mutation(
        name="internal-queue-lifo",
        suite="FlowSpecTests",
        what="the internal queue is taken last in, first out",
        file="Sources/FlowSpec/SpecInterpreter.swift",
        search="let event = sessions[s]!.internalQueue.removeFirst()",
        replace="let event = sessions[s]!.internalQueue.removeLast()",
    ),
    Mutation(
        name="external-queue-lifo",
        suite="FlowSpecTests",
        what="the external queue is taken last in, first out",
        file="Sources/FlowSpec/SpecInterpreter.swift",
        search="let item = sessions[s]!.externalQueue.removeFirst()",
        replace="let item = sessions[s]!.externalQueue.removeLast()",
    ),
    # The path finder's exploration and reasons: FlowTestingTests.
    Mutation(
        name="pathfinder-context-ignored",
        suite="FlowTestingTests",
        what="configurations are told apart by state alone, even for a Hashable context",
        file="Sources/FlowTesting/FlowPathfinder.swift",
        search="context: comparable ? (machine.context as? any Hashable).map { AnyHashable($0) } : nil)",
        replace="context: nil)",
    ),
    Mutation(
        name="pathfinder-blames-guard",
        suite="FlowTestingTests",
        what="a context that was not compared is reported as a guard that blocked",
        file="Sources/FlowTesting/FlowPathfinder.swift",
        search="return contextIgnored ? .contextNotCompared(transitions: blocking) : .blocked(transitions: blocking)",
        replace="return .blocked(transitions: blocking)",
    ),
    Mutation(
        name="pathfinder-limit-not-taken",
        suite="FlowTestingTests",
        what="a cover gap at the configuration limit is reported as 'not taken'",
        file="Sources/FlowTesting/FlowPathfinder.swift",
        search="""            } else if !isComplete {
                // The engine may have taken it""",
        replace="""            } else if isComplete && !isComplete {
                // The engine may have taken it""",
    ),
    Mutation(
        name="pathfinder-parallel-one-leaf",
        suite="FlowTestingTests",
        what="a flow with parallel states' configurations are told apart by their first leaf alone",
        file="Sources/FlowTesting/FlowPathfinder.swift",
        search="if let s = index.position[state], index.hierarchy.isAtomic(s) { leaves.append(s) }",
        replace="if let s = index.position[state], index.hierarchy.isAtomic(s) { leaves = [s] }",
    ),
    Mutation(
        name="pathfinder-parallel-entries-guessed",
        suite="FlowTestingTests",
        what="the states a flow's start passes through are not asked of the engine",
        file="Sources/FlowTesting/FlowPathfinder.swift",
        search="for s in Self.entered(by: startMicrosteps) where firstEntered[s] == nil { firstEntered[s] = -1 }",
        replace="_ = startMicrosteps",
    ),
    Mutation(
        name="flat-report-exits-domain",
        suite="FlowstateTests",
        what="the report of a flat flow's step exits the transition's domain too",
        file="Sources/Flowstate/FlowMachine+Microsteps.swift",
        search="let domain = Int(report.domain)",
        replace="let domain = report.domain < 0 ? Int(report.domain) : table.hierarchy.parent(of: Int(report.domain))",
    ),
    Mutation(
        name="pathfinder-children-not-run",
        suite="FlowTestingTests",
        what="the events a declared child's outputs become are never sent",
        file="Sources/FlowTesting/FlowPathfinder.swift",
        search="for event in (grouped[kind] ?? []) + (fromChildren[kind] ?? []) {",
        replace="for event in grouped[kind] ?? [] {",
    ),
    # Navigation bookkeeping: FlowNavigationTests.
    Mutation(
        name="multipop-order",
        suite="FlowNavigationTests",
        what="screens popped at once are reported bottom first",
        file="Sources/FlowNavigation/NavigationModel.swift",
        search="return shown[remaining...].reversed().map { .wentBack(from: $0.screen) }",
        replace="return shown[remaining...].map { .wentBack(from: $0.screen) }",
    ),
    Mutation(
        name="multipop-one-event",
        suite="FlowNavigationTests",
        what="screens popped at once are reported by one wentBack, the top screen's",
        file="Sources/FlowNavigation/NavigationModel.swift",
        search="return shown[remaining...].reversed().map { .wentBack(from: $0.screen) }",
        replace="return shown[remaining...].suffix(1).map { .wentBack(from: $0.screen) }",
    ),
    Mutation(
        name="dismiss-order",
        suite="FlowNavigationTests",
        what="modal stacks dismissed together are reported bottom first",
        file="Sources/FlowNavigation/NavigationModel.swift",
        search="return gone.reversed().compactMap { $0.first.map { .dismissed($0.screen) } }",
        replace="return gone.compactMap { $0.first.map { .dismissed($0.screen) } }",
    ),
    Mutation(
        name="dismiss-one-event",
        suite="FlowNavigationTests",
        what="modal stacks dismissed together are reported by one dismissed, the dismissed level's",
        file="Sources/FlowNavigation/NavigationModel.swift",
        search="return gone.reversed().compactMap { $0.first.map { .dismissed($0.screen) } }",
        replace="return gone.prefix(1).compactMap { $0.first.map { .dismissed($0.screen) } }",
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


def copy_package(destination):
    for f in package_files():
        target = os.path.join(destination, f)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, f), target)


MANIFEST_TRIM = """

// Added by Tests/Mutations/mutate.py to its temporary copy: only what the tests it runs need is built.
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


def trim_manifest(copy, suite):
    path = os.path.join(copy, "Package.swift")
    with open(path, "a", encoding="utf-8") as f:
        f.write(MANIFEST_TRIM % ", ".join(f'"{t}"' for t in suite.targets))


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
    problems = patch_problems(ROOT) + manifest_problems() + table_problems()
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


def run_tests(copy, swift, scratch, suite):
    """Builds and runs the suite's tests; returns (status, failed test names, seconds, output).

    A test that crashes the test process takes the others down with it; the crashed test is named
    (from the backtrace) and the run is repeated without it, so that every test gets to report."""
    started = time.monotonic()
    build = subprocess.run([swift, "build", "--build-tests", "--scratch-path", scratch],
                           cwd=copy, capture_output=True, text=True, errors="replace")
    if build.returncode != 0:
        return "build failed", [], time.monotonic() - started, build.stdout + build.stderr
    failed = []  # "name (File.swift)", in the order the tests failed
    seen = set()
    skipped = []
    outputs = []
    while True:
        command = [swift, "test", "--skip-build", "--scratch-path", scratch, "--filter", suite.name]
        for pattern in skipped:
            command += ["--skip", pattern]
        # Its own process group, so that a run that hangs is ended with the test runner it started.
        # errors="replace": a test process that crashes can cut its output in the middle of a character.
        test = subprocess.Popen(command, cwd=copy, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                errors="replace", start_new_session=True)
        try:
            output, _ = test.communicate(timeout=TEST_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(test.pid, signal.SIGKILL)
            output, _ = test.communicate()
            outputs.append(output)
            return "timeout", failed, time.monotonic() - started, "\n".join(outputs)
        outputs.append(output)
        for line in output.splitlines():
            found = failed_test(line)
            # A test's "failed" line comes after its issues, which name its file: one entry per test.
            if found and found[0] not in seen:
                seen.add(found[0])
                failed.append(found[1])
        crash = None
        if test.returncode != 0 and "exited with unexpected signal" in output:
            # The crashed thread's frames: from `Thread 4 "..." crashed:` to the next thread.
            thread = re.search(r"^Thread \d+ .*crashed:$(.*?)(?=^Thread \d+ |\Z)", output, re.M | re.S)
            crash = crash_frame(suite).search(thread.group(1) if thread else output)
        if crash is None or len(skipped) == MAX_CRASHES:
            break
        name, function = crash.group(1), crash.group(2)
        failed.append(f"{name}.{function}() (crashed)")
        skipped.append(f"{re.escape(suite.name)}\\.{name}/{function}\\(")
    status = "passed" if test.returncode == 0 and not failed else "failed"
    if status == "failed" and not failed:
        failed = [f"(the test run failed with status {test.returncode}; see the output)"]
    return status, failed, time.monotonic() - started, "\n".join(outputs)


def run_suite(suite, mutations, swift, keep):
    """Copies the package, trims it to the suite, checks the baseline and runs the mutations; returns
    [(mutation, status, failed tests, seconds)]."""
    copy = tempfile.mkdtemp(prefix=f"flowstate-mutate-{suite.name}-")
    scratch = os.path.join(copy, ".build-mutate")
    try:
        log(f"==> {suite.name}: copying the package to {copy}")
        copy_package(copy)
        trim_manifest(copy, suite)
        originals = {}
        for m in mutations:
            with open(os.path.join(copy, m.file), encoding="utf-8") as f:
                originals.setdefault(m.file, f.read())

        log(f"==> {suite.name}: baseline, swift test --filter {suite.name}, unmutated")
        status, failed, seconds, output = run_tests(copy, swift, scratch, suite)
        if status != "passed":
            log(output[-6000:])
            sys.exit(f"mutate: the unmutated package does not pass {suite.name} ({status}; failing: "
                     f"{', '.join(failed)}): fix that first")
        log(f"    passed ({seconds:.0f} s)")

        results = []
        for m in mutations:
            path = os.path.join(copy, m.file)
            source = originals[m.file]
            assert source.count(m.search) == 1, m.name
            with open(path, "w", encoding="utf-8") as f:
                f.write(source.replace(m.search, m.replace, 1))
            log(f"==> {m.name}: {m.what} ({m.file})")
            status, failed, seconds, output = run_tests(copy, swift, scratch, suite)
            with open(path, "w", encoding="utf-8") as f:
                f.write(source)
            with open(os.path.join(copy, f"mutate-{m.name}.log"), "w", encoding="utf-8") as f:
                f.write(output)  # kept with --keep
            if status == "build failed":
                log(output[-4000:])
                log(f"    the mutated package does not build ({seconds:.0f} s): fix the patch")
            elif status == "passed":
                log(f"    SURVIVED: no test failed ({seconds:.0f} s)")
            elif status == "timeout":
                log(f"    caught: the tests did not finish within {TEST_TIMEOUT} s")
            else:
                log(f"    caught ({seconds:.0f} s) by {len(failed)} test(s)")
            results.append((m, status, failed, seconds))
        return results
    finally:
        if keep:
            log(f"==> kept {copy}")
        else:
            shutil.rmtree(copy, ignore_errors=True)
            # SwiftPM's lock files for the copy's build folder, named after its path.
            prefix = copy.replace(os.sep, "_") + "_"
            for name in os.listdir(tempfile.gettempdir()):
                if name.startswith(prefix) and name.endswith(".lock"):
                    try:
                        os.remove(os.path.join(tempfile.gettempdir(), name))
                    except OSError:
                        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="run only this mutation, or this suite's mutations (repeatable)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary copies (their paths are printed) and each run's output, mutate-NAME.log")
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    parser.add_argument("--check", action="store_true",
                        help="only check, on the working tree, that every mutation applies exactly once and that "
                        "the suites' targets match Package.swift (no copy, no build); exit 1 on a problem")
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
    results = []
    for suite in SUITES:
        mutations = [m for m in chosen if m.suite == suite.name]
        if mutations:
            results += run_suite(suite, mutations, args.swift, args.keep)

    log("")
    log("==> summary")
    width = max(len(m.name) for m in chosen)
    for m, status, failed, seconds in results:
        verdict = {"failed": f"caught by {len(failed)} test(s) of {m.suite} ({seconds:.0f} s):",
                   "timeout": f"caught (timeout) in {m.suite}",
                   "passed": f"SURVIVED {m.suite}", "build failed": "BUILD FAILED"}[status]
        log(f"  {m.name:{width}}  {verdict}")
        for name in failed if status == "failed" else []:
            log(f"  {'':{width}}    {name}")
    survived = [m.name for m, status, _, _ in results if status in ("passed", "build failed")]
    log(f"==> {len(results) - len(survived)} of {len(results)} mutations caught "
        f"in {time.monotonic() - began:.0f} s")
    if survived:
        log("==> not caught: " + ", ".join(survived))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
