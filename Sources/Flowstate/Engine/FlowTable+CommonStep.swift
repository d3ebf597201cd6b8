// The compiled table's part for the common step of a flow with parallel states: the configuration
// table (every legal configuration numbered, what the common step does in each for each event kind)
// and steps packed in one word.

extension FlowTable {
    /// The most atomic states `hierarchy` can have active at once: one for an atomic state, the sum
    /// of its regions' for a parallel state, the most of its children's for a compound one. Children
    /// before parents (reverse document order), without recursion.
    static func mostActiveLeaves(_ hierarchy: FlowHierarchy) -> Int {
        var most = [Int](repeating: 0, count: hierarchy.count)
        let childrenFirst = (0..<hierarchy.count).sorted {
            hierarchy.documentPosition(of: $0) > hierarchy.documentPosition(of: $1)
        }
        for s in childrenFirst where !hierarchy.isHistory(s) {
            if hierarchy.isAtomic(s) {
                most[s] = 1
            } else if hierarchy.isParallel(s) {
                most[s] = hierarchy.children(of: s).reduce(0) { $0 + most[$1] }
            } else {
                most[s] = hierarchy.children(of: s).reduce(0) { max($0, most[$1]) }
            }
        }
        return hierarchy.children(of: FlowHierarchy.root).reduce(0) { max($0, most[$1]) }
    }

    /// What the common step does in one configuration for one event kind (``configOutcomes``).
    @usableFromInline
    struct CommonOutcome: Sendable {
        /// The step, packed (``FlowStep/Payload/regions``): the moves taken and the leaves after them.
        @usableFromInline let packed: UInt64
        /// The configuration after the step (-1: not in the table).
        @usableFromInline let next: Int32
        /// The moves taken, by index in ``eventMoves``, and the ordinals among the active atomic
        /// states of the states that take them; `first` is ``dynamic`` when the selection must run
        /// (a guard takes part, or the step is not packed), and `second` -1 for a step of one move.
        @usableFromInline let first: Int32
        @usableFromInline let firstLeaf: Int32
        @usableFromInline let second: Int32
        @usableFromInline let secondLeaf: Int32

        /// The outcome of a decision the table cannot make ahead of the step.
        @usableFromInline static var dynamic: Self {
            Self(packed: 0, next: -1, first: -1, firstLeaf: 0, second: -1, secondLeaf: 0)
        }
    }

    /// The number in the configuration table of the configuration `active` whose atomic states are at
    /// positions `leaves` (-1: not in the table).
    @usableFromInline
    func configurationNumber(active: [Int32], leaves: [Int32]) -> Int32 {
        var word: UInt64 = 0
        for (ordinal, position) in leaves.enumerated() {
            word |= UInt64(truncatingIfNeeded: active[Int(position)] &+ 1) &<< UInt64(truncatingIfNeeded: (2 &+ ordinal) &* stepFieldBits)
        }
        return configurationNumber(leafFields: word)
    }

    /// A configuration's number in ``configSlots``, by its leaf fields.
    @usableFromInline struct ConfigSlot: Sendable {
        @usableFromInline let key: UInt64
        @usableFromInline let number: Int32
    }

    /// The slot where a look-up of `key` starts, in a table of `count` slots (a power of two).
    @inlinable @inline(__always)
    static func firstSlot(_ key: UInt64, _ count: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & (count &- 1)
    }

    /// The number of the configuration whose leaf fields are `key` (-1: not in the table).
    @inlinable
    func configurationNumber(leafFields key: UInt64) -> Int32 {
        guard !configSlots.isEmpty else { return -1 }
        var i = Self.firstSlot(key, configSlots.count)
        while true {
            let slot = configSlots[i]
            if slot.number < 0 || slot.key == key { return slot.number }
            i = (i &+ 1) & (configSlots.count &- 1)
        }
    }

