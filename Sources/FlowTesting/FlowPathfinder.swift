import Flowstate

/// Model-based paths through a typed definition: the shortest event sequence to every state, simple
/// paths between two states, and a transition cover, found by running the engine.
///
/// Creating a path finder explores the flow breadth first over machine configurations: the current
/// leaf state (in a flow with parallel states, the set of leaves the machine rests in, one per active
/// region, as `FlowMachine.activeStates` reports them), whether the flow has finished, and the flow's
/// context when it is `Hashable` (a `FlowMachine` holds nothing else). A state is reached when a
/// configuration has it active. From each configuration it sends, on a copy of a real machine,
/// every sample event of every kind the current state (or an ancestor) reacts to. So guards are
/// honoured, updates change the context the next steps see, eventless transitions are followed as the
/// engine follows them, an event that throws (for example under `UnhandledEventPolicy.fail`) is an
/// edge not taken, and every path returned really reaches its target: ``FlowPath/replay()`` checks it.
/// Which transitions a step took comes from `FlowStep.transitions`, never from labels.
///
/// A context that is not `Hashable` cannot be compared, so configurations are then told apart by
/// state alone, and a reason that would blame a guard says instead that the context was not compared
/// (``FlowUnreachableReason/contextNotCompared(transitions:)``). A flow without updates (or with a
/// `Void` context) never changes its context, and loses nothing.
///
/// A state that runs a declared child flow (`StateNode(_:runs:)`) reacts to the events the child's
/// outputs map to: the path finder explores the child's own definition (with the context it would be
/// spawned with), and from every configuration where the state is active it sends the parent event
/// of each output the child can finish with. You give no samples for those events. A child whose
/// events carry no payload is explored with every event kind; give samples of a child's payload events
/// in `childSamples`.
///
/// A delayed transition (`After`) is an edge the path finder takes by itself: from every configuration
/// it fires each armed timer ("the timer of state s fired") as it sends each sample event. Its step has
/// no event (``FlowPath/events`` leaves it out); ``FlowPath/replay()`` fires the state's timer for
/// that transition again. The path finder does not keep time: any armed timer may fire next, whatever
/// its delay, so a path may fire a longer timer before a shorter one that a clock would fire first
/// (validation warns of the one case where a state's own delays make that impossible:
/// `shadowedTransition`); `FlowStepTester.advance(by:)` drives a machine by the clock.
///
/// Payload events need sample values: give one or more per event kind. A guard is exercised only by
/// the samples you give: a target that only a valid email reaches is reported unreachable when every
/// sample email is invalid, with the transitions that blocked it (``FlowUnreachableReason/blocked(transitions:)``).
///
/// ```swift
/// let pathfinder = try FlowPathfinder(SignUp.definition, samples: [
///     .submitEmail("ada@example.com"), .submitPassword("correct horse"), .submitCode("123456"),
///     .back, .cancel,
/// ])
/// let path = try #require(pathfinder.shortestPath(to: .twoFactor))
/// #expect(path.events == [.submitEmail("ada@example.com"), .submitPassword("correct horse")])
/// for path in pathfinder.transitionCover().paths { try path.replay() }
/// ```
///
/// The exploration stops at `maxConfigurations` configurations (10,000 by default), so it never hangs;
/// ``isComplete`` says whether it stopped early. A flow whose context does not change has at most one
/// configuration per leaf state; a context that keeps changing (a counter, a list that grows) can
/// reach the limit, and every reason and gap then says so rather than blame a guard. Each declared
/// child is explored with the same limit, once per state and parent context; its own children in
/// turn, down to 32 levels of nesting. When a child's exploration stops early, its outputs may be
/// incomplete, and ``isComplete`` is `false`.
public struct FlowPathfinder<F: Flow>: Sendable {
    /// The definition explored.
    public let definition: FlowDefinition<F>
    /// The most configurations the exploration visits.
    public let maxConfigurations: Int
    /// Whether the exploration visited every configuration reachable with the samples, rather than
    /// stopping at ``maxConfigurations``.
    public let isComplete: Bool
    /// The step `FlowMachine.start()` returned.
    public let start: FlowStep<F>

    /// A configuration as the exploration tells them apart: the leaf the machine rests in (its
    /// position), or, in a flow with parallel or history states, the number of the set of leaves it
    /// rests in (``FlowPathfinder/leafSets``), told apart by what the histories remember too; and
    /// whether the flow has finished.
    struct Configuration: Hashable {
        var leaf: Int
        var finished: Bool
    }

