import FlowNavigation
import Flowstate

/// The seed articles' four coordinator designs, each played as a scripted user session on a
/// ``HeadlessNavigator``: what the user does, the screens the flows show, the supervisor's tree events
/// (transitions, children spawned, completed with their output, torn down) and the stacks after each
/// action. `flowstate-examples` prints them; `SeedScenarioTests` checks them.
///
/// ```swift
/// let lines = try SeedScenario.named("router")!.run()
/// ```
public struct SeedScenario: Sendable {
    /// The name the command line selects it by (`khanlou`, `assistant`, `first-launch`, `router`).
    public let name: String
    /// The seed articles it comes from.
    public let seeds: String
    /// One line: the design and what the session shows.
    public let summary: String
    private let script: @Sendable (Transcript) throws -> Void

    init(name: String, seeds: String, summary: String, script: @escaping @Sendable (Transcript) throws -> Void) {
        self.name = name
        self.seeds = seeds
        self.summary = summary
        self.script = script
    }

    /// Plays the session and returns what happened, one line each, in order.
    /// - Throws: A `SupervisorError` if a flow refuses a step (a bug in the example: never expected).
    public func run() throws -> [String] {
        let transcript = Transcript()
        transcript.lines.append("== \(name) (seed \(seeds)): \(summary)")
        try script(transcript)
        return transcript.lines
    }

    /// The four scenarios, in seed order.
    public static let all: [SeedScenario] = [khanlou, assistant, router, firstLaunch, shop]

    /// The scenario with this name, if any.
    public static func named(_ name: String) -> SeedScenario? {
        all.first { $0.name == name }
    }
}

/// The lines a scenario prints, and the navigator that adds the screens to them.
final class Transcript {
    var lines: [String] = []

    /// A navigator for one scenario: the in-memory stacks of a ``HeadlessNavigator``, each command and
    /// each of the user's own navigations written to the transcript as it happens.
    func navigator<Screen: Hashable & Sendable>(_ screens: Screen.Type) -> ScenarioNavigator<Screen> {
        ScenarioNavigator(self)
    }

    /// Writes the supervisor's tree events to the transcript from now on.
    func watch(_ supervisor: Supervisor) -> FlowObservation {
        supervisor.observe { [unowned self] event in lines.append("  flow: \(event)") }
    }

    /// Writes what the user does, performs it, then writes the stacks.
    func user<Screen>(_ action: String, on navigator: ScenarioNavigator<Screen>, _ body: () throws -> Void) rethrows {
        lines.append("> \(action)")
        try body()
        navigator.settle()
        lines.append("  stacks: \(navigator.stacksText)")
    }

    func note(_ text: String) {
        lines.append("  \(text)")
    }
}

/// A ``Navigator`` that forwards to a ``HeadlessNavigator`` and writes every command to a transcript.
final class ScenarioNavigator<Screen: Hashable & Sendable>: Navigator {
    let headless = HeadlessNavigator<Screen>()
    private unowned let transcript: Transcript
    /// Called before the stacks are printed: lets the coordinator tear down flows whose screen is gone.
    var settle: () -> Void = {}

    init(_ transcript: Transcript) { self.transcript = transcript }

    var onUserNavigation: ((UserNavigation<Screen>) -> Void)? {
        get { headless.onUserNavigation }
        set {
            headless.onUserNavigation = newValue.map { forward in
                { [unowned transcript] navigation in
                    transcript.lines.append("  user: \(Self.text(navigation))")
                    forward(navigation)
                }
            }
        }
    }

    func perform(_ command: NavigatorCommand<Screen>, retaining lifetime: AnyObject?) {
        transcript.lines.append("  screen: \(Self.text(command))")
        headless.perform(command, retaining: lifetime)
    }

