/// What the supervisor needs to know of a step, whatever the flow's types: no labels, no effects.
@usableFromInline
struct StepSummary {
    @usableFromInline enum Kind: UInt8 { case started, transitioned, finished, ignored, rejected }
    @usableFromInline var kind: Kind
    /// The leaf state index before and after the step.
    @usableFromInline var from: Int32
    @usableFromInline var to: Int32

    @inlinable
    init(kind: Kind, from: Int32, to: Int32) {
        self.kind = kind
        self.from = from
        self.to = to
    }
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
    var output: String
}

/// One machine of a supervisor's tree with everything the supervisor keeps about it, type-erased.
///
/// The typed work (stepping the machine, performing its effects through its typed handler) happens
/// in the subclass ``MachineBox``: a step crosses type erasure once. The supervisor's own bookkeeping
/// reads only this class's non-generic fields.
@usableFromInline
class AnyMachineBox {
    @usableFromInline @exclusivity(unchecked) final var id: MachineID
    final let flowName: String
    final let policy: FailurePolicy
    final let mapOutput: ((any Sendable) -> (any Sendable)?)?
    final let mapFailure: ((SupervisionFailure) -> (any Sendable)?)?
    final var onTeardown: ((TeardownReason) -> Void)?
    /// The lifetime the machine is bound to (weakly); `ownerBound` stays true after it is gone.
    final weak var lifetime: FlowLifetime?
    final let ownerBound: Bool
    final var tasks: [UInt64: Task<Void, Never>] = [:]
    final var history = RestartHistory()
    /// Whether any state of the flow runs a declared child (if not, the supervisor skips that work).
    @usableFromInline final let declaresChildren: Bool
    /// Whether effects go to a handler of this machine's own (not mapped to the parent's).
    @usableFromInline final let ownHandler: Bool

    @usableFromInline
    init(flowName: String, policy: FailurePolicy, mapOutput: ((any Sendable) -> (any Sendable)?)?,
         mapFailure: ((SupervisionFailure) -> (any Sendable)?)?, onTeardown: ((TeardownReason) -> Void)?,
         lifetime: FlowLifetime?, declaresChildren: Bool, ownHandler: Bool) {
        self.id = MachineID(rawValue: 0)
        self.flowName = flowName
        self.policy = policy
        self.mapOutput = mapOutput
        self.mapFailure = mapFailure
        self.onTeardown = onTeardown
        self.lifetime = lifetime
        self.ownerBound = lifetime != nil
        self.declaresChildren = declaresChildren
        self.ownHandler = ownHandler
    }

    // Overridden by MachineBox<F>.
    func start() throws(FlowError) -> StepSummary { fatalError("abstract") }
    /// Sends an event of the flow's type (checked once, here).
    func deliver(_ event: Any) throws(FlowError) -> StepSummary { fatalError("abstract") }
    /// Whether `event` is of the flow's event type.
    func accepts(_ event: Any) -> Bool { fatalError("abstract") }
    /// Performs the effects of the last step; the first failure stops the rest.
    func performPending(in supervisor: Supervisor) -> EffectFailure? { fatalError("abstract") }
    /// Stops the machine and performs every exit effect, even after one fails; returns the failures.
    func stopAndExit(in supervisor: Supervisor) -> [EffectFailure] { fatalError("abstract") }
    /// Performs an effect forwarded by a declared child, already mapped to this flow's effect type.
    func performForwarded(_ effect: Any, origin: MachineID, in supervisor: Supervisor) throws(EffectFailure) {
        fatalError("abstract")
    }
    /// A fresh box of the same flow and configuration, for a restart.
    func remake() throws(SupervisorError) -> AnyMachineBox { fatalError("abstract") }
    /// The last step, as labels.
    func describeLastStep() -> StepDescription { fatalError("abstract") }
    var stateLabel: String { fatalError("abstract") }
    var leaf: Int { fatalError("abstract") }
    /// The parent of each state index (-1 for a top-level state).
    var stateParents: [Int] { fatalError("abstract") }
    func childFlow(at index: Int) -> AnyChildFlow? { fatalError("abstract") }
    func label(ofState index: Int) -> String { fatalError("abstract") }
    func stateIndex(labelled label: String) -> Int? { fatalError("abstract") }
    func output() -> (any Sendable)? { fatalError("abstract") }
    var outline: FlowOutline { fatalError("abstract") }
    /// Drops the handler, the typed machine's step and everything user code gave (after teardown).
    func release() {
        onTeardown = nil
        tasks = [:]
    }

    /// Whether the state at `index` is in the machine's configuration.
    final func isActive(_ index: Int) -> Bool {
        let parents = stateParents
        var s = leaf
        while s >= 0 {
            if s == index { return true }
            s = parents[s]
        }
        return false
    }
}

/// A declared child flow, type-erased.
struct AnyChildFlow {
    let name: String
    let policy: FailurePolicy
    let make: (_ resumingIn: String?) throws(SupervisorError) -> AnyMachineBox
    let mapOutput: (any Sendable) -> (any Sendable)?
    let mapFailure: ((SupervisionFailure) -> (any Sendable)?)?
}

