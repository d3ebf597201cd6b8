import Flowstate
import Foundation
import Testing

/// A desk: mail and chat are regions of one parallel state; each region's first state runs a child,
/// and the parallel state runs one of its own.
enum Desk: Flow {
    enum State: String, Hashable, Sendable, CustomStringConvertible {
        case idle, working, mail, inbox, archive, mailDone, chat, talking, quiet, chatDone, closed
        var description: String { rawValue }
    }
    enum Event: FlowEvent, CaseIterable { case start, archive, mailFinished, chatFinished, hush, talk, leave, recheck }
    typealias Effect = String
    typealias Output = String

    /// A child flow of `Leaf`'s type under its own name: a → b → done, each state's entry and exit
    /// logged as "enter <name>.<state>".
    static func note(_ name: String) -> FlowDefinition<Leaf> {
        FlowDefinition<Leaf>(name, initial: .a) {
            StateNode(.a, entry: ["enter \(name).a"], exit: ["exit \(name).a"]) { On(.next, to: .b) }
            StateNode(.b, entry: ["enter \(name).b"], exit: ["exit \(name).b"]) { On(.next, to: .done) }
            Final(.done, output: "\(name) output")
        }
    }

    static let definition = FlowDefinition<Desk>("desk", initial: .idle) {
        StateNode(.idle, entry: ["enter desk.idle"], exit: ["exit desk.idle"]) { On(.start, to: .working) }
        Parallel(.working, runs: ChildFlow(note("timer"), output: { _ in nil }),
                 entry: ["enter desk.working"], exit: ["exit desk.working"]) {
            StateNode(.mail, initial: .inbox, entry: ["enter desk.mail"], exit: ["exit desk.mail"]) {
                StateNode(.inbox, runs: ChildFlow(note("inbox"), output: { _ in .mailFinished }),
                          entry: ["enter desk.inbox"], exit: ["exit desk.inbox"]) {
                    On(.archive, to: .archive)
                    On(.mailFinished, to: .mailDone)
                    On(.recheck, to: .inbox)
                }
                StateNode(.archive, entry: ["enter desk.archive"], exit: ["exit desk.archive"]) {
                    On(.archive, to: .inbox)
                }
                Final(.mailDone, output: "mail done", entry: ["enter desk.mailDone"])
            }
            StateNode(.chat, initial: .talking, entry: ["enter desk.chat"], exit: ["exit desk.chat"]) {
                StateNode(.talking, runs: ChildFlow(note("chat"), output: { _ in .chatFinished }),
                          entry: ["enter desk.talking"], exit: ["exit desk.talking"]) {
                    On(.hush, to: .quiet)
                    On(.chatFinished, to: .chatDone)
                }
                StateNode(.quiet, entry: ["enter desk.quiet"], exit: ["exit desk.quiet"]) { On(.talk, to: .talking) }
                Final(.chatDone, output: "chat done", entry: ["enter desk.chatDone"])
            }
            On(.leave, to: .idle)
            On(done: .working, to: .closed)
        }
        StateNode(.closed, entry: ["enter desk.closed"]) { On(.start, to: .working) }
    }
}

/// An office whose one state runs a desk: a parallel flow as a declared child.
enum Office: Flow {
    enum State: String, Hashable, Sendable, CustomStringConvertible {
        case open
        var description: String { rawValue }
    }
    enum Event: FlowEvent, CaseIterable { case deskDone }
    typealias Effect = String
    typealias Output = String

    static let definition = FlowDefinition<Office>("office", initial: .open) {
        StateNode(.open, runs: ChildFlow<Office>(Desk.definition, output: { _ in Office.Event.deskDone }))
    }
}

@Suite("Parallel states under a supervisor")
@MainActor
struct ParallelSupervisorTests {
    /// The teardowns observed, as "flow (reason)", in order.
    final class Teardowns {
        var names: [MachineID: String] = [:]
        var lines: [String] = []
        var events: [TreeEvent] = []

        func observe(_ supervisor: Supervisor) -> FlowObservation {
            supervisor.observe { [unowned self] event in
                events.append(event)
                switch event {
                case .spawned(let id, let flow, _, _, _): names[id] = flow
                case .tornDown(let id, let reason): lines.append("\(names[id] ?? "?") (\(reason))")
                default: break
                }
            }
        }
    }

    static func handle<F: Flow>(_ flow: String, in supervisor: Supervisor, as type: F.Type) -> MachineHandle<F>? {
        supervisor.machines.first { $0.flow == flow }.flatMap { supervisor.handle(of: $0.id, as: F.self) }
    }

