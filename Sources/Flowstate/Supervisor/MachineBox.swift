/// What the supervisor needs to know of a step, whatever the flow's types: no labels, no effects.
@usableFromInline
struct StepSummary {
    @usableFromInline enum Kind: UInt8 { case started, transitioned, finished, ignored, rejected }
    @usableFromInline var kind: Kind
    /// The leaf state index before (-1 for a start) and after the step.
    @usableFromInline var from: Int32
    @usableFromInline var to: Int32

    @inlinable
    init(kind: Kind, from: Int32, to: Int32) {
        self.kind = kind
        self.from = from
        self.to = to
    }

    /// Whether the machine moved (took a transition, started or finished).
    var moved: Bool { kind != .ignored && kind != .rejected }
}

/// An effect handler threw.
@usableFromInline
struct EffectFailure: Error {
    var origin: MachineID
    var effect: String
    var message: String

    @usableFromInline
    init(origin: MachineID, effect: String, message: String) {
        self.origin = origin
        self.effect = effect
        self.message = message
    }
}

/// How a machine's step is described to observers (labels made only when someone observes).
struct StepDescription {
    var from: String
    var to: String
    var event: String
    var transitions: FlowTransitions
}

/// What a step did, for the supervisor to go on with: the summary, and the first effect that failed.
struct StepOutcome {
    var summary: StepSummary
    var failure: EffectFailure?
}

/// What few machines need: kept out of every box until one of them is set.
final class MachineExtras {
    var policy: FailurePolicy = .escalate
    var mapFailure: ((SupervisionFailure) -> (any Sendable)?)?
    var onTeardown: ((TeardownReason) -> Void)?
    /// The lifetime the machine is bound to (weakly); the box's `ownerBound` stays true after it is gone.
    weak var lifetime: FlowLifetime?
    var tasks: [UInt64: Task<Void, Never>] = [:]
    var history = RestartHistory()
    /// For a root: receives its output, typed by the closure, when it completes.
    var rootOutput: ((any Sendable) -> Void)?

    init() {}
}

/// One machine of a supervisor's tree with everything the supervisor keeps about it, type-erased.
///
/// The typed work (stepping the machine, performing its effects through its typed handler) happens
/// in the subclass ``MachineBox``, which drives a whole step and calls back into the supervisor for
/// the tree's part of it: a step crosses type erasure once, and nothing of it is stored. The
/// supervisor's own bookkeeping reads only this class's non-generic fields, and the flow's shape
/// (parents, exit effects) through ``FlowTableShape``, without generic code.
@usableFromInline
class AnyMachineBox {
    // Fields in an order that packs them: a box is most of a machine's memory.
    @usableFromInline @exclusivity(unchecked) final var id: MachineID
    /// The flow's compiled shape, shared by every machine of the definition.
    @usableFromInline final let shape: FlowTableShape
    final let mapOutput: ((any Sendable) -> (any Sendable)?)?
    /// The failure policy (when not the default), failure mapping, hook, owner, tasks and restarts.
    final var extras: MachineExtras?
    /// The machine's current leaf state, mirrored after every step.
    @usableFromInline @exclusivity(unchecked) final var leaf: Int32
    /// Whether the machine reached a final state (stopping it then exits nothing).
    @usableFromInline @exclusivity(unchecked) final var isFinished = false
    final let ownerBound: Bool
    /// Whether effects go to a handler of this machine's own (not mapped to the parent's).
    @usableFromInline final let ownHandler: Bool

    @usableFromInline
    init(shape: FlowTableShape, leaf: Int, policy: FailurePolicy, mapOutput: ((any Sendable) -> (any Sendable)?)?,
         mapFailure: ((SupervisionFailure) -> (any Sendable)?)?, onTeardown: ((TeardownReason) -> Void)?,
         lifetime: FlowLifetime?, ownHandler: Bool) {
        self.id = MachineID(rawValue: 0)
        self.shape = shape
        self.leaf = Int32(truncatingIfNeeded: leaf)
        self.mapOutput = mapOutput
        self.ownerBound = lifetime != nil
        self.ownHandler = ownHandler
        if policy != .escalate || mapFailure != nil || onTeardown != nil || lifetime != nil {
            let extras = MachineExtras()
            extras.policy = policy
            extras.mapFailure = mapFailure
            extras.onTeardown = onTeardown
            extras.lifetime = lifetime
            self.extras = extras
        }
    }

