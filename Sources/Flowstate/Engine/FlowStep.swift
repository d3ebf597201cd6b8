/// What kind of step a ``FlowStep`` is.
public enum FlowStepKind: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// The machine started and settled in the step's ``FlowStep/state`` (its initial state, or where
    /// eventless transitions led).
    case started
    /// The machine took a transition. ``FlowStep/from`` equals ``FlowStep/state`` for a self or
    /// targetless transition.
    case transitioned
    /// The machine entered a final state and produced its ``FlowStep/output``.
    case finished
    /// No transition of the current state reacts to the event (under ``UnhandledEventPolicy/ignore``).
    case ignored
    /// Transitions react to the event, but every guard said no. The machine stays where it is.
    case rejected

    /// `started`, `transitioned`, `finished`, `ignored` or `rejected`.
    public var description: String {
        switch self {
        case .started: "started"
        case .transitioned: "transitioned"
        case .finished: "finished"
        case .ignored: "ignored"
        case .rejected: "rejected"
        }
    }
}

/// What one call to ``FlowMachine/start()`` or ``FlowMachine/send(_:)`` did.
///
/// A step says what kind of step it was (``kind``), the state the machine is in after it
/// (``state``), where it came from (``from``) and on which ``event``, the ``effects`` the host must
/// perform, the ``transitions`` it took and, when the flow finished, its ``output``. Switch over
/// the kind and read what it needs:
///
/// ```swift
/// let step = try machine.send(.submitEmail("ada@example.com"))
/// switch step.kind {
/// case .transitioned, .finished: perform(step.effects)
/// case .started, .ignored, .rejected: break
/// }
/// ```
///
/// The step names the transitions it took by the identity of their declaration: the transition the
/// event selected, then every eventless transition that followed. Whoever needs to know what fired
/// (a diagram's overlay, a supervisor, a test) reads it here; nothing re-derives it from labels.
///
/// A step is a value that stays valid after its machine and definition are gone. It costs the same
/// however it is held (bound to a `let`, switched over, passed to a function, its properties read
/// one after another): for a flow whose states and events are payload-free enums and whose effects
/// fit in a word, a step is three words that Swift passes in registers, so holding it copies no
/// more than its fields (see docs/PERFORMANCE.md). A flow with larger types (events that carry a
/// `String`, say) has a larger step, which Swift keeps in memory and copies through its generic value
/// witnesses: every way of holding it then costs about the same, more than for a small step. The
/// rarer parts (an output, several transitions) are kept in one shared object.
public struct FlowStep<F: Flow>: Sendable {
    /// What kind of step a step is (the same type for every flow).
    public typealias Kind = FlowStepKind

    // The stored layout is deliberate (docs/PERFORMANCE.md, "How a caller holds a step"): at most six
    // fields in all (the specializer returns a step in registers only then) and, for small flow
    // types, at most four words (Swift passes no more in registers). Anything larger would be kept
    // in memory, where Swift copies and destroys it through the generic type's value witnesses.
    // Declaration order is layout order: the enum's tag byte is followed by the one-byte fields.

    /// Up to two effects inline, a range of shared effects, or the rarer data behind one reference.
    @usableFromInline let payload: Payload
    /// The state the machine is in after the step.
    public let state: F.State
    /// The state the machine was in before the step: `nil` for a start, and for an ignored or
    /// rejected event (the machine did not move: see ``state``).
    public let from: F.State?
    /// The event that caused the step, if any (`nil` for a start).
    public let event: F.Event?
    /// The kind in the low three bits; above them, one more than the single transition taken (0 for
    /// none) when the payload is not `details`.
    @usableFromInline let bits: Int32

    @usableFromInline
    enum Payload: Sendable {
        case none
        case one(F.Effect)
        case two(F.Effect, F.Effect)
        /// A range of the storage: start in the high 32 bits, count in the low 32 bits.
        case shared(EffectStorage<F.Effect>, UInt64)
        /// Effects, transitions and output, for a step that finished or took several transitions.
        case details(FlowStepDetails<F>)
        /// Effects, transitions, output and configuration, for a step of a flow with parallel states.
        case parallel(FlowParallelStepStorage<F>)
        /// A common step of a small flow with parallel states (``FlowMachine/sendParallelCommon(_:)``),
        /// packed in a word: the moves it took and the active atomic states after it, as indices of
        /// the table (``FlowTable/stepFieldBits``), which names them. Nothing written, nothing to reuse:
        /// the table is shared and immutable.
        case regions(FlowTable<F>, UInt64)
    }

