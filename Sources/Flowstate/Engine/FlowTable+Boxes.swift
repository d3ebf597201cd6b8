// The boxes the table keeps user closures in, and the buffers it allocates.

/// A guard's predicate in a box of its own, so that the table can call it borrowed (see
/// ``FlowTable/guards``).
@usableFromInline
final class GuardPredicate<F: Flow>: Sendable {
    @usableFromInline let predicate: FlowTable<F>.Predicate

    init(_ predicate: @escaping FlowTable<F>.Predicate) {
        self.predicate = predicate
    }
}

/// An ``Emit``'s function in a box of its own (see ``FlowTable/emits``).
@usableFromInline
final class EffectEmit<F: Flow>: Sendable {
    @usableFromInline let emit: @Sendable (F.Context, F.Event?) -> F.Effect

    init(_ emit: @escaping @Sendable (F.Context, F.Event?) -> F.Effect) {
        self.emit = emit
    }
}

/// An ``Update``'s function in a box of its own (see ``FlowTable/updates``).
@usableFromInline
final class ContextUpdate<F: Flow>: Sendable {
    @usableFromInline let update: @Sendable (inout F.Context, F.Event?) -> Void

    init(_ update: @escaping @Sendable (inout F.Context, F.Event?) -> Void) {
        self.update = update
    }
}

extension UnsafeMutableBufferPointer {
    /// A buffer holding a copy of `elements`; free it with ``free()``.
    static func make(_ elements: [Element]) -> Self {
        let buffer = Self.allocate(capacity: elements.count)
        _ = buffer.initialize(from: elements)
        return buffer
    }

    func free() {
        deinitialize()
        deallocate()
    }
}