    final var flowName: String { shape.name }
    final var policy: FailurePolicy { extras?.policy ?? .escalate }
    @usableFromInline final var declaresChildren: Bool { shape.declaresChildren }
    final var stateHierarchy: FlowHierarchy { shape.hierarchy }
    final var mapFailure: ((SupervisionFailure) -> (any Sendable)?)? { extras?.mapFailure }
    final var onTeardown: ((TeardownReason) -> Void)? { extras?.onTeardown }
    final var lifetime: FlowLifetime? { extras?.lifetime }
    final var taskCount: Int { extras?.tasks.count ?? 0 }
    /// Gives a root the closure that receives its output.
    @usableFromInline
    final func setRootOutput(_ deliver: @escaping (any Sendable) -> Void) { ensuredExtras.rootOutput = deliver }

    final var ensuredExtras: MachineExtras {
        if let extras { return extras }
        let made = MachineExtras()
        extras = made
        return made
    }

    /// Whether stopping the machine performs exit effects (a running machine whose active states
    /// have some). Known without generic code.
    final var exitsOnStop: Bool { !isFinished && !shape.stopEffects[Int(leaf)].isEmpty }

    /// Whether the state at `index` is in the machine's configuration.
    final func isActive(_ index: Int) -> Bool { shape.hierarchy.isDescendantOrSelf(Int(leaf), of: index) }

    // Overridden by MachineBox<F>.
    /// Starts the machine: tells the supervisor (which marks it running and reports it), performs its
    /// entry effects (the first failure stops the rest).
    func start(in supervisor: Supervisor, slot: Int32) throws(FlowError) -> StepOutcome { fatalError("abstract") }
    /// Sends an event of the flow's type (checked once, here): tells the supervisor what the step did
    /// (so that it tears down the children of states left), then performs the step's effects.
    func deliver(_ event: Any, in supervisor: Supervisor, slot: Int32) throws(FlowError) -> StepOutcome {
        fatalError("abstract")
    }
    /// Whether `event` is of the flow's event type.
    func accepts(_ event: Any) -> Bool { fatalError("abstract") }
    /// Stops the machine and performs every exit effect, even after one fails; returns the failures.
    func stopAndExit(in supervisor: Supervisor) -> [EffectFailure] { fatalError("abstract") }
    /// Performs an effect forwarded by a declared child, already mapped to this flow's effect type.
    func performForwarded(_ effect: Any, origin: MachineID, in supervisor: Supervisor) throws(EffectFailure) {
        fatalError("abstract")
    }
    /// A fresh box of the same flow and configuration, for a restart.
    func remake() throws(SupervisorError) -> AnyMachineBox { fatalError("abstract") }
    var stateLabel: String { fatalError("abstract") }
    func childFlow(at index: Int) -> AnyChildFlow? { fatalError("abstract") }
    func label(ofState index: Int) -> String { fatalError("abstract") }
    func stateIndex(labelled label: String) -> Int? { fatalError("abstract") }
    func output() -> (any Sendable)? { fatalError("abstract") }
    var outline: FlowOutline { fatalError("abstract") }
    /// The machine's context, of its flow's context type.
    var anyContext: any Sendable { fatalError("abstract") }
    /// The machine's context as JSON for a snapshot; `nil` for a flow without context.
    func encodedContext() throws(SupervisorError) -> String? { fatalError("abstract") }
}

/// A declared child flow, type-erased.
struct AnyChildFlow {
    let name: String
    let policy: FailurePolicy
    let make: (ChildStart) throws(SupervisorError) -> AnyMachineBox
    let mapOutput: (any Sendable) -> (any Sendable)?
    let mapFailure: ((SupervisionFailure) -> (any Sendable)?)?
}

