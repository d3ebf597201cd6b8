import Flowstate
import FlowstateExamples
import Testing

/// The Swift snippets of README.md and of the DocC articles of `Flowstate` ("Defining a flow",
/// "Supervising child flows"), verbatim, compiled and run. `DocSnippetCheckTests` fails when a
/// snippet of the docs is missing from the tests.
///
/// The article "Defining a flow" declares its own `SignUp` (simpler than the examples'), nested here
/// so that it shadows `FlowstateExamples.SignUp` inside this suite only.
@Suite("Docs: README and the Flowstate articles run as written")
struct ArticleSnippetTests {
    // MARK: README.md, "A flow in ten lines"

    @Test("README: a flow in ten lines")
    func readme() throws {
        typealias SignUp = FlowstateExamples.SignUp
        let signUp = FlowDefinition<SignUp>("sign-up", initial: .signingUp) {
            StateNode(.signingUp, entry: [.present(.email)], exit: [.dismiss]) {
                StateNode(.email)    { On(.submitEmail, guard: SignUp.validEmail, to: .password, effects: [.push(.password)]) }
                StateNode(.password) { On(.submitPassword, to: .done) }
                On(.cancel, to: .cancelled)          // once, for every step inside
            }
            Final(.done, output: .signedUp)
            Final(.cancelled, output: .cancelled)
        }

        var machine = try FlowMachine(signUp)        // refuses a definition with validation errors
        let step = try machine.start()               // start --> email / [present(email)]

        #expect("\(step)" == "start --> email / [present(email)]")
        #expect(signUp.validate().filter { $0.severity == .error }.isEmpty)
        _ = try machine.send(.cancel)
        #expect(machine.output == .cancelled)
    }

    // MARK: Sources/Flowstate/Flowstate.docc/DefiningAFlow.md

    enum SignUp: Flow {
        enum State: Hashable, Sendable { case signingUp, email, password, twoFactor, done, cancelled }
        enum Event: FlowEvent {
            case submitEmail(String), submitPassword(String), submitCode(String), back, cancel
            enum Kind: Hashable, Sendable { case submitEmail, submitPassword, submitCode, back, cancel }
            var kind: Kind {
                switch self {
                case .submitEmail: .submitEmail
                case .submitPassword: .submitPassword
                case .submitCode: .submitCode
                case .back: .back
                case .cancel: .cancel
                }
            }
        }
        enum Screen: Hashable, Sendable { case email, password, twoFactor }
        enum Effect: Hashable, Sendable { case present(Screen), push(Screen), pop, dismiss, sendCode }
        enum Output: Hashable, Sendable { case signedUp, cancelled }
    }

    @Test("Defining a flow: types, guards, states, a run")
    func definingAFlow() throws {
        let validEmail = Guard<SignUp>("valid email") { event in
            if case .submitEmail(let email) = event { email.contains("@") } else { false }
        }
        let strongPassword = Guard<SignUp>("strong password") { event in
            if case .submitPassword(let password) = event { password.count >= 8 } else { false }
        }
        let validCode = Guard<SignUp>("6 digits") { event in
            if case .submitCode(let code) = event { code.count == 6 && code.allSatisfy(\.isNumber) } else { false }
        }

        let definition = FlowDefinition<SignUp>("sign-up", initial: .signingUp) {
            StateNode(.signingUp, entry: [.present(.email)], exit: [.dismiss]) {
                StateNode(.email) {
                    On(.submitEmail, guard: validEmail, to: .password, effects: [.push(.password)])
                }
                StateNode(.password) {
                    On(.submitPassword, guard: strongPassword, to: .twoFactor, effects: [.push(.twoFactor)])
                    On(.back, to: .email, effects: [.pop])
                }
                StateNode(.twoFactor, entry: [.sendCode]) {
                    On(.submitCode, guard: validCode, to: .done)
                }
                On(.cancel, to: .cancelled)
            }
            Final(.done, output: .signedUp)
            Final(.cancelled, output: .cancelled)
        }
        #expect(definition.validate().isEmpty)
        #expect(definition.transitions.compactMap(\.guardLabel) == ["valid email", "strong password", "6 digits"])

        var machine = try FlowMachine(definition)
        let start = try machine.start()                      // present(email)
        let step = try machine.send(.submitEmail("ada@example.com"))  // push(password)

        #expect(Array(start.effects) == [.present(.email)])
        #expect(Array(step.effects) == [.push(.password)])
        #expect(machine.state == .password)
        let rejected = try machine.send(.submitPassword("short"))
        #expect(rejected.effects.isEmpty && machine.state == .password)
        _ = try machine.send(.submitPassword("correct horse"))
        let done = try machine.send(.submitCode("123456"))
        #expect(machine.output == .signedUp)
        #expect(Array(done.effects) == [.dismiss])
    }

