@testable import Flowstate
import PropertyBased
import Testing

/// The supervisor's core on its own: its rules are functions of a value, so they are tested without
/// machines, handlers or observers. The examples pin each rule; the properties check the core against
/// small reference models written from docs/SUPERVISOR.md ("The tree", "Run to completion",
/// "Teardown", "Failures"), not from the core.
@Suite("Supervisor core")
struct SupervisorCoreTests {
    typealias Core = SupervisorCore
    typealias Placement = SupervisorCore.Placement

    /// Places a machine, which must find its place.
    static func place(_ core: inout Core, under parent: Int32 = -1, state: Int32 = -1,
                      _ lifecycle: Core.Lifecycle = .running) -> Int32 {
        guard let slot = core.place(Placement(parent: parent, state: state), lifecycle: lifecycle) else {
            Issue.record("no place under \(parent)")
            return -1
        }
        return slot
    }

    /// Tears a subtree down as the shell does: the plan, then each machine removed in its order.
    @discardableResult
    static func tearDown(_ core: inout Core, _ slot: Int32, reason: TeardownReason = .stopped) -> [MachineID] {
        guard let steps = core.beginTeardown(of: slot, reason: reason) else { return [] }
        let ids = steps.map { core.id(of: $0.slot) }
        for step in steps { core.remove(step.slot) }
        return ids
    }

    static func failure(_ origin: MachineID) -> EffectFailure {
        EffectFailure(origin: origin, effect: "effect", message: "boom")
    }

    // MARK: Identities and places

    @Test("Identities are never reused, are scoped to their core, and name nothing once their machine is gone")
    func identities() {
        var core = Core(scope: 7)
        let first = Self.place(&core)
        let firstID = core.id(of: first)
        #expect(core.slot(of: firstID) == first)
        Self.tearDown(&core, first)
        let second = Self.place(&core)
        #expect(second == first, "the slot is reused")
        #expect(core.id(of: second) != firstID, "the identity is not")
        #expect(core.id(of: second).rawValue > firstID.rawValue)
        #expect(core.slot(of: firstID) == nil)
        let other = Core(scope: 8)
        #expect(other.slot(of: core.id(of: second)) == nil, "another core's identity")
        #expect(core.slot(of: MachineID(rawValue: core.id(of: second).rawValue)) == nil, "an identity made by hand")
    }

    @Test("The parent-gone rule: nothing goes under a machine that is gone or being torn down, or after a sibling that is gone")
    func parentGone() {
        var core = Core(scope: 1)
        let root = Self.place(&core)
        let child = Self.place(&core, under: root)
        let allLive = core.isLive(-1) && core.isLive(root) && core.isLive(child)
        #expect(allLive)
        let placeable = core.canPlace(Placement(parent: root, after: child))
        #expect(placeable)
        let steps = core.beginTeardown(of: child, reason: .stopped)
        #expect(steps?.count == 1)
        let stoppingIsLive = core.isLive(child)
        #expect(!stoppingIsLive, "being torn down")
        #expect(core.place(Placement(parent: child), lifecycle: .pending) == nil)
        #expect(core.liveSlot(of: core.id(of: child)) == nil)
        #expect(core.runningSlot(of: core.id(of: child)) == nil)
        core.remove(child)
        let afterGone = core.canPlace(Placement(parent: root, after: child))
        #expect(!afterGone, "after a sibling that is gone")
        let first = core.canPlace(Placement(parent: root, after: -1))
        #expect(first)
        let pending = Self.place(&core, under: root, .pending)
        #expect(core.liveSlot(of: core.id(of: pending)) == pending, "a pending machine takes children and messages")
        #expect(core.runningSlot(of: core.id(of: pending)) == nil, "but no step")
    }

    // MARK: Teardown

    @Test("A teardown is planned once: children first, siblings in reverse spawn order, each with its reason")
    func teardownPlan() {
        var core = Core(scope: 1)
        let root = Self.place(&core)
        let a = Self.place(&core, under: root)
        let a1 = Self.place(&core, under: a)
        let b = Self.place(&core, under: root, .pending)
        let steps = core.beginTeardown(of: root, reason: .failed)
        #expect(steps?.map(\.slot) == [b, a1, a, root])
        #expect(steps?.map(\.reason) == [.parentTornDown, .parentTornDown, .parentTornDown, .failed])
        #expect(steps?.map(\.wasRunning) == [false, true, true, true], "a pending machine had not started")
        #expect(core.beginTeardown(of: root, reason: .stopped) == nil, "already being torn down")
        #expect(core.beginTeardown(of: a1, reason: .stopped) == nil, "the whole subtree is marked")
        for step in steps ?? [] { core.remove(step.slot) }
        #expect(core.liveCount == 0)
        #expect(core.beginTeardown(of: root, reason: .stopped) == nil, "gone")
    }

    @Test("A subtree that never started is discarded, children first")
    func discard() {
        var core = Core(scope: 1)
        let root = Self.place(&core)
        let child = Self.place(&core, under: root, .pending)
        #expect(core.discard(root) == [child, root])
        #expect(core.liveCount == 0 && core.roots.isEmpty)
    }

    // MARK: Steps

