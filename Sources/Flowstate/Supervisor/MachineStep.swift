/// What the supervisor needs to know of a step, whatever the flow's types: no labels, no effects.
@usableFromInline
struct StepSummary {
    /// The engine's kind of step: one enum for both (started, transitioned, finished, ignored, rejected).
    @usableFromInline typealias Kind = FlowStepKind
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
///
/// A class: a step's outcome carries one only when an effect failed, and an absent reference costs a
/// send nothing to pass around (a struct of strings is copied and destroyed on every step).
@usableFromInline
final class EffectFailure: Error, Equatable, Sendable {
    /// The machine that produced the effect.
    @usableFromInline let origin: MachineID
    /// The effect, described.
    let effect: String
    /// The error, described.
    let message: String

    @usableFromInline
    init(origin: MachineID, effect: String, message: String) {
        self.origin = origin
        self.effect = effect
        self.message = message
    }

    @usableFromInline
    static func == (lhs: EffectFailure, rhs: EffectFailure) -> Bool {
        lhs.origin == rhs.origin && lhs.effect == rhs.effect && lhs.message == rhs.message
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
