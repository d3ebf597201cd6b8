/// What of a compiled definition does not depend on the flow's types: what the supervisor reads
/// about a machine without crossing type erasure (its states' hierarchy, what stopping it exits).
@usableFromInline
class FlowTableShape: @unchecked Sendable {
    // @unchecked: immutable after `init`.
    /// The states' hierarchy (parents, children, ancestry), numbered as the table numbers states.
    let hierarchy: FlowHierarchy
    /// Whether any state runs a declared child.
    @usableFromInline let declaresChildren: Bool
    /// For each state, the range in the effects of the exit effects performed when a machine resting
    /// there is stopped (its active states, innermost first).
    let stopEffects: [Range<Int>]
    @usableFromInline let name: String

    init(hierarchy: FlowHierarchy, declaresChildren: Bool, stopEffects: [Range<Int>], name: String) {
        self.hierarchy = hierarchy
        self.declaresChildren = declaresChildren
        self.stopEffects = stopEffects
        self.name = name
    }

    /// Whether stopping a running machine resting in `leaf` performs exit effects: the leaf's active
    /// states have some, or the flow has parallel states (its leaves are the engine's to tell).
    final func exitsOnStop(leaf: Int32) -> Bool {
        hierarchy.hasParallel || !stopEffects[Int(leaf)].isEmpty
    }
}

/// The compiled form of a definition: flat arrays indexed by state, shared by every machine that runs it.
///
/// For every leaf state the table lists, in priority order (the leaf's own transitions, then its
/// parent's, and so on up), the transitions that apply to it, each with its exit, transition and
/// entry effects already laid out in one contiguous range. A step is a look-up (``KindIndex``, for a
/// one-byte event kind) or a linear scan, and a range.
///
/// The hot arrays are immutable buffers owned by the table and freed in `deinit`: reading them in
/// the engine's step costs no reference counting.
@usableFromInline
final class FlowTable<F: Flow>: FlowTableShape, @unchecked Sendable {
    // @unchecked: every stored property is immutable after `init`, and the buffers are never
    // written after they are initialized, so sharing the table across isolation domains is safe.

    /// A compiled transition from one leaf.
    @usableFromInline
    struct Move: Sendable {
        /// Index into `guards`, or -1 for none.
        @usableFromInline let guardIndex: Int32
        /// The leaf state the machine settles in, or -1 for a targetless transition.
        @usableFromInline let target: Int32
        /// The range in `effects` of exits, transition effects and entries, in order.
        @usableFromInline let effectStart: Int32
        @usableFromInline let effectCount: Int32
        /// Index of the transition this move compiles, in declaration order.
        @usableFromInline let declaration: Int32
        /// Whether taking it ends the step with constant effects and no change to the context: its
        /// target is not final and has no eventless transitions, it has no update and the table
        /// derives no effect (known when the table is compiled, so the engine's common case is one test).
        @usableFromInline let settles: Bool
        /// Whether the transition has an ``Update`` (`updates[declaration]`).
        @usableFromInline let updates: Bool
        /// Whether the laid-out effects and target are SCXML's for this leaf whatever else is active:
        /// always in a flow without parallel states; in one with, when no parallel state is exited or
        /// entered (``FlowParallelTable``'s engine then takes the move as the flat engine does).
        @usableFromInline let local: Bool

        init(guardIndex: Int, target: Int, effects: Range<Int>, declaration: Int, updates: Bool,
             local: Bool = true, settles: Bool = false) {
            self.guardIndex = Int32(guardIndex)
            self.target = Int32(target)
            self.effectStart = Int32(effects.lowerBound)
            self.effectCount = Int32(effects.count)
            self.declaration = Int32(declaration)
            self.updates = updates
            self.local = local
            self.settles = settles
        }

        /// The same move, with ``settles`` worked out from the finished table's arrays.
        func resolved(isFinal: [Bool], eventlessRanges: [Int], derives: Bool) -> Move {
            let t = Int(target)
            let settles = t >= 0 && !isFinal[t] && eventlessRanges[t] == eventlessRanges[t + 1] && !updates && !derives
            return Move(guardIndex: Int(guardIndex), target: t,
                        effects: Int(effectStart)..<Int(effectStart + effectCount),
                        declaration: Int(declaration), updates: updates, local: local, settles: settles)
        }
    }

