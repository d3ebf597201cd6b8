import FlowGraph
import FlowSpec
import FlowNavigation
import Flowstate
import FlowTesting
import Testing

// The tutorial "Building an app's flow, end to end" (Sources/FlowNavigation/FlowNavigation.docc/
// BuildingAnApp.md): its snippets, verbatim, in its order; `DocSnippetCheckTests` fails when one
// is missing. The whole path runs as one test.

enum Login: Flow {
    enum Screen: Hashable, Sendable { case email, password, code }
    enum State: Hashable, Sendable { case signingIn, email, password, typing, verifying, done }
    enum Event: FlowEvent, Hashable {
        case submitEmail(String), submitPassword(String), back, verified, refused, codeDismissed
        enum Kind: Hashable, Sendable { case submitEmail, submitPassword, back, verified, refused, codeDismissed }
        var kind: Kind {
            switch self {
            case .submitEmail: .submitEmail
            case .submitPassword: .submitPassword
            case .back: .back
            case .verified: .verified
            case .refused: .refused
            case .codeDismissed: .codeDismissed
            }
        }
    }
    typealias Effect = Navigation<Screen, Event>
    typealias Output = String
    struct Context: Hashable, Sendable, Codable { var email = "" }
}

enum TwoFactor: Flow {
    enum State: Hashable, Sendable { case asking, passed, refused }
    enum Event: Hashable, Sendable, FlowEvent { case correctCode, wrongCode }
    typealias Effect = Navigation<Login.Screen, Login.Event>  // performed by the parent's handler
    enum Output: Hashable, Sendable { case passed, refused }

    static let definition = FlowDefinition<TwoFactor>("two-factor", initial: .asking) {
        StateNode(.asking, entry: [.present(.code)]) {
            On(.correctCode, to: .passed, effects: [.dismiss])
            On(.wrongCode, to: .refused, effects: [.dismiss])
        }
        Final(.passed, output: .passed)
        Final(.refused, output: .refused)
    }
}

extension Login {
    static let validEmail = Guard<Login>("valid email") { event in
        if case .submitEmail(let email) = event { email.contains("@") } else { false }
    }
    static let rememberEmail = Update<Login>("remember email") { context, event in
        if case .submitEmail(let email) = event { context.email = email }
    }
    static let twoFactor = ChildFlow<Login>(TwoFactor.definition) { $0 == .passed ? .verified : .refused }

    static let definition = FlowDefinition<Login>("login", initial: .signingIn, context: Context()) {
        StateNode(.signingIn, entry: [.push(.email)]) {
            StateNode(.email) {
                On(.submitEmail, guard: validEmail, to: .password, update: rememberEmail)
            }
            StateNode(.password, entry: [.push(.password)]) {
                StateNode(.typing) { On(.submitPassword, to: .verifying) }
                StateNode(.verifying, runs: twoFactor) {
                    On(.verified, to: .done)
                    On(.refused, to: .typing)
                    On(.codeDismissed, to: .typing)
                }
                On(.back, to: .email)
            }
        }
        Final(.done, outputLabel: "email") { context, _ in context.email }
    }

    /// The user's own navigation, as the flow's events.
    static func userNavigation(_ navigation: UserNavigation<Screen>) -> Event? {
        switch navigation {
        case .wentBack(.password): .back
        case .dismissed(.code): .codeDismissed
        default: nil
        }
    }
}

@MainActor
final class LoginHost {
    let navigator = HeadlessNavigator<Login.Screen>()  // UIKitNavigator or SwiftUINavigator in the app
    lazy var coordinator = Coordinator(navigator: navigator)
    var login: MachineHandle<Login>?

    func run() async throws -> String {
        try await coordinator.run(Login.definition, effects: { $0 }, userNavigation: Login.userNavigation,
                                  started: { self.login = $0 })
    }

    /// What a screen calls when the user acts.
    func send(_ event: Login.Event) throws {
        if let login { try coordinator.send(event, to: login) }
    }
}

@Suite("Tutorial: building an app's flow, end to end (issue 23)")
struct AppTutorialTests {
    @Test("The coordinator, a declared child, the awaited output, back and swipe-down, a snapshot, a drawing, the kit")
    @MainActor
    func wholePath() async throws {
        let host = LoginHost()
        let running = Task { try await host.run() }
        while host.login == nil { await Task.yield() }
        #expect(host.navigator.stacks == [[.email]])

        try host.send(.submitEmail("not an email"))   // the guard says no: nothing happens
        try host.send(.submitEmail("ada@example.com"))
        #expect(host.navigator.stacks == [[.email, .password]])
        #expect(host.navigator.goBack())              // the back gesture reaches the flow as .back
        #expect(host.coordinator.supervisor.state(of: host.login!) == .email)

        try host.send(.submitEmail("ada@example.com"))
        try host.send(.submitPassword("correct horse"))
        #expect(host.navigator.stacks == [[.email, .password], [.code]])
        #expect(host.navigator.swipeDown())           // dismissing the code sheet tears the child down
        #expect(host.coordinator.supervisor.liveCount == 1)
        try host.send(.submitPassword("correct horse"))
        let code = try #require(host.coordinator.supervisor.declaredChild(of: host.login!, in: .verifying,
                                                                           as: TwoFactor.self))

        let snapshot = try host.coordinator.supervisor.snapshot()
        let relaunched = Coordinator(navigator: HeadlessNavigator<Login.Screen>())
        let restored = try relaunched.restore(snapshot.roots[0], definition: Login.definition, effects: { $0 },
                                              userNavigation: Login.userNavigation)
        #expect(relaunched.supervisor.state(of: restored) == .verifying)
        #expect(relaunched.supervisor.context(of: restored)?.email == "ada@example.com")

        try host.coordinator.send(.correctCode, to: code)
        #expect(try await running.value == "ada@example.com")
        #expect(host.navigator.stacks == [[.email, .password]] && host.navigator.problems.isEmpty)

        let dot = DOTWriter.dot(FlowDiagram(Login.definition))
        #expect(dot.contains("verifying") && dot.contains("two-factor"))

        let file = FlowFile(Login.definition).json()
        let spec = try FlowFile.parse(file, file: "login.json")
        #expect(spec.documents["two-factor"] != nil)
        #expect(DOTWriter.dot(FlowDiagram(spec)) == dot)

        let tester = try FlowStepTester(Login.definition)
        try tester.start {
            $0.state(.email)
            $0.effects([.push(.email)])
        }
        try tester.send(.submitEmail("ada@example.com")) {
            $0.transition(to: .typing)
            $0.effects([.push(.password)])
            $0.context(\.email, "ada@example.com")
        }
        tester.finish()
    }
}
