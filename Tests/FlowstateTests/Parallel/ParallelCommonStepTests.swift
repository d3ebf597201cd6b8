@testable import Flowstate
import Testing

/// A player whose two regions move on their own (the flow of Benchmarks' two-region benchmark, smaller):
/// every move is local to its region, so the engine takes its common step.
enum Deck: Flow {
    enum State: Hashable, Sendable { case deck, playback, stopped, playing, volume, quiet, loud }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case play, louder, reset, eject }
    typealias Effect = String
    typealias Output = Void
}

@Suite("The common step of a flow with parallel states")
struct ParallelCommonStepTests {
    static let deck = FlowDefinition<Deck>("deck", initial: .deck) {
        Parallel(.deck) {
            StateNode(.playback, initial: .stopped) {
                StateNode(.stopped, exit: ["exit stopped"]) {
                    On(.play, to: .playing, effects: ["play"])
                }
                StateNode(.playing, entry: ["enter playing"], exit: ["exit playing"]) {
                    On(.reset, to: .stopped, effects: ["stop"])
                }
            }
            StateNode(.volume, initial: .quiet) {
                StateNode(.quiet) {
                    On(.louder, to: .loud)
                }
                StateNode(.loud, exit: ["exit loud"]) {
                    On(.reset, guard: .in(.playing), to: .quiet, effects: ["quieter"])
                }
            }
        }
    }

    @Test("Local moves take the common step; its steps are SCXML's: one region, then two at once in the recommendation's order")
    func commonStep() throws {
        var machine = try FlowMachine(Self.deck)
        _ = try machine.start()
        #expect(machine.table.takesCommonParallelSteps)
        let common = machine.sendParallelCommon(.play)
        let play = try #require(common)
        #expect(Array(play.effects) == ["exit stopped", "play", "enter playing"])
        #expect(play.leaves == [.playing, .quiet] && play.from == .stopped && play.state == .playing)
        _ = try machine.send(.louder)
        // Both regions move: every exit (the later region's first), each move's effects, every entry.
        let reset = try machine.send(.reset)
        #expect(Array(reset.effects) == ["exit loud", "exit playing", "stop", "quieter"])
        #expect(reset.transitions.count == 2 && reset.leaves == [.stopped, .quiet])
        #expect(machine.configuration == [.quiet, .volume, .stopped, .playback, .deck])
        // The `In` guard asks the configuration before the step: playback is stopped now.
        _ = try machine.send(.louder)
        let second = try machine.send(.reset)
        #expect(second.kind == .rejected && second.leaves == [.stopped, .loud])
        #expect(try machine.send(.eject).kind == .ignored)
    }

    @Test("A targetless transition of the parallel state, selected by every region's leaf, is taken once (CI, stop 30)")
    func sharedTargetlessTakenOnce() throws {
        // Found by `historyAndParallelAgreeWithReference` on CI: both leaves select the parallel
        // state's transition; SCXML's enabled set is a set, so it is taken once, its effects run once.
        let shared = FlowDefinition<Deck>("shared", initial: .deck) {
            Parallel(.deck) {
                On(.eject, to: nil, effects: ["eject"])
                StateNode(.playback, initial: .stopped) {
                    StateNode(.stopped) { On(.play, to: .playing) }
                    StateNode(.playing)
                }
                StateNode(.volume, initial: .quiet) {
                    StateNode(.quiet) { On(.louder, to: .loud) }
                    StateNode(.loud) { On(.eject, to: nil, effects: ["mute"]) }
                }
            }
        }
        var machine = try FlowMachine(shared)
        _ = try machine.start()
        #expect(machine.table.takesCommonParallelSteps)
        let once = try machine.send(.eject)
        #expect(Array(once.effects) == ["eject"] && once.transitions.count == 1)
        // A region's own transition preempts the shared one for its leaf only: both are taken, once each.
        _ = try machine.send(.louder)
        let two = try machine.send(.eject)
        #expect(Array(two.effects) == ["eject", "mute"] && two.transitions.count == 2)
        _ = try machine.send(.play)
        let again = try machine.send(.eject)
        #expect(Array(again.effects) == ["eject", "mute"] && again.transitions.count == 2)
        #expect(again.leaves == [.playing, .loud])
    }

