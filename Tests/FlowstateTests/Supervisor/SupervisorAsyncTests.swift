import Flowstate
import Testing

/// A flow whose entry effect is a network call.
enum Fetch: Flow {
    enum State: Hashable, Sendable { case loading, loaded, failed }
    enum Event: FlowEvent { case loaded, failed }
    typealias Effect = String
    typealias Output = Void

    static let definition = FlowDefinition<Fetch>("fetch", initial: .loading) {
        StateNode(.loading, entry: ["load"]) {
            On(.loaded, to: .loaded)
            On(.failed, to: .failed)
        }
        StateNode(.loaded) { On(.failed, to: .failed) }
        StateNode(.failed) { On(.loaded, to: .loaded) }
    }
}

/// Waits for the first tree event that matches.
func firstEvent(_ events: AsyncStream<TreeEvent>, where match: @Sendable (TreeEvent) -> Bool) async -> TreeEvent? {
    for await event in events where match(event) { return event }
    return nil
}

@Suite("Supervisor: async effects and isolation")
struct SupervisorAsyncTests {
    @MainActor
    @Test("On the main actor, an async effect's result is delivered back as an event")
    func asyncResultDelivered() async throws {
        let supervisor = Supervisor()
        let events = supervisor.events()
        let fetch = try supervisor.start(Fetch.definition) { effect, context in
            if effect == "load" { try context.task { .loaded } }
        }
        let event = await firstEvent(events) { if case .transitioned = $0 { true } else { false } }
        #expect(event == .transitioned(fetch.id, from: "loading", to: "loaded", event: "loaded",
                                       transitions: FlowTransitions([FlowTransitionID(position: 0)])))
        #expect(supervisor.state(of: fetch) == .loaded)
        #expect(supervisor.tasksInFlight == 0)
    }

    @MainActor
    @Test("Tearing a machine down cancels its async work; what it would deliver is dropped and reported")
    func teardownCancels() async throws {
        let supervisor = Supervisor()
        let events = supervisor.events()
        let fetch = try supervisor.start(Fetch.definition) { effect, context in
            if effect == "load" {
                try context.task {
                    try await Task.sleep(for: .seconds(60))
                    return .loaded
                }
            }
        }
        #expect(supervisor.tasksInFlight == 1)
        supervisor.stop(fetch)
        #expect(supervisor.tasksInFlight == 0)
        let dropped = await firstEvent(events) { if case .dropped = $0 { true } else { false } }
        guard case .dropped(let id, let what)? = dropped else {
            Issue.record("expected a dropped event, got \(String(describing: dropped))")
            return
        }
        #expect(id == fetch.id)
        #expect(what.contains("CancellationError"))
    }

    @Test("Async effects need a supervisor created on an actor: a typed failure, not a race")
    func noIsolation() throws {
        let supervisor = Supervisor()
        var failures: [SupervisionFailure] = []
        supervisor.observe { if case .failed(_, let failure) = $0 { failures.append(failure) } }
        _ = try supervisor.start(Fetch.definition, policy: .stop) { effect, context in
            if effect == "load" { try context.task { .loaded } }
        }
        #expect(supervisor.liveCount == 0)
        #expect(failures.first?.message.contains("created on an actor") == true)
        #expect(failures.first?.code == .effectFailed)
        #expect(failures.first?.code.description == "effect-failed")
    }

    @Test("Many tasks send, stop and release owners on one tree at once (through its actor)")
    func concurrentUse() async throws {
        let host = TreeHost()
        try await host.setUp()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for i in 0..<200 { await host.poke(task &* 7 &+ i) }
                }
            }
        }
        let (problems, live) = await host.finish()
        #expect(problems.isEmpty, "\(problems)")
        #expect(live == 0)
    }
}

/// A tree owned by an actor, driven by many tasks at once.
actor TreeHost {
    var supervisor: Supervisor?
    var top: MachineHandle<Top>?
    var owners: [Owner] = []
    let log = EffectLog()

    func setUp() throws {
        let supervisor = Supervisor()
        log.failBoom = false
        top = try supervisor.start(Top.definition(), handler: log.handler())
        self.supervisor = supervisor
    }

    func poke(_ n: Int) {
        guard let supervisor, let top else { return }
        switch n % 5 {
        case 0: try? supervisor.send(.go, to: top)
        case 1: try? supervisor.send(.cancel, to: top)
        case 2:
            let owner = Owner()
            if (try? supervisor.spawn(Leaf.definition, under: top, owner: owner, handler: log.handler(),
                                      output: { _ in nil })) != nil {
                owners.append(owner)
            }
        case 3:
            if !owners.isEmpty { owners.removeFirst() }
            supervisor.sweep()
        default:
            if let leaf = supervisor.machines.last(where: { $0.flow == "leaf" }),
               let handle = supervisor.handle(of: leaf.id, as: Leaf.self) {
                try? supervisor.send(.next, to: handle)
            }
        }
    }

    func finish() -> (problems: [String], live: Int) {
        guard let supervisor, let top else { return (["not set up"], -1) }
        owners.removeAll()
        supervisor.sweep()
        let problems = supervisor.checkInvariants()
        supervisor.stop(top)
        return (problems, supervisor.liveCount)
    }
}

/// An actor that owns a supervisor, as an app's flow host would.
actor SupervisorOwner {
    var supervisor: Supervisor?
    func setUp() throws {
        let supervisor = Supervisor()
        _ = try supervisor.start(Fetch.definition) { effect, context in
            if effect == "load" { try context.task { .loaded } }
        }
        self.supervisor = supervisor
    }

    /// A weak reference to the supervisor, for the test to watch (the supervisor itself cannot leave).
    func watchSupervisor() -> WeakBox { WeakBox(supervisor) }
}

/// A weak reference that can cross isolation domains; it is only compared with nil.
final class WeakBox: @unchecked Sendable {
    weak var value: AnyObject?
    init(_ value: AnyObject?) { self.value = value }
}

@Suite("Supervisor: lifetime")
struct SupervisorLifetimeTests {
    @Test("Regression: an actor that owns a supervisor is freed (the supervisor holds its isolation weakly)")
    func actorOwnerIsFreed() async throws {
        // Found by AddressSanitizer's leak check: the supervisor kept its isolation actor alive,
        // a cycle with the actor that owns it.
        weak var weakOwner: SupervisorOwner?
        let weakSupervisor: WeakBox
        do {
            let owner = SupervisorOwner()
            try await owner.setUp()
            weakOwner = owner
            weakSupervisor = await owner.watchSupervisor()
            #expect(weakSupervisor.value != nil)
        }
        for _ in 0..<100 where weakOwner != nil || weakSupervisor.value != nil { await Task.yield() }
        #expect(weakOwner == nil)
        #expect(weakSupervisor.value == nil)
    }
}
