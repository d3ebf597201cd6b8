import Flowstate

// Issue 24: "a parallel flow (two regions of five states) costs at most 4x two hand-written switches
// driven by the same events". A media player: playback and volume are regions of one parallel state,
// five states each. Most events move one region; `stop` moves both at once (the playback stops, the
// volume falls back to medium), as a `reset` does in an app. Written twice: as a definition and as two
// hand-written `switch`es, each given every event; both compute the same checksum.

enum Jukebox: Flow {
    enum State: Int, Hashable, Sendable {
        case player, playback, stopped, loading, playing, paused, ended, volume, muted, low, medium, high, loud
    }
    enum Event: UInt8, FlowEvent { case play, pause, stop, louder, quieter, mute }
    typealias Effect = Int
    typealias Output = Int
}

/// Opaque to the optimizer, so neither implementation can fold the guard away.
@inline(never) func trackLoaded() -> Bool { CommandLine.arguments.count > 0 }

let jukeboxDefinition = FlowDefinition<Jukebox>("jukebox", initial: .player) {
    Parallel(.player) {
        StateNode(.playback, initial: .stopped) {
            StateNode(.stopped) {
                On(.play, to: .loading, effects: [1])
            }
            StateNode(.loading, entry: [10]) {
                On(.play, guard: Guard("track loaded", condition: trackLoaded), to: .playing)
                On(.stop, to: .stopped)
            }
            StateNode(.playing, entry: [11], exit: [12]) {
                On(.pause, to: .paused)
                On(.play, to: .ended, effects: [2])
                On(.stop, to: .stopped)
            }
            StateNode(.paused) {
                On(.play, to: .playing)
                On(.pause, to: .playing)
                On(.stop, to: .stopped)
            }
            StateNode(.ended, entry: [13]) {
                On(.play, to: .stopped, effects: [3])
                On(.stop, to: .stopped)
            }
        }
        StateNode(.volume, initial: .medium) {
            StateNode(.muted, entry: [20]) {
                On(.louder, to: .low)
                On(.mute, to: .medium)
                On(.stop, to: .medium)
            }
            StateNode(.low) {
                On(.louder, to: .medium)
                On(.quieter, to: .muted)
                On(.mute, to: .muted)
                On(.stop, to: .medium)
            }
            StateNode(.medium) {
                On(.louder, to: .high)
                On(.quieter, to: .low)
                On(.mute, to: .muted)
            }
            StateNode(.high, exit: [21]) {
                On(.louder, to: .loud, effects: [4])
                On(.quieter, to: .medium)
                On(.mute, to: .muted)
                On(.stop, to: .medium)
            }
            StateNode(.loud) {
                On(.quieter, to: .high)
                On(.mute, to: .muted)
                On(.stop, to: .medium)
            }
        }
    }
}

/// The playback region as a hand-written `switch`.
struct HandWrittenPlayback {
    var state = Jukebox.State.stopped

    /// The sum of the effects this region performs for `event`, in the engine's order.
    @inline(__always)
    mutating func send(_ event: Jukebox.Event) -> Int {
        switch (state, event) {
        case (.stopped, .play): state = .loading; return 1 + 10
        case (.loading, .play): if trackLoaded() { state = .playing; return 11 }; return 0
        case (.loading, .stop): state = .stopped; return 0
        case (.playing, .pause): state = .paused; return 12
        case (.playing, .play): state = .ended; return 12 + 2 + 13
        case (.playing, .stop): state = .stopped; return 12
        case (.paused, .play), (.paused, .pause): state = .playing; return 11
        case (.paused, .stop): state = .stopped; return 0
        case (.ended, .play): state = .stopped; return 3
        case (.ended, .stop): state = .stopped; return 0
        default: return 0
        }
    }
}

/// The volume region as a hand-written `switch`.
struct HandWrittenVolume {
    var state = Jukebox.State.medium

