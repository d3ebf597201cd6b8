/// The identity of a declared transition: its position in ``FlowDefinition/transitions``.
///
/// The engine reports the transitions it takes by this identity (``FlowStep/transitions``), so a
/// layer that needs to know which transition fired (a diagram's overlay, a simulator, a test) reads
/// it from the step instead of guessing from labels. Two transitions with the same source, event and
/// target are still told apart. Look the declaration up with
/// ``FlowDefinition/subscript(_:)``: it holds the source, event kind, guard and target.
public struct FlowTransitionID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The transition's position among the definition's transitions, in declaration order.
    public let position: Int

    /// The transition at `position` of a definition's ``FlowDefinition/transitions``.
    public init(position: Int) { self.position = position }

    /// Orders transitions by declaration.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.position < rhs.position }

    /// `t3`.
    public var description: String { "t\(position)" }
}

/// The transitions one step took, in the order it took them: the transition the event selected
/// (if any), then each eventless transition that followed.
///
/// Creating one for a step that took at most one transition never allocates.
public struct FlowTransitions: RandomAccessCollection, Hashable, Sendable, CustomStringConvertible {
    // One or two transitions inline (one: the common case; two: a step of two regions of a
    // parallel state); more in an array. Two Int32s and a reference: as small as one and a reference.
    @usableFromInline let single: Int32
    @usableFromInline let second: Int32
    @usableFromInline let more: [Int32]?

    /// No transition.
    @inlinable
    public init() {
        single = -1
        second = -1
        more = nil
    }

    /// One transition, by its declaration index.
    @inlinable
    init(declaration: Int32) {
        single = declaration
        second = -1
        more = nil
    }

    /// Two transitions, by their declaration indices: nothing allocated.
    @inlinable
    init(declaration first: Int32, _ second: Int32) {
        single = first
        self.second = second
        more = nil
    }

    /// Several transitions, by their declaration indices.
    @usableFromInline
    init(declarations: [Int32]) {
        switch declarations.count {
        case 0, 1:
            single = declarations.first ?? -1
            second = -1
            more = nil
        case 2:
            single = declarations[0]
            second = declarations[1]
            more = nil
        default:
            single = -1
            second = -1
            more = declarations
        }
    }

    /// Transitions given by identity (for tests and hand-made steps).
    public init(_ transitions: [FlowTransitionID]) {
        self.init(declarations: transitions.map { Int32($0.position) })
    }

    /// Always 0.
    @inlinable public var startIndex: Int { 0 }

    /// How many transitions the step took.
    @inlinable public var endIndex: Int { more?.count ?? (single < 0 ? 0 : second < 0 ? 1 : 2) }

    /// The transition at `position`, counted from 0.
    @inlinable
    public subscript(position: Int) -> FlowTransitionID {
        precondition(position >= 0 && position < endIndex, "FlowTransitions index out of range")
        return FlowTransitionID(position: Int(more?[position] ?? (position == 0 ? single : second)))
    }

    /// Equal when they name the same transitions in the same order.
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }

    /// Hashes the transitions in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for id in self { hasher.combine(id.position) }
    }

    /// `[t1, t4]`.
    public var description: String { "[" + map(\.description).joined(separator: ", ") + "]" }
}

extension FlowDefinition {
    /// The declaration of a transition the engine reported (``FlowStep/transitions``).
    /// - Precondition: `id` names a transition of this definition.
    public subscript(_ id: FlowTransitionID) -> TransitionDeclaration { transitions[id.position] }

    /// The identity of every transition, in declaration order.
    public var transitionIDs: [FlowTransitionID] { transitions.indices.map { FlowTransitionID(position: $0) } }

}
