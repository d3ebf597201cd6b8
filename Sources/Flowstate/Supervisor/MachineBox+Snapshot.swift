/// What observers, inspection and snapshots read of a machine, typed: labels, the flow's outline, the
/// context as JSON. Not the erased box's (``AnyMachineBox`` keeps what stepping needs): its one
/// subclass, ``MachineBox``, conforms below.
protocol DescribedMachine: AnyMachineBox {
    /// The label of the current state: for a flow with parallel states, every active leaf's, in
    /// document order, joined by ", " (``stateLabels``).
    var stateLabel: String { get }
    /// The labels of the active leaves, in document order: one, for a flow without parallel states;
    /// with them, one per active region.
    var stateLabels: [String] { get }
    /// The label of the state at `index`.
    func label(ofState index: Int) -> String
    /// The index of the one state labelled `label`, if exactly one is.
    func stateIndex(labelled label: String) -> Int?
    /// The flow's structure, for drawing.
    var outline: FlowOutline { get }
    /// The machine's context as JSON for a snapshot; `nil` for a flow without context.
    func encodedContext() throws(SupervisorError) -> String?
    /// What the machine's history states remember, by label.
    var rememberedLabels: [String: [String]] { get }
    /// The restored machine's armed timers, each with the time it has left: what `saved` recorded, or
    /// its whole delay for a timer `saved` does not name (a snapshot written before timers were
    /// recorded). A saved timer the machine has not armed (its state is not active in the restored
    /// configuration, or declares no such delayed transition) is a ``SupervisorError/Code/snapshotMismatch``
    /// naming it.
    func restoredTimers(_ saved: [TimerSnapshot]) throws(SupervisorError) -> [(timer: FlowTimer, left: Duration)]
}

extension AnyMachineBox {
    /// The box as observers, inspection and snapshots read it.
    var described: any DescribedMachine { self as! any DescribedMachine }  // every box is a MachineBox<F>
}

extension MachineBox: DescribedMachine {
    var stateLabel: String { Self.label(ofLeaves: machine.leafPositions.map { machine.table.states[$0] }) }

    var stateLabels: [String] { machine.leafPositions.map { "\(machine.table.states[$0])" } }

    func label(ofState index: Int) -> String { machine.definition.states[index].label }

    func stateIndex(labelled label: String) -> Int? {
        let matches = Self.states(labelled: label, in: machine.definition)
        return matches.count == 1 ? matches[0] : nil
    }

    var outline: FlowOutline { machine.definition.outline }

    func encodedContext() throws(SupervisorError) -> String? {
        try ContextCoding.encode(machine.context, flow: machine.definition.name)
    }

    func restoredTimers(_ saved: [TimerSnapshot]) throws(SupervisorError) -> [(timer: FlowTimer, left: Duration)] {
        let definition = machine.definition
        var left: [FlowTimer: Duration] = [:]
        for timer in saved {
            guard let armed = machine.armedTimers.first(where: {
                $0.transition.position == timer.transition && label(ofState: $0.state) == timer.state
            }) else {
                let transition = definition.transitions.indices.contains(timer.transition)
                    ? " ('\(definition.transitions[timer.transition].label)')" : ""
                throw SupervisorError(code: .snapshotMismatch,
                                      message: "flow '\(definition.name)' has no timer of state '\(timer.state)' "
                                          + "(transition \(timer.transition)\(transition)) armed in the restored "
                                          + "configuration: the state is not active, or declares no such delay")
            }
            left[armed] = timer.left
        }
        return machine.armedTimers.map { ($0, left[$0] ?? definition.delay(of: $0) ?? .zero) }
    }

    var rememberedLabels: [String: [String]] {
        var labels: [String: [String]] = [:]
        for (history, states) in machine.remembered { labels["\(history)"] = states.map { "\($0)" } }
        return labels
    }
}

