@testable import Flowstate
import Testing

/// The index from a one-byte event kind to a state's moves (`FlowTable.KindIndex`), and the step
/// `send` takes inline when the first move it finds has no guard and settles.
@Suite struct KindIndexTests {
    /// A flow with one-byte kinds: states with several moves, two moves on one kind (a guard, then a
    /// fallback; in `open`, a guarded move that settles, so that only its guard keeps it from the
    /// inline step), a kind a state has no move for, and a kind no state has.
    enum Door: Flow {
        enum State: Hashable, Sendable { case closed, open, locked, alarm }
        enum Event: UInt8, Hashable, Sendable, FlowEvent { case open, close, lock, unlock, kick, knock }
        typealias Effect = Int
        typealias Output = Never
        typealias Context = Int
    }

    static let hasKey = Guard<Door>("has key") { count, _ in count % 3 != 0 }
    static let bump = Update<Door>("bump") { count, _ in count += 1 }

    static let door = FlowDefinition<Door>("door", initial: .closed, context: 1) {
        StateNode(.closed, entry: [1]) {
            On(.open, to: .open, effects: [2])
            On(.lock, guard: hasKey, to: .locked, update: bump)
            On(.lock, to: .alarm, effects: [3])
            On(.kick, to: .alarm)
        }
        StateNode(.open, exit: [4]) {
            On(.close, to: .closed)
            On(.kick, to: .open, effects: [5, 6, 7])
            On(.lock, guard: hasKey, to: .locked, effects: [11])  // guarded, no update: it settles
            On(.lock, to: .open, effects: [12])
        }
        StateNode(.locked) {
            On(.kick, to: .alarm, effects: [8])
            On(.unlock, guard: hasKey, to: .closed, update: bump)
            On(.unlock, to: .locked, effects: [9])
        }
        StateNode(.alarm, entry: [10]) {
            On(.close, to: .closed, update: bump)
        }
    }

    /// A one-byte kind whose equality is not its byte's: two kinds with different bytes are equal.
    struct Parity: Hashable, Sendable {
        let raw: UInt8
        static func == (lhs: Self, rhs: Self) -> Bool { lhs.raw % 2 == rhs.raw % 2 }
        func hash(into hasher: inout Hasher) { hasher.combine(raw % 2) }
    }

    enum Odd: Flow {
        enum State: Hashable, Sendable { case a, b }
        struct Event: Hashable, Sendable, FlowEvent {
            let raw: UInt8
            var kind: Parity { Parity(raw: raw) }
        }
        typealias Effect = Int
        typealias Output = Never
    }

    /// Where a scan of `state`'s moves finds the first of `kind`, if any.
    static func scan<F: Flow>(_ table: FlowTable<F>, _ state: Int, _ kind: F.Event.Kind) -> Int? {
        (table.eventRanges[state]..<table.eventRanges[state + 1]).first { table.eventKinds[$0] == kind }
    }

    @Test("For a one-byte kind, the index finds the first move of every state on every kind, as a scan does")
    func indexAgreesWithAScan() throws {
        let table = try FlowMachine(Self.door).table
        #expect(table.moveIndex.width == 5)  // kinds open ... kick have moves; knock has none
        for state in 0..<table.states.count {
            for event in [Door.Event.open, .close, .lock, .unlock, .kick, .knock] {
                #expect(table.firstMove(state, event) == Self.scan(table, state, event), "\(table.states[state]), \(event)")
            }
        }
    }

    @Test("The configuration table's index finds each configuration's outcome for a kind, as a scan does")
    func configurationIndexAgreesWithAScan() throws {
        let deck = ParallelCommonStepTests.deck.table
        #expect(deck.configIndex.width > 0)
        for c in 0..<(deck.configRanges.count - 1) {
            let range = Int(deck.configRanges[c])..<Int(deck.configRanges[c + 1])
            for kind in Set((0..<deck.configKinds.count).map { deck.configKinds[$0] }) {
                let start = deck.firstOutcome(c, kind)
                let found = (start..<range.upperBound).first { deck.configKinds[$0] == kind }
                #expect(range.contains(start) || start == range.upperBound)
                #expect(found == range.first { deck.configKinds[$0] == kind }, "configuration \(c), \(kind)")
            }
        }
    }

    @Test("No index for a kind that is not one byte, nor for one whose equality disagrees with its bytes")
    func noIndexWhenTheByteIsNotTheKind() throws {
        let spec = try FlowMachine(FlowDefinition<StringFlow>("s", initial: "a") {
            StateNode("a") { On(SpecEvent("go"), to: "b") }
            StateNode("b") { On(SpecEvent("back"), to: "a") }
        }).table
        // Without an index, the state's first move is the one to try.
        #expect(spec.moveIndex.width == 0 && spec.firstMove(0, SpecEvent("back")) == 0)
        let odd = try FlowMachine(FlowDefinition<Odd>("odd", initial: .a) {
            StateNode(.a) {
                On(Parity(raw: 1), to: .b)
                On(Parity(raw: 2), to: .a)
                On(Parity(raw: 3), to: .b, effects: [1])  // equal to the first kind, another byte
            }
            StateNode(.b) {}
        }).table
        #expect(odd.moveIndex.width == 0)
        var machine = try FlowMachine(FlowDefinition<Odd>("odd", initial: .a) {
            StateNode(.a) { On(Parity(raw: 1), to: .b) }
            StateNode(.b) {}
        })
        _ = try machine.start()
        // This table's one kind is indexed; byte 3 is not in the index, and the scan that follows
        // compares with `==`: the kind of byte 3 is the kind of byte 1.
        #expect(machine.table.moveIndex.width == 2 && machine.table.firstMove(0, Parity(raw: 3)) == nil)
        #expect(try machine.send(Odd.Event(raw: 3)).state == .b)
    }

    @Test("Every step send takes, inline or not, is the step the full look-up takes")
    func inlineStepAgreesWithTheFullStep() throws {
        var machine = try FlowMachine(Self.door)
        _ = try machine.start()
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        let events: [Door.Event] = [.open, .close, .lock, .unlock, .kick, .knock]
        var inline = 0
        for n in 0..<2_000 {
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
            let event = events[Int(x % UInt64(events.count))]
            var full = machine
            let expected = try full.sendStep(event)
            if let first = machine.table.firstMove(machine.current, event),
               machine.table.eventMoves[first].settles, machine.table.eventMoves[first].guardIndex < 0 {
                inline += 1
            }
            let step = try machine.send(event)
            #expect(step.kind == expected.kind && step.state == expected.state && step.from == expected.from, "step \(n): \(event)")
            #expect(Array(step.effects) == Array(expected.effects) && step.transitions == expected.transitions, "step \(n): \(event)")
            #expect(machine.state == full.state && machine.context == full.context, "step \(n): \(event)")
        }
        // Both kinds of step were taken many times.
        #expect(inline > 300 && inline < 1_700)
    }
}
