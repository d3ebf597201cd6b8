import Flowstate
import Testing

/// A media player: sound and picture are regions of one parallel state.
enum Player: Flow {
    enum State: Hashable, Sendable { case idle, playing, audio, muted, audible, video, small, fullScreen, done, ended }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case play, toggleSound, toggleSize, stop, finishAudio, finishVideo }
    enum Effect: Hashable, Sendable { case entry(State), exit(State), stopped }
    typealias Output = Void
}

@Suite("Parallel states")
struct ParallelTests {
    static func e(_ states: Player.State...) -> [Player.Effect] { states.map { .entry($0) } }
    static func x(_ states: Player.State...) -> [Player.Effect] { states.map { .exit($0) } }

    static let player = FlowDefinition<Player>("player", initial: .idle) {
        StateNode(.idle, entry: [.entry(.idle)], exit: [.exit(.idle)]) {
            On(.play, to: .playing)
        }
        Parallel(.playing, entry: [.entry(.playing)], exit: [.exit(.playing)]) {
            StateNode(.audio, initial: .muted, entry: [.entry(.audio)], exit: [.exit(.audio)]) {
                StateNode(.muted, entry: [.entry(.muted)], exit: [.exit(.muted)]) {
                    On(.toggleSound, to: .audible)
                }
                StateNode(.audible, entry: [.entry(.audible)], exit: [.exit(.audible)]) {
                    On(.toggleSound, to: .muted)
                    On(.finishAudio, to: .done)
                }
                Final(.done, entry: [.entry(.done)])
            }
            StateNode(.video, entry: [.entry(.video)], exit: [.exit(.video)]) {
                StateNode(.small, entry: [.entry(.small)], exit: [.exit(.small)]) {
                    On(.toggleSize, guard: .in(.audible), to: .fullScreen)
                }
                StateNode(.fullScreen, entry: [.entry(.fullScreen)], exit: [.exit(.fullScreen)]) {
                    On(.toggleSize, to: .small)
                    On(.finishVideo, to: .ended)
                }
                Final(.ended, entry: [.entry(.ended)])
            }
            On(.stop, to: .idle, effects: [.stopped])
            On(done: .playing, to: .idle, effects: [.stopped])
        }
    }

    @Test("Entering a parallel state enters every region, in declaration order; every region hears each event")
    func entersEveryRegion() throws {
        #expect(Self.player.isValid, "\(Self.player.validate())")
        #expect(Self.player.declaration(of: .playing)?.kind == .parallel)
        var machine = try FlowMachine(Self.player)
        _ = try machine.start()
        let play = try machine.send(.play)
        #expect(Array(play.effects) == Self.x(.idle) + Self.e(.playing, .audio, .muted, .video, .small))
        #expect(play.leaves == [.muted, .small])
        #expect(machine.state == .muted)
        #expect(machine.isActive(.playing) && machine.isActive(.video) && machine.isActive(.small))
        #expect(!machine.isActive(.idle) && !machine.isActive(.audible))
        #expect(machine.configuration == [.small, .video, .muted, .audio, .playing])
        #expect(Array(machine.activeStates) == machine.configuration)

        let sound = try machine.send(.toggleSound)
        #expect(Array(sound.effects) == Self.x(.muted) + Self.e(.audible))
        #expect(sound.leaves == [.audible, .small])
    }

    @Test("An In guard reads another region")
    func inGuard() throws {
        var machine = try FlowMachine(Self.player)
        _ = try machine.start()
        _ = try machine.send(.play)
        #expect(try machine.send(.toggleSize).kind == .rejected)  // audio is muted
        _ = try machine.send(.toggleSound)
        #expect(try machine.send(.toggleSize).leaves == [.audible, .fullScreen])
    }

