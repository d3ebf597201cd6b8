import FlowNavigation
import Flowstate
import Testing

/// A profile screen that loads the user's name when it is shown: the load is an effect that is not
/// navigation, performed with the `EffectContext` (async work tied to the flow's life).
enum Profile: Flow {
    enum Screen: Hashable, Sendable { case profile, edit }
    enum State: Hashable, Sendable { case loading, shown, editing, done }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case loaded, edit, save }
    enum Effect: Hashable, Sendable { case show(Screen), load, close }
    typealias Output = String

    static let definition = FlowDefinition<Profile>("profile", initial: .loading) {
        StateNode(.loading, entry: [.show(.profile), .load]) { On(.loaded, to: .shown) }
        StateNode(.shown) { On(.edit, to: .editing, effects: [.show(.edit)]) }
        StateNode(.editing) { On(.save, to: .done, effects: [.close]) }
        Final(.done, output: "saved")
    }

    static func navigation(_ effect: Effect) -> Navigation<Screen, Event>? {
        switch effect {
        case .show(let screen): .push(screen)
        case .close: .popToRoot
        case .load: nil
        }
    }
}

/// Issue 38, item 3: a coordinator's effects that are not navigation can be performed by a `handler`
/// that gets the same `EffectContext` the supervisor's handlers get, and a child's typed output can be
/// awaited from its handle.
@Suite("Coordinator: effects performed with their context, outputs awaited")
@MainActor
struct CoordinatorEffectContextTests {
    @Test("A root's handler gets its handle and runs async work that sends the flow an event")
    func rootPerformWithContext() async throws {
        let navigator = HeadlessNavigator<Profile.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        var handles: [MachineID] = []
        let profile = try coordinator.start(Profile.definition, effects: Profile.navigation, handler: { effect, context in
            handles.append(context.machine.id)
            if effect == .load { try context.task { .loaded } }
        })
        #expect(handles == [profile.id])
        for _ in 0..<1_000 where coordinator.supervisor.state(of: profile) != .shown { await Task.yield() }
        #expect(coordinator.supervisor.state(of: profile) == .shown)
        #expect(navigator.stacks == [[.profile]])
    }

    @Test("A child's handler gets the context (its async work starts); the old form, perform, still compiles")
    func childPerformWithContext() async throws {
        let navigator = HeadlessNavigator<Profile.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        var performed: [Profile.Effect] = []
        let root = try coordinator.start(Leaf.definition, effects: { _ in nil })
        // The old form: perform without a context.
        let other = try coordinator.start(Profile.definition, under: root, effects: Profile.navigation,
                                          perform: { effect in performed.append(effect) }, output: { _ in nil })
        #expect(performed == [.load])
        coordinator.supervisor.stop(other)
        let child = try coordinator.start(Profile.definition, under: root, effects: Profile.navigation,
                                          handler: { effect, context in
            if effect == .load { try context.task { try await Task.sleep(for: .seconds(3_600)); return .loaded } }
        }, output: { _ in nil })
        #expect(coordinator.supervisor.state(of: child) == .loading)
        coordinator.supervisor.stop(child)  // the pending load goes with it
        #expect(!coordinator.supervisor.contains(child.id))
    }

    @Test("A child's output awaited from its handle through the coordinator's supervisor")
    func awaitedOutput() async throws {
        let navigator = HeadlessNavigator<Profile.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        let root = try coordinator.start(Leaf.definition, effects: { _ in nil })
        let child = try coordinator.start(Profile.definition, under: root, effects: Profile.navigation,
                                          handler: { effect, context in
            if effect == .load { context.send(.loaded) }
        }, output: { _ in nil })
        let waiting = Task { @MainActor in try await coordinator.supervisor.output(of: child) }
        for _ in 0..<100 { await Task.yield() }
        try coordinator.send(.edit, to: child)
        try coordinator.send(.save, to: child)
        #expect(try await waiting.value == "saved")
        #expect(navigator.stacks == [[.profile]], "popToRoot: the child's edit screen is gone")
    }
}

/// A root that waits.
enum Leaf: Flow {
    enum State: Hashable, Sendable { case idle }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case never }
    typealias Effect = String
    typealias Output = Void

    static let definition = FlowDefinition<Leaf>("leaf", initial: .idle) { StateNode(.idle) { On(.never, to: .idle) } }
}