    /// What tells two configurations apart during the exploration: the state, and the context when
    /// it is `Hashable` and the flow may change it (`nil` otherwise).
    struct Key: Hashable {
        var configuration: Configuration
        var context: AnyHashable?
    }

    /// An explored step: the exploration's edge label.
    struct Edge {
        var step: FlowStep<F>
        /// The leaf each of the step's transitions was taken from.
        var leaves: [Int]
    }

    let index: FlowIndex<F>
    let samples: [F.Event.Kind: [F.Event]]
    /// The kinds of the events some declared child's output became, somewhere in the exploration.
    let childEventKinds: Set<F.Event.Kind>
    /// Whether configurations were told apart by state alone although the context may change (it is
    /// not `Hashable`): a step not taken may then have been taken from a context never compared.
    let contextIgnored: Bool
    /// The outputs of the finished configurations, in breadth-first order.
    let outputs: [F.Output]
    /// The exploration: nodes are configurations, in breadth-first order; edges are steps.
    let tree: FlowExploration<Configuration, Edge>
    /// The edges leaving each configuration.
    let outgoing: [[Int]]
    /// The leaf the machine is in before it starts.
    let initialLeaf: Int
    /// The leaves the start's eventless transitions were taken from.
    let startLeaves: [Int]
    /// The leaves each configuration's `leaf` number names: `[leaf]` for each state of a flow without
    /// parallel states; with them, each set of leaves met (positions, sorted), numbered as found.
    let leafSets: [[Int]]
    /// For each state, the first configuration (in breadth-first order) whose leaf is inside it, or -1.
    let firstSettled: [Int32]
    /// For each state, the first step that entered it: -1 for the start, an edge otherwise.
    let firstEntered: [Int?]
    /// For each history state, the first step (in breadth-first order) that took a transition
    /// targeting it: -1 for the start, an edge otherwise; `nil` for other states and for a history
    /// no step targeted. A history is a pseudo-state, never active: it is reached when a transition
    /// into it is taken.
    let historyTaken: [Int?]

    /// Explores a definition with sample events.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - samples: Sample events, grouped by kind in the order given: each one is tried from every
    ///     configuration whose state reacts to its kind. Kinds without a sample are never sent.
    ///   - childSamples: Sample events of declared child flows, of any child's event type: each child
    ///     is sent those of its own type (and, when its events carry no payload, every kind).
    ///   - maxConfigurations: The most configurations to visit.
    /// - Throws: `FlowError` when the definition is invalid or cannot start (for example an
    ///   eventless loop at start), or a declared child it reaches cannot (as the supervisor could not
    ///   spawn it).
    public init(_ definition: FlowDefinition<F>, samples: [F.Event], childSamples: [any Sendable] = [],
                maxConfigurations: Int = 10_000) throws(FlowError) {
        var grouped: [F.Event.Kind: [F.Event]] = [:]
        for event in samples { grouped[event.kind, default: []].append(event) }
        try self.init(definition, grouped: grouped, children: ChildExplorer(samples: childSamples, limit: maxConfigurations),
                      context: definition.initialContext, maxConfigurations: maxConfigurations)
    }

    /// Explores a definition, asking for the samples of each event kind its transitions name.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - maxConfigurations: The most configurations to visit.
    ///   - childSamples: Sample events of declared child flows: see ``init(_:samples:childSamples:maxConfigurations:)``.
    ///   - samples: The sample events of a kind (called once per kind, in declaration order); an empty
    ///     array means the kind is never sent.
    /// - Throws: `FlowError` when the definition is invalid or cannot start.
    public init(_ definition: FlowDefinition<F>, maxConfigurations: Int = 10_000, childSamples: [any Sendable] = [],
                samples: (F.Event.Kind) -> [F.Event]) throws(FlowError) {
        var grouped: [F.Event.Kind: [F.Event]] = [:]
        for kind in FlowIndex(definition).kinds {
            grouped[kind] = samples(kind).filter { $0.kind == kind }
        }
        try self.init(definition, grouped: grouped, children: ChildExplorer(samples: childSamples, limit: maxConfigurations),
                      context: definition.initialContext, maxConfigurations: maxConfigurations)
    }

