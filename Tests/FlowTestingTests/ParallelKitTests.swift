import Flowstate
import FlowTesting
import PropertyBased
import Testing

/// Two regions that each toggle.
private enum Toggles: Flow {
    enum State: Hashable, Sendable { case both, left, leftOff, leftOn, right, rightOff, rightOn }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case flipLeft, flipRight }
    typealias Effect = String
    typealias Output = Void

    static let definition = FlowDefinition<Toggles>("toggles", initial: .both) {
        Parallel(.both) {
            StateNode(.left) {
                StateNode(.leftOff) { On(.flipLeft, to: .leftOn) }
                StateNode(.leftOn) { On(.flipLeft, to: .leftOff) }
            }
            StateNode(.right) {
                StateNode(.rightOff) { On(.flipRight, to: .rightOn) }
                StateNode(.rightOn) { On(.flipRight, to: .rightOff) }
            }
        }
    }
}

/// The media player of the parallel states article (sound and picture are regions of one parallel
/// state), with an output, so that the step tester can state its steps.
enum Player: Flow {
    enum State: Hashable, Sendable { case idle, playing, audio, muted, audible, video, small, fullScreen, done, ended }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case play, toggleSound, toggleSize, stop, finishAudio, finishVideo }
    enum Effect: Hashable, Sendable { case entry(State), exit(State), stopped }
    typealias Output = String

    static let definition = FlowDefinition<Player>("player", initial: .idle) {
        StateNode(.idle) {
            On(.play, to: .playing)
        }
        Parallel(.playing) {
            StateNode(.audio, initial: .muted) {
                StateNode(.muted) { On(.toggleSound, to: .audible) }
                StateNode(.audible) {
                    On(.toggleSound, to: .muted)
                    On(.finishAudio, to: .done)
                }
                Final(.done, output: "audio done")
            }
            StateNode(.video) {
                StateNode(.small) { On(.toggleSize, guard: .in(.audible), to: .fullScreen) }
                StateNode(.fullScreen) {
                    On(.toggleSize, to: .small)
                    On(.finishVideo, to: .ended)
                }
                Final(.ended, output: "video done")
            }
            On(.stop, to: .idle, effects: [.stopped])
            On(done: .playing, to: .idle)
        }
    }
}

@Suite("The kit and parallel states")
struct ParallelKitTests {
    static func text(of issue: Issue) -> String { issue.comments.map(\.rawValue).joined(separator: "\n") }

    // MARK: The path finder

