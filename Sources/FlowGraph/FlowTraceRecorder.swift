import Flowstate

/// Records ``FlowTrace``s while flows run: a runtime's steps, or every machine of a supervisor's tree.
///
/// The transitions of each step are the ones the engine reported taking (`FlowStep.transitions`, or
/// a tree event's), never found again from labels. A runtime's steps carry their effects. A
/// supervisor's tree events do not: wrap the effect handler with ``recording(_:)`` and the effects the
/// supervisor performs are added to the step of the machine they came from (a declared child's
/// effects, performed by its parent's handler, to the child's step).
///
/// ```swift
/// let supervisor = Supervisor()
/// let recorder = FlowTraceRecorder(supervisor)
/// let root = try supervisor.start(definition, handler: recorder.recording { effect, context in ... })
/// try supervisor.send(.submit, to: root)
/// let page = try FlowViewer(definition, trace: recorder.trace(of: root.id)).html()
/// ```
///
/// A recorder is used on the actor (or thread) that drives what it records; it is not `Sendable`.
/// Recording stops when the recorder is deallocated or ``cancel()`` is called.
public final class FlowTraceRecorder {
    private var traces: [MachineID: FlowTrace] = [:]
    private var runtimeTrace = FlowTrace(steps: [])
    private var observation: FlowObservation?
    private var recordsEffects = false
    private var isSupervisor = false

    /// The machines seen starting, in the order they started (empty when recording a runtime).
    public private(set) var machines: [MachineID] = []

    /// Records a runtime's steps from now on (start it after creating the recorder to record its start).
    public init<F: Flow>(_ runtime: FlowRuntime<F>) {
        observation = runtime.observe { [weak self] step in self?.runtimeTrace.append(step) }
    }

    /// Records every machine of a supervisor's tree from now on: each machine's start and
    /// transitions, and its effects when the handler is wrapped with ``recording(_:)``.
    public init(_ supervisor: Supervisor) {
        isSupervisor = true
        observation = supervisor.observe { [weak self] event in self?.observe(event) }
    }

    /// The trace recorded: the runtime's, or, for a supervisor, the first machine's that started
    /// (usually the root); empty before anything started.
    public var trace: FlowTrace {
        guard isSupervisor else { return runtimeTrace }
        return machines.first.flatMap { traces[$0] } ?? FlowTrace(steps: [])
    }

    /// The trace of one machine of the supervisor's tree (empty for a machine not seen starting).
    public func trace(of machine: MachineID) -> FlowTrace { traces[machine] ?? FlowTrace(steps: []) }

    /// An effect handler that records each effect (as `"\(effect)"`) on the current step of the
    /// machine it comes from (`EffectContext.origin`), then calls `handler`. Pass it to
    /// `Supervisor.start` or `spawn`; the supervisor performs a step's effects after reporting the step.
    ///
    /// Once a handler is wrapped, steps record their effects (an empty list when there are none);
    /// steps recorded before have `nil` effects (not recorded).
    public func recording<F: Flow>(_ handler: @escaping EffectHandler<F>) -> EffectHandler<F> {
        recordsEffects = true
        return { [weak self] effect, context in
            if let self, var trace = self.traces[context.origin], !trace.steps.isEmpty {
                self.traces[context.origin] = nil  // keep the trace's storage unique while it grows
                let last = trace.steps.count - 1
                trace.steps[last].effects = (trace.steps[last].effects ?? []) + ["\(effect)"]
                self.traces[context.origin] = trace
            }
            try handler(effect, context)
        }
    }

    /// Stops recording (what was recorded stays).
    public func cancel() {
        observation?.cancel()
        observation = nil
    }

    private func observe(_ event: TreeEvent) {
        let effects: [String]? = recordsEffects ? [] : nil
        switch event {
        case .spawned(let id, _, _, let state, let taken):
            machines.append(id)
            traces[id] = FlowTrace(steps: [.init(from: nil, to: state, event: nil, transitions: taken.map(\.position),
                                                 effects: effects)])
        case .transitioned(let id, let from, let to, let kind, let taken):
            traces[id, default: FlowTrace(steps: [])].steps.append(
                .init(from: from, to: to, event: kind, transitions: taken.map(\.position), effects: effects))
        default:
            break
        }
    }
}