@usableFromInline
final class MachineBox<F: Flow>: AnyMachineBox {
    @usableFromInline @exclusivity(unchecked) var machine: FlowMachine<F>
    @usableFromInline let route: EffectRoute<F>
    /// The last step, until its effects are performed and observers have seen it.
    var last: FlowStep<F>?
    var lastFrom: F.State?

    @inlinable
    init(machine: FlowMachine<F>, route: EffectRoute<F>, policy: FailurePolicy,
         mapOutput: ((any Sendable) -> (any Sendable)?)?, mapFailure: ((SupervisionFailure) -> (any Sendable)?)?,
         onTeardown: ((TeardownReason) -> Void)?, lifetime: FlowLifetime?) {
        self.machine = machine
        self.route = route
        var own = false
        if case .handler = route { own = true }
        super.init(flowName: machine.table.name, policy: policy, mapOutput: mapOutput, mapFailure: mapFailure,
                   onTeardown: onTeardown, lifetime: lifetime, declaresChildren: machine.table.declaresChildren,
                   ownHandler: own)
    }

    /// A box for a fresh machine: specialized in the caller's module (no generic metadata look-ups).
    @inlinable
    convenience init(fresh definition: FlowDefinition<F>, route: EffectRoute<F>, policy: FailurePolicy,
                     mapOutput: ((any Sendable) -> (any Sendable)?)? = nil,
                     mapFailure: ((SupervisionFailure) -> (any Sendable)?)? = nil,
                     onTeardown: ((TeardownReason) -> Void)? = nil, lifetime: FlowLifetime? = nil)
        throws(SupervisorError)
    {
        let machine: FlowMachine<F>
        do throws(FlowError) {
            machine = try FlowMachine(definition)
        } catch {
            throw SupervisorError(code: .invalidDefinition, message: error.message, underlying: error)
        }
        self.init(machine: machine, route: route, policy: policy, mapOutput: mapOutput, mapFailure: mapFailure,
                  onTeardown: onTeardown, lifetime: lifetime)
    }

    /// A box for a fresh machine, or for one resuming in the state labelled `label`.
    @usableFromInline
    convenience init(definition: FlowDefinition<F>, resumingIn label: String?, route: EffectRoute<F>,
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
        let machine: FlowMachine<F>
        do throws(FlowError) {
            if let resumeState {
                machine = try FlowMachine(definition, resumingIn: resumeState)
            } else {
                machine = try FlowMachine(definition)
            }
        } catch {
            let code: SupervisorError.Code = error.code == .invalidDefinition ? .invalidDefinition : .snapshotMismatch
            throw SupervisorError(code: code, message: error.message, underlying: error)
        }
        self.init(machine: machine, route: route, policy: policy, mapOutput: mapOutput, mapFailure: mapFailure,
                  onTeardown: onTeardown, lifetime: lifetime)
    }

    // MARK: The fast path

    /// Sends an event and performs its effects through the machine's own handler, in one call: the
    /// supervisor's path for a machine without declared children when nobody observes. Specialized in
    /// the caller's module. Returns `nil` when the step needs the supervisor's full treatment (it
    /// finished, or an effect failed): the step is then kept in ``last``.
    @inlinable
    func sendDirect(_ event: F.Event, supervisor: Supervisor) throws(FlowError) -> StepSummary {
        let from = Int32(truncatingIfNeeded: machine.current)
        // The step is consumed where it is matched: keeping it alive while reading its effects would
        // copy it through its generic value witnesses (measured: most of the cost of a send).
        switch try machine.send(event) {
        case .transitioned(_, _, _, let effects, _):
            if !effects.isEmpty, case .handler(let handler) = route {
                let context = EffectContext<F>(machine: MachineHandle(id: id), origin: id, link: supervisor.link)
                for effect in effects {
                    do {
                        try handler(effect, context)
                    } catch {
                        supervisor.directFailure(EffectFailure(origin: id, effect: "\(effect)", message: "\(error)"))
                        break
                    }
                }
            }
            return StepSummary(kind: .transitioned, from: from, to: Int32(truncatingIfNeeded: machine.current))
        case .ignored:
            return StepSummary(kind: .ignored, from: from, to: from)
        case .rejected:
            return StepSummary(kind: .rejected, from: from, to: from)
        case let .finished(source, target, event, effects, output, transitions):
            keep(.finished(from: source, to: target, event: event, effects: effects, output: output,
                           transitions: transitions), from: from)
            return StepSummary(kind: .finished, from: from, to: Int32(truncatingIfNeeded: machine.current))
        case let .started(state, effects, transitions):  // never: a started machine is sent events
            keep(.started(state: state, effects: effects, transitions: transitions), from: from)
            return StepSummary(kind: .finished, from: from, to: Int32(truncatingIfNeeded: machine.current))
        }
    }

