@testable import Flowstate
import Testing

/// The codes a supervisor shares with the engine, and the one conversion from an engine error.
@Suite("Supervisor errors")
struct SupervisorErrorTests {
    /// Every engine code, each with what a supervisor reports it as in a step.
    static let engineCodes: [(FlowError.Code, shared: Bool)] = [
        (.invalidDefinition, true), (.effectFailed, true), (.reentrantCall, true), (.noIsolation, true),
        (.notStarted, false), (.alreadyStarted, false), (.finished, false), (.unhandledEvent, false),
        (.eventlessLoop, false), (.runtimeFailed, false), (.unknownState, false), (.stopped, false),
        (.invalidHistory, false),
    ]

    @Test("An engine error keeps its code's name when the supervisor shares it, else takes the operation's; the error is kept")
    func conversion() {
        for (code, shared) in Self.engineCodes {
            let engine = FlowError(code: code, message: "m \(code)")
            for fallback in [SupervisorError.Code.stepFailed, .snapshotMismatch] {
                let error = SupervisorError(engine, otherwise: fallback)
                #expect(error.code == (shared ? SupervisorError.Code(code) : fallback), "\(code)")
                #expect(error.code.description == (shared ? code.description : fallback.description), "\(code)")
                #expect(error.underlying == engine)
                #expect(error.message == engine.message)
            }
        }
    }

    @Test("The shared codes are the engine's, under the same names")
    func sharedNames() {
        let pairs: [(SupervisorError.Code, FlowError.Code)] = [
            (.invalidDefinition, .invalidDefinition), (.effectFailed, .effectFailed),
            (.reentrantCall, .reentrantCall), (.noIsolation, .noIsolation),
        ]
        for (supervisor, engine) in pairs {
            #expect(supervisor.description == engine.description)
            #expect(SupervisorError.Code(engine) == supervisor)
        }
        let own: [SupervisorError.Code] = [.machineGone, .stepFailed, .snapshotMismatch, .contextNotCodable]
        #expect(own.map(\.description) == ["machine-gone", "step-failed", "snapshot-mismatch", "context-not-codable"])
        #expect(Set(own).isDisjoint(with: pairs.map(\.0)))
    }

    @Test("A definition that cannot run: invalid-definition, the engine's error underneath")
    func invalidDefinition() {
        let broken = FlowDefinition<Door>("broken", initial: .gone) {
            StateNode(.closed) { On(.open, to: .open) }
        }
        let error = #expect(throws: SupervisorError.self) { try Supervisor().start(broken) { _, _ in } }
        #expect(error?.code == .invalidDefinition)
        #expect(error?.code.description == "invalid-definition")
        #expect(error?.underlying?.code == .invalidDefinition)
        #expect(error?.message == error?.underlying?.message)
    }

    @Test("An event the machine refuses: step-failed, the engine's error underneath")
    func refusedEvent() throws {
        let supervisor = Supervisor()
        let door = try supervisor.start(Door.definition(unhandled: .fail)) { _, _ in }
        let error = #expect(throws: SupervisorError.self) { try supervisor.send(.close, to: door) }
        #expect(error?.code == .stepFailed)
        #expect(error?.underlying?.code == .unhandledEvent)
        #expect(error?.message == error?.underlying?.message)
    }

    @Test("A call from inside a handler: reentrant-call, as the runtime's")
    func reentrant() throws {
        let supervisor = Supervisor()
        var caught: SupervisorError?
        _ = try supervisor.start(Door.definition()) { [weak supervisor] _, _ in
            do { _ = try supervisor?.snapshot() } catch { caught = error as? SupervisorError }
        }
        #expect(caught?.code == .reentrantCall)
        #expect(caught?.code.description == FlowError.Code.reentrantCall.description)
    }
}
