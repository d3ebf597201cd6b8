/// A definition's structure as labels only: what drawing needs, whatever the flow's types.
///
/// A ``Supervisor`` gives the outline of each live machine (``Supervisor/outline(of:)``), so a whole
/// tree of flows of different types can be drawn.
public struct FlowOutline: Hashable, Sendable {
    /// A state.
    public struct State: Hashable, Sendable {
        /// Its label.
        public var label: String
        /// Atomic, compound or final.
        public var kind: FlowStateKind
        /// The index (in ``FlowOutline/states``) of the state containing it.
        public var parent: Int?
        /// The child flow it runs under a supervisor, if any.
        public var childFlow: String?
        /// For a compound state, the index of the child entered first.
        public var initial: Int? = nil
        /// Labels of its entry effects.
        public var entry: [String] = []
        /// Labels of its exit effects.
        public var exit: [String] = []
        /// For a final state, its output's label.
        public var output: String? = nil
        /// For a history pseudo-state (kind ``FlowStateKind/history``), what it
        /// remembers.
        public var history: HistoryDepth? = nil
        /// For a history pseudo-state, the index of its default transition's target.
        public var historyDefault: Int? = nil
        /// For a state that runs a child flow: the event each of the child's outputs becomes in this
        /// flow, for the outputs the child declares as constants (see ``ChildOutput``).
        public var childOutputs: [ChildOutput] = []
    }

    /// An output of a state's child flow and the event it becomes in the flow that runs it: what a
    /// `ChildFlow`'s `output:` mapping gives for each output the child's final states declare as a
    /// constant. (An output computed from the child's context or event is known only by running the
    /// child, and is not listed.)
    public struct ChildOutput: Hashable, Sendable {
        /// The output's label, as the child's final state draws it.
        public var output: String
        /// The label of the event's kind; `nil`: the output reaches the flow as no event.
        public var event: String?

        /// Creates a pair.
        public init(output: String, event: String?) {
            self.output = output
            self.event = event
        }
    }

    /// A transition.
    public struct Transition: Hashable, Sendable {
        /// The index of the state it is declared on.
        public var source: Int
        /// The index of its target; `nil` for a targetless transition, or one whose target is undeclared.
        public var target: Int?
        /// Whether it is targetless (performs effects without leaving its state).
        public var targetless: Bool
        /// Its event's label; `nil` when eventless.
        public var event: String?
        /// `event [guard] {update} / effects`.
        public var label: String
        /// The guard's name, if any.
        public var guardLabel: String? = nil
        /// Labels of its effects, then the names of its emits.
        public var effects: [String] = []
        /// The name of its context update, if any.
        public var update: String? = nil
        /// The indices of its targets after ``target``, for a transition into several regions of a
        /// parallel state (`On(_:to: [State])`); empty otherwise.
        public var moreTargets: [Int] = []
        /// External or internal, as declared (``TransitionType``).
        public var type: TransitionType = .external
        /// For a delayed transition (``After``), its delay (``event`` and ``label`` read `after 30s`).
        public var delay: Duration? = nil
        /// For a guard made by ``Guard/in(_:)``, the index of the state it asks about.
        public var guardState: Int? = nil
    }

    /// The flow's name.
    public var name: String
    /// The index of the initial state, if declared.
    public var initial: Int?
    /// The states, in declaration order.
    public var states: [State]
    /// The transitions, in declaration order.
    public var transitions: [Transition]
}

extension FlowDefinition {
    /// The definition's structure as labels.
    public var outline: FlowOutline {
        var index: [F.State: Int] = [:]
        for (i, state) in states.enumerated() { index[state.state] = i }
        let childFlows = self.childFlows
        return FlowOutline(
            name: name,
            initial: index[initial],
            states: states.enumerated().map { i, state in
                .init(label: state.label, kind: state.kind, parent: state.parent.flatMap { index[$0] },
                      childFlow: state.childFlow, initial: state.initialChild.flatMap { index[$0] },
                      entry: state.entryLabels, exit: state.exitLabels, output: state.outputLabel,
                      history: state.history, historyDefault: state.historyDefault.flatMap { index[$0] },
                      childOutputs: i < childFlows.count ? childFlows[i]?.outputEvents() ?? [] : [])
            },
            transitions: transitions.compactMap { transition in
                guard let source = index[transition.source] else { return nil }
                return .init(source: source, target: transition.target.flatMap { index[$0] },
                             targetless: transition.target == nil, event: transition.eventLabel,
                             label: transition.label, guardLabel: transition.guardLabel,
                             effects: transition.effectLabels, update: transition.updateLabel,
                             moreTargets: transition.targets.dropFirst().compactMap { index[$0] },
                             type: transition.type, delay: transition.delay,
                             guardState: transition.guardState.flatMap { index[$0] })
            })
    }
}
