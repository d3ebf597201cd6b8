/// The order in which SCXML's selection tries a definition's transitions from a leaf: the leaf's own,
/// then its parent's, and so on up to the top-level state, each state's in declaration order
/// (SCXML's `selectTransitions`, which the compiled moves of every leaf follow too).
///
/// Built once by the compiler from its grouping of the transitions by source, and kept in the table
/// for tools that explore a flow (FlowTesting's path finder asks it, rather than regrouping the
/// definition's transitions itself). Cold: no step reads it. Every transition counts, delayed and
/// completion ones included; one whose target the definition does not declare is left out, as the
/// engine leaves it out of every move.
package struct FlowSelectionOrder: Sendable {
    /// `declarations[ranges[s]..<ranges[s + 1]]` are the positions (in the definition's
    /// `transitions`) of the transitions declared on state `s`, in declaration order.
    let ranges: [Int32]
    let declarations: [Int32]

    /// The order of transitions grouped by source: `bySource[sourceRanges[s]..<sourceRanges[s + 1]]`
    /// declared on state `s`.
    init(sourceRanges: [Int], bySource: [Int]) {
        ranges = sourceRanges.map { Int32($0) }
        declarations = bySource.map { Int32($0) }
    }

    /// The positions of the transitions declared on `state`, in declaration order.
    package func declared(on state: Int) -> ArraySlice<Int32> {
        declarations[Int(ranges[state])..<Int(ranges[state + 1])]
    }

    /// The positions of the transitions the selection tries from `leaf`, in the order it tries them
    /// (the leaf's own first; `hierarchy` is the definition's).
    package func transitions(from leaf: Int, in hierarchy: FlowHierarchy) -> [Int] {
        var result: [Int] = []
        for state in hierarchy.ancestorsOrSelf(of: leaf) {
            result.append(contentsOf: declared(on: state).lazy.map { Int($0) })
        }
        return result
    }
}

extension FlowDefinition {
    /// The order in which the engine's selection tries the definition's transitions from each leaf
    /// (``FlowSelectionOrder``), from the compiled table.
    package var selectionOrder: FlowSelectionOrder { table.selection }
}