    /// The largest declaration index that fits beside the kind in ``bits``.
    @usableFromInline static var inlineDeclarationLimit: Int32 { (Int32.max >> 3) &- 1 }

    @inlinable
    init(payload: Payload, state: F.State, from: F.State?, event: F.Event?, bits: Int32) {
        self.payload = payload
        self.state = state
        self.from = from
        self.event = event
        self.bits = bits
    }

    /// A step that took at most one transition and has no output: nothing allocated.
    @inlinable
    init(kind: FlowStepKind, state: F.State, from: F.State?, event: F.Event?, effects: FlowEffects<F.Effect>,
         declaration: Int32) {
        guard declaration <= Self.inlineDeclarationLimit else {
            let details = FlowStepDetails<F>(effects: effects, transitions: FlowTransitions(declaration: declaration),
                                           output: nil)
            self.init(payload: .details(details), state: state, from: from, event: event, bits: Int32(kind.rawValue))
            return
        }
        let payload: Payload
        switch effects.storage {
        case .none: payload = .none
        case .one(let first): payload = .one(first)
        case .two(let first, let second): payload = .two(first, second)
        case .shared(let storage, let range): payload = .shared(storage, range)
        }
        self.init(payload: payload, state: state, from: from, event: event,
                  bits: Int32(kind.rawValue) | (declaration &+ 1) << 3)
    }

    /// A step of a flow with parallel states: its rarer data and configuration are kept in storage the
    /// machine reuses once the step is gone (``FlowMachine/parallelStep(kind:from:event:effects:transitions:output:)``).
    @inlinable
    init(kind: FlowStepKind, state: F.State, from: F.State?, event: F.Event?, storage: FlowParallelStepStorage<F>) {
        self.init(payload: .parallel(storage), state: state, from: from, event: event, bits: Int32(kind.rawValue))
    }

    /// A common step of a flow with parallel states, packed in a word (``Payload/regions``).
    @inlinable
    init(kind: FlowStepKind, state: F.State, from: F.State?, event: F.Event?, table: FlowTable<F>, packed: UInt64) {
        self.init(payload: .regions(table, packed), state: state, from: from, event: event, bits: Int32(kind.rawValue))
    }

    /// Any step: the rarer data (an output, several transitions) is kept in one shared object.
    @inlinable
    init(kind: FlowStepKind, state: F.State, from: F.State?, event: F.Event?, effects: FlowEffects<F.Effect>,
         transitions: FlowTransitions, output: F.Output?) {
        if output == nil, transitions.more == nil, transitions.second < 0 {
            self.init(kind: kind, state: state, from: from, event: event, effects: effects,
                      declaration: transitions.single)
        } else {
            let details = FlowStepDetails<F>(effects: effects, transitions: transitions, output: output)
            self.init(payload: .details(details), state: state, from: from, event: event, bits: Int32(kind.rawValue))
        }
    }

    /// The machine started and settled in `state` (its initial state, or where eventless transitions
    /// led; `transitions` lists those).
    public static func started(state: F.State, effects: FlowEffects<F.Effect>, transitions: FlowTransitions) -> Self {
        Self(kind: .started, state: state, from: nil, event: nil, effects: effects, transitions: transitions,
             output: nil)
    }

    /// The machine took a transition from `from` to `to`. `from` equals `to` for a self or
    /// targetless transition.
    public static func transitioned(from: F.State, to: F.State, event: F.Event, effects: FlowEffects<F.Effect>,
                                    transitions: FlowTransitions) -> Self {
        Self(kind: .transitioned, state: to, from: from, event: event, effects: effects, transitions: transitions,
             output: nil)
    }

    /// The machine entered the final state `to` and produced `output`. `from` and `event` are `nil`
    /// when the flow finished while starting.
    public static func finished(from: F.State?, to: F.State, event: F.Event?, effects: FlowEffects<F.Effect>,
                                output: F.Output, transitions: FlowTransitions) -> Self {
        Self(kind: .finished, state: to, from: from, event: event, effects: effects, transitions: transitions,
             output: output)
    }

    /// No transition of `state` reacts to `event` (under ``UnhandledEventPolicy/ignore``).
    public static func ignored(state: F.State, event: F.Event) -> Self {
        Self(kind: .ignored, state: state, from: nil, event: event, effects: FlowEffects(), declaration: -1)
    }

