import Flowstate
import FlowstateExamples
import FlowTesting
import Testing

@Suite("Path finder")
struct PathfinderTests {
    static let id = FlowTransitionID.init(position:)

    @Test("Every state of the sign-up flow is reachable with valid samples, by its shortest event sequence")
    func signUpShortestPaths() throws {
        let pathfinder = try FlowPathfinder(SignUp.definition, samples: SignUpSamples.all)
        #expect(pathfinder.isComplete)
        #expect(pathfinder.reachableStates == SignUp.State.allCases)
        #expect(pathfinder.unreachableStates.isEmpty)
        let expected: [SignUp.State: [SignUp.Event]] = [
            .signingUp: [], .email: [], .cancelled: [.cancel],
            .password: [.submitEmail("ada@example.com")],
            .twoFactor: [.submitEmail("ada@example.com"), .submitPassword("correct horse")],
            .done: [.submitEmail("ada@example.com"), .submitPassword("correct horse"), .submitCode("123456")],
        ]
        for (state, events) in expected {
            let path = try #require(pathfinder.shortestPath(to: state))
            #expect(path.events == events, "\(state)")
            #expect(path.ends(in: state))
            let machine = try path.replay()
            #expect(machine.configuration.contains(state))
        }
        #expect(pathfinder.shortestPaths.count == SignUp.State.allCases.count)
        let done = try #require(pathfinder.shortestPath(to: .done))
        #expect(done.isFinished)
        #expect(done.states == [.email, .password, .twoFactor, .done])
        #expect(done.transitions == [Self.id(0), Self.id(2), Self.id(5)])
        #expect(done.steps.map { Array($0.effects) } == [[.push(.password)], [.push(.twoFactor), .sendCode], [.dismiss]])
    }

    @Test("The cover takes every transition of the sign-up flow, and every path replays")
    func signUpCover() throws {
        let pathfinder = try FlowPathfinder(SignUp.definition, samples: SignUpSamples.all)
        let cover = pathfinder.transitionCover()
        #expect(cover.uncovered.isEmpty, "\(cover.gaps)")
        #expect(cover.covered == SignUp.definition.transitionIDs)
        var taken = Set<FlowTransitionID>()
        for path in cover.paths {
            try path.replay()
            taken.formUnion(path.transitions)
        }
        #expect(taken == Set(SignUp.definition.transitionIDs))
        // Small: no path is a prefix of another, and there are fewer paths than transitions.
        #expect(cover.paths.count < SignUp.definition.transitions.count)
        for a in cover.paths {
            for b in cover.paths where a.events.count < b.events.count {
                #expect(!b.events.starts(with: a.events), "\(a.events) is a prefix of \(b.events)")
            }
        }
    }

    @Test("A guard-blocked target is reported with the transition that blocks it when samples fail the guard")
    func signUpBlockedByGuard() throws {
        let pathfinder = try FlowPathfinder(SignUp.definition,
                                            samples: [.submitEmail("not-an-email"), .submitPassword("correct horse"),
                                                      .submitCode("123456"), .back, .cancel])
        #expect(pathfinder.reachableStates == [.signingUp, .email, .cancelled])
        for state in [SignUp.State.password, .twoFactor, .done] {
            #expect(pathfinder.reachability(of: state).reason == .blocked(transitions: [Self.id(0)]), "\(state)")
        }
        #expect(SignUp.definition[Self.id(0)].guardLabel == "valid email")
        let cover = pathfinder.transitionCover()
        #expect(cover.gaps[Self.id(0)] == .notTaken)
        #expect(cover.gaps[Self.id(2)] == .sourceNotReached)
        #expect(cover.covered == [Self.id(1), Self.id(7)])
    }

    @Test("A target whose paths need an event without samples is reported with the missing kinds")
    func signUpMissingSamples() throws {
        let pathfinder = try FlowPathfinder(SignUp.definition) { kind in
            SignUpSamples.valid.filter { $0.kind == kind && kind != .submitCode }
        }
        #expect(pathfinder.reachability(of: .done).reason == .missingSamples(kinds: [.submitCode]))
        #expect(pathfinder.reachability(of: .twoFactor).isReachable)
        #expect(pathfinder.transitionCover().gaps[Self.id(5)] == .missingSamples)
    }

