/// One piece of a flow definition: a state (with what it contains) or a transition.
///
/// You do not create elements directly: ``StateNode``, ``Final``, ``On`` and ``Always`` make them,
/// inside a ``FlowBuilder`` block or in an array passed to `FlowDefinition.init(_:initial:unhandledEvents:elements:location:)`.
public struct FlowElement<F: Flow>: Sendable {
    enum Node: Sendable {
        case state(StateData)
        case transition(TransitionData)
    }

    struct StateData: Sendable {
        var state: F.State
        var initial: F.State?
        var entry: [F.Effect]
        var exit: [F.Effect]
        var entryEmits: [Emit<F>] = []
        var exitEmits: [Emit<F>] = []
        var output: OutputRule<F>?
        var child: ChildFlow<F>? = nil
        /// Whether the state is parallel (``Parallel``): its child states are regions, all active together.
        var isParallel = false
        /// For a history pseudo-state (``History``), what it remembers; its default target is `initial`.
        var history: HistoryDepth? = nil
        var location: FlowSourceLocation
    }

    struct TransitionData: Sendable {
        var event: F.Event.Kind?
        var eventLabel: String?
        var guardCondition: Guard<F>?
        var target: F.State?
        var update: Update<F>? = nil
        var effects: [F.Effect]
        var emits: [Emit<F>] = []
        /// For a completion transition (`On(done:)`), the state whose completion it reacts to.
        var doneOf: F.State? = nil
        /// The targets after `target`, for a transition into several regions of a parallel state.
        var moreTargets: [F.State] = []
        /// External (the default) or internal: whether a transition from a compound state to its own
        /// descendants exits and re-enters its source.
        var type: TransitionType = .external
        /// For a delayed transition (``After``), how long its state must stay active before it is taken.
        var delay: Duration? = nil
        var location: FlowSourceLocation
    }

    let node: Node
    /// For a state, the elements declared inside it; `nil` when there are none.
    private var nested: Nested?

    init(node: Node, children: [FlowElement<F>] = []) {
        self.node = node
        self.nested = children.isEmpty ? nil : Nested(children)
    }

    /// For a state, the elements declared inside it, in declaration order.
    var children: [FlowElement<F>] { nested?.elements ?? [] }

    /// Whether the element is a state with elements declared inside it.
    var hasChildren: Bool { nested != nil }

    /// A state's children, boxed so that a deep tree is torn down by a loop: the default
    /// destruction of nested arrays of elements recurses once per level, and a tree some tens of
    /// thousands of states deep would overflow a thread's stack.
    final class Nested: @unchecked Sendable {
        // @unchecked: `elements` is only written in `init` and in `deinit`, when nothing else can
        // see the box.
        var elements: [FlowElement<F>]

        init(_ elements: [FlowElement<F>]) { self.elements = elements }

        deinit {
            guard elements.contains(where: { $0.nested != nil }) else { return }
            var pending: [FlowElement<F>] = []
            swap(&pending, &elements)
            while var element = pending.popLast() {
                // Take the element's children if it is their last owner: the element is then
                // destroyed childless, so no destructor called from this loop recurses.
                guard var box = element.nested else { continue }
                element.nested = nil
                if isKnownUniquelyReferenced(&box) {
                    pending.append(contentsOf: box.elements)
                    box.elements = []
                }
            }
        }
    }
}

/// How a final state computes the flow's output.
@usableFromInline
struct OutputRule<F: Flow>: Sendable {
    let label: String
    @usableFromInline let compute: @Sendable (F.Context, F.Event?) -> F.Output
    /// The output, when the final state declares it as a constant (what exporting a child's
    /// output-to-event mapping can evaluate without running the child).
    var constant: F.Output? = nil
}

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

