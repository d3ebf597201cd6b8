import Flowstate

/// A three-level tree of declared children for supervisor tests: Top runs Mid in `busy`, Mid runs
/// Leaf in `running`. Every flow's effects are strings naming what happened, so the recorded effects
/// show the order of entries, exits and teardowns.
enum Leaf: Flow {
    enum State: String, Hashable, Sendable, CustomStringConvertible {
        case a, b, done
        var description: String { rawValue }
    }
    enum Event: FlowEvent, CaseIterable { case next, fail }
    typealias Effect = String
    typealias Output = String

    static let definition = FlowDefinition<Leaf>("leaf", initial: .a) {
        StateNode(.a, entry: ["enter leaf.a"], exit: ["exit leaf.a"]) {
            On(.next, to: .b)
            On(.fail, to: nil, effects: ["boom"])
        }
        StateNode(.b, entry: ["enter leaf.b"], exit: ["exit leaf.b"]) {
            On(.next, to: .done)
            On(.fail, to: nil, effects: ["boom"])
        }
        Final(.done, output: "leaf output")
    }
}

enum Mid: Flow {
    enum State: String, Hashable, Sendable, CustomStringConvertible {
        case idle, running, waiting, done
        var description: String { rawValue }
    }
    enum Event: FlowEvent, CaseIterable { case go, leafDone, leafFailed, back, finish, fail }
    typealias Effect = String
    typealias Output = String

    static func definition(policy: FailurePolicy = .escalate, mapFailure: Bool = true) -> FlowDefinition<Mid> {
        var failure: (@Sendable (SupervisionFailure) -> Mid.Event?)?
        if mapFailure { failure = { _ in Mid.Event.leafFailed } }
        let child = ChildFlow<Mid>(Leaf.definition, policy: policy, failure: failure, output: { _ in .leafDone })
        return FlowDefinition("mid", initial: .idle) {
            StateNode(.idle, entry: ["enter mid.idle"], exit: ["exit mid.idle"]) {
                On(.go, to: .running)
            }
            StateNode(.running, runs: child, entry: ["enter mid.running"], exit: ["exit mid.running"]) {
                On(.leafDone, to: .waiting)
                On(.leafFailed, to: .waiting, effects: ["mid saw failure"])
                On(.back, to: .idle)
            }
            StateNode(.waiting, entry: ["enter mid.waiting"], exit: ["exit mid.waiting"]) {
                On(.finish, to: .done)
                On(.go, to: .running)
            }
            Final(.done, output: "mid output")
        }
    }
}

enum Top: Flow {
    enum State: String, Hashable, Sendable, CustomStringConvertible {
        case home, busy, over
        var description: String { rawValue }
    }
    enum Event: FlowEvent, CaseIterable { case go, midDone, cancel, childFailed, fail }
    typealias Effect = String
    typealias Output = String

    static func definition(midPolicy: FailurePolicy = .escalate, leafPolicy: FailurePolicy = .escalate,
                           mapLeafFailure: Bool = true) -> FlowDefinition<Top> {
        let child = ChildFlow<Top>(Mid.definition(policy: leafPolicy, mapFailure: mapLeafFailure),
                                   policy: midPolicy, failure: { _ in .childFailed }, output: { _ in .midDone })
        return FlowDefinition("top", initial: .home) {
            StateNode(.home, entry: ["enter top.home"], exit: ["exit top.home"]) {
                On(.go, to: .busy)
                On(.fail, to: nil, effects: ["boom"])
            }
            StateNode(.busy, runs: child, entry: ["enter top.busy"], exit: ["exit top.busy"]) {
                On(.midDone, to: .home)
                On(.cancel, to: .home)
                On(.childFailed, to: .home, effects: ["top saw failure"])
                On(.fail, to: nil, effects: ["boom"])
            }
            Final(.over, output: "top output")
        }
    }
}

/// Records every effect with the machine that produced it, and throws on "boom".
final class EffectLog {
    struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }
    var entries: [(origin: MachineID, effect: String)] = []
    var effects: [String] { entries.map(\.effect) }
    var failBoom = true

    func handler<F: Flow>() -> EffectHandler<F> where F.Effect == String {
        { [unowned self] effect, context in
            entries.append((context.origin, effect))
            if effect == "boom" && failBoom { throw Boom() }
        }
    }
}
