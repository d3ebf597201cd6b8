/// The effects of one step, in the order the host must perform them: exit effects (innermost
/// state first), the transition's effects, then entry effects (outermost state first).
///
/// Creating one never allocates. Up to two effects are held inline (most steps have zero to two),
/// so a step of a flow whose effects are plain enums involves no reference counting at all; longer
/// lists are a view into the definition's compiled effect table.
public struct FlowEffects<Effect: Sendable>: RandomAccessCollection, Sendable {
    // Up to two effects inline; more are a range of the shared table. (Plain stored properties
    // rather than an enum with payloads: the compiler copies and destroys this without going
    // through generic value witnesses.)
    @usableFromInline let first: Effect?
    @usableFromInline let second: Effect?
    @usableFromInline let shared: EffectStorage<Effect>?
    @usableFromInline let start: Int
    @usableFromInline let storedCount: Int

    @inlinable
    init(storage: EffectStorage<Effect>, start: Int, count: Int) {
        self.storedCount = count
        self.start = start
        if count <= 2 {
            first = count > 0 ? storage.elements[start] : nil
            second = count > 1 ? storage.elements[start &+ 1] : nil
            shared = nil
        } else {
            first = nil
            second = nil
            shared = storage
        }
    }

    /// One or two effects held inline (derived effects: no allocation).
    @inlinable
    init(first: Effect, second: Effect?) {
        self.first = first
        self.second = second
        shared = nil
        start = 0
        storedCount = second == nil ? 1 : 2
    }

    /// No effects.
    @inlinable
    public init() {
        first = nil
        second = nil
        shared = nil
        start = 0
        storedCount = 0
    }

    /// Effects from an array (for tests and hand-made steps).
    public init(_ effects: [Effect]) {
        if effects.isEmpty {
            self.init()
        } else {
            self.init(storage: EffectStorage(effects), start: 0, count: effects.count)
        }
    }

    /// Always 0.
    @inlinable public var startIndex: Int { 0 }

    /// The number of effects.
    @inlinable public var endIndex: Int { storedCount }

    /// The effect at `position`, counted from 0.
    @inlinable
    public subscript(position: Int) -> Effect {
        precondition(position >= 0 && position < storedCount, "FlowEffects index out of range")
        if let shared { return shared.elements[start &+ position] }
        return (position == 0 ? first : second).unsafelyUnwrapped
    }
}

extension FlowEffects: Equatable where Effect: Equatable {
    /// Two effect lists are equal when they hold equal effects in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
}

extension FlowEffects: CustomStringConvertible {
    /// The effects, as `[a, b]`.
    public var description: String { "[" + map { String(describing: $0) }.joined(separator: ", ") + "]" }
}
