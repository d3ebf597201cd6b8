import Flowstate

/// The flows a generated `Supervisor` tree runs: a root flow, started first (and again whenever the
/// tree is empty), and the flows that may be spawned as dynamic children under any machine, each with
/// its sample events and its effect handler. Flows of declared children (`ChildFlow`) run without
/// being listed; list them too to send them events.
///
/// ```swift
/// let universe = SupervisorUniverse(root: Parent.definition)
///     .adding(Child.definition, output: { _ in Parent.Event.childDone })
/// ```
///
/// Commands (``SupervisorCommand``) name a flow by its position: 0 for the root's, then in the order
/// flows were added. A machine's flow is found by its name, so give every listed flow its own name.
public struct SupervisorUniverse {
    let flows: [any UniverseFlow]

    private init(flows: [any UniverseFlow]) { self.flows = flows }

    /// A universe whose root runs `definition`.
    /// - Parameters:
    ///   - definition: The root flow; it must be valid.
    ///   - samples: The events to send its machines, simplest first (for payload events, several values
    ///     per kind exercise the guards).
    ///   - policy: The root's failure policy.
    ///   - handler: Performs its effects (and its declared children's, mapped); it may throw.
    public init<F: Flow>(root definition: FlowDefinition<F>, samples: [F.Event], policy: FailurePolicy = .escalate,
                         handler: @escaping EffectHandler<F> = { _, _ in }) {
        flows = [FlowOfUniverse(definition, samples: samples, policy: policy, handler: handler, output: { _ in nil })]
    }

    /// A universe whose root runs `definition`, a flow whose events carry no payload: every event kind
    /// its transitions name is a sample. For a flow whose events carry payloads (the compiler then
    /// says its `Event` and `Event.Kind` differ), give the samples:
    /// ``init(root:samples:policy:handler:)``.
    public init<F: Flow>(root definition: FlowDefinition<F>, policy: FailurePolicy = .escalate,
                         handler: @escaping EffectHandler<F> = { _, _ in }) where F.Event == F.Event.Kind {
        self.init(root: definition, samples: FlowIndex(definition).kinds, policy: policy, handler: handler)
    }

    /// This universe with one more flow that commands may spawn under any machine.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - samples: The events to send its machines, simplest first.
    ///   - handler: Performs its effects; it may throw.
    ///   - output: The event its parent receives when a machine of it completes; delivered when it is
    ///     an event of the parent's flow (`nil`, or another type: none).
    /// - Returns: The larger universe.
    public func adding<F: Flow>(_ definition: FlowDefinition<F>, samples: [F.Event],
                                handler: @escaping EffectHandler<F> = { _, _ in },
                                output: @escaping @Sendable (F.Output) -> (any Sendable)? = { _ in nil }) -> SupervisorUniverse {
        SupervisorUniverse(flows: flows + [FlowOfUniverse(definition, samples: samples, policy: .escalate,
                                                          handler: handler, output: output)])
    }

    /// This universe with one more flow whose events carry no payload (every kind is a sample). For
    /// payload events, give the samples: ``adding(_:samples:handler:output:)``.
    public func adding<F: Flow>(_ definition: FlowDefinition<F>, handler: @escaping EffectHandler<F> = { _, _ in },
                                output: @escaping @Sendable (F.Output) -> (any Sendable)? = { _ in nil })
        -> SupervisorUniverse where F.Event == F.Event.Kind
    {
        adding(definition, samples: FlowIndex(definition).kinds, handler: handler, output: output)
    }

    /// The flows' names, by position.
    public var flowNames: [String] { flows.map(\.name) }

    func flow(named name: String) -> (any UniverseFlow)? { flows.first { $0.name == name } }
}

/// A failure injected by a ``SupervisorCommand/fail(machine:)`` command: what the handler throws.
struct InjectedFailure: Error, CustomStringConvertible {
    var machine: MachineID
    var description: String { "injected failure of \(machine)" }
}

/// The machines whose next effect fails or calls the supervisor, shared by every handler of a run:
/// the user's handler performs the effect, then the wrapper runs the calls armed for the machine,
/// then throws if a failure is armed (so the user's handler sees every effect the supervisor asks
/// for).
final class FailureSwitch {
    var armed = Set<MachineID>()
    /// The calls armed by ``SupervisorCall/duringStep(machine:_:)``, by machine, in arming order.
    var calls: [MachineID: [SupervisorCommand]] = [:]
    /// Runs an armed call: set by the run that owns the switch.
    var call: ((SupervisorCommand) -> Void)?