    /// The open-addressing table of `numbers` (``configSlots``): empty for none.
    static func slots(_ numbers: [UInt64: Int32]) -> [ConfigSlot] {
        guard !numbers.isEmpty else { return [] }
        var count = 4
        while count < 2 * numbers.count { count *= 2 }
        var slots = [ConfigSlot](repeating: ConfigSlot(key: 0, number: -1), count: count)
        for (key, number) in numbers.sorted(by: { $0.value < $1.value }) {
            var i = firstSlot(key, count)
            while slots[i].number >= 0 { i = (i + 1) & (count - 1) }
            slots[i] = ConfigSlot(key: key, number: number)
        }
        return slots
    }

    /// The most configurations, and outcomes in all, of a common step's configuration table.
    static var commonConfigurationLimit: Int { 1_024 }
    static var commonOutcomeLimit: Int { 4_096 }

    /// The parts of the configuration table (``configRanges``).
    struct CommonConfigurations {
        var ranges: [Int32] = []
        var leaves: [UInt64] = []
        var kinds: [F.Event.Kind] = []
        var outcomes: [CommonOutcome] = []
        var numbers: [UInt64: Int32] = [:]
    }

    /// Builds the configuration table: for every legal configuration without a slow leaf (one whose
    /// moves the common step leaves to SCXML's algorithm), for every kind one of its atomic states
    /// has a move for, what the common step's selection (``FlowMachine/CommonSelection``, the same
    /// code) decides when no guard of code takes part (an `In` guard is answered from the
    /// configuration), and the configuration after it. Empty when the flow's
    /// steps are not packed or its configurations are too many.
    static func commonConfigurations(
        hierarchy: FlowHierarchy, width: Int, ranges: UnsafeMutableBufferPointer<Int>,
        kinds: UnsafeMutableBufferPointer<F.Event.Kind>, moves: UnsafeMutableBufferPointer<Move>,
        parallelMoves: UnsafeMutableBufferPointer<ParallelMove>, slowLeaf: UnsafeMutableBufferPointer<Bool>,
        inStates: UnsafeMutableBufferPointer<Int32>
    ) -> CommonConfigurations {
        var result = CommonConfigurations()
        guard width > 0, let sets = legalLeafSets(hierarchy, limit: commonConfigurationLimit) else { return result }
        func word(_ leaves: [Int32]) -> UInt64 {
            var word: UInt64 = 0
            for (ordinal, leaf) in leaves.enumerated() {
                word |= UInt64(leaf + 1) << UInt64((2 + ordinal) * width)
            }
            return word
        }
        let usable = sets.filter { set in slowLeaf.isEmpty || !set.contains { slowLeaf[Int($0)] } }
        guard !usable.isEmpty else { return result }
        for (number, set) in usable.enumerated() { result.numbers[word(set)] = Int32(number) }
        let movesMask: UInt64 = (1 << UInt64(2 * width)) - 1
        // Each state's kinds in the order of its moves, and its moves of each in order (the
        // selection's candidates): worked out once per state, not per configuration.
        var byKind = [(kinds: [F.Event.Kind], moves: [F.Event.Kind: [Int]])](repeating: ([], [:]),
                                                                             count: ranges.count - 1)
        for state in byKind.indices {
            for i in ranges[state]..<ranges[state + 1] {
                if byKind[state].moves[kinds[i]] == nil { byKind[state].kinds.append(kinds[i]) }
                byKind[state].moves[kinds[i], default: []].append(i)
            }
        }
        result.ranges.append(0)
        for set in usable {
            let leaves = word(set)
            result.leaves.append(leaves)
            let firstKind = result.kinds.count
            var seen: Set<F.Event.Kind> = []
            for leaf in set {
                for kind in byKind[Int(leaf)].kinds where seen.insert(kind).inserted {
                    result.kinds.append(kind)
                }
            }
            for kind in result.kinds[firstKind...] {
                var outcome = CommonOutcome.dynamic
                var selection = FlowMachine<F>.CommonSelection()
                var guarded = false
                for (ordinal, leaf) in set.enumerated() {
                    // The state's first candidate whose guard holds, as the selection asks: no guard
                    // holds; an `In` guard is answered here (the configuration is known); a guard
                    // of code leaves the decision to the step.
                    var selected = -1
                    for i in byKind[Int(leaf)].moves[kind] ?? [] {
                        let g = Int(moves[i].guardIndex)
                        if g < 0 || (inStates[g] >= 0 && isActive(Int(inStates[g]), in: set, hierarchy)) {
                            selected = i
                            break
                        }
                        if inStates[g] < 0 {
                            guarded = true
                            break
                        }
                    }
                    if guarded { break }
                    guard selected >= 0 else { continue }
                    selection.offer(selected, at: ordinal, field: (2 + ordinal) * width,
                                    targetless: parallelMoves[selected].domain == ParallelMove.targetless, moves: moves)
                }
                let first = Int(selection.first)
                let second = Int(selection.second)
                if !guarded, selection.more == nil, first >= 0,
                   second < 0 || moves[first].effectCount + moves[second].effectCount <= 2 {
                    // Packed as the selection packs it: the moves, then each one's leaf replaced by its target.
                    var packed = leaves | UInt64(first + 1) | (second < 0 ? 0 : UInt64(second + 1) << UInt64(width))
                    if moves[first].target >= 0 {
                        packed = FlowMachine<F>.repack(packed, field: selection.firstField, leaf: moves[first].target, width)
                    }
                    if second >= 0 && moves[second].target >= 0 {
                        packed = FlowMachine<F>.repack(packed, field: selection.secondField, leaf: moves[second].target, width)
                    }
                    outcome = CommonOutcome(packed: packed, next: result.numbers[packed & ~movesMask] ?? -1,
                                            first: Int32(first), firstLeaf: selection.firstAt,
                                            second: Int32(second), secondLeaf: selection.secondAt)
                }
                result.outcomes.append(outcome)
            }
            guard result.outcomes.count <= commonOutcomeLimit else { return CommonConfigurations() }
            result.ranges.append(Int32(result.outcomes.count))
        }
        return result
    }

