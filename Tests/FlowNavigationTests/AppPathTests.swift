import FlowNavigation
import Flowstate
import Logging
import Synchronization
import Testing

/// A login: email, then password on a pushed screen; the output is the email signed in with.
enum AppLogin: Flow {
    enum Screen: Hashable, Sendable { case email, password }
    enum State: Hashable, Sendable { case email, password, done }
    enum Event: Hashable, Sendable, FlowEvent { case next, back, signIn }
    enum Effect: Hashable, Sendable { case show(Screen), pop }
    typealias Output = String
    struct Context: Hashable, Sendable { var user = "ada" }

    static let definition = FlowDefinition<AppLogin>("login", initial: .email, context: Context()) {
        StateNode(.email, entry: [.show(.email)]) { On(.next, to: .password) }
        StateNode(.password, entry: [.show(.password)]) {
            On(.back, to: .email, effects: [.pop])
            On(.signIn, to: .done)
        }
        Final(.done, outputLabel: "user") { context, _ in context.user }
    }

    static func navigation(_ effect: Effect) -> Navigation<Screen, Event>? {
        switch effect {
        case .show(let screen): .push(screen)
        case .pop: .pop
        }
    }
}

/// Keeps the warnings a coordinator logs.
struct WarningRecorder: LogHandler {
    final class Store: Sendable {
        private let storage = Mutex<[String]>([])
        var messages: [String] { storage.withLock { $0 } }
        func append(_ message: String) { storage.withLock { $0.append(message) } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if event.level >= .warning { store.append(event.message.description) }
    }
}

@MainActor
@Suite("The app developer's path: a root's typed output, awaited; navigation no flow hears (issue 23)")
struct AppPathTests {
    @Test("Coordinator.run awaits the root's typed output, computed from its context")
    func runAwaitsOutput() async throws {
        let navigator = HeadlessNavigator<AppLogin.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        let task = Task { @MainActor in
            try await coordinator.run(AppLogin.definition, context: AppLogin.Context(user: "grace"),
                                      effects: AppLogin.navigation)
        }
        while coordinator.supervisor.machines.isEmpty { await Task.yield() }
        let login = try #require(coordinator.supervisor.handle(of: coordinator.supervisor.machines[0].id, as: AppLogin.self))
        try coordinator.send(.next, to: login)
        try coordinator.send(.signIn, to: login)
        #expect(try await task.value == "grace")
        #expect(navigator.stacks == [[.email, .password]])
        #expect(coordinator.routedMachines == 0 && coordinator.supervisor.machines.isEmpty)
    }

