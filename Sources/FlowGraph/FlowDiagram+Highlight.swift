import Flowstate

extension FlowDiagram {
    /// Marks the current state (and the compound states containing it).
    public mutating func highlight(state label: String) {
        highlight(states: [label])
    }

    /// Marks every active state of a flow with parallel states (one leaf per active region; pass
    /// `step.leaves` or the machine's active states), and the states containing them.
    public mutating func highlight(states labels: [String]) {
        for label in labels { mark(label) }
    }

    private mutating func mark(_ label: String) {
        guard let id = id(ofLabel: label) else { return }
        for i in nodes.indices where nodes[i].id == id {
            if nodes[i].kind == .compound {  // a cluster: a bold border, not a filled area
                nodes[i].attributes["style"] = "rounded,bold"
                nodes[i].attributes["color"] = "#d4a017"
            } else {
                nodes[i].attributes["style"] = "rounded,filled,bold"
                nodes[i].attributes["fillcolor"] = "#ffe08a"
            }
            nodes[i].attributes["penwidth"] = "2"
        }
        for ancestor in ancestors(of: id) {
            for i in nodes.indices where nodes[i].id == ancestor { nodes[i].attributes["color"] = "#d4a017" }
        }
    }

    /// Overlays a run: visited states shaded with their visit counts, taken edges thickened with
    /// their counts, and the last `lastPathLength` transitions drawn in red.
    ///
    /// The edges are the transitions the engine reported taking (``FlowTrace/Step/transitions``),
    /// eventless ones included: nothing is guessed from labels. A step without transitions marks
    /// only the state it reached. In a flow with parallel states (steps with ``FlowTrace/Step/leaves``),
    /// a leaf is counted when it becomes active, not again for each step another region takes while
    /// it stays active (nor for a transition that leaves it active and enters it again).
    public mutating func overlay(_ trace: FlowTrace, lastPathLength: Int = 5) {
        var visits: [String: Int] = [:]
        var taken: [Int: Int] = [:]
        var order: [Int] = []
        var edgeOf: [Int: Int] = [:]  // declared transition -> edge drawing it
        for (e, edge) in edges.enumerated() {
            for transition in edge.transitions where edgeOf[transition] == nil { edgeOf[transition] = e }
        }
        var active: Set<String> = []  // a parallel flow's leaves after the step before
        for step in trace.steps {
            if let leaves = step.leaves {
                for label in leaves where !active.contains(label) {
                    if let target = id(ofLabel: label) { visits[target, default: 0] += 1 }
                }
                active = Set(leaves)
            } else {
                if let target = id(ofLabel: step.to) { visits[target, default: 0] += 1 }
                active = [step.to]
            }
            for transition in step.transitions {
                guard let e = edgeOf[transition] else { continue }
                taken[e, default: 0] += 1
                order.append(e)
            }
        }
        for i in nodes.indices {
            guard let count = visits[nodes[i].id] else { continue }
            nodes[i].attributes["style"] = "rounded,filled"
            nodes[i].attributes["fillcolor"] = nodes[i].attributes["fillcolor"] ?? "#dbeafe"
            nodes[i].attributes["xlabel"] = "×\(count)"
        }
        for (e, count) in taken {
            edges[e].attributes["penwidth"] = "\(min(1 + count, 6))"
            edges[e].attributes[externalEdgeLabels ? "xlabel" : "label"] = edges[e].label + " (×\(count))"
        }
        for e in order.suffix(lastPathLength) {
            edges[e].attributes["color"] = "#dc2626"
            edges[e].attributes["fontcolor"] = "#dc2626"
        }
    }
}

/// A recorded run, as state and event labels: what ``FlowDiagram/overlay(_:lastPathLength:)`` draws and
/// what `FlowViewer` (in `FlowGraphviz`) steps through.
///
/// Record one from a machine's steps (`FlowTrace(steps)`, ``append(_:)``), from a supervisor's tree
/// events (``init(_:machine:)``), or while a runtime or supervisor runs (``FlowTraceRecorder``).
public struct FlowTrace: Hashable, Sendable, Codable {
    /// One step: `from` is `nil` for the start.
    public struct Step: Hashable, Sendable, Codable {
        /// The state before the step, or `nil` at the start.
        public var from: String?
        /// The state after the step.
        public var to: String
        /// The event kind's label, or `nil` at the start.
        public var event: String?
        /// The transitions the engine took, by position in the flow's declarations
        /// (`FlowTransitionID.position`), in order: the event's, then eventless ones.
        public var transitions: [Int]
        /// The effects the step performed, in order (exits, the transitions', entries), as labels;
        /// `nil` when the run was recorded without them (an empty list: recorded, and there were none).
        /// Traces encoded before this property existed decode with `nil`.
        public var effects: [String]?
        /// For a flow with parallel states, every leaf active after the step (``to`` is the first);
        /// `nil` when one leaf is active. Traces encoded before this property existed decode with `nil`.
        public var leaves: [String]?

        /// Creates a step.
        public init(from: String?, to: String, event: String?, transitions: [Int] = [], effects: [String]? = nil,
                    leaves: [String]? = nil) {
            self.from = from
            self.to = to
            self.event = event
            self.transitions = transitions
            self.effects = effects
            self.leaves = leaves
        }
    }

    /// The steps, in order.
    public var steps: [Step]

    /// Creates a trace.
    public init(steps: [Step]) { self.steps = steps }

    /// The trace of one machine of a supervisor's tree, from its recorded tree events. Tree events
    /// carry no effects, so its steps' ``Step/effects`` are `nil`; ``FlowTraceRecorder`` records them.
    public init(_ events: [TreeEvent], machine: MachineID) {
        self.steps = events.compactMap { event in
            switch event {
            case .spawned(machine, _, _, let state, let taken):
                Step(from: nil, to: state, event: nil, transitions: taken.map(\.position))
            case .transitioned(machine, let from, let to, let event, let taken):
                Step(from: from, to: to, event: event, transitions: taken.map(\.position))
            default: nil
            }
        }
    }

    /// The trace of a machine's steps, with their effects. Ignored and rejected events are left
    /// out: they move nothing.
    public init<F: Flow>(_ steps: [FlowStep<F>]) {
        self.steps = []
        for step in steps { append(step) }
    }

    /// Appends a machine's step (what `FlowMachine.send(_:)` or `FlowRuntime`'s observers report),
    /// with the transitions the engine took and the effects it asked for, described as labels.
    /// Ignored and rejected events are left out: they move nothing.
    ///
    /// ```swift
    /// var trace = FlowTrace(steps: [])
    /// trace.append(try machine.start())
    /// trace.append(try machine.send(.submit))
    /// ```
    public mutating func append<F: Flow>(_ step: FlowStep<F>) {
        switch step.kind {
        case .started, .transitioned, .finished:
            steps.append(Step(from: step.from.map { "\($0)" }, to: "\(step.state)", event: step.event.map { "\($0.kind)" },
                              transitions: step.transitions.map(\.position), effects: step.effects.map { "\($0)" },
                              leaves: step.leaves.count > 1 ? step.leaves.map { "\($0)" } : nil))
        case .ignored, .rejected:
            break
        }
    }
}
