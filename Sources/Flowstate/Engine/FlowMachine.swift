/// A running flow: a pure state machine over a ``FlowDefinition``.
///
/// The machine is a value. ``send(_:)`` is `mutating` and returns what happened as a ``FlowStep``;
/// it performs nothing itself. Whoever owns the machine performs the step's effects (see
/// ``FlowRuntime`` for a host that does, with run-to-completion queueing). The same definition and
/// the same events always give the same steps.
///
/// ```swift
/// var machine = try FlowMachine(signUp)
/// let start = try machine.start()          // started in .email, effects [show(email)]
/// let step = try machine.send(.submitEmail("ada@example.com"))
/// ```
///
/// The step path is `@inlinable` so that the compiler specializes it for your flow's types in your
/// module: no generic metadata look-ups, no allocation per transition.
public struct FlowMachine<F: Flow>: Sendable {
    /// `running` for a flow without parallel states (one leaf, precompiled moves); `runningParallel`
    /// for one with (a set of states, SCXML's algorithm: FlowMachine+Parallel.swift), so that the flat
    /// step's first test is the only one it pays.
    @usableFromInline enum Phase: Sendable { case ready, running, runningParallel, finished, stopped }

    /// The definition's compiled table. First, so that its offset is known without the flow's
    /// types: a supervisor's type-erased box reads it in generic code (``AnyMachineBox/shape``)
    /// without asking for the machine's metadata.
    @usableFromInline let table: FlowTable<F>
    /// The definition this machine runs.
    public let definition: FlowDefinition<F>
    @usableFromInline var current: Int
    // The next three share a word when the output is small (`Void`, an enum without payload): the
    // order of the fields is their order in memory, so the 4-byte field goes first and the two
    // 1-byte ones after it. A supervised machine's heap is mostly its box, this struct included
    // (docs/PERFORMANCE.md, the heap per machine).
    /// For a flow with a common step configuration table (``FlowTable/configRanges``), the number of
    /// the machine's configuration in it; -1 when it is not there (or the flow has no table).
    @usableFromInline var commonConfiguration: Int32
    @usableFromInline var phase: Phase
    @usableFromInline var finalOutput: F.Output?
    @usableFromInline var contextValue: F.Context
    /// What only a flow with parallel states, history or delayed transitions uses (``stepStorage``,
    /// ``historyValue``, ``timers``), kept out of a machine until one of those fields holds something:
    /// `nil` for any other machine, so that it stays small (docs/PERFORMANCE.md, the heap per
    /// machine). Copied on write, so that a machine stays a value. (The configuration, which the
    /// parallel step reads and writes on every step, stays inline.)
    @usableFromInline var statechart: FlowStatechartStorage<F>?

    /// ``statechart``, made first, or copied when another machine shares it.
    @inlinable @inline(__always)
    mutating func uniqueStatechart() -> FlowStatechartStorage<F> {
        if !isKnownUniquelyReferenced(&statechart) {
            statechart = statechart?.copy() ?? FlowStatechartStorage()
        }
        return statechart.unsafelyUnwrapped
    }

    /// For a flow with parallel states, the active states, sorted by number (document order); empty
    /// for a flow without, whose active states are `current` and its ancestors.
    @usableFromInline var active: [Int32]
    /// For a flow that takes common steps (``FlowTable/takesCommonParallelSteps``), the positions in
    /// ``active`` of its atomic states, in document order: the states the common step's selection
    /// visits. The common step keeps them; every other change of ``active`` rebuilds them
    /// (``activeLeaves(of:)``). Empty for any other flow.
    @usableFromInline var activeLeaves: [Int32]
    /// For a flow with parallel states, the storage of the last step, written again by the next step
    /// when no step holds it any more (``FlowParallelStepStorage``); `nil` until then.
    @inlinable var stepStorage: FlowParallelStepStorage<F>? {
        get { statechart?.stepStorage }
        _modify { let statechart = uniqueStatechart(); yield &statechart.stepStorage }
    }
    /// What each history state remembers, by state number (SCXML's `historyValue`); empty for a flow
    /// without history states, and for one whose histories have recorded nothing yet.
    @inlinable var historyValue: [Int: [Int]] {
        _read {
            if let statechart { yield statechart.historyValue } else { yield [:] }
        }
        _modify { let statechart = uniqueStatechart(); yield &statechart.historyValue }
    }
    /// The timers armed for delayed transitions (``After``); empty for a flow without.
    @inlinable var timers: FlowArmedTimers {
        _read {
            if let statechart { yield statechart.timers } else { yield FlowArmedTimers() }
        }
        _modify { let statechart = uniqueStatechart(); yield &statechart.timers }
    }

