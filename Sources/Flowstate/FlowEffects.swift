/// The effects of one step, in the order the host must perform them: exit effects (innermost
/// state first), the transition's effects, then entry effects (outermost state first).
///
/// A view into the definition's compiled effect table: creating one does not allocate.
public struct FlowEffects<Effect: Sendable>: RandomAccessCollection, Sendable {
    @usableFromInline let base: ArraySlice<Effect>

    @inlinable
    init(_ base: ArraySlice<Effect>) { self.base = base }

    /// No effects.
    public init() { base = [] }

    /// Effects from an array.
    public init(_ effects: [Effect]) { base = effects[...] }

    /// Always 0.
    @inlinable public var startIndex: Int { 0 }
    /// The number of effects.
    @inlinable public var endIndex: Int { base.count }
    /// The effect at `position`, counted from 0.
    @inlinable public subscript(position: Int) -> Effect { base[base.startIndex + position] }
}

extension FlowEffects: Equatable where Effect: Equatable {
    /// Two effect lists are equal when they hold equal effects in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
}

extension FlowEffects: CustomStringConvertible {
    /// The effects, as `[a, b]`.
    public var description: String { "[" + map { String(describing: $0) }.joined(separator: ", ") + "]" }
}
