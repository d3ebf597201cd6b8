// The path finder's answers beyond reachability: simple paths, the transition cover and paths.

import Flowstate

extension FlowPathfinder {
    // MARK: Simple paths

    /// Paths that visit no configuration twice, from the start (or from `from`) to `to`, each ending
    /// the first time the machine settles inside `to`.
    ///
    /// With `from`, each path is the shortest path to a configuration inside `from` followed by a
    /// segment that visits no configuration twice (the two parts may share configurations); there is
    /// one family of segments per configuration inside `from`. The search is a depth-first search on
    /// an explicit stack over the explored configurations.
    /// - Parameters:
    ///   - from: Where the segments start; `nil` for the machine's start.
    ///   - to: The state the paths end in.
    ///   - maxLength: The most events in a segment.
    ///   - limit: The most paths returned.
    /// - Returns: The paths, shortest first (ties in depth-first order).
    public func simplePaths(from: F.State? = nil, to: F.State, maxLength: Int = 16, limit: Int = 256) -> [FlowPath<F>] {
        guard let goal = index.position[to], limit > 0 else { return [] }
        let starts: [Int]
        if let from {
            guard let origin = index.position[from] else { return [] }
            starts = tree.keys.indices.filter { isInside(tree.keys[$0], origin) }
        } else {
            starts = [0]
        }
        var found: [[Int]] = []
        search: for origin in starts {
            let prefix = tree.treeEdges(to: origin)
            if isInside(tree.keys[origin], goal) {
                found.append(prefix)
                if found.count >= limit { break search }
                continue
            }
            var onPath: Set<Int> = [origin]
            var stack: [(node: Int, next: Int)] = [(origin, 0)]
            var segment: [Int] = []
            while let top = stack.last {
                let choices = outgoing[top.node]
                if top.next >= choices.count || segment.count >= maxLength {
                    stack.removeLast()
                    onPath.remove(top.node)
                    if !segment.isEmpty { segment.removeLast() }
                    continue
                }
                let e = choices[top.next]
                stack[stack.count - 1].next += 1
                let next = tree.target(of: e)
                guard !onPath.contains(next) else { continue }
                if isInside(tree.keys[next], goal) {
                    found.append(prefix + segment + [e])
                    if found.count >= limit { break search }
                    continue
                }
                guard !tree.keys[next].finished else { continue }
                stack.append((next, 0))
                onPath.insert(next)
                segment.append(e)
            }
        }
        let ordered = found.enumerated().sorted { ($0.element.count, $0.offset) < ($1.element.count, $1.offset) }
        return ordered.map { path(edges: $0.element) }
    }

    /// Whether `configuration` has `state` active: a leaf it rests in is `state` or inside it.
    func isInside(_ configuration: Configuration, _ state: Int) -> Bool {
        leafSets[configuration.leaf].contains { index.isInside($0, state) }
    }

    // MARK: Transition cover

    /// A small set of event sequences that together take every transition the exploration took,
    /// with the reason each other transition was not taken.
    ///
    /// Each explored step that takes a transition not yet taken contributes the shortest path to its
    /// configuration followed by that step (the steps on the way count too); a sequence that is a
    /// prefix of another is dropped.
    public func transitionCover() -> FlowTransitionCover<F> {
        let (ends, covered) = tree.transitionCover(start: start.transitions.lazy.map(\.position),
                                                   transitionCount: definition.transitions.count) { e in
            tree.labels[e].step.transitions.lazy.map(\.position)
        }
        var kept = ends.map { tree.treeEdges(to: tree.source(of: $0), then: $0) }
        if kept.isEmpty { kept = [[]] }

        var gaps: [FlowTransitionID: FlowCoverGap] = [:]
        let visited = visitedLeaves()
        for t in definition.transitions.indices where !covered[t] {
            let declaration = definition.transitions[t]
            let source = index.sources[t]
            let reached = visited.contains { entry in
                (entry.settled || declaration.event == nil) && source >= 0 && index.isInside(entry.leaf, source)
            }
            let gap: FlowCoverGap
            if !reached {
                gap = isComplete ? .sourceNotReached : .searchLimitReached
            } else if let kind = declaration.event, lacksEvents(of: kind) {
                gap = .missingSamples
            } else if !isComplete {
                // The engine may have taken it from a configuration the limit left unexplored, or
                // taken it in a step the limit dropped.
                gap = .searchLimitReached
            } else if contextIgnored {
                gap = .contextNotCompared
            } else {
                gap = .notTaken
            }
            gaps[FlowTransitionID(position: t)] = gap
        }
        return FlowTransitionCover(paths: kept.map { path(edges: $0) },
                                   covered: covered.indices.filter { covered[$0] }.map { FlowTransitionID(position: $0) },
                                   gaps: gaps)
    }

    // MARK: Paths

    func path(edges sequence: [Int]) -> FlowPath<F> {
        FlowPath(definition: definition, start: start, steps: sequence.map { tree.labels[$0].step })
    }
}

extension FlowPathfinder where F.Event == F.Event.Kind {
    /// Explores a flow whose events carry no payload: every kind the definition's transitions name
    /// is sent.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - maxConfigurations: The most configurations to visit.
    ///   - childSamples: Sample events of declared child flows: see ``init(_:samples:childSamples:maxConfigurations:)``.
    /// - Throws: `FlowError` when the definition is invalid or cannot start.
    public init(_ definition: FlowDefinition<F>, maxConfigurations: Int = 10_000,
                childSamples: [any Sendable] = []) throws(FlowError) {
        try self.init(definition, samples: FlowIndex(definition).kinds, childSamples: childSamples,
                      maxConfigurations: maxConfigurations)
    }
}