    @Test("A step held by the caller never changes; the machine reuses its storage only once no step holds it")
    func heldStepsStay() throws {
        var machine = try FlowMachine(Self.deck)
        _ = try machine.start()
        // A small flow's common step of one move is packed in the step: no storage at all.
        #expect(machine.table.stepFieldBits > 0)
        let started = machine.stepStorage.map(ObjectIdentifier.init)
        let held = try machine.send(.play)
        if case .regions = held.payload {} else { Issue.record("not packed") }
        #expect(machine.stepStorage.map(ObjectIdentifier.init) == started)
        let next = try machine.send(.louder)
        #expect(Array(held.effects) == ["exit stopped", "play", "enter playing"] && held.leaves == [.playing, .quiet])
        #expect(held.transitions.count == 1 && held.timers.isEmpty && held.timer == nil && held.output == nil)
        #expect(Array(next.effects).isEmpty && next.leaves == [.playing, .loud])
        // Two moves with four effects between them keep their data in the storage.
        let reset = try machine.send(.reset)
        let storage = try #require(machine.stepStorage)
        _ = try machine.send(.play)
        _ = try machine.send(.louder)
        let again = try machine.send(.reset)
        #expect(machine.stepStorage !== storage, "the held step's storage was not written again")
        #expect(Array(reset.effects) == ["exit loud", "exit playing", "stop", "quieter"] && reset.leaves == [.stopped, .quiet])
        #expect(Array(again.effects) == Array(reset.effects) && again.leaves == reset.leaves)
        // A copy of the machine shares the storage: neither writes into it.
        let copy = machine
        let reused = machine.stepStorage
        _ = try machine.send(.play)
        _ = try machine.send(.louder)
        _ = try machine.send(.reset)
        #expect(machine.stepStorage !== reused)
        #expect(copy.configuration == [.quiet, .volume, .stopped, .playback, .deck])
        // Dropped steps: the same storage, again and again.
        var machine2 = try FlowMachine(Self.deck)
        _ = try machine2.start()
        _ = try machine2.send(.play)
        _ = try machine2.send(.louder)
        _ = try machine2.send(.reset)
        let first = machine2.stepStorage.map(ObjectIdentifier.init)
        #expect(first != nil)
        for _ in 0..<10 {
            _ = try machine2.send(.play)
            _ = try machine2.send(.louder)
            _ = try machine2.send(.reset)
        }
        #expect(machine2.stepStorage.map(ObjectIdentifier.init) == first)
    }

    @Test("A packed step of two moves reports what SCXML's algorithm reports: effects, transitions, leaves")
    func packedStepsAgreeWithTheAlgorithm() throws {
        let both = FlowDefinition<Deck>("both", initial: .deck) {
            Parallel(.deck) {
                StateNode(.playback, initial: .stopped) {
                    StateNode(.stopped, exit: ["exit stopped"]) { On(.play, to: .playing) }
                    StateNode(.playing) { On(.reset, to: .stopped, effects: ["stop"]) }
                }
                StateNode(.volume, initial: .quiet) {
                    StateNode(.quiet, exit: ["exit quiet"]) { On(.play, to: .loud) }
                    StateNode(.loud) {
                        On(.reset, to: .quiet)
                        On(.eject, to: nil, effects: ["eject"])
                    }
                }
            }
        }
        #expect(FlowTable<Deck>.mostActiveLeaves(both.table.hierarchy) == 2)
        var machine = try FlowMachine(both)
        _ = try machine.start()
        #expect(machine.table.stepFieldBits > 0)
        for event in [Deck.Event.play, .eject, .louder, .reset, .play, .reset] {
            var general = machine
            let expected = try general.sendParallelGeneral(event)
            let common = machine.sendParallelCommon(event)
            let step = try #require(common)
            if case .regions = step.payload {} else { Issue.record("\(event): not packed") }
            #expect(step.kind == expected.kind && step.state == expected.state && step.from == expected.from)
            #expect(Array(step.effects) == Array(expected.effects) && step.transitions == expected.transitions)
            #expect(step.leaves == expected.leaves && machine.configuration == general.configuration)
        }
        var machine2 = try FlowMachine(both)
        _ = try machine2.start()
        #expect(Array(try machine2.send(.play).effects) == ["exit quiet", "exit stopped"])
    }

