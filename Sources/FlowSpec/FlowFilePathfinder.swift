import FlowGraph
import Flowstate

/// Paths through a flow file, found by running it: the shortest event path to every state, and a set
/// of event sequences that together take every transition (a transition cover, as model-based test
/// generators produce).
///
/// The exploration runs the engine itself, breadth first, from each configuration reached (the
/// engine's key: the active leaves, what histories remember, the armed timers), with each event
/// its transitions (and their ancestors') name, and with the guard truths that select each candidate
/// transition in turn (its guard true, the guards of the transitions the engine would try first
/// false). SCXML's internal events (`raise`, `done.state.*`) are processed as ``FlowSimulation``
/// processes them, so every path replays in `flowviz simulate` to the state it claims. Child flows are
/// not run: their completion is an event like any other. Time passing is an edge too, for a file with
/// delayed transitions: `wait 30s` moves the run's virtual time to the next timer due, which fires (a
/// delayed transition's guard reads the run's default truths: no event carries them).
///
/// Time and memory are linear in the flow's size (states, transitions, and the edges explored): states
/// and transitions are numbered once, and each state's path is kept as the edge that discovered it.
public struct FlowFilePathfinder: Sendable {
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
    /// literal is false, or one that an earlier unguarded transition always shadows). A history's default
    /// transition is never listed: entering the history takes it, not a step of its own.
    public var uncovered: [FlowFile.Transition]
    /// How many transitions the flow declares.
    public var transitionCount: Int
    /// State names in document order.
    public var states: [String]

    /// Explores a spec.
    /// - Parameters:
    ///   - spec: The flow.
    ///   - guards: Default truths of guards that steps do not mention (true otherwise).
    /// - Throws: ``FlowSimulation/Problem`` when the flow is invalid or has what is not run (a history
    ///   whose default runs content, several initial states, data).
    public init(_ spec: FlowFile, guards: [String: Bool] = [:]) throws(FlowSimulation.Problem) {
        try self.init(spec.compile(guards: guards))
    }