    /// Whether `state` is active in the configuration whose atomic states are `leaves` (the leaves
    /// and their ancestors).
    static func isActive(_ state: Int, in leaves: [Int32], _ hierarchy: FlowHierarchy) -> Bool {
        leaves.contains { hierarchy.isDescendantOrSelf(Int($0), of: state) }
    }

    /// Every legal set of active atomic states (a configuration, named by its atomic states), each
    /// sorted by number as a machine's ``FlowMachine/activeLeaves`` name them: one state for an atomic
    /// state, one set of each region's for a parallel state (every combination), any child's for a
    /// compound one. Children before parents (reverse document order), without recursion; `nil` when
    /// some state has more than `limit`.
    static func legalLeafSets(_ hierarchy: FlowHierarchy, limit: Int) -> [[Int32]]? {
        // A state's sets are read once, by its parent, and freed then: at most the sets of one
        // state's children are held at once, beside the states not yet reached.
        var sets = [[[Int32]]](repeating: [], count: hierarchy.count)
        let childrenFirst = (0..<hierarchy.count).sorted {
            hierarchy.documentPosition(of: $0) > hierarchy.documentPosition(of: $1)
        }
        for s in childrenFirst where !hierarchy.isHistory(s) {
            if hierarchy.isAtomic(s) {
                sets[s] = [[Int32(s)]]
            } else if hierarchy.isParallel(s) {
                var product: [[Int32]] = [[]]
                for child in hierarchy.children(of: s) where !hierarchy.isHistory(child) {
                    guard product.count * sets[child].count <= limit else { return nil }
                    product = product.flatMap { prefix in sets[child].map { prefix + $0 } }
                    sets[child] = []
                }
                sets[s] = product
            } else {
                var union: [[Int32]] = []
                for child in hierarchy.children(of: s) where !hierarchy.isHistory(child) {
                    guard union.count + sets[child].count <= limit else { return nil }
                    union += sets[child]
                    sets[child] = []
                }
                sets[s] = union
            }
        }
        var all: [[Int32]] = []
        for child in hierarchy.children(of: FlowHierarchy.root) where !hierarchy.isHistory(child) {
            guard all.count + sets[child].count <= limit else { return nil }
            all += sets[child]
        }
        return all.map { $0.sorted() }
    }

