// The entry points of a flow with parallel or history states: start, send, fire and stop, each
// taking the common step (FlowMachine+CommonStep.swift) when it applies, else SCXML's algorithm
// (FlowMachine+Algorithm.swift), then committing the macrostep to the machine.

extension FlowMachine {
    /// Whether the sorted `configuration` holds `state` (binary search).
    @inlinable
    static func contains<C: RandomAccessCollection<Int32>>(_ configuration: C, _ state: Int) -> Bool where C.Index == Int {
        let low = lowerBound(configuration, state)
        return low < configuration.endIndex && configuration[low] == Int32(truncatingIfNeeded: state)
    }

    /// The first index of the sorted `configuration` whose state is not below `state` (binary search):
    /// where `state` is, or would be inserted.
    @inlinable
    static func lowerBound<C: RandomAccessCollection<Int32>>(_ configuration: C, _ state: Int) -> Int where C.Index == Int {
        var low = configuration.startIndex
        var high = configuration.endIndex
        let s = Int32(truncatingIfNeeded: state)
        while low < high {
            let mid = (low &+ high) >> 1
            if configuration[mid] < s { low = mid &+ 1 } else { high = mid }
        }
        return low
    }

    /// The positions in `configuration` of its atomic states, for a flow that takes common steps
    /// (``activeLeaves``); empty for one that does not.
    func activeLeaves(of configuration: [Int32]) -> [Int32] {
        guard table.takesCommonParallelSteps else { return [] }
        return configuration.indices.filter { table.parallelAtomic[Int(configuration[$0])] }.map { Int32($0) }
    }

    /// The first atomic state of `configuration` in document order (what ``state`` reports).
    func firstAtomic(of configuration: [Int32]) -> Int {
        let hierarchy = table.hierarchy
        for s in configuration where hierarchy.isAtomic(Int(s)) { return Int(s) }
        return Int(configuration.first ?? 0)
    }


    // MARK: Entry points

    /// ``start()`` for a flow with parallel states: enters the initial state's entry set, then runs
    /// eventless and completion transitions to a fixed point.
    @usableFromInline
    mutating func startParallel() throws(FlowError) -> FlowStep<F> {
        var log: [FlowMicrostep]?
        return try startParallel(log: &log)
    }

    /// ``startParallel()``, recording its microsteps into `log` when it is not `nil` (then `done.state`
    /// events are left to the caller unless `completions` is ``FlowCompletions/taken``).
    mutating func startParallel(log: inout [FlowMicrostep]?, completions: FlowCompletions = .taken)
        throws(FlowError) -> FlowStep<F>
    {
        guard let parallel = table.parallel, !parallel.initialStates.isEmpty else { throw alreadyStarted() }
        var step = Macrostep(parallel, configuration: [], context: contextValue)
        step.history = historyValue
        step.timers = timers
        step.log = log
        step.completions = completions
        step.beginMicrostep()
        let start = FlowHierarchy.TransitionSpan(source: FlowHierarchy.root, targets: parallel.initialStates.map { Int($0) })
        enterStates([start], &step, event: nil)
        try runToFixedPoint(&step, event: nil)
        log = step.log
        return commit(step, kind: .started, from: nil, event: nil)
    }

    /// ``send(_:)`` for a flow with parallel states: one macrostep; the common step when it applies
    /// (specialized in the caller), else SCXML's algorithm.
    @inlinable
    mutating func sendParallel(_ event: F.Event) throws(FlowError) -> FlowStep<F> {
        if let step = sendParallelCommon(event) { return step }
        return try sendParallelGeneral(event)
    }

    /// ``sendParallel(_:)`` by SCXML's algorithm.
    @usableFromInline
    mutating func sendParallelGeneral(_ event: F.Event) throws(FlowError) -> FlowStep<F> {
        var log: [FlowMicrostep]?
        return try sendParallel(event, log: &log)
    }

    /// ``sendParallel(_:)``, recording its microsteps into `log` when it is not `nil` (then `done.state`
    /// events are left to the caller unless `completions` is ``FlowCompletions/taken``).
    mutating func sendParallel(_ event: F.Event, log: inout [FlowMicrostep]?, completions: FlowCompletions = .taken)
        throws(FlowError) -> FlowStep<F>
    {
        // Only a machine in the phase `.runningParallel` comes here, which only a parallel table sets.
        guard let parallel = table.parallel else { throw unhandledError(for: event) }
        var step = Macrostep(parallel, configuration: active, context: contextValue)
        step.history = historyValue
        step.timers = timers
        step.log = log
        step.completions = completions
        let (enabled, matched) = selectTransitions(&step, kind: event.kind, event: event)
        guard !enabled.isEmpty else {
            guard matched || table.unhandled == .ignore else { throw unhandledError(for: event) }
            return generalStep(kind: matched ? .rejected : .ignored, from: nil, event: event, effects: FlowEffects(),
                               transitions: FlowTransitions(), output: nil, timers: [], fired: nil)
        }
        let transitions = removeConflictingTransitions(enabled, step)
        microstep(transitions, &step, event: event)
        // A flow with history states but no parallel state runs here too; it keeps the rule of flows
        // without parallel states: a targetless transition is not followed by eventless ones.
        if table.hierarchy.hasParallel || transitions.contains(where: { parallel.transitions[$0].target >= 0 }) {
            try runToFixedPoint(&step, event: event)
        }
        log = step.log
        return commit(step, kind: .transitioned, from: table.states[current], event: event)
    }