    /// Explores a spec compiled once (``FlowFile/compile(guards:)``), for example the one just
    /// validated: `flowviz paths` checks and explores a file with one compilation.
    /// - Throws: ``FlowSimulation/Problem`` when the flow is invalid or has what is not run (a history
    ///   whose default runs content, several initial states, data).
    public init(_ compiled: FlowFile.Compiled) throws(FlowSimulation.Problem) {
        let spec = compiled.spec
        let document = compiled.document
        let index = document.index
        let scxml = document.scxml
        let stateCount = index.order.count
        let transitions = index.transitionList
        var refusal: String?
        index.forEach(state: { _, state in
            if refusal == nil { refusal = FlowFile.notRun(state, verb: "explored") }
        })
        if let refusal { throw FlowSimulation.Problem(.notRunnable, refusal) }
        // The driver FlowSimulation runs, without child flows (their completion is an event like any
        // other) and without notes: the exploration reads only the transitions the root took.
        var initial = SpecInterpreter(documents: [spec.name: document], root: spec.name, guards: compiled.guards,
                                      classes: compiled.classes)
        initial.recording = false
        do {
            try initial.start()
        } catch {
            throw FlowSimulation.Problem(.cannotStart, "error: \(spec.name) cannot start: \(error.message)")
        }
        let startCovers = initial.takeRootTransitions()

        // Each transition, once: the event names it is tried with (interned), how its guard reads,
        // where it goes. Each state's transitions, by ordinal.
        var nameIDs: [String: Int] = [:]
        var names: [String] = []
        func intern(_ name: String) -> Int {
            if let id = nameIDs[name] { return id }
            names.append(name)
            nameIDs[name] = names.count - 1
            return names.count - 1
        }
        // `true`, `false` and `In()` are evaluated, not chosen by a step (asked once per guard text).
        var literals: [String: Bool] = [:]
        func isLiteral(_ g: String) -> Bool {
            if let known = literals[g] { return known }
            let trimmed = g.trimmingSpaces
            let literal = trimmed == "true" || trimmed == "false" || FlowFile.inPredicate(trimmed) != nil
            literals[g] = literal
            return literal
        }
        var tryStart = [0]  // transition t is tried with names tryNames[tryStart[t]..<tryStart[t + 1]]
        var tryNames: [Int] = []
        var matchesAll = [Bool](repeating: false, count: transitions.count)  // SCXML '*'
        var guardNames = [String?](repeating: nil, count: transitions.count)  // guards a step can choose
        var guarded = [Bool](repeating: false, count: transitions.count)
        var targets = [Int](repeating: -1, count: transitions.count)
        var moreTargets: [Int: [Int]] = [:]  // the targets after the first, for the few that have several
        var hasEvent = [Bool](repeating: false, count: transitions.count)
        var hasDelays = false
        tryStart.reserveCapacity(transitions.count + 1)
        index.forEach(transition: { t, transition in
            if transition.delay != nil { hasDelays = true }
            if let event = transition.event {
                hasEvent[t] = true
                if scxml {
                    for d in FlowFile.descriptors(event) {
                        if d == "*" { matchesAll[t] = true } else { tryNames.append(intern(String(d))) }
                    }
                } else {
                    tryNames.append(intern(event))
                }
            }
            tryStart.append(tryNames.count)
            if let g = transition.guardName {
                guarded[t] = true
                if !isLiteral(g) { guardNames[t] = g }
            }
            targets[t] = transition.target.flatMap { index.ordinals[$0] } ?? -1
            if transition.targets.count > 1 { moreTargets[t] = transition.targets.dropFirst().compactMap { index.ordinals[$0] } }
        })
        // SCXML: the names each name's descriptors match are those that are its dotted prefixes.
        var prefixStart = [0]
        var prefixIDs: [Int] = []
        if scxml {
            for name in names {
                // Its token prefixes, itself included (`EventDescriptor`, the engine's matching).
                for prefix in EventDescriptor.prefixes(of: Substring(name)) {
                    if let known = nameIDs[String(prefix)] { prefixIDs.append(known) }
                }
                prefixStart.append(prefixIDs.count)
            }
        }
        func matches(_ t: Int, _ name: Int) -> Bool {
            if matchesAll[t] { return true }
            for k in tryStart[t]..<tryStart[t + 1] {
                let d = tryNames[k]
                if d == name { return true }
                if scxml, prefixIDs[prefixStart[name]..<prefixStart[name + 1]].contains(d) { return true }
            }
            return false
        }
        var sourceStart = [Int](repeating: 0, count: stateCount + 1)
        for source in index.sourceOrdinals { sourceStart[Int(source) + 1] += 1 }
        for s in 0..<stateCount { sourceStart[s + 1] += sourceStart[s] }
        var bySource = [Int](repeating: 0, count: transitions.count)
        var fill = sourceStart
        for (t, source) in index.sourceOrdinals.lazy.map(Int.init).enumerated() {
            bySource[fill[source]] = t
            fill[source] += 1
        }
        let hierarchy = index.hierarchy

        // Breadth-first over configurations; each edge is one external event with its guard truths.
        // The search, its shortest paths and the cover are FlowExplorer's, which FlowPathfinder runs
        // too. A node is where the root machine is, by the engine's key (`FlowMachine.explorationKey`,
        // as FlowPathfinder and deep links key it: its active leaves, what its histories remember, its
        // armed timers), numbered as found, with its leaves' ordinals.
        var coverStart = [0]  // edge e took transitions coverFlat[coverStart[e]..<coverStart[e + 1]]
        var coverFlat: [Int32] = []
        let declared = document.definition.states
        var nodeIDs: [[Int]: Int] = [:]
        var nodeLeaves: [[Int32]] = []  // each node's leaves, by ordinal, sorted
        /// The node of an engine key, numbered when new.
        func node(_ key: [Int]) -> Int {
            if let known = nodeIDs[key] { return known }
            let leaves = key.prefix { $0 >= 0 }.compactMap { p in index.ordinals[declared[p].state].map { Int32($0) } }
            nodeIDs[key] = nodeLeaves.count
            nodeLeaves.append(leaves.sorted())
            return nodeLeaves.count - 1
        }
        /// The engine's key of the root after a run's step (its final state once finished).
        func rootKey(_ interpreter: SpecInterpreter) -> [Int]? {
            if !interpreter.rootFinished, let machine = interpreter.sessions.first??.machine { return machine.explorationKey }
            return interpreter.rootState.flatMap { document.definition.position(of: $0) }.map { [$0] }
        }
        let startKey = node(rootKey(initial) ?? [document.definition.position(of: spec.initial) ?? 0])
        // A document with no executable content, no invoke and no nested final leaves the driver
        // nothing to do in a step but hand the event to the engine (no queue ever holds anything): its
        // runs are the root machine alone, a few words to copy instead of the whole driver.
        // A document with delayed transitions keeps the driver too: its virtual time says which timer
        // fires next.
        let direct = !document.hasContent && initial.live.count == 1 && !hasDelays
        var startRun: Run?
        if !initial.rootFinished {
            if direct, let machine = initial.sessions[0]?.machine {
                startRun = .machine(machine, steps: initial.steps)
            } else {
                startRun = .interpreter(initial)
            }
        }
        var explorer = FlowExplorer<Int, SpecEvent, Run>(start: startKey, run: startRun)
        let stepLimit = initial.stepLimit
        /// One step of a run: the file's transitions the root took, where it settled, whether it finished,
        /// and the run after it; `nil` when the run stops (a loop, a limit).
        func step(_ run: Run, _ event: SpecEvent) -> (covers: [Int], to: [Int]?, finished: Bool, after: Run)? {
            switch run {
            case .interpreter(var copy):
                do {
                    try copy.send(event)
                } catch {
                    return nil
                }
                return (copy.takeRootTransitions(), rootKey(copy), copy.rootFinished, .interpreter(copy))
            case .machine(var machine, let steps):
                // What the driver's `selectAndTakeTransitions` does for such a document, to the letter.
                guard steps + 1 <= stepLimit else { return nil }
                var classified = event
                classified.matchKind = scxml ? compiled.classes.kind(of: event.name) : nil
                let taken: FlowStep<StringFlow>
                do {
                    taken = try machine.send(classified)
                } catch {
                    return nil
                }
                switch taken.kind {
                case .transitioned, .finished:
                    let covers = taken.transitions.map { index.specTransitions[$0.position] }
                    return (covers, machine.explorationKey, taken.kind == .finished, .machine(machine, steps: steps + 1))
                default:
                    return ([], nil, false, run)
                }
            }
        }
        var candidates: [Int] = []
        var tried: [[String: Bool]] = []
        var named: [Int] = []
        var matching: [Int] = []
        /// Time passing: the run's virtual time moves to the next timer (or delayed event) due, which
        /// fires with all it causes. The edge reads `wait 30s`, a step `flowviz simulate` replays.
        func wait(_ run: Run) -> (label: SpecEvent, covers: [Int], to: [Int]?, finished: Bool, after: Run)? {
            guard case .interpreter(var copy) = run, let due = copy.nextDue else { return nil }
            let label = SpecEvent("wait " + FlowSimulation.format(milliseconds: due - copy.now))
            do {
                try copy.advance(to: due)
            } catch {
                return nil
            }
            return (label, copy.takeRootTransitions(), rootKey(copy), copy.rootFinished, .interpreter(copy))
        }
        while let (_, from, run) = explorer.next() {
            // Delayed transitions: letting time pass until the next timer fires is an edge too (as
            // FlowPathfinder fires a typed flow's armed timers).
            if hasDelays, let (label, covers, reachedKey, finished, after) = wait(run), !covers.isEmpty {
                explorer.reach(reachedKey.map(node) ?? from, by: label, exploring: finished ? nil : after)
                for t in covers { coverFlat.append(Int32(t)) }
                coverStart.append(coverFlat.count)
            }
            let fromLeaves = nodeLeaves[from]
            // Candidate transitions in the order the engine tries them: innermost state first (each
            // leaf's in turn: the engine selects one transition for each).
            named.removeAll(keepingCapacity: true)
            for leaf in fromLeaves {
                for s in hierarchy.ancestorsOrSelf(of: Int(leaf)) {
                    for t in bySource[sourceStart[s]..<sourceStart[s + 1]] where hasEvent[t] {
                        for k in tryStart[t]..<tryStart[t + 1] where !named.contains(tryNames[k]) { named.append(tryNames[k]) }
                    }
                }
            }
            for name in named {
                var pending: [[String: Bool]] = []
                for leaf in fromLeaves {
                    candidates.removeAll(keepingCapacity: true)
                    for s in hierarchy.ancestorsOrSelf(of: Int(leaf)) {
                        for t in bySource[sourceStart[s]..<sourceStart[s + 1]] where hasEvent[t] { candidates.append(t) }
                    }
                    matching.removeAll(keepingCapacity: true)
                    for t in candidates where matches(t, name) { matching.append(t) }
                    for (k, t) in matching.enumerated() {
                        var truths: [String: Bool] = [:]
                        var possible = true
                        for earlier in matching[..<k] {
                            guard guarded[earlier] else { possible = false; break }
                            if let g = guardNames[earlier] { truths[g] = false }
                        }
                        if let g = guardNames[t] {
                            if truths[g] == false { possible = false }
                            truths[g] = true
                        }
                        if possible { pending.append(truths) }
                    }
                }
                tried.removeAll(keepingCapacity: true)
                while let truths = pending.popLast() {
                    guard !tried.contains(truths) else { continue }
                    tried.append(truths)
                    guard tried.count <= 64 else { continue }
                    let event = SpecEvent(names[name], guards: truths)
                    guard let (covers, reachedKey, finished, after) = step(run, event) else {
                        continue  // a loop the run stops: no edge
                    }
                    guard !covers.isEmpty else { continue }
                    // Decision states: flip each eventless guard the run relied on.
                    for t in covers where !hasEvent[t] {
                        if let g = guardNames[t], truths[g] == nil {
                            var flipped = truths
                            flipped[g] = false
                            pending.append(flipped)
                        }
                    }
                    let to = reachedKey.map(node) ?? from
                    explorer.reach(to, by: event, exploring: finished ? nil : after)
                    for t in covers { coverFlat.append(Int32(t)) }
                    coverStart.append(coverFlat.count)
                }
            }
        }

        let tree = explorer.exploration
        // Each state's path is kept as the node (a configuration) it was first settled in: memory stays
        // linear in the flow's size (a chain's paths together are quadratic).
        let settledVia = tree.firstNodes(inside: hierarchy) { nodeLeaves[$0].map { Int($0) } }
        // The cover: for each edge that takes a transition not yet taken, the shortest path to its
        // source and the edge.
        let (ends, covered) = tree.transitionCover(start: startCovers, transitionCount: transitions.count) { e in
            coverFlat[coverStart[e]..<coverStart[e + 1]].lazy.map { Int($0) }
        }
        var sequences = ends.map { tree.labels(to: tree.source(of: $0), then: $0) }
        if sequences.isEmpty { sequences = [[]] }
        // A state passed through: the edge (or the start, -1) that took a transition into it.
        var passedVia = [Int32](repeating: Self.none, count: stateCount)
        func passed(_ covers: some Sequence<Int>, by e: Int) {
            for t in covers {
                for target in CollectionOfOne(targets[t]) + (moreTargets[t] ?? []) {
                    guard target >= 0, settledVia[target] < 0, passedVia[target] == Self.none else { continue }
                    passedVia[target] = Int32(e)
                }
            }
        }
        passed(startCovers, by: -1)
        for e in 0..<tree.edgeCount { passed(coverFlat[coverStart[e]..<coverStart[e + 1]].lazy.map { Int($0) }, by: e) }

        self.ordinals = index.ordinals
        self.tree = tree
        self.settledVia = settledVia
        self.passedVia = passedVia
        self.cover = sequences
        self.reached = index.order.indices.filter { settledVia[$0] >= 0 }.map { index.order[$0] }
        self.passedThrough = index.order.indices.filter { passedVia[$0] != Self.none }.map { index.order[$0] }
        self.unreachable = index.order.indices.filter { settledVia[$0] < 0 && passedVia[$0] == Self.none }.map { index.order[$0] }
        // A history's default transition is taken by entering the history, never by a step of its own.
        self.uncovered = transitions.indices.filter {
            !covered[$0] && index.stateList[Int(index.sourceOrdinals[$0])].history == nil
        }.map { transitions[$0] }
        self.transitionCount = transitions.count
        self.states = index.order
    }

