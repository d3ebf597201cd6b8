// The engine of a flow with parallel states: SCXML's algorithm (the recommendation's Appendix D,
// https://www.w3.org/TR/scxml/#AlgorithmforSCXMLInterpretation) over a configuration that is a set
// of states, one function per procedure under its name. A flow without parallel states never comes
// here: its machine rests in one leaf and takes precompiled moves (FlowMachine.swift).
//
// What differs from the recommendation, and why:
// - There is no data model and no external queue: `send` is one macrostep for one external event.
//   The internal queue holds only `done.state.<id>` events, which the engine raises itself.
// - A transition's `Update` (Flowstate's only way to change the context) runs before the microstep's
//   executable content, in the order of the transitions, so that every effect a microstep derives
//   reads the context after its updates (the rule of a flat flow, docs/SEMANTICS.md).
// - A final state with no parallel ancestor finishes the flow (Flowstate's rule from before parallel
//   states; SCXML raises `done.state` of its parent and ends only on a top-level final). Inside a
//   parallel state a final state is SCXML's.
// - Eventless guards see the event that started the step (as in a flat flow).

extension FlowMachine {
    /// What one macrostep builds before the machine commits it: nothing is changed if it throws.
    @usableFromInline
    struct Macrostep {
        /// The active states, sorted by number (document order).
        var configuration: [Int32]
        var context: F.Context
        var effects: [F.Effect] = []
        var taken: [Int32] = []
        /// `done.state.<id>` events raised and not yet processed (state numbers), first in first out.
        var internalQueue: [Int32] = []
        var queueHead = 0
        /// The final state that finished the flow, or -1.
        var finishedIn = -1
        /// What the history states remember (SCXML's `historyValue`), as the macrostep changes it.
        var history: [Int: [Int]] = [:]
        /// How many eventless and completion microsteps were taken.
        var microsteps = 0
        /// The armed timers, as the macrostep's exits and entries change them, and what it did to them.
        var timers = FlowArmedTimers()
        var timerChanges: [FlowTimerChange] = []
        /// For ``FlowMachine/sendReportingMicrosteps(_:completions:)``: the microsteps taken, recorded as they are
        /// taken; `nil` (the machine's own steps) records nothing.
        var log: [FlowMicrostep]?
        /// Whether the `done.state` events raised are processed here (the machine's own steps) or
        /// only reported, for a driver to deliver in their turn.
        var completions = FlowCompletions.taken

        /// Records one action in the current microstep's log, when recording.
        @inline(__always)
        mutating func record(_ action: FlowMicrostep.Action) {
            guard let last = log?.indices.last else { return }
            log?[last].actions.append(action)
        }

        /// Opens the log's next microstep, when recording.
        @inline(__always)
        mutating func beginMicrostep() {
            log?.append(FlowMicrostep(actions: []))
        }

        init(configuration: [Int32], context: F.Context) {
            self.configuration = configuration
            self.context = context
        }