@usableFromInline
final class MachineBox<F: Flow>: AnyMachineBox {
    @usableFromInline @exclusivity(unchecked) var machine: FlowMachine<F>
    @usableFromInline let route: EffectRoute<F>
    /// The context the machine was made with: a restart starts again from it. (Takes no memory for
    /// a flow without context.)
    @usableFromInline let startContext: F.Context

    @inlinable
    init(machine: FlowMachine<F>, route: EffectRoute<F>, policy: FailurePolicy,
         mapOutput: ((any Sendable) -> (any Sendable)?)?, mapFailure: ((SupervisionFailure) -> (any Sendable)?)?,
         onTeardown: ((TeardownReason) -> Void)?, lifetime: FlowLifetime?) {
        self.machine = machine
        self.route = route
        self.startContext = machine.contextValue
        var own = false
        if case .handler = route { own = true }
        super.init(shape: machine.table, leaf: machine.current, policy: policy, mapOutput: mapOutput,
                   mapFailure: mapFailure, onTeardown: onTeardown, lifetime: lifetime, ownHandler: own)
    }

    /// A box for a fresh machine: specialized in the caller's module (no generic metadata look-ups).
    @inlinable
    convenience init(fresh definition: FlowDefinition<F>, context: F.Context? = nil, route: EffectRoute<F>,
                     policy: FailurePolicy,
                     mapOutput: ((any Sendable) -> (any Sendable)?)? = nil,
                     mapFailure: ((SupervisionFailure) -> (any Sendable)?)? = nil,
                     onTeardown: ((TeardownReason) -> Void)? = nil, lifetime: FlowLifetime? = nil)
        throws(SupervisorError)
    {
        let machine: FlowMachine<F>
        do throws(FlowError) {
            machine = try FlowMachine(definition, context: context ?? definition.initialContext)
        } catch {
            throw SupervisorError(code: .invalidDefinition, message: error.message, underlying: error)
        }
        self.init(machine: machine, route: route, policy: policy, mapOutput: mapOutput, mapFailure: mapFailure,
                  onTeardown: onTeardown, lifetime: lifetime)
    }

    /// A box for a fresh machine, or for one resuming in the state labelled `label` with the
    /// context saved as `savedContext` (JSON; `nil`: `context`, else the definition's initial one).
    convenience init(definition: FlowDefinition<F>, resumingIn label: String?, savedContext: String? = nil,
                     context: F.Context? = nil, route: EffectRoute<F>,
                     policy: FailurePolicy = .escalate, mapOutput: ((any Sendable) -> (any Sendable)?)? = nil,
                     mapFailure: ((SupervisionFailure) -> (any Sendable)?)? = nil,
                     onTeardown: ((TeardownReason) -> Void)? = nil, lifetime: FlowLifetime? = nil)
        throws(SupervisorError)
    {
        var resumeState: F.State?
        if let label {
            let matches = Self.states(labelled: label, in: definition)
            guard matches.count == 1 else {
                let message = matches.isEmpty
                    ? "flow '\(definition.name)' has no state '\(label)' any more"
                    : "flow '\(definition.name)' has \(matches.count) states labelled '\(label)'"
                throw SupervisorError(code: .snapshotMismatch, message: message)
            }
            resumeState = definition.states[matches[0]].state
        }
        let start = try Self.decodeContext(savedContext, of: definition) ?? context ?? definition.initialContext
        let machine: FlowMachine<F>
        do throws(FlowError) {
            if let resumeState {
                machine = try FlowMachine(definition, resumingIn: resumeState, context: start)
            } else {
                machine = try FlowMachine(definition, context: start)
            }
        } catch {
            let code: SupervisorError.Code = error.code == .invalidDefinition ? .invalidDefinition : .snapshotMismatch
            throw SupervisorError(code: code, message: error.message, underlying: error)
        }
        self.init(machine: machine, route: route, policy: policy, mapOutput: mapOutput, mapFailure: mapFailure,
                  onTeardown: onTeardown, lifetime: lifetime)
    }

    // MARK: The direct path

