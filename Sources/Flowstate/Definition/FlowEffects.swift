/// The effects of one step, in the order the host must perform them: exit effects (innermost
/// state first), the transition's effects, then entry effects (outermost state first).
///
/// Creating one never allocates. Up to two effects are held inline (most steps have zero to two),
/// so a step of a flow whose effects are plain enums involves no reference counting at all; longer
/// lists are a view into the definition's compiled effect table.
public struct FlowEffects<Effect: Sendable>: RandomAccessCollection, Sendable {
    /// Up to two effects inline, or a range of shared storage. One enum, so that the list counts as
    /// two fields for the optimizer and is three words for word-sized effects: small enough to be
    /// passed in registers, copied field by field rather than through generic value witnesses (see
    /// docs/PERFORMANCE.md, "How a caller holds a step").
    @usableFromInline
    enum Storage: Sendable {
        case none
        case one(Effect)
        case two(Effect, Effect)
        /// A range of the storage: its start in the high 32 bits, its count in the low 32 bits.
        case shared(EffectStorage<Effect>, UInt64)
    }

    @usableFromInline let storage: Storage

    @inlinable
    init(_ storage: Storage) {
        self.storage = storage
    }

    /// A range of `storage`: up to two effects copied out, more a view (borrowed: the storage is
    /// retained only when the view keeps it).
    @inlinable @inline(__always)
    init(storage: borrowing EffectStorage<Effect>, start: Int, count: Int) {
        switch count {
        case 0: self.storage = .none
        case 1: self.storage = .one(storage.elements[start])
        case 2: self.storage = .two(storage.elements[start], storage.elements[start &+ 1])
        default:
            self.storage = .shared(copy storage, UInt64(truncatingIfNeeded: start) << 32
                | UInt64(truncatingIfNeeded: count))
        }
    }

    /// One or two effects held inline (derived effects: no allocation).
    @inlinable
    init(first: Effect, second: Effect?) {
        if let second {
            storage = .two(first, second)
        } else {
            storage = .one(first)
        }
    }

    /// No effects.
    @inlinable
    public init() {
        storage = .none
    }

    /// Effects from an array (for tests and hand-made steps).
    public init(_ effects: [Effect]) {
        if effects.count <= 2 {
            switch effects.count {
            case 0: self.init()
            case 1: self.init(first: effects[0], second: nil)
            default: self.init(first: effects[0], second: effects[1])
            }
        } else {
            self.init(storage: EffectStorage(effects), start: 0, count: effects.count)
        }
    }

    /// Always 0.
    @inlinable public var startIndex: Int { 0 }

    /// The number of effects.
    @inlinable @inline(__always) public var endIndex: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .two: 2
        case .shared(_, let range): Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: range))
        }
    }

    /// The effect at `position`, counted from 0.
    @inlinable @inline(__always)
    public subscript(position: Int) -> Effect {
        precondition(position >= 0 && position < endIndex, "FlowEffects index out of range")
        switch storage {
        case .one(let first):
            return first
        case .two(let first, let second):
            return position == 0 ? first : second
        case .shared(let shared, let range):
            return shared.elements[Int(truncatingIfNeeded: range >> 32) &+ position]
        case .none:
            preconditionFailure("FlowEffects index out of range")
        }
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
