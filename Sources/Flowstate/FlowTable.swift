/// The compiled form of a definition: flat arrays indexed by state, shared by every machine that runs it.
///
/// For every leaf state the table lists, in priority order (the leaf's own transitions, then its
/// parent's, and so on up), the transitions that apply to it, each with its exit, transition and
/// entry effects already laid out in one contiguous range. A step is a linear scan and a slice.
@usableFromInline
final class FlowTable<F: Flow>: Sendable {
    /// A compiled transition from one leaf.
    @usableFromInline
    struct Move: Sendable {
        /// Index into `guards`, or -1 for none.
        @usableFromInline let guardIndex: Int
        /// The leaf state the machine settles in, or -1 for a targetless transition.
        @usableFromInline let target: Int
        /// The range in `effects` of exits, transition effects and entries, in order.
        @usableFromInline let effectStart: Int
        @usableFromInline let effectEnd: Int
        /// Index into `declarations` of the transition this move compiles.
        @usableFromInline let declaration: Int
    }

    @usableFromInline
    struct EventMove: Sendable {
        @usableFromInline let kind: F.Event.Kind
        @usableFromInline let move: Move
    }

    @usableFromInline let states: ContiguousArray<F.State>
    @usableFromInline let index: [F.State: Int]
    @usableFromInline let parents: ContiguousArray<Int>
    @usableFromInline let isFinal: ContiguousArray<Bool>
    @usableFromInline let outputs: ContiguousArray<OutputRule<F>?>
    /// `eventRanges[s]..<eventRanges[s + 1]` are the indices in `eventMoves` for leaf `s`.
    @usableFromInline let eventRanges: ContiguousArray<Int>
    @usableFromInline let eventMoves: ContiguousArray<EventMove>
    @usableFromInline let eventlessRanges: ContiguousArray<Int>
    @usableFromInline let eventlessMoves: ContiguousArray<Move>
    @usableFromInline let guards: ContiguousArray<Guard<F>>
    @usableFromInline let effects: ContiguousArray<F.Effect>
    @usableFromInline let initialTarget: Int
    @usableFromInline let initialEffectStart: Int
    @usableFromInline let initialEffectEnd: Int
    @usableFromInline let unhandled: UnhandledEventPolicy
    @usableFromInline let name: String
    /// How many eventless transitions one step may take before the engine reports a loop.
    @usableFromInline static var eventlessLimit: Int { 1_000 }

    init(
        states: ContiguousArray<F.State>, index: [F.State: Int], parents: ContiguousArray<Int>,
        isFinal: ContiguousArray<Bool>, outputs: ContiguousArray<OutputRule<F>?>,
        eventRanges: ContiguousArray<Int>, eventMoves: ContiguousArray<EventMove>,
        eventlessRanges: ContiguousArray<Int>, eventlessMoves: ContiguousArray<Move>,
        guards: ContiguousArray<Guard<F>>, effects: ContiguousArray<F.Effect>,
        initialTarget: Int, initialEffects: Range<Int>, unhandled: UnhandledEventPolicy, name: String
    ) {
        self.states = states
        self.index = index
        self.parents = parents
        self.isFinal = isFinal
        self.outputs = outputs
        self.eventRanges = eventRanges
        self.eventMoves = eventMoves
        self.eventlessRanges = eventlessRanges
        self.eventlessMoves = eventlessMoves
        self.guards = guards
        self.effects = effects
        self.initialTarget = initialTarget
        self.initialEffectStart = initialEffects.lowerBound
        self.initialEffectEnd = initialEffects.upperBound
        self.unhandled = unhandled
        self.name = name
    }

    /// Whether `move` may be taken from `state` on `event`.
    @inlinable
    func allows(_ move: Move, state: Int, event: F.Event?) -> Bool {
        move.guardIndex < 0 || guards[move.guardIndex].predicate(states[state], event)
    }

    /// The first eventless move of `state` whose guard holds, if any.
    @usableFromInline
    func firstEventless(from state: Int, event: F.Event?) -> Move? {
        var i = eventlessRanges[state]
        let end = eventlessRanges[state + 1]
        while i < end {
            let move = eventlessMoves[i]
            if allows(move, state: state, event: event) { return move }
            i += 1
        }
        return nil
    }

    @inlinable
    func hasEventless(_ state: Int) -> Bool { eventlessRanges[state] != eventlessRanges[state + 1] }

    @inlinable
    func effects(of move: Move) -> ArraySlice<F.Effect> { effects[move.effectStart..<move.effectEnd] }

    /// The active state and its ancestors, innermost first.
    func configuration(of state: Int) -> [F.State] {
        var result: [F.State] = []
        var s = state
        while s >= 0 {
            result.append(states[s])
            s = parents[s]
        }
        return result
    }
}