/// Whether a transition from a compound state to its own descendants leaves its source (SCXML's
/// `<transition type="external|internal">`).
///
/// An **external** transition (the default) exits every active state below its domain and enters its
/// targets from there: a transition declared on a compound state that targets one of its own
/// descendants exits the compound state and enters it again, performing its exit and entry effects.
/// An **internal** one whose source is a compound state and whose every target is a proper
/// descendant of the source has the source as its domain: the source is neither exited nor entered
/// again, only the states inside it change (a sheet moves between its steps without being dismissed
/// and presented again). Anywhere else (an atomic or parallel source, a target outside the source, the
/// source itself, no target) an internal transition behaves as an external one, and validation warns
/// (``ValidationIssue/Kind/ineffectiveInternal``).
///
/// ```swift
/// StateNode(.sheet, initial: .name, entry: [.present], exit: [.dismiss]) {
///     StateNode(.name) { On(.next, to: .email) }
///     StateNode(.email) { On(.next, to: .done) }
///     StateNode(.done)
///     On(.restart, to: .name, type: .internal)
///     On(.close, to: .home)
/// }
/// ```
public enum TransitionType: String, Hashable, Sendable, CaseIterable {
    /// Exits and re-enters the source when it targets the source's descendants (SCXML's default).
    case external
    /// Does not exit its compound source when every target lies inside it.
    case `internal`
}

/// A final state: entering it finishes the flow with an output.
public struct Final<F: Flow> {
    /// The element this node contributes to the definition.
    public let element: FlowElement<F>

    /// Declares a final state whose output is a constant.
    ///
    /// A final state takes no transitions: anything declared in `body` is reported by validation
    /// (the body exists so that flows read from files can say what they say, and be told why it is wrong).
    public init(
        _ state: F.State,
        output: F.Output,
        entry: [F.Effect] = [],
        emitOnEntry: [Emit<F>] = [],
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column,
        @FlowBuilder<F> _ body: () -> [FlowElement<F>] = { [] }
    ) {
        self.init(state, rule: OutputRule(label: String(describing: output), compute: { _, _ in output }, constant: output),
                  entry: entry, emitOnEntry: emitOnEntry, body: body(),
                  location: FlowSourceLocation(file: fileID, line: line, column: column))
    }

    /// Declares a final state whose output is computed from the event that reached it
    /// (`nil` when the flow finishes while starting).
    /// - Parameters:
    ///   - state: The state.
    ///   - outputLabel: How diagrams describe the output, for example `signedUp(user)`.
    ///   - entry: Effects performed on entry.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    ///   - output: Computes the output from the event.
    public init(
        _ state: F.State,
        outputLabel: String,
        entry: [F.Effect] = [],
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column,
        output: @escaping @Sendable (F.Event?) -> F.Output
    ) {
        self.init(state, rule: OutputRule(label: outputLabel, compute: { _, event in output(event) }),
                  entry: entry, emitOnEntry: [], body: [],
                  location: FlowSourceLocation(file: fileID, line: line, column: column))
    }

    /// Declares a final state whose output is computed from the flow's context and the event that
    /// reached it (`nil` when the flow finishes while starting).
    /// - Parameters:
    ///   - state: The state.
    ///   - outputLabel: How diagrams describe the output, for example `signedUp(email)`.
    ///   - entry: Effects performed on entry.
    ///   - emitOnEntry: Effects derived from the context and the event on entry, after `entry`.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    ///   - output: Computes the output from the context (after the step's updates) and the event.
    public init(
        _ state: F.State,
        outputLabel: String,
        entry: [F.Effect] = [],
        emitOnEntry: [Emit<F>] = [],
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column,
        output: @escaping @Sendable (F.Context, F.Event?) -> F.Output
    ) {
        self.init(state, rule: OutputRule(label: outputLabel, compute: output),
                  entry: entry, emitOnEntry: emitOnEntry, body: [],
                  location: FlowSourceLocation(file: fileID, line: line, column: column))
    }

    private init(_ state: F.State, rule: OutputRule<F>, entry: [F.Effect], emitOnEntry: [Emit<F>],
                 body: [FlowElement<F>], location: FlowSourceLocation) {
        element = FlowElement(node: .state(.init(
            state: state, initial: nil, entry: entry, exit: [], entryEmits: emitOnEntry, output: rule,
            location: location
        )), children: body)
    }
}

extension Final where F.Output == Void {
    /// Declares a final state of a flow that has no output.
    public init(
        _ state: F.State,
        entry: [F.Effect] = [],
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column
    ) {
        self.init(state, output: (), entry: entry, fileID: fileID, line: line, column: column)
    }
}

