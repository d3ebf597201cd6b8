import FlowGraph
import Flowstate

extension FlowDiagram {
    /// The graph of a flow file: the graph of its definition, with what only the file says drawn too
    /// (the child flows its states run, SCXML's nested final states, parallel states as dashed clusters,
    /// history states as `H` and `H*` circles, internal transitions dotted).
    ///
    /// Edges name the file's transitions by their index in document order (a state's transitions,
    /// then its children's), the numbering traces of flow files use (`FlowTrace.Step.transitions`).
    public init(_ spec: FlowFile, mergeParallelEdges: Bool = false) {
        let (definition, specTransitions) = spec.compiled(guards: [:], matching: .text)
        self.init(definition, mergeParallelEdges: mergeParallelEdges)
        for e in edges.indices {
            edges[e].transitions = edges[e].transitions.map { $0 < specTransitions.count ? specTransitions[$0] : $0 }
        }
        let index = SpecIndex(spec)
        for i in nodes.indices {
            guard let state = index.states[nodes[i].label] else { continue }
            nodes[i].childFlow = state.child
            if state.isFinal && nodes[i].kind == .state { nodes[i].kind = .final }
            if state.isParallel && state.states.isEmpty {
                // A <parallel> with no regions (invalid, not declared parallel in the definition, which
                // draws the others as dashed clusters marked ∥): marked the same way.
                nodes[i].isParallel = true
                nodes[i].attributes["style"] = "dashed"
                nodes[i].attributes["label"] = "\(state.name) ∥"
            }
            // History states are drawn by the definition's graph (`H`, `H*`), as typed flows' are.
        }
        // A transition with several targets is drawn by the definition's graph: one edge per target.
        // An internal transition is drawn by the definition's graph too (dotted, marked), as typed flows' are.
        // A transition to a state the file does not declare is drawn, marked, to a node that says so:
        // an invalid flow is never drawn as if it were whole.
        var missing: [String: String] = [:]
        for (source, transition) in index.transitions {
            guard let target = transition.targets.first(where: { index.states[$0] == nil }),
                  let from = nodes.first(where: { $0.label == source && $0.kind != .compound })?.id
                      ?? nodes.first(where: { $0.label == source })?.id else { continue }
            let id: String
            if let known = missing[target] {
                id = known
            } else {
                id = "missing\(missing.count)"
                missing[target] = id
                nodes.append(Node(id: id, label: "\(target)?", kind: .state, parent: nil, childFlow: nil,
                                  attributes: ["style": "dashed,rounded", "color": "#dc2626", "fontcolor": "#dc2626",
                                               "tooltip": "not a declared state"]))
            }
            let label = transition.eventLabel
            edges.append(Edge(from: from, to: id, label: label ?? "", events: [label],
                              attributes: ["style": "dashed", "color": "#dc2626", "fontcolor": "#dc2626"]))
        }
    }
}
