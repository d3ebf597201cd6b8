import CoordinatorExamples
import FlowNavigation
import Flowstate
import FlowTesting
import FlowTestSupport
import Testing

@Suite("Tree tester")
struct TreeTesterTests {
    static func text(of issue: Issue) -> String { issue.comments.map(\.rawValue).joined(separator: "\n") }

    /// A handler that throws on the worker's "boom", as a real handler fails.
    static func failing(_ effect: String, _ context: EffectContext<Parent>) throws {
        if effect == "worker: boom" { throw Boom() }
    }

    @Test("Stating everything a tree did passes: a declared child spawned, its mapped effects, its completion")
    func happyPath() throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let root = try tester.step {
            try supervisor.start(Parent.definition(), handler: tester.recording(Self.failing))
        } expect: {
            let root = $0.spawned(Parent.definition(), in: .idle)
            $0.effects(root, ["show idle"])
        }
        var worker: MachineHandle<Worker>!
        try tester.send(.go, to: root) {
            $0.transition(root, to: .working)
            worker = $0.spawned(Worker.definition, in: .busy, under: root)
            $0.effects(root, ["show working", "worker: start"])
        }
        #expect(supervisor.state(of: worker) == .busy)
        try tester.send(.step, to: worker) {
            $0.transition(worker, to: .busy)  // targetless: the worker stays in busy
            $0.effects(root, ["worker: tick"])
        }
        try tester.send(.complete, to: worker) {
            $0.transition(worker, to: .finished)
            $0.completed(worker, output: "ok")
            $0.tornDown(worker, .completed)
            $0.transition(root, to: .idle)
            $0.effects(root, ["worker: stop", "show idle"])
        }
        tester.stop(root) {
            $0.tornDown(root, .stopped)
        }
        tester.finish()
    }

    @Test("A failure under .restart: the failure, the teardown, the restart and the replacement's start")
    func restart() throws {
        let supervisor = Supervisor(now: { .zero })
        let tester = FlowTreeTester(supervisor)
        let definition = Parent.definition(policy: .restart(maxRestarts: 1, within: .seconds(60)))
        let root = try tester.step {
            try supervisor.start(definition, handler: tester.recording(Self.failing))
        } expect: {
            let root = $0.spawned(definition, in: .idle)
            $0.effects(root, ["show idle"])
        }
        var worker: MachineHandle<Worker>!
        try tester.send(.go, to: root) {
            $0.transition(root, to: .working)
            worker = $0.spawned(Worker.definition, in: .busy, under: root)
            $0.effects(root, ["show working", "worker: start"])
        }
        var replacement: MachineHandle<Worker>!
        try tester.send(.fail, to: worker) {
            $0.transition(worker, to: .busy)
            $0.failed(worker)
            $0.tornDown(worker, .failed)
            replacement = $0.restarted(worker)
            $0.spawned(Worker.definition, in: .busy, under: root)
            $0.effects(root, ["worker: boom", "worker: stop", "worker: start"])
        }
        #expect(replacement != worker && supervisor.state(of: replacement) == .busy)
        tester.stop(root) {
            $0.tornDown(replacement, .parentTornDown)
            $0.tornDown(root, .stopped)
            $0.effects(root, ["worker: stop"])
        }
        tester.finish()
    }

    @Test("Pinned: a failing effect skips the rest of its step, and the teardown exits the state the machine is in")
    func failureMidStep() throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let node = try tester.step {
            try supervisor.start(Node.definition, policy: .stop, handler: tester.recording { effect, _ in
                if effect == "out a" { throw Boom() }
            })
        } expect: {
            let node = $0.spawned(Node.definition, in: .a)
            $0.effects(node, ["in a"])
        }
        try tester.send(.next, to: node) {
            $0.transition(node, to: .b)
            $0.failed(node)
            $0.tornDown(node, .failed)
            $0.effects(node, ["out a", "out b"])  // "act" and "in b" never ran; "out b" did
        }
        tester.finish()
    }

    @Test("Unstated tree events and effects fail at the line of the command, with how to state them")
    func unstated() throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let root = try tester.step {
            try supervisor.start(Parent.definition(), handler: tester.recording())
        } expect: {
            let root = $0.spawned(Parent.definition(), in: .idle)
            $0.effects(root, ["show idle"])
        }
        let line = #line + 2
        try withKnownIssue {
            try tester.send(.go, to: root)
        } matching: { issue in
            let text = Self.text(of: issue)
            return issue.sourceLocation?.line == line
                && text.contains("Sending go to \(root) does not match the test")
                && text.contains("unstated: \(root) idle --go--> working (state it with $0.transition(handle, to: .working))")
                && text.contains("spawned 'worker' in busy under \(root) (state it with $0.spawned(definition, in: .busy, under: \(root)))")
                && text.contains("unstated effects of \(root): [show working, worker: start]")
        }
        withKnownIssue {
            tester.stop(root) { $0.tornDown(root, .stopped) }
        } matching: { issue in
            // The worker's teardown was not stated, nor its exit effect.
            let text = Self.text(of: issue)
            return text.contains("unstated: #2 torn down (parent torn down) (state it with $0.tornDown(handle, .parentTornDown))")
                && text.contains("unstated effects of \(root): [worker: stop]")
        }
        tester.finish()
    }

    @Test("Wrong statements fail with a readable difference: transitions, effects, teardown order, outputs")
    func wrong() throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let root = try tester.step {
            try supervisor.start(Parent.definition(), handler: tester.recording())
        } expect: {
            let root = $0.spawned(Parent.definition(), in: .idle)
            $0.effects(root, ["show idle"])
        }
        var worker: MachineHandle<Worker>!
        try withKnownIssue {
            try tester.send(.go, to: root) {
                $0.transition(root, to: .done)
                worker = $0.spawned(Worker.definition, in: .busy, under: root)
                $0.effects(root, ["show working", "worker: tick"])
            }
        } matching: { issue in
            let text = Self.text(of: issue)
            return text.contains("transitions of \(root): expected [done], actual [working]")
                && text.contains("effects of \(root) differ at position 1: expected worker: tick, actual worker: start")
                && text.contains("expected: [show working, worker: tick]")
                && text.contains("actual: [show working, worker: start]")
        }
        let child: MachineHandle<Worker> = worker
        withKnownIssue {
            tester.stop(root) {
                $0.tornDown(root, .stopped)  // the worker goes first: children before their parent
                $0.tornDown(child, .stopped)
                $0.effects(root, ["worker: stop"])
            }
        } matching: { issue in
            let text = Self.text(of: issue)
            return text.contains("teardown order: expected [\(root), \(child)], actual [\(child), \(root)]")
                && text.contains("teardown of \(child): expected reason 'stopped', actual 'parent torn down'")
        }
        tester.finish()
    }

    @Test("Statements of what did not happen fail")
    func didNotHappen() throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let root = try tester.step {
            try supervisor.start(Parent.definition(), handler: tester.recording())
        } expect: {
            let root = $0.spawned(Parent.definition(), in: .idle)
            $0.effects(root, ["show idle"])
        }
        withKnownIssue {
            tester.stop(root) {
                $0.tornDown(root, .stopped)
                $0.spawned(Worker.definition, in: .busy, under: root)
                $0.completed(root, output: "finished")
                $0.failed(root)
                $0.restarted(root)
                $0.event(.dropped(root.id, what: "nothing"))
            }
        } matching: { issue in
            let text = Self.text(of: issue)
            return text.contains("expected 'worker' to be spawned in busy under \(root), but it was not")
                && text.contains("expected \(root) to complete with finished, but it did not complete")
                && text.contains("expected \(root) to fail, but it did not")
                && text.contains("expected \(root) to be restarted, but it was not")
                && text.contains("expected \(root) gone: dropped nothing, but it did not happen")
        }
        tester.finish()
    }

    @Test("What happens outside a command is stated with receive, or fails at the next command")
    func receive() throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let root = try tester.step {
            try supervisor.start(Parent.definition(), handler: tester.recording())
        } expect: {
            let root = $0.spawned(Parent.definition(), in: .idle)
            $0.effects(root, ["show idle"])
        }
        try supervisor.send(.go, to: root)  // behind the tester's back
        tester.receive {
            $0.transition(root, to: .working)
            $0.spawned(Worker.definition, in: .busy, under: root)
            $0.effects(root, ["show working", "worker: start"])
        }
        try supervisor.send(.finish, to: root)  // not stated with receive: reported at the next command
        let line = #line + 2
        try withKnownIssue {
            try tester.send(.go, to: root) {
                $0.event(.dropped(root.id, what: "event 'go'"))  // the root is gone: the send throws
            }
        } matching: { issue in
            if let error = issue.error as? SupervisorError { return error.code == .machineGone }
            let text = Self.text(of: issue)
            return issue.sourceLocation?.line == line
                && text.contains("What happened since the last command (state it with receive()) does not match the test")
                && text.contains("unstated: \(root) working --finish--> done")
        }
        tester.finish()
    }

    @Test("Machines still running at the end fail the test, unless listed")
    func stillRunning() throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let root = try tester.step {
            try supervisor.start(Parent.definition(), handler: tester.recording())
        } expect: {
            let root = $0.spawned(Parent.definition(), in: .idle)
            $0.effects(root, ["show idle"])
        }
        withKnownIssue {
            tester.finish()
        } matching: { issue in
            Self.text(of: issue).contains("still running: \(root) 'parent' in idle (stop it, or list it in finish(running:))")
        }
        let listed = FlowTreeTester(supervisor)
        listed.finish(running: [root.id])
        withKnownIssue {
            listed.finish(running: [root.id, MachineID(rawValue: 999)])
        } matching: { issue in
            Self.text(of: issue).contains("expected #999 to be running at the end, but it is gone")
        }
        let line = #line + 2
        withKnownIssue {
            var forgotten: FlowTreeTester<Never>? = FlowTreeTester(supervisor)
            forgotten = nil  // never finished: its deinitialization checks, and reports at the line it was made
            _ = forgotten
        } matching: { issue in
            issue.sourceLocation?.line == line && Self.text(of: issue).contains("still running: \(root)")
        }
        supervisor.stop(root)
    }

    @MainActor
    @Test("Async effects: the result is stated with receive after settle; one still in flight fails the end")
    func asyncEffects() async throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let root = try tester.step {
            try supervisor.start(Fetch.definition, handler: tester.recording { effect, context in
                try context.task { Fetch.Event.loaded }
            })
        } expect: {
            $0.spawned(Fetch.definition, in: .idle)
        }
        try tester.send(.load, to: root) {
            $0.transition(root, to: .loading)
            $0.effects(root, ["fetch"])
        }
        #expect(await tester.settle())
        tester.receive {
            $0.transition(root, to: .shown)
        }
        tester.finish(running: [root.id])

        let slow = FlowTreeTester(supervisor)
        let other = try slow.step {
            try supervisor.start(Fetch.definition, handler: slow.recording { _, context in
                try context.task {
                    try await Task.sleep(for: .seconds(60))
                    return nil
                }
            })
        } expect: {
            $0.spawned(Fetch.definition, in: .idle)
        }
        try slow.send(.load, to: other) {
            $0.transition(other, to: .loading)
            $0.effects(other, ["fetch"])
        }
        #expect(await slow.settle(timeout: .milliseconds(20)) == false)
        withKnownIssue {
            slow.finish(running: [root.id, other.id])
        } matching: { issue in
            Self.text(of: issue).contains("1 async effect is still in flight")
        }
        supervisor.stop(other)  // cancels the work
        supervisor.stop(root)
    }

    @Test("Coordinators: unstated or wrong navigation fails; so do the navigator's problems")
    func navigation() throws {
        let navigator = HeadlessNavigator<KhanlouPhotos.Screen>()
        let host = try KhanlouPhotos.Host(navigator: navigator)
        let tester = FlowTreeTester(host.coordinator.supervisor, navigator: navigator)
        let app: MachineHandle<KhanlouPhotos.App> = host.app
        try withKnownIssue {
            try tester.step { try host.newPhoto() } expect: {
                $0.transition(app, to: .creatingPhoto)
                $0.spawned(KhanlouPhotos.photo, in: .picking, under: app)
            }
        } matching: { issue in
            Self.text(of: issue).contains("unstated navigation: [present(picker)] (state it with $0.navigation([...]))")
        }
        let photo = try #require(host.photoFlow)
        try withKnownIssue {
            try tester.send(.picked, to: photo) {
                $0.transition(photo, to: .editing)
                $0.navigation([.present(.editor)])
            }
        } matching: { issue in
            let text = Self.text(of: issue)
            return text.contains("navigation differs at position 0: expected present(editor), actual push(editor)")
        }
        tester.step { navigator.perform(.dismiss, retaining: nil) } expect: {
            // The picker's screen is gone: its flow goes before the tester observes the tree.
            $0.navigation([.dismiss])
            $0.tornDown(photo, .ownerReleased)
            $0.transition(app, to: .browsing)
        }
        withKnownIssue {
            tester.step { navigator.perform(.dismiss, retaining: nil) } expect: {
                $0.navigation([.dismiss])
            }
        } matching: { issue in
            Self.text(of: issue).contains("navigator problem: dismiss with no modal stack")
        }
        tester.finish(running: [app.id])
    }
}
