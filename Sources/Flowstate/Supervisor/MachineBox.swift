/// What few machines need: kept out of every box until one of them is set.
final class MachineSupervision {
    var policy: FailurePolicy = .escalate
    var mapFailure: ((SupervisionFailure) -> (any Sendable)?)?
    var onTeardown: ((TeardownReason) -> Void)?
    /// The lifetime the machine is bound to (weakly); the box's `ownerBound` stays true after it is gone.
    weak var lifetime: FlowLifetime?
    var tasks: [UInt64: Task<Void, Never>] = [:]
    /// For a root: receives its output, typed by the closure, when it completes.
    var rootOutput: ((any Sendable) -> Void)?
    /// For a flow that declares children: the states whose declared children the step being
    /// processed starts, from the core's entry plan (set when the step is reported, before its
    /// effects; taken by the follow-up that spawns them, after its effects).
    var declaredStarts: [Int32]?

    init() {}
}

/// One machine of a supervisor's tree with what stepping it needs, type-erased.
///
/// The typed work (stepping the machine, performing its effects through its typed handler) happens
/// in the subclass ``MachineBox``, which drives a whole step and calls back into the supervisor for
/// the tree's part of it (``Supervisor/stepTaken(_:_:describe:)``): a step crosses type erasure
/// once, and nothing of it is stored. The supervisor's own bookkeeping reads only this class's
/// non-generic fields, and the flow's shape (parents, exit effects) through ``FlowTableShape``,
/// without generic code.
@usableFromInline
class AnyMachineBox {
    // Fields in an order that packs them: a box is most of a supervised machine's memory (an idle
    // one-screen machine's box is 136 bytes, a 144-byte heap block; docs/PERFORMANCE.md). What the
    // supervisor or the machine already holds is not kept again here: the scope of the machine's
    // identity is the supervisor's, and the flow's shape is the machine's table (``shape``).
    /// The machine's number in its supervisor (its ``MachineID/rawValue``): with ``slot`` and the
    /// supervisor's scope, its identity (``id(in:)``). Kept after the machine is removed, so that
    /// a box still names the machine it held.
    @usableFromInline @exclusivity(unchecked) final var serial: UInt64 = 0
    /// Where the supervisor keeps the machine (its index in the core's nodes and in the boxes).
    @usableFromInline @exclusivity(unchecked) final var slot: Int32 = -1
    /// The machine's current leaf state, mirrored after every step.
    @usableFromInline @exclusivity(unchecked) final var leaf: Int32
    final let mapOutput: ((any Sendable) -> (any Sendable)?)?
    /// The failure policy (when not the default), failure mapping, hook, owner, tasks, root output.
    final var supervision: MachineSupervision?
    /// Whether the machine reached a final state (stopping it then exits nothing).
    @usableFromInline @exclusivity(unchecked) final var isFinished = false
    final let ownerBound: Bool
    /// Whether the flow has delayed transitions: its steps' timers are scheduled by the supervisor.
    @usableFromInline final let hasDelays: Bool
    /// Whether the flow's states declare children (``FlowTableShape/declaresChildren``), read on
    /// every step without a call to ``shape``.
    @usableFromInline final let declaresChildren: Bool

    @usableFromInline
    init(shape: FlowTableShape, leaf: Int, policy: FailurePolicy, mapOutput: ((any Sendable) -> (any Sendable)?)?,
         mapFailure: ((SupervisionFailure) -> (any Sendable)?)?, onTeardown: ((TeardownReason) -> Void)?,
         lifetime: FlowLifetime?, hasDelays: Bool = false) {
        self.hasDelays = hasDelays
        self.declaresChildren = shape.declaresChildren
        self.leaf = Int32(truncatingIfNeeded: leaf)
        self.mapOutput = mapOutput
        self.ownerBound = lifetime != nil
        if policy != .escalate || mapFailure != nil || onTeardown != nil || lifetime != nil {
            let supervision = MachineSupervision()
            supervision.policy = policy
            supervision.mapFailure = mapFailure
            supervision.onTeardown = onTeardown
            supervision.lifetime = lifetime
            self.supervision = supervision
        }
    }