    /// Creates a machine that has not started yet, with the definition's
    /// ``FlowDefinition/initialContext``.
    /// - Throws: ``FlowError/Code/invalidDefinition`` when the definition has validation errors;
    ///   the message lists them.
    @inlinable
    public init(_ definition: FlowDefinition<F>) throws(FlowError) {
        try self.init(definition, context: definition.initialContext)
    }

    /// Creates a machine that has not started yet, with its own context.
    /// - Throws: ``FlowError/Code/invalidDefinition`` when the definition has validation errors;
    ///   the message lists them.
    @inlinable
    public init(_ definition: FlowDefinition<F>, context: F.Context) throws(FlowError) {
        guard !definition.hasErrors else { throw Self.invalid(definition) }
        self.table = definition.table
        self.definition = definition
        self.current = definition.table.initialTarget
        self.phase = .ready
        self.finalOutput = nil
        self.contextValue = context
        self.commonConfiguration = -1
        self.active = []
        self.activeLeaves = []
        self.statechart = nil
    }

    @usableFromInline
    static func invalid(_ definition: FlowDefinition<F>) -> FlowError {
        let errors = definition.validate().filter { $0.severity == .error }
        return FlowError(
            code: .invalidDefinition,
            message: "flow '\(definition.name)' cannot start: \(errors.count) error(s): "
                + errors.map(\.description).joined(separator: "; "),
            location: errors.first?.location
        )
    }

    /// Creates a machine that is already running in `state`, as if it had got there by itself:
    /// nothing is entered and no effect is performed. This is how a snapshot is restored.
    /// - Parameters:
    ///   - definition: The definition.
    ///   - state: The leaf state the machine is in.
    ///   - history: What the flow's history states remember (``remembered``), by history.
    ///   - context: Its context; `nil` for the definition's ``FlowDefinition/initialContext``.
    ///   - lastTimerGeneration: The saved machine's ``lastTimerGeneration``: the restored machine
    ///     numbers the timers it arms after it (0, the default, numbers them from 1).
    /// - Throws: ``FlowError/Code/invalidDefinition``, or ``FlowError/Code/unknownState`` when
    ///   `state` is not a declared leaf state that is not final (for a flow with parallel states,
    ///   when one leaf is not a whole configuration: pass every active leaf instead), or
    ///   ``FlowError/Code/invalidHistory`` when `history` remembers what its history cannot.
    public init(_ definition: FlowDefinition<F>, resumingIn state: F.State, history: [F.State: [F.State]] = [:],
                context: F.Context? = nil, lastTimerGeneration: UInt64 = 0)
        throws(FlowError)
    {
        try self.init(definition, resumingIn: [state], history: history, context: context,
                      lastTimerGeneration: lastTimerGeneration)
    }

