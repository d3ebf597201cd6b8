import Flowstate
import Testing

/// A small flow with payload-free events, for policy and phase tests.
enum Door: Flow {
    enum State: Hashable, Sendable { case closed, open, locked, broken, gone }
    enum Event: FlowEvent { case open, close, lock, unlock, kick }
    typealias Effect = String
    typealias Output = String

    static func definition(unhandled: UnhandledEventPolicy = .ignore) -> FlowDefinition<Door> {
        FlowDefinition("door", initial: .closed, unhandledEvents: unhandled) {
            StateNode(.closed, entry: ["enter closed"], exit: ["exit closed"]) {
                On(.open, to: .open, effects: ["creak"])
                On(.lock, to: .locked)
            }
            StateNode(.open) {
                On(.close, to: .closed)
            }
            StateNode(.locked) {
                On(.unlock, to: .closed)
                On(.kick, to: .broken)
            }
            Final(.broken, output: "broken")
        }
    }
}

@Suite("Machine")
struct MachineTests {
    @Test("An event no transition reacts to is ignored under .ignore")
    func ignorePolicy() throws {
        var machine = try FlowMachine(Door.definition())
        _ = try machine.start()
        #expect(try machine.send(.close) == .ignored(state: .closed, event: .close))
        #expect(machine.state == .closed)
    }

    @Test("An event no transition reacts to is a typed error under .fail, and the machine is unchanged")
    func failPolicy() throws {
        var machine = try FlowMachine(Door.definition(unhandled: .fail))
        _ = try machine.start()
        let error = #expect(throws: FlowError.self) { try machine.send(.close) }
        #expect(error?.code == .unhandledEvent)
        #expect(error?.message.contains("'close'") == true)
        #expect(error?.message.contains("'closed'") == true)
        #expect(try machine.send(.open).state == .open)
    }

    @Test("Events before start, a second start, and events after the end are typed errors")
    func phases() throws {
        var machine = try FlowMachine(Door.definition())
        #expect(machine.state == .closed && !machine.isStarted)
        #expect((#expect(throws: FlowError.self) { try machine.send(.open) })?.code == .notStarted)
        _ = try machine.start()
        #expect((#expect(throws: FlowError.self) { try machine.start() })?.code == .alreadyStarted)
        _ = try machine.send(.lock)
        let last = try machine.send(.kick)
        #expect(last == .finished(from: .locked, to: .broken, event: .kick, effects: FlowEffects([]), output: "broken",
                                  transitions: FlowTransitions([FlowTransitionID(position: 4)])))
        #expect(machine.isFinished && machine.output == "broken")
        #expect((#expect(throws: FlowError.self) { try machine.send(.unlock) })?.code == .finished)
    }

    @Test("A self transition exits and re-enters; entry and exit effects surround the transition's")
    func selfTransition() throws {
        let definition = FlowDefinition<Door>("self", initial: .closed) {
            StateNode(.closed, entry: ["in"], exit: ["out"]) {
                On(.kick, to: .closed, effects: ["thud"])
                On(.open, to: nil, effects: ["rattle"])
            }
        }
        var machine = try FlowMachine(definition)
        #expect(Array(try machine.start().effects) == ["in"])
        #expect(Array(try machine.send(.kick).effects) == ["out", "thud", "in"])
        #expect(Array(try machine.send(.open).effects) == ["rattle"], "a targetless transition exits nothing")
    }

    @Test("An invalid definition cannot be started; the error lists every error")
    func invalidCannotStart() {
        let definition = FlowDefinition<Door>("broken", initial: .gone) {
            StateNode(.closed) {
                On(.open, to: .open)
                On(.open, to: .locked)
            }
        }
        let issues = definition.validate()
        #expect(Set(issues.map(\.kind)) == [.missingInitialState, .unknownTarget, .shadowedTransition])
        #expect(issues.filter { $0.severity == .error }.map(\.kind).allSatisfy { $0 != .shadowedTransition },
                "a shadowed transition is a warning: the engine takes the first in declaration order")
        #expect(!definition.isValid)
        let error = #expect(throws: FlowError.self) { try FlowMachine(definition) }
        #expect(error?.code == .invalidDefinition)
        #expect(error?.message.contains("3 error(s)") == true)
        #expect(issues.count == 4, "two unknown targets, the missing initial state, and the shadowed transition")
    }

    @Test("Validation messages name the state and the declaration's file:line:column")
    func validationMessages() {
        let definition = FlowDefinition<Door>("messages", initial: .closed) {
            StateNode(.closed) { On(.open, to: .open) }
            StateNode(.open)
            StateNode(.locked) { On(.unlock, to: .closed) }
            Final(.broken, output: "x") { On(.kick, to: .closed) }
        }
        let issues = definition.validate()
        let byKind = Dictionary(grouping: issues, by: \.kind)
        #expect(byKind[.finalStateWithTransitions]?.first?.severity == .error)
        #expect(byKind[.deadEnd]?.first?.message == "state 'open' is not final and has no transition out (dead end)")
        #expect(byKind[.unreachableState]?.map(\.message) == [
            "state 'locked' is unreachable from the initial state 'closed'",
            "state 'broken' is unreachable from the initial state 'closed'",
        ])
        let dead = byKind[.deadEnd]?.first
        #expect(dead?.severity == .warning)
        #expect(dead?.description.hasPrefix("FlowstateTests/MachineTests.swift:") == true)
        #expect(dead?.description.contains(": warning: state 'open'") == true)
        #expect(issues.first?.severity == .error, "errors come before warnings")
    }

    @Test("Duplicate states, bad initial children and top-level transitions are reported, not trapped")
    func structuralErrors() {
        let definition = FlowDefinition<Door>("structure", initial: .closed) {
            StateNode(.closed, initial: .locked) {
                StateNode(.open) { On(.close, to: .closed) }
            }
            StateNode(.closed)
            StateNode(.broken, initial: .open)
            On(.kick, to: .closed)
        }
        let kinds = Set(definition.validate().map(\.kind))
        #expect(kinds.isSuperset(of: [.duplicateState, .invalidInitialChild, .transitionOutsideState]))
    }
}

@Suite("SpecEvent lists: errors with a code")
struct SpecEventListErrorTests {
    @Test("A malformed step and an invalid one have their codes, positions and tokens")
    func codes() {
        guard case .failure(let malformed) = SpecEvent.list("a, b[x") else {
            Issue.record("'b[x' read")
            return
        }
        #expect(malformed.code == .malformedEvent)
        #expect(malformed.code.description == "malformed-event")
        #expect(malformed.position == 2 && malformed.token.contains("b[x"), "\(malformed.token)")
        #expect(malformed.message == malformed.description)
        let invalid = SpecEvent.ListError(position: 3, token: "wait", reason: "a wait needs a duration")
        #expect(invalid.code == .invalidStep)
        #expect(invalid.message == "step 3 'wait': a wait needs a duration")
    }
}