    @usableFromInline typealias Predicate = @Sendable (F.State, F.Event?, F.Context) -> Bool

    /// How the common step of a flow with parallel states takes an event move
    /// (``FlowMachine/sendParallelCommon(_:)``): SCXML's algorithm gives the same result as replacing
    /// the states below the move's domain with the states it enters, when the move neither leaves
    /// nor enters a parallel state, has no update, and does not enter a final state.
    @usableFromInline
    struct ParallelMove: Sendable {
        /// The state whose descendants the move exits and enters (-1: the root), or ``slow``: the
        /// move is left to the general algorithm. ``targetless``: the move exits and enters nothing.
        @usableFromInline let domain: Int32
        /// The number just after the domain's last descendant.
        @usableFromInline let domainEnd: Int32
        /// How many states the move exits: the atomic state that selects it and its ancestors below
        /// the domain (one chain: a common move crosses no parallel state).
        @usableFromInline let exited: Int32
        /// How many of the move's laid-out effects are exits, then its own (the rest are entries).
        @usableFromInline let exitCount: Int32
        @usableFromInline let contentCount: Int32
        /// The states the move enters, `parallelEntries[entryStart..<entryStart + entryCount]`,
        /// sorted by number (document order).
        @usableFromInline let entryStart: Int32
        @usableFromInline let entryCount: Int32

        @usableFromInline static var slow: Int32 { -2 }
        @usableFromInline static var targetless: Int32 { -3 }

        init(domain: Int, domainEnd: Int, exited: Int, exitCount: Int, contentCount: Int, entries: Range<Int>) {
            self.domain = Int32(domain)
            self.domainEnd = Int32(domainEnd)
            self.exited = Int32(exited)
            self.exitCount = Int32(exitCount)
            self.contentCount = Int32(contentCount)
            self.entryStart = Int32(entries.lowerBound)
            self.entryCount = Int32(entries.count)
        }

        /// A move the common step leaves to the general algorithm.
        static var slowMove: Self { Self(domain: Int(slow), domainEnd: 0, exited: 0, exitCount: 0, contentCount: 0, entries: 0..<0) }
    }

    /// What the compiler works out for the common step of a flow with parallel states.
    struct CommonParallelSteps {
        /// Whether the table takes common steps at all (see ``FlowTable/takesCommonParallelSteps``).
        var enabled: Bool
        /// By event move.
        var moves: [ParallelMove]
        var entries: [Int32]
        /// By state.
        var slowLeaf: [Bool]
        /// By guard.
        var inStates: [Int32]
    }

    // Hot: read on every step.
    @usableFromInline let states: UnsafeMutableBufferPointer<F.State>
    @usableFromInline let isFinal: UnsafeMutableBufferPointer<Bool>
    /// `eventRanges[s]..<eventRanges[s + 1]` index `eventKinds` and `eventMoves` for leaf `s`.
    @usableFromInline let eventRanges: UnsafeMutableBufferPointer<Int>
    @usableFromInline let eventKinds: UnsafeMutableBufferPointer<F.Event.Kind>
    /// Where each leaf's moves on a kind start in ``eventKinds`` (``firstMove(_:_:)``).
    @usableFromInline let moveIndex: KindIndex
    @usableFromInline let eventMoves: UnsafeMutableBufferPointer<Move>
    @usableFromInline let eventlessRanges: UnsafeMutableBufferPointer<Int>
    @usableFromInline let eventlessMoves: UnsafeMutableBufferPointer<Move>
    /// The guards' predicates, each in its own box that the table holds a reference to (released in
    /// `deinit`). A guard is called through ``guardHolds(_:state:event:context:)``, which borrows its box:
    /// no retain and release around the call, and the predicate is stored as its field declares it,
    /// so it is called without a reabstraction thunk (a closure in a buffer is stored maximally
    /// abstracted, its result returned indirectly).
    @usableFromInline let guards: UnsafeMutableBufferPointer<Unmanaged<GuardPredicate<F>>>
    /// The effects of every range, laid out; or, when the table ``derives``, the constant effects
    /// that ``recipe`` refers to.
    @usableFromInline let effects: EffectStorage<F.Effect>
    @usableFromInline let unhandled: UnhandledEventPolicy

