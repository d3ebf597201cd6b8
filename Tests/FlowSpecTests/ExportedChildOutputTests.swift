@testable import FlowSpec
import Flowstate
import Testing

/// A login child whose output is computed from its context (the email it remembered).
enum ContextLogin: Flow {
    enum State: Hashable, Sendable { case email, done }
    enum Event: FlowEvent {
        case submitEmail(String)
        enum Kind: Hashable, Sendable { case submitEmail }
        var kind: Kind { .submitEmail }
    }
    typealias Effect = String
    enum Output: Sendable { case loggedIn(String) }
    struct Context: Sendable { var email = "" }

    static let remember = Update<ContextLogin>("remember email") { context, event in
        if case .submitEmail(let email) = event { context.email = email }
    }

    static let definition = FlowDefinition<ContextLogin>("login", initial: .email, context: Context()) {
        StateNode(.email) { On(.submitEmail, to: .done, update: remember) }
        Final(.done, outputLabel: "loggedIn(email)") { context, _ in .loggedIn(context.email) }
    }
}

/// A checkout that runs the login and goes on when it reports `loggedIn`.
enum LoginCheckout: Flow {
    enum State: Hashable, Sendable { case cart, login, paid }
    enum Event: FlowEvent {
        case checkout, loggedIn(String)
        enum Kind: Hashable, Sendable { case checkout, loggedIn }
        var kind: Kind {
            switch self {
            case .checkout: .checkout
            case .loggedIn: .loggedIn
            }
        }
    }
    typealias Effect = String
    enum Output: Sendable { case paid }

    static let login = ChildFlow<LoginCheckout>(ContextLogin.definition) { output in
        if case .loggedIn(let email) = output { .loggedIn(email) } else { nil }
    }

    static let definition = FlowDefinition<LoginCheckout>("checkout", initial: .cart) {
        StateNode(.cart) { On(.checkout, to: .login) }
        StateNode(.login, runs: login) { On(.loggedIn, to: .paid) }
        Final(.paid, output: .paid)
    }
}

/// Issue 37, item 4: a child's output computed from its context is exported by its case, the name
/// the parent's event kind has, not by the label that describes its payload.
@Suite("Exported child outputs computed from the context")
struct ExportedChildOutputTests {
    @Test("An exported parent and child whose output is computed validate without a spurious unhandled-child-output warning")
    func validates() throws {
        let text = FlowFile(LoginCheckout.definition).json()
        let spec = try FlowFile.parse(text, file: "checkout.json")
        let issues = spec.validate()
        #expect(!issues.contains { $0.kind == .unhandledChildOutput }, "\(issues)\n\(text)")
        let child = try #require(spec.documents["login"])
        #expect(child.states.first { $0.name == "done" }?.output == "loggedIn", "\(text)")
    }

    @Test("The exported files simulate strictly as the Swift flow runs: the computed output reaches the parent as loggedIn")
    func simulatesStrictly() throws {
        let spec = try FlowFile.parse(FlowFile(LoginCheckout.definition).json(), file: "checkout.json")
        let simulation = try FlowSimulation(spec)
        try simulation.start()
        try simulation.send("checkout")
        try simulation.send("submitEmail")
        #expect(simulation.unhandledOutputs.isEmpty, "\(simulation.unhandledOutputs)")
        #expect(simulation.unhandledEvents.isEmpty, "\(simulation.unhandledEvents)")
        #expect(simulation.isFinished, "\(simulation.configuration)")
    }

    @Test("Constant outputs keep their label and their mapping; a computed output without a payload keeps its label")
    func constantsUnchanged() throws {
        let spec = FlowFile(FlowDefinition<ContextLogin>("plain", initial: .email, context: .init()) {
            StateNode(.email) { On(.submitEmail, to: .done) }
            Final(.done, output: .loggedIn("ada"))
        })
        #expect(spec.states[1].output == "loggedIn(\"ada\")")
        let named = FlowFile(FlowDefinition<ContextLogin>("named", initial: .email, context: .init()) {
            StateNode(.email) { On(.submitEmail, to: .done) }
            Final(.done, outputLabel: "email") { context, _ in .loggedIn(context.email) }
        })
        #expect(named.states[1].output == "email")
    }
}
