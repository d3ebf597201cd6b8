// The common step of a flow with parallel states: when every move the active states could take is
// local, SCXML's algorithm (FlowMachine+Algorithm.swift) reduces to moves applied in place, decided
// by the compiled table (FlowTable.swift) and, with no guard of code, by its configuration tables.

extension FlowMachine {
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
}