    @Test("A flow with an eventless transition, or a move that leaves its region, takes SCXML's algorithm")
    func generalWhenNeeded() throws {
        let leaving = FlowDefinition<Deck>("leaving", initial: .deck) {
            Parallel(.deck) {
                StateNode(.playback, initial: .stopped) {
                    StateNode(.stopped) { On(.eject, to: .quiet) }
                    StateNode(.playing)
                }
                StateNode(.volume, initial: .quiet) {
                    StateNode(.quiet) { On(.louder, to: .loud) }
                    StateNode(.loud)
                }
            }
        }
        var machine = try FlowMachine(leaving)
        _ = try machine.start()
        #expect(machine.table.takesCommonParallelSteps)
        // `stopped` has a move into the other region (it leaves the parallel state's region): no common step
        // while it is active, even for an event it does not take.
        #expect(machine.sendParallelCommon(.louder) == nil)
        #expect(try machine.send(.louder).leaves == [.stopped, .loud])
        let eventless = FlowDefinition<Deck>("eventless", initial: .deck) {
            Parallel(.deck) {
                StateNode(.playback, initial: .stopped) {
                    StateNode(.stopped) { On(.play, to: .playing) }
                    StateNode(.playing) { Always(to: .stopped) }
                }
                StateNode(.volume, initial: .quiet) {
                    StateNode(.quiet) { On(.louder, to: .loud) }
                    StateNode(.loud)
                }
            }
        }
        #expect(try FlowMachine(eventless).table.takesCommonParallelSteps == false)
    }
}

/// Two regions, the first with a compound state in it: a move into or out of that state changes how
/// many states the first region has active, so the later region's leaf moves in the configuration.
enum Tray: Flow {
    enum State: Hashable, Sendable { case tray, left, shallow, outer, deep, right, off, on }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case dive, rise, flip }
    typealias Effect = String
    typealias Output = Void
}

@Suite("The common step keeps the positions of the active leaves")
struct ParallelActiveLeavesTests {
    static let tray = FlowDefinition<Tray>("tray", initial: .tray) {
        Parallel(.tray) {
            StateNode(.left, initial: .shallow) {
                StateNode(.shallow, exit: ["exit shallow"]) {
                    On(.dive, to: .deep)
                }
                StateNode(.outer, initial: .deep, entry: ["enter outer"], exit: ["exit outer"]) {
                    StateNode(.deep, entry: ["enter deep"]) {
                        On(.rise, to: .shallow)
                    }
                }
            }
            StateNode(.right, initial: .off) {
                StateNode(.off) {
                    On(.flip, to: .on, effects: ["on"])
                    On(.dive, to: .on, effects: ["on"])
                }
                StateNode(.on, exit: ["exit on"]) {
                    On(.flip, to: .off)
                    On(.rise, to: .off)
                }
            }
        }
    }

    @Test("A move into or out of a compound state moves the later region's leaf: every common step after it is SCXML's")
    func leavesMove() throws {
        var machine = try FlowMachine(Self.tray)
        _ = try machine.start()
        #expect(machine.table.takesCommonParallelSteps)
        // Both regions at once (the first enters two states for one), the later region alone, the first
        // alone (leaving two states for one), each followed by a step of the later region.
        for event in [Tray.Event.dive, .flip, .flip, .rise, .flip, .dive, .flip, .rise, .flip, .dive] {
            var general = machine
            let expected = try general.sendParallelGeneral(event)
            let common = machine.sendParallelCommon(event)
            let step = try #require(common, "\(event): not a common step")
            #expect(step.kind == expected.kind && step.state == expected.state && step.from == expected.from, "\(event)")
            #expect(Array(step.effects) == Array(expected.effects) && step.transitions == expected.transitions, "\(event)")
            #expect(step.leaves == expected.leaves && machine.configuration == general.configuration, "\(event)")
            #expect(machine.activeLeaves == general.activeLeaves && machine.activeLeaves == general.activeLeaves(of: general.active),
                    "\(event)")
        }
        #expect(machine.configuration == [.on, .right, .deep, .outer, .left, .tray])
    }
}
