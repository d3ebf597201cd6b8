@testable import Flowstate
import Testing

/// Three regions, so that one event can move all three (a step of three moves, which the table leaves
/// to the selection), with a guard and a targetless transition of the parallel state.
enum Trio: Flow {
    enum State: Hashable, Sendable { case trio, a, a1, a2, b, b1, b2, c, c1, c2 }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case x, y, z, all, shared, gated }
    typealias Effect = String
    typealias Output = Void
}

@Suite("The configuration table decides the common step when no guard takes part")
struct ParallelConfigurationTableTests {
    static let trio = FlowDefinition<Trio>("trio", initial: .trio) {
        Parallel(.trio) {
            On(.shared, to: nil, effects: ["shared"])
            StateNode(.a, initial: .a1) {
                StateNode(.a1, exit: ["exit a1"]) {
                    On(.x, to: .a2, effects: ["x"])
                    On(.all, to: .a2)
                }
                StateNode(.a2) {
                    On(.x, to: .a1)
                    On(.gated, guard: Guard("open") { _ in true }, to: .a1, effects: ["gated"])
                    On(.all, to: .a1)
                }
            }
            StateNode(.b, initial: .b1) {
                StateNode(.b1) {
                    On(.y, to: .b2)
                    On(.all, to: .b2)
                }
                StateNode(.b2, entry: ["enter b2"]) {
                    On(.y, to: .b1)
                    On(.shared, to: nil, effects: ["b2 shared"])
                    On(.all, to: .b1)
                }
            }
            StateNode(.c, initial: .c1) {
                StateNode(.c1) {
                    On(.z, to: .c2)
                    On(.all, to: .c2)
                }
                StateNode(.c2) {
                    On(.z, to: .c1)
                    On(.gated, guard: .in(.a2), to: .c1)
                    On(.all, to: .c1)
                }
            }
        }
    }

    /// A reproducible stream of `count` events drawn from `events`.
    static func stream<E>(_ events: [E], count: Int, seed: UInt64) -> [E] {
        var x = seed
        return (0..<count).map { _ in
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
            return events[Int(x % UInt64(events.count))]
        }
    }

