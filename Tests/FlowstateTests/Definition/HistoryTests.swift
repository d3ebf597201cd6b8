import Flowstate
import Foundation
import PropertyBased
import Testing

// The article's flow (Sources/Flowstate/Flowstate.docc/HistoryStates.md), verbatim.
enum Purchase: Flow {
    enum State: Hashable, Sendable { case checkout, resume, cart, payment, review, login, paid }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case next, needsLogin, loggedIn }
    enum Effect: Hashable, Sendable { case show(State) }
    typealias Output = Void
}

/// A wizard with a deep history and a shallow one, entry and exit effects named after their states.
enum Wizard: Flow {
    enum State: Hashable, Sendable {
        case wizard, shallow, deep, profile, name, photo, address, street, city, help, done
    }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case next, help, back, backDeep, finish }
    enum Effect: Hashable, Sendable { case entry(State), exit(State) }
    typealias Output = Void
}

@Suite("History states")
struct HistoryTests {
    static func node(_ s: Wizard.State, initial: Wizard.State? = nil,
                     @FlowBuilder<Wizard> _ body: () -> [FlowElement<Wizard>] = { [] }) -> StateNode<Wizard> {
        StateNode(s, initial: initial, entry: [.entry(s)], exit: [.exit(s)], body)
    }

    static let wizard = FlowDefinition<Wizard>("wizard", initial: .wizard) {
        node(.wizard) {
            History(.shallow, .shallow, default: .profile)
            History(.deep, .deep, default: .city)
            node(.profile) {
                node(.name) { On(.next, to: .photo) }
                node(.photo) { On(.next, to: .address) }
            }
            node(.address) {
                node(.street) {
                    On(.next, to: .city)
                    On(.backDeep, to: .deep)
                }
                node(.city) { On(.finish, to: .done) }
            }
            On(.help, to: .help)
        }
        node(.help) {
            On(.back, to: .shallow)
            On(.backDeep, to: .deep)
        }
        Final(.done)
    }

    @Test("The article's example: leaving for login and coming back to the step the user was on")
    func articleExample() throws {
        let purchase = FlowDefinition<Purchase>("purchase", initial: .checkout) {
            StateNode(.checkout, initial: .cart) {
                History(.resume, .shallow, default: .cart)
                StateNode(.cart, entry: [.show(.cart)]) { On(.next, to: .payment) }
                StateNode(.payment, entry: [.show(.payment)]) { On(.next, to: .review) }
                StateNode(.review, entry: [.show(.review)]) { On(.next, to: .paid) }
                On(.needsLogin, to: .login)
            }
            StateNode(.login, entry: [.show(.login)]) {
                On(.loggedIn, to: .resume)
            }
            Final(.paid)
        }
        #expect(purchase.validate().isEmpty, "\(purchase.validate())")
        var machine = try FlowMachine(purchase)
        _ = try machine.start()                        // cart
        _ = try machine.send(.next)                    // payment
        _ = try machine.send(.needsLogin)              // login; the history remembers payment
        let back = try machine.send(.loggedIn)
        #expect(back.state == .payment)
        #expect(Array(back.effects) == [.show(.payment)])
        #expect(machine.remembered == [.resume: [.payment]])

        let snapshot = machine.remembered
        let restored = try FlowMachine(purchase, resumingIn: .login, history: snapshot)
        #expect(restored.remembered == [.resume: [.payment]])

        // Before checkout was ever left, the history enters its default.
        var fresh = try FlowMachine(purchase, resumingIn: .login)
        #expect(try fresh.send(.loggedIn).state == .cart)
    }

    @Test("Shallow history enters the remembered child by its default entry; deep history the remembered leaf")
    func shallowAndDeep() throws {
        #expect(Self.wizard.isValid, "\(Self.wizard.validate())")
        #expect(Self.wizard.declaration(of: .deep)?.kind == .history)
        #expect(Self.wizard.declaration(of: .deep)?.history == .deep)
        #expect(Self.wizard.declaration(of: .shallow)?.historyDefault == .profile)
        #expect(Self.wizard.declaration(of: .wizard)?.initialChild == .profile)
        var machine = try FlowMachine(Self.wizard)
        #expect(try machine.start().state == .name)
        _ = try machine.send(.next)  // photo
        let help = try machine.send(.help)
        #expect(Array(help.effects) == [.exit(.photo), .exit(.profile), .exit(.wizard), .entry(.help)])
        #expect(machine.remembered == [.shallow: [.profile], .deep: [.photo]])
        // Shallow: profile, by its initial child.
        let back = try machine.send(.back)
        #expect(back.state == .name)
        #expect(Array(back.effects) == [.exit(.help), .entry(.wizard), .entry(.profile), .entry(.name)])
        _ = try machine.send(.next)  // photo
        _ = try machine.send(.help)
        // Deep: photo itself.
        let deep = try machine.send(.backDeep)
        #expect(deep.state == .photo)
        #expect(Array(deep.effects) == [.exit(.help), .entry(.wizard), .entry(.profile), .entry(.photo)])
        #expect(!machine.isActive(.deep) && !machine.isActive(.shallow))
    }

