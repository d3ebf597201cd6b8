/// What a machine does with an event that no transition of its current state reacts to.
public enum UnhandledEventPolicy: Hashable, Sendable {
    /// The step is ``FlowStepKind/ignored`` and the machine stays where it is.
    case ignore
    /// `send` throws a ``FlowError`` with code ``FlowError/Code/unhandledEvent``.
    case fail
}

/// A flow, declared as a value: its states, transitions, guards and effects.
///
/// A definition is data. It can be inspected (``states``, ``transitions``), validated
/// (``validate()``) and drawn without being run, and any number of ``FlowMachine``s can run it.
/// The hierarchy of states is compiled into flat tables when the definition is built, so nesting
/// costs nothing per event.
///
/// ```swift
/// let flow = FlowDefinition<SignUp>("sign-up", initial: .email) {
///     StateNode(.email, entry: [.show("email")]) {
///         On(.submitEmail, guard: validEmail, to: .password)
///     }
///     StateNode(.password, entry: [.show("password")]) {
///         On(.submitPassword, to: .done)
///     }
///     Final(.done, output: .signedUp)
/// }
/// ```
public struct FlowDefinition<F: Flow>: Sendable {
    /// Everything a definition holds, immutable and shared: a definition is one reference, so copying
    /// it (every machine holds one) costs a retain and a machine stays small.
    @usableFromInline
    final class Storage: Sendable {
        let name: String
        let initial: F.State
        let initialContext: F.Context
        let unhandledEvents: UnhandledEventPolicy
        let states: [StateDeclaration]
        let transitions: [TransitionDeclaration]
        let location: FlowSourceLocation
        let issues: [ValidationIssue]
        @usableFromInline let hasErrors: Bool
        @usableFromInline let table: FlowTable<F>

        init(name: String, initial: F.State, initialContext: F.Context, unhandledEvents: UnhandledEventPolicy,
             states: [StateDeclaration], transitions: [TransitionDeclaration], location: FlowSourceLocation,
             issues: [ValidationIssue], table: FlowTable<F>) {
            self.name = name
            self.initial = initial
            self.initialContext = initialContext
            self.unhandledEvents = unhandledEvents
            self.states = states
            self.transitions = transitions
            self.location = location
            self.issues = issues
            self.hasErrors = issues.contains { $0.severity == .error }
            self.table = table
        }
    }

    @usableFromInline let storage: Storage

    /// The flow's name, used in diagrams, logs and errors.
    public var name: String { storage.name }
    /// The state the machine enters when it starts (if compound, its initial descendants too).
    public var initial: F.State { storage.initial }
    /// The context a machine starts with, unless it is given another one
    /// (``FlowMachine/init(_:context:)``).
    public var initialContext: F.Context { storage.initialContext }
    /// What happens to events that no transition reacts to.
    public var unhandledEvents: UnhandledEventPolicy { storage.unhandledEvents }
    /// Every state, in declaration order (a parent before its children).
    public var states: [StateDeclaration] { storage.states }
    /// Every transition, in declaration order.
    public var transitions: [TransitionDeclaration] { storage.transitions }
    /// Where the definition was written.
    public var location: FlowSourceLocation { storage.location }

    var issues: [ValidationIssue] { storage.issues }
    /// Whether ``issues`` holds an error (computed once: every machine checks it).
    @inlinable var hasErrors: Bool { storage.hasErrors }
    @inlinable var table: FlowTable<F> { storage.table }