    /// Sends an event and performs its effects through the machine's own handler, in one call: the
    /// supervisor's path for a machine without declared children when nobody observes. Specialized in
    /// the caller's module. A failure is left with the supervisor (``Supervisor/directFailure(_:)``);
    /// a finished step is completed by the supervisor afterwards.
    @inlinable
    func sendDirect(_ event: F.Event, supervisor: Supervisor) throws(FlowError) -> StepSummary {
        let from = leaf
        let step = try machine.send(event)
        switch step.kind {
        case .transitioned:
            leaf = Int32(truncatingIfNeeded: machine.current)
            performDirect(step.effects, supervisor: supervisor)
            return StepSummary(kind: .transitioned, from: from, to: leaf)
        case .ignored:
            return StepSummary(kind: .ignored, from: from, to: from)
        case .rejected:
            return StepSummary(kind: .rejected, from: from, to: from)
        case .finished:
            leaf = Int32(truncatingIfNeeded: machine.current)
            isFinished = true
            performDirect(step.effects, supervisor: supervisor)
            return StepSummary(kind: .finished, from: from, to: leaf)
        case .started:  // never: a running machine is sent events
            return StepSummary(kind: .transitioned, from: from, to: leaf)
        }
    }

    /// Starts the machine and performs its entry effects through its own handler: the direct path
    /// of a start (see ``sendDirect(_:supervisor:)``).
    @inlinable
    func startDirect(supervisor: Supervisor) throws(FlowError) -> StepSummary {
        let step = try machine.start()
        switch step.kind {
        case .started:
            leaf = Int32(truncatingIfNeeded: machine.current)
            performDirect(step.effects, supervisor: supervisor)
            return StepSummary(kind: .started, from: -1, to: leaf)
        case .finished:
            leaf = Int32(truncatingIfNeeded: machine.current)
            isFinished = true
            performDirect(step.effects, supervisor: supervisor)
            return StepSummary(kind: .finished, from: -1, to: leaf)
        case .transitioned, .ignored, .rejected:  // never from a start
            return StepSummary(kind: .started, from: -1, to: leaf)
        }
    }

    @inlinable @inline(__always)
    func performDirect(_ effects: FlowEffects<F.Effect>, supervisor: Supervisor) {
        guard !effects.isEmpty, case .handler(let handler) = route else { return }
        let context = EffectContext<F>(machine: MachineHandle(id: id), origin: id, link: supervisor.link)
        for effect in effects {
            do {
                try handler(effect, context)
            } catch {
                supervisor.directFailure(EffectFailure(origin: id, effect: "\(effect)", message: "\(error)"))
                return
            }
        }
    }

    // MARK: The general path

    override func start(in supervisor: Supervisor, slot: Int32) throws(FlowError) -> StepOutcome {
        let step = try machine.start()
        leaf = Int32(truncatingIfNeeded: machine.current)
        isFinished = machine.isFinished
        let summary = StepSummary(kind: isFinished ? .finished : .started, from: -1, to: leaf)
        supervisor.stepTaken(slot, summary: summary) { describe(step, from: nil) }
        return StepOutcome(summary: summary, failure: perform(step.effects, in: supervisor))
    }

    override func accepts(_ event: Any) -> Bool { event is F.Event }

    override func deliver(_ event: Any, in supervisor: Supervisor, slot: Int32) throws(FlowError) -> StepOutcome {
        let typed = event as! F.Event  // checked by `accepts` when the event was queued
        let from = leaf
        let step = try machine.send(typed)
        leaf = Int32(truncatingIfNeeded: machine.current)
        isFinished = machine.isFinished
        let kind: StepSummary.Kind
        switch step.kind {
        case .started: kind = .started
        case .transitioned: kind = .transitioned
        case .finished: kind = .finished
        case .ignored: kind = .ignored
        case .rejected: kind = .rejected
        }
        let summary = StepSummary(kind: kind, from: from, to: leaf)
        supervisor.stepTaken(slot, summary: summary) { describe(step, from: machine.table.states[Int(from)]) }
        return StepOutcome(summary: summary, failure: perform(step.effects, in: supervisor))
    }

    /// Performs effects in order; the first failure stops the rest and is returned.
    private func perform(_ effects: FlowEffects<F.Effect>, in supervisor: Supervisor) -> EffectFailure? {
        for effect in effects {
            do throws(EffectFailure) {
                try perform(effect, origin: id, in: supervisor)
            } catch {
                return error
            }
        }
        return nil
    }

