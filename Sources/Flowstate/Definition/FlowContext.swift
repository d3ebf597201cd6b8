/// A named change to a flow's ``Flow/Context``, made when a transition is taken.
///
/// An update is the only way a definition changes its context, and its name is what diagrams draw
/// on the transition (`submitEmail [valid email] {remember email}`) and what validation messages
/// quote, so a definition says what it changes without being run.
///
/// ```swift
/// let rememberEmail = Update<Checkout>("remember email") { context, event in
///     if case .submitEmail(let email) = event { context.email = email }
/// }
/// ```
///
/// The event is the one that caused the step: for an ``Always`` transition, the event that started
/// the step, or `nil` when the machine is starting.
public struct Update<F: Flow>: Sendable {
    /// The update's label on diagrams, for example `remember email`.
    public let name: String
    @usableFromInline let body: @Sendable (inout F.Context, F.Event?) -> Void

    /// Creates an update.
    /// - Parameters:
    ///   - name: What diagrams and validation messages call it; must not be empty.
    ///   - body: Changes the context, given the event of the step.
    public init(_ name: String, _ body: @escaping @Sendable (inout F.Context, F.Event?) -> Void) {
        self.name = name
        self.body = body
    }
}

/// An effect derived from the event and the flow's ``Flow/Context`` by a named function: an effect
/// that carries data (`show(summary of ada@example.com)`) while the definition stays inspectable.
///
/// Diagrams and declarations show the emit's name where a constant effect shows its value.
///
/// ```swift
/// let showSummary = Emit<Checkout>("show(summary)") { context, _ in
///     .show("summary of \(context.email)")
/// }
/// ```
///
/// An emit is computed when its step is taken, from the context after the step's ``Update`` (if
/// any) and from the step's event (`nil` while starting, and for the exits of ``FlowMachine/stop()``).
public struct Emit<F: Flow>: Sendable {
    /// The emit's label on diagrams, for example `show(summary)`.
    public let name: String
    @usableFromInline let body: @Sendable (F.Context, F.Event?) -> F.Effect

    /// Creates an emit.
    /// - Parameters:
    ///   - name: What diagrams and validation messages call it; must not be empty.
    ///   - body: Derives the effect from the context and the event of the step.
    public init(_ name: String, _ body: @escaping @Sendable (F.Context, F.Event?) -> F.Effect) {
        self.name = name
        self.body = body
    }
}