    /// The field `index` of a common step packed in a word (``stepFieldBits``).
    @inlinable @inline(__always)
    func stepField(_ packed: UInt64, _ index: Int) -> Int {
        let width = UInt64(truncatingIfNeeded: stepFieldBits)
        return Int(truncatingIfNeeded: (packed >> (width &* UInt64(truncatingIfNeeded: index))) & ((1 &<< width) &- 1))
    }

    /// The effects of a common step packed in a word: none, one move's laid-out effects, or two
    /// moves' in SCXML's order (the common step packs two only when they have at most two effects
    /// between them, so reading them never allocates).
    @inlinable
    func packedStepEffects(_ packed: UInt64) -> FlowEffects<F.Effect> {
        let first = stepField(packed, 0)
        guard first > 0 else { return FlowEffects() }
        let second = stepField(packed, 1)
        guard second > 0 else { return effects(of: eventMoves[first &- 1]) }
        return twoMoveEffects(first &- 1, second &- 1)
    }

    /// The effects of two common moves (selected in this order) that have at most two between them,
    /// in SCXML's order: the second's exits, the first's; the first's own, the second's; the first's
    /// entries, the second's.
    @inlinable
    func twoMoveEffects(_ first: Int, _ second: Int) -> FlowEffects<F.Effect> {
        let storage = effects.elements
        var one: F.Effect?
        var two: F.Effect?
        func add(_ move: Int, from start: Int, count: Int) {
            let base = Int(eventMoves[move].effectStart) &+ start
            for k in base..<base &+ count {
                if one == nil { one = storage[k] } else { two = storage[k] }
            }
        }
        let a = parallelMoves[first]
        let b = parallelMoves[second]
        add(second, from: 0, count: Int(b.exitCount))
        add(first, from: 0, count: Int(a.exitCount))
        add(first, from: Int(a.exitCount), count: Int(a.contentCount))
        add(second, from: Int(b.exitCount), count: Int(b.contentCount))
        add(first, from: Int(a.exitCount &+ a.contentCount),
            count: Int(eventMoves[first].effectCount &- a.exitCount &- a.contentCount))
        add(second, from: Int(b.exitCount &+ b.contentCount),
            count: Int(eventMoves[second].effectCount &- b.exitCount &- b.contentCount))
        guard let one else { return FlowEffects() }
        return FlowEffects(first: one, second: two)
    }

    /// The transitions of a common step packed in a word.
    @inlinable
    func packedStepTransitions(_ packed: UInt64) -> FlowTransitions {
        let first = stepField(packed, 0)
        guard first > 0 else { return FlowTransitions() }
        let second = stepField(packed, 1)
        guard second > 0 else { return FlowTransitions(declaration: eventMoves[first &- 1].declaration) }
        return FlowTransitions(declaration: eventMoves[first &- 1].declaration, eventMoves[second &- 1].declaration)
    }

    /// The active atomic states after a common step packed in a word, in declaration order.
    func packedStepLeaves(_ packed: UInt64) -> [F.State] {
        var leaves: [F.State] = []
        var index = 2
        while index &* stepFieldBits < UInt64.bitWidth {
            let leaf = stepField(packed, index)
            guard leaf > 0 else { break }
            leaves.append(states[leaf &- 1])
            index &+= 1
        }
        return leaves
    }
}
