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
            var general = machine
            let expected = try? general.sendParallelGeneral(event)
            // The table's own step, on a copy: when it decides, what it decides is SCXML's.
            var viaTable = machine
            if let step = viaTable.tableStep(event, kind: event.kind) {
                decided += 1
                let expected = try #require(expected, "step \(n): \(event): the table decided a step SCXML's algorithm refuses")
                #expect(step.kind == expected.kind && step.state == expected.state && step.from == expected.from, "step \(n): \(event)")
                #expect(Array(step.effects) == Array(expected.effects) && step.transitions == expected.transitions, "step \(n): \(event)")
                #expect(step.leaves == expected.leaves && viaTable.configuration == general.configuration, "step \(n): \(event)")
                #expect(viaTable.activeLeaves == general.activeLeaves(of: general.active) && viaTable.current == general.current,
                        "step \(n): \(event)")
            }
            guard let expected else {
                #expect(throws: FlowError.self, "step \(n): \(event)") { try machine.send(event) }
                continue
            }
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
        #expect(deck.configRanges.count == 5 && deck.configLeaves.count == 4)
        #expect(deck.configSlots.count == 8 && (0..<4).allSatisfy { deck.configurationNumber(leafFields: deck.configLeaves[$0]) == Int32($0) })
        #expect(deck.configurationNumber(leafFields: 12_345) == -1)
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

    @Test("An In guard is answered from the configuration: the table decides the step whichever way the guard goes")
    func inGuardsDecided() throws {
        let gated = FlowDefinition<Deck>("gated", initial: .deck) {
            Parallel(.deck) {
                StateNode(.playback, initial: .stopped) {
                    StateNode(.stopped) { On(.play, to: .playing) }
                    StateNode(.playing) { On(.reset, to: .stopped) }
                }
                StateNode(.volume, initial: .quiet) {
                    StateNode(.quiet) { On(.louder, to: .loud) }
                    StateNode(.loud) {
                        On(.reset, guard: .in(.playing), to: .quiet, effects: ["quieter"])
                        On(.reset, to: nil, effects: ["stay"])
                    }
                }
            }
        }
        let table = gated.table
        var decided: [[Deck.State]] = []
        for c in 0..<table.configLeaves.count {
            let leaves = (2...3).map { table.states[table.stepField(table.configLeaves[c], $0) - 1] }
            for j in Int(table.configRanges[c])..<Int(table.configRanges[c + 1])
            where table.configKinds[j] == .reset && table.configOutcomes[j].first >= 0 {
                decided.append(leaves)
            }
        }
        // Every configuration with a reset: `playing` (alone or with `loud`, whose guard holds), and
        // `loud` with `stopped` (the guard fails: its second transition, targetless).
        #expect(Set(decided.map { $0.map { "\($0)" }.joined(separator: " ") })
                == ["playing quiet", "playing loud", "stopped loud"])
        var machine = try FlowMachine(gated)
        _ = try machine.start()
        #expect(try Self.agree(&machine, [.louder, .reset, .play, .reset, .play, .louder, .reset, .reset, .play, .reset]) == 10)
        #expect(try Self.agree(&machine, Self.stream([.play, .louder, .reset, .eject], count: 200, seed: 5)) == 200)
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

    /// A parallel state in a region (three leaves active at once), a state whose move enters a final
    /// state (its configurations are not in the table: steps leave it and come back), and `.fail`
    /// for unhandled events.
    enum Nest: Flow {
        enum State: Hashable, Sendable { case top, a, a1, a2, b, inner, c, c1, c2, d, d1, d2, done }
        enum Event: FlowEvent, Hashable { typealias Kind = Self; case x, y, z, both, finish, unknown }
        typealias Effect = String
        typealias Output = Void
    }

    static let nest = FlowDefinition<Nest>("nest", initial: .top, unhandledEvents: .fail) {
        Parallel(.top) {
            StateNode(.a, initial: .a1) {
                StateNode(.a1) { On(.x, to: .a2, effects: ["x"]) }
                StateNode(.a2, exit: ["exit a2"]) {
                    On(.x, to: .a1)
                    On(.finish, to: .done)
                }
                Final(.done)
            }
            StateNode(.b) {
                Parallel(.inner) {
                    StateNode(.c, initial: .c1) {
                        StateNode(.c1) { On(.y, to: .c2); On(.both, to: .c2) }
                        StateNode(.c2) { On(.y, to: .c1); On(.both, to: .c1) }
                    }
                    StateNode(.d, initial: .d1) {
                        StateNode(.d1) { On(.z, to: .d2, effects: ["z"]); On(.both, to: .d2) }
                        StateNode(.d2, entry: ["enter d2"]) { On(.z, to: .d1); On(.both, to: .d1) }
                    }
                }
            }
        }
    }

    @Test("A parallel state in a region, states outside the table, .fail: every step agrees, and the machine leaves the table and comes back")
    func nestedOutsideAndFail() throws {
        let table = Self.nest.table
        #expect(table.stepFieldBits > 0)
        // (a1 or a2 or done) x (c1 or c2) x (d1 or d2); only a1's are in the table (a2 has a move into
        // a final state, which the common step leaves to SCXML's algorithm, and `done` is final).
        #expect(FlowTable<Nest>.legalLeafSets(table.hierarchy, limit: 100)?.count == 12)
        #expect(table.configLeaves.count == 4)
        var machine = try FlowMachine(Self.nest)
        _ = try machine.start()
        #expect(machine.commonConfiguration >= 0)
        // x takes a1 to a2 (decided by the table, out of it), x back (SCXML's algorithm, into it).
        _ = try Self.agree(&machine, [.x])
        #expect(machine.commonConfiguration == -1)
        _ = try Self.agree(&machine, [.y, .x])
        #expect(machine.commonConfiguration >= 0)
        let events: [Nest.Event] = Self.stream([.x, .y, .z, .both, .y, .z, .both, .unknown], count: 300, seed: 99)
        #expect(try Self.agree(&machine, events) > 100)
        let toFinish: [Nest.Event] = machine.configuration.contains(.a2) ? [.finish] : [.x, .finish]
        _ = try Self.agree(&machine, toFinish + [.y, .both, .z])
        #expect(machine.commonConfiguration == -1 && machine.configuration.contains(.done))
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
