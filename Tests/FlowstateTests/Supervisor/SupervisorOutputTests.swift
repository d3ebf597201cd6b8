import Flowstate
import Testing

/// Issue 38, item 3: a child's typed output can be awaited from its handle (`Supervisor.output(of:)`),
/// without filtering `supervisor.events()` for `.completed`.
@Suite("Supervisor: awaiting a machine's output")
@MainActor
struct SupervisorOutputTests {
    /// The handlers' log: its handlers hold it unowned, so the suite keeps it.
    let log = EffectLog()

    /// A root `Leaf` and a `Leaf` spawned under it whose output the root does not take as an event.
    func tree(_ supervisor: Supervisor, log: EffectLog, policy: FailurePolicy = .escalate)
        throws -> (root: MachineHandle<Leaf>, child: MachineHandle<Leaf>) {
        let root = try supervisor.start(Leaf.definition, handler: log.handler())
        let child = try supervisor.spawn(Leaf.definition, under: root, policy: policy, handler: log.handler(),
                                         output: { _ in nil })
        return (root, child)
    }

    /// Lets the awaiting task reach its wait.
    func settle() async { for _ in 0..<100 { await Task.yield() } }

    @Test("A spawned child's output, awaited from its handle")
    func spawnedChild() async throws {
        let supervisor = Supervisor()
        let (_, child) = try tree(supervisor, log: log)
        let waiting = Task { @MainActor in try await supervisor.output(of: child) }
        await settle()
        try supervisor.send(.next, to: child)
        try supervisor.send(.next, to: child)
        #expect(try await waiting.value == "leaf output")
    }

    @Test("A declared child's output, awaited from the handle declaredChild gives")
    func declaredChild() async throws {
        let supervisor = Supervisor()
        let mid = try supervisor.start(Mid.definition(policy: .escalate), handler: log.handler())
        try supervisor.send(.go, to: mid)
        let leaf = try #require(supervisor.declaredChild(of: mid, in: .running, as: Leaf.self))
        let waiting = Task { @MainActor in try await supervisor.output(of: leaf) }
        await settle()
        try supervisor.send(.next, to: leaf)
        try supervisor.send(.next, to: leaf)
        #expect(try await waiting.value == "leaf output")
    }

    @Test("A child torn down before it finishes ends the wait with machineGone, saying why")
    func stopped() async throws {
        let supervisor = Supervisor()
        let (_, child) = try tree(supervisor, log: log)
        let waiting = Task { @MainActor in try await supervisor.output(of: child) }
        await settle()
        supervisor.stop(child)
        let error = await #expect(throws: SupervisorError.self) { try await waiting.value }
        #expect(error?.code == .machineGone)
        #expect(error?.message.contains("stopped") == true, "\(String(describing: error))")
    }

    @Test("A machine not in the tree (finished before the call) is machineGone at once")
    func gone() async throws {
        let supervisor = Supervisor()
        let (_, child) = try tree(supervisor, log: log)
        try supervisor.send(.next, to: child)
        try supervisor.send(.next, to: child)
        let error = await #expect(throws: SupervisorError.self) { try await supervisor.output(of: child) }
        #expect(error?.code == .machineGone)
    }

    @Test("Cancelling the wait ends it with CancellationError; the machine runs on")
    func cancellation() async throws {
        let supervisor = Supervisor()
        let (_, child) = try tree(supervisor, log: log)
        let waiting = Task { @MainActor in try await supervisor.output(of: child) }
        await settle()
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(supervisor.contains(child.id))
        #expect(supervisor.state(of: child) == .a)
    }

    @Test("A child restarted by its policy is followed: its replacement's output is returned")
    func restarted() async throws {
        let supervisor = Supervisor()
        let (root, child) = try tree(supervisor, log: log,
                                     policy: .restart(maxRestarts: 3, within: .seconds(60)))
        let waiting = Task { @MainActor in try await supervisor.output(of: child) }
        await settle()
        try supervisor.send(.fail, to: child)  // its handler throws: restarted
        #expect(!supervisor.contains(child.id))
        let replacement = try #require(supervisor.machines.first { $0.parent == root.id }.flatMap {
            supervisor.handle(of: $0.id, as: Leaf.self)
        })
        try supervisor.send(.next, to: replacement)
        try supervisor.send(.next, to: replacement)
        #expect(try await waiting.value == "leaf output")
    }
}