    /// `tabs [[home], [cart, address]] selected cart, [[cart, address], [login]]`: every tab's stack
    /// while tabs are shown, then the stacks.
    var tabsText: String {
        let tabs = headless.tabStacks
        guard !tabs.isEmpty else { return stacksText }
        let list = "[" + tabs.map { "[" + $0.map { "\($0)" }.joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
        return "tabs \(list) selected \(headless.selectedTab.map { "\($0)" } ?? "-"), stacks \(stacksText)"
    }

    /// `[[feed], [picker, editor]]`, and the alert if one shows.
    var stacksText: String {
        let stacks = "[" + headless.stacks.map { "[" + $0.map { "\($0)" }.joined(separator: ", ") + "]" }
            .joined(separator: ", ") + "]"
        guard let alert = headless.alert else { return stacks }
        return stacks + " + alert '\(alert.title)' (\(alert.choices.joined(separator: " | ")))"
    }

    static func text(_ command: NavigatorCommand<Screen>) -> String {
        switch command {
        case .push(let screen): "push \(screen)"
        case .pop: "pop"
        case .popToRoot: "pop to root"
        case .present(let screen): "present \(screen)"
        case .dismiss: "dismiss"
        case .alert(let title, let choices): "alert '\(title)' (\(choices.joined(separator: " | ")))"
        case .tabs(let screens): "tabs \(screens.map { "\($0)" }.joined(separator: ", "))"
        case .selectTab(let screen): "select tab \(screen)"
        }
    }

    static func text(_ navigation: UserNavigation<Screen>) -> String {
        switch navigation {
        case .wentBack(let screen): "went back from \(screen)"
        case .dismissed(let screen): "swiped \(screen) down"
        case .choseAlert(let index): "chose alert button \(index)"
        case .selectedTab(let screen): "selected tab \(screen)"
        }
    }
}

extension SeedScenario {
    /// Seed 001: the feed starts a photo flow; one photo is posted, the next is abandoned with a swipe.
    static let khanlou = SeedScenario(
        name: "khanlou", seeds: "001",
        summary: "an app coordinator's feed starts a photo child flow; post one photo, go back and swipe the next away"
    ) { transcript in
        let navigator = transcript.navigator(KhanlouPhotos.Screen.self)
        let host = try KhanlouPhotos.Host(navigator: navigator)
        navigator.settle = { [weak host] in host?.coordinator.supervisor.sweep() }
        let observation = transcript.watch(host.coordinator.supervisor)
        defer { observation.cancel() }
        transcript.note("stacks: \(navigator.stacksText)")
        try transcript.user("tap 'new photo'", on: navigator) { try host.newPhoto() }
        try transcript.user("pick a photo", on: navigator) { try host.coordinator.send(.picked, to: host.photoFlow!) }
        try transcript.user("tap 'post'", on: navigator) { try host.coordinator.send(.post, to: host.photoFlow!) }
        try transcript.user("tap 'new photo'", on: navigator) { try host.newPhoto() }
        try transcript.user("pick a photo", on: navigator) { try host.coordinator.send(.picked, to: host.photoFlow!) }
        transcript.user("back gesture on the editor", on: navigator) { navigator.headless.goBack() }
        transcript.user("swipe the picker down", on: navigator) { navigator.headless.swipeDown() }
        transcript.note("machines: \(host.coordinator.supervisor.machines.map { "\($0.flow) in \($0.state)" })")
    }

    /// Seeds 000 and 002: a persons list and an add-person child; the data lives in the flows'
    /// contexts (the child returns the person typed); an alert the flow presents asks before discarding.
    static let assistant = SeedScenario(
        name: "assistant", seeds: "000, 002",
        summary: "a persons list and an add-person child flow; the data lives in their contexts; discarding asks with the flow's alert"
    ) { transcript in
        let navigator = transcript.navigator(Assistant.Screen.self)
        let host = try Assistant.Host(navigator: navigator)
        navigator.settle = { [weak host] in host?.coordinator.supervisor.sweep() }
        let observation = transcript.watch(host.coordinator.supervisor)
        defer { observation.cancel() }
        transcript.note("stacks: \(navigator.stacksText)")
        try transcript.user("tap '+'", on: navigator) { try host.add() }
        try transcript.user("type 'Ada Lovelace'", on: navigator) { try host.type("Ada Lovelace") }
        try transcript.user("tap 'save'", on: navigator) { try host.coordinator.send(.save, to: host.adding!) }
        transcript.note("the list shows (the list flow's context): \(host.shown)")
        try transcript.user("tap '+'", on: navigator) { try host.add() }
        try transcript.user("type 'Charles'", on: navigator) { try host.type("Charles") }
        try transcript.user("tap 'cancel'", on: navigator) { try host.coordinator.send(.cancel, to: host.adding!) }
        transcript.user("choose 'Keep editing'", on: navigator) { navigator.headless.choose("Keep editing") }
        try transcript.user("tap 'cancel'", on: navigator) { try host.coordinator.send(.cancel, to: host.adding!) }
        transcript.user("choose 'Discard'", on: navigator) { navigator.headless.choose("Discard") }
        transcript.note("the list shows (the list flow's context): \(host.shown)")
    }

    /// Seed 003: the main flow requests an order; ordering needs a login first; the result comes back
    /// typed.
    static let router = SeedScenario(
        name: "router", seeds: "003",
        summary: "the main flow requests an order, which logs in first if needed; the typed result comes back"
    ) { transcript in
        let navigator = transcript.navigator(OrderRouter.Screen.self)
        let host = try OrderRouter.Host(navigator: navigator)
        navigator.settle = { [weak host] in host?.coordinator.supervisor.sweep() }
        let observation = transcript.watch(host.coordinator.supervisor)
        defer { observation.cancel() }
        transcript.note("stacks: \(navigator.stacksText)")
        try transcript.user("tap 'order' (logged out)", on: navigator) { try host.order() }
        try transcript.user("log in", on: navigator) { try host.coordinator.send(.loggedIn, to: host.ordering!) }
        try transcript.user("tap 'checkout'", on: navigator) { try host.coordinator.send(.checkout, to: host.ordering!) }
        try transcript.user("tap 'confirm'", on: navigator) { try host.coordinator.send(.confirm, to: host.ordering!) }
        transcript.note("results delivered to the main flow: \(host.results.map { "\($0)" }.joined(separator: ", "))")
        host.session.isLoggedIn = true
        try transcript.user("tap 'order' (logged in)", on: navigator) { try host.order() }
        try transcript.user("tap 'cancel'", on: navigator) { try host.coordinator.send(.cancel, to: host.ordering!) }
        transcript.note("results delivered to the main flow: \(host.results.map { "\($0)" }.joined(separator: ", "))")
    }

