import Flowstate
import Foundation
import Testing

/// One regression test for each broken behaviour of the supervisor listed in the supervisor-core
/// issue, against the promises of docs/SUPERVISOR.md.
@Suite("Supervisor: regressions")
struct SupervisorRegressionTests {
    /// A flow whose every state has exit effects, for teardown order and exactly-once checks.
    enum Chain: Flow {
        enum State: String, Hashable, Sendable { case a, b, done }
        enum Event: FlowEvent { case next, finish, close, fail }
        typealias Effect = String
        typealias Output = String

        static let definition = FlowDefinition<Chain>("chain", initial: .a) {
            StateNode(.a, entry: ["enter a"], exit: ["exit a", "boom", "exit a again"]) {
                On(.next, to: .b, effects: ["go"])
                On(.close, to: nil, effects: ["close"])
                On(.fail, to: nil, effects: ["boom"])
                On(.finish, to: .done)
            }
            StateNode(.b, entry: ["enter b"], exit: ["exit b"]) {
                On(.next, to: .a)
            }
            Final(.done, output: "done")
        }
    }

    @Test("stop from inside a handler is queued: the handler is not re-entered and the step completes first")
    func stopFromHandler() throws {
        let supervisor = Supervisor()
        var depth = 0
        var maxDepth = 0
        var effects: [String] = []
        var handle: MachineHandle<Chain>?
        var recordInside: TeardownRecord?
        handle = try supervisor.start(Chain.definition) { effect, _ in
            depth += 1
            maxDepth = max(maxDepth, depth)
            defer { depth -= 1 }
            effects.append(effect)
            if effect == "go" { recordInside = supervisor.stop(handle!) }
        }
        try supervisor.send(.next, to: handle!)
        #expect(maxDepth == 1, "the handler was re-entered")
        #expect(recordInside?.isEmpty == true, "inside a step the stop is queued")
        #expect(effects == ["enter a", "exit a", "boom", "exit a again", "go", "enter b", "exit b"],
                "the step finished (enter b) before the queued stop exited b")
        #expect(!supervisor.contains(handle!.id))
    }

    @Test("A child spawned while its parent is being torn down is refused, and no zombie survives")
    func spawnDuringTeardown() throws {
        let supervisor = Supervisor()
        var refused: SupervisorError?
        var top: MachineHandle<Chain>?
        top = try supervisor.start(Chain.definition) { effect, _ in
            if effect == "exit a" {
                do {
                    try supervisor.spawn(Chain.definition, under: top!, handler: { _, _ in }, output: { _ in nil })
                } catch {
                    refused = error as? SupervisorError
                }
            }
        }
        supervisor.stop(top!)
        #expect(refused?.code == .machineGone)
        #expect(supervisor.liveCount == 0)
        #expect(supervisor.checkInvariants().isEmpty)
    }

    @Test("A child spawned from a handler gets its handle at once and starts after the step")
    func spawnFromHandler() throws {
        let supervisor = Supervisor()
        var order: [String] = []
        var child: MachineHandle<Chain>?
        var top: MachineHandle<Chain>?
        top = try supervisor.start(Chain.definition) { effect, _ in
            order.append("top: \(effect)")
            if effect == "go" {
                child = try supervisor.spawn(Chain.definition, under: top!, handler: { effect, _ in
                    order.append("child: \(effect)")
                }, output: { _ in nil })
                try supervisor.send(.next, to: child!)  // queued behind the child's start
            }
        }
        try supervisor.send(.next, to: top!)
        #expect(order == ["top: enter a", "top: exit a", "top: boom", "top: exit a again", "top: go", "top: enter b",
                          "child: enter a",
                          "child: exit a", "child: boom", "child: exit a again", "child: go", "child: enter b"])
        #expect(supervisor.checkInvariants().isEmpty)
        supervisor.stop(top!)  // the handlers capture the supervisor: stopping releases them
    }

    @Test("When one exit effect fails, the other exit effects of the teardown still run, and the failure is reported")
    func everyExitRuns() throws {
        let supervisor = Supervisor()
        let log = EffectLog()
        var failures: [String] = []
        supervisor.observe { event in
            if case .failed(_, let failure) = event { failures.append(failure.effect) }
        }
        let top = try supervisor.start(Chain.definition, handler: log.handler())
        let record = supervisor.stop(top)
        #expect(record.ids == [top.id])
        #expect(log.effects == ["enter a", "exit a", "boom", "exit a again"])
        #expect(failures == ["boom"])
    }

    @Test("A handle from another supervisor is a typed error: never a crash, never another machine")
    func foreignHandle() throws {
        let first = Supervisor()
        let second = Supervisor()
        let log = EffectLog()
        let theirs = try first.start(Chain.definition, handler: log.handler())
        let ours = try second.start(Leaf.definition, handler: log.handler())
        #expect(theirs.id.rawValue == ours.id.rawValue, "the same number in both supervisors")
        let error = #expect(throws: SupervisorError.self) { try second.send(.next, to: theirs) }
        #expect(error?.code == .machineGone)
        #expect(!second.contains(theirs.id))
        #expect(second.handle(of: theirs.id, as: Chain.self) == nil)
        #expect(second.stop(theirs.id).isEmpty)
        #expect(second.state(of: ours) == .a, "the machine with the same number was not touched")
        #expect(first.state(of: theirs) == .a)
        #expect(!first.contains(MachineID(rawValue: theirs.id.rawValue)), "a hand-made identity names no machine")
    }

    @Test("A handle names one incarnation: after a restart it is gone, and the replacement is reported")
    func handleAcrossRestart() throws {
        let supervisor = Supervisor(now: { .zero })
        var replacements: [(MachineID, MachineID)] = []
        supervisor.observe { if case .restarted(let old, let new) = $0 { replacements.append((old, new)) } }
        let log = EffectLog()
        let top = try supervisor.start(Top.definition(), handler: log.handler())
        let leaf = try supervisor.spawn(Chain.definition, under: top, policy: .restart(maxRestarts: 3, within: .seconds(60)),
                                        handler: log.handler(), output: { _ in nil })
        try supervisor.send(.fail, to: leaf)
        log.failBoom = false
        #expect(replacements.count == 1 && replacements[0].0 == leaf.id)
        #expect((#expect(throws: SupervisorError.self) { try supervisor.send(.next, to: leaf) })?.code == .machineGone)
        let fresh = try #require(supervisor.handle(of: replacements[0].1, as: Chain.self))
        try supervisor.send(.next, to: fresh)
        #expect(supervisor.state(of: fresh) == .b)
    }

    @Test("A child that fails on every entry exhausts its restart intensity and escalates, whatever the window")
    func failOnEntry() throws {
        enum Fragile: Flow {
            enum State: Hashable, Sendable { case a }
            typealias Event = String
            typealias Effect = String
            typealias Output = String
        }
        let fragile = FlowDefinition<Fragile>("fragile", initial: .a) {
            StateNode(.a, entry: ["boom"]) { On("x", to: .a) }
        }
        for window in [Duration.zero, .nanoseconds(1), .seconds(3600)] {
            var clock = Duration.zero
            let supervisor = Supervisor(now: { clock += .nanoseconds(10); return clock })
            var restarts = 0
            supervisor.observe { event in
                if case .restarted = event { restarts += 1 }
            }
            let log = EffectLog()
            let top = try supervisor.start(Top.definition(), policy: .stop, handler: log.handler())
            try supervisor.spawn(fragile, under: top, policy: .restart(maxRestarts: 5, within: window),
                                 handler: log.handler(), failure: { _ in .childFailed }, output: { _ in nil })
            #expect(restarts <= 6, "bounded restarts with window \(window)")
            #expect(supervisor.liveCount == 1, "the fragile child is gone, escalated to its parent")
        }
    }

    @Test("Restart history keeps only what the window needs: 1,000 failures far apart, at most maxRestarts kept")
    func restartHistoryBounded() throws {
        var clock = Duration.zero
        let supervisor = Supervisor(now: { clock })
        var current: MachineID?
        supervisor.observe { if case .restarted(_, let new) = $0 { current = new } }
        let log = EffectLog()
        let top = try supervisor.start(Top.definition(), handler: log.handler())
        let leaf = try supervisor.spawn(Chain.definition, under: top, policy: .restart(maxRestarts: 3, within: .seconds(1)),
                                        handler: log.handler(), output: { _ in nil })
        current = leaf.id
        for _ in 0..<1_000 {
            clock += .seconds(2)  // each failure outside the window of the previous ones
            let handle = try #require(supervisor.handle(of: current!, as: Chain.self))
            log.failBoom = true
            try supervisor.send(.fail, to: handle)
            log.failBoom = false
            #expect(supervisor.restartHistoryLength(of: current!) <= 3)
        }
        #expect(supervisor.liveCount == 2, "never escalated: each failure was alone in its window")
        #expect(supervisor.restartHistoryLength(of: current!) == 1)
        supervisor.stop(top)
    }

    @Test("A root's output reaches the app typed, once, after its teardown")
    func typedRootOutput() throws {
        let supervisor = Supervisor()
        var outputs: [String] = []
        var aliveWhenDelivered: Bool?
        var root: MachineHandle<Chain>?
        root = try supervisor.start(Chain.definition, output: { (output: String) in
            outputs.append(output)
            aliveWhenDelivered = supervisor.contains(root!.id)
        }) { _, _ in }
        try supervisor.send(.finish, to: root!)
        #expect(outputs == ["done"])
        #expect(aliveWhenDelivered == false, "delivered after the teardown")
    }

    @Test("A queued event that its machine refuses is reported to observers, not lost")
    func refusedQueuedEvent() throws {
        enum Strict: Flow {
            enum State: Hashable, Sendable { case a, b }
            enum Event: FlowEvent { case go, unknown }
            typealias Effect = String
            typealias Output = String
        }
        let strict = FlowDefinition<Strict>("strict", initial: .a, unhandledEvents: .fail) {
            StateNode(.a) { On(.go, to: .b, effects: ["send unknown"]) }
            StateNode(.b) { On(.go, to: .a) }
        }
        let supervisor = Supervisor()
        var refused: [TreeEvent] = []
        supervisor.observe { if case .refused = $0 { refused.append($0) } }
        let machine = try supervisor.start(strict) { effect, context in
            if effect == "send unknown" { context.send(.unknown) }
        }
        try supervisor.send(.go, to: machine)
        #expect(refused.count == 1)
        if case .refused(let id, let event, let error)? = refused.first {
            #expect(id == machine.id && event == "unknown" && error.code == .unhandledEvent)
        }
    }

    @Test("EffectContext.send never loses an event silently: gone is reported dropped, refused is reported refused")
    func contextSendReports() throws {
        enum Strict: Flow {
            enum State: Hashable, Sendable { case a, b }
            enum Event: FlowEvent { case go, unknown }
            typealias Effect = String
            typealias Output = String
        }
        let strict = FlowDefinition<Strict>("strict", initial: .a, unhandledEvents: .fail) {
            StateNode(.a, entry: ["keep"]) { On(.go, to: .b, effects: ["stop me, then send"]) }
            StateNode(.b) { On(.go, to: .a) }
        }
        let supervisor = Supervisor()
        var events: [TreeEvent] = []
        let observation = supervisor.observe { event in
            if case .dropped = event { events.append(event) }
            if case .refused = event { events.append(event) }
        }
        var kept: EffectContext<Strict>?
        let machine = try supervisor.start(strict) { effect, context in
            if effect == "keep" { kept = context }
        }
        kept!.send(.unknown)  // used after its step: sent at once, refused under .fail
        #expect(events.count == 1)
        if case .refused(let id, let event, let error)? = events.first {
            #expect(id == machine.id && event == "unknown" && error.code == .unhandledEvent)
        }
        supervisor.stop(machine)
        kept!.send(.go)  // the machine is gone: dropped
        #expect(events.count == 2)
        if case .dropped(let id, _)? = events.last { #expect(id == machine.id) }
        observation.cancel()
    }

    @Test("Every public call sweeps machines whose owner is gone before it observes the tree")
    func sweepsBeforeObserving() throws {
        let log = EffectLog()
        func released(_ body: (Supervisor, MachineHandle<Leaf>) throws -> Void) throws {
            let supervisor = Supervisor()
            let top = try supervisor.start(Top.definition(), handler: log.handler())
            var owner: FlowLifetime? = FlowLifetime()
            let child = try supervisor.spawn(Leaf.definition, under: top, owner: owner, handler: log.handler(),
                                             output: { _ in nil })
            owner = nil
            try body(supervisor, child)
        }
        try released { supervisor, child in #expect(!supervisor.contains(child.id)) }
        try released { supervisor, _ in #expect(supervisor.liveCount == 1) }
        try released { supervisor, _ in #expect(supervisor.machines.count == 1) }
        try released { supervisor, _ in
            let snapshot = try supervisor.snapshot()
            #expect(snapshot.roots[0].children.isEmpty)
        }
        try released { supervisor, child in #expect(supervisor.state(of: child) == nil) }
        try released { supervisor, child in #expect(supervisor.stop(child).isEmpty, "already swept") }
        try released { supervisor, child in
            #expect((#expect(throws: SupervisorError.self) { try supervisor.send(.next, to: child) })?.code == .machineGone)
        }
    }

    @Test("A dropped events() stream is removed at the next event")
    func droppedStreams() throws {
        let supervisor = Supervisor()
        for _ in 0..<100 { _ = supervisor.events() }
        #expect(supervisor.eventStreamCount == 100)
        let log = EffectLog()
        _ = try supervisor.start(Leaf.definition, handler: log.handler())
        #expect(supervisor.eventStreamCount == 0)
    }

    @Test("Snapshots and inspection are refused or safe from inside a handler")
    func reentrantSnapshot() throws {
        let supervisor = Supervisor()
        var error: SupervisorError?
        var seen = -1
        _ = try supervisor.start(Chain.definition) { effect, _ in
            if effect == "enter a" {
                do { _ = try supervisor.snapshot() } catch let e { error = e as? SupervisorError }
                seen = supervisor.liveCount
            }
        }
        #expect(error?.code == .reentrantCall)
        #expect(seen == 1)
        for machine in supervisor.machines { supervisor.stop(machine.id) }  // the handler captures the supervisor
    }

    @Test("A declared child stopped while its state stays active: the snapshot says so and restores as it was")
    func stoppedDeclaredChildRestores() throws {
        let log = EffectLog()
        let supervisor = Supervisor()
        _ = try SupervisorTests.threeLevels(log, supervisor: supervisor)
        let leaf = try #require(supervisor.machines.first { $0.flow == "leaf" })
        supervisor.stop(leaf.id)
        #expect(supervisor.machines.map(\.flow) == ["top", "mid"], "mid stays in 'running' without its child")
        let snapshot = try supervisor.snapshot()
        #expect(snapshot.roots[0].children[0].stoppedChildren == ["running"])
        let target = Supervisor()
        try target.restore(snapshot.roots[0], definition: Top.definition(), handler: log.handler())
        #expect(target.machines.map(\.flow) == ["top", "mid"])
        #expect(try target.snapshot() == snapshot, "restores to the tree it pictured")
        // Without the mark, a declared child missing is still a mismatch.
        var corrupt = snapshot.roots[0]
        corrupt.children[0].stoppedChildren = []
        let error = #expect(throws: SupervisorError.self) {
            try Supervisor().restore(corrupt, definition: Top.definition(), handler: log.handler())
        }
        #expect(error?.message.contains("does not have") == true)
        let json = try JSONEncoder().encode(snapshot)
        #expect(try JSONDecoder().decode(TreeSnapshot.self, from: json) == snapshot)
    }

    @Test("restore refuses impossible snapshots and leaves the supervisor unchanged")
    func restoreValidates() throws {
        let log = EffectLog()
        let supervisor = Supervisor()
        _ = try SupervisorTests.threeLevels(log, supervisor: supervisor)
        let good = try supervisor.snapshot().roots[0]

        var missing = good
        missing.children = []
        var twice = good
        twice.children.append(good.children[0])
        var unknown = good
        unknown.state = "nowhere"
        var final = good
        final.state = "over"

        for (snapshot, words) in [(missing, "does not have"), (twice, "two"), (unknown, "no state"), (final, "over")] {
            let target = Supervisor()
            let error = #expect(throws: SupervisorError.self) {
                try target.restore(snapshot, definition: Top.definition(), handler: log.handler())
            }
            #expect(error?.code == .snapshotMismatch)
            #expect(error?.message.contains(words) == true, "\(error?.message ?? "") should say \(words)")
            #expect(target.liveCount == 0, "nothing restored")
        }
        let json = try JSONEncoder().encode(TreeSnapshot(roots: [good]))
        let future = String(decoding: json, as: UTF8.self).replacingOccurrences(of: "\"version\":1", with: "\"version\":2")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(TreeSnapshot.self, from: Data(future.utf8)) }
    }

    @Test("A 100,000-deep chain of machines starts, snapshots, is inspected and stops in constant stack")
    func deepChain() throws {
        let depth = 100_000
        let supervisor = Supervisor()
        let log = EffectLog()
        let root = try supervisor.start(Leaf.definition, handler: log.handler())
        var last = root
        for _ in 1..<depth {
            last = try supervisor.spawn(Leaf.definition, under: last, handler: { _, _ in }, output: { _ in nil })
        }
        #expect(supervisor.liveCount == depth)
        let snapshot = try supervisor.snapshot()
        #expect(snapshot.roots.count == 1)
        #expect(supervisor.machines.last?.depth == depth - 1)
        let record = supervisor.stop(root)
        #expect(record.ids.count == depth)
        #expect(record.ids.first == last.id && record.ids.last == root.id, "children first")
        #expect(supervisor.liveCount == 0)
        withExtendedLifetime(snapshot) {}
    }

    @Test("A 10,000-deep chain of declared children starts, snapshots, restores in a new supervisor and stops")
    func deepDeclaredChain() throws {
        enum Nest: Flow {
            enum State: Hashable, Sendable { case open, done }
            typealias Event = String
            typealias Effect = String
            typealias Output = String
        }
        // 10,000 nested definitions, each naming the next as its child flow: freeing them is iterative
        // too (IterativeRelease), or this test would overflow a thread's stack when it ends.
        let depth = 10_000
        var definition = FlowDefinition<Nest>("nest", initial: .open) {
            StateNode(.open) { On("close", to: .done) }
            Final(.done, output: "closed")
        }
        for _ in 1..<depth {
            let child = ChildFlow<Nest>(definition, output: { _ in "close" })
            definition = FlowDefinition<Nest>("nest", initial: .open) {
                StateNode(.open, runs: child) { On("close", to: .done) }
                Final(.done, output: "closed")
            }
        }
        let supervisor = Supervisor()
        let root = try supervisor.start(definition) { _, _ in }
        #expect(supervisor.liveCount == depth)
        let snapshot = try supervisor.snapshot()
        let restored = Supervisor()
        let again = try restored.restore(snapshot.roots[0], definition: definition) { _, _ in }
        #expect(restored.liveCount == depth)
        #expect(try restored.snapshot() == snapshot)
        #expect(restored.stop(again).ids.count == depth)
        // Closing the innermost completes it; its output closes its parent, and so on up: all through the queue.
        let innermost = try #require(supervisor.handle(of: supervisor.machines.last!.id, as: Nest.self))
        try supervisor.send("close", to: innermost)
        #expect(supervisor.liveCount == 0)
        #expect(!supervisor.contains(root.id))
    }

    @Test("A failure escalates up a 100,000-deep chain in constant stack; the root's policy ends it")
    func deepEscalation() throws {
        let depth = 100_000
        let supervisor = Supervisor()
        let log = EffectLog()
        let root = try supervisor.start(Leaf.definition, policy: .stop, handler: log.handler())
        var last = root
        for _ in 1..<depth {
            last = try supervisor.spawn(Leaf.definition, under: last, handler: log.handler(), output: { _ in nil })
        }
        try supervisor.send(.fail, to: last)
        #expect(supervisor.liveCount == 0)
    }

    @Test("Stopping 100,000 siblings one at a time, and their owner-bound spawns, leave nothing behind")
    func manySiblings() throws {
        let supervisor = Supervisor()
        let log = EffectLog()
        let root = try supervisor.start(Top.definition(), handler: log.handler())
        var lifetimes: [FlowLifetime] = []
        var children: [MachineHandle<Leaf>] = []
        for _ in 0..<100_000 {
            let lifetime = FlowLifetime()
            lifetimes.append(lifetime)
            children.append(try supervisor.spawn(Leaf.definition, under: root, owner: lifetime, handler: { _, _ in },
                                                 output: { _ in nil }))
        }
        for child in children.prefix(50_000) { supervisor.stop(child) }
        lifetimes.removeAll()
        #expect(supervisor.liveCount == 1)
        #expect(supervisor.checkInvariants().isEmpty)
    }
}
