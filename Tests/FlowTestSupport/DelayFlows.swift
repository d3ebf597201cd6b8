import Flowstate

/// Two routes to one timer: `a` reaches `c` directly (x) or through `b` (y, z); `b` goes back to `a`
/// after 5 s; `c` goes to `d` after 1 s. `c`'s timer has one generation on the first route and another
/// on the second. Shared by the engine's and the path finder's delay regressions.
public enum DelayChain: Flow {
    /// The states.
    public enum State: Hashable, Sendable { case a, b, c, d }
    /// The events.
    public enum Event: FlowEvent, Hashable {
        /// Its own kind.
        public typealias Kind = Self
        case x, y, z
    }
    /// No effects.
    public typealias Effect = Never
    /// No output.
    public typealias Output = Void

    /// The flow.
    public static let definition = FlowDefinition<DelayChain>("chain", initial: .a) {
        StateNode(.a) {
            On(.x, to: .c)
            On(.y, to: .b)
        }
        StateNode(.b) {
            After(.seconds(5), to: .a)
            On(.z, to: .c)
        }
        StateNode(.c) { After(.seconds(1), to: .d) }
        Final(.d)
    }
}
