import Flowstate
import Testing

/// The compiled table keeps a reference of its own to every guard, update and emit it calls (each in
/// a box it calls borrowed, without retaining it per call): they live as long as a machine runs the
/// table, and go with the last machine and definition.
@Suite struct TableLifetimeTests {
    /// Something a guard, an update and an emit capture, so that their lifetime can be watched.
    final class Token: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }

    enum Counter: Flow {
        enum State: Hashable, Sendable { case idle, counting }
        enum Event: Hashable, Sendable, FlowEvent { case tick }
        typealias Effect = String
        typealias Output = Never
        typealias Context = Int
    }

    /// A definition whose guard, update and emit each capture a token of their own.
    static func definition(_ guardToken: Token, _ updateToken: Token, _ emitToken: Token) -> FlowDefinition<Counter> {
        let below = Guard<Counter>("below 3") { count, _ in guardToken.name == "guard" && count < 3 }
        let count = Update<Counter>("count") { count, _ in count += updateToken.name == "update" ? 1 : 100 }
        let report = Emit<Counter>("report") { count, _ in "\(emitToken.name) \(count)" }
        return FlowDefinition<Counter>("counter", initial: .idle, context: 0) {
            StateNode(.idle) {
                On(.tick, guard: below, to: .counting, update: count, emit: [report])
            }
            StateNode(.counting) {
                On(.tick, guard: below, to: .idle, update: count, emit: [report])
            }
        }
    }

    @Test func guardsUpdatesAndEmitsLiveAsLongAsTheMachineAndGoWithIt() throws {
        weak var guardToken: Token?
        weak var updateToken: Token?
        weak var emitToken: Token?
        do {
            var machine: FlowMachine<Counter>
            do {
                let tokens = (Token("guard"), Token("update"), Token("emit"))
                (guardToken, updateToken, emitToken) = tokens
                machine = try FlowMachine(Self.definition(tokens.0, tokens.1, tokens.2))
            }
            // Only the machine is left: its table and its definition (which keeps the update's and
            // the emit's functions) hold what they capture.
            #expect(guardToken != nil && updateToken != nil && emitToken != nil)
            _ = try machine.start()
            var reports: [String] = []
            for _ in 0..<4 {
                reports += try machine.send(.tick).effects
            }
            // Each was called, borrowed, as many times as a step needed it: the guard held three
            // times, then refused; each update counted one, each emit read the count after it.
            #expect(reports == ["emit 1", "emit 2", "emit 3"])
            #expect(machine.context == 3)
            #expect(guardToken != nil && updateToken != nil && emitToken != nil)
        }
        #expect(guardToken == nil)
        #expect(updateToken == nil)
        #expect(emitToken == nil)
    }
}