/// A transition taken when an event of a given kind arrives and its guard, if any, holds.
public struct On<F: Flow> {
    /// The element this node contributes to the definition.
    public let element: FlowElement<F>

    /// Declares a transition.
    /// - Parameters:
    ///   - event: The kind of event the transition reacts to.
    ///   - guardCondition: A predicate that must hold for the transition to be taken.
    ///   - target: The state entered. `nil` makes a targetless transition: its effects are performed
    ///     and the machine stays where it is, without exiting or entering anything.
    ///   - type: ``TransitionType/internal`` keeps a compound source active when every target lies
    ///     inside it (its exit and entry effects are not performed); ``TransitionType/external`` by default.
    ///   - update: Changes the flow's context when the transition is taken, before any of the
    ///     step's effects is derived.
    ///   - effects: Effects performed between the exits and the entries.
    ///   - emit: Effects derived from the context and the event, after `effects`.
    ///   - label: The event's label on diagrams; defaults to `String(describing: event)`.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    public init(
        _ event: F.Event.Kind,
        guard guardCondition: Guard<F>? = nil,
        to target: F.State?,
        type: TransitionType = .external,
        update: Update<F>? = nil,
        effects: [F.Effect] = [],
        emit: [Emit<F>] = [],
        label: String? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column
    ) {
        element = FlowElement(node: .transition(.init(
            event: event, eventLabel: label ?? String(describing: event), guardCondition: guardCondition,
            target: target, update: update, effects: effects, emits: emit, type: type,
            location: FlowSourceLocation(file: fileID, line: line, column: column)
        )))
    }
}

extension On {
    /// Declares a completion transition: taken when `state` is **done** (SCXML's `done.state.<id>`).
    ///
    /// A parallel state is done once every region has entered a final state; a compound state inside a
    /// parallel state is done when it enters one of its final children. (Outside parallel states,
    /// entering a final state finishes the whole flow.) Declare it on the state itself, or on any state
    /// that is active when the completion happens. Its guard sees the event that started the step.
    /// - Parameters:
    ///   - state: The parallel (or compound) state whose completion the transition reacts to.
    ///   - guardCondition: A predicate that must hold for the transition to be taken.
    ///   - target: The state entered; `nil` for a targetless transition.
    ///   - type: ``TransitionType/internal`` keeps a compound source active when every target lies
    ///     inside it (its exit and entry effects are not performed); ``TransitionType/external`` by default.
    ///   - update: Changes the flow's context when the transition is taken.
    ///   - effects: Effects performed between the exits and the entries.
    ///   - emit: Effects derived from the context and the event, after `effects`.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    public init(
        done state: F.State,
        guard guardCondition: Guard<F>? = nil,
        to target: F.State?,
        type: TransitionType = .external,
        update: Update<F>? = nil,
        effects: [F.Effect] = [],
        emit: [Emit<F>] = [],
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column
    ) {
        element = FlowElement(node: .transition(.init(
            event: nil, eventLabel: "done.state.\(state)", guardCondition: guardCondition, target: target,
            update: update, effects: effects, emits: emit, doneOf: state, type: type,
            location: FlowSourceLocation(file: fileID, line: line, column: column)
        )))
    }
}

extension On {
    /// Declares a transition with several targets, one in each of several regions of a parallel state
    /// (SCXML's `target="a b"`): the parallel state's other regions are entered by their initial
    /// child. Targets that cannot be active together are a validation error.
    /// - Parameters:
    ///   - event: The kind of event the transition reacts to.
    ///   - guardCondition: A predicate that must hold for the transition to be taken.
    ///   - targets: The states entered, at least one (a single target is the same as `to: target`).
    ///   - type: ``TransitionType/internal`` keeps a compound source active when every target lies
    ///     inside it (its exit and entry effects are not performed); ``TransitionType/external`` by default.
    ///   - update: Changes the flow's context when the transition is taken.
    ///   - effects: Effects performed between the exits and the entries.
    ///   - emit: Effects derived from the context and the event, after `effects`.
    ///   - label: The event's label on diagrams; defaults to `String(describing: event)`.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    public init(
        _ event: F.Event.Kind,
        guard guardCondition: Guard<F>? = nil,
        to targets: [F.State],
        type: TransitionType = .external,
        update: Update<F>? = nil,
        effects: [F.Effect] = [],
        emit: [Emit<F>] = [],
        label: String? = nil,
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column
    ) {
        element = FlowElement(node: .transition(.init(
            event: event, eventLabel: label ?? String(describing: event), guardCondition: guardCondition,
            target: targets.first, update: update, effects: effects, emits: emit,
            moreTargets: Array(targets.dropFirst()), type: type,
            location: FlowSourceLocation(file: fileID, line: line, column: column)
        )))
    }
}

