import Flowstate

/// A parent whose `working` state runs a worker (a declared child whose effects are mapped to the
/// parent's): the tree of the tree tester's and the supervisor generator's tests.
enum Parent: Flow {
    enum State: String, Hashable, Sendable, CustomStringConvertible {
        case idle, working, done
        var description: String { rawValue }
    }

    enum Event: String, FlowEvent, CustomStringConvertible {
        case go, childDone, childFailed, finish
        var description: String { rawValue }
    }

    typealias Effect = String
    typealias Output = String

    /// idle -go-> working (runs a worker); working -childDone/childFailed-> idle; working -finish-> done.
    static func definition(policy: FailurePolicy = .escalate, mapsFailure: Bool = false) -> FlowDefinition<Parent> {
        var failure: (@Sendable (SupervisionFailure) -> Event?)?
        if mapsFailure { failure = { _ in Event.childFailed } }
        let worker = ChildFlow<Parent>(Worker.definition, policy: policy, effects: { "worker: \($0)" },
                                       failure: failure, output: { _ in .childDone })
        return FlowDefinition<Parent>("parent", initial: .idle) {
            StateNode(.idle, entry: ["show idle"]) { On(.go, to: .working) }
            StateNode(.working, runs: worker,
                      entry: ["show working"]) {
                On(.childDone, to: .idle)
                On(.childFailed, to: .idle, effects: ["worker failed"])
                On(.finish, to: .done)
            }
            Final(.done, output: "finished", entry: ["bye"])
        }
    }
}

/// A worker: `step` ticks, `complete` finishes, `fail` performs "boom", which test handlers throw on.
enum Worker: Flow {
    enum State: String, Hashable, Sendable, CustomStringConvertible {
        case busy, finished
        var description: String { rawValue }
    }

    enum Event: String, FlowEvent, CustomStringConvertible {
        case step, complete, fail
        var description: String { rawValue }
    }

    typealias Effect = String
    typealias Output = String

    static let definition = FlowDefinition<Worker>("worker", initial: .busy) {
        StateNode(.busy, entry: ["start"], exit: ["stop"]) {
            On(.step, to: nil, effects: ["tick"])
            On(.complete, to: .finished)
            On(.fail, to: nil, effects: ["boom"])
        }
        Final(.finished, output: "ok")
    }
}

struct Boom: Error {}

/// A flow that loads with an async effect: idle -load-> loading (effect "fetch") -loaded-> shown.
enum Fetch: Flow {
    enum State: String, Hashable, Sendable, CustomStringConvertible {
        case idle, loading, shown
        var description: String { rawValue }
    }

    enum Event: String, FlowEvent, CustomStringConvertible {
        case load, loaded
        var description: String { rawValue }
    }

    typealias Effect = String
    typealias Output = Never

    static let definition = FlowDefinition<Fetch>("fetch", initial: .idle) {
        StateNode(.idle) { On(.load, to: .loading, effects: ["fetch"]) }
        StateNode(.loading) { On(.loaded, to: .shown) }
        StateNode(.shown)
    }
}