    /// Seed 004: a first-launch flow with a new-account child bound to its root screen.
    static let firstLaunch = SeedScenario(
        name: "first-launch", seeds: "004",
        summary: "a new-account child flow bound to its first screen: swiped away once, then completed with a back gesture"
    ) { transcript in
        let navigator = transcript.navigator(FirstLaunchAccount.Screen.self)
        let host = try FirstLaunchAccount.Host(navigator: navigator)
        navigator.settle = { [weak host] in host?.coordinator.supervisor.sweep() }
        let observation = transcript.watch(host.coordinator.supervisor)
        defer { observation.cancel() }
        transcript.note("stacks: \(navigator.stacksText)")
        try transcript.user("tap 'create account'", on: navigator) { try host.createAccount() }
        try transcript.user("enter an email, tap 'next'", on: navigator) { try host.coordinator.send(.next, to: host.account!) }
        transcript.user("swipe the sign-up down", on: navigator) { navigator.headless.swipeDown() }
        try transcript.user("tap 'create account'", on: navigator) { try host.createAccount() }
        try transcript.user("enter an email, tap 'next'", on: navigator) { try host.coordinator.send(.next, to: host.account!) }
        transcript.user("back gesture on the password screen", on: navigator) { navigator.headless.goBack() }
        try transcript.user("tap 'next'", on: navigator) { try host.coordinator.send(.next, to: host.account!) }
        try transcript.user("enter a password, tap 'next'", on: navigator) { try host.coordinator.send(.next, to: host.account!) }
        try transcript.user("enter the code, tap 'next'", on: navigator) { try host.coordinator.send(.next, to: host.account!) }
        transcript.note("machines: \(host.coordinator.supervisor.machines.map { "\($0.flow) in \($0.state)" })")
    }

    /// The shop (issue 38): screens declared per state, a login detour and its two-factor step, the
    /// back gesture on the grandchild's screen, a snapshot restored on a new navigator mid-checkout,
    /// and a deep link.
    static let shop = SeedScenario(
        name: "shop", seeds: "all",
        summary: "tabs as regions, a checkout that detours to a login and comes back by history, a restore mid-checkout, a deep link"
    ) { transcript in
        let navigator = transcript.navigator(Shop.Screen.self)
        let host = Shop.Host(navigator: navigator)
        try host.start()
        let observation = transcript.watch(host.coordinator.supervisor)
        transcript.note("stacks: \(navigator.tabsText)")
        transcript.user("tap the cart tab", on: navigator) { navigator.headless.selectTab(.cart) }
        try transcript.user("tap 'checkout'", on: navigator) { try host.coordinator.send(.checkout, to: host.app) }
        try transcript.user("enter the address, tap 'next'", on: navigator) { try host.coordinator.send(.next, to: host.app) }
        try transcript.user("tap 'pay' (a guest)", on: navigator) { try host.coordinator.send(.pay, to: host.app) }
        try transcript.user("enter the login, tap 'submit'", on: navigator) { try host.coordinator.send(.submit, to: host.login!) }
        transcript.user("back gesture on the code screen (the two-factor step's)", on: navigator) { navigator.headless.goBack() }
        try transcript.user("tap 'submit' again", on: navigator) { try host.coordinator.send(.submit, to: host.login!) }
        observation.cancel()

        let snapshot = try host.coordinator.supervisor.snapshot()
        transcript.note("snapshot taken; the app is relaunched on a new navigator and restored from it")
        let relaunched = transcript.navigator(Shop.Screen.self)
        let restored = Shop.Host(navigator: relaunched)
        try transcript.user("relaunch: restore the snapshot", on: relaunched) { try restored.restore(snapshot) }
        let again = transcript.watch(restored.coordinator.supervisor)
        defer { again.cancel() }
        try transcript.user("enter the code, tap 'verify'", on: relaunched) {
            try restored.coordinator.send(.correctCode, to: restored.twoFactor!)
        }
        try transcript.user("tap 'pay' (a member now)", on: relaunched) { try restored.coordinator.send(.pay, to: restored.app) }
        transcript.user("back gesture on the confirmation", on: relaunched) { relaunched.headless.goBack() }
        transcript.note("effects performed: \(restored.performed.map { "\($0)" }.joined(separator: ", "))")

        transcript.note("a new launch opens the deep link /checkout/payment")
        let linked = transcript.navigator(Shop.Screen.self)
        let fresh = Shop.Host(navigator: linked)
        try fresh.start()
        try transcript.user("open /checkout/payment", on: linked) {
            let path = try fresh.coordinator.open(path: "/checkout/payment", routes: Shop.routes, in: fresh.app)
            transcript.note("path: \(path.map { "\($0)" }.joined(separator: ", "))")
        }
    }
}
