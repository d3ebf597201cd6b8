/// What one call to ``FlowMachine/start()`` or ``FlowMachine/send(_:)`` did.
///
/// A step names the transitions it took (``transitions``), by the identity of their declaration: the
/// transition the event selected, then every eventless transition that followed. Whoever needs to
/// know what fired (a diagram's overlay, a supervisor, a test) reads it here; nothing re-derives it
/// from labels.
public enum FlowStep<F: Flow>: Sendable {
    /// The machine started and settled in `state` (its initial state, or where eventless transitions
    /// led; `transitions` lists those).
    case started(state: F.State, effects: FlowEffects<F.Effect>, transitions: FlowTransitions)
    /// The machine took a transition. `from` equals `to` for a self or targetless transition.
    case transitioned(from: F.State, to: F.State, event: F.Event, effects: FlowEffects<F.Effect>,
                      transitions: FlowTransitions)
    /// The machine entered a final state and produced its output. `from` and `event` are `nil` when
    /// the flow finished while starting.
    case finished(from: F.State?, to: F.State, event: F.Event?, effects: FlowEffects<F.Effect>, output: F.Output,
                  transitions: FlowTransitions)
    /// No transition of the current state reacts to the event (under ``UnhandledEventPolicy/ignore``).
    case ignored(state: F.State, event: F.Event)
    /// Transitions react to the event, but every guard said no. The machine stays where it is.
    case rejected(state: F.State, event: F.Event)

    /// The state the machine is in after the step.
    @inlinable
    public var state: F.State {
        switch self {
        case .started(let state, _, _): state
        case .transitioned(_, let to, _, _, _): to
        case .finished(_, let to, _, _, _, _): to
        case .ignored(let state, _): state
        case .rejected(let state, _): state
        }
    }

    /// The effects the host must perform, in order.
    @inlinable
    public var effects: FlowEffects<F.Effect> {
        // One case a line: a pattern shared by several cases makes the compiler copy the whole step
        // through its generic value witnesses first (measured: most of FlowRuntime.send's cost).
        switch self {
        case .started(_, let effects, _): effects
        case .transitioned(_, _, _, let effects, _): effects
        case .finished(_, _, _, let effects, _, _): effects
        case .ignored, .rejected: FlowEffects()
        }
    }

    /// The transitions the step took, in order: the one the event selected, then the eventless ones
    /// that followed. Empty for an ignored or rejected event (and for a start without eventless
    /// transitions). Look each up with ``FlowDefinition/subscript(_:)``.
    @inlinable
    public var transitions: FlowTransitions {
        switch self {
        case .started(_, _, let transitions): transitions
        case .transitioned(_, _, _, _, let transitions): transitions
        case .finished(_, _, _, _, _, let transitions): transitions
        case .ignored, .rejected: FlowTransitions()
        }
    }

    /// The event that caused the step, if any.
    @inlinable
    public var event: F.Event? {
        switch self {
        case .started: nil
        case .transitioned(_, _, let event, _, _): event
        case .finished(_, _, let event, _, _, _): event
        case .ignored(_, let event): event
        case .rejected(_, let event): event
        }
    }
}

extension FlowStep: Equatable where F.Event: Equatable, F.Effect: Equatable, F.Output: Equatable {}

extension FlowStep: CustomStringConvertible {
    /// One readable line, for example `email --submitEmail("a@b.c")--> password / [show(password)]`.
    public var description: String {
        func d(_ value: Any) -> String { String(describing: value) }
        let effectsText = effects.isEmpty ? "" : " / \(effects)"
        switch self {
        case .started(let state, _, _):
            return "start --> \(d(state))\(effectsText)"
        case .transitioned(let from, let to, let event, _, _):
            return "\(d(from)) --\(d(event))--> \(d(to))\(effectsText)"
        case .finished(let from, let to, let event, _, let output, _):
            let source = from.map(d) ?? "start"
            let arrow = event.map { "--\(d($0))-->" } ?? "-->"
            return "\(source) \(arrow) \(d(to))\(effectsText) => finished(\(d(output)))"
        case .ignored(let state, let event):
            return "\(d(state)) ignores \(d(event))"
        case .rejected(let state, let event):
            return "\(d(state)) rejects \(d(event)) (every guard false)"
        }
    }
}