    /// Declares a flow with a context, with the result-builder DSL.
    /// - Parameters:
    ///   - name: The flow's name.
    ///   - initial: The state entered on start.
    ///   - context: The context a machine starts with (``initialContext``).
    ///   - unhandledEvents: What to do with events no transition reacts to.
    ///   - body: The flow's states, declared with ``StateNode`` and ``Final``.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    public init(
        _ name: String,
        initial: F.State,
        context: F.Context,
        unhandledEvents: UnhandledEventPolicy = .ignore,
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column,
        @FlowBuilder<F> _ body: () -> [FlowElement<F>]
    ) {
        self.init(name, initial: initial, context: context, unhandledEvents: unhandledEvents, elements: body(),
                  location: FlowSourceLocation(file: fileID, line: line, column: column))
    }

    /// Declares a flow with a context from elements built elsewhere (for example, generated from a file).
    public init(
        _ name: String,
        initial: F.State,
        context: F.Context,
        unhandledEvents: UnhandledEventPolicy = .ignore,
        elements: [FlowElement<F>],
        location: FlowSourceLocation = FlowSourceLocation(file: #fileID, line: #line, column: #column)
    ) {
        let compiled = FlowCompiler<F>(name: name, initial: initial, unhandled: unhandledEvents,
                                       elements: consume elements, location: location).compile()
        storage = Storage(name: name, initial: initial, initialContext: context, unhandledEvents: unhandledEvents,
                          states: compiled.states, transitions: compiled.transitions, location: location,
                          issues: compiled.issues, table: compiled.table)
    }

    /// A flow that starts in several states, one in each of several regions of a parallel state
    /// (SCXML's `<scxml initial="a b">`, for flow files): ``initial`` is the first. States that cannot
    /// be active together are a `conflicting-targets` error.
    package init(
        _ name: String,
        initialStates: [F.State],
        context: F.Context,
        unhandledEvents: UnhandledEventPolicy = .ignore,
        elements: [FlowElement<F>],
        location: FlowSourceLocation
    ) {
        let initial = initialStates[0]
        let compiled = FlowCompiler<F>(name: name, initial: initial, moreInitial: Array(initialStates.dropFirst()),
                                       unhandled: unhandledEvents, elements: consume elements, location: location).compile()
        storage = Storage(name: name, initial: initial, initialContext: context, unhandledEvents: unhandledEvents,
                          states: compiled.states, transitions: compiled.transitions, location: location,
                          issues: compiled.issues, table: compiled.table)
    }

    /// Every problem of the definition at once: errors first, then warnings, each in declaration order.
    public func validate() -> [ValidationIssue] { issues }

    /// Whether the definition has no errors (it may have warnings) and so can be started.
    public var isValid: Bool { !hasErrors }

    /// The child flow each state runs (`nil` for none), by position in ``states``: what the testing
    /// kit's path finder runs to find the events a child's outputs become.
    package var childFlows: [ChildFlow<F>?] { table.childFlows }

    /// The final states whose output is declared as a constant, with that output's label and value, in
    /// declaration order (an output computed from the context or the event is known only by running).
    package var constantOutputs: [(label: String, output: F.Output)] {
        table.outputs.compactMap { rule in rule.flatMap { r in r.constant.map { (r.label, $0) } } }
    }

    /// The declaration of a state, if the definition declares it.
    public func declaration(of state: F.State) -> StateDeclaration? {
        table.index[state].map { states[$0] }
    }

    /// The states that are final, in declaration order.
    public var finalStates: [F.State] { states.filter { $0.kind == .final }.map(\.state) }
}

extension FlowDefinition where F.Context == Void {
    /// Declares a flow with the result-builder DSL.
    /// - Parameters:
    ///   - name: The flow's name.
    ///   - initial: The state entered on start.
    ///   - unhandledEvents: What to do with events no transition reacts to.
    ///   - body: The flow's states, declared with ``StateNode`` and ``Final``.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    public init(
        _ name: String,
        initial: F.State,
        unhandledEvents: UnhandledEventPolicy = .ignore,
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column,
        @FlowBuilder<F> _ body: () -> [FlowElement<F>]
    ) {
        self.init(name, initial: initial, context: (), unhandledEvents: unhandledEvents, elements: body(),
                  location: FlowSourceLocation(file: fileID, line: line, column: column))
    }

    /// Declares a flow from elements built elsewhere (for example, generated from a file).
    public init(
        _ name: String,
        initial: F.State,
        unhandledEvents: UnhandledEventPolicy = .ignore,
        elements: [FlowElement<F>],
        location: FlowSourceLocation = FlowSourceLocation(file: #fileID, line: #line, column: #column)
    ) {
        self.init(name, initial: initial, context: (), unhandledEvents: unhandledEvents, elements: consume elements,
                  location: location)
    }
}

/// Whether a state is a leaf, contains other states, or ends the flow (`StateDeclaration.Kind` of
/// every ``FlowDefinition``, and ``FlowOutline/State/kind``).
public enum FlowStateKind: Hashable, Sendable {
    /// A state without children.
    case atomic
    /// A state with children; entering it enters its initial child.
    case compound
    /// A final state: entering it finishes the flow with an output (inside a parallel state,
    /// completes its region).
    case final
    /// A parallel state: its children are regions, all active together (``Parallel``).
    case parallel
    /// A history pseudo-state (``History``): never active; a transition to it enters what its
    /// parent's active children were when the parent was last left.
    case history
}