    /// Creates a machine that is already running with the atomic states `leaves` active (one per
    /// region of each active parallel state; for a flow without parallel states, exactly one), as if it
    /// had got there by itself: nothing is entered and no effect is performed. The active states are
    /// the leaves and their ancestors. This is how a snapshot of a flow with parallel states is
    /// restored. `history` gives back what the flow's history states remembered (``remembered``).
    /// A flow with delayed transitions (``After``) arms a timer for each delayed transition of the
    /// active states, as entering them would (``armedTimers``): whoever restores schedules them. Pass
    /// the saved machine's ``lastTimerGeneration`` as `lastTimerGeneration` so that they are numbered
    /// after every timer the saved machine armed (0, the default, numbers them from 1).
    /// - Throws: ``FlowError/Code/invalidDefinition``, or ``FlowError/Code/unknownState`` when a
    ///   leaf is not a declared atomic state that is not final, or when the leaves do not make a
    ///   configuration the flow can be in (two children of one compound state, a region of an active
    ///   parallel state without an active leaf, no leaf at all); ``FlowError/Code/invalidHistory``
    ///   when `history` names a state that is not a history of the flow, or remembers for it what it
    ///   cannot (a shallow history remembers one child of its state, a deep history atomic states
    ///   inside its state, at least one).
    public init(_ definition: FlowDefinition<F>, resumingIn leaves: [F.State], history: [F.State: [F.State]] = [:],
                context: F.Context? = nil, lastTimerGeneration: UInt64 = 0)
        throws(FlowError)
    {
        try self.init(definition, context: context ?? definition.initialContext)
        let remembered = try Self.checkedHistory(history, definition)
        if !remembered.isEmpty { historyValue = remembered }
        if lastTimerGeneration != 0 { timers.generation = lastTimerGeneration }
        let hierarchy = table.hierarchy
        var indices: [Int] = []
        for state in leaves {
            guard let index = table.index[state], definition.states[index].kind == .atomic else {
                throw FlowError(code: .unknownState,
                                message: "flow '\(definition.name)' cannot resume in '\(state)': "
                                    + "it is not a declared state without children that is not final")
            }
            indices.append(index)
        }
        var configuration: [Int32] = []
        for leaf in indices {
            for s in hierarchy.ancestorsOrSelf(of: leaf) where !Self.contains(configuration, s) {
                configuration.append(Int32(s))
                configuration.sort()
            }
        }
        if let problem = Self.configurationProblem(configuration, hierarchy: hierarchy,
                                                 label: { definition.states[$0].label }) {
            throw FlowError(code: .unknownState,
                            message: "flow '\(definition.name)' cannot resume in "
                                + "\(leaves.map { "'\($0)'" }.joined(separator: ", ")): \(problem)")
        }
        if table.runsParallel {
            active = configuration
            activeLeaves = activeLeaves(of: configuration)
            refreshCommonConfiguration()
            current = firstAtomic(of: configuration)
            phase = .runningParallel
            if let parallel = table.parallel, parallel.hasDelays {
                // As if the active states had just been entered: a timer for each delayed transition.
                var changes: [FlowTimerChange] = []
                for s in configuration { timers.arm(state: Int(s), parallel, into: &changes) }
            }
        } else {
            current = indices[0]
            phase = .running
        }
    }

    /// `history` by state number, once checked against the definition's history states.
    static func checkedHistory(_ history: [F.State: [F.State]], _ definition: FlowDefinition<F>)
        throws(FlowError) -> [Int: [Int]]
    {
        guard !history.isEmpty else { return [:] }
        let table = definition.table
        let hierarchy = table.hierarchy
        var value: [Int: [Int]] = [:]
        for (h, states) in history {
            func refuse(_ why: String) -> FlowError {
                FlowError(code: .invalidHistory,
                          message: "flow '\(definition.name)' cannot resume with history '\(h)' remembering "
                              + "\(states.map { "'\($0)'" }.joined(separator: ", ")): \(why)")
            }
            guard let index = table.index[h], let depth = hierarchy.historyDepth(of: index) else {
                throw refuse("it is not a history state of the flow")
            }
            let parent = hierarchy.parent(of: index)
            var remembered: [Int] = []
            for state in states {
                guard let s = table.index[state] else { throw refuse("'\(state)' is not a declared state") }
                switch depth {
                case .shallow:
                    guard hierarchy.parent(of: s) == parent, !hierarchy.isHistory(s) else {
                        throw refuse("'\(state)' is not a child of its state '\(table.states[parent])'")
                    }
                case .deep:
                    guard hierarchy.isDescendant(s, of: parent), hierarchy.isAtomic(s), !hierarchy.isHistory(s) else {
                        throw refuse("'\(state)' is not a state without children inside its state '\(table.states[parent])'")
                    }
                }
                remembered.append(s)
            }
            guard !remembered.isEmpty else { throw refuse("a history that remembers nothing is left out") }
            if depth == .shallow && Set(remembered).count > 1 && !hierarchy.isParallel(parent) {
                throw refuse("a shallow history of a compound state remembers one child")
            }
            value[index] = hierarchy.inDocumentOrder(remembered, reversed: false)
        }
        return value
    }

