import CoordinatorExamples
import FlowNavigation
import Flowstate
import FlowstateExamples
import FlowTesting
import Foundation
import PropertyBased
import Testing

/// The snippets of the DocC article "Testing flows" (`Sources/FlowTesting/FlowTesting.docc/TestingFlows.md`),
/// verbatim: each test holds one or more of them, and `snippetsAreVerbatim` checks that every
/// snippet of the article appears here.
@Suite("Article: Testing flows")
struct TestingFlowsArticleTests {
    static let samples: [SignUp.Event] = {
        let samples: [SignUp.Event] = [
            .submitEmail("ada@example.com"), .submitEmail("not-an-email"),
            .submitPassword("correct horse"), .submitPassword("short"),
            .submitCode("123456"), .back, .cancel,
        ]
        return samples
    }()

    @Test("Every state is reachable, every transition is taken")
    func paths() throws {
        let samples = Self.samples
        let pathfinder = try FlowPathfinder(SignUp.definition, samples: samples)
        #expect(pathfinder.unreachableStates.isEmpty)
        let path = try #require(pathfinder.shortestPath(to: .twoFactor))
        #expect(path.events == [.submitEmail("ada@example.com"), .submitPassword("correct horse")])
        try path.replay()

        let cover = pathfinder.transitionCover()
        #expect(cover.uncovered.isEmpty)
        for path in cover.paths {
            try path.replay()
        }
    }

    @Test("Why a state is unreachable")
    func reasons() throws {
        let noValidEmail = try FlowPathfinder(SignUp.definition, samples: [.submitEmail("not-an-email"), .cancel])
        let reason = noValidEmail.reachability(of: .password).reason
        #expect(reason == .blocked(transitions: [FlowTransitionID(position: 0)]))
        #expect(SignUp.definition[FlowTransitionID(position: 0)].guardLabel == "valid email")
    }

    @Test("An invariant after every step")
    func invariant() {
        let samples = Self.samples
        FlowCheck.everyStep(of: SignUp.definition, samples: samples, definitionName: "SignUp.definition") { machine, step in
            machine.isFinished || machine.configuration.contains(.signingUp)
        }
    }

