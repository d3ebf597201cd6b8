import Flowstate
import FlowstateExamples
import Testing

@Suite("Sign-up flow (seed 004)")
struct SignUpFlowTests {
    @Test("The happy path signs up, performing navigation effects in order")
    func happyPath() throws {
        var machine = try FlowMachine(SignUp.definition)
        #expect(try machine.start() == .started(state: .email, effects: FlowEffects([.present(.email)]),
                                                transitions: FlowTransitions()))
        let steps = try [
            SignUp.Event.submitEmail("ada@example.com"), .submitPassword("correct horse"), .submitCode("123456"),
        ].map { event throws(FlowError) in try machine.send(event) }
        #expect(steps.map(\.state) == [.password, .twoFactor, .done])
        // The engine names the transitions it took, by declaration: submitEmail (guarded) on email,
        // submitPassword (guarded) on password, submitCode on twoFactor.
        #expect(steps.map { $0.transitions.map(\.position) } == [[0], [2], [5]])
        #expect(steps.map { $0.transitions.first.map { SignUp.definition[$0].source } } == [.email, .password, .twoFactor])
        #expect(steps.map { Array($0.effects) } == [[.push(.password)], [.push(.twoFactor), .sendCode], [.dismiss]])
        #expect(machine.isFinished)
        #expect(machine.output == .signedUp)
    }

    @Test("Cancel, declared once on the compound state, works from every step and dismisses once",
          arguments: [0, 1, 2])
    func cancelFromAnyStep(depth: Int) throws {
        var machine = try FlowMachine(SignUp.definition)
        _ = try machine.start()
        let prefix: [SignUp.Event] = [.submitEmail("ada@example.com"), .submitPassword("correct horse")]
        for event in prefix.prefix(depth) { _ = try machine.send(event) }
        let step = try machine.send(.cancel)
        guard step.kind == .finished, step.state == .cancelled, step.event == .cancel, step.output == .cancelled else {
            Issue.record("expected the flow to finish cancelled, got \(step)")
            return
        }
        #expect(Array(step.effects) == [.dismiss])
        #expect(step.transitions.map { SignUp.definition[$0].source } == [.signingUp], "the cancel declared on the parent")
    }

    @Test("Payload guards: an invalid email stays on the screen with an error; a short code is rejected")
    func payloadGuards() throws {
        var machine = try FlowMachine(SignUp.definition)
        _ = try machine.start()
        let invalid = try machine.send(.submitEmail("not-an-email"))
        #expect(invalid == .transitioned(from: .email, to: .email, event: .submitEmail("not-an-email"),
                                         effects: FlowEffects([.showError("invalid email")]),
                                         transitions: FlowTransitions([FlowTransitionID(position: 1)])),
                "the second, targetless submitEmail: told apart from the first by its identity")
        _ = try machine.send(.submitEmail("ada@example.com"))
        _ = try machine.send(.submitPassword("correct horse"))
        #expect(try machine.send(.submitCode("12a456")) == .rejected(state: .twoFactor, event: .submitCode("12a456")))
        #expect(machine.state == .twoFactor)
    }

    @Test("Back pops without leaving the compound state (no dismiss, no re-present)")
    func back() throws {
        var machine = try FlowMachine(SignUp.definition)
        _ = try machine.start()
        _ = try machine.send(.submitEmail("ada@example.com"))
        let step = try machine.send(.back)
        #expect(step == .transitioned(from: .password, to: .email, event: .back, effects: FlowEffects([.pop]),
                                      transitions: FlowTransitions([FlowTransitionID(position: 4)])))
        #expect(machine.configuration == [.email, .signingUp])
        // What the step exited and entered, as the engine reports it: the domain is signingUp, it stays.
        var reporting = try FlowMachine(SignUp.definition)
        _ = try reporting.startReportingMicrosteps()
        _ = try reporting.sendReportingMicrosteps(.submitEmail("ada@example.com"))
        let (_, microsteps) = try reporting.sendReportingMicrosteps(.back)
        let states = SignUp.definition.states.map(\.state)
        #expect(microsteps.flatMap(\.exited).map { states[$0] } == [.password])
        #expect(microsteps.flatMap(\.entered).map { states[$0] } == [.email])
        #expect(try machine.send(.back) == .ignored(state: .email, event: .back))
    }

    @Test("The definition is inspectable with readable labels and validates cleanly")
    func inspection() {
        let definition = SignUp.definition
        #expect(definition.validate().isEmpty)
        #expect(definition.finalStates == [.done, .cancelled])
        #expect(definition.declaration(of: .signingUp)?.kind == .compound)
        #expect(definition.declaration(of: .signingUp)?.initialChild == .email)
        #expect(definition.declaration(of: .twoFactor)?.entryLabels == ["sendCode"])
        #expect(definition.declaration(of: .done)?.outputLabel == "signedUp")
        #expect(definition.transitions.map(\.label).prefix(3) == [
            "submitEmail [valid email] / push(password)",
            "submitEmail / showError(invalid email)",
            "submitPassword [strong password] / push(twoFactor)",
        ])
        let cancel = definition.transitions.first { $0.event == .cancel }
        #expect(cancel?.source == .signingUp)
        #expect(cancel?.location.file.hasSuffix("SignUp.swift") == true)
    }

    @Test("The DocC article RunningTheEngine.md: its code runs as written")
    func article() throws {
        var machine = try FlowMachine(SignUp.definition)
        let start = try machine.start()
        #expect(start.state == .email)
        let step = try machine.send(.submitEmail("ada@example.com"))
        #expect(step.state == .password)
        #expect(Array(step.effects) == [.push(.password)])

        let cancelled = try machine.send(.cancel)
        switch cancelled.kind {
        case .finished:
            #expect(cancelled.from == .password && cancelled.output == .cancelled)
        case .started, .transitioned, .ignored, .rejected:
            Issue.record("cancel finishes the flow: \(cancelled)")
        }
    }
}