    /// Transitions of `state` react to `event`, but every guard said no.
    public static func rejected(state: F.State, event: F.Event) -> Self {
        Self(kind: .rejected, state: state, from: nil, event: event, effects: FlowEffects(), declaration: -1)
    }

    /// What kind of step this is: switch over it to tell a start, a transition, a finish, an ignored
    /// and a rejected event apart.
    @inlinable @inline(__always)
    public var kind: FlowStepKind {
        FlowStepKind(rawValue: UInt8(truncatingIfNeeded: bits & 7)).unsafelyUnwrapped
    }

    /// The effects the host must perform, in order (none for an ignored or rejected event).
    @inlinable @inline(__always)
    public var effects: FlowEffects<F.Effect> {
        switch payload {
        case .none: FlowEffects(.none)
        case .one(let first): FlowEffects(.one(first))
        case .two(let first, let second): FlowEffects(.two(first, second))
        case .shared(let storage, let range): FlowEffects(.shared(storage, range))
        case .details(let details): details.effects
        case .parallel(let storage): storage.effects
        case .regions(let table, let packed): table.packedStepEffects(packed)
        }
    }

    /// The transitions the step took, in order: the one the event selected, then the eventless ones
    /// that followed. Empty for an ignored or rejected event (and for a start without eventless
    /// transitions). Look each up with ``FlowDefinition/subscript(_:)``.
    @inlinable @inline(__always)
    public var transitions: FlowTransitions {
        switch payload {
        case .none, .one, .two, .shared: break
        case .details(let details): return details.transitions
        case .parallel(let storage): return storage.transitions
        case .regions(let table, let packed): return table.packedStepTransitions(packed)
        }
        let declaration = bits >> 3 &- 1
        return declaration < 0 ? FlowTransitions() : FlowTransitions(declaration: declaration)
    }

    /// The atomic states active after the step, in declaration order: `[state]` for a flow without
    /// parallel states; with them, one per active region (``state`` is the first).
    public var leaves: [F.State] {
        if case .parallel(let storage) = payload { return storage.leaves }
        if case .regions(let table, let packed) = payload { return table.packedStepLeaves(packed) }
        return [state]
    }

    /// What the step did to the machine's timers (delayed transitions, ``After``), in SCXML's order:
    /// a timer cancelled for each state with delayed transitions it exited, then one armed for each
    /// such state it entered (a start arms its initial states'; a step that finishes the flow cancels
    /// every timer left). Schedule each ``FlowTimerChange/arm(_:after:)`` and call
    /// ``FlowMachine/fire(_:)`` when it is due; drop each ``FlowTimerChange/cancel(_:)`` (firing it
    /// would be ignored anyway). Always empty for a flow without delayed transitions.
    public var timers: [FlowTimerChange] {
        if case .parallel(let storage) = payload { return storage.header.pointee.timers }
        return []
    }

    /// The timer whose firing caused the step (``FlowMachine/fire(_:)``), whose ``event`` is then
    /// `nil`; `nil` for a start and for an event's step.
    public var timer: FlowTimer? {
        if case .parallel(let storage) = payload { return storage.header.pointee.fired }
        if case .details(let details) = payload { return details.fired }
        return nil
    }

    /// The flow's output, for a step that finished it (``FlowStepKind/finished``); `nil` otherwise.
    @inlinable @inline(__always)
    public var output: F.Output? {
        if case .details(let details) = payload { return details.output }
        if case .parallel(let storage) = payload { return storage.output }
        return nil
    }
}

/// The rarer parts of a step (an output, several transitions), kept in one object so that a step
/// stays small. Immutable.
@usableFromInline
final class FlowStepDetails<F: Flow>: Sendable {
    @usableFromInline let effects: FlowEffects<F.Effect>
    @usableFromInline let transitions: FlowTransitions
    @usableFromInline let output: F.Output?
    /// For a timer's step that changed nothing (``FlowStepKind/ignored``), the timer.
    let fired: FlowTimer?

    @usableFromInline
    init(effects: FlowEffects<F.Effect>, transitions: FlowTransitions, output: F.Output?, fired: FlowTimer? = nil) {
        self.effects = effects
        self.transitions = transitions
        self.output = output
        self.fired = fired
    }
}

