import Logging

/// What the supervisor needs from one machine, whatever its flow's types.
protocol AnyMachineBox: AnyObject {
    var flowName: String { get }
    var stateLabel: String { get }
    var activeIndices: [Int] { get }
    var isFinished: Bool { get }
    /// Whether any state of the flow runs a declared child (if not, the supervisor skips that work).
    var declaresChildren: Bool { get }
    /// Starts the machine; nothing is performed yet.
    func start() throws(FlowError) -> BoxStep
    /// Sends an event (which must be of the flow's event type).
    func send(_ event: Any) throws(FlowError) -> BoxStep
    /// Stops the machine and returns its exit effects, to perform.
    func stop() -> BoxStep
    /// Performs a step's effects through the handler or the parent's (via `forwardToParent`).
    func perform(_ step: BoxStep, id: MachineID, in supervisor: Supervisor) throws(EffectFailure)
    /// Performs an effect forwarded by a child (already mapped to this flow's effect type).
    func performForwarded(_ effect: Any, id: MachineID, origin: MachineID, in supervisor: Supervisor) throws(EffectFailure)
    /// The declared child flow of the state at `index`, type-erased for the supervisor.
    func childFlow(at index: Int) -> AnyChildFlow?
    func stateIndex(labelled label: String) -> Int?
    func label(ofState index: Int) -> String
    func output() -> (any Sendable)?
    var outline: FlowOutline { get }
}

/// A step, as the supervisor sees it. Labels are made only when asked for (by observers or logs),
/// so a step that nobody watches costs no string formatting.
struct BoxStep {
    enum Kind { case started, transitioned, finished, ignored, rejected, stopped }
    var kind: Kind
    var fromState: Any?
    var toState: Any
    var eventValue: Any?
    /// The event's payload-free kind: what tree events and diagrams name.
    var eventKind: Any?
    var outputValue: Any?
    /// The effects, still typed (each of the flow's effect type).
    var effects: [Any]

    var from: String { fromState.map { "\($0)" } ?? "start" }
    var to: String { "\(toState)" }
    var event: String { eventKind.map { "\($0)" } ?? "" }
    var outputLabel: String { outputValue.map { "\($0)" } ?? "" }
}

/// An effect handler threw.
struct EffectFailure: Error {
    var origin: MachineID
    var effect: String
    var message: String
}

/// A declared child flow, type-erased.
struct AnyChildFlow {
    let name: String
    let policy: FailurePolicy
    let make: (String?) throws(SupervisorError) -> any AnyMachineBox
    let mapOutput: (any Sendable) -> (any Sendable)?
    let mapFailure: ((SupervisionFailure) -> (any Sendable)?)?
}

final class MachineBox<F: Flow>: AnyMachineBox {
    var machine: FlowMachine<F>
    let route: EffectRoute<F>

    init(machine: FlowMachine<F>, route: EffectRoute<F>) {
        self.machine = machine
        self.route = route
    }

    /// A box for a fresh machine, or for one resuming in the state labelled `label`.
    convenience init(definition: FlowDefinition<F>, resumingIn label: String?, handler route: EffectRoute<F>)
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
        self.init(machine: machine, route: route)
    }

    var flowName: String { machine.definition.name }
    var stateLabel: String { "\(machine.state)" }
    var activeIndices: [Int] { machine.isFinished || machine.isStopped ? [] : machine.activeIndices }
    var isFinished: Bool { machine.isFinished }
    var declaresChildren: Bool { machine.table.declaresChildren }

    func start() throws(FlowError) -> BoxStep { describe(try machine.start(), from: nil) }

    func send(_ event: Any) throws(FlowError) -> BoxStep {
        let from = machine.state
        return describe(try machine.send(event as! F.Event), from: from)
    }

    func stop() -> BoxStep {
        let state = machine.state
        let exits = machine.stop()
        return BoxStep(kind: .stopped, fromState: state, toState: state, eventValue: nil, eventKind: nil, outputValue: nil,
                       effects: exits.isEmpty ? [] : exits.map { $0 as Any })
    }

    /// One pattern match extracts everything (each generic accessor would cost metadata look-ups).
    private func describe(_ step: FlowStep<F>, from: F.State?) -> BoxStep {
        func erased(_ effects: FlowEffects<F.Effect>) -> [Any] { effects.isEmpty ? [] : effects.map { $0 as Any } }
        switch step {
        case .started(let state, let effects):
            return BoxStep(kind: .started, fromState: nil, toState: state, eventValue: nil, eventKind: nil,
                           outputValue: nil, effects: erased(effects))
        case .transitioned(_, let to, let event, let effects):
            return BoxStep(kind: .transitioned, fromState: from, toState: to, eventValue: event, eventKind: event.kind,
                           outputValue: nil, effects: erased(effects))
        case .finished(_, let to, let event, let effects, let output):
            return BoxStep(kind: .finished, fromState: from, toState: to, eventValue: event, eventKind: event?.kind,
                           outputValue: output, effects: erased(effects))
        case .ignored(let state, let event):
            return BoxStep(kind: .ignored, fromState: from, toState: state, eventValue: event, eventKind: event.kind,
                           outputValue: nil, effects: [])
        case .rejected(let state, let event):
            return BoxStep(kind: .rejected, fromState: from, toState: state, eventValue: event, eventKind: event.kind,
                           outputValue: nil, effects: [])
        }
    }

    func perform(_ step: BoxStep, id: MachineID, in supervisor: Supervisor) throws(EffectFailure) {
        for effect in step.effects {
            try perform(effect as! F.Effect, id: id, origin: id, in: supervisor)
        }
    }

    func performForwarded(_ effect: Any, id: MachineID, origin: MachineID, in supervisor: Supervisor) throws(EffectFailure) {
        try perform(effect as! F.Effect, id: id, origin: origin, in: supervisor)
    }

    private func perform(_ effect: F.Effect, id: MachineID, origin: MachineID, in supervisor: Supervisor) throws(EffectFailure) {
        switch route {
        case .handler(let handler):
            do {
                try handler(effect, EffectContext(machine: MachineHandle(id: id), origin: origin, supervisor: supervisor))
            } catch {
                throw EffectFailure(origin: origin, effect: "\(effect)", message: "\(error)")
            }
        case .forward(let map):
            guard let mapped = map(effect) else { return }
            try supervisor.forwardToParent(mapped, from: id, origin: origin)
        }
    }

    func childFlow(at index: Int) -> AnyChildFlow? {
        guard let spec = machine.table.childFlows[index] else { return nil }
        return AnyChildFlow(name: spec.name, policy: spec.policy, make: spec.make,
                            mapOutput: { spec.mapOutput($0) },
                            mapFailure: spec.mapFailure.map { map in { map($0) } })
    }

    func stateIndex(labelled label: String) -> Int? {
        let matches = Self.states(labelled: label, in: machine.definition)
        return matches.count == 1 ? matches[0] : nil
    }

    /// The indices of the states with a label: snapshots name states by label, which must be unique.
    static func states(labelled label: String, in definition: FlowDefinition<F>) -> [Int] {
        definition.states.indices.filter { definition.states[$0].label == label }
    }

    func label(ofState index: Int) -> String { machine.definition.states[index].label }

    func output() -> (any Sendable)? { machine.output }

    var outline: FlowOutline { machine.definition.outline }
}
