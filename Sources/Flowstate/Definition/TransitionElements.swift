// The elements that declare transitions: On, Always and After, and a transition's type.

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
