/// The active states of a ``FlowMachine``, innermost first, without allocating: a view of the
/// machine's configuration (``FlowMachine/activeStates``).
public struct FlowActiveStates<F: Flow>: Sequence, Sendable {
    let table: FlowTable<F>
    let leaf: Int
    let active: [Int32]

    /// Walks the active states, innermost first.
    public struct Iterator: IteratorProtocol, Sendable {
        let table: FlowTable<F>
        var ancestry: FlowHierarchy.Ancestry
        let active: [Int32]
        var remaining: Int

        /// The next active state, or `nil` when every one was listed.
        public mutating func next() -> F.State? {
            if active.isEmpty {
                return ancestry.next().map { table.states[$0] }
            }
            guard remaining > 0 else { return nil }
            remaining -= 1
            return table.states[Int(active[remaining])]
        }
    }

    /// An iterator over the active states.
    public func makeIterator() -> Iterator {
        Iterator(table: table, ancestry: table.hierarchy.ancestorsOrSelf(of: active.isEmpty ? leaf : FlowHierarchy.root),
                 active: active, remaining: active.count)
    }
}
