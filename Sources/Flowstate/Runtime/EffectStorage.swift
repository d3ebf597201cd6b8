/// Immutable storage for effects, shared by a compiled table and every ``FlowEffects`` view into it.
///
/// The elements live in one allocation that is never mutated after `init`, so reading them needs
/// no reference counting beyond keeping the storage alive.
@usableFromInline
final class EffectStorage<Effect: Sendable>: @unchecked Sendable {
    // Immutable after init: safe to share across isolation domains.
    @usableFromInline let elements: UnsafeMutableBufferPointer<Effect>

    init<C: Collection>(_ effects: C) where C.Element == Effect {
        elements = .allocate(capacity: effects.count)
        _ = elements.initialize(from: effects)
    }

    deinit {
        elements.deinitialize()
        elements.deallocate()
    }
}