    @Test("A deep history's default is entered with the states between it and the history's state")
    func deepDefault() throws {
        var machine = try FlowMachine(Self.wizard, resumingIn: .help)
        let step = try machine.send(.backDeep)
        #expect(step.state == .city)
        #expect(Array(step.effects) == [.exit(.help), .entry(.wizard), .entry(.address), .entry(.city)])
        #expect(machine.configuration == [.city, .address, .wizard])
    }

    @Test("A transition's domain is that of its effective targets: from street to the deep history defaulting to city, address is not exited")
    func effectiveDomain() throws {
        var machine = try FlowMachine(Self.wizard, resumingIn: .street)
        let step = try machine.send(.backDeep)
        #expect(step.state == .city)
        // SCXML enters the states between the history's state and its effective targets (address),
        // although the domain lies below them and they stay active: their entries run again.
        #expect(Array(step.effects) == [.exit(.street), .entry(.address), .entry(.city)])
        var reporting = try FlowMachine(Self.wizard, resumingIn: .street)
        let (_, microsteps) = try reporting.sendReportingMicrosteps(.backDeep)
        let states = Self.wizard.states.map(\.state)
        #expect(microsteps.flatMap(\.exited).map { states[$0] } == [.street])
        #expect(microsteps.flatMap(\.entered).map { states[$0] } == [.address, .city])
        var remembering = try FlowMachine(Self.wizard, resumingIn: .street, history: [.deep: [.photo]])
        #expect(Array(try remembering.send(.backDeep).effects)
                == [.exit(.street), .exit(.address), .entry(.profile), .entry(.photo)])
        // The report says what the history remembered, not its default.
        var rememberingReport = try FlowMachine(Self.wizard, resumingIn: .street, history: [.deep: [.photo]])
        let (_, remembered) = try rememberingReport.sendReportingMicrosteps(.backDeep)
        #expect(remembered.flatMap(\.entered).map { states[$0] } == [.profile, .photo])
    }

    @Test("What the histories remember is restored, and a history that could not remember it is refused")
    func restore() throws {
        var machine = try FlowMachine(Self.wizard, resumingIn: .help, history: [.deep: [.street], .shallow: [.address]])
        #expect(machine.remembered == [.deep: [.street], .shallow: [.address]])
        #expect(try machine.send(.backDeep).state == .street)
        var other = try FlowMachine(Self.wizard, resumingIn: .help, history: [.shallow: [.address]])
        #expect(try other.send(.back).state == .street)

        let refusals: [[Wizard.State: [Wizard.State]]] = [
            [.wizard: [.profile]],           // not a history
            [.shallow: [.name]],             // not a child of wizard
            [.deep: [.profile]],             // not atomic
            [.deep: [.help]],                // not inside wizard
            [.shallow: []],                  // nothing
            [.shallow: [.profile, .address]],  // two children of a compound state
        ]
        for history in refusals {
            #expect(throws: FlowError.self) { _ = try FlowMachine(Self.wizard, resumingIn: .help, history: history) }
            do {
                _ = try FlowMachine(Self.wizard, resumingIn: .help, history: history)
            } catch {
                #expect(error.code == .invalidHistory, "\(history): \(error)")
            }
        }
    }

    @Test("Validation: a history outside a compound state, with elements of its own, or a default it cannot have")
    func validation() throws {
        let line = #line
        let bad = FlowDefinition<Wizard>("bad", initial: .wizard) {
            History(.shallow, default: .wizard)                    // top level
            StateNode(.wizard) {
                History(.deep, .shallow, default: .street)         // not a child
                StateNode(.profile) {
                    StateNode(.name) { On(.next, to: .deep) }
                }
                StateNode(.address) { StateNode(.street) }
            }
            StateNode(.help) {
                Final(.done, output: ()) {
                    History(.photo, default: .city)                // in a final state
                }
                StateNode(.city)
            }
        }
        let issues = bad.validate().filter { $0.kind == .invalidHistory }
        #expect(issues.count == 2, "\(bad.validate())")
        #expect(issues.allSatisfy { $0.location?.file == #fileID })
        // Top level (an error); a shallow default that is not a child (a warning: SCXML's rule, the
        // flow runs); inside a final state, reported as a state declared in it.
        #expect(issues.map(\.severity) == [.error, .warning])
        #expect(issues.compactMap { $0.location?.line } == [line + 2, line + 4])
        #expect(bad.validate().contains { $0.kind == .finalStateWithTransitions && $0.location?.line == line + 12 })

        let more = FlowDefinition<Wizard>("more", initial: .wizard) {
            StateNode(.wizard) {
                History(.deep, .deep, default: .help)              // not inside wizard
                History(.shallow, default: .deep)                  // a history
                History(.city, default: .profile) {                // a transition of its own
                    On(.next, to: .profile)
                }
                StateNode(.profile)
            }
            StateNode(.help)
        }
        let found = more.validate().filter { $0.kind == .invalidHistory }
        #expect(found.count == 3, "\(more.validate())")
        #expect(!more.validate().contains { $0.kind == .unreachableState && $0.message.contains("'city'") })
        #expect(throws: FlowError.self) { _ = try FlowMachine(more) }
    }

    @Test("With history states, the engine agrees with the SCXML reference on every step (flows without parallel states)")
    func agreesWithSCXML() async {
        await Self.agrees(Generators.historyFlows(parallel: false), count: 300)
    }

    @Test("With history and parallel states, the engine agrees with the SCXML reference on every step")
    func parallelAgreesWithSCXML() async {
        await Self.agrees(Generators.historyFlows(parallel: true), count: 300)
    }

    static func agrees(_ flows: Generator<GeneratedFlow, some SendableSequenceType>, count: Int) async {
        await propertyCheck(count: count, input: flows, Generators.events) { flow, events in
            let definition = flow.definition
            #expect(definition.isValid, "\(definition.validate())\n\(flow)")
            guard definition.isValid else { return }
            var reference = SCXMLReference(flow)
            var machine = try FlowMachine(definition)
            for event in [nil] + events.map(Optional.some) {
                let expected = event.map { reference.send($0) } ?? reference.start()
                let step = Result { () throws(FlowError) in
                    if let event { try machine.send(event) } else { try machine.start() }
                }
                let actual = SCXMLReference.Outcome(step)
                #expect(actual == expected, "after \(event.map { "\($0)" } ?? "start")\n\(flow)\nevents: \(events)")
                guard actual == expected else { return }
                if machine.isStarted && !machine.isFinished {
                    #expect(machine.configuration == reference.innermostFirst, "configuration\n\(flow)\nevents: \(events)")
                    #expect(machine.remembered == reference.historyValue, "history\n\(flow)\nevents: \(events)")
                    // A machine restored here, with what the histories remember, takes the same steps.
                    let leaves = machine.configuration.filter { flow.children(of: $0).isEmpty }
                    let resumed = try FlowMachine(definition, resumingIn: leaves, history: machine.remembered)
                    #expect(resumed.configuration == machine.configuration && resumed.remembered == machine.remembered)
                }
            }
            #expect(Array(machine.stop()) == reference.stopEffects(), "stop\n\(flow)\nevents: \(events)")
        }
    }

    @Test("A flow without history states compiles no SCXML table: its moves stay precompiled")
    func flatFlowsPayNothing() throws {
        let flat = FlowDefinition<Purchase>("flat", initial: .cart) {
            StateNode(.cart) { On(.next, to: .paid) }
            Final(.paid)
        }
        #expect(!flat.hierarchy.hasHistory)
        #expect(Self.wizard.hierarchy.hasHistory)
    }

    @Test("Typed definitions draw a history as H or H* with an edge to its default, as flow files do")
    func outline() throws {
        let outline = Self.wizard.outline
        let deep = try #require(outline.states.firstIndex { $0.label == "deep" })
        #expect(outline.states[deep].kind == .history && outline.states[deep].history == .deep)
        #expect(outline.states[deep].historyDefault.map { outline.states[$0].label } == "city")
    }

    @Test("A supervisor's snapshot keeps what the histories remember, through JSON; an older snapshot without it restores")
    func supervisorSnapshot() throws {
        let supervisor = Supervisor()
        let machine = try supervisor.start(Self.wizard) { _, _ in }
        try supervisor.send(.next, to: machine)
        try supervisor.send(.help, to: machine)
        let snapshot = try supervisor.snapshot()
        #expect(snapshot.roots[0].history == ["shallow": ["profile"], "deep": ["photo"]])
        let decoded = try JSONDecoder().decode(TreeSnapshot.self, from: try JSONEncoder().encode(snapshot))
        #expect(decoded == snapshot)

        let restored = Supervisor()
        let again = try restored.restore(decoded.roots[0], definition: Self.wizard) { _, _ in }
        try restored.send(.backDeep, to: again)
        #expect(restored.state(of: again) == .photo)

        // Written before history states existed: no "history" key; the histories remember nothing.
        var old = snapshot.roots[0]
        old.history = [:]
        let json = String(decoding: try JSONEncoder().encode(old), as: UTF8.self)
        #expect(!json.contains("history"))
        let older = Supervisor()
        let fresh = try older.restore(try JSONDecoder().decode(MachineSnapshot.self, from: Data(json.utf8)),
                                      definition: Self.wizard) { _, _ in }
        try older.send(.backDeep, to: fresh)
        #expect(older.state(of: fresh) == .city)

        // A remembered state the flow cannot remember there is refused.
        var wrong = snapshot.roots[0]
        wrong.history = ["deep": ["help"]]
        #expect(throws: SupervisorError.self) { _ = try Supervisor().restore(wrong, definition: Self.wizard) { _, _ in } }
    }
}