/// An eventless transition: taken as soon as its state is entered and its guard holds
/// (a decision state: "onboarding seen? go to main, else to onboarding").
public struct Always<F: Flow> {
    /// The element this node contributes to the definition.
    public let element: FlowElement<F>

    /// Declares an eventless transition.
    /// - Parameters:
    ///   - guardCondition: A predicate that must hold for the transition to be taken.
    ///   - target: The state entered.
    ///   - type: ``TransitionType/internal`` keeps a compound source active when every target lies
    ///     inside it (its exit and entry effects are not performed); ``TransitionType/external`` by default.
    ///   - update: Changes the flow's context when the transition is taken.
    ///   - effects: Effects performed between the exits and the entries.
    ///   - emit: Effects derived from the context and the event, after `effects`.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    public init(
        guard guardCondition: Guard<F>? = nil,
        to target: F.State,
        type: TransitionType = .external,
        update: Update<F>? = nil,
        effects: [F.Effect] = [],
        emit: [Emit<F>] = [],
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column
    ) {
        element = FlowElement(node: .transition(.init(
            event: nil, eventLabel: nil, guardCondition: guardCondition, target: target, update: update,
            effects: effects, emits: emit, type: type,
            location: FlowSourceLocation(file: fileID, line: line, column: column)
        )))
    }
}

extension Always {
    /// Declares an eventless transition with several targets, one in each of several regions of a
    /// parallel state (SCXML's `target="a b"`).
    /// - Parameters:
    ///   - guardCondition: A predicate that must hold for the transition to be taken.
    ///   - targets: The states entered, at least one.
    ///   - type: ``TransitionType/internal`` keeps a compound source active when every target lies
    ///     inside it (its exit and entry effects are not performed); ``TransitionType/external`` by default.
    ///   - update: Changes the flow's context when the transition is taken.
    ///   - effects: Effects performed between the exits and the entries.
    ///   - emit: Effects derived from the context and the event, after `effects`.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    public init(
        guard guardCondition: Guard<F>? = nil,
        to targets: [F.State],
        type: TransitionType = .external,
        update: Update<F>? = nil,
        effects: [F.Effect] = [],
        emit: [Emit<F>] = [],
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column
    ) {
        element = FlowElement(node: .transition(.init(
            event: nil, eventLabel: nil, guardCondition: guardCondition, target: targets.first, update: update,
            effects: effects, emits: emit, moreTargets: Array(targets.dropFirst()), type: type,
            location: FlowSourceLocation(file: fileID, line: line, column: column)
        )))
    }
}

/// A delayed transition: taken when its state has stayed active for `delay` (SCXML's
/// `<send delay>` of an event only this transition takes, cancelled when the state is left).
///
/// Declared on a state (``StateNode`` or ``Parallel``), it applies while that state is active,
/// whatever is active inside it. Entering the state arms a timer (a step reports it in
/// ``FlowStep/timers`` as ``FlowTimerChange/arm(_:after:)``); leaving it, or stopping or finishing the
/// flow, cancels it. When the timer fires (``FlowMachine/fire(_:)``, which ``FlowRuntime`` calls on
/// its clock), the transition is taken if its guard holds, run to completion like an event's.
///
/// ```swift
/// StateNode(.codeSent) {
///     After(.seconds(30), to: .canResend)
///     On(.submitCode, to: .verifying)
/// }
/// ```
public struct After<F: Flow> {
    /// The element this node contributes to the definition.
    public let element: FlowElement<F>