    // Context: read only by the slow path (a move that does not settle).
    /// Whether some effect is derived (an ``Emit``): every range then indexes ``recipe``, whose codes
    /// are an index in ``effects`` (a constant) or `-1 - i` (the emit `emits[i]`).
    @usableFromInline let derives: Bool
    @usableFromInline let recipe: [Int32]
    /// The emits, each boxed and called borrowed as a guard is (see ``guards``).
    @usableFromInline let emits: UnsafeMutableBufferPointer<Unmanaged<EffectEmit<F>>>
    /// By declaration: the transition's update, if any (empty when no transition has one), boxed
    /// and called borrowed as a guard is.
    @usableFromInline let updates: UnsafeMutableBufferPointer<Unmanaged<ContextUpdate<F>>?>

    // Cold: start, finish, errors, inspection.
    @usableFromInline let index: [F.State: Int]
    @usableFromInline let outputs: [OutputRule<F>?]
    /// The child flow each state runs under a supervisor, if any. (A `var` only so that `deinit`
    /// can hand it to ``IterativeRelease``.)
    private(set) var childFlows: [ChildFlow<F>?]
    @usableFromInline let initialTarget: Int
    @usableFromInline let initialEffects: Range<Int>

    /// What SCXML's algorithm reads for a flow with parallel states; `nil` for a flow without.
    let parallel: FlowParallelTable<F>?
    /// By declaration, for a flow without parallel or history states: what a move compiled from the
    /// transition exits and enters (``FlowMachine/sendReportingMicrosteps(_:completions:)``). Empty
    /// for a flow with them, whose engine reports what it does as it does it.
    let flatReports: [FlatReport]
    /// The order the selection tries each leaf's transitions in (``FlowSelectionOrder``): cold, for
    /// tools that explore a flow.
    let selection: FlowSelectionOrder

    /// What a move of a flow without parallel or history states exits and enters, whatever leaf it
    /// is taken from: the active states below ``domain`` (the leaf's ancestors-or-self), then the
    /// states from below the domain down to ``leaf`` (the hierarchy lists both:
    /// ``FlowHierarchy/appendChainExitSet(from:below:marked:to:)``,
    /// ``FlowHierarchy/appendChainEntrySet(entering:below:markedUp:markedDown:to:)``). Both fields are
    /// the hierarchy's answers, kept by transition: its domain and its target's default-entry leaf.
    /// Cold: read only by the reporting entry points.
    struct FlatReport: Sendable {
        /// The transition's domain (-1: the root), or ``targetless``: it exits and enters nothing.
        let domain: Int32
        /// The leaf the move settles in (the target's initial descendants entered), or -1.
        let leaf: Int32

        /// The domain of a targetless transition.
        static var targetless: Int32 { -2 }
    }