    init(_ definition: FlowDefinition<F>, grouped: [F.Event.Kind: [F.Event]], children: ChildExplorer,
         context: F.Context, maxConfigurations: Int) throws(FlowError) {
        let index = FlowIndex(definition)
        var machine = try FlowMachine(definition, context: context)
        let initialLeaf = index.position[machine.state] ?? 0
        // What the start entered, as the engine reports it (a state entered and left again by
        // eventless transitions included).
        let (start, startMicrosteps) = try machine.startReportingMicrosteps(completions: .taken)
        let limit = max(1, maxConfigurations)
        // A flow with history states runs SCXML's algorithm as a parallel one does: where it rests is
        // not all of where it is (what its histories remember decides where they lead).
        // With delayed transitions, which timers are armed is part of where it is too (a state whose
        // targetless timer fired is not the same configuration as that state with its timer armed).
        let hasDelays = definition.transitions.contains { $0.delay != nil }
        let scxml = index.hierarchy.hasParallel || index.hierarchy.hasHistory || hasDelays

        // Configurations: a flat flow's are its leaves; a parallel flow's, the sets of leaves the
        // engine rests in (its active atomic states), numbered as found; with history states, the
        // leaves and what each history remembers; with delayed transitions, the leaves and the armed
        // timers (``leafSets`` keeps the leaves).
        var leafSets: [[Int]] = scxml ? [] : (0..<index.count).map { [$0] }
        var leafSetIDs: [[Int]: Int] = [:]
        func configurationLeaf(_ machine: FlowMachine<F>) -> Int {
            guard scxml else { return index.position[machine.state] ?? 0 }
            var leaves: [Int] = []
            for state in machine.activeStates {
                if let s = index.position[state], index.hierarchy.isAtomic(s) { leaves.append(s) }
            }
            leaves.sort()
            // The engine's key (active atomic states, histories, armed timers): one home for it.
            let key = machine.explorationKey
            if let known = leafSetIDs[key] { return known }
            leafSetIDs[key] = leafSets.count
            leafSets.append(leaves)
            return leafSets.count - 1
        }

        // The context is part of a configuration when the flow can change it and it can be compared.
        let mayChange = definition.transitions.contains { $0.update != nil }
        let comparable = mayChange && F.Context.self != Void.self && context is any Hashable
        func key(_ machine: FlowMachine<F>) -> Key {
            Key(configuration: Configuration(leaf: configurationLeaf(machine), finished: machine.isFinished),
                context: comparable ? (machine.context as? any Hashable).map { AnyHashable($0) } : nil)
        }

        // The events each state's declared child can report, per parent context, found once.
        let childFlows = definition.childFlows
        var childEvents: [ChildKey: [F.Event]] = [:]
        var childEventKinds = Set<F.Event.Kind>()
        func reported(by active: [F.State], in machine: FlowMachine<F>) throws(FlowError) -> [F.Event] {
            var events: [F.Event] = []
            for state in active {
                guard let s = index.position[state], let child = childFlows[s] else { continue }
                let childKey = ChildKey(state: s, context: key(machine).context)
                if let known = childEvents[childKey] {
                    events += known
                    continue
                }
                let found: [F.Event]
                do throws(FlowError) {
                    found = try child.parentEvents(from: children, parentContext: machine.context)
                } catch {
                    throw FlowError(code: error.code,
                                    message: "the child flow '\(child.name)' that state '\(state)' runs cannot start: "
                                        + error.message,
                                    location: error.location)
                }
                for event in found { childEventKinds.insert(event.kind) }
                childEvents[childKey] = found
                events += found
            }
            return events
        }

        // Breadth-first over configurations: the search, its shortest paths and the cover are
        // FlowExplorer's, which FlowFilePathfinder runs too. A finished configuration is a node the exploration
        // does not expand (no run); its output is kept as it is discovered.
        let first = key(machine)
        // The states each step entered, as the engine reports them (by edge).
        var enteredByEdge: [[Int]] = []
        var outputs = first.configuration.finished ? [machine.output].compactMap { $0 } : []
        var explorer = FlowExplorer<Key, Edge, FlowMachine<F>>(start: first, run: first.configuration.finished ? nil : machine,
                                                               limit: limit)
        while let (_, node, machine) = explorer.next() {
            let leaf = node.configuration.leaf
            var tried = Set<FlowTransitions>()
            let handled = scxml ? index.handledKinds(inAny: leafSets[leaf]) : index.handledKinds[leaf]
            var fromChildren: [F.Event.Kind: [F.Event]] = [:]
            if !childFlows.isEmpty {
                for event in try reported(by: machine.configuration, in: machine)
                where handled.contains(event.kind) {
                    fromChildren[event.kind, default: []].append(event)
                }
            }
            /// Records the step `copy` took from this configuration as an edge, with the microsteps the
            /// engine reports it took.
            func explore(_ taken: (step: FlowStep<F>, microsteps: [FlowMicrostep]), _ copy: FlowMachine<F>) {
                let step = taken.step
                switch step.kind {
                case .ignored, .rejected, .started: return
                case .transitioned, .finished: break
                }
                guard tried.insert(step.transitions).inserted else { return }
                let reached = key(copy)
                let edge = Edge(step: step, leaves: scxml
                                    ? index.leaves(taking: step.transitions, from: leafSets[leaf],
                                                   then: leafSets[reached.configuration.leaf])
                                    : index.leaves(taking: taken.microsteps, from: leaf))
                let finished = reached.configuration.finished
                guard let found = explorer.reach(reached, by: edge, exploring: finished ? nil : copy) else { return }
                enteredByEdge.append(Self.entered(by: taken.microsteps))
                if found.isNew, finished, let output = copy.output { outputs.append(output) }
            }
            for kind in handled {
                for event in (grouped[kind] ?? []) + (fromChildren[kind] ?? []) {
                    var copy = machine
                    // A throw: no edge.
                    guard let taken = try? copy.sendReportingMicrosteps(event, completions: .taken) else { continue }
                    explore(taken, copy)
                }
            }
            // Delayed transitions: the firing of each armed timer ("the timer of state s fired") is
            // an edge too; its step has no event, and a path replays it by firing its timer.
            for timer in machine.armedTimers {
                var copy = machine
                guard let taken = try? copy.fireReportingMicrosteps(timer, completions: .taken) else { continue }
                explore(taken, copy)
            }
        }
        let tree = explorer.exploration.mapKeys(\.configuration)
        var outgoing = [[Int]](repeating: [], count: tree.nodeCount)
        for e in 0..<tree.edgeCount { outgoing[tree.source(of: e)].append(e) }

        // The first configuration inside each state, and the first step entering each state.
        let firstSettled = tree.firstNodes(inside: index.hierarchy) { leafSets[$0.leaf] }
        var firstEntered = [Int?](repeating: nil, count: index.count)
        for s in Self.entered(by: startMicrosteps) where firstEntered[s] == nil { firstEntered[s] = -1 }
        for (e, entered) in enteredByEdge.enumerated() {
            for s in entered where firstEntered[s] == nil { firstEntered[s] = e }
        }
        var historyTaken = [Int?](repeating: nil, count: index.count)
        if index.hierarchy.hasHistory {
            func taking(_ transitions: FlowTransitions, by e: Int) {
                for id in transitions {
                    for target in definition.transitions[id.position].targets {
                        guard let h = index.position[target], index.hierarchy.isHistory(h), historyTaken[h] == nil
                        else { continue }
                        historyTaken[h] = e
                    }
                }
            }
            taking(start.transitions, by: -1)
            for e in 0..<tree.edgeCount { taking(tree.labels[e].step.transitions, by: e) }
        }

        self.definition = definition
        self.maxConfigurations = limit
        self.isComplete = tree.isComplete && !children.cut.isSet
        self.start = start
        self.index = index
        self.samples = grouped
        self.childEventKinds = childEventKinds
        self.contextIgnored = mayChange && !comparable && F.Context.self != Void.self
        self.outputs = outputs
        self.tree = tree
        self.outgoing = outgoing
        self.initialLeaf = initialLeaf
        self.startLeaves = scxml
            ? index.leaves(taking: start.transitions, from: [], then: leafSets[tree.keys[0].leaf])
            : index.leaves(taking: startMicrosteps, from: initialLeaf)
        self.leafSets = leafSets
        self.firstSettled = firstSettled
        self.firstEntered = firstEntered
        self.historyTaken = historyTaken
    }