    override func stopAndExit(in supervisor: Supervisor) -> [EffectFailure] {
        let exits = machine.stop()
        var failures: [EffectFailure] = []
        for effect in exits {
            do throws(EffectFailure) {
                try perform(effect, origin: id, in: supervisor)
            } catch {
                failures.append(error)
            }
        }
        return failures
    }

    override func performForwarded(_ effect: Any, origin: MachineID, in supervisor: Supervisor) throws(EffectFailure) {
        guard let effect = effect as? F.Effect else { return }
        try perform(effect, origin: origin, in: supervisor)
    }

    private func perform(_ effect: F.Effect, origin: MachineID, in supervisor: Supervisor) throws(EffectFailure) {
        switch route {
        case .handler(let handler):
            do {
                try handler(effect, EffectContext(machine: MachineHandle(id: id), origin: origin, link: supervisor.link))
            } catch {
                throw EffectFailure(origin: origin, effect: "\(effect)", message: "\(error)")
            }
        case .forward(let map):
            guard let mapped = map(effect) else { return }
            try supervisor.forwardToParent(mapped, from: id, origin: origin)
        }
    }

    override func remake() throws(SupervisorError) -> AnyMachineBox {
        let fresh = MachineBox<F>(machine: try Self.fresh(machine.definition, context: startContext), route: route,
                                  policy: policy,
                                  mapOutput: mapOutput, mapFailure: mapFailure, onTeardown: onTeardown, lifetime: lifetime)
        if let rootOutput = extras?.rootOutput { fresh.setRootOutput(rootOutput) }
        return fresh
    }

    private static func fresh(_ definition: FlowDefinition<F>, context: F.Context) throws(SupervisorError)
        -> FlowMachine<F>
    {
        do throws(FlowError) {
            return try FlowMachine(definition, context: context)
        } catch {
            throw SupervisorError(code: .invalidDefinition, message: error.message, underlying: error)
        }
    }

    private func describe(_ step: FlowStep<F>, from: F.State?) -> StepDescription {
        func d(_ value: Any) -> String { "\(value)" }
        let event = step.event.map { d($0.kind) } ?? ""
        switch step.kind {
        case .started:
            return StepDescription(from: "start", to: d(step.state), event: "", transitions: step.transitions)
        case .transitioned, .finished:
            return StepDescription(from: from.map(d) ?? step.from.map(d) ?? "start", to: d(step.state), event: event,
                                   transitions: step.transitions)
        case .ignored, .rejected:
            return StepDescription(from: d(step.state), to: d(step.state), event: event,
                                   transitions: FlowTransitions())
        }
    }

    override var stateLabel: String { "\(machine.state)" }

    override var anyContext: any Sendable { machine.context }

    override func encodedContext() throws(SupervisorError) -> String? {
        try ContextCoding.encode(machine.context, flow: machine.definition.name)
    }

    private static func decodeContext(_ json: String?, of definition: FlowDefinition<F>) throws(SupervisorError)
        -> F.Context?
    {
        guard let json else { return nil }
        return try ContextCoding.decode(F.Context.self, from: json, flow: definition.name)
    }

    override func childFlow(at index: Int) -> AnyChildFlow? {
        guard let spec = machine.table.childFlows[index] else { return nil }
        return AnyChildFlow(name: spec.name, policy: spec.policy, make: spec.make,
                            mapOutput: { spec.mapOutput($0) },
                            mapFailure: spec.mapFailure.map { map in { map($0) } })
    }

    override func stateIndex(labelled label: String) -> Int? {
        let matches = Self.states(labelled: label, in: machine.definition)
        return matches.count == 1 ? matches[0] : nil
    }

    /// The indices of the states with a label: snapshots name states by label, which must be unique.
    static func states(labelled label: String, in definition: FlowDefinition<F>) -> [Int] {
        definition.states.indices.filter { definition.states[$0].label == label }
    }

    override func label(ofState index: Int) -> String { machine.definition.states[index].label }

    override func output() -> (any Sendable)? { machine.output }

    override var outline: FlowOutline { machine.definition.outline }
}