    // The common step of a flow with parallel states (FlowMachine+Parallel.swift); empty buffers for a
    // flow without.
    /// Whether a step of a flow with parallel states may take the common path: the flow has no
    /// eventless transition (so a step has no fixed point to reach) and derives no effect.
    @usableFromInline let takesCommonParallelSteps: Bool
    /// By event move (as ``eventMoves``): how the common step takes it.
    @usableFromInline let parallelMoves: UnsafeMutableBufferPointer<ParallelMove>
    /// The states the moves enter (``ParallelMove/entryStart``).
    @usableFromInline let parallelEntries: UnsafeMutableBufferPointer<Int32>
    /// By state: whether one of its event moves is left to the general algorithm (or it is final:
    /// it has no compiled moves); empty when no state's is.
    @usableFromInline let parallelSlowLeaf: UnsafeMutableBufferPointer<Bool>
    /// By guard: the state an ``Guard/in(_:)`` guard asks about, else -1.
    @usableFromInline let inStates: UnsafeMutableBufferPointer<Int32>
    /// By state, for a flow that takes common steps: whether it is atomic (a leaf of a configuration).
    @usableFromInline let parallelAtomic: UnsafeMutableBufferPointer<Bool>
    /// The width in bits of one field of a common step packed in a word (``FlowStep/Payload/regions``):
    /// two fields for the moves taken (index + 1, 0 for none), then one for each active atomic state
    /// (number + 1, 0 after the last). 0 when the flow takes no common steps, or when the most atomic
    /// states it can have active at once do not fit: its common steps then keep their data in
    /// ``FlowParallelStepStorage``.
    @usableFromInline let stepFieldBits: Int
    /// The common step's configuration table, for a flow whose common steps are packed in a word
    /// (``stepFieldBits`` > 0) and whose legal configurations are few (at most
    /// ``commonConfigurationLimit``, with at most ``commonOutcomeLimit`` outcomes in all); empty
    /// buffers for any other flow. Configuration `c`'s outcomes are
    /// `configOutcomes[configRanges[c]..<configRanges[c + 1]]`, one per event kind that one of its
    /// atomic states has a move for (``configKinds``), each what the common step's selection decides
    /// for that configuration and kind when no guard of code takes part in the decision (an `In` guard
    /// is answered from the configuration)
    /// (``FlowMachine/sendParallelCommon(_:)`` reads it instead of selecting).
    @usableFromInline let configRanges: UnsafeMutableBufferPointer<Int32>
    /// By configuration: its active atomic states, packed as a step's leaf fields (what an ignored step carries).
    @usableFromInline let configLeaves: UnsafeMutableBufferPointer<UInt64>
    @usableFromInline let configKinds: UnsafeMutableBufferPointer<F.Event.Kind>
    /// Where each configuration's outcome for a kind is in ``configKinds`` (``firstOutcome(_:_:)``).
    @usableFromInline let configIndex: KindIndex
    @usableFromInline let configOutcomes: UnsafeMutableBufferPointer<CommonOutcome>
    /// The number of each configuration of the table, by its leaf fields, in an open-addressing table
    /// (a power of two of slots, at most half full; an empty slot's number is -1): read after every
    /// step the table did not decide (``FlowMachine/commonConfiguration``), so a look-up is a multiply
    /// and a probe or two, not a dictionary's hashing.
    @usableFromInline let configSlots: UnsafeMutableBufferPointer<ConfigSlot>
    /// Whether the flow has parallel states (``parallel`` is set).
    @usableFromInline var runsParallel: Bool { parallel != nil }
    /// Whether some transition is delayed (``After``): its steps then report timers.
    @usableFromInline var hasDelays: Bool { parallel?.hasDelays ?? false }

    /// How many eventless transitions one step may take before the engine reports a loop.
    @usableFromInline static var eventlessLimit: Int { 1_000 }