    /// Declares a delayed transition.
    /// - Parameters:
    ///   - delay: How long the state must stay active; positive (validation reports any other).
    ///   - guardCondition: A predicate that must hold when the timer fires for the transition to be
    ///     taken (it sees no event: `nil`).
    ///   - target: The state entered; `nil` for a targetless transition (its effects only).
    ///   - update: Changes the flow's context when the transition is taken.
    ///   - effects: Effects performed between the exits and the entries.
    ///   - emit: Effects derived from the context, after `effects`.
    ///   - fileID: The file the declaration is written in (the call site's, by default), for validation messages.
    ///   - line: Its line.
    ///   - column: Its column.
    public init(
        _ delay: Duration,
        guard guardCondition: Guard<F>? = nil,
        to target: F.State?,
        update: Update<F>? = nil,
        effects: [F.Effect] = [],
        emit: [Emit<F>] = [],
        fileID: String = #fileID,
        line: Int = #line,
        column: Int = #column
    ) {
        element = FlowElement(node: .transition(.init(
            event: nil, eventLabel: "after \(FlowTimer.label(of: delay))", guardCondition: guardCondition,
            target: target, update: update, effects: effects, emits: emit, delay: delay,
            location: FlowSourceLocation(file: fileID, line: line, column: column)
        )))
    }
}

/// The result builder that reads a flow definition like the diagram it becomes.
///
/// The compiler type-checks one builder body (the bodies nested in it included) as one system, each
/// declaration with the solutions of all those before it, so its time grows with the square of the
/// body's size: a flat definition of 50 states of two transitions each takes under a second, one of
/// 400 states half a minute. A definition of hundreds of states is best written in parts, each a
/// `@FlowBuilder<F>` function of a few dozen declarations, which the body calls like any element (what
/// the Swift generator of flow files writes):
///
/// ```swift
/// @FlowBuilder<Checkout> static func paymentStates() -> [FlowElement<Checkout>] {
///     StateNode(.card) { On(.submit, to: .review) }
///     StateNode(.review) { On(.confirm, to: .paid) }
/// }
///
/// let flow = FlowDefinition<Checkout>("checkout", initial: .cart) {
///     StateNode(.cart) { On(.pay, to: .card) }
///     paymentStates()
///     Final(.paid, output: .done)
/// }
/// ```
@resultBuilder
public enum FlowBuilder<F: Flow> {
    /// A state.
    public static func buildExpression(_ node: StateNode<F>) -> [FlowElement<F>] { [node.element] }
    /// A final state.
    public static func buildExpression(_ node: Final<F>) -> [FlowElement<F>] { [node.element] }
    /// A parallel state.
    public static func buildExpression(_ node: Parallel<F>) -> [FlowElement<F>] { [node.element] }
    /// A history pseudo-state.
    public static func buildExpression(_ node: History<F>) -> [FlowElement<F>] { [node.element] }
    /// A transition.
    public static func buildExpression(_ node: On<F>) -> [FlowElement<F>] { [node.element] }
    /// An eventless transition.
    public static func buildExpression(_ node: Always<F>) -> [FlowElement<F>] { [node.element] }
    /// A delayed transition.
    public static func buildExpression(_ node: After<F>) -> [FlowElement<F>] { [node.element] }
    /// Elements made elsewhere.
    public static func buildExpression(_ elements: [FlowElement<F>]) -> [FlowElement<F>] { elements }
    /// A sequence of elements.
    public static func buildBlock(_ parts: [FlowElement<F>]...) -> [FlowElement<F>] { parts.flatMap { $0 } }
    /// An `if` without `else`.
    public static func buildOptional(_ part: [FlowElement<F>]?) -> [FlowElement<F>] { part ?? [] }
    /// The first branch of an `if`/`else`.
    public static func buildEither(first part: [FlowElement<F>]) -> [FlowElement<F>] { part }
    /// The second branch of an `if`/`else`.
    public static func buildEither(second part: [FlowElement<F>]) -> [FlowElement<F>] { part }
    /// A `for` loop.
    public static func buildArray(_ parts: [[FlowElement<F>]]) -> [FlowElement<F>] { parts.flatMap { $0 } }
}