    @Test("Cancelling the awaiting task stops the root with its normal teardown")
    func cancelStops() async throws {
        let coordinator = Coordinator(navigator: HeadlessNavigator<AppLogin.Screen>())
        let task = Task { @MainActor in
            try await coordinator.run(AppLogin.definition, effects: AppLogin.navigation)
        }
        while coordinator.supervisor.machines.isEmpty { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(coordinator.supervisor.machines.isEmpty && coordinator.routedMachines == 0)
    }

    @Test("start(output:) hands a root's typed output back; the tree event carries it typed")
    func startOutput() throws {
        let coordinator = Coordinator(navigator: HeadlessNavigator<AppLogin.Screen>())
        var completions: [TreeEvent.Output] = []
        let observation = coordinator.supervisor.observe { event in
            if case .completed(_, let output) = event { completions.append(output) }
        }
        defer { observation.cancel() }
        var received: String?
        let login = try coordinator.start(AppLogin.definition, effects: AppLogin.navigation,
                                         output: { received = $0 })
        try coordinator.send(.next, to: login)
        try coordinator.send(.signIn, to: login)
        #expect(received == "ada")
        #expect(completions.map { $0.as(String.self) } == ["ada"])
        #expect(completions.first?.as(Int.self) == nil)
    }

    @Test("Supervisor.run takes the root's context")
    func supervisorRunContext() async throws {
        let supervisor = Supervisor()
        let task = Task { @MainActor in
            try await supervisor.run(AppLogin.definition, context: AppLogin.Context(user: "alan")) { _, _ in }
        }
        while supervisor.machines.isEmpty { await Task.yield() }
        let login = try #require(supervisor.handle(of: supervisor.machines[0].id, as: AppLogin.self))
        try supervisor.send(.next, to: login)
        try supervisor.send(.signIn, to: login)
        #expect(try await task.value == "alan")
    }

    @Test("A root flow without a user navigation event is warned of when the user goes back from its screen")
    func driftWarned() throws {
        let store = WarningRecorder.Store()
        let navigator = HeadlessNavigator<AppLogin.Screen>()
        let coordinator = Coordinator(navigator: navigator,
                                      logger: Logger(label: "test") { _ in WarningRecorder(store: store) })
        let login = try coordinator.start(AppLogin.definition, effects: AppLogin.navigation)
        try coordinator.send(.next, to: login)
        #expect(navigator.goBack())
        #expect(store.messages.count == 1)
        let message = try #require(store.messages.first)
        #expect(message.contains("went back from screen password"))
        #expect(message.contains("flow 'login'") && message.contains("state 'password'"))
        #expect(coordinator.supervisor.state(of: login) == .password, "the flow did not hear it")
    }

    @Test("With its user navigation event, the flow hears the back gesture and nothing is warned")
    func noDriftWhenHeard() throws {
        let store = WarningRecorder.Store()
        let navigator = HeadlessNavigator<AppLogin.Screen>()
        let coordinator = Coordinator(navigator: navigator,
                                      logger: Logger(label: "test") { _ in WarningRecorder(store: store) })
        let login = try coordinator.start(AppLogin.definition, effects: AppLogin.navigation, userNavigation: { navigation in
            if case .wentBack(.password) = navigation { .back } else { nil }
        })
        try coordinator.send(.next, to: login)
        #expect(navigator.goBack())
        #expect(store.messages.isEmpty)
        #expect(coordinator.supervisor.state(of: login) == .email)
    }
}

@Suite("Navigation.mapEvents: a child's navigation as its parent's (issue 23)")
struct MapEventsTests {
    enum ChildEvent: Hashable, Sendable { case resend, giveUp }
    enum ParentEvent: Hashable, Sendable { case child(ChildEvent) }

    @Test("Every case keeps its screens; an alert keeps its title, labels and cancel role, with mapped events")
    func mapsEveryCase() {
        let alert = Alert<ChildEvent>("Code", choices: [.init("Resend", sends: .resend),
                                                        .init("Give up", sends: .giveUp, isCancel: true)])
        let cases: [Navigation<String, ChildEvent>] = [
            .push("a"), .pop, .popToRoot, .present("b"), .dismiss, .tabs(["x", "y"]), .selectTab("y"), .alert(alert),
        ]
        let mapped = cases.map { $0.mapEvents(ParentEvent.child) }
        let expected: [Navigation<String, ParentEvent>] = [
            .push("a"), .pop, .popToRoot, .present("b"), .dismiss, .tabs(["x", "y"]), .selectTab("y"),
            .alert(Alert("Code", choices: [.init("Resend", sends: .child(.resend)),
                                           .init("Give up", sends: .child(.giveUp), isCancel: true)])),
        ]
        #expect(mapped == expected)
    }
}

/// A flow that refuses what it does not handle: the user's navigation can reach it as an event it refuses.
enum StrictLogin: Flow {
    enum State: Hashable, Sendable { case email, password }
    enum Event: Hashable, Sendable, FlowEvent { case next, back }
    typealias Effect = Navigation<AppLogin.Screen, Event>
    typealias Output = Never

    static let definition = FlowDefinition<StrictLogin>("strict", initial: .email, unhandledEvents: .fail) {
        StateNode(.email, entry: [.push(.email)]) { On(.next, to: .password) }
        StateNode(.password, entry: [.push(.password)]) { On(.next, to: .email) }
    }
}

@MainActor
@Suite("The coordinator warns when a flow refuses the event the user's navigation became")
struct RefusedNavigationTests {
    @Test("The refusal is logged, not swallowed")
    func refusedIsWarned() throws {
        let store = WarningRecorder.Store()
        let navigator = HeadlessNavigator<AppLogin.Screen>()
        let coordinator = Coordinator(navigator: navigator,
                                      logger: Logger(label: "test") { _ in WarningRecorder(store: store) })
        let login = try coordinator.start(StrictLogin.definition, effects: { $0 }, userNavigation: { navigation in
            if case .wentBack = navigation { .back } else { nil }
        })
        try coordinator.send(.next, to: login)
        #expect(navigator.goBack())
        #expect(store.messages.count == 1)
        #expect(store.messages.first?.contains("which it refused") == true)
    }
}
