import FlowGraph
import Flowstate

/// Paths through a flow file, found by running it: the shortest event path to every state, and a set
/// of event sequences that together take every transition (a transition cover, as model-based test
/// generators produce).
///
/// The exploration runs the engine itself, breadth first, from each state reached, with each event
/// its transitions (and their ancestors') name, and with the guard truths that select each candidate
/// transition in turn (its guard true, the guards of the transitions the engine would try first
/// false). SCXML's internal events (`raise`, `done.state.*`) are processed as ``FlowSimulation``
/// processes them, so every path replays in `flowviz simulate` to the state it claims. Child flows are
/// not run: their completion is an event like any other.
public struct FlowPaths: Sendable {
    /// The states some event sequence settles in (leaf states and the compound states containing
    /// them), in document order; ``shortestPath(to:)`` gives the sequence.
    public var reached: [String]
    /// States that an event sequence passes through without settling in them (left again by an
    /// eventless transition or an internal event in the same step), in document order;
    /// ``shortestPath(to:)`` gives the sequence.
    public var passedThrough: [String]
    /// State names, in document order, that no event sequence reaches.
    public var unreachable: [String]
    /// Event sequences from the start that together take every transition the exploration could take.
    public var cover: [[SpecEvent]]
    /// Transitions no explored step took (a transition of an unreachable state, one whose guard
    /// literal is false, or one that an earlier unguarded transition always shadows).
    public var uncovered: [FlowSpec.Transition]
    /// How many transitions the flow declares.
    public var transitionCount: Int
    /// State names in document order.
    public var states: [String]

