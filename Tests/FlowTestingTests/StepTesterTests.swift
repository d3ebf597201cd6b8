import Flowstate
import FlowstateExamples
import FlowTesting
import Testing

@Suite("Step tester")
struct StepTesterTests {
    static func id(_ position: Int) -> FlowTransitionID { FlowTransitionID(position: position) }

    static func text(of issue: Issue) -> String { issue.comments.map(\.rawValue).joined(separator: "\n") }

    @Test("Stating everything that happened passes")
    func happyPath() throws {
        let tester = try FlowStepTester(SignUp.definition)
        try tester.start {
            $0.state(.email)
            $0.effects([.present(.email)])
            $0.transitions([])
        }
        try tester.send(.submitEmail("not-an-email")) {
            $0.effects([.showError("invalid email")])
            $0.transitions([Self.id(1)])
        }
        try tester.send(.submitEmail("ada@example.com")) {
            $0.transition(to: .password)
            $0.effects([.push(.password)])
            $0.transitions([Self.id(0)])
        }
        try tester.send(.submitPassword("correct horse")) {
            $0.transition(to: .twoFactor)
            $0.effects([.push(.twoFactor), .sendCode])
        }
        try tester.send(.submitCode("12a456")) { $0.rejected() }
        try tester.send(.submitCode("123456")) {
            $0.transition(to: .done)
            $0.effects([.dismiss])
            $0.finished(output: .signedUp)
        }
        #expect(tester.isFinished && tester.state == .done)
        tester.finish()
    }

    @Test("An ignored event needs no statement; stating it is checked")
    func ignored() throws {
        let tester = try FlowStepTester(SignUp.definition)
        try tester.start {
            $0.state(.email)
            $0.effects([.present(.email)])
        }
        try tester.send(.back)
        try tester.send(.back) { $0.ignored() }
        try withKnownIssue {
            try tester.send(.back) { $0.rejected() }
        } matching: { issue in
            Self.text(of: issue).contains("expected the event to be rejected, but it was ignored")
        }
    }

    @Test("Unstated effects, state changes and outputs fail at the line of the send")
    func unstated() throws {
        let tester = try FlowStepTester(SignUp.definition)
        try tester.start {
            $0.state(.email)
            $0.effects([.present(.email)])
        }
        let line = #line + 2
        try withKnownIssue {
            try tester.send(.submitEmail("ada@example.com"))
        } matching: { issue in
            let text = Self.text(of: issue)
            return issue.sourceLocation?.line == line
                && text.contains("unstated state change: email -> password")
                && text.contains("unstated effects: [push(password)]")
        }
        try withKnownIssue {
            try tester.send(.cancel) { $0.transition(to: .cancelled) }
        } matching: { issue in
            let text = Self.text(of: issue)
            return text.contains("unstated effects: [dismiss]") && text.contains("unstated finish with output cancelled")
        }
    }

    @Test("A wrong statement fails with a readable difference")
    func wrong() throws {
        let tester = try FlowStepTester(SignUp.definition)
        try withKnownIssue {
            try tester.start {
                $0.state(.password)
                $0.effects([.present(.email), .sendCode])
            }
        } matching: { issue in
            let text = Self.text(of: issue)
            return text.contains("state: expected password, actual email")
                && text.contains("effects differ at position 1: expected sendCode, actual nothing")
                && text.contains("expected: [present(email), sendCode]")
                && text.contains("actual: [present(email)]")
        }
        try tester.send(.submitEmail("ada@example.com")) {
            $0.transition(to: .password)
            $0.effects([.push(.password)])
        }
        try withKnownIssue {
            try tester.send(.back) {
                $0.transition(to: .email)
                $0.effects([.pop])
                $0.transitions([Self.id(6)])
            }
        } matching: { issue in
            Self.text(of: issue).contains("transitions: expected [t6], actual [t4]")
        }
    }

    @Test("The start always counts as a change of state")
    func startMustBeStated() throws {
        let tester = try FlowStepTester(FirstLaunch.definition)
        try withKnownIssue {
            try tester.start { $0.effects([.showWelcome]) }
        } matching: { issue in
            Self.text(of: issue).contains("unstated state change: started in welcome")
        }
    }

    /// A photo-creation runtime whose handler, like an editor screen finishing by itself, sends
    /// `edited` when the editor is pushed.
    static func photoRuntime(log: EffectLog) throws -> FlowRuntime<PhotoCreation> {
        try FlowRuntime(PhotoCreation.definition) { effect, runtime in
            log.effects.append(effect)
            if effect == .pushEditor { try runtime.send(.edited) }
        }
    }

    final class EffectLog {
        var effects: [PhotoCreation.Effect] = []
    }

    @Test("A runtime's handler-sent events are steps of their own, stated with receive")
    func runtime() throws {
        let log = EffectLog()
        let tester = FlowStepTester(runtime: try Self.photoRuntime(log: log))
        try tester.start {
            $0.state(.picking)
            $0.effects([.presentPicker])
        }
        try tester.send(.picked(photo: "cat.jpg")) {
            $0.transition(to: .editing)
            $0.effects([.pushEditor])
        }
        tester.receive {
            $0.transitions([Self.id(1)])  // edited: targetless, no effects
        }
        try tester.send(.post) {
            $0.transition(to: .posted)
            $0.effects([.dismiss, .upload])
            $0.finished(output: .posted)
        }
        tester.finish()
        #expect(log.effects == [.presentPicker, .pushEditor, .dismiss, .upload], "the handler performed them")
    }

    @Test("Steps left unstated fail at the next send, at finish, or when the tester goes away")
    func pendingSteps() throws {
        let log = EffectLog()
        let tester = FlowStepTester(runtime: try Self.photoRuntime(log: log))
        try tester.start {
            $0.state(.picking)
            $0.effects([.presentPicker])
        }
        try tester.send(.picked(photo: "cat.jpg")) {
            $0.transition(to: .editing)
            $0.effects([.pushEditor])
        }
        withKnownIssue {
            tester.finish()
        } matching: { issue in
            Self.text(of: issue).contains("1 step caused by events the effect handler sent (or by timers: after the first that advance(by:) fired, or on a runtime's clock) was not stated with receive():\n  editing --edited--> editing")
        }
        withKnownIssue {
            tester.receive()
        } matching: { issue in
            Self.text(of: issue).contains("but there is none")
        }
        let line = #line + 3
        try withKnownIssue {
            do {
                let forgotten = FlowStepTester(runtime: try Self.photoRuntime(log: log))
                try forgotten.start {
                    $0.state(.picking)
                    $0.effects([.presentPicker])
                }
                try forgotten.send(.picked(photo: "dog.jpg")) {
                    $0.transition(to: .editing)
                    $0.effects([.pushEditor])
                }
            }
        } matching: { issue in
            issue.sourceLocation?.line == line && Self.text(of: issue).contains("not stated with receive()")
        }
    }

    @Test("Errors of the machine are thrown to the test")
    func errors() throws {
        let strict = FlowDefinition<FirstLaunch>("strict", initial: .welcome, unhandledEvents: .fail) {
            StateNode(.welcome, entry: [.showWelcome]) { On(.createAccount, to: .home) }
            StateNode(.home, entry: [.showHome]) { On(.logOut, to: .welcome) }
        }
        let tester = try FlowStepTester(strict)
        #expect(throws: FlowError.self) { try tester.send(.logOut) }
        try tester.start {
            $0.state(.welcome)
            $0.effects([.showWelcome])
        }
        #expect(throws: FlowError.self) { try tester.send(.logOut) }
        #expect(tester.state == .welcome)
    }
}
