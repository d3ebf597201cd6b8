/// A named predicate that decides whether a transition may be taken.
///
/// The name is what diagrams and validation messages show; the predicate sees the current state, the
/// event, payload included, and the flow's ``Flow/Context``. An eventless transition's guard sees the
/// event that started the step, or `nil` when the machine is starting.
public struct Guard<F: Flow>: Sendable {
    /// The guard's label on diagrams, for example `valid email`.
    public let name: String
    @usableFromInline let predicate: @Sendable (F.State, F.Event?, F.Context) -> Bool
    /// For ``in(_:)``, the state whose activity the guard asks about (the engine answers it from the
    /// configuration; `predicate` is then never called).
    let activeState: F.State?

    /// A guard over the event and its payload. It is false when there is no event (at start).
    ///
    /// ```swift
    /// let validEmail = Guard<SignUp>("valid email") { event in
    ///     if case .submitEmail(let email) = event { email.contains("@") } else { false }
    /// }
    /// ```
    public init(_ name: String, _ predicate: @escaping @Sendable (F.Event) -> Bool) {
        self.name = name
        self.predicate = { _, event, _ in event.map(predicate) ?? false }
        self.activeState = nil
    }

    /// A guard that holds while `state` is active (SCXML's `In(state)`): for a flow with parallel
    /// states, a transition in one region can depend on where another region is.
    ///
    /// ```swift
    /// On(.play, guard: .in(.downloaded), to: .playing)
    /// ```
    ///
    /// Its name is `In(state)`. A state the definition does not declare is a validation error.
    public static func `in`(_ state: F.State) -> Guard {
        Guard(name: "In(\(state))", activeState: state)
    }

    /// ``in(_:)`` under another name (a flow file's condition as written, `In('s1')`).
    package static func `in`(_ state: F.State, named name: String) -> Guard {
        Guard(name: name, activeState: state)
    }

    private init(name: String, activeState: F.State) {
        self.name = name
        self.predicate = { _, _, _ in false }
        self.activeState = activeState
    }

    /// A copy that asks `predicate` (the compiler's answer to an ``in(_:)`` guard for a flow without
    /// parallel states, where the current leaf says what is active).
    init(name: String, predicate: @escaping @Sendable (F.State, F.Event?, F.Context) -> Bool) {
        self.name = name
        self.predicate = predicate
        self.activeState = nil
    }

    /// A guard over something outside the flow, typically for a decision state's eventless transitions
    /// ("onboarding seen?").
    public init(_ name: String, condition: @escaping @Sendable () -> Bool) {
        self.name = name
        self.predicate = { _, _, _ in condition() }
        self.activeState = nil
    }

    /// A guard over the current state and the event that triggered the step, if any.
    public init(_ name: String, evaluate: @escaping @Sendable (F.State, F.Event?) -> Bool) {
        self.name = name
        self.predicate = { state, event, _ in evaluate(state, event) }
        self.activeState = nil
    }

    /// A guard over the flow's context and the event that triggered the step, if any (`nil` when the
    /// machine is starting).
    ///
    /// ```swift
    /// let hasEmail = Guard<Checkout>("has email") { context, _ in !context.email.isEmpty }
    /// ```
    public init(_ name: String, _ predicate: @escaping @Sendable (F.Context, F.Event?) -> Bool) {
        self.name = name
        self.predicate = { _, event, context in predicate(context, event) }
        self.activeState = nil
    }
}