    /// Explores a spec.
    /// - Parameters:
    ///   - spec: The flow.
    ///   - guards: Default truths of guards that steps do not mention (true otherwise).
    /// - Throws: ``FlowSimulation/Problem`` when the flow is invalid or has parallel states.
    public init(_ spec: FlowSpec, guards: [String: Bool] = [:]) throws(FlowSimulation.Problem) {
        let scxml = spec.semantics == .scxml
        // The driver FlowSimulation runs, without child flows: their completion is an event like any other.
        let classes = EventClasses(scxml ? [spec] : [])  // JSON specs match exactly: no classes
        let document = SpecDocument(spec, guards: guards, classes: classes)
        let index = document.index
        for name in index.order where index.states[name]!.isParallel {
            let at = index.states[name]!.location.map { "\($0): " } ?? ""
            throw FlowSimulation.Problem(description: "\(at)error: state '\(name)' is a <parallel> state: parallel states are drawn and validated, not explored")
        }
        var initial = SpecInterpreter(documents: [spec.name: document], root: spec.name, guards: guards, classes: classes)
        /// Runs a step on a copy and returns the file's transitions the root took.
        func taken(_ interpreter: inout SpecInterpreter) -> [Int] {
            var covers: [Int] = []
            for note in interpreter.takeNotes() {
                switch note {
                case .started(let path, _, _, let transitions) where path.isEmpty: covers += transitions
                case .transitioned(let path, _, _, _, _, _, let transitions) where path.isEmpty: covers += transitions
                default: break
                }
            }
            return covers
        }
        do {
            try initial.start()
        } catch {
            throw FlowSimulation.Problem(description: "error: \(spec.name) cannot start: \(error.message)")
        }
        let startCovers = taken(&initial)
        var bySource: [String: [Int]] = [:]
        for (i, entry) in index.transitions.enumerated() { bySource[entry.source, default: []].append(i) }
        let literal: (String) -> Bool = { name in
            let t = name.trimmingSpaces
            return t == "true" || t == "false" || FlowSpec.inPredicate(t) != nil
        }

        // Breadth-first over leaf states; each edge is one external event with its guard truths.
        struct Edge { var from: String; var event: SpecEvent; var to: String; var covers: [Int] }
        var parentEdge: [String: Int] = [:]  // the edge that discovered each state
        var frontier: [String: SpecInterpreter] = [:]  // the runs waiting to be explored, by the leaf they settled in
        var order: [String] = []
        var edges: [Edge] = []
        var covered = Set(startCovers)
        var queue: [String] = []
        let startLeaf = initial.rootState ?? spec.initial
        if !initial.rootFinished {
            frontier[startLeaf] = initial
            queue.append(startLeaf)
        }
        order.append(startLeaf)
        var seen: Set<String> = [startLeaf]
        var head = 0
        while head < queue.count {
            let leaf = queue[head]
            head += 1
            guard let run = frontier.removeValue(forKey: leaf) else { continue }
            let chain = [leaf] + index.ancestors(of: leaf)
            // Candidate transitions in the order the engine tries them: innermost state first.
            let candidates = chain.flatMap { bySource[$0] ?? [] }.filter { index.transitions[$0].transition.event != nil }
            var names: [String] = []
            var named: Set<String> = []
            for i in candidates {
                let event = index.transitions[i].transition.event!
                let list = scxml ? FlowSpec.descriptors(event).filter { $0 != "*" }.map(String.init) : [event]
                for name in list where named.insert(name).inserted { names.append(name) }
            }
            for name in names {
                let matching = candidates.filter { i in
                    let event = index.transitions[i].transition.event!
                    return scxml ? FlowSpec.matches(event, name: name) : event == name
                }
                var tried: Set<[String: Bool]> = []
                var valuations: [[String: Bool]] = []
                for (k, i) in matching.enumerated() {
                    var truths: [String: Bool] = [:]
                    var possible = true
                    for earlier in matching[..<k] {
                        guard let g = index.transitions[earlier].transition.guardName else { possible = false; break }
                        if literal(g) { continue }
                        truths[g] = false
                    }
                    if let g = index.transitions[i].transition.guardName, !literal(g) {
                        if truths[g] == false { possible = false }
                        truths[g] = true
                    }
                    if possible { valuations.append(truths) }
                }
                var pending = valuations
                while let truths = pending.popLast() {
                    guard tried.insert(truths).inserted, tried.count <= 64 else { continue }
                    var copy = run
                    do {
                        try copy.send(SpecEvent(name, guards: truths))
                    } catch {
                        continue  // a loop the run stops: no edge
                    }
                    let covers = taken(&copy)
                    guard !covers.isEmpty else { continue }
                    // Decision states: flip each eventless guard the run relied on.
                    for t in covers where index.transitions[t].transition.event == nil {
                        if let g = index.transitions[t].transition.guardName, !literal(g), truths[g] == nil {
                            var flipped = truths
                            flipped[g] = false
                            pending.append(flipped)
                        }
                    }
                    let to = copy.rootState ?? leaf
                    edges.append(Edge(from: leaf, event: SpecEvent(name, guards: truths), to: to, covers: covers))
                    if seen.insert(to).inserted {
                        parentEdge[to] = edges.count - 1
                        order.append(to)
                        if !copy.rootFinished {
                            frontier[to] = copy
                            queue.append(to)
                        }
                    }
                }
            }
        }

        func path(to leaf: String) -> [SpecEvent] {
            var events: [SpecEvent] = []
            var current = leaf
            while let step = parentEdge[current] {
                events.append(edges[step].event)
                current = edges[step].from
            }
            return events.reversed()
        }
        // Each state's path is kept as the leaf it was first reached through: memory stays linear in
        // the flow's size (a chain's paths together are quadratic).
        var settledVia: [String: String] = [:]
        for leaf in order {
            for name in [leaf] + index.ancestors(of: leaf) where settledVia[name] == nil { settledVia[name] = leaf }
        }
        // The cover: for each edge that takes a transition not yet taken, the shortest path to its
        // source and the edge. The edges of the paths to sources take transitions too; they count.
        // Linear: each state's path is counted once (`included`).
        var chosen: [Int] = []
        var included: Set<String> = []
        for (e, edge) in edges.enumerated() where !edge.covers.allSatisfy(covered.contains) {
            chosen.append(e)
            covered.formUnion(edge.covers)
            var node = edge.from
            while !included.contains(node), let step = parentEdge[node] {
                included.insert(node)
                covered.formUnion(edges[step].covers)
                node = edges[step].from
            }
        }
        // A chosen edge that discovered a state on another chosen sequence's path adds nothing: that
        // sequence starts with it.
        var onPaths: Set<String> = []
        for e in chosen {
            var node = edges[e].from
            while onPaths.insert(node).inserted, let step = parentEdge[node] { node = edges[step].from }
        }
        var cover: [[SpecEvent]] = []
        for e in chosen {
            if edges[e].to != edges[e].from, parentEdge[edges[e].to] == e, onPaths.contains(edges[e].to) { continue }
            cover.append(path(to: edges[e].from) + [edges[e].event])
        }
        if cover.isEmpty { cover = [[]] }
        // A state passed through: the edge (or the start, -1) that took a transition into it.
        var passedVia: [String: Int] = [:]
        for (e, covers) in [(-1, startCovers)] + edges.enumerated().map({ ($0.offset, $0.element.covers) }) {
            for t in covers {
                guard let target = index.transitions[t].transition.target, settledVia[target] == nil,
                      passedVia[target] == nil else { continue }
                passedVia[target] = e
            }
        }
        self.parentEdge = parentEdge
        self.edgeEvents = edges.map(\.event)
        self.edgeSources = edges.map(\.from)
        self.settledVia = settledVia
        self.passedVia = passedVia
        self.cover = cover
        self.reached = index.order.filter { settledVia[$0] != nil }
        self.passedThrough = index.order.filter { passedVia[$0] != nil }
        self.unreachable = index.order.filter { settledVia[$0] == nil && passedVia[$0] == nil }
        self.uncovered = index.transitions.indices.filter { !covered.contains($0) }.map { index.transitions[$0].transition }
        self.transitionCount = index.transitions.count
        self.states = index.order
    }

    private let parentEdge: [String: Int]
    private let edgeEvents: [SpecEvent]
    private let edgeSources: [String]
    private let settledVia: [String: String]
    private let passedVia: [String: Int]

    /// The events from the start to the leaf state where `leaf` was first reached.
    private func path(toLeaf leaf: String) -> [SpecEvent] {
        var events: [SpecEvent] = []
        var current = leaf
        while let step = parentEdge[current] {
            events.append(edgeEvents[step])
            current = edgeSources[step]
        }
        return events.reversed()
    }

    /// The shortest event sequence found that settles in `state` (empty for the initial
    /// configuration), or, for a state only passed through, one that passes through it; `nil` if
    /// none does. Computed on demand, in time linear in its length.
    public func shortestPath(to state: String) -> [SpecEvent]? {
        if let leaf = settledVia[state] { return path(toLeaf: leaf) }
        guard let edge = passedVia[state] else { return nil }
        return edge < 0 ? [] : path(toLeaf: edgeSources[edge]) + [edgeEvents[edge]]
    }

    /// Whether ``shortestPath(to:)`` passes through `state` without settling in it.
    public func isPassedThrough(_ state: String) -> Bool { settledVia[state] == nil && passedVia[state] != nil }
}