    /// ``fire(_:)`` by SCXML's algorithm: the armed timer's delayed transition `t` (an index of the
    /// parallel table's transitions) is the only transition the pseudo-event "timer of its state
    /// fired" selects. SCXML's selection offers it for each active atomic state inside its state, in
    /// document order: it is taken when its guard holds for one of them (with no event), then eventless
    /// and completion transitions follow as after an event. Records its microsteps into `log` when it
    /// is not `nil`, as ``sendParallel(_:log:completions:)`` does.
    mutating func fireGeneral(_ t: Int, timer: FlowTimer, log: inout [FlowMicrostep]?,
                              completions: FlowCompletions = .taken) throws(FlowError) -> FlowStep<F>
    {
        guard let parallel = table.parallel else { return ignoredTimerStep(timer) }
        var step = Macrostep(parallel, configuration: active, context: contextValue)
        step.history = historyValue
        step.timers = timers
        step.log = log
        step.completions = completions
        step.timers.disarm(timer)
        let transition = parallel.transitions[t]
        let hierarchy = table.hierarchy
        let source = Int(transition.source)
        let holds = step.configuration.contains {
            hierarchy.isAtomic(Int($0)) && hierarchy.isDescendantOrSelf(Int($0), of: source)
                && conditionMatch(transition, parallel, Int($0), step, event: nil)
        }
        guard holds else {
            timers = step.timers
            return generalStep(kind: .rejected, from: nil, event: nil, effects: FlowEffects(),
                               transitions: FlowTransitions(), output: nil, timers: [], fired: timer)
        }
        microstep([t], &step, event: nil)
        if table.hierarchy.hasParallel || transition.target >= 0 {
            try runToFixedPoint(&step, event: nil)
        }
        log = step.log
        return commit(step, kind: .transitioned, from: table.states[current], event: nil, fired: timer)
    }

    /// ``stop()`` for a flow with parallel states: the exit effects of every active state, in reverse
    /// document order (a state's descendants before it, later regions before earlier ones).
    func stopEffectsParallel() -> FlowEffects<F.Effect> {
        guard let parallel = table.parallel else { return FlowEffects() }
        var effects: [F.Effect] = []
        for s in active.reversed() {
            effects.append(contentsOf: table.effects(in: parallel.exits[Int(s)], context: contextValue, event: nil))
        }
        return FlowEffects(effects)
    }

    /// Makes the macrostep the machine's, and the step that reports it.
    private mutating func commit(_ step: Macrostep, kind: FlowStepKind, from: F.State?, event: F.Event?,
                                 fired: FlowTimer? = nil) -> FlowStep<F>
    {
        active = step.configuration
        activeLeaves = activeLeaves(of: step.configuration)
        refreshCommonConfiguration()
        contextValue = step.context
        historyValue = step.history
        timers = step.timers
        var timerChanges = step.timerChanges
        let transitions = FlowTransitions(declarations: step.taken)
        let effects = FlowEffects(step.effects)
        if step.finishedIn >= 0 {
            current = step.finishedIn
            phase = .finished
            timers.disarmAll(into: &timerChanges)
            let output = table.outputs[step.finishedIn]!.compute(contextValue, event)
            finalOutput = output
            return generalStep(kind: .finished, from: from, event: event, effects: effects, transitions: transitions,
                               output: output, timers: timerChanges, fired: fired)
        }
        current = firstAtomic(of: step.configuration)
        phase = .runningParallel
        return generalStep(kind: kind, from: from, event: event, effects: effects, transitions: transitions, output: nil,
                           timers: timerChanges, fired: fired)
    }

    /// The step of a flow with parallel states, in the machine's state after it (``current``,
    /// ``active``): its rarer data goes into the object of the last step when no step holds that any
    /// more (a step in a loop allocates nothing), else into a new one.
    @inlinable
    mutating func parallelStep(kind: FlowStepKind, from: F.State?, event: F.Event?, effects: FlowEffects<F.Effect>,
                               transitions: FlowTransitions, output: F.Output?) -> FlowStep<F> {
        if !isKnownUniquelyReferenced(&stepStorage) { stepStorage = FlowParallelStepStorage(table: table) }
        let storage = stepStorage.unsafelyUnwrapped
        storage.header.pointee.effects = effects
        storage.header.pointee.transitions = transitions
        storage.header.pointee.output = output
        storage.header.pointee.count = active.count
        active.withUnsafeBufferPointer { states in
            if let base = states.baseAddress { storage.configuration.update(from: base, count: states.count) }
        }
        return FlowStep(kind: kind, state: table.states[current], from: from, event: event, storage: storage)
    }
}
