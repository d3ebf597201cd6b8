import Flowstate
import FlowstateExamples
import FlowTesting
import PropertyBased
import Testing

/// The example flows tested with the kit, as a user of Flowstate would test their own flows.
@Suite("Example flows, tested with FlowTesting")
struct ExampleFlowTests {
    // MARK: Sign-up

    @Test("Sign-up: every state is reachable with a valid email, password and code")
    func signUpReachable() throws {
        let pathfinder = try FlowPathfinder(SignUp.definition, samples: [
            .submitEmail("ada@example.com"), .submitPassword("correct horse"), .submitCode("123456"), .back, .cancel,
        ])
        for state in SignUp.State.allCases {
            let reachability = pathfinder.reachability(of: state)
            #expect(reachability.isReachable, "\(state): \(reachability)")
            let machine = try #require(reachability.path).replay()
            #expect(machine.configuration.contains(state))
        }
    }

    @Test("Sign-up: the cover takes every transition, the error ones included, when samples include bad input")
    func signUpCover() throws {
        let pathfinder = try FlowPathfinder(SignUp.definition, samples: SignUpSamples.all)
        let cover = pathfinder.transitionCover()
        #expect(cover.covered == SignUp.definition.transitionIDs)
        let taken = Set(cover.paths.flatMap(\.transitions))
        #expect(taken == Set(SignUp.definition.transitionIDs))
        let errors = SignUp.definition.transitionIDs.filter { SignUp.definition[$0].effectLabels.contains { $0.hasPrefix("showError") } }
        #expect(errors.count == 2 && errors.allSatisfy(taken.contains))
        for path in cover.paths { try path.replay() }
    }

    @Test("Sign-up: with only short passwords, the code screen is blocked by the strong-password guard")
    func signUpShortPasswords() throws {
        let pathfinder = try FlowPathfinder(SignUp.definition, samples: [
            .submitEmail("ada@example.com"), .submitPassword("short"), .submitPassword("1234567"),
            .submitCode("123456"), .back, .cancel,
        ])
        let blocked = pathfinder.reachability(of: .twoFactor).reason
        guard case .blocked(let transitions)? = blocked else {
            Issue.record("expected twoFactor to be blocked, got \(String(describing: blocked))")
            return
        }
        #expect(transitions.map { SignUp.definition[$0].guardLabel } == ["strong password"])
        #expect(pathfinder.reachability(of: .done).reason == blocked, "done is behind the same guard")
        #expect(pathfinder.reachability(of: .password).isReachable)
    }

    @Test("Sign-up: the navigation stack always matches the screen, whatever the user does")
    func signUpNavigationModel() {
        // A model of the modal's navigation stack, updated from the effects alone.
        var stack: [SignUp.Screen] = []
        let screens: [SignUp.State: SignUp.Screen] = [.email: .email, .password: .password, .twoFactor: .twoFactor]
        FlowCheck.everyStep(of: SignUp.definition, samples: SignUpSamples.all, count: 300,
                            definitionName: "SignUp.definition") { machine, step in
            if step.kind == .started { stack = [] }
            for effect in step.effects {
                switch effect {
                case .present(let screen): stack = [screen]
                case .push(let screen): stack.append(screen)
                case .pop: stack.removeLast()
                case .dismiss: stack = []
                case .sendCode, .showError: break
                }
            }
            return machine.isFinished ? stack.isEmpty : stack.last == screens[machine.state]
        }
    }

    @Test("Sign-up: with swift-property-based, the flow is presented once and dismissed once, at the end")
    func signUpPresentedOnce() async {
        await propertyCheck(count: 200, input: FlowGen.events(for: SignUp.definition, samples: SignUpSamples.all)) { events in
            var presented = 0
            var dismissed = 0
            var finished = false
            try FlowCheck.run(SignUp.definition, events: events) { machine, step in
                presented += step.effects.filter { $0 == .present(.email) }.count
                dismissed += step.effects.filter { $0 == .dismiss }.count
                finished = machine.isFinished
            }
            #expect(presented == 1)
            #expect(dismissed == (finished ? 1 : 0))
        }
    }

    // MARK: Photo creation

    static let photoSamples: [PhotoCreation.Event] = [.picked(photo: "cat.jpg"), .edited, .post, .cancel]

    @Test("Photo creation: every state is reachable, every transition is covered")
    func photoPaths() throws {
        let pathfinder = try FlowPathfinder(PhotoCreation.definition, samples: Self.photoSamples)
        #expect(pathfinder.unreachableStates.isEmpty)
        #expect(try #require(pathfinder.shortestPath(to: .posted)).events == [.picked(photo: "cat.jpg"), .post])
        let cover = pathfinder.transitionCover()
        #expect(cover.uncovered.isEmpty)
        for path in cover.paths { try path.replay() }
    }

    @Test("Photo creation: the picker is dismissed exactly when the flow ends, and only a posted flow uploads")
    func photoInvariants() {
        FlowCheck.everyStep(of: PhotoCreation.definition, samples: Self.photoSamples,
                            definitionName: "PhotoCreation.definition") { machine, step in
            step.effects.contains(.dismiss) == machine.isFinished
                && step.effects.contains(.upload) == (machine.output == .posted && step.event == .post)
        }
    }

    @Test("Photo creation, step by step")
    func photoSteps() throws {
        let tester = try FlowStepTester(PhotoCreation.definition)
        try tester.start {
            $0.state(.picking)
            $0.effects([.presentPicker])
        }
        try tester.send(.post) { $0.ignored() }
        try tester.send(.picked(photo: "cat.jpg")) {
            $0.transition(to: .editing)
            $0.effects([.pushEditor])
        }
        try tester.send(.edited)
        try tester.send(.cancel) {
            $0.transition(to: .cancelled)
            $0.effects([.dismiss])
            $0.finished(output: .cancelled)
        }
        tester.finish()
    }

    // MARK: First launch

    @Test("First launch: payload-free events need no samples; home is shown exactly when entered")
    func firstLaunch() throws {
        let pathfinder = try FlowPathfinder(FirstLaunch.definition)
        #expect(pathfinder.unreachableStates.isEmpty)
        #expect(pathfinder.transitionCover().uncovered.isEmpty)
        FlowCheck.everyStep(of: FirstLaunch.definition, definitionName: "FirstLaunch.definition") { machine, step in
            step.effects.contains(.showHome) == (machine.state == .home && step.state == .home
                && step.transitions.contains { FirstLaunch.definition[$0].target == .home })
        }
    }
}