    init(
        states: [F.State], index: [F.State: Int], hierarchy: FlowHierarchy, outputs: [OutputRule<F>?],
        childFlows: [ChildFlow<F>?],
        eventRanges: [Int], eventMoves: [(kind: F.Event.Kind, move: Move)],
        eventlessRanges: [Int], eventlessMoves: [Move],
        guards: [Guard<F>], effects: [F.Effect], recipe: [Int32]?,
        emits: [@Sendable (F.Context, F.Event?) -> F.Effect], updates: [(@Sendable (inout F.Context, F.Event?) -> Void)?],
        initialTarget: Int, initialEffects: Range<Int>, stopEffects: [Range<Int>],
        unhandled: UnhandledEventPolicy, name: String, parallel: FlowParallelTable<F>? = nil,
        common: CommonParallelSteps? = nil, flatReports: [FlatReport] = [],
        selection: FlowSelectionOrder
    ) {
        self.parallel = parallel
        self.flatReports = flatReports
        self.selection = selection
        self.takesCommonParallelSteps = common?.enabled ?? false
        let parallelMoveBuffer = UnsafeMutableBufferPointer<ParallelMove>.make(common?.moves ?? [])
        let slowLeafBuffer = UnsafeMutableBufferPointer<Bool>.make(common?.slowLeaf ?? [])
        self.parallelMoves = parallelMoveBuffer
        self.parallelEntries = .make(common?.entries ?? [])
        self.parallelSlowLeaf = slowLeafBuffer
        let inStateBuffer = UnsafeMutableBufferPointer<Int32>.make(common?.inStates ?? [])
        self.inStates = inStateBuffer
        let fieldBits: Int
        if let common, common.enabled {
            self.parallelAtomic = .make(states.indices.map { hierarchy.isAtomic($0) && !hierarchy.isHistory($0) })
            let largest = max(states.count, eventMoves.count)  // a field holds 0...largest
            let width = Int.bitWidth - largest.leadingZeroBitCount
            fieldBits = (2 + Self.mostActiveLeaves(hierarchy)) * width <= UInt64.bitWidth ? width : 0
        } else {
            self.parallelAtomic = .make([])
            fieldBits = 0
        }
        self.stepFieldBits = fieldBits
        let finals = outputs.map { $0 != nil }
        let derives = recipe != nil
        self.states = .make(states)
        self.isFinal = .make(finals)
        let rangeBuffer = UnsafeMutableBufferPointer<Int>.make(eventRanges)
        let kindBuffer = UnsafeMutableBufferPointer<F.Event.Kind>.make(eventMoves.map(\.kind))
        let moveBuffer = UnsafeMutableBufferPointer<Move>.make(eventMoves.map {
            $0.move.resolved(isFinal: finals, eventlessRanges: eventlessRanges, derives: derives)
        })
        self.eventRanges = rangeBuffer
        self.eventKinds = kindBuffer
        self.moveIndex = KindIndex(ranges: eventRanges, kinds: eventMoves.map(\.kind))
        self.eventMoves = moveBuffer
        self.eventlessRanges = .make(eventlessRanges)
        self.eventlessMoves = .make(eventlessMoves.map {
            $0.resolved(isFinal: finals, eventlessRanges: eventlessRanges, derives: derives)
        })
        self.guards = .make(guards.map { .passRetained(GuardPredicate($0.predicate)) })
        self.effects = EffectStorage(effects)
        self.unhandled = unhandled
        self.derives = derives
        self.recipe = recipe ?? []
        self.emits = .make(emits.map { .passRetained(EffectEmit($0)) })
        self.updates = .make(updates.map { $0.map { .passRetained(ContextUpdate($0)) } })
        self.index = index
        self.outputs = outputs
        self.childFlows = childFlows
        self.initialTarget = initialTarget
        self.initialEffects = initialEffects
        let configurations = Self.commonConfigurations(
            hierarchy: hierarchy, width: fieldBits, ranges: rangeBuffer, kinds: kindBuffer,
            moves: moveBuffer, parallelMoves: parallelMoveBuffer, slowLeaf: slowLeafBuffer, inStates: inStateBuffer)
        self.configRanges = .make(configurations.ranges)
        self.configLeaves = .make(configurations.leaves)
        self.configKinds = .make(configurations.kinds)
        self.configIndex = KindIndex(ranges: configurations.ranges.map(Int.init), kinds: configurations.kinds)
        self.configOutcomes = .make(configurations.outcomes)
        self.configSlots = .make(Self.slots(configurations.numbers))
        super.init(hierarchy: hierarchy, declaresChildren: childFlows.contains { $0 != nil }, stopEffects: stopEffects,
                   name: name)
    }

    deinit {
        // A child flow's definition lives in this table (through `childFlows`), and its own table may
        // name further children: freeing a long chain of them would recurse once per level. Hand them
        // to the iterative release instead.
        if declaresChildren {
            let box = ReleaseBox(childFlows)
            childFlows = []  // the box holds the only reference now, and the release list the only box
            IterativeRelease.hand(consume box)
        }
        states.free()
        isFinal.free()
        eventRanges.free()
        eventKinds.free()
        eventMoves.free()
        eventlessRanges.free()
        eventlessMoves.free()
        for box in guards { box.release() }
        guards.free()
        for box in emits { box.release() }
        emits.free()
        for box in updates { box?.release() }
        updates.free()
        parallelMoves.free()
        parallelEntries.free()
        parallelSlowLeaf.free()
        inStates.free()
        parallelAtomic.free()
        configRanges.free()
        configLeaves.free()
        configKinds.free()
        configOutcomes.free()
        configSlots.free()
        moveIndex.starts.free()
        configIndex.starts.free()
    }

