/// What a box needs beyond stepping: a machine resumed from a snapshot (its state found by label, its
/// context decoded from JSON), and the labels that observers, inspection and snapshots read.
extension MachineBox {
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
            try definition.refuseParallelStates()
            if let resumeState {
                machine = try FlowMachine(definition, resumingIn: resumeState, context: start)
            } else {
                machine = try FlowMachine(definition, context: start)
            }
        } catch {
            let code: SupervisorError.Code = error.code == .invalidDefinition ? .invalidDefinition
                : error.code == .unsupported ? .unsupported : .snapshotMismatch
            throw SupervisorError(code: code, message: error.message, underlying: error)
        }
        self.init(machine: machine, route: route, policy: policy, mapOutput: mapOutput, mapFailure: mapFailure,
                  onTeardown: onTeardown, lifetime: lifetime)
    }

    /// The indices of the states with a label: snapshots name states by label, which must be unique.
    static func states(labelled label: String, in definition: FlowDefinition<F>) -> [Int] {
        definition.states.indices.filter { definition.states[$0].label == label }
    }

    private static func decodeContext(_ json: String?, of definition: FlowDefinition<F>) throws(SupervisorError)
        -> F.Context?
    {
        guard let json else { return nil }
        return try ContextCoding.decode(F.Context.self, from: json, flow: definition.name)
    }

    /// A step as observers see it: labels of the states and of the event's kind.
    static func description(of step: FlowStep<F>, from: F.State?) -> StepDescription {
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
}