    /// What the flow's history states remember, by history: for each one whose state has been left
    /// (or that a restore gave back), a shallow history's remembered child, a deep history's
    /// remembered atomic states, in declaration order. Empty for a flow without history states. Give
    /// it back to `FlowMachine(_:resumingIn:history:context:)` to restore a machine.
    public var remembered: [F.State: [F.State]] {
        var result: [F.State: [F.State]] = [:]
        for (h, states) in historyValue { result[table.states[h]] = states.map { table.states[$0] } }
        return result
    }

    /// Why the sorted set `configuration` (closed under ancestors) is not one the flow can be in, or
    /// `nil`: exactly one top-level state, one child of each active compound state, every region of
    /// each active parallel state. States are named by `label`.
    static func configurationProblem(_ configuration: [Int32], hierarchy: FlowHierarchy,
                                     label: (Int) -> String) -> String? {
        func activeChildren(of state: Int) -> Int {
            hierarchy.children(of: state).count { contains(configuration, $0) }
        }
        if configuration.isEmpty { return "no state is named" }
        if activeChildren(of: FlowHierarchy.root) != 1 { return "they are in different top-level states" }
        for s in configuration.lazy.map({ Int($0) }) where !hierarchy.isAtomic(s) {
            let count = activeChildren(of: s)
            if hierarchy.isParallel(s) {
                if count != hierarchy.children(of: s).count(where: { !hierarchy.isHistory($0) }) {
                    return "a region of parallel state '\(label(s))' has no active state"
                }
            } else if count != 1 {
                return "\(count) children of state '\(label(s))' would be active at once"
            }
        }
        return nil
    }

    /// Stops a running machine: returns the exit effects of every active state, innermost first,
    /// for the host to perform. Further events are refused with ``FlowError/Code/stopped``. Every
    /// armed timer (``armedTimers``) is cancelled: a host drops whatever it scheduled.
    /// Stopping a machine that is not running returns no effects: exits happen exactly once.
    public mutating func stop() -> FlowEffects<F.Effect> {
        if phase == .runningParallel {
            let effects = stopEffectsParallel()
            phase = .stopped
            timers.armed.removeAll()
            return effects
        }
        guard phase == .running else {
            phase = phase == .finished ? .finished : .stopped
            return FlowEffects()
        }
        phase = .stopped
        return table.effects(in: table.stopEffects[current], context: contextValue, event: nil)
    }

    /// Whether ``stop()`` was called while the machine was running or ready.
    public var isStopped: Bool { phase == .stopped }

    /// The positions of the active states in document order (a state before its descendants, earlier
    /// regions first): the configuration as the supervisor reads it, to learn what a step exited and
    /// entered (``FlowDefinition/position(of:)`` numbers states).
    var activePositions: [Int32] {
        active.isEmpty ? table.hierarchy.ancestorsOrSelf(of: current).reversed().map { Int32($0) } : active
    }

    /// The positions of the active atomic states (one per active region), in document order.
    var leafPositions: [Int] {
        active.isEmpty ? [current] : active.lazy.map { Int($0) }.filter(table.hierarchy.isAtomic)
    }

