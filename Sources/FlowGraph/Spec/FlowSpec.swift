import Flowstate

/// A flow stored as a file: the versioned JSON flow spec (`"flowspec": 1`, documented in
/// `docs/flowspec.md`).
///
/// Any Swift definition writes its spec with one call (``init(_:)``, ``json()``); reading a spec back
/// (``parse(_:file:)``) and turning it into a definition (``definition(guards:)``) gives the same
/// graph. Every problem in a file is reported with its `file:line:column`.
public struct FlowSpec: Sendable {
    /// A state, with the states and transitions it contains.
    public struct State: Sendable {
        /// The state's name.
        public var name: String
        /// Whether the state is final.
        public var isFinal = false
        /// A final state's output.
        public var output: String?
        /// For a compound state, the child entered first (default: the first child).
        public var initial: String?
        /// The name of the child flow the state runs under a supervisor.
        public var child: String?
        /// Entry effects.
        public var entry: [String] = []
        /// Exit effects.
        public var exit: [String] = []
        /// The state's transitions.
        public var transitions: [Transition] = []
        /// The states it contains.
        public var states: [State] = []
        /// Where the state was written, for files.
        public var location: FlowSourceLocation?

        /// Creates a state.
        public init(name: String) { self.name = name }
    }

    /// A transition.
    public struct Transition: Sendable {
        /// The event; `nil` for an eventless transition.
        public var event: String?
        /// The guard's name.
        public var guardName: String?
        /// The target; `nil` for a targetless transition.
        public var target: String?
        /// Effects.
        public var effects: [String] = []
        /// Where the transition was written, for files.
        public var location: FlowSourceLocation?

        /// Creates a transition.
        public init(event: String?, guardName: String? = nil, target: String?, effects: [String] = []) {
            self.event = event
            self.guardName = guardName
            self.target = target
            self.effects = effects
        }
    }

    /// The spec format's version this library reads and writes.
    public static let version = 1

    /// The flow's name.
    public var name: String
    /// The initial state's name.
    public var initial: String
    /// The top-level states.
    public var states: [State]
    /// Where the spec was read from.
    public var location: FlowSourceLocation?

    /// Creates a spec.
    public init(name: String, initial: String, states: [State]) {
        self.name = name
        self.initial = initial
        self.states = states
    }

    /// The spec of any definition, by its labels: states, transitions (event, guard, target, effects),
    /// nesting, entry and exit effects, final outputs, child flows.
    public init<F: Flow>(_ definition: FlowDefinition<F>) {
        var index: [F.State: Int] = [:]
        for (i, state) in definition.states.enumerated() { index[state.state] = i }
        var declaredOn: [Int: [FlowDefinition<F>.TransitionDeclaration]] = [:]  // grouped once: linear in size
        for transition in definition.transitions {
            if let source = index[transition.source] { declaredOn[source, default: []].append(transition) }
        }
        func make(_ i: Int) -> State {
            let declaration = definition.states[i]
            var state = State(name: declaration.label)
            state.isFinal = declaration.kind == .final
            state.output = declaration.outputLabel
            state.initial = declaration.initialChild.map { "\($0)" }
            if let first = declaration.children.first, declaration.initialChild == first { state.initial = nil }
            state.child = declaration.childFlow
            state.entry = declaration.entryLabels
            state.exit = declaration.exitLabels
            state.transitions = (declaredOn[i] ?? []).map { t in
                Transition(event: t.eventLabel, guardName: t.guardLabel, target: t.target.map { "\($0)" },
                           effects: t.effectLabels)
            }
            state.states = declaration.children.compactMap { index[$0] }.map(make)
            return state
        }
        self.init(name: definition.name, initial: "\(definition.initial)",
                  states: definition.states.indices.filter { definition.states[$0].parent == nil }.map(make))
    }

    /// A runnable definition of the spec, with string states, events and effects. Guards evaluate to
    /// `guards[name]`, true when not given. Declarations carry the file's locations, so validation
    /// issues point into the file. Child flows are recorded by name only (a catalog resolves them).
    public func definition(guards: [String: Bool] = [:]) -> FlowDefinition<StringFlow> {
        func loc(_ location: FlowSourceLocation?) -> FlowSourceLocation {
            location ?? FlowSourceLocation(file: name, line: 0, column: 0)
        }
        func element(_ state: State) -> FlowElement<StringFlow> {
            let l = loc(state.location)
            // Child states first, then the state's own transitions: the order "cancel from any step"
            // is usually written in, and the order the transitions keep in graphs.
            let body = state.states.map(element) + state.transitions.map { t -> FlowElement<StringFlow> in
                let tl = loc(t.location)
                let condition = t.guardName.map { name in Guard<StringFlow>(name, evaluate: { _, _ in guards[name] ?? true }) }
                if let event = t.event {
                    return On<StringFlow>(event, guard: condition, to: t.target, effects: t.effects,
                                          fileID: tl.file, line: tl.line, column: tl.column).element
                }
                // The reader refuses an eventless transition without a target.
                return Always<StringFlow>(guard: condition, to: t.target ?? state.name, effects: t.effects,
                                          fileID: tl.file, line: tl.line, column: tl.column).element
            }
            if state.isFinal {
                return Final<StringFlow>(state.name, output: state.output ?? state.name, entry: state.entry,
                                         fileID: l.file, line: l.line, column: l.column) { body }.element
            }
            return StateNode<StringFlow>(state.name, initial: state.initial, entry: state.entry, exit: state.exit,
                                         fileID: l.file, line: l.line, column: l.column) { body }.element
        }
        return FlowDefinition(name, initial: initial, elements: states.map(element), location: loc(location))
    }
}