extension FlowDefinition {
    /// A state as declared: what it contains, what it does on entry and exit, where it was written.
    public struct StateDeclaration: Sendable {
        /// Whether a state is a leaf, contains other states, or ends the flow: one type for every
        /// flow (``FlowStateKind``), so kinds compare across flows and ``FlowOutline`` needs no flow type.
        public typealias Kind = FlowStateKind

        /// The state.
        public let state: F.State
        /// How diagrams name the state.
        public let label: String
        /// Atomic, compound or final.
        public let kind: Kind
        /// The state that contains this one, if any.
        public let parent: F.State?
        /// The states this one contains, in declaration order.
        public let children: [F.State]
        /// For a compound state, the child entered when the state is entered.
        public let initialChild: F.State?
        /// Effects performed on entry.
        public let entry: [F.Effect]
        /// Effects performed on exit.
        public let exit: [F.Effect]
        /// Effects derived from the context on entry, after ``entry``.
        public let emitOnEntry: [Emit<F>]
        /// Effects derived from the context on exit, after ``exit``.
        public let emitOnExit: [Emit<F>]
        /// Labels of the entry effects, then the names of the entry emits.
        public let entryLabels: [String]
        /// Labels of the exit effects, then the names of the exit emits.
        public let exitLabels: [String]
        /// For a final state, how diagrams describe its output.
        public let outputLabel: String?
        /// The name of the child flow this state runs under a ``Supervisor``, if any.
        public let childFlow: String?
        /// For a history pseudo-state, what it remembers.
        public let history: HistoryDepth?
        /// For a history pseudo-state, the state its default transition targets (entered when the
        /// history remembers nothing).
        public let historyDefault: F.State?
        /// Where the state was declared.
        public let location: FlowSourceLocation
    }

    /// A transition as declared, with labels for diagrams.
    public struct TransitionDeclaration: Sendable {
        /// The state the transition is declared on (it applies to every state inside it too).
        public let source: F.State
        /// The kind of event it reacts to; `nil` for an eventless transition.
        public let event: F.Event.Kind?
        /// The event's label; `nil` for an eventless transition; `after 30s` for a delayed one.
        public let eventLabel: String?
        /// The guard's name, if the transition has a guard.
        public let guardLabel: String?
        /// For a guard made by ``Guard/in(_:)``, the state it asks about; `nil` for any other guard
        /// (a guard of another kind may be named `In(x)` too: this, not the name, says which it is).
        public let guardState: F.State?
        /// The state entered (the first, for a transition with several targets); `nil` for a
        /// targetless transition.
        public let target: F.State?
        /// Every state entered, in the order declared: `[target]`, several for a transition into
        /// several regions of a parallel state, none for a targetless transition.
        public let targets: [F.State]
        /// The context update made when the transition is taken, if any.
        public let update: Update<F>?
        /// Effects performed between the exits and the entries.
        public let effects: [F.Effect]
        /// Effects derived from the context, after ``effects``.
        public let emit: [Emit<F>]
        /// Labels of the effects, then the names of the emits.
        public let effectLabels: [String]
        /// External or internal, as declared (``TransitionType``): an internal transition from a
        /// compound state to its own descendants does not exit its source.
        public let type: TransitionType
        /// Where the transition was declared.
        public let location: FlowSourceLocation
        /// For a delayed transition (``After``), its delay (its ``eventLabel`` reads `after 30s`);
        /// `nil` otherwise.
        public var delay: Duration? = nil

        /// The update's name, if the transition has one.
        public var updateLabel: String? { update?.name }

        /// The label a diagram draws on the edge: `event [guard] {update} / effect, effect`.
        public var label: String {
            var text = eventLabel ?? ""
            if let guardLabel { text += text.isEmpty ? "[\(guardLabel)]" : " [\(guardLabel)]" }
            if let updateLabel { text += text.isEmpty ? "{\(updateLabel)}" : " {\(updateLabel)}" }
            if !effectLabels.isEmpty { text += (text.isEmpty ? "/ " : " / ") + effectLabels.joined(separator: ", ") }
            return text
        }
    }
}