    /// The states a step entered, by position, in the order the engine entered them, each once.
    static func entered(by microsteps: [FlowMicrostep]) -> [Int] {
        var entered: [Int] = []
        for microstep in microsteps {
            for s in microstep.entered where !entered.contains(s) { entered.append(s) }
        }
        return entered
    }

    // MARK: Reachability

    /// How many configurations the exploration visited.
    public var configurationCount: Int { tree.nodeCount }

    /// The shortest event sequence after which the machine is in `state` (the leaf itself, or a leaf
    /// inside a compound `state`; with parallel states, a leaf of any region: `state` is active), or
    /// `nil` when no explored sequence settles there.
    /// A history state (a pseudo-state, never active) is reached by the shortest path whose last step
    /// takes a transition that targets it.
    public func shortestPath(to state: F.State) -> FlowPath<F>? {
        guard let s = index.position[state] else { return nil }
        return reachedPath(s)
    }

    /// The shortest path to every state the machine settles in (and every history state a step
    /// targets), by state.
    public var shortestPaths: [F.State: FlowPath<F>] {
        var result: [F.State: FlowPath<F>] = [:]
        for s in definition.states.indices {
            if let found = reachedPath(s) { result[definition.states[s].state] = found }
        }
        return result
    }

    /// The states the machine settles in after some explored event sequence, and the history states
    /// some explored step takes a transition into, in declaration order.
    public var reachableStates: [F.State] {
        definition.states.indices.filter(isReached).map { definition.states[$0].state }
    }

