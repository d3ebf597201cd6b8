import Flowstate
import FlowTesting
import FlowTestSupport
import PropertyBased
import Testing

@Suite("Supervisor command generators and checks")
struct SupervisorGenTests {
    static func text(of issue: Issue) -> String { issue.comments.map(\.rawValue).joined(separator: "\n") }

    /// A parent whose declared worker restarts once, then reports its failure as an event; workers and
    /// nodes may be spawned under any machine. Handlers throw on "boom", as a failing handler does.
    static var universe: SupervisorUniverse {
        SupervisorUniverse(root: Parent.definition(policy: .restart(maxRestarts: 1, within: .seconds(60)), mapsFailure: true),
                           handler: { effect, _ in if effect == "worker: boom" { throw Boom() } })
            .adding(Worker.definition, handler: { effect, _ in if effect == "boom" { throw Boom() } },
                    output: { _ in Parent.Event.childDone })
            .adding(Node.definition, handler: { effect, _ in if effect == "boom" { throw Boom() } },
                    output: { _ in Node.Event.next })
    }

    @Test("The universe names its flows by position")
    func flows() {
        #expect(Self.universe.flowNames == ["parent", "worker", "node"])
    }

    @Test("A true invariant holds after every command of generated sequences; the kit's laws hold too")
    func holds() {
        let found = SupervisorCheck.everyCommand(of: Self.universe, count: 100, seed: 7) { supervisor, _ in
            // A declared worker runs only while its parent is in `working`.
            let machines = supervisor.machines
            return machines.allSatisfy { machine in
                guard machine.parentState != nil else { return true }
                return machines.first { $0.id == machine.parent }?.state == "working"
            }
        }
        #expect(found == nil)
    }

