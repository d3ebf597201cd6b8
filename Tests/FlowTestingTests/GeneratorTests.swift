import Flowstate
import FlowstateExamples
import FlowTesting
import PropertyBased
import Testing

@Suite("Event generators and invariant checks")
struct GeneratorTests {
    /// The sign-up flow sends a code each time it enters `twoFactor`: claiming it never sends two is
    /// wrong, and the shortest proof takes four events.
    static func atMostOneCode() -> (FlowMachine<SignUp>, FlowStep<SignUp>) -> Bool {
        var codes = 0
        return { _, step in
            if step.kind == .started { codes = 0 }
            codes += step.effects.filter { $0 == .sendCode }.count
            return codes <= 1
        }
    }

    @Test("Generated sequences favour events the current state handles, mix in others, and stop at the finish")
    func biased() {
        let generator = FlowGen.events(for: SignUp.definition, samples: SignUpSamples.all, length: 10...10,
                                       unhandledRate: 0.1)
        var rng = Xoshiro(seed: (1, 2, 3, 4))
        var handled = 0
        var unhandled = 0
        for _ in 0..<300 {
            let events = generator.run(using: &rng)
            #expect(events.count <= 10)
            guard var machine = try? FlowMachine(SignUp.definition), (try? machine.start()) != nil else {
                Issue.record("the sign-up flow does not start")
                return
            }
            for event in events {
                #expect(!machine.isFinished, "no event is generated after the flow finishes: \(events)")
                guard let step = try? machine.send(event) else { continue }
                if step.kind == .ignored { unhandled += 1 } else { handled += 1 }
            }
            #expect(events.count == 10 || machine.isFinished, "a short sequence ends with the flow: \(events)")
        }
        let rate = Double(unhandled) / Double(handled + unhandled)
        #expect(rate > 0.03 && rate < 0.2, "unhandled rate \(rate)")
    }

