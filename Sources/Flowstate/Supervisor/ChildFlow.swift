/// A child flow that a state of `Parent` runs under a ``Supervisor``: spawned when the state is
/// entered, torn down when it is left.
///
/// The child's definition stays reusable: it knows nothing of its parent. The parent decides how the
/// child's effects are performed (mapped to the parent's effects, performed by the parent's handler)
/// and which of its events the child's output and failure become.
///
/// ```swift
/// StateNode(.signingUp, runs: ChildFlow(SignUp.definition) { output in
///     output == .signedUp ? .accountCreated : .signUpCancelled
/// })
/// ```
public struct ChildFlow<Parent: Flow>: Sendable {
    /// The child flow's name.
    public let name: String
    /// What the supervisor does when the child's effects fail.
    public let policy: FailurePolicy
    let make: @Sendable (ChildStart) throws(SupervisorError) -> AnyMachineBox
    let mapOutput: @Sendable (any Sendable) -> Parent.Event?
    let mapFailure: (@Sendable (SupervisionFailure) -> Parent.Event?)?
    /// The parent events the child's reachable outputs map to, as a finder finds the outputs of the
    /// child's typed definition started with the context it would be spawned with.
    let reachableEvents: @Sendable (Parent.Context, any ChildOutputFinder) throws(FlowError) -> [Parent.Event]
    /// Hands the child's typed definition to a visitor.
    let describe: @Sendable (any ChildDefinitionVisitor) -> Void
    /// The parent events the child's constant outputs map to.
    let constantOutputEvents: @Sendable () -> [FlowOutline.ChildOutput]

    /// A child whose effects are mapped to the parent's effects.
    /// - Parameters:
    ///   - definition: The child flow.
    ///   - policy: What to do when performing the child's effects fails.
    ///   - effects: Maps a child effect to a parent effect, performed by the parent's handler
    ///     (`nil` drops it).
    ///   - failure: Maps a failure of the child to a parent event; `nil` lets the failure escalate
    ///     to the parent itself.
    ///   - context: The child's context, from the parent's context when the child is spawned (the
    ///     model a parent shares with its child); `nil` starts the child with its definition's
    ///     ``FlowDefinition/initialContext``.
    ///   - output: Maps the child's output to the parent event that reports it (`nil`: no event).
    public init<Child: Flow>(
        _ definition: FlowDefinition<Child>,
        policy: FailurePolicy = .escalate,
        effects: @escaping @Sendable (Child.Effect) -> Parent.Effect?,
        failure: (@Sendable (SupervisionFailure) -> Parent.Event?)? = nil,
        context: (@Sendable (Parent.Context) -> Child.Context)? = nil,
        output: @escaping @Sendable (Child.Output) -> Parent.Event?
    ) {
        name = definition.name
        self.policy = policy
        let mapOutput: @Sendable (any Sendable) -> Parent.Event? = { output($0 as! Child.Output) }
        make = { (start: ChildStart) throws(SupervisorError) -> AnyMachineBox in
            // The parent box hands its own context, of the parent's context type.
            let given = context.map { $0(start.parentContext as! Parent.Context) }
            return try MachineBox<Child>(definition: definition, resumingIn: start.resumingIn,
                                         history: start.history, savedContext: start.savedContext, context: given, route: .mapped(effects),
                                         policy: policy, mapOutput: { mapOutput($0) },
                                         mapFailure: failure.map { map in { map($0) } })
        }
        self.mapOutput = mapOutput
        mapFailure = failure
        reachableEvents = { (parentContext, finder) throws(FlowError) in
            let start = context.map { $0(parentContext) } ?? definition.initialContext
            return try finder.outputs(of: definition, context: start).compactMap(output)
        }
        describe = { visitor in visitor.visit(definition) }
        constantOutputEvents = {
            definition.constantOutputs.map { constant in
                FlowOutline.ChildOutput(output: constant.label, event: output(constant.output).map { String(describing: $0.kind) })
            }
        }
    }

    /// Hands `visitor` the child's typed definition.
    package func describe(to visitor: any ChildDefinitionVisitor) { describe(visitor) }

    /// For each final state of the child whose output is declared as a constant, in declaration order:
    /// the output's label and the label of the parent event the declaration's `output:` mapping gives
    /// (`nil`: no event). Outputs computed from the context or the event are known only by running the
    /// child, and are not listed.
    package func outputEvents() -> [FlowOutline.ChildOutput] { constantOutputEvents() }

    /// The parent events this child can report: the outputs `finder` finds for the child's own
    /// definition (started with the context it is spawned with under `parentContext`), each mapped
    /// by the declaration's output mapping (an output mapped to `nil` reports nothing).
    /// - Throws: What the finder throws (a child that cannot start).
    package func parentEvents(from finder: some ChildOutputFinder,
                              parentContext: Parent.Context) throws(FlowError) -> [Parent.Event] {
        try reachableEvents(parentContext, finder)
    }

    /// A child whose effects are of the parent's effect type, performed by the parent's handler.
    public init<Child: Flow>(
        _ definition: FlowDefinition<Child>,
        policy: FailurePolicy = .escalate,
        failure: (@Sendable (SupervisionFailure) -> Parent.Event?)? = nil,
        context: (@Sendable (Parent.Context) -> Child.Context)? = nil,
        output: @escaping @Sendable (Child.Output) -> Parent.Event?
    ) where Child.Effect == Parent.Effect {
        self.init(definition, policy: policy, effects: { $0 }, failure: failure, context: context, output: output)
    }
}

/// Finds the outputs a declared child's typed definition can finish with, for a sibling module that
/// works on children without knowing their types (the testing kit's path finder explores them).
package protocol ChildOutputFinder {
    /// The outputs a machine of `definition`, started with `context`, can finish with.
    /// - Throws: `FlowError` when such a machine cannot start (as the supervisor could not spawn it).
    func outputs<Child: Flow>(of definition: FlowDefinition<Child>,
                              context: Child.Context) throws(FlowError) -> [Child.Output]
}

/// Receives a declared child's typed definition, for a sibling module that works on children without
/// knowing their types (the flow-file exporter writes them as documents of the parent's spec).
package protocol ChildDefinitionVisitor: AnyObject {
    /// Visits the child's definition.
    func visit<Child: Flow>(_ definition: FlowDefinition<Child>)
}

/// How a declared child is made: fresh under its parent, or restored from a snapshot.
struct ChildStart {
    /// The labels of the leaves to resume in (one, or one per active region); `nil` for a fresh child.
    var resumingIn: [String]? = nil
    /// What the child's history states remembered, by label, when restored.
    var history: [String: [String]] = [:]
    /// The child's saved context (JSON), when restored.
    var savedContext: String? = nil
    /// The parent's context, of the parent flow's context type.
    var parentContext: any Sendable
}

/// A declared child flow, type-erased.
struct AnyChildFlow {
    let name: String
    let policy: FailurePolicy
    let make: (ChildStart) throws(SupervisorError) -> AnyMachineBox
    let mapOutput: (any Sendable) -> (any Sendable)?
    let mapFailure: ((SupervisionFailure) -> (any Sendable)?)?
}