    @Test("A wrong invariant is caught and shrunk to a few commands, printed as Swift")
    func counterexample() throws {
        let found = try #require(SupervisorCheck.counterexample(of: Self.universe, seed: 1) { _, events in
            !events.contains { if case .restarted = $0 { true } else { false } }  // "nothing restarts": wrong
        })
        #expect(found.commands.count == 2, "\(found)")
        #expect(found.failingCommand == found.commands.count)
        #expect(found.done.count == found.commands.count)
        #expect(found.swiftCode() == """
            try SupervisorCheck.run(universe, commands: [
                .send(machine: 0, event: 0),  // send .go to #1 'parent' in idle
                .send(machine: 1, event: 2),  // send .fail to #2 'worker' in busy
            ]) { supervisor, events in
                // the invariant
            }
            """)
        #expect(found.report().contains("Invariant violated (seed 1, after \(found.tries) sequence"))
        // The same seed finds the same counterexample.
        let again = SupervisorCheck.counterexample(of: Self.universe, seed: 1) { _, events in
            !events.contains { if case .restarted = $0 { true } else { false } }
        }
        #expect(again?.commands == found.commands)
    }

    @Test("everyCommand records the counterexample at the caller's line")
    func records() {
        let line = #line + 2
        withKnownIssue {
            SupervisorCheck.everyCommand(of: Self.universe, seed: 3, universeName: "Trees.universe") { supervisor, _ in
                supervisor.liveCount < 3
            }
        } matching: { issue in
            let text = Self.text(of: issue)
            return issue.sourceLocation?.line == line && text.contains("Regression test:")
                && text.contains("try SupervisorCheck.run(Trees.universe, commands: [")
                && text.contains("the invariant is false after command")
        }
    }

    @Test("A counterexample pasted into a regression test replays the failure")
    func pasted() throws {
        let found = try #require(SupervisorCheck.counterexample(of: Self.universe, seed: 1) { _, events in
            !events.contains { if case .restarted = $0 { true } else { false } }
        })
        // What the counterexample's code runs, with the invariant as an expectation.
        var restarts = 0
        try SupervisorCheck.run(Self.universe, commands: found.commands) { _, events in
            restarts += events.filter { if case .restarted = $0 { true } else { false } }.count
        }
        #expect(restarts == 1)
    }

    @Test("Pasted commands: a worker spawned with .restart fails, restarts, fails again and escalates")
    func restartThenEscalate() throws {
        var log: [String] = []
        try SupervisorCheck.run(Self.universe, commands: [
            .spawn(flow: 1, under: 0, policy: 2),  // a worker under the root, restarting at most twice
            .fail(machine: 1),
            .send(machine: 1, event: 0),  // its tick fails: restarted
            .fail(machine: 1),
            .send(machine: 1, event: 0),  // restarted again
            .fail(machine: 1),
            .send(machine: 1, event: 0),  // a third failure escalates: the root fails and stops its tree
        ]) { supervisor, events in
            for event in events {
                switch event {
                case .restarted: log.append("restarted")
                case .tornDown(_, .failed): log.append("failed")
                default: break
                }
            }
            log.append("live \(supervisor.liveCount)")
        }
        #expect(log == ["live 2", "live 2", "failed", "restarted", "live 2", "live 2", "failed", "restarted", "live 2",
                        "live 2", "failed", "failed", "live 0"])
    }

    @Test("Calls armed inside a step and at a teardown are made there, and queued until the step ends")
    func armedCalls() throws {
        var log: [String] = []
        let universe = SupervisorUniverse(root: Node.definition) { effect, context in
            log.append("\(context.origin.rawValue) \(effect)")
        }
        var counts: [Int] = []
        try SupervisorCheck.run(universe, calls: [
            .command(.spawn(flow: 0, under: 0, policy: 1)),  // #2 under #1
            .duringStep(machine: 0, .stop(machine: 1)),  // #1's next effect stops #2
            .atTeardown(.spawn(flow: 0, under: 0, policy: 0)),  // the next teardown spawns #3 under #1
            .command(.send(machine: 0, event: 0)),  // next: #1's step first, then #2 stops, then #3 starts
        ]) { supervisor, _ in
            counts.append(supervisor.liveCount)
        }
        #expect(log == ["1 in a", "2 in a", "1 out a", "1 act", "1 in b", "2 out a", "3 in a"])
        #expect(counts == [2, 2, 2, 2])
        #expect(SupervisorCall.duringStep(machine: 0, .stop(machine: 1)).description == ".duringStep(machine: 0, .stop(machine: 1))")
    }

    @Test("Snapshot and restore: declared children come back, dynamic ones do not")
    func snapshotRestore() throws {
        var counts: [Int] = []
        try SupervisorCheck.run(Self.universe, commands: [
            .send(machine: 0, event: 0),  // go: the root spawns its declared worker
            .spawn(flow: 2, under: 0, policy: 0),  // a node under the root
            .snapshotRestore,
        ]) { supervisor, _ in
            counts.append(supervisor.liveCount)
        }
        #expect(counts == [2, 3, 2])
    }

    @Test("A declared child stopped while its state stays active: the snapshot restores, without it (once a bug: refused)")
    func stoppedChildRestores() throws {
        var supervisors: [ObjectIdentifier] = []
        var counts: [Int] = []
        try SupervisorCheck.run(Self.universe, commands: [
            .send(machine: 0, event: 0),  // go: the root spawns its declared worker
            .stop(machine: 1),  // the worker stops; the root stays in working
            .snapshotRestore,
        ]) { supervisor, _ in
            supervisors.append(ObjectIdentifier(supervisor))
            counts.append(supervisor.liveCount)
        }
        #expect(counts == [2, 1, 1])
        #expect(Set(supervisors).count == 2, "the run goes on with the restored tree")
    }

    @Test("Generated sequences have the lengths asked for and every kind of command")
    func generated() {
        var rng = Xoshiro(seed: (1, 2, 3, 4))
        let generator = FlowGen.supervisorCommands(for: Self.universe, length: 5...10)
        var kinds = Set<String>()
        for _ in 0..<200 {
            let commands = generator.run(using: &rng)
            #expect((5...10).contains(commands.count))
            for command in commands { kinds.insert(String(command.description.prefix { $0 != "(" })) }
        }
        #expect(kinds == [".send", ".spawn", ".stop", ".fail", ".releaseOwner", ".sweep", ".snapshotRestore"])
    }

    @Test("A root that cannot start, and an invariant that throws, are reported")
    func problems() throws {
        enum Loop: Flow {
            enum State: Hashable, Sendable { case a, b }
            enum Event: FlowEvent { case go }
            typealias Effect = String
            typealias Output = Never
        }
        let looping = FlowDefinition<Loop>("loop", initial: .a) {
            StateNode(.a) { Always(to: .b) }
            StateNode(.b) { Always(to: .a) }
        }
        let found = SupervisorCheck.counterexample(of: SupervisorUniverse(root: looping), count: 1, seed: 1) { _, _ in true }
        #expect(found?.failingCommand == 0)
        #expect(found?.message.contains("the root 'loop' cannot start") == true)
        struct Wrong: Error {}
        let threw = SupervisorCheck.counterexample(of: Self.universe, seed: 2) { _, _ in throw Wrong() }
        #expect(threw?.commands.count == 1)
        #expect(threw?.message.contains("the invariant threw after command 1") == true)
    }

    /// The project's tree laws (`SupervisorProperties.treeLaws`), written on the kit: the generator
    /// builds the commands, `SupervisorCheck.run` runs them, the laws are `#expect`s on the events.
    final class Laws {
        var parent: [MachineID: MachineID] = [:]
        var tornDown = Set<MachineID>()
        var balance: [MachineID: [String: Int]] = [:]
        var problems: [String] = []

        func perform(_ effect: String, origin: MachineID) {
            if tornDown.contains(origin) { problems.append("\(origin) performed \(effect) after its teardown") }
            let parts = effect.replacingOccurrences(of: "worker: ", with: "").split(separator: " ")
            switch (parts.first, parts.count) {
            case ("in"?, 2), ("start"?, 1): balance[origin, default: [:]][String(parts.last!), default: 0] += 1
            case ("out"?, 2), ("stop"?, 1): balance[origin, default: [:]][parts.count == 2 ? String(parts.last!) : "start", default: 0] -= 1
            default: break
            }
        }

        func record(_ events: [TreeEvent]) {
            for event in events {
                switch event {
                case .spawned(let id, _, let parent?, _, _): self.parent[id] = parent
                case .tornDown(let id, let reason):
                    if !tornDown.insert(id).inserted { problems.append("\(id) torn down twice") }
                    if let parent = parent[id], tornDown.contains(parent) {
                        problems.append("\(parent) torn down before its child \(id)")
                    }
                    // Every state whose entry ran was exited. (Not the converse: a restored machine
                    // performed no entry, and a step whose effect failed skipped the rest of its effects,
                    // entries included, yet the teardown exits the states the machine is in.)
                    let open = (balance[id] ?? [:]).filter { $0.value > 0 }
                    if reason != .completed && !open.isEmpty { problems.append("\(id) (\(reason)) left \(open) unexited") }
                default: break
                }
            }
        }
    }

    @Test("The tree laws on generated command sequences, with propertyCheck and #expect")
    func laws() async {
        await propertyCheck(count: 60, input: FlowGen.supervisorCommands(for: Self.universe, length: 1...25)) { commands in
            let laws = Laws()
            let universe = SupervisorUniverse(
                root: Parent.definition(policy: .restart(maxRestarts: 1, within: .seconds(60)), mapsFailure: true),
                handler: { effect, context in
                    laws.perform(effect, origin: context.origin)
                    if effect == "worker: boom" { throw Boom() }
                })
                .adding(Worker.definition, handler: { effect, context in
                    laws.perform(effect, origin: context.origin)
                    if effect == "boom" { throw Boom() }
                }, output: { _ in Parent.Event.childDone })
                .adding(Node.definition, handler: { effect, context in
                    laws.perform(effect, origin: context.origin)
                    if effect == "boom" { throw Boom() }
                }, output: { _ in Node.Event.next })
            try SupervisorCheck.run(universe, commands: commands) { supervisor, events in
                laws.record(events)
                #expect(supervisor.liveCount == supervisor.machines.count)
            }
            #expect(laws.problems.isEmpty, "\(laws.problems)")
        }
    }
}