    /// Starts the machine and performs its entry effects through its own handler: the direct path
    /// of a start (see ``sendDirect(_:supervisor:)``).
    @inlinable
    func startDirect(supervisor: Supervisor) throws(FlowError) -> StepSummary {
        switch try machine.start() {
        case .started(_, let effects, _):
            if !effects.isEmpty, case .handler(let handler) = route {
                let context = EffectContext<F>(machine: MachineHandle(id: id), origin: id, link: supervisor.link)
                for effect in effects {
                    do {
                        try handler(effect, context)
                    } catch {
                        supervisor.directFailure(EffectFailure(origin: id, effect: "\(effect)", message: "\(error)"))
                        break
                    }
                }
            }
            return StepSummary(kind: .started, from: -1, to: Int32(truncatingIfNeeded: machine.current))
        case let .finished(source, target, event, effects, output, transitions):
            keep(.finished(from: source, to: target, event: event, effects: effects, output: output,
                           transitions: transitions), from: nil)
            return StepSummary(kind: .finished, from: -1, to: Int32(truncatingIfNeeded: machine.current))
        case .transitioned, .ignored, .rejected:  // never from a start
            return StepSummary(kind: .started, from: -1, to: Int32(truncatingIfNeeded: machine.current))
        }
    }

    @usableFromInline
    func keep(_ step: FlowStep<F>, from: Int32?) {
        last = step
        lastFrom = from.map { machine.table.states[Int($0)] }
    }

    // MARK: The general path

    override func start() throws(FlowError) -> StepSummary {
        let step = try machine.start()
        last = step
        lastFrom = nil
        let to = Int32(machine.current)
        return StepSummary(kind: step.isFinished ? .finished : .started, from: -1, to: to)
    }

    override func accepts(_ event: Any) -> Bool { event is F.Event }

    override func deliver(_ event: Any) throws(FlowError) -> StepSummary {
        try deliverTyped(event as! F.Event)  // checked by `accepts` when the event was queued
    }

    func deliverTyped(_ event: F.Event) throws(FlowError) -> StepSummary {
        let from = Int32(machine.current)
        let fromState = machine.state
        let step = try machine.send(event)
        last = step
        lastFrom = fromState
        let kind: StepSummary.Kind
        switch step {
        case .started: kind = .started
        case .transitioned: kind = .transitioned
        case .finished: kind = .finished
        case .ignored: kind = .ignored
        case .rejected: kind = .rejected
        }
        return StepSummary(kind: kind, from: from, to: Int32(machine.current))
    }

    override func performPending(in supervisor: Supervisor) -> EffectFailure? {
        guard let step = last else { return nil }
        last = nil
        for effect in step.effects {
            do throws(EffectFailure) {
                try perform(effect, origin: id, in: supervisor)
            } catch {
                return error
            }
        }
        return nil
    }

    override func stopAndExit(in supervisor: Supervisor) -> [EffectFailure] {
        last = nil
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
        MachineBox<F>(machine: try Self.fresh(machine.definition), route: route, policy: policy,
                      mapOutput: mapOutput, mapFailure: mapFailure, onTeardown: onTeardown, lifetime: lifetime)
    }

    private static func fresh(_ definition: FlowDefinition<F>) throws(SupervisorError) -> FlowMachine<F> {
        do throws(FlowError) {
            return try FlowMachine(definition)
        } catch {
            throw SupervisorError(code: .invalidDefinition, message: error.message, underlying: error)
        }
    }

    override func describeLastStep() -> StepDescription {
        func d(_ value: Any) -> String { "\(value)" }
        switch last {
        case .started(let state, _, let transitions)?:
            return StepDescription(from: "start", to: d(state), event: "", transitions: transitions, output: "")
        case .transitioned(let from, let to, let event, _, let transitions)?:
            return StepDescription(from: d(from), to: d(to), event: d(event.kind), transitions: transitions, output: "")
        case .finished(let from, let to, let event, _, let output, let transitions)?:
            return StepDescription(from: from.map(d) ?? "start", to: d(to), event: event.map { d($0.kind) } ?? "",
                                   transitions: transitions, output: d(output))
        case .ignored(let state, let event)?, .rejected(let state, let event)?:
            return StepDescription(from: d(state), to: d(state), event: d(event.kind), transitions: FlowTransitions(),
                                   output: "")
        case nil:
            let state = d(machine.state)
            return StepDescription(from: lastFrom.map(d) ?? state, to: state, event: "", transitions: FlowTransitions(),
                                   output: machine.output.map(d) ?? "")
        }
    }

    /// The event of the last step, for tree events that name it.
    var lastEventLabel: String? { last?.event.map { "\($0)" } }

    override var stateLabel: String { "\(machine.state)" }
    override var leaf: Int { machine.current }
    override var stateParents: [Int] { machine.table.parents }

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

    override func release() {
        super.release()
        last = nil
    }
}

extension FlowStep {
    @usableFromInline
    var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }
}
