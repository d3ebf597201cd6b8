import Flowstate
import FlowstateExamples

/// Sample events for the sign-up flow, simplest first: for each payload kind, a value that passes its
/// guard and one that does not.
enum SignUpSamples {
    static let valid: [SignUp.Event] = [
        .submitEmail("ada@example.com"), .submitPassword("correct horse"), .submitCode("123456"), .back, .cancel,
    ]
    static let invalid: [SignUp.Event] = [
        .submitEmail("not-an-email"), .submitPassword("short"), .submitCode("12a456"),
    ]
    static let all = valid + invalid
}

/// A small flow with a decision state, a self-loop, an unreachable state, a compound state and an
/// eventless loop behind one event: the corners of the path finder.
enum Corners: Flow {
    enum State: String, Hashable, Sendable, CustomStringConvertible {
        case idle, deciding, left, right, group, inner, looping, bouncing, island, done
        var description: String { rawValue }
    }

    enum Event: FlowEvent, Hashable, CustomStringConvertible {
        case go(Int)
        case poke
        case enter
        case loop
        case finish

        enum Kind: String, Hashable, Sendable, CustomStringConvertible {
            case go, poke, enter, loop, finish
            var description: String { rawValue }
        }

        var kind: Kind {
            switch self {
            case .go: .go
            case .poke: .poke
            case .enter: .enter
            case .loop: .loop
            case .finish: .finish
            }
        }

        var description: String {
            switch self {
            case .go(let n): "go(\(n))"
            case .poke: "poke"
            case .enter: "enter"
            case .loop: "loop"
            case .finish: "finish"
            }
        }
    }

    typealias Effect = String
    typealias Output = String

    static let positive = Guard<Corners>("positive") { event in
        if case .go(let n) = event { n > 0 } else { false }
    }

    /// t0 idle -go-> deciding, t1 idle -poke-> (targetless), t2 idle -enter-> group, t3 idle -loop-> looping,
    /// t4 deciding [positive] -> right, t5 deciding -> left, t6 left -finish-> done, t7 right -finish-> done,
    /// t8 inner -poke-> idle, t9 looping -> bouncing, t10 bouncing -> looping, t11 island -poke-> idle.
    static let definition = FlowDefinition<Corners>("corners", initial: .idle) {
        StateNode(.idle) {
            On(.go, to: .deciding)
            On(.poke, to: nil, effects: ["poked"])
            On(.enter, to: .group)
            On(.loop, to: .looping)
        }
        StateNode(.deciding) {
            Always(guard: positive, to: .right)
            Always(to: .left)
        }
        StateNode(.left) { On(.finish, to: .done) }
        StateNode(.right) { On(.finish, to: .done) }
        StateNode(.group) {
            StateNode(.inner) { On(.poke, to: .idle) }
        }
        StateNode(.looping) { Always(to: .bouncing) }
        StateNode(.bouncing) { Always(to: .looping) }
        StateNode(.island) { On(.poke, to: .idle) }
        Final(.done, output: "done")
    }
}