    func wrap<F: Flow>(_ handler: @escaping EffectHandler<F>) -> EffectHandler<F> {
        { [weak self] effect, context in
            try handler(effect, context)
            guard let self else { return }
            for command in calls.removeValue(forKey: context.origin) ?? [] { call?(command) }
            if armed.remove(context.origin) != nil { throw InjectedFailure(machine: context.origin) }
        }
    }
}

/// One flow of a universe, typed inside, so that a run can start, spawn, send and restore it by name.
protocol UniverseFlow {
    var name: String { get }
    /// Starts a root machine of the flow.
    func start(in supervisor: Supervisor, failures: FailureSwitch) throws(SupervisorError) -> MachineID
    /// Spawns a machine of `child` under `parent`, a machine of this flow; `nil` if it is not one.
    func spawn(_ child: any UniverseFlow, under parent: MachineID, in supervisor: Supervisor, owner: FlowLifetime,
               policy: FailurePolicy, failures: FailureSwitch) throws(SupervisorError) -> MachineID?
    /// Spawns a machine of this flow under a typed parent.
    func spawn<P: Flow>(under parent: MachineHandle<P>, in supervisor: Supervisor, owner: FlowLifetime,
                        policy: FailurePolicy, failures: FailureSwitch) throws(SupervisorError) -> MachineID
    /// Sends a machine of this flow the sample `pick` chooses among those its state reacts to (all of
    /// them when it reacts to none); returns what was sent and the pick as the position in that pool,
    /// or `nil` if the machine is not of this flow.
    func send(_ pick: Int, to machine: MachineID, in supervisor: Supervisor) -> (event: String, error: SupervisorError?, pick: Int)?
    /// Restores a root of this flow from its snapshot.
    func restore(_ snapshot: MachineSnapshot, in supervisor: Supervisor,
                 failures: FailureSwitch) throws(SupervisorError) -> MachineID
}

struct FlowOfUniverse<F: Flow>: UniverseFlow {
    let definition: FlowDefinition<F>
    let sampler: EventSampler<F>
    let policy: FailurePolicy
    let handler: EffectHandler<F>
    let output: @Sendable (F.Output) -> (any Sendable)?

    init(_ definition: FlowDefinition<F>, samples: [F.Event], policy: FailurePolicy, handler: @escaping EffectHandler<F>,
         output: @escaping @Sendable (F.Output) -> (any Sendable)?) {
        self.definition = definition
        sampler = EventSampler(definition, samples: samples)
        self.policy = policy
        self.handler = handler
        self.output = output
    }

    var name: String { definition.name }

    func start(in supervisor: Supervisor, failures: FailureSwitch) throws(SupervisorError) -> MachineID {
        try supervisor.start(definition, policy: policy, handler: failures.wrap(handler)).id
    }

    func spawn(_ child: any UniverseFlow, under parent: MachineID, in supervisor: Supervisor, owner: FlowLifetime,
               policy: FailurePolicy, failures: FailureSwitch) throws(SupervisorError) -> MachineID? {
        guard let parent = supervisor.handle(of: parent, as: F.self) else { return nil }
        return try child.spawn(under: parent, in: supervisor, owner: owner, policy: policy, failures: failures)
    }

    func spawn<P: Flow>(under parent: MachineHandle<P>, in supervisor: Supervisor, owner: FlowLifetime,
                        policy: FailurePolicy, failures: FailureSwitch) throws(SupervisorError) -> MachineID {
        let output = self.output
        return try supervisor.spawn(definition, under: parent, owner: owner, policy: policy,
                                    handler: failures.wrap(handler), output: { output($0) as? P.Event }).id
    }

    func send(_ pick: Int, to machine: MachineID, in supervisor: Supervisor) -> (event: String, error: SupervisorError?, pick: Int)? {
        guard let handle = supervisor.handle(of: machine, as: F.self), let state = supervisor.state(of: handle),
              !sampler.samples.isEmpty else { return nil }
        let leaf = sampler.index.position[state] ?? 0
        let pool = sampler.handled[leaf].isEmpty ? Array(sampler.samples.indices) : sampler.handled[leaf]
        let event = sampler.samples[pool[pick % pool.count]]
        do throws(SupervisorError) {
            try supervisor.send(event, to: handle)
            return (FlowSwiftCode.expression(event), nil, pick % pool.count)
        } catch {
            return (FlowSwiftCode.expression(event), error, pick % pool.count)
        }
    }

    func restore(_ snapshot: MachineSnapshot, in supervisor: Supervisor,
                 failures: FailureSwitch) throws(SupervisorError) -> MachineID {
        try supervisor.restore(snapshot, definition: definition, policy: policy, handler: failures.wrap(handler)).id
    }
}