    /// The machine's identity, given by `supervisor` (the one that holds the box).
    @inlinable @inline(__always)
    final func id(in supervisor: Supervisor) -> MachineID {
        MachineID(rawValue: serial, scope: supervisor.core.scope, slot: slot)
    }

    /// Gives the box the identity its supervisor placed it under.
    final func place(_ id: MachineID) {
        serial = id.rawValue
        slot = id.slot
    }

    /// The flow's compiled shape, shared by every machine of the definition: the machine's own
    /// table, asked of the typed box (one reference, kept once). Read when a machine is torn down,
    /// fails, is inspected or observed, or takes a step that starts declared children; never on a
    /// plain step.
    var shape: FlowTableShape { fatalError("abstract") }

    final var flowName: String { shape.name }
    final var policy: FailurePolicy { supervision?.policy ?? .escalate }
    final var stateHierarchy: FlowHierarchy { shape.hierarchy }
    final var mapFailure: ((SupervisionFailure) -> (any Sendable)?)? { supervision?.mapFailure }
    final var onTeardown: ((TeardownReason) -> Void)? { supervision?.onTeardown }
    final var lifetime: FlowLifetime? { supervision?.lifetime }
    final var taskCount: Int { supervision?.tasks.count ?? 0 }
    /// Gives a root the closure that receives its output.
    @usableFromInline
    final func setRootOutput(_ deliver: @escaping (any Sendable) -> Void) { ensuredSupervision.rootOutput = deliver }

    final var ensuredSupervision: MachineSupervision {
        if let supervision { return supervision }
        let made = MachineSupervision()
        supervision = made
        return made
    }

    /// Whether stopping the machine performs exit effects (a running machine whose active states
    /// have some; with parallel states, a running machine: its leaves are the engine's), given its
    /// ``shape`` (the caller asks for it once). Known without generic code.
    final func exitsOnStop(_ shape: FlowTableShape) -> Bool {
        !isFinished && shape.exitsOnStop(leaf: leaf)
    }

    /// The machine's configuration (its active states, ascending) when it rested in `leaf`, for a
    /// flow without parallel states: the leaf and its ancestors.
    final func configuration(atLeaf leaf: Int32) -> [Int32] {
        stateHierarchy.ancestorsOrSelf(of: Int(leaf)).reversed().map { Int32($0) }
    }

    // MARK: Stepping (overridden by MachineBox<F>)

    /// Starts the machine: tells the supervisor if someone observes (it reports the start), then
    /// performs its entry effects (the first failure stops the rest).
    @usableFromInline
    func start(in supervisor: Supervisor) throws(FlowError) -> StepOutcome { fatalError("abstract") }
    /// Steps the machine with a queued event of its flow's type (checked when it was queued).
    func deliver(_ event: Any, in supervisor: Supervisor) throws(FlowError) -> StepOutcome { fatalError("abstract") }
    /// Fires a timer the machine armed (the core checked it is still armed and due), as a queued
    /// event's step.
    func fire(_ timer: FlowTimer, in supervisor: Supervisor) throws(FlowError) -> StepOutcome { fatalError("abstract") }
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
    /// The child flow the state at `index` declares.
    func childFlow(at index: Int) -> AnyChildFlow? { fatalError("abstract") }
    /// Whether the state at `index` declares a child flow (``childFlow(at:)`` without making it).
    func declaresChild(at index: Int) -> Bool { fatalError("abstract") }
    /// Whether the state at `index` is in the machine's configuration (the engine's answer).
    func isActive(_ index: Int) -> Bool { fatalError("abstract") }
    /// The machine's active states in document order (the engine's configuration).
    func activePositions() -> [Int32] { fatalError("abstract") }
    /// The machine's active atomic states in document order: one per active region.
    func leafPositions() -> [Int] { fatalError("abstract") }
    /// The machine's output, once it finished.
    func output() -> (any Sendable)? { fatalError("abstract") }
    /// The machine's context, of its flow's context type (a declared child's context is made from it).
    var anyContext: any Sendable { fatalError("abstract") }
    // What observers, inspection and snapshots read (labels, the outline, the context as JSON) is not
    // the box's: see `DescribedMachine` in MachineBox+Snapshot.swift.
}