    /// The first of `state`'s moves to try for `kind`, as an index in ``eventKinds``, or `nil`: with an
    /// index (``moveIndex``), the first move whose kind has the same byte, `nil` when none has; without
    /// one, the state's first move (`nil` when it has none). The caller compares the kinds with `==`; a
    /// `nil` or a kind that differs asks for a scan of the state's moves: never a decision.
    @inlinable @inline(__always)
    func firstMove(_ state: Int, _ kind: F.Event.Kind) -> Int? {
        if moveIndex.width > 0 { return moveIndex.first(state, kind) }
        let start = eventRanges[state]
        return start < eventRanges[state &+ 1] ? start : nil
    }

    /// Where to start looking for configuration `c`'s outcome for `kind` in ``configKinds``: with an
    /// index (``configIndex``), the first outcome whose kind has the same byte; else, or when none has,
    /// the start of its range. The caller scans from there with `==`.
    @inlinable @inline(__always)
    func firstOutcome(_ c: Int, _ kind: F.Event.Kind) -> Int {
        configIndex.first(c, kind) ?? Int(configRanges[c])
    }

    /// For an event kind held in one byte (a payload-free enum, say): by row (a leaf of
    /// ``eventRanges``, a configuration of ``configRanges``) and the kind's byte, the first of the
    /// row's entries whose kind has that byte (-1: none). A step looks there first rather than
    /// scanning the row: a loop whose exit the processor cannot predict when events of different
    /// kinds follow each other (docs/PERFORMANCE.md). For any other kind, no index (``width`` 0).
    ///
    /// The index is built only when the kind is plain data (`_isPOD`) held in one byte and two of the
    /// table's kinds are equal exactly when their bytes are (true of every enum, `Bool` and `UInt8`),
    /// and only up to ``limit`` entries. It is a hint, never a decision: the step compares the kind it
    /// finds with `==`, and scans the row when the index has nothing (so a kind whose `==` ignores
    /// part of its byte is still found).
    @usableFromInline
    struct KindIndex {
        /// `starts[row * width + byte]` (-1: none); the table frees it.
        @usableFromInline let starts: UnsafeMutableBufferPointer<Int32>
        /// The number of byte values each row has an entry for (0: no index).
        @usableFromInline let width: Int

        /// The most entries an index may have (1 MB).
        static var limit: Int { 1 << 18 }

        /// The byte a one-byte event kind is held in.
        @inlinable @inline(__always)
        static func byte(_ kind: F.Event.Kind) -> Int {
            withUnsafeBytes(of: kind) { Int($0[0]) }
        }

        /// The index of rows whose entries are `kinds[ranges[row]..<ranges[row + 1]]`.
        init(ranges: [Int], kinds: [F.Event.Kind]) {
            guard _isPOD(F.Event.Kind.self), MemoryLayout<F.Event.Kind>.size == 1, !kinds.isEmpty,
                  let width = Self.width(kinds), (ranges.count - 1) * width <= Self.limit
            else {
                starts = .make([])
                width = 0
                return
            }
            var starts = [Int32](repeating: -1, count: (ranges.count - 1) * width)
            for row in 0..<(ranges.count - 1) {
                for entry in (ranges[row]..<ranges[row + 1]).reversed() {  // each byte keeps its first entry
                    starts[row * width + Self.byte(kinds[entry])] = Int32(entry)
                }
            }
            self.starts = .make(starts)
            self.width = width
        }

        /// One more than the largest byte, when two kinds are equal exactly when their bytes are
        /// (asked with `==` alone: a kind's hash is not trusted to agree with it).
        private static func width(_ kinds: [F.Event.Kind]) -> Int? {
            var byByte: [F.Event.Kind?] = Array(repeating: nil, count: 256)
            for kind in kinds {
                let b = byte(kind)
                if let seen = byByte[b] {
                    guard seen == kind else { return nil }  // one byte, two kinds
                } else {
                    byByte[b] = kind
                }
            }
            let distinct = byByte.compactMap { $0 }  // at most 256: one kind per byte
            for i in distinct.indices {
                for j in distinct.indices where j > i && distinct[i] == distinct[j] {
                    return nil  // one kind, two bytes
                }
            }
            return (byByte.lastIndex { $0 != nil } ?? 0) + 1
        }