    @inline(__always)
    mutating func send(_ event: Jukebox.Event) -> Int {
        switch (state, event) {
        case (.muted, .louder): state = .low; return 0
        case (.muted, .mute), (.muted, .stop): state = .medium; return 0
        case (.low, .louder), (.low, .stop): state = .medium; return 0
        case (.low, .quieter), (.low, .mute): state = .muted; return 20
        case (.medium, .louder): state = .high; return 0
        case (.medium, .quieter): state = .low; return 0
        case (.medium, .mute): state = .muted; return 20
        case (.high, .louder): state = .loud; return 21 + 4
        case (.high, .quieter), (.high, .stop): state = .medium; return 21
        case (.high, .mute): state = .muted; return 21 + 20
        case (.loud, .quieter): state = .high; return 0
        case (.loud, .mute): state = .muted; return 20
        case (.loud, .stop): state = .medium; return 0
        default: return 0
        }
    }
}

/// Both regions, each given every event: the baseline.
struct HandWrittenJukebox {
    var playback = HandWrittenPlayback()
    var volume = HandWrittenVolume()
}

/// A reproducible stream of player events: mostly `play` and `louder`/`quieter`, some `pause` and
/// `mute`, and one `stop` (both regions move) in 16.
func jukeboxEvents(count: Int) -> [Jukebox.Event] {
    var x: UInt64 = 0x2545_F491_4F6C_DD1D
    return (0..<count).map { _ in
        x ^= x >> 12
        x ^= x << 25
        x ^= x >> 27
        let r = (x &* 0x9E37_79B9_7F4A_7C15) >> 60  // 0...15
        switch r {
        case 0..<4: return .play
        case 4..<6: return .pause
        case 6..<10: return .louder
        case 10..<13: return .quieter
        case 13..<15: return .mute
        default: return .stop
        }
    }
}

/// The two switches over `events`: the checksum of every effect plus both regions' states.
@inline(never)
func runJukeboxSwitches(_ machine: inout HandWrittenJukebox, _ events: [Jukebox.Event]) -> Int {
    var sum = 0
    for event in events {
        // The engine reports a step's exits, transitions' effects and entries region by region; the
        // checksum is a sum, so the order does not change it.
        sum &+= machine.playback.send(event)
        sum &+= machine.volume.send(event)
    }
    return sum &+ machine.playback.state.rawValue &+ machine.volume.state.rawValue
}

/// The engine over `events`, the step bound to a `let` and its effects read.
@inline(never)
func runJukeboxEngine(_ machine: inout FlowMachine<Jukebox>, _ events: [Jukebox.Event]) -> Int {
    var sum = 0
    for event in events {
        do {
            let step = try machine.send(event)
            for effect in step.effects { sum &+= effect }
        } catch {
            continue
        }
    }
    return sum &+ (machine.isActive(.stopped) ? 2 : machine.isActive(.loading) ? 3 : machine.isActive(.playing) ? 4
                   : machine.isActive(.paused) ? 5 : 6)
        &+ (machine.isActive(.muted) ? 8 : machine.isActive(.low) ? 9 : machine.isActive(.medium) ? 10
            : machine.isActive(.high) ? 11 : 12)
}

/// The engine over `events`, the step's state, effects, transitions and leaves read one after another.
@inline(never)
func runJukeboxEngineProperties(_ machine: inout FlowMachine<Jukebox>, _ events: [Jukebox.Event]) -> Int {
    var sum = 0
    var moves = 0
    for event in events {
        do {
            let step = try machine.send(event)
            moves &+= step.state.rawValue
            for effect in step.effects { sum &+= effect }
            moves &+= step.transitions.count
        } catch {
            continue
        }
    }
    precondition(moves != 0)
    return sum &+ (machine.isActive(.stopped) ? 2 : machine.isActive(.loading) ? 3 : machine.isActive(.playing) ? 4
                   : machine.isActive(.paused) ? 5 : 6)
        &+ (machine.isActive(.muted) ? 8 : machine.isActive(.low) ? 9 : machine.isActive(.medium) ? 10
            : machine.isActive(.high) ? 11 : 12)
}