    @Test("Decision states are passed through; eventless loops, islands and unreachable targets have reasons")
    func corners() throws {
        let pathfinder = try FlowPathfinder(Corners.definition,
                                            samples: [.go(0), .go(1), .poke, .enter, .loop, .finish])
        #expect(pathfinder.reachableStates == [.idle, .left, .right, .group, .inner, .done])
        let deciding = pathfinder.reachability(of: .deciding)
        guard case .passedThrough(let path) = deciding else {
            Issue.record("expected deciding to be passed through, got \(deciding)")
            return
        }
        #expect(path.events == [.go(0)])
        #expect(path.visits(.deciding) && !path.ends(in: .deciding))
        #expect(path.transitions == [Self.id(0), Self.id(5)], "the eventless transition is reported")
        try path.replay()
        #expect(try #require(pathfinder.shortestPath(to: .right)).events == [.go(1)])
        #expect(try #require(pathfinder.shortestPath(to: .group)).state == .inner, "a compound is reached by a leaf")
        // `loop` leads into an eventless loop: the engine throws, so the edge is not taken.
        #expect(pathfinder.reachability(of: .looping).reason == .blocked(transitions: [Self.id(3)]))
        #expect(pathfinder.reachability(of: .bouncing).reason == .blocked(transitions: [Self.id(3)]))
        #expect(pathfinder.reachability(of: .island).reason == .noPath)
        let cover = pathfinder.transitionCover()
        #expect(cover.covered == [0, 1, 2, 4, 5, 6, 7, 8].map(Self.id))
        #expect(cover.gaps == [Self.id(3): .notTaken, Self.id(9): .sourceNotReached,
                               Self.id(10): .sourceNotReached, Self.id(11): .sourceNotReached])
        for path in cover.paths { try path.replay() }
    }

    @Test("Simple paths visit no configuration twice and end where asked")
    func simplePaths() throws {
        let pathfinder = try FlowPathfinder(SignUp.definition, samples: SignUpSamples.all)
        let toDone = pathfinder.simplePaths(to: .done)
        #expect(toDone.map(\.events) == [[.submitEmail("ada@example.com"), .submitPassword("correct horse"),
                                          .submitCode("123456")]])
        let back = pathfinder.simplePaths(from: .twoFactor, to: .email)
        #expect(back.map(\.events) == [[.submitEmail("ada@example.com"), .submitPassword("correct horse"), .back, .back]])
        #expect(pathfinder.simplePaths(to: .signingUp).map(\.events) == [[]])
        // To cancelled: from each of the three screens, shortest first.
        let cancelled = pathfinder.simplePaths(to: .cancelled)
        #expect(cancelled.map(\.events.count) == [1, 2, 3])
        #expect(cancelled.allSatisfy { $0.events.last == .cancel && $0.isFinished })
        for path in toDone + cancelled {
            try path.replay()
            #expect(Set(path.states).count == path.states.count, "a simple path: \(path.states)")
        }
        // From a state: the shortest path there, then a segment that repeats no configuration.
        let segment = try #require(back.first).states.dropFirst(2)
        #expect(Array(segment) == [.twoFactor, .password, .email])
        try back.forEach { try $0.replay() }
        #expect(pathfinder.simplePaths(to: .cancelled, limit: 2).count == 2)
        #expect(pathfinder.simplePaths(to: .done, maxLength: 2).isEmpty)
    }

    @Test("A payload-free flow needs no samples: every kind is tried")
    func payloadFree() throws {
        let pathfinder = try FlowPathfinder(FirstLaunch.definition)
        #expect(pathfinder.reachableStates == [.welcome, .creatingAccount, .home])
        #expect(try #require(pathfinder.shortestPath(to: .home)).events == [.createAccount, .accountCreated])
        #expect(pathfinder.transitionCover().covered == FirstLaunch.definition.transitionIDs)
    }

    @Test("The configuration limit bounds the search and is reported")
    func limit() throws {
        let pathfinder = try FlowPathfinder(SignUp.definition, samples: SignUpSamples.all, maxConfigurations: 2)
        #expect(!pathfinder.isComplete)
        #expect(pathfinder.configurationCount == 2)
        #expect(pathfinder.reachability(of: .done).reason == .searchLimitReached)
        #expect(pathfinder.transitionCover().gaps.values.contains(.searchLimitReached))
    }

    @Test("Replay fails, naming the step, when the definition no longer does what the path recorded")
    func replayDetectsDrift() throws {
        let path = try #require(try FlowPathfinder(SignUp.definition, samples: SignUpSamples.all).shortestPath(to: .done))
        let stricter = FlowDefinition<SignUp>("sign-up", initial: .signingUp) {
            StateNode(.signingUp) {
                StateNode(.email) {
                    On(.submitEmail, guard: SignUp.validEmail, to: .password)
                }
                StateNode(.password) {
                    On(.submitPassword, guard: Guard("never") { _ in false }, to: .twoFactor)
                }
                StateNode(.twoFactor) { On(.submitCode, to: .done) }
            }
            Final(.done, output: .signedUp)
            Final(.cancelled, output: .cancelled)
        }
        let drifted = FlowPath(definition: stricter, start: path.start, steps: path.steps)
        #expect(throws: FlowReplayError.self) { try drifted.replay() }
        do {
            try drifted.replay()
        } catch {
            #expect(error.step == 2)
            #expect(error.code == .diverged)
            #expect(error.message.contains("expected transitioned"), "\(error)")
        }
    }

    @Test("Under the fail policy, only events a state reacts to are sent; every path replays")
    func failPolicy() throws {
        let strict = FlowDefinition<Corners>("strict", initial: .idle, unhandledEvents: .fail) {
            StateNode(.idle) {
                On(.go, to: .left)
                On(.loop, to: .looping)
            }
            StateNode(.left) { On(.finish, to: .done) }
            StateNode(.looping) { Always(to: .bouncing) }
            StateNode(.bouncing) { Always(to: .looping) }
            Final(.done, output: "done")
        }
        let pathfinder = try FlowPathfinder(strict, samples: [.go(1), .poke, .enter, .loop, .finish])
        #expect(pathfinder.reachableStates == [.idle, .left, .done])
        #expect(pathfinder.reachability(of: .looping).reason == .blocked(transitions: [Self.id(1)]),
                "the eventless loop throws: the edge is not taken")
        let done = try #require(pathfinder.shortestPath(to: .done))
        #expect(done.events == [.go(1), .finish] && done.isFinished)
        try done.replay()
        #expect(pathfinder.configurationCount == 3, "idle, left, done (finished): nothing is explored after the finish")
    }

    @Test("An invalid definition cannot be explored")
    func invalid() {
        let broken = FlowDefinition<Corners>("broken", initial: .idle) {
            StateNode(.idle) { On(.go, to: .island) }
        }
        #expect(throws: FlowError.self) { try FlowPathfinder(broken, samples: [.go(1)]) }
    }
}
