import FlowstateExamples
import FlowstateMacroExamples
import FlowstateMacros
import Testing

/// A sign-in flow whose event is derived by `@FlowEvent`: the kinds drive the transitions, the guard
/// reads the payload, the description hides the password.
enum SignIn: Flow {
    enum State: String, Hashable, Sendable { case form, twoFactor, signedIn, cancelled }

    @FlowEvent
    enum Event: Hashable {
        @Sensitive("password") case submit(user: String, password: String)
        @Sensitive case submitCode(String)
        case back, cancel
    }

    enum Effect: Hashable, Sendable { case sendCode, showError }
    enum Output: Hashable, Sendable { case signedIn, cancelled }

    static let complete = Guard<SignIn>("user and password") { event in
        if case .submit(let user, let password) = event { !user.isEmpty && password.count >= 8 } else { false }
    }

    static let definition = FlowDefinition<SignIn>("sign-in", initial: .form) {
        StateNode(.form) {
            On(.submit, guard: complete, to: .twoFactor, effects: [.sendCode])
            On(.submit, to: nil, effects: [.showError])
            On(.cancel, to: .cancelled)
        }
        StateNode(.twoFactor) {
            On(.submitCode, to: .signedIn)
            On(.back, to: .form)
        }
        Final(.signedIn, output: .signedIn)
        Final(.cancelled, output: .cancelled)
    }
}

/// A private event type: the derived members keep the enum's access and still satisfy `FlowEvent`.
private enum Counter: Flow {
    enum State: Hashable, Sendable { case counting, done }
    @FlowEvent enum Event { case add(Int), finish }
    typealias Effect = Int
    typealias Output = Int
}

/// An enum that already states the conformances the macro adds: the macro adds none twice.
enum Stated {
    @FlowEvent enum Event: FlowEvent, CustomStringConvertible { case tick(Int), stop }
}

/// A generic payload.
enum Boxed<Value: Sendable> {
    @FlowEvent enum Event { case put(Value), clear }
}

@Suite("@FlowEvent on the engine")
struct EndToEndTests {
    @Test("a flow whose events are derived by the macro runs on the engine")
    func runsOnTheEngine() throws {
        #expect(SignIn.definition.validate().isEmpty)
        var machine = try FlowMachine(SignIn.definition)
        #expect(try machine.start().state == .form)

        let short = try machine.send(.submit(user: "ada", password: "short"))
        #expect(short.state == .form)
        #expect(Array(short.effects) == [.showError])

        let step = try machine.send(.submit(user: "ada", password: "correct horse"))
        #expect(step.state == .twoFactor)
        #expect(Array(step.effects) == [.sendCode])
        #expect(step.description == "form --submit(user: ada, password: <redacted>)--> twoFactor / [sendCode]")

        #expect(try machine.send(.back).state == .form)
        _ = try machine.send(.submit(user: "ada", password: "correct horse"))
        let finish = try machine.send(.submitCode("123456"))
        guard finish.kind == .finished else {
            Issue.record("expected the flow to finish, got \(finish)")
            return
        }
        #expect(finish.state == .signedIn)
        #expect(finish.output == .signedIn)
        #expect(finish.event?.kind == .submitCode)
        #expect(finish.event.map(String.init(describing:)) == "submitCode(<redacted>)")
    }

    @Test("the derived kind, kinds and descriptions")
    func derivedMembers() {
        #expect(SignIn.Event.submit(user: "a", password: "b").kind == .submit)
        #expect(SignIn.Event.cancel.kind == .cancel)
        #expect(SignIn.Event.Kind.allCases == [.submit, .submitCode, .back, .cancel])
        #expect(SignIn.Event.Kind.allCases.map(String.init(describing:)) == ["submit", "submitCode", "back", "cancel"])
        #expect(SignIn.Event.back.description == "back")
        #expect(SignIn.Event.submit(user: "ada", password: "secret").description
            == "submit(user: ada, password: <redacted>)")
        #expect(Counter.Event.add(2).description == "add(2)")
        #expect(Counter.Event.add(2).kind == .add)
        #expect(Stated.Event.tick(1).kind == .tick)
        #expect(Stated.Event.tick(1).description == "tick(1)")
        #expect(Boxed<Int?>.Event.put(nil).description == "put(nil)")
        #expect(Boxed<Int?>.Event.put(3).description == "put(Optional(3))")
        #expect(Boxed<Int?>.Event.clear.kind == .clear)
    }

    @Test("the diagram labels are the kinds' names")
    func labels() {
        let labels = SignIn.definition.transitions.map(\.eventLabel)
        #expect(labels.contains("submit"))
        #expect(labels.contains("submitCode"))
    }
}

/// The sign-up example written with `@FlowEvent` behaves exactly like the hand-written one.
@Suite("The sign-up example with @FlowEvent")
struct MacroSignUpTests {
    typealias Manual = FlowstateExamples.SignUp
    typealias Derived = FlowstateMacroExamples.SignUp

    @Test("the same kinds, and the same transitions with the same labels")
    func sameDefinition() {
        #expect(Derived.Event.Kind.allCases.map(\.description) == Manual.Event.Kind.allCases.map(\.description))
        #expect(Derived.definition.validate().isEmpty)
        #expect(Derived.definition.transitions.map(describe) == Manual.definition.transitions.map(describe))
    }

    @Test("the same run step by step; only the password's description differs")
    func sameRun() throws {
        var manual = try FlowMachine(Manual.definition)
        var derived = try FlowMachine(Derived.definition)
        #expect(try manual.start().description == derived.start().description)
        let inputs: [(Manual.Event, Derived.Event)] = [
            (.submitEmail("ada"), .submitEmail("ada")),
            (.submitEmail("ada@example.com"), .submitEmail("ada@example.com")),
            (.back, .back),
            (.submitEmail("ada@example.com"), .submitEmail("ada@example.com")),
            (.submitPassword("short"), .submitPassword("short")),
            (.submitPassword("correct horse"), .submitPassword("correct horse")),
            (.submitCode("12345x"), .submitCode("12345x")),
            (.submitCode("123456"), .submitCode("123456")),
        ]
        for (manualEvent, derivedEvent) in inputs {
            let manualStep = try manual.send(manualEvent)
            let derivedStep = try derived.send(derivedEvent)
            #expect(manualStep.state.rawValue == derivedStep.state.rawValue)
            #expect(manualStep.effects.map(\.description) == derivedStep.effects.map(\.description))
            #expect(manualStep.transitions == derivedStep.transitions)
            let expected = manualStep.description.replacingPasswordStars()
            #expect(derivedStep.description == expected)
        }
        #expect(derived.isFinished)
        #expect(Derived.Event.submitPassword("correct horse").description == "submitPassword(<redacted>)")
    }
}

extension String {
    /// The hand-written description prints a password as stars; the derived one as `<redacted>`.
    fileprivate func replacingPasswordStars() -> String {
        replacing(#/submitPassword\(\**\)/#, with: "submitPassword(<redacted>)")
    }
}

/// A declared transition as one line: where, on what, to where, with its label.
private func describe<F: Flow>(_ transition: FlowDefinition<F>.TransitionDeclaration) -> String {
    "\(transition.source) \(transition.label) -> \(transition.target.map { "\($0)" } ?? "nil")"
}