/// What a step of a flow with parallel states keeps beside its fields: its effects, transitions and
/// output, and the machine's configuration after it.
@usableFromInline
struct FlowParallelStepHeader<F: Flow> {
    @usableFromInline var effects: FlowEffects<F.Effect>
    @usableFromInline var transitions: FlowTransitions
    @usableFromInline var output: F.Output?
    /// How many states the configuration (the buffer's elements) holds.
    @usableFromInline var count: Int
    /// The table, to name the configuration's states.
    @usableFromInline let table: FlowTable<F>
    /// For a flow with delayed transitions, the timers the step armed and cancelled, and the timer
    /// that caused it (always empty and `nil` for a flow without: nothing writes them).
    var timers: [FlowTimerChange] = []
    var fired: FlowTimer? = nil

    @usableFromInline
    init(table: FlowTable<F>) {
        self.effects = FlowEffects()
        self.transitions = FlowTransitions()
        self.output = nil
        self.count = 0
        self.table = table
    }
}

/// The rarer parts of a step of a flow with parallel states, with the configuration after it (room
/// for every state of the flow): one object per step, which the machine that made it fills again for
/// its next step once no step holds it any more.
///
/// Immutable once a step holds it: the machine writes it only while it holds the only reference
/// (`isKnownUniquelyReferenced`: the caller dropped the step), so a step kept anywhere never changes,
/// and a step taken in a loop allocates nothing. Its fields are read and written through pointers,
/// which cost no exclusivity check (a class's stored `var` would cost two runtime calls an access).
@usableFromInline
final class FlowParallelStepStorage<F: Flow>: @unchecked Sendable {
    // @unchecked: written only by the machine that made it, only while that machine holds the only
    // reference (no step, no other thread, can see it then); read-only from the moment a step holds it.

    /// The effects, transitions, output and configuration size.
    @usableFromInline let header: UnsafeMutablePointer<FlowParallelStepHeader<F>>
    /// The configuration: `header.pointee.count` states, sorted by number.
    @usableFromInline let configuration: UnsafeMutablePointer<Int32>

    /// Storage for the steps of a machine running `table`.
    @usableFromInline
    init(table: FlowTable<F>) {
        header = .allocate(capacity: 1)
        header.initialize(to: FlowParallelStepHeader(table: table))
        configuration = .allocate(capacity: max(1, table.states.count))
    }

    deinit {
        header.deinitialize(count: 1)
        header.deallocate()
        configuration.deallocate()
    }

    /// The step's effects.
    @inlinable
    var effects: FlowEffects<F.Effect> { header.pointee.effects }

    /// The step's transitions.
    @inlinable
    var transitions: FlowTransitions { header.pointee.transitions }

    /// The step's output.
    @inlinable
    var output: F.Output? { header.pointee.output }

    /// The active atomic states after the step, in declaration order.
    var leaves: [F.State] {
        let table = header.pointee.table
        let hierarchy = table.hierarchy
        return UnsafeBufferPointer(start: configuration, count: header.pointee.count)
            .filter { hierarchy.isAtomic(Int($0)) }.map { table.states[Int($0)] }
    }
}

extension FlowStep: Equatable where F.Event: Equatable, F.Effect: Equatable, F.Output: Equatable {
    /// Equal when they are the same kind of step, with the same states (active leaves included),
    /// event, effects, transitions, output, timers and fired timer.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind && lhs.state == rhs.state && lhs.from == rhs.from && lhs.event == rhs.event
            && lhs.effects == rhs.effects && lhs.transitions == rhs.transitions && lhs.output == rhs.output
            && lhs.leaves == rhs.leaves && lhs.timers == rhs.timers && lhs.timer == rhs.timer
    }
}

extension FlowStep: CustomStringConvertible {
    /// One readable line, for example `email --submitEmail("a@b.c")--> password / [show(password)]`.
    public var description: String {
        func d(_ value: Any) -> String { String(describing: value) }
        let effectsText = effects.isEmpty ? "" : " / \(effects)"
        switch kind {
        case .started:
            return "start --> \(d(state))\(effectsText)"
        case .transitioned:
            return "\(from.map(d) ?? d(state)) --\(event.map(d) ?? timer.map(d) ?? "")--> \(d(state))\(effectsText)"
        case .finished:
            let source = from.map(d) ?? "start"
            let arrow = (event.map(d) ?? timer.map(d)).map { "--\($0)-->" } ?? "-->"
            return "\(source) \(arrow) \(d(state))\(effectsText) => finished(\(output.map(d) ?? ""))"
        case .ignored:
            return "\(d(state)) ignores \(event.map(d) ?? timer.map(d) ?? "")"
        case .rejected:
            return "\(d(state)) rejects \(event.map(d) ?? timer.map(d) ?? "") (every guard false)"
        }
    }
}