/// A machine of flow `F` in a supervisor's tree: steps it, starts it and stops it, and performs its
/// effects through its typed handler (or maps them to its parent's).
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
        super.init(shape: machine.table, leaf: machine.current, policy: policy, mapOutput: mapOutput,
                   mapFailure: mapFailure, onTeardown: onTeardown, lifetime: lifetime,
                   hasDelays: machine.table.hasDelays)
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
            throw SupervisorError(error, otherwise: .invalidDefinition)
        }
        self.init(machine: machine, route: route, policy: policy, mapOutput: mapOutput, mapFailure: mapFailure,
                  onTeardown: onTeardown, lifetime: lifetime)
    }

    // MARK: Stepping

    /// Sends an event and performs the step's effects: the one step of a supervised machine, whether
    /// its event was sent now (``Supervisor/send(_:to:)``, specialized in the caller's module) or
    /// queued (``deliver(_:in:)``). The supervisor hears of the step before its effects
    /// (``Supervisor/stepTaken(_:_:describe:)``) only when it has something to do then: someone
    /// observes, or the flow declares children, whose states the step may have left.
    @inlinable
    func step(_ event: F.Event, in supervisor: Supervisor) throws(FlowError) -> StepOutcome {
        let from = leaf
        // With parallel states, the configuration the step leaves (a flat flow's step keeps nothing).
        let before = machine.phase == .runningParallel ? machine.active : nil
        return take(try machine.send(event), from: from, before: before, in: supervisor)
    }

    override func fire(_ timer: FlowTimer, in supervisor: Supervisor) throws(FlowError) -> StepOutcome {
        let from = leaf
        let before = machine.phase == .runningParallel ? machine.active : nil
        return take(try machine.fire(timer), from: from, before: before, in: supervisor)
    }

    /// What follows an event's or a timer's step of the running machine: its timers scheduled, the
    /// supervisor told (``report(_:_:before:to:)``), its effects performed.
    @inlinable @inline(__always)
    func take(_ step: FlowStep<F>, from: Int32, before: [Int32]?, in supervisor: Supervisor) -> StepOutcome {
        if hasDelays { supervisor.scheduleTimers(step.timers, of: id(in: supervisor)) }
        let kind: StepSummary.Kind
        switch step.kind {
        case .transitioned:
            kind = .transitioned
        case .finished:
            kind = .finished
            isFinished = true
        case .ignored:
            return StepOutcome(summary: StepSummary(kind: .ignored, from: from, to: from))
        case .rejected:
            return StepOutcome(summary: StepSummary(kind: .rejected, from: from, to: from))
        case .started:  // never: a running machine is sent events
            kind = .transitioned
        }
        leaf = Int32(truncatingIfNeeded: machine.current)
        let summary = StepSummary(kind: kind, from: from, to: leaf)
        if supervisor.isObserved || declaresChildren { report(step, summary, before: before ?? [], to: supervisor) }
        return StepOutcome(summary: summary, failure: perform(step.effects, in: supervisor))
    }

    /// Starts the machine and performs its entry effects: the one start of a supervised machine,
    /// started now (specialized in the caller's module) or queued.
    @inlinable
    override func start(in supervisor: Supervisor) throws(FlowError) -> StepOutcome {
        let step = try machine.start()
        if hasDelays { supervisor.scheduleTimers(step.timers, of: id(in: supervisor)) }
        leaf = Int32(truncatingIfNeeded: machine.current)
        isFinished = step.kind == .finished
        let summary = StepSummary(kind: isFinished ? .finished : .started, from: -1, to: leaf)
        if supervisor.isObserved { report(step, summary, before: [], to: supervisor) }
        return StepOutcome(summary: summary, failure: perform(step.effects, in: supervisor))
    }

    /// Tells the supervisor of a step before its effects (``Supervisor/stepTaken(_:_:describe:)``),
    /// with a description made only if it asks. `before` is the engine's configuration before the
    /// step, for a flow with parallel states (empty otherwise): the supervisor plans the step's
    /// declared children from it. Out of line: the step that needs no report carries no closure.
    @usableFromInline @inline(never)
    func report(_ step: FlowStep<F>, _ summary: StepSummary, before: [Int32], to supervisor: Supervisor) {
        supervisor.stepTaken(self, summary, before: before) {
            let table = machine.table
            let from: String? = if !before.isEmpty {
                Self.label(ofLeaves: before.lazy.map { Int($0) }.filter(table.hierarchy.isAtomic).map { table.states[$0] })
            } else if summary.from >= 0 {
                "\(table.states[Int(summary.from)])"
            } else {
                nil
            }
            return Self.description(of: step, from: from)
        }
    }

    override func deliver(_ event: Any, in supervisor: Supervisor) throws(FlowError) -> StepOutcome {
        try step(event as! F.Event, in: supervisor)  // checked by `accepts` when the event was queued
    }

    override func accepts(_ event: Any) -> Bool { event is F.Event }

    /// Performs effects in order, through the machine's route (its own handler, or its parent's);
    /// the first failure stops the rest and is returned.
    @inlinable @inline(__always)
    func perform(_ effects: FlowEffects<F.Effect>, in supervisor: Supervisor) -> EffectFailure? {
        guard !effects.isEmpty else { return nil }
        let id = id(in: supervisor)
        let context = EffectContext<F>(machine: MachineHandle(id: id), origin: id, link: supervisor.link)
        for effect in effects {
            do {
                try route.perform(effect, context)
            } catch {
                return EffectRoute<F>.failure(error, origin: id, effect: effect)
            }
        }
        return nil
    }

    override func stopAndExit(in supervisor: Supervisor) -> [EffectFailure] {
        let exits = machine.stop()
        var failures: [EffectFailure] = []
        for effect in exits {
            do throws(EffectFailure) {
                try perform(effect, origin: id(in: supervisor), in: supervisor)
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

    /// Performs one effect produced by `origin` (this machine, or a declared child whose effects are
    /// mapped to this flow's), through the machine's route.
    @usableFromInline
    func perform(_ effect: F.Effect, origin: MachineID, in supervisor: Supervisor) throws(EffectFailure) {
        do {
            try route.perform(effect, EffectContext(machine: MachineHandle(id: id(in: supervisor)), origin: origin,
                                                    link: supervisor.link))
        } catch {
            throw EffectRoute<F>.failure(error, origin: origin, effect: effect)
        }
    }

    override func remake() throws(SupervisorError) -> AnyMachineBox {
        let machine: FlowMachine<F>
        do throws(FlowError) {
            machine = try FlowMachine(self.machine.definition, context: startContext)
        } catch {
            throw SupervisorError(error, otherwise: .invalidDefinition)
        }
        let fresh = MachineBox<F>(machine: machine, route: route, policy: policy, mapOutput: mapOutput,
                                  mapFailure: mapFailure, onTeardown: onTeardown, lifetime: lifetime)
        if let rootOutput = supervision?.rootOutput { fresh.setRootOutput(rootOutput) }
        return fresh
    }

    override func childFlow(at index: Int) -> AnyChildFlow? {
        guard let spec = machine.table.childFlows[index] else { return nil }
        return AnyChildFlow(name: spec.name, policy: spec.policy, make: spec.make,
                            mapOutput: { spec.mapOutput($0) },
                            mapFailure: spec.mapFailure.map { map in { map($0) } })
    }

    override func declaresChild(at index: Int) -> Bool { machine.table.childFlows[index] != nil }

    override func output() -> (any Sendable)? { machine.output }

    override func isActive(_ index: Int) -> Bool { machine.isActive(position: index) }

    override func activePositions() -> [Int32] { machine.activePositions }

    override func leafPositions() -> [Int] { machine.leafPositions }

    override var anyContext: any Sendable { machine.context }

    override var shape: FlowTableShape { machine.table }
}