    /// What tells two of the flow's configurations apart when it is explored by running it (the
    /// testing kit's path finder, the coordinator's deep links): the positions of the active atomic
    /// states, then `-1` and each history's position, count and remembered positions (by history),
    /// then `-2` and each armed timer's state and transition (sorted). One home for the key; the
    /// context, which only the caller knows how to compare, is added by it.
    package var explorationKey: [Int] {
        var key = leafPositions
        if !historyValue.isEmpty {
            key.append(-1)
            for (h, states) in historyValue.sorted(by: { $0.key < $1.key }) {
                key.append(h)
                key.append(states.count)
                key.append(contentsOf: states)
            }
        }
        let timers = armedTimers
        if !timers.isEmpty {
            key.append(-2)
            for timer in timers.sorted(by: { ($0.state, $0.transition.position) < ($1.state, $1.transition.position) }) {
                key.append(timer.state)
                key.append(timer.transition.position)
            }
        }
        return key
    }

    /// Whether the state at `position` is active: ``isActive(_:)`` by position.
    func isActive(position: Int) -> Bool {
        if active.isEmpty { return table.hierarchy.isDescendantOrSelf(current, of: position) }
        return Self.contains(active, position)
    }

    /// The state the machine is in: always a leaf (a state without children).
    /// Before ``start()``, the leaf it will start in. In a flow with parallel states, where several
    /// leaves are active, the first of them in declaration order (``activeStates`` lists them all).
    @inlinable
    public var state: F.State { table.states[current] }

    /// The active states, innermost first: the leaf and all its ancestors; with parallel states, every
    /// active state in reverse declaration order (a state's descendants before it, later regions
    /// before earlier ones). Allocates an array: ``activeStates`` and ``isActive(_:)`` do not.
    public var configuration: [F.State] { Array(activeStates) }

    /// The active states, innermost first, as ``configuration`` lists them, without allocating. Before
    /// ``start()``, and after the flow has finished, stopped, they are the states it rested in.
    public var activeStates: FlowActiveStates<F> {
        FlowActiveStates(table: table, leaf: current, active: active)
    }

    /// Whether `state` is active: the machine rests in it or in a state inside it (SCXML's `In()`).
    /// O(log n) in the number of active states, without allocating; `false` for an undeclared state.
    public func isActive(_ state: F.State) -> Bool {
        guard let index = table.index[state] else { return false }
        return isActive(position: index)
    }

    /// Whether ``start()`` has been called.
    public var isStarted: Bool { phase != .ready }

    /// Whether the machine has reached a final state.
    @inlinable
    public var isFinished: Bool { phase == .finished }

    /// The flow's output, once it has finished.
    public var output: F.Output? { finalOutput }

    /// The flow's data: the context it started with, as the ``Update``s of the transitions taken
    /// since have changed it. Only updates change it.
    @inlinable
    public var context: F.Context { contextValue }

    /// Enters the initial state (and its initial descendants), then takes any eventless transitions.
    /// - Returns: A ``FlowStepKind/started`` step, or a ``FlowStepKind/finished`` one if eventless
    ///   transitions lead straight to a final state.
    /// - Throws: ``FlowError/Code/alreadyStarted``, or ``FlowError/Code/eventlessLoop``.
    @inlinable
    public mutating func start() throws(FlowError) -> FlowStep<F> {
        guard phase == .ready else { throw alreadyStarted() }
        if table.runsParallel { return try startParallel() }
        var context = contextValue  // the machine is unchanged if the eventless transitions throw
        let entry = table.effects(in: table.initialEffects, context: context, event: nil)
        let (target, effects, taken) = try settle(table.initialTarget, effects: entry, taken: FlowTransitions(),
                                                  event: nil, context: &context)
        contextValue = context
        current = target
        phase = .running
        if table.isFinal[target] {
            return finish(from: nil, event: nil, effects: effects, transitions: taken)
        }
        return FlowStep(kind: .started, state: table.states[target], from: nil, event: nil, effects: effects,
                        transitions: taken, output: nil)
    }

