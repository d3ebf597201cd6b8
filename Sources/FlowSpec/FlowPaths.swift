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
    /// The shortest event sequence that reaches each reachable state (leaf states and, through them,
    /// the compound states containing them), by state name. The initial configuration's path is empty.
    public var shortest: [String: [SpecEvent]]
    /// States that an event sequence passes through without settling in them (left again by an
    /// eventless transition or an internal event in the same step), with the shortest such sequence.
    public var transient: [String: [SpecEvent]]
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
        var index = SpecIndex(spec)
        for name in index.order where index.states[name]!.isParallel {
            let at = index.states[name]!.location.map { "\($0): " } ?? ""
            throw FlowSimulation.Problem(description: "\(at)error: state '\(name)' is a <parallel> state: parallel states are drawn and validated, not explored")
        }
        let scxml = spec.semantics == .scxml
        let (definition, specTransitions) = spec.compiled(guards: guards, events: spec.eventNames)
        index.specTransitions = specTransitions
        var start: Explorer.Run
        do {
            start = try Explorer.start(definition, index: index, scxml: scxml)
        } catch {
            throw FlowSimulation.Problem(description: "error: \(spec.name) cannot start: \(error.message)")
        }
        var bySource: [String: [Int]] = [:]
        for (i, entry) in index.transitions.enumerated() { bySource[entry.source, default: []].append(i) }
        let literal: (String) -> Bool = { name in
            let t = name.trimmingSpaces
            return t == "true" || t == "false" || FlowSpec.inPredicate(t) != nil
        }

        // Breadth-first over leaf states; each edge is one external event with its guard truths.
        struct Edge { var from: String; var event: SpecEvent; var to: String; var covers: [Int] }
        var parentEdge: [String: Int] = [:]  // the edge that discovered each state
        var machines: [String: FlowMachine<SpecFlow>] = [:]
        var order: [String] = []
        var edges: [Edge] = []
        var covered = Set(start.covers)
        var queue: [String] = []
        if !start.machine.isFinished {
            machines[start.machine.state] = start.machine
            queue.append(start.machine.state)
        }
        order.append(start.machine.state)
        var seen: Set<String> = [start.machine.state]
        var head = 0
        while head < queue.count {
            let leaf = queue[head]
            head += 1
            let machine = machines[leaf]!
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
                    return scxml ? !FlowSpec.matching(event, in: [name]).isEmpty : event == name
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
                    var copy = machine
                    let run = Explorer.send(SpecEvent(name, guards: truths), to: &copy, index: index, scxml: scxml)
                    guard !run.isEmpty else { continue }
                    // Decision states: flip each eventless guard the run relied on.
                    for t in run where index.transitions[t].transition.event == nil {
                        if let g = index.transitions[t].transition.guardName, !literal(g), truths[g] == nil {
                            var flipped = truths
                            flipped[g] = false
                            pending.append(flipped)
                        }
                    }
                    let to = copy.state
                    edges.append(Edge(from: leaf, event: SpecEvent(name, guards: truths), to: to, covers: run))
                    if seen.insert(to).inserted {
                        parentEdge[to] = edges.count - 1
                        order.append(to)
                        if !copy.isFinished {
                            machines[to] = copy
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
        var shortest: [String: [SpecEvent]] = [:]
        for leaf in order {
            let p = path(to: leaf)
            for name in [leaf] + index.ancestors(of: leaf) where shortest[name] == nil { shortest[name] = p }
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
        var transient: [String: [SpecEvent]] = [:]
        for edge in [Edge(from: "", event: "", to: "", covers: start.covers)] + edges {
            for t in edge.covers {
                guard let target = index.transitions[t].transition.target, shortest[target] == nil, transient[target] == nil
                else { continue }
                transient[target] = edge.from.isEmpty ? [] : path(to: edge.from) + [edge.event]
            }
        }
        self.transient = transient
        self.shortest = shortest
        self.cover = cover
        self.unreachable = index.order.filter { shortest[$0] == nil && transient[$0] == nil }
        self.uncovered = index.transitions.indices.filter { !covered.contains($0) }.map { index.transitions[$0].transition }
        self.transitionCount = index.transitions.count
        self.states = index.order
    }
}

/// Runs a marked definition step by step with SCXML's internal queue, as ``FlowSimulation`` does.
enum Explorer {
    struct Run {
        var machine: FlowMachine<SpecFlow>
        var covers: [Int]
    }

    static func start(_ definition: FlowDefinition<SpecFlow>, index: SpecIndex, scxml: Bool) throws(FlowError) -> Run {
        var machine = try FlowMachine(definition)
        let step = try machine.start()
        var covers: [Int] = []
        var queues = Queues()
        collect(step, index: index, scxml: scxml, covers: &covers, queues: &queues)
        drain(&queues, machine: &machine, index: index, scxml: scxml, covers: &covers)
        return Run(machine: machine, covers: covers)
    }

    /// Sends one external event and processes what it causes; returns the transitions taken.
    static func send(_ event: SpecEvent, to machine: inout FlowMachine<SpecFlow>, index: SpecIndex, scxml: Bool) -> [Int] {
        var covers: [Int] = []
        var queues = Queues()
        queues.external.append(event)
        drain(&queues, machine: &machine, index: index, scxml: scxml, covers: &covers)
        return covers
    }

    struct Queues {
        var `internal`: [SpecEvent] = []
        var external: [SpecEvent] = []
    }

    /// Internal events first, then the next external event (the SCXML macrostep).
    private static func drain(_ queues: inout Queues, machine: inout FlowMachine<SpecFlow>, index: SpecIndex,
                              scxml: Bool, covers: inout [Int]) {
        var count = 0
        while !machine.isFinished, count < FlowSimulation.internalEventLimit {
            let event: SpecEvent
            if !queues.internal.isEmpty {
                event = queues.internal.removeFirst()
            } else if !queues.external.isEmpty {
                event = queues.external.removeFirst()
            } else {
                return
            }
            count += 1
            guard let step = try? machine.send(event) else { continue }
            collect(step, index: index, scxml: scxml, covers: &covers, queues: &queues)
        }
    }

    private static func collect(_ step: FlowStep<SpecFlow>, index: SpecIndex, scxml: Bool, covers: inout [Int],
                                queues: inout Queues) {
        // The transitions the engine reports taking, named as the file declares them.
        for taken in step.transitions { covers.append(index.specTransitions[taken.position]) }
        for effect in step.effects {
            if scxml, let (kind, name) = SCXMLEffect.queued(effect) {
                if kind == .internal { queues.internal.append(SpecEvent(name)) } else { queues.external.append(SpecEvent(name)) }
            }
        }
        switch step {
        case .started, .transitioned:
            if scxml, index.states[step.state]?.isFinal == true, let parent = index.parent[step.state] {
                queues.internal.append(SpecEvent("done.state.\(parent)"))
            }
        default: break
        }
    }
}