    @Test("A step stops the declared children of the states it left, in reverse spawn order; dynamic children stay")
    func childrenToStop() {
        var core = Core(scope: 1)
        let parent = Self.place(&core)
        let inState1 = Self.place(&core, under: parent, state: 1)
        let dynamic = Self.place(&core, under: parent)
        let inState2 = Self.place(&core, under: parent, state: 2)
        let inState3 = Self.place(&core, under: parent, state: 3)
        #expect(core.childrenToStop(of: parent, finished: false, isActive: { $0 == 2 }) == [inState3, inState1])
        #expect(core.childrenToStop(of: parent, finished: false, isActive: { _ in true }).isEmpty)
        #expect(core.childrenToStop(of: parent, finished: true, isActive: { _ in true }) == [inState3, inState2, inState1])
        #expect(!core.childrenToStop(of: parent, finished: true, isActive: { _ in false }).contains(dynamic))
    }

    @Test("Entry plans: a step stops the declared children of the states it left and starts those of the states it entered, in order")
    func entryPlans() {
        typealias Plan = Core.EntryPlan
        var core = Core(scope: 1)
        let parent = Self.place(&core)
        // A flat flow: states 0 ⊃ 1 ⊃ 2 and 0 ⊃ 3 ⊃ 4; states 1, 2, 3 and 4 declare children.
        let declares: (Int32) -> Bool = { $0 != 0 }
        let in1 = Self.place(&core, under: parent, state: 1)
        let dynamic = Self.place(&core, under: parent)
        let in2 = Self.place(&core, under: parent, state: 2)
        #expect(core.entryPlan(of: parent, before: [0, 1, 2], after: [0, 3, 4], finished: false, declaresChild: declares)
                == Plan(stop: [in2, in1], start: [3, 4]), "left 1 and 2 (innermost first), entered 3 and 4 (outermost first)")
        #expect(core.entryPlan(of: parent, before: [0, 1, 2], after: [0, 1, 2], finished: false, declaresChild: declares)
                == Plan(), "a self-transition keeps its child and starts none")
        #expect(core.entryPlan(of: parent, before: [0, 1, 2], after: [0, 1], finished: false, declaresChild: declares)
                == Plan(stop: [in2]), "up to the parent state: its child stays")
        #expect(core.entryPlan(of: parent, before: [0, 1], after: [0, 1, 2], finished: false, declaresChild: { $0 == 1 })
                == Plan(), "an entered state that declares no child starts nothing")
        #expect(core.entryPlan(of: parent, before: [], after: [0, 1, 2], finished: false, declaresChild: declares)
                == Plan(start: [1, 2]), "a start enters every active state")
        #expect(core.entryPlan(of: parent, before: [0, 1, 2], after: [], finished: true, declaresChild: declares)
                == Plan(stop: [in2, in1]), "a machine that finished stops every declared child and starts none")
        // Parallel: 0 holds regions 1 (leaves 2, 3) and 4 (leaves 5, 6); region 1 moves from 2 to 3.
        #expect(core.entryPlan(of: parent, before: [0, 1, 2, 4, 5], after: [0, 1, 3, 4, 5], finished: false,
                               declaresChild: declares) == Plan(stop: [in2], start: [3]), "one region moves")
        #expect(!core.entryPlan(of: parent, before: [], after: [], finished: true, declaresChild: declares).stop
            .contains(dynamic), "dynamic children stay")
    }

    @Test("What a step is to the tree: a start is a spawn; a transition or a finish is a move, which plans declared children if the flow has any; an ignored or rejected event is nothing")
    func stepKinds() {
        func kind(_ kind: StepSummary.Kind, from: Int32 = 0, declares: Bool = true) -> Core.StepKind {
            Core.stepKind(StepSummary(kind: kind, from: from, to: 1), declaresChildren: declares)
        }
        #expect(kind(.started, from: -1) == .spawn)
        #expect(kind(.finished, from: -1) == .spawn, "a machine that finishes as it starts is spawned")
        #expect(kind(.transitioned) == .move(plansChildren: true))
        #expect(kind(.finished) == .move(plansChildren: true))
        #expect(kind(.transitioned, declares: false) == .move(plansChildren: false))
        #expect(kind(.ignored) == .none)
        #expect(kind(.rejected) == .none)
    }

    @Test("The states a step entered are a merge of the two sorted configurations: the states after that were not active before")
    func enteredStates() async {
        #expect(Core.entered(before: [0, 2, 4], after: [0, 1, 2, 3, 5]) == [1, 3, 5])
        #expect(Core.entered(before: [], after: [1, 2]) == [1, 2])
        #expect(Core.entered(before: [1, 2], after: []) == [])
        #expect(Core.entered(before: [3, 4, 9], after: [1, 9]) == [1])
        let configuration = Gen.int(in: 0...40).array(of: 0...12).map { Array(Set($0.map { Int32($0) })).sorted() }
        await propertyCheck(count: 300, input: configuration, configuration) { before, after in
            #expect(Core.entered(before: before, after: after) == after.filter { !before.contains($0) })
            for state in Int32(-1)...41 {
                #expect(Core.contains(after, state) == after.contains(state))
            }
        }
    }

    @Test("A declared child goes before the first declared sibling of a later state, else last: declared children stay in document order")
    func declaredPlacement() {
        var core = Core(scope: 1)
        let parent = Self.place(&core)
        func placeDeclared(_ state: Int32) -> Int32 {
            core.place(core.declaredPlacement(parent: parent, state: state), lifecycle: .running) ?? -1
        }
        let outer = placeDeclared(1)
        let region2 = placeDeclared(5)
        let dynamic = Self.place(&core, under: parent)
        #expect(core.children(of: parent) == [outer, region2, dynamic])
        // Region 1's state (3) is entered again after region 2's child was spawned: it goes before it.
        let region1 = placeDeclared(3)
        #expect(core.children(of: parent) == [outer, region1, region2, dynamic])
        // A deeper state of region 2 goes last (after the dynamic child): as in a flow without parallel states.
        let inner2 = placeDeclared(6)
        #expect(core.children(of: parent) == [outer, region1, region2, dynamic, inner2])
        // Before every declared sibling: first.
        let first = placeDeclared(0)
        #expect(core.children(of: parent).first == first)
        #expect(core.childrenToStop(of: parent, finished: true, isActive: { _ in true })
                == [inner2, region2, region1, outer, first])
    }

    @Test("What follows a step: a failure (at the machine that produced the effect), a completion, declared children, or nothing")
    func followUp() {
        var core = Core(scope: 1)
        let parent = Self.place(&core)
        let child = Self.place(&core, under: parent, state: 0)
        let id = core.id(of: parent)
        func next(_ kind: StepSummary.Kind, failure: EffectFailure? = nil, declares: Bool = true,
                  of machine: MachineID? = nil) -> Core.FollowUp {
            core.followUp(of: machine ?? id, StepOutcome(summary: StepSummary(kind: kind, from: 0, to: 1), failure: failure),
                          declaresChildren: declares)
        }
        let childFailure = Self.failure(core.id(of: child))
        #expect(next(.transitioned, failure: childFailure) == .fail(child, childFailure), "attributed to the child")
        #expect(next(.finished, failure: Self.failure(id)) == .fail(parent, Self.failure(id)), "a failure comes first")
        let goneFailure = Self.failure(MachineID(rawValue: 99))
        #expect(next(.transitioned, failure: goneFailure) == .fail(parent, goneFailure), "origin gone: the machine itself")
        #expect(next(.finished) == .complete)
        #expect(next(.finished, declares: false) == .complete)
        #expect(next(.transitioned) == .startDeclaredChildren)
        #expect(next(.started) == .startDeclaredChildren)
        #expect(next(.transitioned, declares: false) == .none)
        #expect(next(.ignored) == .none)
        #expect(next(.rejected) == .none)
        Self.tearDown(&core, parent)
        #expect(next(.finished) == .none, "a machine that is gone")
    }

    @Test("A finished machine's output goes to its parent if the parent can take it, to the root's receiver for a root")
    func outputRoute() {
        var core = Core(scope: 1)
        let root = Self.place(&core)
        let child = Self.place(&core, under: root)
        #expect(core.outputRoute(parent: -1) == .root)
        #expect(core.outputRoute(parent: root) == .parent(core.id(of: root)))
        _ = core.beginTeardown(of: root, reason: .stopped)
        #expect(core.outputRoute(parent: root) == .nowhere)
        _ = child
    }

    @Test("An async result enters the queue while the machine that started the work and its target are there; else it is dropped against the one gone")
    func taskResult() {
        var core = Core(scope: 1)
        let root = Self.place(&core)
        let child = Self.place(&core, under: root)
        let (rootID, childID) = (core.id(of: root), core.id(of: child))
        #expect(core.taskResult(origin: childID, target: rootID) == .enqueue)
        #expect(core.taskResult(origin: rootID, target: rootID) == .enqueue)
        _ = core.beginTeardown(of: child, reason: .stopped)
        #expect(core.taskResult(origin: childID, target: rootID) == .enqueue,
                "a machine being torn down is still there: the queue resolves it")
        core.remove(child)
        #expect(core.taskResult(origin: childID, target: rootID) == .drop(childID), "the origin is gone")
        #expect(core.taskResult(origin: rootID, target: childID) == .drop(childID), "the target is gone")
        let foreign = MachineID(rawValue: rootID.rawValue)
        #expect(core.taskResult(origin: foreign, target: childID) == .drop(foreign), "the origin first")
    }

    // MARK: Failures

    @Test("Policies: stop stops, escalate names the parent, restart keeps the place and the line's history")
    func failurePolicies() {
        var core = Core(scope: 1)
        let root = Self.place(&core)
        let first = Self.place(&core, under: root, state: 4)
        let second = Self.place(&core, under: root, state: 5)
        let third = Self.place(&core, under: root, state: 6)
        let clock: () -> Duration = { .zero }
        #expect(core.failure(of: second, policy: .stop, whileStarting: false, now: clock) == .stop)
        #expect(core.failure(of: second, policy: .escalate, whileStarting: false, now: clock) == .escalate(parent: root))
        #expect(core.failure(of: root, policy: .escalate, whileStarting: false, now: clock) == .escalate(parent: -1))
        let action = core.failure(of: second, policy: .restart(maxRestarts: 1, within: .seconds(1)),
                                  whileStarting: false, now: clock)
        guard case .restart(let placement, let history) = action else {
            Issue.record("expected a restart, got \(action)")
            return
        }
        #expect(placement == Placement(parent: root, state: 5, after: first))
        Self.tearDown(&core, second, reason: .failed)
        guard let replacement = core.place(placement, lifecycle: .pending, history: history) else {
            Issue.record("the place is gone")
            return
        }
        #expect(core.children(of: root) == [first, replacement, third], "in the place of the one it replaces")
        #expect(core.restartHistory(of: replacement) == history, "the line keeps its history")
        #expect(core.failure(of: replacement, policy: .restart(maxRestarts: 1, within: .seconds(1)), whileStarting: false,
                             now: clock) == .escalate(parent: root), "the line's second restart within the window")
        let fresh = Self.place(&core, under: root, state: 5)
        #expect(core.restartHistory(of: fresh) == nil, "a machine placed anew starts a new line")
    }

    @Test("An owner gone: a machine placed without it is released now, recorded, and its allowed restart stops it instead")
    func ownerGone() {
        let clock: () -> Duration = { .zero }
        var core = Core(scope: 1)
        let root = Self.place(&core)
        let bound = core.place(Placement(parent: root), lifecycle: .running, ownerGone: false)
        #expect(bound?.releaseNow == false)
        let orphan = core.place(Placement(parent: root), lifecycle: .pending, ownerGone: true)
        #expect(orphan?.releaseNow == true, "placed, so that its handle names it, and released now")
        guard let bound, let orphan else { return }
        #expect(core[orphan.slot].ownerGone && !core[bound.slot].ownerGone)
        #expect(core[orphan.slot].lifecycle == .pending && core[orphan.slot].serial == core.id(of: orphan.slot).rawValue)
        core.markRunning(orphan.slot)
        #expect(core[orphan.slot].ownerGone, "the lifecycle changes, the record stays")
        let restart: FailurePolicy = .restart(maxRestarts: 1, within: .seconds(10))
        #expect(core.failure(of: orphan.slot, policy: restart, whileStarting: true, now: clock) == .stop,
                "its owner is gone: no restart")
        #expect(core.failure(of: orphan.slot, policy: .escalate, whileStarting: false, now: clock) == .escalate(parent: root))
        let boundRestart = core.failure(of: bound.slot, policy: restart, whileStarting: false, now: clock)
        #expect(boundRestart != .stop)
        // The shell learns that an owner is gone from the lifetime's report.
        let child = Self.place(&core, under: bound.slot)
        core.ownerReleased(core.id(of: child))
        #expect(core[child].ownerGone)
        #expect(core.failurePlan(from: child, whileStarting: false, now: clock, policy: { _ in restart },
                                 mapsFailures: { _ in false }) == Core.FailurePlan(steps: [.tearDown(child)]))
        // A line whose restarts are used up escalates, owner or not.
        #expect(core.failure(of: bound.slot, policy: restart, whileStarting: false, now: clock)
                == .escalate(parent: root))
        let goneID = core.id(of: child)
        Self.tearDown(&core, child)
        core.ownerReleased(goneID)  // a machine that is gone: nothing
        #expect(core.liveCount == 3)
    }

    @Test("A planned restart puts its replacement in its place, unless the place or the owner went away during the teardown")
    func restartPlace() {
        var core = Core(scope: 1)
        let root = Self.place(&core)
        let first = Self.place(&core, under: root)
        let placement = Placement(parent: root, after: first)
        #expect(core.restartPlace(placement, ownerGone: false) == placement)
        #expect(core.restartPlace(placement, ownerGone: true) == nil, "its owner went away")
        Self.tearDown(&core, first)
        #expect(core.restartPlace(placement, ownerGone: false) == nil, "the sibling it goes after is gone")
        _ = core.beginTeardown(of: root, reason: .stopped)
        #expect(core.restartPlace(Placement(parent: root), ownerGone: false) == nil, "its parent is being torn down")
    }

    @Test("Failure plans: stop, restart and escalation walk up the tree in one plan, waiting only for a mapping")
    func failurePlans() {
        typealias Plan = Core.FailurePlan
        let clock: () -> Duration = { .zero }
        var core = Core(scope: 1)
        let root = Self.place(&core)
        let middle = Self.place(&core, under: root, state: 1)
        let leaf = Self.place(&core, under: middle, state: 2)
        let sibling = Self.place(&core, under: middle, state: 3)
        func plan(_ slot: Int32, _ policies: [Int32: FailurePolicy], maps: Set<Int32> = [],
                  whileStarting: Bool = false) -> Plan {
            core.failurePlan(from: slot, whileStarting: whileStarting, now: clock,
                             policy: { policies[$0] ?? .escalate }, mapsFailures: { maps.contains($0) })
        }
        // Stop: the failed machine's subtree only.
        #expect(plan(leaf, [leaf: .stop]) == Plan(steps: [.tearDown(leaf)]))
        // Escalation with no mappings: each machine torn down, its parent told, up to the root's policy.
        #expect(plan(leaf, [middle: .stop]) == Plan(steps: [.tearDown(leaf), .report(middle), .tearDown(middle)]))
        #expect(plan(leaf, [:]) == Plan(steps: [.tearDown(leaf), .report(middle), .tearDown(middle), .report(root),
                                                 .tearDown(root)]), "a root's escalation tells nobody")
        // A mapping stops the walk: the child torn down, then the shell's question.
        let mapped = plan(sibling, [:], maps: [sibling])
        #expect(mapped.steps == [.tearDown(sibling)])
        #expect(mapped.mapping?.child == sibling && mapped.mapping?.parent == middle)
        // A mapping further up: the walk goes on to it, reporting on the way.
        let higher = plan(leaf, [:], maps: [middle])
        #expect(higher.steps == [.tearDown(leaf), .report(middle), .tearDown(middle)])
        #expect(higher.mapping?.child == middle && higher.mapping?.parent == root)
        // A restart ends the walk where it is allowed, in the place of the failed machine; the
        // exhausted line escalates on the next failure.
        let restart: FailurePolicy = .restart(maxRestarts: 1, within: .seconds(10))
        let first = plan(middle, [middle: restart])
        #expect(first == Plan(steps: [.restart(middle, Placement(parent: root, state: 1, after: -1),
                                               core.restartHistory(of: middle)!)]))
        #expect(plan(leaf, [middle: restart, root: .stop]) == Plan(steps: [.tearDown(leaf), .report(middle),
                                                                         .tearDown(middle), .report(root),
                                                                         .tearDown(root)]),
                "the middle's line has used its one restart: it escalates")
        // A parent being torn down is told nothing.
        _ = core.beginTeardown(of: middle, reason: .stopped)
        #expect(plan(leaf, [:]) == Plan(steps: [.tearDown(leaf)]))
    }

    @Test("A failure plan's walk is iterative: a chain of 100,000 machines escalates in constant stack")
    func deepFailurePlan() {
        var core = Core(scope: 1)
        var slot = Self.place(&core)
        let root = slot
        for _ in 0..<100_000 { slot = Self.place(&core, under: slot, state: 1) }
        let plan = core.failurePlan(from: slot, whileStarting: true, now: { .zero }, policy: { _ in .escalate },
                                    mapsFailures: { _ in false })
        #expect(plan.steps.count == 2 * 100_000 + 1)
        #expect(plan.steps.last == .tearDown(root))
        #expect(plan.mapping == nil)
    }

    @Test("The clock is read only for a restart")
    func clockReadForRestartsOnly() {
        var core = Core(scope: 1)
        let slot = Self.place(&core)
        var reads = 0
        let clock: () -> Duration = {
            reads += 1
            return .zero
        }
        _ = core.failure(of: slot, policy: .stop, whileStarting: false, now: clock)
        _ = core.failure(of: slot, policy: .escalate, whileStarting: false, now: clock)
        #expect(reads == 0)
        _ = core.failure(of: slot, policy: .restart(maxRestarts: 2, within: .zero), whileStarting: false, now: clock)
        #expect(reads == 1)
    }

    // MARK: The queue

    @Test("The queue: released owners first, then starts taken next (last batch first, each in order), then the mailbox in FIFO order; messages for machines that cannot take them resolve")
    func queueOrder() {
        var core = Core(scope: 1)
        let running = Self.place(&core)
        let pendingA = Self.place(&core, under: running, .pending)
        let pendingB = Self.place(&core, under: running, .pending)
        let pendingC = Self.place(&core, under: running, .pending)
        let gone = Self.place(&core)
        let goneID = core.id(of: gone)
        Self.tearDown(&core, gone)
        let id = core.id(of: running)
        core.enqueue(.event(id, "first"))
        core.enqueue(.event(goneID, "lost"))
        core.enqueue(.stop(goneID, .stopped))
        core.enqueue(.start(id))  // not pending: skipped
        core.enqueue(.asyncFailure(goneID, Self.failure(goneID)))
        core.enqueue(.asyncFailure(id, Self.failure(id)))
        core.enqueue(.stop(id, .stopped))
        core.startNext([core.id(of: pendingA), core.id(of: pendingB)])
        let queued = core.hasQueued
        #expect(queued)
        var taken: [String] = []
        func take(released: Bool = false) -> Bool {
            guard let work = core.nextWork(released: released) else { return false }
            switch work {
            case .sweep: taken.append("sweep")
            case .deliver(let event, let slot): taken.append("deliver \(event) to \(slot)")
            case .start(let slot): taken.append("start \(slot)")
            case .stop(let slot, let reason): taken.append("stop \(slot) (\(reason))")
            case .fail(let slot, let failure): taken.append("fail \(slot): \(failure.message)")
            case .dropEvent(let id, let event): taken.append("drop \(event) for \(id)")
            case .dropFailure(let id, _): taken.append("drop failure for \(id)")
            case .fire(let timer, let slot): taken.append("fire \(timer) at \(slot)")
            }
            return true
        }
        #expect(take(released: true))
        #expect(take())
        #expect(core[pendingA].lifecycle == .running, "a start marks the machine running")
        core.startNext([core.id(of: pendingC)])  // the start of pendingA queued a start of its own
        while take() {}
        #expect(taken == [
            "sweep", "start \(pendingA)", "start \(pendingC)", "start \(pendingB)",
            "deliver first to \(running)", "drop lost for \(goneID)", "drop failure for \(goneID)",
            "fail \(running): boom", "stop \(running) (stopped)",
        ])
        let stillQueued = core.hasQueued
        #expect(!stillQueued)
    }

    // MARK: Properties against reference models

    /// A reference model of the tree, from docs/SUPERVISOR.md: each machine has a parent, the state
    /// that runs it and its children in spawn order; identities increase and are never reused;
    /// a teardown takes children before their parent and siblings in reverse spawn order, which is
    /// the subtree's preorder reversed; a restarted machine takes the place of the one it replaces;
    /// nothing is placed under a machine that is gone or being torn down.
    struct ReferenceTree {
        struct Machine {
            var parent: UInt64?
            var state: Int32
            var children: [UInt64] = []
            var running: Bool
        }

        var machines: [UInt64: Machine] = [:]
        var roots: [UInt64] = []
        var gone: [UInt64] = []
        var lastID: UInt64 = 0

        func siblings(of parent: UInt64?) -> [UInt64] { parent.map { machines[$0]!.children } ?? roots }

        mutating func add(_ id: UInt64, parent: UInt64?, state: Int32, running: Bool, at index: Int? = nil) {
            machines[id] = Machine(parent: parent, state: state, running: running)
            var list = siblings(of: parent)
            list.insert(id, at: index ?? list.count)
            if let parent { machines[parent]!.children = list } else { roots = list }
            lastID = id
        }

        /// Depth first: each machine, then its children in spawn order.
        func preorder(from starts: [UInt64]) -> [(id: UInt64, depth: Int)] {
            var result: [(id: UInt64, depth: Int)] = []
            var stack = starts.reversed().map { ($0, 0) }
            while let (id, depth) = stack.popLast() {
                result.append((id, depth))
                stack.append(contentsOf: machines[id]!.children.reversed().map { ($0, depth + 1) })
            }
            return result
        }

        func teardownOrder(of id: UInt64) -> [UInt64] { preorder(from: [id]).map(\.id).reversed() }

        /// Removes a subtree; returns where its root was among its siblings.
        @discardableResult
        mutating func remove(_ id: UInt64) -> Int {
            let parent = machines[id]!.parent
            let index = siblings(of: parent).firstIndex(of: id)!
            if let parent { machines[parent]!.children.remove(at: index) } else { roots.remove(at: index) }
            for m in teardownOrder(of: id) {
                machines[m] = nil
                gone.append(m)
            }
            return index
        }
    }

    /// One operation on a tree; the numbers pick machines among the live ones, in preorder.
    enum TreeOp: CustomStringConvertible {
        case place(under: Int, state: Int, pending: Bool)
        case tearDown(Int)
        case restart(Int)

        init(_ kind: Int, _ a: Int, _ b: Int) {
            switch kind {
            case 0, 1, 2, 3: self = .place(under: a, state: b % 3 - 1, pending: b % 2 == 0)
            case 4: self = .tearDown(a)
            default: self = .restart(a)
            }
        }

        var description: String {
            switch self {
            case .place(let m, let s, let pending): "place(under: \(m), state: \(s)\(pending ? ", pending" : ""))"
            case .tearDown(let m): "tearDown(\(m))"
            case .restart(let m): "restart(\(m))"
            }
        }
    }

    static let treeOps = zip(Gen.int(in: 0...5), Gen.int(in: 0...40), Gen.int(in: 0...5))
        .map { TreeOp($0, $1, $2) }.array(of: 1...60)

    /// Checks the core against the model: the same machines, in the same places, in the same order.
    static func compare(_ core: borrowing Core, _ model: ReferenceTree) -> [String] {
        var problems: [String] = []
        var ours: [(UInt64, Int)] = []
        for (slot, depth) in core.preorder() { ours.append((core.id(of: slot).rawValue, depth)) }
        let theirs = model.preorder(from: model.roots)
        if ours.map(\.0) != theirs.map(\.id) || ours.map(\.1) != theirs.map(\.depth) {
            problems.append("preorder \(ours) != model \(theirs.map { ($0.id, $0.depth) })")
        }
        if core.liveCount != model.machines.count {
            problems.append("\(core.liveCount) live, the model has \(model.machines.count)")
        }
        for (slot, _) in core.preorder() {
            let id = core.id(of: slot)
            guard let machine = model.machines[id.rawValue] else { continue }
            let parent = core[slot].parent
            if (parent >= 0 ? core.id(of: parent).rawValue : nil) != machine.parent {
                problems.append("\(id): parent differs")
            }
            if core[slot].parentState != machine.state { problems.append("\(id): state differs") }
            if core.children(of: slot).map({ core.id(of: $0).rawValue }) != machine.children {
                problems.append("\(id): children differ")
            }
            if (core[slot].lifecycle == .running) != machine.running { problems.append("\(id): lifecycle differs") }
        }
        return problems
    }

    @Test("Property: placing, tearing down and restarting keep the tree the reference model describes")
    func treeMatchesModel() async {
        await propertyCheck(count: 300, input: Self.treeOps) { ops in
            var core = Core(scope: 3)
            var model = ReferenceTree()
            var slotsOf: [UInt64: Int32] = [:]  // every identity the core gave, to check stale ones
            for op in ops {
                let live = core.preorder().map { $0.slot }
                switch op {
                case .place(let under, let state, let pending):
                    let parent: Int32 = live.isEmpty || under % (live.count + 1) == live.count ? -1
                        : live[under % (live.count + 1)]
                    let lifecycle: Core.Lifecycle = pending ? .pending : .running
                    guard let slot = core.place(Placement(parent: parent, state: Int32(state)), lifecycle: lifecycle) else {
                        Issue.record("\(op): no place under a live machine")
                        return
                    }
                    let id = core.id(of: slot)
                    #expect(id.rawValue > model.lastID, "identities are never reused")
                    model.add(id.rawValue, parent: parent >= 0 ? core.id(of: parent).rawValue : nil,
                              state: Int32(state), running: !pending)
                    slotsOf[id.rawValue] = slot
                case .tearDown(let m):
                    guard !live.isEmpty else { continue }
                    let slot = live[m % live.count]
                    let id = core.id(of: slot)
                    guard let steps = core.beginTeardown(of: slot, reason: .stopped) else {
                        Issue.record("\(op): a live machine cannot be torn down")
                        return
                    }
                    #expect(steps.map { core.id(of: $0.slot).rawValue } == model.teardownOrder(of: id.rawValue))
                    #expect(steps.map(\.wasRunning) == model.teardownOrder(of: id.rawValue).map { model.machines[$0]!.running })
                    #expect(steps.dropLast().allSatisfy { $0.reason == .parentTornDown } && steps.last?.reason == .stopped)
                    // Being torn down: no second teardown, nothing placed under any of it.
                    for step in steps {
                        #expect(core.beginTeardown(of: step.slot, reason: .stopped) == nil)
                        #expect(core.place(Placement(parent: step.slot), lifecycle: .pending) == nil)
                    }
                    for step in steps { core.remove(step.slot) }
                    model.remove(id.rawValue)
                case .restart(let m):
                    guard !live.isEmpty else { continue }
                    let slot = live[m % live.count]
                    let id = core.id(of: slot)
                    let old = model.machines[id.rawValue]!
                    let action = core.failure(of: slot, policy: .restart(maxRestarts: 1_000, within: .seconds(1)),
                                              whileStarting: false, now: { .zero })
                    guard case .restart(let placement, let history) = action else {
                        Issue.record("\(op): \(action)")
                        return
                    }
                    guard let steps = core.beginTeardown(of: slot, reason: .failed) else { return }
                    for step in steps { core.remove(step.slot) }
                    let index = model.remove(id.rawValue)
                    guard let fresh = core.place(placement, lifecycle: .pending, history: history) else {
                        Issue.record("\(op): the place of a restart is gone")
                        return
                    }
                    let freshID = core.id(of: fresh)
                    #expect(freshID.rawValue > model.lastID)
                    #expect(core.restartHistory(of: fresh) == history)
                    model.add(freshID.rawValue, parent: old.parent, state: old.state, running: false, at: index)
                    slotsOf[freshID.rawValue] = fresh
                }
                let problems = Self.compare(core, model)
                #expect(problems.isEmpty, "after \(op): \(problems)")
                for old in model.gone {
                    #expect(core.slot(of: MachineID(rawValue: old, scope: core.scope, slot: slotsOf[old] ?? -1)) == nil)
                }
                if !problems.isEmpty { return }
            }
        }
    }

    /// One operation on the queue of a small tree: the numbers pick a machine among all the
    /// identities given so far (some of them gone).
    enum QueueOp: CustomStringConvertible {
        case event(Int)
        case start(Int)
        case stop(Int)
        case asyncFailure(Int)
        case startNext(Int, Int)
        case spawnPending
        case remove(Int)
        case take(released: Bool)

        init(_ kind: Int, _ a: Int, _ b: Int) {
            switch kind {
            case 0, 1: self = .event(a)
            case 2: self = .start(a)
            case 3: self = .stop(a)
            case 4: self = .asyncFailure(a)
            case 5: self = .startNext(a, b)
            case 6: self = .spawnPending
            case 7: self = .remove(a)
            default: self = .take(released: b == 0)
            }
        }

        var description: String {
            switch self {
            case .event(let m): "event(\(m))"
            case .start(let m): "start(\(m))"
            case .stop(let m): "stop(\(m))"
            case .asyncFailure(let m): "asyncFailure(\(m))"
            case .startNext(let a, let b): "startNext(\(a), \(b))"
            case .spawnPending: "spawnPending"
            case .remove(let m): "remove(\(m))"
            case .take(let released): "take(released: \(released))"
            }
        }
    }

    static let queueOps = zip(Gen.int(in: 0...10), Gen.int(in: 0...20), Gen.int(in: 0...3))
        .map { QueueOp($0, $1, $2) }.array(of: 1...60)

    /// A reference model of the queue, from docs/SUPERVISOR.md ("Run to completion"): one FIFO
    /// mailbox; starts of declared children and restarts go before anything else queued, in the order
    /// given (outermost first); machines whose owner is gone are swept before any message. Delivered:
    /// an event or async failure to a running machine (else dropped and reported), a start of a
    /// pending machine (else skipped), a stop of a machine still there (else skipped).
    struct ReferenceQueue {
        var first: [Core.Message] = []
        var fifo: [Core.Message] = []
        var lifecycle: [UInt64: Core.Lifecycle] = [:]  // live machines

        mutating func take(released: Bool) -> String? {
            if released { return "sweep" }
            while !first.isEmpty || !fifo.isEmpty {
                let message = first.isEmpty ? fifo.removeFirst() : first.removeFirst()
                switch message {
                case .event(let id, let event):
                    return lifecycle[id.rawValue] == .running ? "deliver \(event) to \(id)" : "drop \(event) for \(id)"
                case .start(let id):
                    guard lifecycle[id.rawValue] == .pending else { continue }
                    lifecycle[id.rawValue] = .running
                    return "start \(id)"
                case .stop(let id, _):
                    guard lifecycle[id.rawValue] != nil else { continue }
                    return "stop \(id)"
                case .asyncFailure(let id, _):
                    return lifecycle[id.rawValue] == .running ? "fail \(id)" : "drop failure for \(id)"
                case .timer:
                    continue  // these operations queue no timer (SupervisorTimerTests covers them)
                }
            }
            return nil
        }
    }

    @Test("Property: the queue gives work in the order, and to the machines, the reference model does")
    func queueMatchesModel() async {
        await propertyCheck(count: 300, input: Self.queueOps) { ops in
            var core = Core(scope: 5)
            var model = ReferenceQueue()
            let root = Self.place(&core)
            var ids = [core.id(of: root)]
            model.lifecycle[ids[0].rawValue] = .running
            for n in 0..<3 {
                let slot = Self.place(&core, under: root, n == 0 ? .pending : .running)
                ids.append(core.id(of: slot))
                model.lifecycle[core.id(of: slot).rawValue] = n == 0 ? .pending : .running
            }
            var events = 0
            for op in ops {
                func pick(_ n: Int) -> MachineID { ids[n % ids.count] }
                switch op {
                case .event(let m):
                    events += 1
                    core.enqueue(.event(pick(m), events))
                    model.fifo.append(.event(pick(m), events))
                case .start(let m):
                    core.enqueue(.start(pick(m)))
                    model.fifo.append(.start(pick(m)))
                case .stop(let m):
                    core.enqueue(.stop(pick(m), .stopped))
                    model.fifo.append(.stop(pick(m), .stopped))
                case .asyncFailure(let m):
                    core.enqueue(.asyncFailure(pick(m), Self.failure(pick(m))))
                    model.fifo.append(.asyncFailure(pick(m), Self.failure(pick(m))))
                case .startNext(let a, let b):
                    let batch = [pick(a), pick(b)]
                    core.startNext(batch)
                    model.first.insert(contentsOf: batch.map { .start($0) }, at: 0)
                case .spawnPending:
                    let slot = Self.place(&core, under: root, .pending)
                    ids.append(core.id(of: slot))
                    model.lifecycle[core.id(of: slot).rawValue] = .pending
                case .remove(let m):
                    let id = pick(m)
                    guard id != ids[0], let slot = core.slot(of: id) else { continue }
                    Self.tearDown(&core, slot)
                    model.lifecycle[id.rawValue] = nil
                case .take(let released):
                    let expected = model.take(released: released)
                    var got: String?
                    switch core.nextWork(released: released) {
                    case nil: got = nil
                    case .sweep: got = "sweep"
                    case .deliver(let event, let slot): got = "deliver \(event) to \(core.id(of: slot))"
                    case .start(let slot): got = "start \(core.id(of: slot))"
                    case .stop(let slot, _): got = "stop \(core.id(of: slot))"
                    case .fail(let slot, _): got = "fail \(core.id(of: slot))"
                    case .dropEvent(let id, let event): got = "drop \(event) for \(id)"
                    case .dropFailure(let id, _): got = "drop failure for \(id)"
                    case .fire(let timer, let slot): got = "fire \(timer) at \(core.id(of: slot))"
                    }
                    #expect(got == expected, "after \(op)")
                    if got != expected { return }
                }
                let queued = core.hasQueued
                #expect(queued == !(model.first.isEmpty && model.fifo.isEmpty))
            }
        }
    }

    /// Failures of one line of incarnations under a restart policy: how far the clock moves before
    /// each, and whether it happens while the machine starts again.
    static let failures = zip(Gen.int(in: 0...3), Gen.bool()).array(of: 1...12)

    @Test("Property: a line restarts while the reference model of docs/SUPERVISOR.md's restart limit allows, and keeps at most maxRestarts instants")
    func restartLimitMatchesModel() async {
        await propertyCheck(count: 400, input: Self.failures, Gen.int(in: 0...3), Gen.int(in: 0...3)) { failures, max, w in
            let window: Duration = [.zero, .milliseconds(1), .milliseconds(2), .seconds(1)][w]
            var core = Core(scope: 9)
            let root = Self.place(&core)
            var slot = Self.place(&core, under: root, state: 0)
            // The model: every restart instant of the line; failures while starting again, in a row.
            var restarts: [Duration] = []
            var failedStartsInARow = 0
            var now = Duration.zero
            for (advance, whileStarting) in failures {
                now += .milliseconds(advance)
                failedStartsInARow = whileStarting ? failedStartsInARow + 1 : 0
                // At most `max` restarts within the window (a closed interval); failures while
                // starting count whatever the window: the (max + 1)th in a row escalates.
                let allowed = restarts.filter { now - $0 <= window }.count < max && failedStartsInARow <= max
                let action = core.failure(of: slot, policy: .restart(maxRestarts: max, within: window),
                                          whileStarting: whileStarting, now: { now })
                guard case .restart(let placement, let history) = action else {
                    #expect(!allowed, "escalated although the model allows a restart")
                    #expect(action == .escalate(parent: root))
                    return
                }
                #expect(allowed, "restarted although the model does not allow it")
                #expect(history.instants.count <= max, "only what the window needs is kept")
                restarts.append(now)
                Self.tearDown(&core, slot, reason: .failed)
                guard let fresh = core.place(placement, lifecycle: .pending, history: history) else {
                    Issue.record("the place is gone")
                    return
                }
                slot = fresh
            }
        }
    }
}