    /// Sends an event: takes the first transition that reacts to it and whose guard holds, searching
    /// the current state first and then its ancestors, in declaration order. Guards read the context
    /// as it is before the step; the transition's ``Update`` then changes it, and the step's derived
    /// effects (``Emit``) read it after that.
    /// - Throws: ``FlowError/Code/notStarted``, ``FlowError/Code/finished``,
    ///   ``FlowError/Code/unhandledEvent`` (when the definition's policy is ``UnhandledEventPolicy/fail``),
    ///   or ``FlowError/Code/eventlessLoop``. The machine is unchanged when it throws.
    @inlinable @inline(__always)
    public mutating func send(_ event: F.Event) throws(FlowError) -> FlowStep<F> {
        guard phase == .running else { return try sendStep(event) }
        // The common step, inlined where the caller reads the step: the first move on the event's
        // kind has no guard and settles.
        let source = current
        let kind = event.kind
        if let i = table.firstMove(source, kind), table.eventKinds[i] == kind {
            let move = table.eventMoves[i]
            if move.settles && move.guardIndex < 0 { return takeSettling(move, from: source, event: event) }
        }
        return try sendFlat(event, kind: kind)
    }

    /// Takes a move that ``FlowTable/Move/settles``: the common case, built in place (inlined into
    /// ``send(_:)``'s inline step and into ``sendFlat(_:kind:)``'s scan).
    @inlinable @inline(__always)
    mutating func takeSettling(_ move: FlowTable<F>.Move, from source: Int, event: F.Event) -> FlowStep<F> {
        let target = Int(move.target)
        current = target
        return FlowStep(kind: .transitioned, state: table.states[target], from: table.states[source],
                        event: event, effects: table.effects(of: move), declaration: move.declaration)
    }

    /// A step of ``send(_:)`` taken without its inline common step: what `send` does in every phase.
    @inlinable
    mutating func sendStep(_ event: F.Event) throws(FlowError) -> FlowStep<F> {
        guard phase == .running else {
            if phase == .runningParallel { return try sendParallel(event) }
            throw phaseError(for: event)
        }
        return try sendFlat(event, kind: event.kind)
    }

    /// A step of a running flat machine: the current leaf's moves on `kind` (the event's) are scanned
    /// in order, and the first whose guard holds is taken.
    @inlinable
    mutating func sendFlat(_ event: F.Event, kind: F.Event.Kind) throws(FlowError) -> FlowStep<F> {
        let source = current
        var matched = false
        var i = table.eventRanges[source]
        let end = table.eventRanges[source &+ 1]
        while i < end {
            if table.eventKinds[i] == kind {
                matched = true
                let move = table.eventMoves[i]
                if table.allows(move, state: source, event: event, context: contextValue) {
                    if move.settles { return takeSettling(move, from: source, event: event) }
                    return try take(move, from: source, event: event)
                }
            }
            i &+= 1
        }
        if matched {
            return FlowStep(kind: .rejected, state: table.states[source], from: nil, event: event,
                            effects: FlowEffects(), declaration: -1)
        }
        if table.unhandled == .ignore {
            return FlowStep(kind: .ignored, state: table.states[source], from: nil, event: event,
                            effects: FlowEffects(), declaration: -1)
        }
        throw unhandledError(for: event)
    }

