import Flowstate
import Testing

/// A launch flow with a decision state: onboarding seen? go to main, else to onboarding.
enum Launch: Flow {
    enum State: Hashable, Sendable { case deciding, onboarding, main, done }
    enum Event: FlowEvent { case finishOnboarding, logout }
    typealias Effect = String
    typealias Output = Void
}

@Suite("Eventless transitions")
struct EventlessTests {
    static func definition(seen: Bool) -> FlowDefinition<Launch> {
        let onboardingSeen = Guard<Launch>("onboarding seen", condition: { seen })
        return FlowDefinition("launch", initial: .deciding) {
            StateNode(.deciding, entry: ["decide"]) {
                Always(guard: onboardingSeen, to: .main, effects: ["skip"])
                Always(to: .onboarding)
            }
            StateNode(.onboarding, entry: ["show onboarding"]) {
                On(.finishOnboarding, to: .deciding)
            }
            StateNode(.main, entry: ["show main"]) {
                On(.logout, to: .done)
            }
            Final(.done)
        }
    }

    @Test("A decision state is left as soon as it is entered, taking the first enabled eventless transition",
          arguments: [true, false])
    func decision(seen: Bool) throws {
        var machine = try FlowMachine(Self.definition(seen: seen))
        let step = try machine.start()
        if seen {
            #expect(step.state == .main)
            #expect(Array(step.effects) == ["decide", "skip", "show main"])
        } else {
            #expect(step.state == .onboarding)
            #expect(Array(step.effects) == ["decide", "show onboarding"])
        }
    }

    @Test("Eventless transitions chain after an event, joining the effects of every link")
    func chainAfterEvent() throws {
        var machine = try FlowMachine(Self.definition(seen: false))
        _ = try machine.start()
        let step = try machine.send(.finishOnboarding)
        #expect(step.state == .onboarding)
        #expect(Array(step.effects) == ["decide", "show onboarding"])
    }

    @Test("Eventless transitions that never settle are a typed error; the machine is unchanged")
    func loop() throws {
        let definition = FlowDefinition<Launch>("loop", initial: .main) {
            StateNode(.main) { On(.logout, to: .deciding) }
            StateNode(.deciding) { Always(to: .onboarding) }
            StateNode(.onboarding) { Always(to: .deciding) }
        }
        var machine = try FlowMachine(definition)
        _ = try machine.start()
        let error = #expect(throws: FlowError.self) { try machine.send(.logout) }
        #expect(error?.code == .eventlessLoop)
        #expect(machine.state == .main)
    }

    @Test("A final state's output can be computed from the event that reached it")
    func computedOutput() throws {
        enum Pick: Flow {
            typealias State = String
            enum Event: FlowEvent { case choose(Int)
                enum Kind: Hashable, Sendable { case choose }
                var kind: Kind { .choose }
            }
            typealias Effect = Never
            typealias Output = Int
        }
        let definition = FlowDefinition<Pick>("pick", initial: "choosing") {
            StateNode("choosing") {
                On(.choose, guard: Guard("positive") { if case .choose(let n) = $0 { n > 0 } else { false } }, to: "chosen")
            }
            Final("chosen", outputLabel: "n * 10") { event in
                if case .choose(let n)? = event { n * 10 } else { 0 }
            }
        }
        var machine = try FlowMachine(definition)
        _ = try machine.start()
        #expect(try machine.send(.choose(-1)).state == "choosing")
        _ = try machine.send(.choose(4))
        #expect(machine.output == 40)
        #expect(definition.declaration(of: "chosen")?.outputLabel == "n * 10")
    }
}