    /// The bytes the exploration keeps to answer ``shortestPath(to:)`` (array and table capacities,
    /// without the names, which are shared with the spec), for tests that keep it linear.
    var footprint: Int {
        ordinals.capacity * (MemoryLayout<String>.stride + MemoryLayout<Int>.stride) + tree.footprint
            + (settledVia.capacity + passedVia.capacity) * MemoryLayout<Int32>.stride
    }

    /// A run waiting to be explored: the driver, or for a document that gives the driver nothing to
    /// do, the root machine alone and the steps it took.
    private enum Run {
        case interpreter(SpecInterpreter)
        case machine(FlowMachine<StringFlow>, steps: Int)
    }

    /// No edge (`passedVia`): -1 is the start.
    private static let none: Int32 = -2
    /// State ordinals by name.
    private let ordinals: [String: Int]
    /// The exploration: nodes are configurations (numbered engine keys), edges are events.
    private let tree: FlowExploration<Int, SpecEvent>
    /// The node each state was first settled in through (a configuration with a leaf inside it), by
    /// ordinal, or -1.
    private let settledVia: [Int32]
    /// The edge that passed through each state (-1: the start), by ordinal, or ``none``.
    private let passedVia: [Int32]

    /// The shortest event sequence found that settles in `state` (empty for the initial
    /// configuration), or, for a state only passed through, one that passes through it; `nil` if
    /// none does. Computed on demand, in time linear in its length.
    public func shortestPath(to state: String) -> [SpecEvent]? {
        guard let ordinal = ordinals[state] else { return nil }
        if settledVia[ordinal] >= 0 { return tree.labels(to: Int(settledVia[ordinal])) }
        let edge = passedVia[ordinal]
        guard edge != Self.none else { return nil }
        return edge < 0 ? [] : tree.labels(to: tree.source(of: Int(edge)), then: Int(edge))
    }

    /// Whether ``shortestPath(to:)`` passes through `state` without settling in it.
    public func isPassedThrough(_ state: String) -> Bool {
        guard let ordinal = ordinals[state] else { return false }
        return settledVia[ordinal] < 0 && passedVia[ordinal] != Self.none
    }
}