/// What a box needs beyond stepping: a machine resumed from a snapshot (its state found by label, its
/// context decoded from JSON), and a step described for observers.
extension MachineBox {
    /// A box for a fresh machine, or for one resuming with the states labelled `labels` active (its
    /// leaves: one, or one per active region), the context saved as `savedContext` (JSON; `nil`:
    /// `context`, else the definition's initial one) and its histories remembering `history` (labels).
    /// Leaves that make no configuration the flow can be in, and histories that remember what they
    /// cannot, are refused by the engine (`FlowMachine(_:resumingIn:history:context:)`),
    /// as ``SupervisorError/Code/snapshotMismatch`` with its reason.
    convenience init(definition: FlowDefinition<F>, resumingIn labels: [String]?, history: [String: [String]] = [:],
                     savedContext: String? = nil,
                     context: F.Context? = nil, route: EffectRoute<F>,
                     policy: FailurePolicy = .escalate, mapOutput: ((any Sendable) -> (any Sendable)?)? = nil,
                     mapFailure: ((SupervisionFailure) -> (any Sendable)?)? = nil,
                     onTeardown: ((TeardownReason) -> Void)? = nil, lifetime: FlowLifetime? = nil)
        throws(SupervisorError)
    {
        var resumeStates: [F.State]?
        if let labels {
            resumeStates = []
            for label in labels {
                let matches = Self.states(labelled: label, in: definition)
                guard matches.count == 1 else {
                    let message = matches.isEmpty
                        ? "flow '\(definition.name)' has no state '\(label)' any more"
                        : "flow '\(definition.name)' has \(matches.count) states labelled '\(label)'"
                    throw SupervisorError(code: .snapshotMismatch, message: message)
                }
                resumeStates?.append(definition.states[matches[0]].state)
            }
        }
        var remembered: [F.State: [F.State]] = [:]
        for (historyLabel, labels) in history {
            func state(_ label: String) throws(SupervisorError) -> F.State {
                let matches = Self.states(labelled: label, in: definition)
                guard matches.count == 1 else {
                    throw SupervisorError(code: .snapshotMismatch,
                                          message: "flow '\(definition.name)' has \(matches.count) states labelled "
                                              + "'\(label)' (history '\(historyLabel)' remembers it)")
                }
                return definition.states[matches[0]].state
            }
            var states: [F.State] = []
            for label in labels { states.append(try state(label)) }
            remembered[try state(historyLabel)] = states
        }
        let start = try Self.decodeContext(savedContext, of: definition) ?? context ?? definition.initialContext
        let machine: FlowMachine<F>
        do throws(FlowError) {
            if let resumeStates {
                machine = try FlowMachine(definition, resumingIn: resumeStates, history: remembered, context: start)
            } else {
                machine = try FlowMachine(definition, context: start)
            }
        } catch {
            throw SupervisorError(error, otherwise: .snapshotMismatch)
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

    /// The label observers and inspection give a machine resting in `leaves`: the leaf's label, or,
    /// with parallel states, every active leaf's in document order, joined by ", " (as flow files'
    /// simulations describe a configuration).
    static func label(ofLeaves leaves: some Sequence<F.State>) -> String {
        leaves.lazy.map { "\($0)" }.joined(separator: ", ")
    }

    /// A step as observers see it: labels of the states (every active leaf, ``label(ofLeaves:)``) and
    /// of the event's kind; `from` labels the states the step left.
    static func description(of step: FlowStep<F>, from: String?) -> StepDescription {
        let event = step.event.map { "\($0.kind)" } ?? ""
        let to = label(ofLeaves: step.leaves)
        switch step.kind {
        case .started:
            return StepDescription(from: "start", to: to, event: "", transitions: step.transitions)
        case .transitioned, .finished:
            return StepDescription(from: from ?? step.from.map { "\($0)" } ?? "start", to: to, event: event,
                                   transitions: step.transitions)
        case .ignored, .rejected:
            return StepDescription(from: to, to: to, event: event, transitions: FlowTransitions())
        }
    }
}
