import Flowstate

extension FlowGraph {
    /// The graph of a flow file: the graph of its definition, with what only the file says drawn too
    /// (the child flows its states run, SCXML's nested final states, parallel states as dashed clusters).
    public init(_ spec: FlowSpec, mergeParallelEdges: Bool = false) {
        self.init(spec.definition(), mergeParallelEdges: mergeParallelEdges)
        let index = SpecIndex(spec)
        for i in nodes.indices {
            guard let state = index.states[nodes[i].label] else { continue }
            nodes[i].childFlow = state.child
            if state.isFinal && nodes[i].kind == .state { nodes[i].kind = .final }
            if state.isParallel {
                nodes[i].attributes["style"] = "dashed"
                nodes[i].attributes["label"] = "\(state.name) ∥"
            }
        }
    }
}