    @Test("Counterexamples as regression tests")
    func counterexamples() throws {
        let samples = Self.samples
        var codesSent = 0
        let counterexample = FlowCheck.counterexample(of: SignUp.definition, samples: samples, seed: 1) { _, step in
            if step.kind == .started { codesSent = 0 }
            codesSent += step.effects.filter { $0 == .sendCode }.count
            return codesSent <= 1
        }
        print(counterexample?.swiftCode(definition: "SignUp.definition") ?? "no counterexample")

        // What the article says it prints:
        #expect(counterexample?.swiftCode(definition: "SignUp.definition") == """
            var machine = try FlowMachine(SignUp.definition)
            _ = try machine.start()
            _ = try machine.send(.submitEmail("ada@example.com"))
            _ = try machine.send(.submitPassword("correct horse"))
            _ = try machine.send(.back)
            _ = try machine.send(.submitPassword("correct horse"))
            """)
    }

    @Test("The printed counterexample runs as a regression test")
    func pastedCounterexample() throws {
        var machine = try FlowMachine(SignUp.definition)
        _ = try machine.start()
        _ = try machine.send(.submitEmail("ada@example.com"))
        _ = try machine.send(.submitPassword("correct horse"))
        _ = try machine.send(.back)
        _ = try machine.send(.submitPassword("correct horse"))
        #expect(machine.state == .twoFactor)
    }

    @Test("With swift-property-based")
    func withPropertyCheck() async {
        let samples = Self.samples
        await propertyCheck(input: FlowGen.events(for: SignUp.definition, samples: samples)) { events in
            try FlowCheck.run(SignUp.definition, events: events) { machine, step in
                #expect(step.effects.filter { $0 == .dismiss }.count <= 1)
            }
        }
    }

    @Test("Every step stated")
    func stepTester() throws {
        let tester = try FlowStepTester(SignUp.definition)
        try tester.start {
            $0.state(.email)
            $0.effects([.present(.email)])
        }
        try tester.send(.submitEmail("ada@example.com")) {
            $0.transition(to: .password)
            $0.effects([.push(.password)])
        }
        try tester.send(.cancel) {
            $0.transition(to: .cancelled)
            $0.effects([.dismiss])
            $0.finished(output: .cancelled)
        }
        tester.finish()
    }

    @Test("Testing tools built on Flowstate")
    func definitions() async {
        await propertyCheck(input: FlowGen.definitions(states: 2...8)) { blueprint in
            let definition = blueprint.definition
            #expect(definition.isValid)
            let pathfinder = try FlowPathfinder(definition)
            for path in pathfinder.shortestPaths.values {
                try path.replay()
            }
        }
    }

    static var universe: SupervisorUniverse {
        let samples = Self.samples
        let universe = SupervisorUniverse(root: FirstLaunch.definition)
            .adding(SignUp.definition, samples: samples, output: { _ in FirstLaunch.Event.accountCancelled })
        return universe
    }

    @Test("Supervisor trees: an invariant after every command")
    func treeInvariant() {
        let universe = Self.universe
        SupervisorCheck.everyCommand(of: universe) { supervisor, _ in
            let machines = supervisor.machines
            return machines.allSatisfy { machine in
                machine.parentState == nil || machines.contains { $0.id == machine.parent && $0.state == "creatingAccount" }
            }
        }
    }

    @Test("Supervisor trees: counterexamples")
    func treeCounterexample() {
        let universe = Self.universe
        let counterexample = SupervisorCheck.counterexample(of: universe, seed: 1) { supervisor, _ in
            supervisor.liveCount <= 2
        }
        print(counterexample?.swiftCode() ?? "no counterexample")

        // What the article says it prints:
        #expect(counterexample?.swiftCode() == """
            try SupervisorCheck.run(universe, commands: [
                .send(machine: 0, event: 0),  // send .createAccount to #1 'first-launch' in welcome
                .spawn(flow: 0, under: 0, policy: 0),  // spawn 'first-launch' #3 under #1 'first-launch' with escalate
            ]) { supervisor, events in
                // the invariant
            }
            """)
    }

    @Test("The printed tree counterexample runs as a regression test")
    func pastedTreeCounterexample() throws {
        let universe = Self.universe
        var sizes: [Int] = []
        try SupervisorCheck.run(universe, commands: [
            .send(machine: 0, event: 0),  // send .createAccount to #1 'first-launch' in welcome
            .spawn(flow: 0, under: 0, policy: 0),  // spawn 'first-launch' #3 under #1 'first-launch' with escalate
        ]) { supervisor, events in
            sizes.append(supervisor.liveCount)
        }
        #expect(sizes == [2, 3])
    }

    @Test("Supervisor trees: with swift-property-based")
    func treeProperty() async {
        let universe = Self.universe
        await propertyCheck(input: FlowGen.supervisorCommands(for: universe)) { commands in
            try SupervisorCheck.run(universe, commands: commands) { supervisor, events in
                #expect(supervisor.machines.filter { $0.parent == nil }.count <= 1)
            }
        }
    }

    @Test("Every step of a tree stated")
    func treeTester() throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let root = try tester.step {
            try supervisor.start(FirstLaunch.definition, handler: tester.recording())
        } expect: {
            let root = $0.spawned(FirstLaunch.definition, in: .welcome)
            $0.effects(root, [.showWelcome])
        }
        var signUp: MachineHandle<SignUp>!
        try tester.send(.createAccount, to: root) {
            $0.transition(root, to: .creatingAccount)
            signUp = $0.spawned(SignUp.definition, in: .email, under: root)
            $0.effects(root, [.signUp(.present(.email))])
        }
        try tester.send(.cancel, to: signUp) {
            $0.transition(signUp, to: .cancelled)
            $0.completed(signUp, output: .cancelled)
            $0.tornDown(signUp, .completed)
            $0.transition(root, to: .welcome)
            $0.effects(root, [.signUp(.dismiss), .showWelcome])
        }
        tester.stop(root) {
            $0.tornDown(root, .stopped)
        }
        tester.finish()
    }

    @Test("Coordinators, screen by screen")
    func coordinatorTester() throws {
        let navigator = HeadlessNavigator<KhanlouPhotos.Screen>()
        let host = try KhanlouPhotos.Host(navigator: navigator)
        let tester = FlowTreeTester(host.coordinator.supervisor, navigator: navigator)
        let app: MachineHandle<KhanlouPhotos.App> = host.app
        try tester.step { try host.newPhoto() } expect: {
            $0.transition(app, to: .creatingPhoto)
            $0.spawned(KhanlouPhotos.photo, in: .picking, under: app)
            $0.navigation([.present(.picker)])
        }
        let photo = try #require(host.photoFlow)
        try tester.send(.picked, to: photo) {
            $0.transition(photo, to: .editing)
            $0.navigation([.push(.editor)])
        }
        tester.step { navigator.swipeDown() } expect: {
            $0.tornDown(photo, .ownerReleased)
            $0.transition(app, to: .browsing)
        }
        tester.finish(running: [app.id])
    }

    // MARK: The article and this file agree

    /// The lines of each ```swift block of a Markdown text, without their indentation.
    static func snippets(in markdown: String) -> [[String]] {
        var result: [[String]] = []
        var current: [String]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                result.append(current!)
                current = nil
            } else if current != nil {
                current!.append(trimmed)
            }
        }
        return result
    }

    @Test("Context and child flows: a Hashable context is explored, a child's outputs need no samples")
    func contextAndChildren() throws {
        let tally = try FlowPathfinder(CappedTally.definition)
        #expect(try #require(tally.shortestPath(to: .done)).events == [.add, .add, .add, .finish])

        let gate = try FlowPathfinder(ChildGate.definition, samples: [.begin])
        #expect(gate.shortestPath(to: .open)?.events == [.begin, .verified])
    }

    @Test("Every step stated: the context, whole or one field at a time")
    func contextFields() throws {
        let counter = try FlowStepTester(CappedTally.definition)
        try counter.start { $0.state(.counting) }
        try counter.send(.add) { $0.context(\.total, 1) }
        try counter.send(.add) { $0.context(CappedTally.Context(total: 2)) }
        counter.finish()
    }

    @Test("Parallel states: a path to a state of one region guarded by another")
    func parallelPath() throws {
        let pathfinder = try FlowPathfinder(Player.definition)
        let path = try #require(pathfinder.shortestPath(to: .fullScreen))
        #expect(path.events == [.play, .toggleSound, .toggleSize])
        #expect(path.leaves == [.audible, .fullScreen])
        #expect(try path.replay().isActive(.playing))
    }

    @Test("Parallel states: every leaf stated")
    func parallelStepTester() throws {
        let tester = try FlowStepTester(Player.definition)
        try tester.start { $0.state(.idle) }
        try tester.send(.play) {
            $0.leaves([.muted, .small])
            $0.active([.playing, .audio, .video])
        }
        #expect(tester.isActive(.video) && tester.isActive(.muted))
        tester.finish()
    }

    @Test("Testing tools built on Flowstate: generated parallel states")
    func parallelDefinitions() async {
        await propertyCheck(input: FlowGen.definitions(states: 2...10, parallelRate: 0.5)) { blueprint in
            let pathfinder = try FlowPathfinder(blueprint.definition)
            for (state, path) in pathfinder.shortestPaths {
                #expect(try path.replay().isActive(state))
            }
        }
    }

    @Test("The tree tester states every active leaf of a supervised machine with parallel states")
    func treeTesterLeaves() throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let player = try tester.step {
            try supervisor.start(Player.definition, handler: tester.recording())
        } expect: {
            $0.spawned(Player.definition, in: .idle)
        }
        try tester.send(.play, to: player) {
            $0.transition(player, toLeaves: [.muted, .small])
        }
        try tester.send(.toggleSound, to: player) {
            $0.transition(player, toLeaves: [.audible, .small])
            $0.leaves(player, [.audible, .small])
        }
        tester.stop(player) {
            $0.tornDown(player, .stopped)
        }
        tester.finish()
    }

    @Test("Every snippet of the article is in this file, verbatim")
    func snippetsAreVerbatim() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent(
            "Sources/FlowTesting/FlowTesting.docc/TestingFlows.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let snippets = Self.snippets(in: article)
        #expect(snippets.count == 23)
        for snippet in snippets {
            let found = source.indices.contains { start in
                start + snippet.count <= source.count && Array(source[start..<start + snippet.count]) == snippet
            }
            #expect(found, "not in this file:\n\(snippet.joined(separator: "\n"))")
        }
    }
}
