import FlowstateMacros
import Testing

/// The `@FlowEvent` snippets of README.md and of the DocC article of `FlowstateMacros`, verbatim,
/// compiled and run (`DocSnippetCheckTests` in FlowstateTests fails when one is missing here).
enum ReadmeMacroSnippet {
    @FlowEvent
    enum Event: Hashable {
        case submitEmail(String)
        @Sensitive case submitPassword(String)     // or @Sensitive("password") on one labelled parameter
        case back, cancel
    }   // adds Event.Kind (.submitEmail, .submitPassword, .back, .cancel), kind, description
}

/// The article's two snippets.
enum MacroArticleSnippets {
    enum SignUp: Flow {
        enum State: Hashable, Sendable { case email, password, done }

        @FlowEvent
        enum Event: Hashable {
            case submitEmail(String)
            @Sensitive case submitPassword(String)
            case back, cancel
        }

        enum Effect: Sendable { case push(String), pop }
        enum Output: Sendable { case signedUp }
    }

    // Transitions are declared on the derived kinds:  On(.submitEmail, to: .password)
    // SignUp.Event.submitPassword("hunter22").description == "submitPassword(<redacted>)"

    @FlowEvent
    enum Event {
        @Sensitive case submitCode(String)                                   // submitCode(<redacted>)
        @Sensitive("password") case signIn(user: String, password: String)  // signIn(user: ada, password: <redacted>)
        @Sensitive(1) case token(String, String)                             // token(bearer, <redacted>)
        case back                                                            // back
    }
}

@Suite("Docs: the @FlowEvent snippets run as written")
struct MacroSnippetTests {
    @Test("README: kinds and a redacted description")
    func readme() {
        typealias Event = ReadmeMacroSnippet.Event
        #expect(Event.Kind.allCases == [.submitEmail, .submitPassword, .back, .cancel])
        #expect(Event.submitPassword("hunter22").kind == .submitPassword)
        #expect(Event.submitPassword("hunter22").description == "submitPassword(<redacted>)")
        #expect(Event.submitEmail("ada@example.com").description == "submitEmail(ada@example.com)")
    }

    @Test("The article: a flow on derived kinds, and what each @Sensitive redacts")
    func article() throws {
        typealias SignUp = MacroArticleSnippets.SignUp
        let definition = FlowDefinition<SignUp>("sign-up", initial: .email) {
            StateNode(.email) { On(.submitEmail, to: .password) }
            StateNode(.password) { On(.submitPassword, to: .done) }
            Final(.done, output: .signedUp)
        }
        var machine = try FlowMachine(definition)
        _ = try machine.start()
        _ = try machine.send(.submitEmail("ada@example.com"))
        _ = try machine.send(.submitPassword("hunter22"))
        #expect(machine.isFinished)
        #expect(SignUp.Event.submitPassword("hunter22").description == "submitPassword(<redacted>)")

        typealias Event = MacroArticleSnippets.Event
        #expect(Event.submitCode("123456").description == "submitCode(<redacted>)")
        #expect(Event.signIn(user: "ada", password: "secret").description == "signIn(user: ada, password: <redacted>)")
        #expect(Event.token("bearer", "xyz").description == "token(bearer, <redacted>)")
        #expect(Event.back.description == "back")
    }
}
