import Flowstate

/// A machine to supervise, in trees of any shape: two states with entry and exit effects, a finishing
/// event and a failing one. `next` goes back and forth between `a` and `b` with the effect "act";
/// `finish` (from `a`) ends in `done`, whose output is "done"; `fail` performs "boom", which test
/// handlers throw on. Shared by the project's supervisor model test (`SupervisorModelTests`,
/// FlowstateTests) and the testing kit's tree tests (`SupervisorGenTests`, `TreeTesterTests`,
/// FlowTestingTests).
public enum Node: Flow {
    /// The states.
    public enum State: String, Hashable, Sendable, CustomStringConvertible {
        case a, b, done
        /// The raw value.
        public var description: String { rawValue }
    }

    /// The events.
    public enum Event: String, FlowEvent, CaseIterable, CustomStringConvertible {
        case next, finish, fail
        /// The raw value.
        public var description: String { rawValue }
    }

    /// Effects are strings.
    public typealias Effect = String
    /// The final state's output, "done".
    public typealias Output = String

    /// The flow, named "node".
    public static let definition = definition(named: "node")

    /// The flow under another name (a `SupervisorUniverse` tells its flows apart by name).
    public static func definition(named name: String) -> FlowDefinition<Node> {
        FlowDefinition<Node>(name, initial: .a) {
            StateNode(.a, entry: ["in a"], exit: ["out a"]) {
                On(.next, to: .b, effects: ["act"])
                On(.finish, to: .done)
                On(.fail, to: nil, effects: ["boom"])
            }
            StateNode(.b, entry: ["in b"], exit: ["out b"]) {
                On(.next, to: .a, effects: ["act"])
                On(.fail, to: nil, effects: ["boom"])
            }
            Final(.done, output: "done")
        }
    }
}