    /// Sends every event to `machine` and to a copy taking SCXML's algorithm, comparing the steps and the
    /// machines, and the configuration number the machine keeps with one worked out from scratch.
    /// Returns how many steps the table decided.
    static func agree<F: Flow>(_ machine: inout FlowMachine<F>, _ events: [F.Event]) throws -> Int
    where F.Event: Equatable, F.Effect: Equatable {
        var decided = 0
        for (n, event) in events.enumerated() {
            let c = Int(machine.commonConfiguration)
            if c >= 0 {
                let outcomes = Int(machine.table.configRanges[c])..<Int(machine.table.configRanges[c + 1])
                let j = outcomes.first { machine.table.configKinds[$0] == event.kind }
                if j == nil || machine.table.configOutcomes[j!].first >= 0 { decided += 1 }
            }
            var general = machine
            let expected = try general.sendParallelGeneral(event)
            let step = try machine.send(event)
            #expect(step.kind == expected.kind && step.state == expected.state && step.from == expected.from, "step \(n): \(event)")
            #expect(Array(step.effects) == Array(expected.effects) && step.transitions == expected.transitions, "step \(n): \(event)")
            #expect(step.leaves == expected.leaves && machine.configuration == general.configuration, "step \(n): \(event)")
            #expect(machine.activeLeaves == general.activeLeaves(of: general.active), "step \(n): \(event)")
            #expect(machine.commonConfiguration == machine.table.configurationNumber(active: machine.active, leaves: machine.activeLeaves),
                    "step \(n): \(event): the configuration number is stale")
        }
        return decided
    }

    @Test("The table holds every legal configuration, and one outcome per kind an active state has a move for")
    func tableShape() throws {
        let deck = ParallelCommonStepTests.deck.table
        // Two regions of two states: four configurations; `reset` (in the deck's `loud`) has an `In` guard.
        #expect(deck.configRanges.count == 5 && deck.configLeaves.count == 4 && deck.configNumbers.count == 4)
        let tray = ParallelActiveLeavesTests.tray.table
        #expect(tray.configLeaves.count == 4)  // (shallow or deep) x (off or on)
        let trio = Self.trio.table
        #expect(trio.configLeaves.count == 8)
        // Each configuration of the trio has x, all, shared, y, z, and gated when a2 or c2 is active.
        var kinds = 0
        for c in 0..<8 {
            let leaves = (2...4).map { trio.stepField(trio.configLeaves[c], $0) - 1 }
            let gated = leaves.contains(trio.index[.a2]!) || leaves.contains(trio.index[.c2]!)
            let count = Int(trio.configRanges[c + 1] - trio.configRanges[c])
            #expect(count == (gated ? 6 : 5), "configuration \(c)")
            kinds += count
        }
        #expect(trio.configOutcomes.count == kinds)
        // A machine finds its configuration once it starts; a flow without parallel states has no table.
        var machine = try FlowMachine(Self.trio)
        #expect(machine.commonConfiguration == -1)
        _ = try machine.start()
        #expect(machine.commonConfiguration >= 0)
        let flat = FlowDefinition<Trio>("flat", initial: .a1) {
            StateNode(.a1) { On(.x, to: .a2) }
            StateNode(.a2) { On(.x, to: .a1) }
        }
        #expect(flat.table.configRanges.isEmpty && flat.table.configOutcomes.isEmpty)
    }

    @Test("Every step agrees with SCXML's algorithm, whoever decides it: the table, the selection or the algorithm")
    func stepsAgree() throws {
        var deck = try FlowMachine(ParallelCommonStepTests.deck)
        _ = try deck.start()
        let deckDecided = try Self.agree(&deck, Self.stream([.play, .louder, .reset, .eject], count: 400, seed: 0x9E37_79B9))
        #expect(deckDecided > 200)
        var tray = try FlowMachine(ParallelActiveLeavesTests.tray)
        _ = try tray.start()
        #expect(try Self.agree(&tray, Self.stream([.dive, .rise, .flip], count: 400, seed: 0x2545_F491)) > 300)
        var trio = try FlowMachine(Self.trio)
        _ = try trio.start()
        #expect(try Self.agree(&trio, Self.stream([.x, .y, .z, .all, .shared, .gated], count: 600, seed: 0x1234_5678)) > 300)
    }

    @Test("A step of three moves, a guard, or two moves with more than two effects are left to the selection")
    func dynamicOutcomes() throws {
        let trio = Self.trio.table
        for c in 0..<8 {
            for j in Int(trio.configRanges[c])..<Int(trio.configRanges[c + 1]) {
                let outcome = trio.configOutcomes[j]
                switch trio.configKinds[j] {
                case .all, .gated: #expect(outcome.first < 0, "configuration \(c): \(trio.configKinds[j])")
                case .x, .y, .z: #expect(outcome.first >= 0 && outcome.second < 0 && outcome.next >= 0)
                case .shared:
                    // The parallel state's targetless transition, selected once; with b2 active, b2's own
                    // too (two moves, two effects: packed).
                    #expect(outcome.first >= 0 && trio.eventMoves[Int(outcome.first)].target < 0)
                }
            }
        }
    }

    @Test("A resumed machine finds its configuration in the table; a flow with too many configurations has none")
    func resumedAndTooMany() throws {
        var resumed = try FlowMachine(Self.trio, resumingIn: [.a2, .b1, .c2])
        #expect(resumed.commonConfiguration >= 0)
        #expect(resumed.commonConfiguration == resumed.table.configurationNumber(active: resumed.active, leaves: resumed.activeLeaves))
        _ = try Self.agree(&resumed, Self.stream([.x, .y, .z, .all, .shared, .gated], count: 100, seed: 7))
        #expect(FlowTable<Trio>.legalLeafSets(Self.trio.table.hierarchy, limit: 7) == nil)
        #expect(FlowTable<Trio>.legalLeafSets(Self.trio.table.hierarchy, limit: 8)?.count == 8)
    }
}