    @Test("A true invariant holds after every step of every example flow")
    func trueInvariants() {
        #expect(FlowCheck.everyStep(of: SignUp.definition, samples: SignUpSamples.all, seed: 7) { machine, step in
            machine.isFinished || machine.configuration.contains(.signingUp)
        } == nil)
        #expect(FlowCheck.everyStep(of: FirstLaunch.definition, seed: 7) { machine, _ in !machine.isFinished } == nil)
        let photos: [PhotoCreation.Event] = [.picked(photo: "cat.jpg"), .edited, .post, .cancel]
        #expect(FlowCheck.everyStep(of: PhotoCreation.definition, samples: photos, seed: 7) { machine, step in
            // The picker is dismissed exactly when the flow ends.
            step.effects.contains(.dismiss) == machine.isFinished
        } == nil)
    }

    @Test("A wrong invariant is caught and shrunk to the four events that prove it wrong, printed as Swift",
          arguments: [1, 2, 3, 4, 5] as [UInt64])
    func wrongInvariantShrinks(seed: UInt64) throws {
        let found = try #require(FlowCheck.counterexample(of: SignUp.definition, samples: SignUpSamples.all,
                                                          count: 500, seed: seed, invariant: Self.atMostOneCode()))
        #expect(found.events == [.submitEmail("ada@example.com"), .submitPassword("correct horse"), .back,
                                 .submitPassword("correct horse")])
        #expect(found.failingStep == 4)
        #expect(found.seed == seed)
        #expect(found.originalLength >= found.events.count)
        #expect(found.swiftCode(definition: "SignUp.definition") == """
            var machine = try FlowMachine(SignUp.definition)
            _ = try machine.start()
            _ = try machine.send(.submitEmail("ada@example.com"))
            _ = try machine.send(.submitPassword("correct horse"))
            _ = try machine.send(.back)
            _ = try machine.send(.submitPassword("correct horse"))
            """)
        #expect(found.report(definition: "SignUp.definition").contains("Invariant violated at step 4"))
    }

    @Test("The printed counterexample, pasted into a test, replays the failure")
    func pastedCounterexample() throws {
        // Pasted from `found.swiftCode(definition: "SignUp.definition")` above.
        var machine = try FlowMachine(SignUp.definition)
        _ = try machine.start()
        _ = try machine.send(.submitEmail("ada@example.com"))
        _ = try machine.send(.submitPassword("correct horse"))
        _ = try machine.send(.back)
        _ = try machine.send(.submitPassword("correct horse"))
        #expect(machine.state == .twoFactor)
        let invariant = Self.atMostOneCode()
        var replayed = try FlowMachine(SignUp.definition)
        var verdicts = [invariant(replayed, try replayed.start())]
        for event in [SignUp.Event.submitEmail("ada@example.com"), .submitPassword("correct horse"), .back,
                      .submitPassword("correct horse")] {
            verdicts.append(invariant(replayed, try replayed.send(event)))
        }
        #expect(verdicts == [true, true, true, true, false])
    }

    @Test("everyStep records one issue at the caller's line, with the shrunk code")
    func everyStepRecordsIssue() {
        let line = #line + 2
        withKnownIssue {
            FlowCheck.everyStep(of: SignUp.definition, samples: SignUpSamples.all, count: 500, seed: 3,
                                definitionName: "SignUp.definition", invariant: Self.atMostOneCode())
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return issue.sourceLocation?.line == line && text.contains("Invariant violated at step 4")
                && text.contains("_ = try machine.send(.back)") && text.contains("seed 3")
        }
    }

    @Test("Engine errors are violations; unhandled events under the fail policy are skipped and printed with try?")
    func errorsAndUnhandled() throws {
        let strict = FlowDefinition<Corners>("strict", initial: .idle, unhandledEvents: .fail) {
            StateNode(.idle) {
                On(.go, to: .left)
                On(.loop, to: .looping)
            }
            StateNode(.left) { On(.poke, to: .idle) }
            StateNode(.looping) { Always(to: .bouncing) }
            StateNode(.bouncing) { Always(to: .looping) }
        }
        let unhandled = try #require(FlowCheck.violation(of: strict, events: [.go(1), .finish, .poke, .go(2)]) { machine, _ in
            machine.state != .left || machine.configuration.count > 5
        })
        #expect(unhandled.failingStep == 1)
        let detour = try #require(FlowCheck.violation(of: strict, events: [.go(1), .finish, .poke, .go(2)]) { _, step in
            step.event != .go(2)
        })
        #expect(detour.failingStep == 4)
        #expect(detour.unhandled == [1])
        #expect(detour.swiftCode() == """
            var machine = try FlowMachine(definition)
            _ = try machine.start()
            _ = try machine.send(.go(1))
            _ = try? machine.send(.finish)  // throws: unhandled event
            _ = try machine.send(.poke)
            _ = try machine.send(.go(2))
            """)
        let loop = try #require(FlowCheck.violation(of: strict, events: [.loop]) { _, _ in true })
        #expect(loop.failingStep == 1)
        #expect(loop.message.contains("eventless"), "\(loop.message)")
        struct Refused: Error {}
        let thrown = try #require(FlowCheck.violation(of: strict, events: []) { _, _ in throw Refused() })
        #expect(thrown.failingStep == 0 && thrown.message.contains("Refused"))
        #expect(FlowCheck.violation(of: strict, events: [.go(1), .poke]) { _, _ in true } == nil)
    }

    @Test("With propertyCheck, #expect in the body is shrunk by swift-property-based", .shrinking)
    func withPropertyCheck() async {
        let generator = FlowGen.events(for: SignUp.definition, samples: SignUpSamples.all)
        await propertyCheck(count: 100, input: generator) { events in
            try FlowCheck.run(SignUp.definition, events: events) { machine, step in
                #expect(machine.isFinished || machine.configuration.contains(.signingUp))
                #expect(step.effects.filter { $0 == .dismiss }.count <= 1)
            }
        }
        await withKnownIssue {
            await propertyCheck(count: 500, input: generator) { events in
                var codes = 0
                try FlowCheck.run(SignUp.definition, events: events) { _, step in
                    codes += step.effects.filter { $0 == .sendCode }.count
                    #expect(codes <= 1)
                }
            }
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            if case .expectationFailed = issue.kind { return true }
            // The shrunk input: the four events (the password is masked by SignUp's description).
            return text.contains("Failure occured with input [submitEmail(ada@example.com), "
                                    + "submitPassword(*************), back, submitPassword(*************)]")
        }
    }
}
