/// What the engine reads, beyond the per-leaf moves, to run a flow with parallel states by SCXML's
/// algorithm (``FlowMachine``'s configuration is then a set): the transitions declared on each state,
/// and each state's entry and exit effects and each transition's own effects as ranges of the table's
/// effects.
struct FlowParallelTable<F: Flow>: Sendable {
    /// A declared transition, as the algorithm reads it.
    struct CompiledTransition: Sendable {
        /// The state it is declared on.
        let source: Int32
        /// The state it targets, or -1 for a targetless transition.
        let target: Int32
        /// The targets after `target`, for a transition into several regions.
        let moreTargets: [Int32]
        /// For a completion transition (`On(done:)`), the state whose completion it waits for, else -1.
        let doneOf: Int32
        /// Index into the table's guards, or -1.
        let guardIndex: Int32
        /// Its position among the definition's transitions.
        let declaration: Int32
        /// Its own effects, a range of the table's effects.
        let effects: Range<Int>
        /// Whether it has an ``Update``.
        let updates: Bool
        /// Whether it is declared internal (``TransitionType/internal``): the hierarchy's domain
        /// (``FlowHierarchy/transitionDomain(of:history:)``) decides whether that keeps its source.
        let isInternal: Bool
        /// For a delayed transition (``After``), its delay: it is taken only when its timer fires.
        var delay: Duration? = nil
    }

    /// The transitions, grouped by source state, each state's in declaration order.
    let transitions: [CompiledTransition]
    /// The event kind of each transition in ``transitions`` (`nil`: eventless or completion).
    let kinds: [F.Event.Kind?]
    /// The transitions declared on state `s` are `transitions[ranges[s]..<ranges[s + 1]]`.
    let ranges: [Int]
    /// Each state's entry effects, a range of the table's effects.
    let entries: [Range<Int>]
    /// Each state's exit effects, a range of the table's effects.
    let exits: [Range<Int>]
    /// For each guard, the state an ``Guard/in(_:)`` guard asks about, else -1.
    let guardStates: [Int32]
    /// Whether entering each state finishes the flow: a final state with no parallel ancestor.
    let finishes: [Bool]
    /// The states the flow starts in: its initial state, then any more it declares (one in each of
    /// several regions of a parallel state).
    let initialStates: [Int32]
    /// Whether some transition is delayed: entering and exiting states then arms and cancels timers.
    var hasDelays: Bool = false
}