        func isActive(_ state: Int) -> Bool { FlowMachine.contains(configuration, state) }
    }

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
        var step = Macrostep(configuration: [], context: contextValue)
        step.history = historyValue
        step.timers = timers
        step.log = log
        step.completions = completions
        step.beginMicrostep()
        let start = FlowHierarchy.Transition(source: FlowHierarchy.root, targets: parallel.initialStates.map { Int($0) })
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
        var step = Macrostep(configuration: active, context: contextValue)
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
        if table.hierarchy.hasParallel || transitions.contains(where: { table.parallel!.transitions[$0].target >= 0 }) {
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
        var step = Macrostep(configuration: active, context: contextValue)
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

    // MARK: The common step

    /// The common step of a flow with parallel states, or `nil` when SCXML's algorithm must take it
    /// (nothing is changed then, and no guard was asked).
    ///
    /// For each active atomic state in document order, the first move of it or its ancestors that the
    /// event selects (as ``send(_:)`` selects for a flat flow). When every move the active states
    /// could take is local (it neither leaves nor enters a parallel state: ``FlowTable/ParallelMove``),
    /// has no update and enters no final state, and the flow has no eventless transition, SCXML's
    /// algorithm reduces to this: no two selected moves conflict (each exits only inside its own
    /// region), no eventless transition or completion follows, and the exit set, the transitions'
    /// effects and the entry set are the moves' own, in the recommendation's order (every exit in
    /// reverse document order, then each move's effects, then every entry in document order). The
    /// configuration is changed in place. A step of one move reports its laid-out effects without
    /// copying them; a step of several joins them (inline up to two, else in one array).
    @inlinable
    mutating func sendParallelCommon(_ event: F.Event) -> FlowStep<F>? {
        guard table.takesCommonParallelSteps else { return nil }
        let kind = event.kind
        // The configuration table decides the step when no guard of code takes part (``FlowTable/configRanges``);
        // no configuration in it has a slow leaf.
        if let step = tableStep(event, kind: kind) { return step }
        // Every move an active state could take must be a common one: decided before any guard is
        // asked (the buffer is empty when every move of the flow is). Only atomic states have moves.
        if !table.parallelSlowLeaf.isEmpty {
            for k in activeLeaves where table.parallelSlowLeaf[Int(active[Int(k)])] { return nil }
        }
        // For a small flow, the step is packed in a word (``FlowStep/Payload/regions``): the active
        // atomic states, from field 2 on, gathered here as the selection passes them.
        let width = table.stepFieldBits
        var packed: UInt64 = 0
        var leafShift = 2 &* width
        // The selected moves, by index in the table's event moves (``CommonSelection``). The guard is
        // asked here, not through a method of the machine: calling one would copy the machine.
        var selection = CommonSelection()
        for position in activeLeaves {
            let k = Int(position)
            let leaf = Int(active[k])
            if width > 0 {
                packed |= UInt64(truncatingIfNeeded: leaf &+ 1) &<< UInt64(truncatingIfNeeded: leafShift)
                leafShift &+= width
            }
            var i = table.eventRanges[leaf]
            let end = table.eventRanges[leaf &+ 1]
            while i < end {
                if table.eventKinds[i] == kind {
                    selection.matched = true
                    let move = table.eventMoves[i]
                    let g = Int(move.guardIndex)
                    let allowed = g < 0 ? true
                        : table.inStates[g] >= 0 ? Self.contains(active, Int(table.inStates[g]))
                        : table.guardHolds(g, state: leaf, event: event, context: contextValue)
                    if allowed {
                        // This state's field is the last one packed.
                        selection.offer(i, at: k, field: leafShift &- width,
                                        targetless: table.parallelMoves[i].domain == FlowTable<F>.ParallelMove.targetless,
                                        moves: table.eventMoves)
                        break
                    }
                }
                i &+= 1
            }
        }
        let first = selection.first
        let second = selection.second
        let matched = selection.matched
        guard first >= 0 else {
            guard matched || table.unhandled == .ignore else { return nil }  // the general step throws
            if width > 0 {
                return FlowStep(kind: matched ? .rejected : .ignored, state: table.states[current], from: nil,
                                event: event, table: table, packed: packed)
            }
            return parallelStep(kind: matched ? .rejected : .ignored, from: nil, event: event, effects: FlowEffects(),
                                transitions: FlowTransitions(), output: nil)
        }
        let from = table.states[current]
        defer { refreshCommonConfiguration() }  // after the moves below are applied
        guard second >= 0 else {
            let move = table.eventMoves[Int(first)]
            applyCommon(table.parallelMoves[Int(first)], at: Int(selection.firstAt))
            if width > 0 {
                packed |= UInt64(truncatingIfNeeded: first &+ 1)
                if move.target >= 0 { packed = Self.repack(packed, field: selection.firstField, leaf: move.target, width) }
                return FlowStep(kind: .transitioned, state: table.states[current], from: from, event: event,
                                table: table, packed: packed)
            }
            return parallelStep(kind: .transitioned, from: from, event: event, effects: table.effects(of: move),
                                transitions: FlowTransitions(declaration: move.declaration), output: nil)
        }
        let effects: FlowEffects<F.Effect>
        let transitions: FlowTransitions
        if selection.more == nil {
            let one = table.eventMoves[Int(first)]
            let two = table.eventMoves[Int(second)]
            // The later region first: the earlier one's states keep their positions.
            applyCommon(table.parallelMoves[Int(second)], at: Int(selection.secondAt))
            applyCommon(table.parallelMoves[Int(first)], at: Int(selection.firstAt))
            if width > 0 && one.effectCount &+ two.effectCount <= 2 {
                packed |= UInt64(truncatingIfNeeded: first &+ 1)
                    | UInt64(truncatingIfNeeded: second &+ 1) &<< UInt64(truncatingIfNeeded: width)
                if one.target >= 0 { packed = Self.repack(packed, field: selection.firstField, leaf: one.target, width) }
                if two.target >= 0 { packed = Self.repack(packed, field: selection.secondField, leaf: two.target, width) }
                return FlowStep(kind: .transitioned, state: table.states[current], from: from, event: event,
                                table: table, packed: packed)
            }
            effects = commonEffects(CommonMoves(first, second))
            transitions = FlowTransitions(declaration: one.declaration, two.declaration)
        } else {
            let more = selection.moves
            effects = commonEffects(more)
            transitions = FlowTransitions(declarations: more.map { table.eventMoves[Int($0)].declaration })
            let pairs = selection.more!
            for j in stride(from: pairs.count - 2, through: 0, by: -2) {
                applyCommon(table.parallelMoves[Int(pairs[j])], at: Int(pairs[j + 1]))
            }
        }
        return parallelStep(kind: .transitioned, from: from, event: event, effects: effects, transitions: transitions,
                            output: nil)
    }

    /// The common step as the configuration table decides it (``FlowTable/configOutcomes``), or `nil`
    /// when it does not: the machine's configuration is not in the table, a guard of code takes part, or the
    /// step is not one it packs (the selection takes it then; nothing is changed).
    @inlinable @inline(__always)
    mutating func tableStep(_ event: F.Event, kind: F.Event.Kind) -> FlowStep<F>? {
        let c = Int(commonConfiguration)
        guard c >= 0 else { return nil }
        var j = table.firstOutcome(c, kind)
        let end = Int(table.configRanges[c &+ 1])
        while j < end && !(table.configKinds[j] == kind) { j &+= 1 }
        if j == end {
            // No active state has a move of this kind. (Under `.fail`, the selection finds none
            // either, and SCXML's algorithm throws.)
            guard table.unhandled == .ignore else { return nil }
            return FlowStep(kind: .ignored, state: table.states[current], from: nil, event: event,
                            table: table, packed: table.configLeaves[c])
        }
        let outcome = table.configOutcomes[j]
        guard outcome.first >= 0 else { return nil }
        let from = table.states[current]
        let firstAt = Int(activeLeaves[Int(outcome.firstLeaf)])
        if outcome.second >= 0 {
            // The later region first: the earlier one's states keep their positions.
            applyCommon(table.parallelMoves[Int(outcome.second)], at: Int(activeLeaves[Int(outcome.secondLeaf)]))
        }
        applyCommon(table.parallelMoves[Int(outcome.first)], at: firstAt)
        commonConfiguration = outcome.next
        return FlowStep(kind: .transitioned, state: table.states[current], from: from, event: event,
                        table: table, packed: outcome.packed)
    }

    /// Sets ``commonConfiguration`` to the configuration table's number for the machine's configuration
    /// (-1: none), after any change the table did not decide.
    @inlinable
    mutating func refreshCommonConfiguration() {
        guard !table.configRanges.isEmpty else { return }  // no table: it stays -1
        commonConfiguration = table.configurationNumber(active: active, leaves: activeLeaves)
    }

    /// `packed` with the leaf field at bit `field` replaced by `leaf` (the atomic state a move settles in).
    @inlinable @inline(__always)
    static func repack(_ packed: UInt64, field: Int32, leaf: Int32, _ width: Int) -> UInt64 {
        let shift = UInt64(truncatingIfNeeded: field)
        let mask = ((1 as UInt64) &<< UInt64(truncatingIfNeeded: width)) &- 1
        return packed & ~(mask &<< shift) | UInt64(truncatingIfNeeded: leaf &+ 1) &<< shift
    }

    /// The moves the common step selects (``sendParallelCommon(_:)``): for each active atomic state in
    /// document order, the first move of it or its ancestors whose event and guard select it.
    @usableFromInline
    struct CommonSelection {
        /// The first two moves, by index in the table's event moves (-1: none), and the positions in
        /// the configuration of the atomic states that selected them.
        @usableFromInline var first: Int32 = -1
        @usableFromInline var second: Int32 = -1
        @usableFromInline var firstAt: Int32 = -1
        @usableFromInline var secondAt: Int32 = -1
        /// For a step packed in a word, the bit where the field of the atomic state that selected each
        /// of the first two moves starts.
        @usableFromInline var firstField: Int32 = 0
        @usableFromInline var secondField: Int32 = 0
        /// Every move and its position, in pairs, when there are three or more (`nil` otherwise: a
        /// step of one or two moves releases no array).
        @usableFromInline var more: [Int32]?
        /// Whether any transition reacts to the event's kind (guards aside).
        @usableFromInline var matched = false

        @inlinable init() {}

        @inlinable @inline(__always)
        mutating func append(_ move: Int32, at position: Int32, field: Int32) {
            if first < 0 {
                first = move
                firstAt = position
                firstField = field
            } else if second < 0 {
                second = move
                secondAt = position
                secondField = field
            } else {
                if more == nil { more = [first, firstAt, second, secondAt] }
                more!.append(move)
                more!.append(position)
            }
        }

        /// The moves, when there are three or more.
        @inlinable
        var moves: [Int32] { more.map { pairs in pairs.indices.lazy.filter { $0 % 2 == 0 }.map { pairs[$0] } } ?? [] }

        /// Selects move `i` (by index in the table's event `moves`) for the atomic state at `position`
        /// (its packed field starting at bit `field`). A `targetless` transition of a state above several
        /// active leaves is selected for each of them; SCXML's enabled set holds it once, so it is
        /// selected once. (A move with a target from above two active leaves crosses their parallel
        /// state: never common.) The step and the configuration table
        /// (``FlowTable/commonConfigurations(hierarchy:width:ranges:kinds:moves:parallelMoves:slowLeaf:inStates:)``)
        /// both select through here.
        @inlinable @inline(__always)
        mutating func offer(_ i: Int, at position: Int, field: Int, targetless: Bool,
                            moves: UnsafeMutableBufferPointer<FlowTable<F>.Move>) {
            if first < 0 || !targetless || !holds(moves[i].declaration, moves) {
                append(Int32(truncatingIfNeeded: i), at: Int32(truncatingIfNeeded: position),
                       field: Int32(truncatingIfNeeded: field))
            }
        }

        /// Whether a selected move was compiled from transition `declaration`.
        @inlinable
        func holds(_ declaration: Int32, _ moves: UnsafeMutableBufferPointer<FlowTable<F>.Move>) -> Bool {
            if more != nil { return self.moves.contains { moves[Int($0)].declaration == declaration } }
            return moves[Int(first)].declaration == declaration
                || (second >= 0 && moves[Int(second)].declaration == declaration)
        }
    }

    /// The effects of several common moves (selected in document order of their states), in SCXML's
    /// order: every move's exits, the last move's first; every move's own effects; every move's entries.
    @inlinable
    func commonEffects<Moves: BidirectionalCollection<Int32>>(_ moves: Moves) -> FlowEffects<F.Effect> {
        let storage = table.effects.elements
        var total = 0
        for i in moves { total &+= Int(table.eventMoves[Int(i)].effectCount) }
        var first: F.Effect?
        var second: F.Effect?
        var all: [F.Effect] = []
        if total > 2 { all.reserveCapacity(total) }
        func add(_ range: Range<Int>) {
            for k in range {
                if total > 2 { all.append(storage[k]) } else if first == nil { first = storage[k] } else { second = storage[k] }
            }
        }
        for i in moves.reversed() {
            let start = Int(table.eventMoves[Int(i)].effectStart)
            add(start..<start &+ Int(table.parallelMoves[Int(i)].exitCount))
        }
        for i in moves {
            let common = table.parallelMoves[Int(i)]
            let start = Int(table.eventMoves[Int(i)].effectStart) &+ Int(common.exitCount)
            add(start..<start &+ Int(common.contentCount))
        }
        for i in moves {
            let move = table.eventMoves[Int(i)]
            let common = table.parallelMoves[Int(i)]
            let start = Int(move.effectStart) &+ Int(common.exitCount) &+ Int(common.contentCount)
            add(start..<Int(move.effectStart) &+ Int(move.effectCount))
        }
        if total > 2 { return FlowEffects(all) }
        guard let first else { return FlowEffects() }
        return FlowEffects(first: first, second: second)
    }

    /// Two selected moves, as a collection (without an array).
    @usableFromInline
    struct CommonMoves: RandomAccessCollection {
        @usableFromInline let first: Int32
        @usableFromInline let second: Int32

        @inlinable
        init(_ first: Int32, _ second: Int32) {
            self.first = first
            self.second = second
        }

        @inlinable var startIndex: Int { 0 }
        @inlinable var endIndex: Int { 2 }
        @inlinable subscript(position: Int) -> Int32 { position == 0 ? first : second }
    }

    /// Takes a common move selected by the atomic state at `position` of the configuration: the active
    /// states below its domain become the ones it enters, in place, ``current`` the first active
    /// atomic state, and ``activeLeaves`` their positions. A common move crosses no parallel state, so
    /// the active states below its domain are one chain, from the domain's child down to that atomic
    /// state: the ``FlowTable/ParallelMove/exited`` positions ending at `position` (states are numbered
    /// in document order, a state before its descendants). Moves of one step are taken from the last position to the first, so that each
    /// finds its chain where the selection saw it.
    @inlinable @inline(__always)
    mutating func applyCommon(_ move: FlowTable<F>.ParallelMove, at position: Int) {
        // The usual move, inline: it exits one atomic state and enters one, in its place (its
        // domain is that state's parent). ``current`` is the state exited when it was below the domain.
        if move.exited == 1 && move.entryCount == 1 {
            let entered = table.parallelEntries[Int(move.entryStart)]
            if current > Int(move.domain) && current < Int(move.domainEnd) { current = Int(entered) }
            active[position] = entered
            return
        }
        applyCommonChain(move, at: position)
    }

    /// ``applyCommon(_:at:)`` for a move that exits or enters a chain of states.
    @usableFromInline
    mutating func applyCommonChain(_ move: FlowTable<F>.ParallelMove, at position: Int) {
        guard move.domain >= -1 else { return }  // targetless
        let entries = UnsafeBufferPointer(rebasing: table.parallelEntries[Int(move.entryStart)..<Int(move.entryStart &+ move.entryCount)])
        let high = position &+ 1
        let low = high &- Int(move.exited)
        if Int(move.exited) == entries.count {
            for k in 0..<entries.count { active[low &+ k] = entries[k] }
        } else {
            active.replaceSubrange(low..<high, with: entries)
            // The atomic state at `position` is now the last state entered; it and every later one
            // moved with the states after the chain.
            let moved = Int32(truncatingIfNeeded: entries.count &- Int(move.exited))
            let from = Int32(truncatingIfNeeded: position)
            for j in activeLeaves.indices where activeLeaves[j] >= from { activeLeaves[j] &+= moved }
        }
        // The first active atomic state: unchanged unless it was below the domain (every region
        // before it has its own, earlier, atomic state otherwise); then the leaf entered, the last
        // state entered (the only atomic one below the domain now).
        if current > Int(move.domain) && current < Int(move.domainEnd), let leaf = entries.last {
            current = Int(leaf)
        }
    }

    // MARK: The main loop

    /// The rest of a macrostep (the recommendation's `mainEventLoop` before it waits for an external
    /// event): eventless transitions while any is enabled, else the next `done.state.<id>` event, until
    /// neither is left or the flow has finished.
    private func runToFixedPoint(_ step: inout Macrostep, event: F.Event?) throws(FlowError) {
        while step.finishedIn < 0 {
            var (enabled, _) = selectTransitions(&step, kind: nil, event: event)
            if enabled.isEmpty {
                // A driver that asked for them delivers the `done.state` events itself (they were reported).
                guard step.completions == .taken, step.queueHead < step.internalQueue.count else { return }
                let done = step.internalQueue[step.queueHead]
                step.queueHead += 1
                (enabled, _) = selectTransitions(&step, kind: nil, doneOf: done, event: event)
                if enabled.isEmpty { continue }
            }
            step.microsteps += 1
            if step.microsteps > FlowTable<F>.eventlessLimit {
                throw FlowError(
                    code: .eventlessLoop,
                    message: "flow '\(table.name)' took \(FlowTable<F>.eventlessLimit) eventless transitions "
                        + "without settling: check the guards of its eventless transitions"
                )
            }
            microstep(removeConflictingTransitions(enabled, step), &step, event: event)
        }
    }

    // MARK: Selecting transitions

    /// SCXML's `selectTransitions(event)` and `selectEventlessTransitions()`: for each active atomic
    /// state in document order, the first transition of it or of its ancestors (innermost first, each
    /// state's in declaration order) that matches and whose guard holds; each transition once.
    ///
    /// Matching: `kind` for an external event; else `doneOf` for a completion event; else the
    /// eventless transitions (with a target: a targetless eventless transition would never settle).
    /// Also returns whether some transition matched, guards aside (a rejected event).
    private func selectTransitions(_ step: inout Macrostep, kind: F.Event.Kind?, doneOf: Int32 = -1,
                                   event: F.Event?) -> (enabled: [Int], matched: Bool) {
        guard let parallel = table.parallel else { return ([], false) }
        let hierarchy = table.hierarchy
        var enabled: [Int] = []
        var matched = false
        for atomic in step.configuration where hierarchy.isAtomic(Int(atomic)) {
            let atomicState = Int(atomic)
            search: for s in hierarchy.ancestorsOrSelf(of: atomicState) {
                for t in parallel.ranges[s]..<parallel.ranges[s + 1] {
                    let transition = parallel.transitions[t]
                    if let kind {
                        guard parallel.kinds[t] == kind else { continue }
                    } else if doneOf >= 0 {
                        guard transition.doneOf == doneOf else { continue }
                    } else {
                        guard parallel.kinds[t] == nil && transition.doneOf < 0 && transition.target >= 0
                            && transition.delay == nil else {
                            continue
                        }
                    }
                    matched = true
                    guard conditionMatch(transition, parallel, atomicState, step, event: event) else { continue }
                    if !enabled.contains(t) { enabled.append(t) }
                    break search
                }
            }
        }
        return (enabled, matched)
    }

    /// SCXML's `conditionMatch(t)`: the transition's guard holds (an ``Guard/in(_:)`` guard asks the
    /// configuration).
    private func conditionMatch(_ transition: FlowParallelTable<F>.Transition, _ parallel: FlowParallelTable<F>,
                                _ atomicState: Int, _ step: Macrostep, event: F.Event?) -> Bool {
        let g = Int(transition.guardIndex)
        guard g >= 0 else { return true }
        let asked = parallel.guardStates[g]
        if asked >= 0 { return step.isActive(Int(asked)) }
        return table.guardHolds(g, state: atomicState, event: event, context: step.context)
    }

    /// SCXML's `removeConflictingTransitions(enabledTransitions)`: of two transitions whose exit sets
    /// intersect, the one whose source is a descendant of the other's wins; otherwise the one selected
    /// first (document order of the atomic states) wins.
    private func removeConflictingTransitions(_ enabled: [Int], _ step: Macrostep) -> [Int] {
        guard enabled.count > 1, let parallel = table.parallel else { return enabled }
        let hierarchy = table.hierarchy
        var filtered: [Int] = []
        var exitSets: [[Int]] = []
        for t1 in enabled {
            let exit1 = computeExitSet([t1], step)
            var preempted = false
            var toRemove: [Int] = []
            for (k, t2) in filtered.enumerated() where !Set(exit1).isDisjoint(with: exitSets[k]) {
                if hierarchy.isDescendant(Int(parallel.transitions[t1].source), of: Int(parallel.transitions[t2].source)) {
                    toRemove.append(k)
                } else {
                    preempted = true
                    break
                }
            }
            guard !preempted else { continue }
            for k in toRemove.reversed() {
                filtered.remove(at: k)
                exitSets.remove(at: k)
            }
            filtered.append(t1)
            exitSets.append(exit1)
        }
        return filtered
    }

    // MARK: Microsteps

    /// The hierarchy's view of transitions of the table.
    private func hierarchyTransitions(_ transitions: [Int]) -> [FlowHierarchy.Transition] {
        guard let parallel = table.parallel else { return [] }
        return transitions.map { t in
            let transition = parallel.transitions[t]
            guard transition.target >= 0 else { return FlowHierarchy.Transition(source: Int(transition.source), targets: []) }
            // SCXML's getTransitionDomain honours `type="internal"`: the hierarchy decides whether the
            // source is the domain.
            return FlowHierarchy.Transition(source: Int(transition.source),
                                            targets: [Int(transition.target)] + transition.moreTargets.map { Int($0) },
                                            isInternal: transition.isInternal)
        }
    }

    /// SCXML's `computeExitSet(transitions)` against the macrostep's configuration.
    private func computeExitSet(_ transitions: [Int], _ step: Macrostep) -> [Int] {
        table.hierarchy.computeExitSet(hierarchyTransitions(transitions),
                                       configuration: step.configuration.lazy.map { Int($0) }, history: step.history)
    }

    /// SCXML's `microstep(enabledTransitions)`: the transitions' updates (Flowstate's, see the top of
    /// this file), then `exitStates`, `executeTransitionContent` and `enterStates`.
    private func microstep(_ transitions: [Int], _ step: inout Macrostep, event: F.Event?) {
        guard let parallel = table.parallel else { return }
        step.beginMicrostep()
        for t in transitions where parallel.transitions[t].updates {
            table.applyUpdate(Int(parallel.transitions[t].declaration), &step.context, event: event)
        }
        exitStates(transitions, &step, event: event)
        executeTransitionContent(transitions, &step, event: event)
        enterStates(hierarchyTransitions(transitions), &step, event: event)
    }

    /// SCXML's `exitStates(enabledTransitions)`: what the histories of the exited states remember (of
    /// the configuration before any exit), then the exit set in exit order, each state's exit effects,
    /// and the state removed from the configuration.
    private func exitStates(_ transitions: [Int], _ step: inout Macrostep, event: F.Event?) {
        guard let parallel = table.parallel else { return }
        let exitSet = computeExitSet(transitions, step)
        table.hierarchy.recordHistory(exiting: exitSet, configuration: step.configuration.lazy.map { Int($0) },
                                      into: &step.history)
        for s in exitSet {
            step.effects.append(contentsOf: table.effects(in: parallel.exits[s], context: step.context, event: event))
            if parallel.hasDelays { step.timers.disarm(state: s, into: &step.timerChanges) }
            remove(s, from: &step.configuration)
            step.record(.exit(s))
        }
    }

    /// SCXML's `executeTransitionContent(enabledTransitions)`: each transition's own effects, in order;
    /// each transition is reported as taken.
    private func executeTransitionContent(_ transitions: [Int], _ step: inout Macrostep, event: F.Event?) {
        guard let parallel = table.parallel else { return }
        for t in transitions {
            let transition = parallel.transitions[t]
            step.effects.append(contentsOf: table.effects(in: transition.effects, context: step.context, event: event))
            step.taken.append(transition.declaration)
            step.record(.take(FlowTransitionID(position: Int(transition.declaration))))
        }
    }

    /// SCXML's `enterStates(enabledTransitions)`: the entry set in entry order, each state added to the
    /// configuration and its entry effects performed. Entering a final state finishes the flow when no
    /// parallel state contains it; otherwise it raises `done.state.<parent>`, and, when the parent is a
    /// region whose parallel state is now in a final state, `done.state.<parallel>`.
    private func enterStates(_ transitions: [FlowHierarchy.Transition], _ step: inout Macrostep, event: F.Event?) {
        guard let parallel = table.parallel else { return }
        let hierarchy = table.hierarchy
        for s in hierarchy.computeEntrySet(transitions, history: step.history) {
            insert(s, into: &step.configuration)
            if parallel.hasDelays { step.timers.arm(state: s, parallel, into: &step.timerChanges) }
            step.record(.enter(s))
            step.effects.append(contentsOf: table.effects(in: parallel.entries[s], context: step.context, event: event))
            guard table.isFinal[s] else { continue }
            if parallel.finishes[s] {
                step.finishedIn = s
                return
            }
            let parent = hierarchy.parent(of: s)
            step.internalQueue.append(Int32(parent))
            step.record(.done(parent))
            let grandparent = parent >= 0 ? hierarchy.parent(of: parent) : FlowHierarchy.root
            if hierarchy.isParallel(grandparent) && isInFinalState(grandparent, step) {
                step.internalQueue.append(Int32(grandparent))
                step.record(.done(grandparent))
            }
        }
    }

    /// SCXML's `isInFinalState(s)`: a compound state is when one of its final children is active; a
    /// parallel state is when every region is. Iterative.
    private func isInFinalState(_ state: Int, _ step: Macrostep) -> Bool {
        let hierarchy = table.hierarchy
        var pending = [state]
        while let s = pending.popLast() {
            if hierarchy.isParallel(s) {
                pending.append(contentsOf: hierarchy.children(of: s).filter { !hierarchy.isHistory($0) })
            } else if !hierarchy.children(of: s).contains(where: { table.isFinal[$0] && step.isActive($0) }) {
                return false
            }
        }
        return true
    }

    // MARK: The configuration

    private func insert(_ state: Int, into configuration: inout [Int32]) {
        let low = Self.lowerBound(configuration, state)
        let s = Int32(truncatingIfNeeded: state)
        if low < configuration.count && configuration[low] == s { return }
        configuration.insert(s, at: low)
    }

    private func remove(_ state: Int, from configuration: inout [Int32]) {
        let low = Self.lowerBound(configuration, state)
        if low < configuration.count && configuration[low] == Int32(truncatingIfNeeded: state) {
            configuration.remove(at: low)
        }
    }
}
