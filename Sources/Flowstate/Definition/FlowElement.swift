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