    // MARK: Sources/Flowstate/Flowstate.docc/SupervisingFlows.md

    @Test("Supervising child flows: awaiting a root's typed output")
    @MainActor
    func awaitingOutput() async throws {
        typealias SignUp = FlowstateExamples.SignUp
        let supervisor = Supervisor()
        let output = try await supervisor.run(SignUp.definition) { effect, context in
            // Show the screen the effect asks for; the screen reports what the user does.
            if case .present(.email) = effect { context.send(.cancel) }
        }
        // output == .cancelled
        #expect(output == .cancelled)
        #expect(supervisor.machines.isEmpty)
    }

    @Test("Supervising child flows: a declared child, then a child bound to a screen's lifetime")
    func supervisingFlows() throws {
        typealias SignUp = FlowstateExamples.SignUp
        let newAccount = ChildFlow<FirstLaunch>(SignUp.definition, effects: { .signUp($0) }) { output in
            output == .signedUp ? .accountCreated : .accountCancelled
        }

        let firstLaunch = FlowDefinition<FirstLaunch>("first-launch", initial: .welcome) {
            StateNode(.welcome, entry: [.showWelcome]) { On(.createAccount, to: .creatingAccount) }
            StateNode(.creatingAccount, runs: newAccount) {
                On(.accountCreated, to: .home)
                On(.accountCancelled, to: .welcome)
            }
            StateNode(.home, entry: [.showHome]) { On(.logOut, to: .welcome) }
        }

        let supervisor = Supervisor()                  // on the main actor
        var performed: [FirstLaunch.Effect] = []       // a coordinator would show screens instead
        let launch = try supervisor.start(firstLaunch) { effect, context in
            performed.append(effect)                   // the child's effects arrive mapped: .signUp(...)
        }
        try supervisor.send(.createAccount, to: launch) // spawns the sign-up child
        // performed == [.showWelcome, .signUp(.present(.email))]

        #expect(performed == [.showWelcome, .signUp(.present(.email))])
        #expect(supervisor.machines.map(\.flow) == ["first-launch", "sign-up"])

        // Binding a child to a screen: the child lives while its lifetime object does.
        var spawned: MachineID?
        do {
            let lifetime = FlowLifetime()                 // kept by the sign-up screen: signUpRoot.lifetime = lifetime
            let child = try supervisor.spawn(SignUp.definition, under: launch, owner: lifetime,
                                             handler: { effect, _ in performed.append(.signUp(effect)) },
                                             output: { _ in .accountCancelled })
            spawned = child.id
            #expect(supervisor.contains(child.id))
            #expect(supervisor.liveCount == 3)
            withExtendedLifetime(lifetime) {}
        }
        // The screen (and its lifetime) went away: the next call observing the tree tears the child down.
        let record = supervisor.sweep()
        #expect(record.ids == [spawned])
        #expect(!supervisor.contains(try #require(spawned)))
        #expect(supervisor.liveCount == 2)
        #expect(supervisor.state(of: launch) == .creatingAccount, "a released owner sends the parent nothing")
        #expect(performed.suffix(2) == [.signUp(.present(.email)), .signUp(.dismiss)],
                "the spawned child presented its screen, and its exit effect ran at teardown")
    }
}