    /// The states no explored sequence settles in (some may be passed through: see
    /// ``reachability(of:)``) and the history states no explored step takes a transition into, in
    /// declaration order.
    public var unreachableStates: [F.State] {
        definition.states.indices.filter { !isReached($0) }.map { definition.states[$0].state }
    }

    /// Whether the state at position `s` is settled in, or is a history some step takes a
    /// transition into.
    func isReached(_ s: Int) -> Bool {
        firstSettled[s] >= 0 || historyTaken[s] != nil
    }

    /// The shortest path settling in the state at position `s`; for a history state, the shortest
    /// path whose last step takes a transition into it (empty when the start does).
    func reachedPath(_ s: Int) -> FlowPath<F>? {
        if let e = historyTaken[s] { return path(edges: e < 0 ? [] : tree.treeEdges(to: tree.source(of: e), then: e)) }
        guard firstSettled[s] >= 0 else { return nil }
        return path(edges: tree.treeEdges(to: Int(firstSettled[s])))
    }

    /// Whether and how `state` is reached: the shortest path settling in it, else the shortest path
    /// passing through it (entered and left again by eventless transitions in one step), else why
    /// no path reaches it.
    public func reachability(of state: F.State) -> FlowReachability<F> {
        guard let s = index.position[state] else { return .unreachable(.undeclared) }
        if let reached = reachedPath(s) { return .reachable(reached) }
        if let e = firstEntered[s] {
            return .passedThrough(path(edges: e < 0 ? [] : tree.treeEdges(to: tree.source(of: e), then: e)))
        }
        return .unreachable(reason(for: s))
    }

    func reason(for goal: Int) -> FlowUnreachableReason<F> {
        if index.hierarchy.hasParallel || index.hierarchy.hasHistory { return parallelReason(for: goal) }
        let structural = index.structurallyReachable(from: [initialLeaf])
        guard structural.indices.contains(where: { structural[$0] && index.isInside($0, goal) }) else {
            return .noPath
        }
        guard isComplete else { return .searchLimitReached }
        let reaching = index.structurallyReaching(goal)
        var frontier: [Int] = []
        var inFrontier = Set<Int>()
        let taken = takenPairs()
        for (leaf, settled) in visitedLeaves() {
            for t in index.chains[leaf] where index.targets[t] >= 0 && reaching[index.hierarchy.defaultEntryLeaf(of: index.targets[t])] {
                let declaration = definition.transitions[t]
                guard settled || declaration.event == nil, !taken.contains(Pair(leaf: leaf, transition: t))
                else { continue }
                if inFrontier.insert(t).inserted { frontier.append(t) }
            }
        }
        return blame(frontier)
    }

    /// The reason a goal is unreachable, given the transitions that lead towards it from where the
    /// exploration went and were never taken: the kinds of those without samples, else those
    /// transitions (blocked, or not compared when the context could not be).
    func blame(_ frontier: [Int]) -> FlowUnreachableReason<F> {
        var missing: [F.Event.Kind] = []
        for t in frontier {
            if let kind = definition.transitions[t].event, lacksEvents(of: kind), !missing.contains(kind) {
                missing.append(kind)
            }
        }
        if !missing.isEmpty { return .missingSamples(kinds: missing) }
        let blocking = frontier.sorted().map { FlowTransitionID(position: $0) }
        return contextIgnored ? .contextNotCompared(transitions: blocking) : .blocked(transitions: blocking)
    }

