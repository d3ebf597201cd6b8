// Delayed transitions (`After`): a machine's timers. A flow with delayed transitions runs SCXML's
// algorithm (FlowMachine+Parallel.swift), whose exit and entry sets cancel and arm them; a flow
// without pays nothing (its table says so once, and its steps never carry timer data).

/// The fields of a ``FlowMachine`` that only a flow with parallel states, history or delayed
/// transitions uses (``FlowMachine/statechart``): one object, made when one of them is first set, copied when a
/// machine that shares it changes it.
@usableFromInline
final class FlowStatechartStorage<F: Flow>: @unchecked Sendable {
    // Mutated only through FlowMachine.uniqueStatechart(), when no other machine holds it: no two
    // accesses overlap, so no run-time exclusivity check either.
    @usableFromInline @exclusivity(unchecked) var stepStorage: FlowParallelStepStorage<F>?
    @usableFromInline @exclusivity(unchecked) var historyValue: [Int: [Int]] = [:]
    @usableFromInline @exclusivity(unchecked) var timers = FlowArmedTimers()

    @usableFromInline init() {}

    /// A copy, for a machine about to change what it shares.
    @usableFromInline func copy() -> FlowStatechartStorage {
        let copy = FlowStatechartStorage()
        copy.stepStorage = stepStorage
        copy.historyValue = historyValue
        copy.timers = timers
        return copy
    }
}

/// The timers a machine has armed, in the order it armed them, and how many it has ever armed (each
/// arming's generation).
@usableFromInline
struct FlowArmedTimers: Sendable {
    /// The armed timers, oldest first.
    var armed: [FlowTimer] = []
    /// The generation of the last timer armed (0: none yet).
    var generation: UInt64 = 0

    @usableFromInline init() {}

    /// Arms a timer for each delayed transition declared on `state`, in declaration order.
    mutating func arm<F: Flow>(state: Int, _ parallel: FlowParallelTable<F>, into changes: inout [FlowTimerChange]) {
        for t in parallel.ranges[state]..<parallel.ranges[state + 1] {
            guard let delay = parallel.transitions[t].delay else { continue }
            generation &+= 1
            let timer = FlowTimer(state: state, transition: FlowTransitionID(position: Int(parallel.transitions[t].declaration)),
                                  generation: generation)
            armed.append(timer)
            changes.append(.arm(timer, after: delay))
        }
    }

    /// Cancels the timers armed by `state`.
    mutating func disarm(state: Int, into changes: inout [FlowTimerChange]) {
        guard armed.contains(where: { $0.state == state }) else { return }
        for timer in armed where timer.state == state { changes.append(.cancel(timer)) }
        armed.removeAll { $0.state == state }
    }

    /// Cancels every armed timer (the flow finished).
    mutating func disarmAll(into changes: inout [FlowTimerChange]) {
        for timer in armed { changes.append(.cancel(timer)) }
        armed.removeAll()
    }

    /// Forgets `timer`, which fired.
    mutating func disarm(_ timer: FlowTimer) {
        armed.removeAll { $0 == timer }
    }
}

extension FlowMachine {
    /// The timers armed for delayed transitions (``After``) of the active states, in the order they
    /// were armed: what a host must have scheduled. Empty for a flow without delayed transitions,
    /// before ``start()``, and once the flow has finished or was stopped.
    ///
    /// A machine restored from a snapshot (`FlowMachine(_:resumingIn:history:context:)`) has armed a
    /// timer for each delayed transition of its active states, as entering them would have: whoever
    /// restores it schedules them (``FlowDefinition/delay(of:)`` gives each one's delay), or fires
    /// them at once if the time already waited has passed.
    public var armedTimers: [FlowTimer] { timers.armed }

    /// The generation of the last timer this machine armed (0: none yet). Saved with a machine's
    /// state and given back to `FlowMachine(_:resumingIn:history:context:lastTimerGeneration:)`, it
    /// makes the restored machine number its timers after it, so that no timer of the saved machine
    /// (spent, cancelled or still armed) is taken for one of the restored machine's.
    public var lastTimerGeneration: UInt64 { timers.generation }

    /// Fires a timer: takes its delayed transition if the timer is still armed (its state is active
    /// and was not left since it armed it) and the transition's guard holds, run to completion like
    /// an event's step (eventless and completion transitions follow).
    ///
    /// A timer step has no event (``FlowStep/event`` is `nil`): ``FlowStep/timer`` says which timer
    /// caused it, and its guards, emits and output rules see a `nil` event.
    /// - Returns: A ``FlowStepKind/transitioned`` or ``FlowStepKind/finished`` step; a
    ///   ``FlowStepKind/rejected`` one when the guard said no (the timer is spent); an
    ///   ``FlowStepKind/ignored`` one, with no effects and nothing changed, for a timer that is not
    ///   armed (stale: its state was left, it already fired, the machine finished or was stopped).
    /// - Throws: ``FlowError/Code/eventlessLoop``. The machine is unchanged when it throws.
    public mutating func fire(_ timer: FlowTimer) throws(FlowError) -> FlowStep<F> {
        guard let t = armedTransition(of: timer) else { return ignoredTimerStep(timer) }
        var log: [FlowMicrostep]?
        return try fireGeneral(t, timer: timer, log: &log)
    }

    /// The armed timer's delayed transition `t`, or `nil` when `timer` is not armed (a stale timer).
    func armedTransition(of timer: FlowTimer) -> Int? {
        guard phase == .runningParallel, timers.armed.contains(timer), let parallel = table.parallel else { return nil }
        let range = parallel.ranges[timer.state]..<parallel.ranges[timer.state + 1]
        return range.first(where: { Int(parallel.transitions[$0].declaration) == timer.transition.position })
    }

    /// The step of a timer that is not armed: nothing changes. A running machine reports it as any
    /// ignored step of its flow (every active leaf); one that has not started, finished or stopped
    /// reports its state.
    mutating func ignoredTimerStep(_ timer: FlowTimer) -> FlowStep<F> {
        guard phase == .runningParallel else {
            let details = FlowStepDetails<F>(effects: FlowEffects(), transitions: FlowTransitions(), output: nil,
                                           fired: timer)
            return FlowStep(payload: .details(details), state: table.states[current], from: nil, event: nil,
                            bits: Int32(FlowStepKind.ignored.rawValue))
        }
        return generalStep(kind: .ignored, from: nil, event: nil, effects: FlowEffects(), transitions: FlowTransitions(),
                           output: nil, timers: [], fired: timer)
    }

    /// A step of SCXML's algorithm (``parallelStep(kind:from:event:effects:transitions:output:)``), with
    /// the timers it armed and cancelled and the timer that caused it, for a flow with delayed transitions.
    mutating func generalStep(kind: FlowStepKind, from: F.State?, event: F.Event?, effects: FlowEffects<F.Effect>,
                              transitions: FlowTransitions, output: F.Output?, timers changes: [FlowTimerChange],
                              fired: FlowTimer?) -> FlowStep<F> {
        let step = parallelStep(kind: kind, from: from, event: event, effects: effects, transitions: transitions,
                                output: output)
        if table.hasDelays {
            // The step is not handed out yet: its storage is still the machine's to write.
            let header = stepStorage.unsafelyUnwrapped.header
            header.pointee.timers = changes
            header.pointee.fired = fired
        }
        return step
    }
}