        /// The first of `row`'s entries whose kind has `kind`'s byte, or `nil`: none has, or no index.
        @inlinable @inline(__always)
        func first(_ row: Int, _ kind: F.Event.Kind) -> Int? {
            guard width > 0 else { return nil }
            let byte = Self.byte(kind)
            guard byte < width else { return nil }
            let entry = Int(starts[row &* width &+ byte])
            return entry >= 0 ? entry : nil
        }
    }

    /// Whether `move` may be taken from `state` on `event`.
    @inlinable
    func allows(_ move: Move, state: Int, event: F.Event?, context: F.Context) -> Bool {
        move.guardIndex < 0 || guardHolds(Int(move.guardIndex), state: state, event: event, context: context)
    }

    /// What guard `index`'s predicate answers in `state` (an index in ``states``): the one place the
    /// engine calls a guard's code.
    @inlinable @inline(__always)
    func guardHolds(_ index: Int, state: Int, event: F.Event?, context: F.Context) -> Bool {
        guards[index]._withUnsafeGuaranteedRef { $0.predicate(states[state], event, context) }
    }

    /// The first eventless move of `state` whose guard holds, if any.
    @usableFromInline
    func firstEventless(from state: Int, event: F.Event?, context: F.Context) -> Move? {
        for i in eventlessRanges[state]..<eventlessRanges[state + 1]
        where allows(eventlessMoves[i], state: state, event: event, context: context) {
            return eventlessMoves[i]
        }
        return nil
    }

    /// Applies `move`'s update, if it has one.
    @inlinable
    func update(_ move: Move, _ context: inout F.Context, event: F.Event?) {
        if move.updates { applyUpdate(Int(move.declaration), &context, event: event) }
    }

    /// Applies the update of the transition declared at `declaration`, if it has one: the one place
    /// the engine calls an update's code.
    @inlinable @inline(__always)
    func applyUpdate(_ declaration: Int, _ context: inout F.Context, event: F.Event?) {
        updates[declaration]?._withUnsafeGuaranteedRef { $0.update(&context, event) }
    }

    /// The effects of `move`, derived from `context` and `event` when the table derives any.
    @inlinable
    func effects(of move: Move, context: F.Context, event: F.Event?) -> FlowEffects<F.Effect> {
        effects(in: Int(move.effectStart)..<Int(move.effectStart &+ move.effectCount), context: context, event: event)
    }

    /// The effects of a range (a move's, the initial entries, a state's stop exits).
    @inlinable
    func effects(in range: Range<Int>, context: F.Context, event: F.Event?) -> FlowEffects<F.Effect> {
        guard derives else { return FlowEffects(storage: effects, start: range.lowerBound, count: range.count) }
        return derive(range, context: context, event: event)
    }

    /// The effects of a range of ``recipe``: up to two are held inline (no allocation), more are
    /// gathered in an array. Inlinable, so that the context and the emits run specialized.
    @inlinable
    func derive(_ range: Range<Int>, context: F.Context, event: F.Event?) -> FlowEffects<F.Effect> {
        func effect(_ k: Int) -> F.Effect {
            let code = Int(recipe[k])
            return code >= 0 ? effects.elements[code]
                : emits[-1 - code]._withUnsafeGuaranteedRef { $0.emit(context, event) }
        }
        switch range.count {
        case 0: return FlowEffects()
        case 1: return FlowEffects(first: effect(range.lowerBound), second: nil)
        case 2: return FlowEffects(first: effect(range.lowerBound), second: effect(range.lowerBound + 1))
        default: return FlowEffects(range.map(effect))
        }
    }

    @inlinable
    func hasEventless(_ state: Int) -> Bool { eventlessRanges[state] != eventlessRanges[state &+ 1] }

    @inlinable @inline(__always)
    func effects(of move: Move) -> FlowEffects<F.Effect> {
        FlowEffects(storage: effects, start: Int(move.effectStart), count: Int(move.effectCount))
    }

    /// Every move from `leaf`, event moves first.
    func moves(from leaf: Int) -> [Move] {
        Array(eventMoves[eventRanges[leaf]..<eventRanges[leaf + 1]])
            + Array(eventlessMoves[eventlessRanges[leaf]..<eventlessRanges[leaf + 1]])
    }
}