    @Test("Entering a parallel state spawns the declared children of every region's state at once, in document order")
    func regionsRunChildren() throws {
        let log = EffectLog()
        let supervisor = Supervisor()
        let desk = try supervisor.start(Desk.definition, handler: log.handler())
        try supervisor.send(.start, to: desk)
        #expect(supervisor.machines.map(\.flow) == ["desk", "timer", "inbox", "chat"])
        #expect(supervisor.machines.map(\.parentState) == [nil, "working", "inbox", "talking"])
        #expect(supervisor.machines[0].leaves == ["inbox", "talking"])
        #expect(supervisor.machines[0].state == "inbox, talking")
        #expect(supervisor.leaves(of: desk) == [.inbox, .talking])
        #expect(supervisor.state(of: desk) == .inbox)
        #expect(log.effects == [
            "enter desk.idle", "exit desk.idle", "enter desk.working", "enter desk.mail", "enter desk.inbox",
            "enter desk.chat", "enter desk.talking", "enter timer.a", "enter inbox.a", "enter chat.a",
        ])
        #expect(supervisor.checkInvariants().isEmpty)
    }

    @Test("A region that leaves its state tears down only that state's child; the other regions' children keep running")
    func oneRegionLeaves() throws {
        let log = EffectLog()
        let supervisor = Supervisor()
        let teardowns = Teardowns()
        let observation = teardowns.observe(supervisor)
        let desk = try supervisor.start(Desk.definition, handler: log.handler())
        try supervisor.send(.start, to: desk)
        let chat = try #require(Self.handle("chat", in: supervisor, as: Leaf.self))
        log.entries.removeAll()
        try supervisor.send(.archive, to: desk)
        #expect(teardowns.lines == ["inbox (parent left its state)"])
        #expect(log.effects == ["exit inbox.a", "exit desk.inbox", "enter desk.archive"],
                "the child goes before the state's exit effects")
        #expect(supervisor.machines.map(\.flow) == ["desk", "timer", "chat"])
        #expect(supervisor.contains(chat.id), "the other region's child keeps running")
        #expect(supervisor.leaves(of: desk) == [.archive, .talking])

        // The chat region leaves its state: its child goes; mail's state, re-entered, runs a new one.
        try supervisor.send(.hush, to: desk)
        #expect(!supervisor.contains(chat.id))
        try supervisor.send(.archive, to: desk)
        #expect(supervisor.machines.map(\.flow) == ["desk", "timer", "inbox"])
        #expect(teardowns.lines == ["inbox (parent left its state)", "chat (parent left its state)"])
        #expect(supervisor.checkInvariants().isEmpty)
        _ = observation
    }

    @Test("A self-transition on a region's state keeps its child, as in a flow without parallel states")
    func selfTransitionKeepsChild() throws {
        let log = EffectLog()
        let supervisor = Supervisor()
        let desk = try supervisor.start(Desk.definition, handler: log.handler())
        try supervisor.send(.start, to: desk)
        let inbox = try #require(Self.handle("inbox", in: supervisor, as: Leaf.self))
        log.entries.removeAll()
        try supervisor.send(.recheck, to: desk)
        #expect(log.effects == ["exit desk.inbox", "enter desk.inbox"])
        #expect(supervisor.contains(inbox.id))
        #expect(supervisor.liveCount == 4)
    }

    @Test("Leaving the whole parallel state tears every region's children down in SCXML's exit order, whatever the spawn order")
    func wholeParallelLeft() throws {
        let log = EffectLog()
        let supervisor = Supervisor()
        let teardowns = Teardowns()
        let observation = teardowns.observe(supervisor)
        let desk = try supervisor.start(Desk.definition, handler: log.handler())
        try supervisor.send(.start, to: desk)
        // Mail's child is spawned again after chat's: spawn order is now timer, chat, inbox.
        try supervisor.send(.archive, to: desk)
        try supervisor.send(.archive, to: desk)
        #expect(supervisor.machines.map(\.flow) == ["desk", "timer", "inbox", "chat"],
                "declared children are kept in document order of their states")
        teardowns.lines.removeAll()
        log.entries.removeAll()
        try supervisor.send(.leave, to: desk)
        #expect(teardowns.lines == ["chat (parent left its state)", "inbox (parent left its state)",
                                    "timer (parent left its state)"],
                "reverse document order of the states exited: talking, inbox, working")
        #expect(log.effects == [
            "exit chat.a", "exit inbox.a", "exit timer.a",
            "exit desk.talking", "exit desk.chat", "exit desk.inbox", "exit desk.mail", "exit desk.working",
            "enter desk.idle",
        ])
        #expect(supervisor.machines.map(\.flow) == ["desk"])
        #expect(supervisor.checkInvariants().isEmpty)
        _ = observation
    }

    @Test("Stopping the parent tears its parallel state's children down in the same order")
    func stopParent() throws {
        let log = EffectLog()
        let supervisor = Supervisor()
        let desk = try supervisor.start(Desk.definition, handler: log.handler())
        try supervisor.send(.start, to: desk)
        try supervisor.send(.archive, to: desk)
        try supervisor.send(.archive, to: desk)
        log.entries.removeAll()
        let record = supervisor.stop(desk)
        #expect(record.machines.map(\.flow) == ["chat", "inbox", "timer", "desk"])
        #expect(log.effects == [
            "exit chat.a", "exit inbox.a", "exit timer.a",
            "exit desk.talking", "exit desk.chat", "exit desk.inbox", "exit desk.mail", "exit desk.working",
        ], "the parent's own exits: every active state, innermost first, later regions first")
    }

    @Test("Children's outputs arrive as events; an output that completes a region, then the other, makes the parallel state done")
    func outputsFinishRegions() throws {
        let log = EffectLog()
        let supervisor = Supervisor()
        let teardowns = Teardowns()
        let observation = teardowns.observe(supervisor)
        let desk = try supervisor.start(Desk.definition, handler: log.handler())
        try supervisor.send(.start, to: desk)
        let inbox = try #require(Self.handle("inbox", in: supervisor, as: Leaf.self))
        try supervisor.send(.next, to: inbox)
        try supervisor.send(.next, to: inbox)
        #expect(!supervisor.contains(inbox.id))
        #expect(supervisor.leaves(of: desk) == [.mailDone, .talking], "the output completed the mail region only")
        #expect(supervisor.machines.map(\.flow) == ["desk", "timer", "chat"])

        let chat = try #require(Self.handle("chat", in: supervisor, as: Leaf.self))
        try supervisor.send(.next, to: chat)
        try supervisor.send(.next, to: chat)
        #expect(supervisor.leaves(of: desk) == [.closed], "done.state.working took the desk to closed")
        #expect(supervisor.machines.map(\.flow) == ["desk"])
        #expect(teardowns.lines == ["inbox (completed)", "chat (completed)", "timer (parent left its state)"])
        #expect(Array(log.effects.suffix(8)) == [
            "exit chat.b", "exit timer.a", "exit desk.talking", "enter desk.chatDone",
            "exit desk.chat", "exit desk.mail", "exit desk.working", "enter desk.closed",
        ], "the chat's output completes its region in one step with done.state, which leaves the parallel state")
        #expect(supervisor.checkInvariants().isEmpty)
        _ = observation
    }

    @Test("Tree events and inspection report every active leaf of a parallel machine")
    func observation() throws {
        let log = EffectLog()
        let supervisor = Supervisor()
        let teardowns = Teardowns()
        let observation = teardowns.observe(supervisor)
        let desk = try supervisor.start(Desk.definition, handler: log.handler())
        try supervisor.send(.start, to: desk)
        try supervisor.send(.hush, to: desk)
        let moves = teardowns.events.compactMap { event -> String? in
            if case .transitioned(desk.id, let from, let to, let event, _) = event { return "\(from) --\(event)--> \(to)" }
            return nil
        }
        #expect(moves == ["idle --start--> inbox, talking", "inbox, talking --hush--> inbox, quiet"])
        #expect(supervisor.treeDescription.hasPrefix("\(desk.id) desk in inbox, quiet"), "\(supervisor.treeDescription)")
        _ = observation
    }

    @Test("A snapshot of a parent resting in two regions with their children alive restores to the same tree, which runs on the same")
    func snapshotRoundTrip() throws {
        let log = EffectLog()
        let supervisor = Supervisor()
        let desk = try supervisor.start(Desk.definition, handler: log.handler())
        try supervisor.send(.start, to: desk)
        let inbox = try #require(Self.handle("inbox", in: supervisor, as: Leaf.self))
        try supervisor.send(.next, to: inbox)
        let snapshot = try supervisor.snapshot()
        let root = try #require(snapshot.roots.first)
        #expect(root.state == "inbox")
        #expect(root.leaves == ["inbox", "talking"])
        #expect(root.children.map(\.parentState) == ["working", "inbox", "talking"])
        #expect(root.children.map(\.state) == ["a", "b", "a"])

        let json = try JSONEncoder().encode(snapshot)
        let decoded = try JSONDecoder().decode(TreeSnapshot.self, from: json)
        #expect(decoded == snapshot)

        let restoredLog = EffectLog()
        let restoredSupervisor = Supervisor()
        let restored = try restoredSupervisor.restore(decoded.roots[0], definition: Desk.definition,
                                                      handler: restoredLog.handler())
        #expect(restoredLog.effects.isEmpty, "restoring performs no effect")
        #expect(try restoredSupervisor.snapshot() == snapshot)
        #expect(restoredSupervisor.machines.map(\.state) == supervisor.machines.map(\.state))
        #expect(restoredSupervisor.leaves(of: restored) == [.inbox, .talking])

        // Both trees go on the same: leaving the parallel state tears the restored children down in order.
        log.entries.removeAll()
        let original = supervisor.stop(desk).machines.map(\.flow)
        let again = restoredSupervisor.stop(restored).machines.map(\.flow)
        #expect(original == ["chat", "inbox", "timer", "desk"])
        #expect(again == original)
        #expect(restoredLog.effects == log.effects)
    }

    @Test("A snapshot of a machine with one leaf is written as before (no leaves key), and an old one restores")
    func oneLeafFormat() throws {
        let supervisor = Supervisor()
        let log = EffectLog()
        let top = try supervisor.start(Top.definition(), handler: log.handler())
        try supervisor.send(.go, to: top)
        let snapshot = try supervisor.snapshot()
        let text = String(decoding: try JSONEncoder().encode(snapshot), as: UTF8.self)
        #expect(!text.contains("leaves"))
        let old = #"{"version":1,"roots":[{"flow":"top","state":"busy","children":[{"flow":"mid","state":"idle","slot":"busy","children":[]}]}]}"#
        let decoded = try JSONDecoder().decode(TreeSnapshot.self, from: Data(old.utf8))
        let restored = try Supervisor().restore(decoded.roots[0], definition: Top.definition(), handler: log.handler())
        _ = restored
        #expect(decoded.roots[0].leaves.isEmpty)
    }

    @Test("Restoring leaves that make no configuration the flow can be in is refused, saying what and where; nothing is restored")
    func impossibleConfiguration() throws {
        let log = EffectLog()
        let supervisor = Supervisor()
        let desk = try supervisor.start(Desk.definition, handler: log.handler())
        try supervisor.send(.start, to: desk)
        let snapshot = try #require(try supervisor.snapshot().roots.first)

        let target = Supervisor()
        func refusal(_ leaves: [String], _ change: (inout MachineSnapshot) -> Void = { _ in }) -> SupervisorError? {
            var broken = snapshot
            broken.leaves = leaves
            broken.state = leaves[0]
            change(&broken)
            do {
                _ = try target.restore(broken, definition: Desk.definition, handler: log.handler())
                return nil
            } catch {
                return error
            }
        }
        let missingRegion = try #require(refusal(["inbox"]) { $0.children.removeLast() })
        #expect(missingRegion.code == .snapshotMismatch)
        #expect(missingRegion.underlying?.code == .unknownState)
        #expect(missingRegion.message.contains("flow 'desk' cannot resume in 'inbox'"), "\(missingRegion.message)")
        #expect(missingRegion.message.contains("a region of parallel state 'working' has no active state"),
                "\(missingRegion.message)")

        let twoInOneRegion = try #require(refusal(["inbox", "archive", "talking"]))
        #expect(twoInOneRegion.code == .snapshotMismatch)
        #expect(twoInOneRegion.message.contains("2 children of state 'mail' would be active at once"),
                "\(twoInOneRegion.message)")

        let outside = try #require(refusal(["inbox", "talking", "idle"]))
        #expect(outside.message.contains("different top-level states"), "\(outside.message)")
        #expect(target.liveCount == 0, "nothing was restored")

        // Where: a declared child whose configuration is impossible is named with its parent and state.
        let office = Supervisor()
        _ = try office.start(Office.definition, handler: log.handler())
        try office.send(.start, to: try #require(Self.handle("desk", in: office, as: Desk.self)))
        var officeSnapshot = try #require(try office.snapshot().roots.first)
        officeSnapshot.children[0].leaves = ["inbox"]
        officeSnapshot.children[0].children.removeLast()
        let nested = Supervisor()
        do {
            _ = try nested.restore(officeSnapshot, definition: Office.definition, handler: log.handler())
            Issue.record("an impossible configuration of a declared child was restored")
        } catch {
            #expect(error.code == .snapshotMismatch)
            #expect(error.message.hasPrefix("declared child 'desk' in state 'open' of flow 'office': flow 'desk' cannot resume in 'inbox'"),
                    "\(error.message)")
        }
        #expect(nested.liveCount == 0)
    }

    @Test("A parallel flow runs as a declared child, and its own children with it")
    func parallelChild() throws {
        let log = EffectLog()
        let supervisor = Supervisor()
        let office = try supervisor.start(Office.definition, handler: log.handler())
        let desk = try #require(Self.handle("desk", in: supervisor, as: Desk.self))
        try supervisor.send(.start, to: desk)
        #expect(supervisor.machines.map(\.flow) == ["office", "desk", "timer", "inbox", "chat"])
        #expect(supervisor.machines.map(\.depth) == [0, 1, 2, 2, 2])
        #expect(supervisor.stop(office).machines.map(\.flow) == ["chat", "inbox", "timer", "desk", "office"])
    }
}