    @Test("The path finder reaches every state of the player, in shortest paths that replay to a configuration with it active")
    func pathfinderReachesEveryState() throws {
        #expect(Player.definition.isValid, "\(Player.definition.validate())")
        let pathfinder = try FlowPathfinder(Player.definition)
        #expect(pathfinder.isComplete)
        let states = Player.definition.states.map(\.state)
        #expect(pathfinder.reachableStates == states)
        #expect(pathfinder.unreachableStates.isEmpty)
        for state in states {
            let path = try #require(pathfinder.shortestPath(to: state), "\(state)")
            let machine = try path.replay()
            #expect(machine.isActive(state), "\(state): \(path)")
            #expect(path.ends(in: state), "\(state): \(path)")
            #expect(path.visits(state), "\(state)")
            #expect(path.configuration == machine.configuration, "\(state)")
            #expect(path.leaves == machine.configuration.filter { leaf in
                Player.definition.declaration(of: leaf)?.children.isEmpty ?? false
            }.reversed(), "\(state)")
        }
        // Shortest: the full screen needs the sound on first (the guard is on the other region).
        #expect(pathfinder.shortestPath(to: .fullScreen)?.events == [.play, .toggleSound, .toggleSize])
        #expect(pathfinder.shortestPath(to: .small)?.events == [.play])
        #expect(pathfinder.shortestPath(to: .small)?.leaves == [.muted, .small])
        // Configurations are the regions' combinations: idle; muted, audible or done beside small or
        // full screen; muted or audible beside ended (done beside ended completes at once: idle).
        #expect(pathfinder.configurationCount == 9)
    }

    @Test("The player's transition cover takes every transition, as replaying its paths on a machine shows")
    func pathfinderCoversEveryTransition() throws {
        let pathfinder = try FlowPathfinder(Player.definition)
        let cover = pathfinder.transitionCover()
        #expect(cover.uncovered.isEmpty, "\(cover.gaps)")
        #expect(cover.covered.count == Player.definition.transitions.count)
        var taken = Set<FlowTransitionID>()
        for path in cover.paths {
            try path.replay()
            var machine = try FlowMachine(Player.definition)
            taken.formUnion(try machine.start().transitions)
            for event in path.events { taken.formUnion(try machine.send(event).transitions) }
        }
        #expect(taken == Set(Player.definition.transitions.indices.map { FlowTransitionID(position: $0) }))
        // The completion transition is taken when both regions are done.
        let done = try #require(Player.definition.transitions.firstIndex { $0.eventLabel == "done.state.playing" })
        #expect(cover.paths.contains { $0.transitions.contains(FlowTransitionID(position: done)) })
    }

    @Test("Configurations are sets of leaves: two toggles make four, each reached by its shortest path")
    func togglesMakeFourConfigurations() throws {
        #expect(Toggles.definition.isValid, "\(Toggles.definition.validate())")
        let pathfinder = try FlowPathfinder(Toggles.definition, samples: [.flipLeft, .flipRight])
        #expect(pathfinder.configurationCount == 4)
        #expect(pathfinder.shortestPath(to: .rightOn)?.events == [.flipRight])
        #expect(pathfinder.shortestPath(to: .rightOn)?.leaves == [.leftOff, .rightOn])
        #expect(pathfinder.shortestPath(to: .leftOn)?.events == [.flipLeft])
        let paths = pathfinder.simplePaths(to: .leftOn)
        #expect(paths.map(\.events) == [[.flipLeft], [.flipRight, .flipLeft]])
        for path in paths { #expect(try path.replay().isActive(.leftOn)) }
        // From a configuration with the right region on: every segment starts there.
        for path in pathfinder.simplePaths(from: .rightOn, to: .leftOn) {
            #expect(try path.replay().isActive(.leftOn), "\(path)")
            #expect(path.visits(.rightOn), "\(path)")
        }
    }

    @Test("Without samples for one region's events, its states are unreachable for missing samples; a guard on another region blocks")
    func reasonsInParallelFlows() throws {
        let pathfinder = try FlowPathfinder(Toggles.definition, samples: [.flipLeft])
        #expect(pathfinder.reachability(of: .rightOn).reason == .missingSamples(kinds: [.flipRight]))
        #expect(pathfinder.reachability(of: .rightOff).isReachable)
        let cover = pathfinder.transitionCover()
        #expect(cover.gaps == [FlowTransitionID(position: 2): .missingSamples, FlowTransitionID(position: 3): .sourceNotReached])

        let player = try FlowPathfinder(Player.definition, samples: [.play, .toggleSize, .finishVideo, .stop])
        // Full screen needs the sound on: no sample turns it on.
        #expect(player.reachability(of: .fullScreen).reason == .missingSamples(kinds: [.toggleSound]))
        // With every event, the guard on the other region is what blocks while the sound is off.
        let muted = try FlowPathfinder(Player.definition) { kind in kind == .toggleSound ? [] : [kind] }
        #expect(muted.reachability(of: .fullScreen).reason == .missingSamples(kinds: [.toggleSound]))
        let toggleSize = try #require(Player.definition.transitions.firstIndex { $0.guardLabel != nil })
        let unmutable = try FlowPathfinder(Player.definition, samples: [.play, .toggleSize, .stop, .finishVideo, .finishAudio])
        #expect(unmutable.transitionCover().gaps[FlowTransitionID(position: toggleSize)] == .notTaken)
    }

    // MARK: Generated events

    @Test("Generated events count an event as handled when any active region reacts to it")
    func generatedEventsOfEveryRegion() {
        let generator = FlowGen.events(for: Toggles.definition, length: 6...6, unhandledRate: 0)
        var rng = Xoshiro(seed: (1, 2, 3, 4))
        var kinds = Set<Toggles.Event>()
        for _ in 0..<50 {
            let events = generator.run(using: &rng)
            kinds.formUnion(events)
            #expect(events.count == 6)
        }
        // Only the left region reacts to flipLeft, only the right one to flipRight: both are handled.
        #expect(kinds == [.flipLeft, .flipRight])
    }

    @Test("An invariant over both regions holds after every generated step of the player")
    func invariantOverRegions() {
        #expect(FlowCheck.everyStep(of: Player.definition, seed: 7) { machine, _ in
            machine.isActive(.audio) == machine.isActive(.video) && machine.isActive(.audio) == machine.isActive(.playing)
        } == nil)
    }

    // MARK: Generated parallel flows

    static let parallelFlows = FlowGen.definitions(states: 2...10, events: 3, maxDepth: 3, parallelRate: 0.6)

    @Test("Every path the finder returns for a generated parallel flow replays to a configuration where its target is active, and a random run settles nowhere it missed")
    func generatedParallelPathsReplay() async {
        await propertyCheck(count: 200, input: Self.parallelFlows, Gen.int(in: 0...1_000).array(of: 0...30)) { blueprint, picks in
            let definition = blueprint.definition
            #expect(definition.isValid, "\(blueprint)\n\(definition.validate())")
            let pathfinder = try FlowPathfinder(definition)
            #expect(pathfinder.isComplete)
            for (state, path) in pathfinder.shortestPaths {
                let machine = try path.replay()
                #expect(machine.isActive(state), "\(state) not active after \(path.events): \(blueprint)")
                #expect(path.ends(in: state), "\(blueprint)")
            }
            for state in definition.states.map(\.state) {
                if case .passedThrough(let path) = pathfinder.reachability(of: state) {
                    try path.replay()
                    #expect(path.visits(state), "\(state) not visited by \(path.events): \(blueprint)")
                }
            }
            for path in pathfinder.transitionCover().paths { try path.replay() }
            // A random run: every state it has active was found, by a path no longer than the run.
            let events = blueprint.events
            guard !events.isEmpty else { return }
            var machine = try FlowMachine(definition)
            _ = try machine.start()
            var count = 0
            for pick in picks where !machine.isFinished {
                _ = try machine.send(SpecEvent(events[pick % events.count]))
                count += 1
                for state in machine.configuration {
                    let path = pathfinder.shortestPath(to: state)
                    #expect(path != nil, "\(state) active after \(count) events, not found: \(blueprint)")
                    #expect((path?.events.count ?? 0) <= count)
                }
            }
        }
    }

    @Test("In a generated parallel flow, unreachable with no path is exactly what validation calls unreachable")
    func generatedParallelNoPathAgreesWithValidation() async {
        await propertyCheck(count: 300, input: Self.parallelFlows) { blueprint in
            let definition = blueprint.definition
            let pathfinder = try FlowPathfinder(definition)
            let noPath = Set(definition.states.map(\.state).filter { pathfinder.reachability(of: $0).reason == .noPath })
            let unreachable = Set(definition.validate().filter { $0.kind == .unreachableState }.compactMap { issue in
                issue.message.split(separator: "'", omittingEmptySubsequences: false).dropFirst().first.map(String.init)
            })
            #expect(noPath == unreachable, "\(blueprint)")
        }
    }

    @Test("A parallel blueprint declares a parallel state, prints it as Swift, and its shrinks stay valid")
    func parallelBlueprint() throws {
        let blueprint = FlowBlueprint(
            states: [
                FlowBlueprint.State(isParallel: true),
                FlowBlueprint.State(parent: 0), FlowBlueprint.State(parent: 1), FlowBlueprint.State(parent: 1),
                FlowBlueprint.State(parent: 0), FlowBlueprint.State(parent: 4), FlowBlueprint.State(parent: 4),
                FlowBlueprint.State(isFinal: true),
            ],
            transitions: [
                FlowBlueprint.Transition(source: 2, event: "a", target: 3),
                FlowBlueprint.Transition(source: 5, event: "a", target: 6),
                FlowBlueprint.Transition(source: 6, event: "b", target: 7),
            ])
        let definition = blueprint.definition
        #expect(definition.isValid, "\(definition.validate())")
        #expect(definition.declaration(of: "s0")?.kind == .parallel)
        #expect(blueprint.swiftCode.contains("Parallel(\"s0\""))
        #expect(blueprint.description.hasPrefix("s0||{"))
        var machine = try FlowMachine(definition)
        #expect(try machine.start().leaves == ["s2", "s5"])
        #expect(try machine.send("a").leaves == ["s3", "s6"])
        // Shrinking can make the parallel state ordinary.
        #expect(blueprint.shrinks().contains { !$0.states[0].isParallel && $0.states.count == 8 })
        for candidate in blueprint.shrinks() {
            #expect(candidate.definition.isValid, "\(candidate)")
        }
    }

    @Test("Generated parallel blueprints and their shrinks are free of errors and never loop")
    func generatedParallelShrinksStayValid() async {
        await propertyCheck(count: 100, input: Self.parallelFlows) { blueprint in
            for candidate in [blueprint] + blueprint.shrinks() {
                #expect(candidate.definition.isValid, "\(blueprint) -> \(candidate): \(candidate.definition.validate())")
                var machine = try FlowMachine(candidate.definition)
                _ = try machine.start()  // no eventless loop
            }
        }
    }

    @Test("Without a parallel rate, the generator draws the blueprints it always drew")
    func defaultGeneratorUnchanged() async {
        await propertyCheck(count: 100, input: FlowGen.definitions()) { blueprint in
            #expect(blueprint.states.allSatisfy { !$0.isParallel })
        }
    }

    // MARK: The step tester

    @Test("The step tester states a parallel flow's steps with the leaves of every region")
    func stepTesterStatesEveryRegion() throws {
        let tester = try FlowStepTester(Player.definition)
        try tester.start { $0.state(.idle) }
        try tester.send(.play) {
            $0.leaves([.muted, .small])
            $0.active([.playing, .audio, .video])
        }
        #expect(tester.isActive(.video) && tester.isActive(.muted))
        try tester.send(.toggleSize) { $0.rejected() }
        try tester.send(.toggleSound) { $0.leaves([.audible, .small]) }
        try tester.send(.toggleSize) { $0.leaves([.audible, .fullScreen]) }
        try tester.send(.stop) {
            $0.transition(to: .idle)
            $0.effects([.stopped])
        }
        #expect(!tester.isActive(.playing))
        tester.finish()
    }

    @Test("A region's change that is not stated, a wrong leaf, or a state not active fails the step")
    func stepTesterReportsRegions() throws {
        let tester = try FlowStepTester(Player.definition)
        try tester.start { $0.state(.idle) }
        try withKnownIssue {
            try tester.send(.play) { $0.state(.muted) }
        } matching: { issue in
            Self.text(of: issue).contains("unstated change of the active leaves: [idle] -> [muted, small] "
                + "(state them with $0.leaves([muted, small]))")
        }
        try tester.send(.toggleSound) { $0.leaves([.audible, .small]) }
        try withKnownIssue {
            // The video region changed, the first leaf did not.
            try tester.send(.toggleSize)
        } matching: { issue in
            Self.text(of: issue).contains("unstated change of the active leaves: [audible, small] -> [audible, fullScreen]")
        }
        try withKnownIssue {
            try tester.send(.toggleSize) {
                $0.leaves([.audible, .fullScreen])
                $0.active([.ended])
            }
        } matching: { issue in
            let text = Self.text(of: issue)
            return text.contains("leaves: expected [audible, fullScreen], actual [audible, small]")
                && text.contains("expected ended to be active, but the active leaves are [audible, small]")
        }
    }

    @Test("The tree tester states a supervised flow with parallel states like any other")
    func treeTesterFollowsTheSupervisor() throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let root = try tester.step {
            try supervisor.start(Player.definition, handler: tester.recording())
        } expect: {
            _ = $0.spawned(Player.definition, in: .idle)
        }
        tester.finish(running: [root.id])
    }

    @Test("Several leaves stated wrongly fail: a transition, where the machine rests, a spawn")
    func treeTesterRefusesWrongLeaves() throws {
        let supervisor = Supervisor()
        let tester = FlowTreeTester(supervisor)
        let player = try tester.step {
            try supervisor.start(Player.definition, handler: tester.recording())
        } expect: {
            $0.spawned(Player.definition, in: .idle)
        }
        withKnownIssue("the leaves are stated in the wrong region's state") {
            try tester.send(.play, to: player) {
                $0.transition(player, toLeaves: [.audible, .small])
            }
        }
        withKnownIssue("the machine rests in muted and small, not audible") {
            try tester.send(.toggleSize, to: player) {
                $0.leaves(player, [.audible, .small])
            }
        }
        // A spawn in several leaves: a flow that starts in its parallel state.
        let toggles = FlowDefinition<Player>("toggles", initial: .playing) {
            Parallel(.playing) {
                StateNode(.audio) { StateNode(.muted) }
                StateNode(.video) { StateNode(.small) }
            }
        }
        let second = try tester.step {
            try supervisor.start(toggles, handler: tester.recording())
        } expect: {
            $0.spawned(toggles, leaves: [.muted, .small])
        }
        #expect(supervisor.leaves(of: second) == [.muted, .small])
        tester.stop(second) { $0.tornDown(second, .stopped) }
        tester.stop(player) { $0.tornDown(player, .stopped) }
        tester.finish()
    }

    @Test("Both regions finishing take the completion transition in the same step")
    func stepTesterSeesCompletion() throws {
        let tester = try FlowStepTester(Player.definition)
        try tester.start { $0.state(.idle) }
        try tester.send(.play) { $0.leaves([.muted, .small]) }
        try tester.send(.toggleSound) { $0.leaves([.audible, .small]) }
        try tester.send(.toggleSize) { $0.leaves([.audible, .fullScreen]) }
        try tester.send(.finishVideo) { $0.leaves([.audible, .ended]) }
        let done = try tester.send(.finishAudio) { $0.transition(to: .idle) }
        #expect(done.transitions.count == 2)
        #expect(tester.state == .idle && !tester.isActive(.playing))
    }
}