    @inlinable
    mutating func take(_ move: FlowTable<F>.Move, from source: Int, event: F.Event) throws(FlowError) -> FlowStep<F> {
        let from = table.states[source]
        var taken = FlowTransitions(declaration: move.declaration)
        guard move.target >= 0 else {
            table.update(move, &contextValue, event: event)
            return FlowStep(kind: .transitioned, state: from, from: from, event: event,
                            effects: table.effects(of: move, context: contextValue, event: event),
                            declaration: move.declaration)
        }
        var target = Int(move.target)
        let effects: FlowEffects<F.Effect>
        if table.hasEventless(target) {
            var context = contextValue  // the machine is unchanged if the eventless transitions throw
            table.update(move, &context, event: event)
            let own = table.effects(of: move, context: context, event: event)
            (target, effects, taken) = try settle(target, effects: own, taken: taken, event: event, context: &context)
            contextValue = context
        } else {
            table.update(move, &contextValue, event: event)
            effects = table.effects(of: move, context: contextValue, event: event)
        }
        current = target
        if table.isFinal[target] {
            return finish(from: from, event: event, effects: effects, transitions: taken)
        }
        return FlowStep(kind: .transitioned, state: table.states[target], from: from, event: event, effects: effects,
                        transitions: taken, output: nil)
    }

    /// Follows eventless transitions from `state` until none is enabled, each one's update changing
    /// `context` before its effects are derived. Allocates only when more than one transition's
    /// effects must be joined.
    @inlinable
    func settle(_ state: Int, effects: FlowEffects<F.Effect>, taken first: FlowTransitions, event: F.Event?,
                context: inout F.Context)
        throws(FlowError) -> (Int, FlowEffects<F.Effect>, FlowTransitions)
    {
        var state = state
        var effects = effects
        var joined: [F.Effect]?  // only when two or more non-empty effect ranges must be joined
        var declarations: [Int32] = []  // allocated only once an eventless transition is taken
        var taken = 0
        while !table.isFinal[state], let move = table.firstEventless(from: state, event: event, context: context) {
            taken += 1
            if taken == 1 { declarations = first.map { Int32($0.position) } }
            declarations.append(move.declaration)
            if taken > FlowTable<F>.eventlessLimit {
                throw FlowError(
                    code: .eventlessLoop,
                    message: "flow '\(table.name)' took \(FlowTable<F>.eventlessLimit) eventless transitions "
                        + "without settling (last in '\(table.states[state])'): check the guards of its eventless transitions"
                )
            }
            table.update(move, &context, event: event)
            let more = table.effects(of: move, context: context, event: event)
            if joined != nil {
                joined!.append(contentsOf: more)
            } else if effects.isEmpty {
                effects = more
            } else if !more.isEmpty {
                joined = Array(effects) + Array(more)
            }
            state = Int(move.target)
        }
        return (state, joined.map { FlowEffects($0) } ?? effects,
                taken == 0 ? first : FlowTransitions(declarations: declarations))
    }

    @inlinable
    mutating func finish(from: F.State?, event: F.Event?, effects: FlowEffects<F.Effect>,
                         transitions: FlowTransitions) -> FlowStep<F> {
        phase = .finished
        let output = table.outputs[current]!.compute(contextValue, event)
        finalOutput = output
        return FlowStep(kind: .finished, state: table.states[current], from: from, event: event, effects: effects,
                        transitions: transitions, output: output)
    }

    @usableFromInline
    func alreadyStarted() -> FlowError {
        FlowError(code: .alreadyStarted, message: "flow '\(table.name)' was already started")
    }

    @usableFromInline
    func phaseError(for event: F.Event) -> FlowError {
        switch phase {
        case .ready:
            FlowError(code: .notStarted,
                      message: "event '\(event)' sent to flow '\(table.name)' before it was started")
        case .running, .runningParallel, .finished:
            FlowError(code: .finished,
                      message: "event '\(event)' sent to flow '\(table.name)', which has finished in '\(state)'")
        case .stopped:
            FlowError(code: .stopped, message: "event '\(event)' sent to flow '\(table.name)', which was stopped")
        }
    }

    @usableFromInline
    func unhandledError(for event: F.Event) -> FlowError {
        FlowError(code: .unhandledEvent,
                  message: "flow '\(table.name)' has no transition for event '\(event)' in state '\(state)'")
    }
}
