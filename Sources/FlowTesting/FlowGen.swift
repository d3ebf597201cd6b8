import Flowstate
import PropertyBased

/// Generators of inputs for property-based tests of flows, for swift-property-based's
/// `propertyCheck`: event sequences for a definition, command sequences on a supervisor tree
/// (``supervisorCommands(for:length:)``), and small random definitions.
///
/// ```swift
/// await propertyCheck(input: FlowGen.events(for: SignUp.definition, samples: samples)) { events in
///     try FlowCheck.run(SignUp.definition, events: events) { machine, step in
///         #expect(machine.configuration.count <= 2)
///     }
/// }
/// ```
///
/// Every generator shrinks: a failing event sequence shrinks to a short one (chunks removed, events
/// replaced by the first sample of their kind), a failing command sequence to a few commands with
/// small numbers, a failing definition to one with fewer states, transitions and guards.
public enum FlowGen {
    /// Event sequences for a definition, biased towards events the current state handles.
    ///
    /// While generating, the generator runs a machine: at each step it picks, with probability
    /// `1 - unhandledRate`, a sample whose kind the current state (or an ancestor; with parallel
    /// states, any active leaf or its ancestors) reacts to, and
    /// otherwise one it does not react to (when there is one). A sequence ends when the flow
    /// finishes, so it may be shorter than drawn. Sequences shrink by removing chunks of events, then by replacing an
    /// event with the first sample of its kind.
    /// - Parameters:
    ///   - definition: The flow; when it is invalid or cannot start, every sequence is empty.
    ///   - samples: The events to pick from (for payload events, several values per kind exercise
    ///     the guards), simplest first: shrinking prefers earlier samples.
    ///   - length: The range each sequence's length is drawn from; a sequence stops early when the
    ///     flow finishes.
    ///   - unhandledRate: The probability of picking an event the current state does not react to.
    /// - Returns: A generator of event sequences.
    public static func events<F: Flow>(
        for definition: FlowDefinition<F>, samples: [F.Event], length: ClosedRange<Int> = 0...20,
        unhandledRate: Double = 0.1
    ) -> Generator<[F.Event], [[Int]]> {
        let sampler = EventSampler(definition, samples: samples)
        let lengths = max(0, length.lowerBound)...max(0, length.upperBound)
        return Generator<[Int], [[Int]]>(
            run: { rng in
                let count = Int.random(in: lengths, using: &rng)
                return sampler.generate(count: count, unhandledRate: unhandledRate, using: &rng)
            },
            shrink: { sampler.shrinks(of: $0) }
        ).map { sampler.events($0) }
    }

    /// Event sequences for a flow whose events carry no payload: every kind the definition's
    /// transitions name is a sample.
    public static func events<F: Flow>(
        for definition: FlowDefinition<F>, length: ClosedRange<Int> = 0...20, unhandledRate: Double = 0.1
    ) -> Generator<[F.Event], [[Int]]> where F.Event == F.Event.Kind {
        events(for: definition, samples: FlowIndex(definition).kinds, length: length, unhandledRate: unhandledRate)
    }
}

/// Picks and shrinks sample events: the core of ``FlowGen/events(for:samples:length:unhandledRate:)``
/// and ``FlowCheck``. Sequences are sample positions, so shrinking can move towards earlier samples.
struct EventSampler<F: Flow>: Sendable {
    let definition: FlowDefinition<F>
    let index: FlowIndex<F>
    let samples: [F.Event]
    /// For each sample, the first sample of the same kind.
    let firstOfKind: [Int]
    /// For each state taken as the leaf, the samples whose kind it reacts to, and the others.
    let handled: [[Int]]
    let unhandled: [[Int]]

    init(_ definition: FlowDefinition<F>, samples: [F.Event]) {
        self.definition = definition
        let index = FlowIndex(definition)
        self.index = index
        self.samples = samples
        var first: [F.Event.Kind: Int] = [:]
        firstOfKind = samples.enumerated().map { i, event in
            if let known = first[event.kind] { return known }
            first[event.kind] = i
            return i
        }
        var handled = [[Int]](repeating: [], count: index.count)
        var unhandled = [[Int]](repeating: [], count: index.count)
        for leaf in 0..<index.count {
            let kinds = Set(index.handledKinds[leaf])
            for (i, event) in samples.enumerated() {
                if kinds.contains(event.kind) { handled[leaf].append(i) } else { unhandled[leaf].append(i) }
            }
        }
        self.handled = handled
        self.unhandled = unhandled
    }

    func events(_ positions: [Int]) -> [F.Event] { positions.map { samples[$0] } }

    /// Up to `count` sample positions, chosen while running a machine.
    func generate<R: RandomNumberGenerator>(count: Int, unhandledRate: Double, using rng: inout R) -> [Int] {
        guard !samples.isEmpty, var machine = try? FlowMachine(definition), (try? machine.start()) != nil else {
            return []
        }
        var result: [Int] = []
        result.reserveCapacity(count)
        let parallel = index.hierarchy.hasParallel
        while result.count < count && !machine.isFinished {
            let leaf = index.position[machine.state] ?? 0
            // With parallel states, an event is handled when any active region reacts to it.
            let (handledHere, unhandledHere) = parallel ? pools(in: machine) : (handled[leaf], unhandled[leaf])
            let useUnhandled = !unhandledHere.isEmpty
                && (handledHere.isEmpty || Double.random(in: 0..<1, using: &rng) < unhandledRate)
            let pool = useUnhandled ? unhandledHere : handledHere
            guard let pick = pool.randomElement(using: &rng) else { break }
            result.append(pick)
            _ = try? machine.send(samples[pick])  // a refused event leaves the machine unchanged: keep going
        }
        return result
    }

    /// The samples some leaf `machine` rests in reacts to, and the others, by position: a flow with
    /// parallel states rests in several leaves, and offers each event to all of them.
    private func pools(in machine: FlowMachine<F>) -> (handled: [Int], unhandled: [Int]) {
        var reacts = [Bool](repeating: false, count: samples.count)
        for state in machine.activeStates {
            guard let s = index.position[state], index.hierarchy.isAtomic(s) else { continue }
            for i in handled[s] { reacts[i] = true }
        }
        return (reacts.indices.filter { reacts[$0] }, reacts.indices.filter { !reacts[$0] })
    }

    /// Smaller sequences, most shrunk first (``SequenceSearch/shrinks(of:simpler:)``): an event's
    /// simpler form is the first sample of its kind, so shrinking moves towards earlier samples.
    func shrinks(of positions: [Int]) -> [[Int]] {
        SequenceSearch.shrinks(of: positions) { p in
            p < firstOfKind.count && firstOfKind[p] < p ? [firstOfKind[p]] : []
        }
    }
}
