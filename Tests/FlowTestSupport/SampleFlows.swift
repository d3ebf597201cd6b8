import Flowstate
import PropertyBased

/// String-typed flows, as files make them, with names chosen to break writers.
public enum Named: Flow {
    /// A state's name.
    public typealias State = String
    /// An event's name.
    public typealias Event = String
    /// An effect's name.
    public typealias Effect = String
    /// A final state's output.
    public typealias Output = String

    /// Names that writers must quote or escape: DOT's and Mermaid's syntax, XML's, control
    /// characters, scripts beyond Latin.
    public static let hostile = Gen.element(of: ["\"", "\\", "\n", "<", ">", "{", "}", "|", "é", "中", " ", "a", ";", "#",
                                                 "->", "--", "[", "]", ":", "\\n", "\u{1F600}", "\t", "\r", "%", "&", "'"])
        .map { $0 ?? "a" }.array(of: 0...6).map { $0.joined() }

    /// A flow whose every name is hostile: one state per name, in a chain, the last one final.
    public static func hostileFlow(_ names: [String]) -> FlowDefinition<Named> {
        let states = names.enumerated().map { "\($1)#\($0)" }
        var elements: [FlowElement<Named>] = []
        for (i, state) in states.enumerated().dropLast() {
            let next = states[i + 1]
            let on = On<Named>(state + "→", guard: Guard(names[i]) { _ in true }, to: next, effects: [names[i], "\"x\""])
            elements.append(StateNode<Named>(state, entry: [names[i]]) { [on.element] }.element)
        }
        elements.append(Final<Named>(states.last!, output: names.last!).element)
        return FlowDefinition("flow \"\(names.first ?? "")\"", initial: states[0], elements: elements)
    }
}

/// A download beside a player: two regions of one parallel state.
public enum Media: Flow {
    /// The states.
    public enum State: String, Hashable, Sendable { case idle, busy, download, fetching, fetched, player, paused, playing }
    /// The events.
    public enum Event: FlowEvent, Hashable {
        /// Each event is its own kind.
        public typealias Kind = Self
        case start, fetched, play, pause, cancel
    }
    /// Effects are named by strings.
    public typealias Effect = String
    /// The flow has no output.
    public typealias Output = Void

    /// The flow: `busy` runs the download and the player side by side.
    public static let definition = FlowDefinition<Media>("media", initial: .idle) {
        StateNode(.idle) {
            On(.start, to: .busy)
            On(.play, to: [.fetching, .playing])
        }
        Parallel(.busy) {
            StateNode(.download) {
                StateNode(.fetching) { On(.fetched, to: .fetched) }
                StateNode(.fetched)
            }
            StateNode(.player) {
                StateNode(.paused) { On(.play, guard: .in(.fetched), to: .playing) }
                StateNode(.playing) { On(.pause, to: .paused) }
            }
            On(.cancel, to: .idle)
        }
    }
}

/// A flow with a context and string names, for generated definitions whose transitions update the
/// context, derive effects from it and run children.
public enum Counted: Flow {
    /// The state type.
    public typealias State = String
    /// The event type.
    public typealias Event = String
    /// The effect type.
    public typealias Effect = String
    /// The output type.
    public typealias Output = String
    /// The context type.
    public typealias Context = Int

    /// The seeds' login with a two-factor child (as the app tutorial builds it, here with strings).
    public static func login(twoFactorOutput: String = "verified") -> FlowDefinition<Counted> {
        let twoFactor = FlowDefinition<Counted>("twoFactor", initial: "code", context: 0) {
            StateNode("code") {
                On("submit", to: "accepted", update: Update("remember attempt") { attempts, _ in attempts += 1 })
                On("cancel", to: "abandoned")
            }
            Final("accepted", output: twoFactorOutput)
            Final("abandoned", output: "cancelled")
        }
        return FlowDefinition<Counted>("login", initial: "password", context: 0) {
            StateNode("password", entry: ["present(password)"]) {
                On("submit", to: "verifying")
            }
            StateNode("verifying", runs: ChildFlow(twoFactor) { output in
                switch output {
                case "verified": "codeAccepted"
                case "cancelled": "codeCancelled"
                default: nil
                }
            }) {
                On("codeAccepted", to: "signedIn")
                On("codeCancelled", to: "password")
            }
            Final("signedIn", output: "user")
        }
    }
}