    /// ``reason(for:)`` in a flow with parallel states, where a transition enters a set of states
    /// (SCXML's entry set): no path when no declared transition enters the goal from what the initial
    /// entry enters; otherwise the transitions, declared on a state some configuration had active,
    /// that enter a state from which the goal is structurally reachable and that no step took. For a
    /// history goal (never entered: a transition into it is taken), the transitions that target it.
    func parallelReason(for goal: Int) -> FlowUnreachableReason<F> {
        let entries = index.entrySets()
        // What the start entered, as the engine did it: the states active after it, and those it
        // passed through.
        var initial = firstEntered.indices.filter { firstEntered[$0] == -1 }
        for leaf in leafSets[tree.keys[0].leaf] { initial += index.hierarchy.ancestorsOrSelf(of: leaf) }
        let structural = index.structurallyEntered(from: initial, entries: entries)
        let isHistory = index.hierarchy.isHistory(goal)
        // The transitions that target a history goal.
        let into = isHistory
            ? definition.transitions.indices.filter { t in
                definition.transitions[t].targets.contains { index.position[$0] == goal }
            }
            : []
        let structurallyReached = isHistory
            ? into.contains { index.sources[$0] >= 0 && structural[index.sources[$0]] }
            : structural.indices.contains { structural[$0] && index.isInside($0, goal) }
        guard structurallyReached else { return .noPath }
        guard isComplete else { return .searchLimitReached }
        let reaching = isHistory ? [] : index.structurallyEntering(goal, entries: entries)
        var active = [Bool](repeating: false, count: index.count)
        var settled = [Bool](repeating: false, count: index.count)
        for configuration in tree.keys {
            for leaf in leafSets[configuration.leaf] {
                for s in index.hierarchy.ancestorsOrSelf(of: leaf) {
                    active[s] = true
                    if !configuration.finished { settled[s] = true }
                }
            }
        }
        var taken = [Bool](repeating: false, count: definition.transitions.count)
        for id in start.transitions { taken[id.position] = true }
        for edge in tree.labels { for id in edge.step.transitions { taken[id.position] = true } }
        var frontier: [Int] = []
        for t in definition.transitions.indices where !taken[t] {
            let source = index.sources[t]
            let declaration = definition.transitions[t]
            guard source >= 0, declaration.event == nil ? active[source] : settled[source],
                  isHistory ? into.contains(t) : entries[t].contains(where: { reaching[$0] }) else { continue }
            frontier.append(t)
        }
        return blame(frontier)
    }

    /// Whether no event of a kind was ever sent: no sample, and no declared child's output became one.
    func lacksEvents(of kind: F.Event.Kind) -> Bool {
        (samples[kind] ?? []).isEmpty && !childEventKinds.contains(kind)
    }

    struct Pair: Hashable {
        var leaf: Int
        var transition: Int
    }

    /// Every (leaf, transition) pair some explored step took.
    func takenPairs() -> Set<Pair> {
        var taken = Set<Pair>()
        for (leaf, id) in zip(startLeaves, start.transitions) { taken.insert(Pair(leaf: leaf, transition: id.position)) }
        for edge in tree.labels {
            for (leaf, id) in zip(edge.leaves, edge.step.transitions) {
                taken.insert(Pair(leaf: leaf, transition: id.position))
            }
        }
        return taken
    }

    /// Every leaf some explored step was in, with whether a configuration settled in it (and could
    /// receive events), in first-visit order.
    func visitedLeaves() -> [(leaf: Int, settled: Bool)] {
        var settled = [Bool](repeating: false, count: index.count)
        var visited = [Bool](repeating: false, count: index.count)
        var order: [Int] = []
        for configuration in tree.keys where !configuration.finished {
            for leaf in leafSets[configuration.leaf] { settled[leaf] = true }
        }
        func visit(_ leaf: Int) {
            if !visited[leaf] {
                visited[leaf] = true
                order.append(leaf)
            }
        }
        visit(initialLeaf)
        startLeaves.forEach(visit)
        for configuration in tree.keys { leafSets[configuration.leaf].forEach(visit) }
        for edge in tree.labels { edge.leaves.forEach(visit) }
        return order.map { ($0, settled[$0]) }
    }

}