    @Test("Leaving the parallel state exits every region in reverse declaration order, then runs the transition's effects")
    func leavesFromOneRegion() throws {
        var machine = try FlowMachine(Self.player)
        _ = try machine.start()
        _ = try machine.send(.play)
        _ = try machine.send(.toggleSound)
        _ = try machine.send(.toggleSize)
        let stop = try machine.send(.stop)
        #expect(Array(stop.effects)
                == Self.x(.fullScreen, .video, .audible, .audio, .playing) + [.stopped] + Self.e(.idle))
        #expect(stop.leaves == [.idle])
        #expect(machine.configuration == [.idle])
    }

    @Test("When every region reaches a final state, done.state of the parallel state is taken in the same step")
    func doneWhenEveryRegionIsFinal() throws {
        var machine = try FlowMachine(Self.player)
        _ = try machine.start()
        _ = try machine.send(.play)
        _ = try machine.send(.toggleSound)
        _ = try machine.send(.toggleSize)
        let audio = try machine.send(.finishAudio)
        #expect(Array(audio.effects) == Self.x(.audible) + Self.e(.done))
        #expect(!machine.isFinished, "a final state inside a parallel state completes its region, not the flow")
        #expect(machine.isActive(.done) && machine.isActive(.fullScreen))
        let video = try machine.send(.finishVideo)
        #expect(Array(video.effects)
                == Self.x(.fullScreen) + Self.e(.ended)
                + Self.x(.video, .audio, .playing) + [.stopped] + Self.e(.idle))  // final states have no exit effects
        #expect(video.transitions.count == 2)
        #expect(Self.player[video.transitions[1]].eventLabel == "done.state.playing")
        #expect(machine.configuration == [.idle])
    }

    @Test("stop() exits every active state in reverse declaration order")
    func stopExitsEverything() throws {
        var machine = try FlowMachine(Self.player)
        _ = try machine.start()
        _ = try machine.send(.play)
        #expect(Array(machine.stop()) == Self.x(.small, .video, .muted, .audio, .playing))
        #expect(Array(machine.stop()).isEmpty)
    }

    @Test("A machine resumes in a whole configuration and refuses impossible ones")
    func resumesInAConfiguration() throws {
        var machine = try FlowMachine(Self.player, resumingIn: [.audible, .fullScreen])
        #expect(machine.configuration == [.fullScreen, .video, .audible, .audio, .playing])
        #expect(try machine.send(.toggleSize).leaves == [.audible, .small])
        for impossible: [Player.State] in [[.audible], [.muted, .audible, .small], [.idle, .small], []] {
            #expect(throws: FlowError.self, "\(impossible)") {
                try FlowMachine(Self.player, resumingIn: impossible)
            }
        }
    }

    @Test("A transition with several targets enters one state in each region, the others by their initial child")
    func severalTargets() throws {
        let flow = FlowDefinition<Player>("targets", initial: .idle) {
            StateNode(.idle, entry: [.entry(.idle)], exit: [.exit(.idle)]) {
                On(.play, to: [.audible, .fullScreen])
                On(.toggleSound, to: [.audible])
            }
            Parallel(.playing, entry: [.entry(.playing)]) {
                StateNode(.audio, entry: [.entry(.audio)]) {
                    StateNode(.muted, entry: [.entry(.muted)])
                    StateNode(.audible, entry: [.entry(.audible)])
                }
                StateNode(.video, entry: [.entry(.video)]) {
                    StateNode(.small, entry: [.entry(.small)])
                    StateNode(.fullScreen, entry: [.entry(.fullScreen)])
                }
                On(.stop, to: .idle)
            }
        }
        #expect(flow.isValid, "\(flow.validate())")
        #expect(flow.transitions[0].targets == [.audible, .fullScreen])
        var machine = try FlowMachine(flow)
        _ = try machine.start()
        let both = try machine.send(.play)
        #expect(Array(both.effects) == Self.x(.idle) + Self.e(.playing, .audio, .audible, .video, .fullScreen))
        _ = try machine.send(.stop)
        let one = try machine.send(.toggleSound)
        #expect(Array(one.effects) == Self.x(.idle) + Self.e(.playing, .audio, .audible, .video, .small))

        let conflicting = FlowDefinition<Player>("conflicting", initial: .idle) {
            StateNode(.idle) { On(.play, to: [.muted, .audible]) }
            StateNode(.audio) {
                StateNode(.muted)
                StateNode(.audible)
            }
        }
        #expect(conflicting.validate().map(\.kind).contains(.conflictingTargets), "\(conflicting.validate())")
    }

    @Test("Validation: a parallel state without regions, a final region, a completion transition waiting for a state that never completes")
    func validation() {
        let flow = FlowDefinition<Player>("bad", initial: .idle) {
            StateNode(.idle) {
                On(.play, to: .playing)
                On(done: .idle, to: .playing)
            }
            Parallel(.playing) {
                Final(.done)
            }
            Parallel(.video) {}
        }
        let kinds = flow.validate().map(\.kind)
        #expect(kinds.filter { $0 == .invalidParallel }.count == 2, "\(flow.validate())")
        #expect(kinds.contains(.invalidDoneTransition), "\(flow.validate())")
        #expect(!flow.isValid)
    }
}

/// The DocC article *Parallel states*, compiled (DocSnippetCheckTests finds its snippets here).
@Suite("Parallel states article")
struct ParallelArticleTests {
    @Test("The article's player runs as it says")
    func articlePlayer() throws {
let player = FlowDefinition<Player>("player", initial: .idle) {
    StateNode(.idle) {
        On(.play, to: .playing)
    }
    Parallel(.playing) {
        StateNode(.audio, initial: .muted) {
            StateNode(.muted) { On(.toggleSound, to: .audible) }
            StateNode(.audible) {
                On(.toggleSound, to: .muted)
                On(.finishAudio, to: .done)
            }
            Final(.done)
        }
        StateNode(.video) {
            StateNode(.small) { On(.toggleSize, guard: .in(.audible), to: .fullScreen) }
            StateNode(.fullScreen) {
                On(.toggleSize, to: .small)
                On(.finishVideo, to: .ended)
            }
            Final(.ended)
        }
        On(.stop, to: .idle, effects: [.stopped])
        On(done: .playing, to: .idle)
    }
}
        #expect(player.isValid, "\(player.validate())")
var machine = try FlowMachine(player)
_ = try machine.start()
let step = try machine.send(.play)
// step.leaves == [.muted, .small]; machine.isActive(.video) == true
        #expect(step.leaves == [.muted, .small] && machine.isActive(.video))
    }
}
