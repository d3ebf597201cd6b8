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
    @inlinable
    var moved: Bool { kind != .ignored && kind != .rejected }
}

/// An effect handler threw.
@usableFromInline
struct EffectFailure: Error, Equatable {
    @usableFromInline var origin: MachineID
    @usableFromInline var effect: String
    @usableFromInline var message: String

    @usableFromInline
    init(origin: MachineID, effect: String, message: String) {
        self.origin = origin
        self.effect = effect
        self.message = message
    }
}

/// How a machine's step is described to observers (labels made only when someone observes).
@usableFromInline
struct StepDescription {
    var from: String
    var to: String
    var event: String
    var transitions: FlowTransitions

    @usableFromInline
    init(from: String, to: String, event: String, transitions: FlowTransitions) {
        self.from = from
        self.to = to
        self.event = event
        self.transitions = transitions
    }
}

/// What a step did, for the supervisor to go on with (``SupervisorCore/followUp(of:_:declaresChildren:)``):
/// the summary, and the first effect that failed.
@usableFromInline
struct StepOutcome {
    @usableFromInline var summary: StepSummary
    @usableFromInline var failure: EffectFailure?

    @inlinable
    init(summary: StepSummary, failure: EffectFailure? = nil) {
        self.summary = summary
        self.failure = failure
    }
}
