/// A named predicate that decides whether a transition may be taken.
///
/// The name is what diagrams and validation messages show; the predicate sees the current state, the
/// event, payload included, and the flow's ``Flow/Context``. An eventless transition's guard sees the
/// event that started the step, or `nil` when the machine is starting.
public struct Guard<F: Flow>: Sendable {
    /// The guard's label on diagrams, for example `valid email`.
    public let name: String
    @usableFromInline let predicate: @Sendable (F.State, F.Event?, F.Context) -> Bool

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
    }

    /// A guard over something outside the flow, typically for a decision state's eventless transitions
    /// ("onboarding seen?").
    public init(_ name: String, condition: @escaping @Sendable () -> Bool) {
        self.name = name
        self.predicate = { _, _, _ in condition() }
    }

    /// A guard over the current state and the event that triggered the step, if any.
    public init(_ name: String, evaluate: @escaping @Sendable (F.State, F.Event?) -> Bool) {
        self.name = name
        self.predicate = { state, event, _ in evaluate(state, event) }
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
    }
}
