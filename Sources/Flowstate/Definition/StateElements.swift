// The elements that declare states: StateNode, Parallel, History and Final.

/// A state of the flow, optionally containing child states (a compound state) and the transitions
/// that leave it.
///
/// A transition declared on a compound state applies to every state inside it, unless the inner
/// state handles the event first: this is how "cancel from any step" is written once.
public struct StateNode<F: Flow> {
    /// The element this node contributes to the definition.
    public let element: FlowElement<F>

    /// Declares a state.
    /// - Parameters:
    ///   - state: The state.
    ///   - initial: For a compound state, the child entered when the state is entered; defaults to
    ///     the first child state declared.
    ///   - entry: Effects performed when the state is entered.
    ///   - exit: Effects performed when the state is left.
    ///   - emitOnEntry: Effects derived from the context and the event when the state is entered,
    ///     after `entry`.
    ///   - emitOnExit: Effects derived from the context and the event when the state is left, after `exit`.
    ///   - child: A child flow that a ``Supervisor`` runs while this state is active: spawned when the
    ///     state is entered, torn down when it is left, its output delivered to this flow as an event.
    ///   - body: The state's transitions and child states.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    public init(
        _ state: F.State,
        initial: F.State? = nil,
        runs child: ChildFlow<F>? = nil,
        entry: [F.Effect] = [],
        exit: [F.Effect] = [],
        emitOnEntry: [Emit<F>] = [],
        emitOnExit: [Emit<F>] = [],
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column,
        @FlowBuilder<F> _ body: () -> [FlowElement<F>] = { [] }
    ) {
        element = FlowElement(node: .state(.init(
            state: state, initial: initial, entry: entry, exit: exit, entryEmits: emitOnEntry, exitEmits: emitOnExit,
            output: nil, child: child, location: FlowSourceLocation(file: fileID, line: line, column: column)
        )), children: body())
    }
}

/// A parallel state: its child states are **regions**, all active at once, each with its own
/// current state; every event is offered to every region (SCXML's `<parallel>`).
///
/// Each region is a ``StateNode`` (usually compound, entering its initial child). A transition
/// declared on the parallel state itself applies whatever the regions are in, and leaving the parallel
/// state from inside one region exits every region. A ``Final`` state inside a region does not finish
/// the flow: it completes its region, and once every region is complete the parallel state is
/// **done**, which a transition declared with `On(done:)` reacts to.
///
/// ```swift
/// Parallel(.playing) {
///     StateNode(.audio, initial: .muted) {
///         StateNode(.muted) { On(.toggleSound, to: .audible) }
///         StateNode(.audible) { On(.toggleSound, to: .muted) }
///     }
///     StateNode(.video, initial: .small) {
///         StateNode(.small) { On(.toggleSize, to: .fullScreen) }
///         StateNode(.fullScreen) { On(.toggleSize, to: .small) }
///     }
///     On(.stop, to: .idle)
/// }
/// ```
public struct Parallel<F: Flow> {
    /// The element this node contributes to the definition.
    public let element: FlowElement<F>

    /// Declares a parallel state.
    /// - Parameters:
    ///   - state: The state.
    ///   - child: A child flow that a ``Supervisor`` runs while this state is active.
    ///   - entry: Effects performed when the state is entered (before its regions are entered).
    ///   - exit: Effects performed when the state is left (after its regions are left).
    ///   - emitOnEntry: Effects derived from the context and the event on entry, after `entry`.
    ///   - emitOnExit: Effects derived from the context and the event on exit, after `exit`.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    ///   - body: The regions (``StateNode``s) and the transitions declared on the parallel state.
    public init(
        _ state: F.State,
        runs child: ChildFlow<F>? = nil,
        entry: [F.Effect] = [],
        exit: [F.Effect] = [],
        emitOnEntry: [Emit<F>] = [],
        emitOnExit: [Emit<F>] = [],
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column,
        @FlowBuilder<F> _ body: () -> [FlowElement<F>]
    ) {
        element = FlowElement(node: .state(.init(
            state: state, initial: nil, entry: entry, exit: exit, entryEmits: emitOnEntry, exitEmits: emitOnExit,
            output: nil, child: child, isParallel: true,
            location: FlowSourceLocation(file: fileID, line: line, column: column)
        )), children: body())
    }
}

/// What a history pseudo-state remembers of its parent's active states when the parent is left
/// (SCXML's `<history type="shallow|deep">`).
public enum HistoryDepth: String, Hashable, Sendable, CaseIterable {
    /// The parent's active child: entering the history enters that child by its default entry.
    case shallow
    /// The parent's active atomic descendants: entering the history enters exactly them again.
    case deep
}

/// A history pseudo-state: declared inside a compound state, it is never active itself; a transition
/// that targets it enters what its parent's active children were when the parent was last left
/// (SCXML's `<history>`), or, before the parent was ever left, the history's default target.
///
/// ```swift
/// StateNode(.checkout, initial: .cart) {
///     History(.resume, .shallow, default: .cart)
///     StateNode(.cart) { On(.next, to: .payment) }
///     StateNode(.payment) { On(.next, to: .review) }
///     StateNode(.review)
///     On(.needsLogin, to: .login)
/// }
/// StateNode(.login) { On(.loggedIn, to: .resume) }
/// ```
///
/// A ``HistoryDepth/shallow`` history remembers the parent's active child (entered again by its
/// default entry); a ``HistoryDepth/deep`` one remembers the parent's active atomic descendants,
/// entered again exactly. What a history remembers is part of the machine's state: a restored
/// machine is given it back (`FlowMachine(_:resumingIn:history:context:)`).
public struct History<F: Flow> {
    /// The element this node contributes to the definition.
    public let element: FlowElement<F>

    /// Declares a history pseudo-state.
    ///
    /// A history takes no transitions of its own: anything declared in `body` is reported by
    /// validation (the body exists so that flows read from files can say what they say, and be told
    /// why it is wrong).
    /// - Parameters:
    ///   - state: The history's name, a value of the flow's state type (transitions target it).
    ///   - depth: What it remembers: the parent's active child, or its active atomic descendants.
    ///   - defaultTarget: The state entered when the parent was never left: for a shallow history, a
    ///     child of the parent; for a deep one, any state inside the parent.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    ///   - body: Nothing, for a valid flow.
    public init(
        _ state: F.State,
        _ depth: HistoryDepth = .shallow,
        default defaultTarget: F.State,
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column,
        @FlowBuilder<F> _ body: () -> [FlowElement<F>] = { [] }
    ) {
        element = FlowElement(node: .state(.init(
            state: state, initial: defaultTarget, entry: [], exit: [], output: nil, history: depth,
            location: FlowSourceLocation(file: fileID, line: line, column: column)
        )), children: body())
    }
}
