// The one search of the kit's checks (FlowCheck, SupervisorCheck, and the generators' shrinking):
// draw sequences from a seed, run each, shrink the first that fails.

/// A step of a check that failed: 0 for the start, `k` for the `k`-th element of the sequence.
struct CheckFailure {
    var step: Int
    var message: String
}

/// Sequences drawn, run and shrunk: the search ``FlowCheck`` and ``SupervisorCheck`` share.
enum SequenceSearch {
    /// The most shrinking rounds: each round strictly shrinks the sequence, so this only bounds time.
    static let shrinkLimit = 10_000

    /// Smaller sequences, most shrunk first: empty, then with chunks of halving sizes removed, then with
    /// one element replaced by each of its `simpler` forms. Each is shorter, or as long with one element
    /// simpler, so shrinking ends when `simpler` only ever goes down.
    static func shrinks<Element>(of sequence: [Element], simpler: (Element) -> [Element]) -> [[Element]] {
        let n = sequence.count
        guard n > 0 else { return [] }
        var result: [[Element]] = [[]]
        var size = n / 2
        while size >= 1 {
            var start = 0
            while start < n {
                var candidate = sequence
                candidate.removeSubrange(start..<min(n, start + size))
                if !candidate.isEmpty { result.append(candidate) }
                start += size
            }
            size /= 2
        }
        for i in 0..<n {
            for form in simpler(sequence[i]) {
                var candidate = sequence
                candidate[i] = form
                result.append(candidate)
            }
        }
        return result
    }

    /// Draws up to `count` sequences from `seed` and returns the first that fails: `failing` runs a
    /// sequence and returns `nil` when it passes, else the part to keep (up to the failing step).
    static func firstFailing<Element>(count: Int, seed: UInt64, draw: (inout SplitMix64) -> [Element],
                                      failing: ([Element]) -> [Element]?)
        -> (drawn: [Element], kept: [Element], tries: Int)?
    {
        var rng = SplitMix64(seed: seed)
        for tries in 1...max(1, count) {
            let drawn = draw(&rng)
            if let kept = failing(drawn) { return (drawn, kept, tries) }
        }
        return nil
    }

    /// Shrinks a failing sequence greedily: the first of its `shrinks` that still fails (`failing`,
    /// as in ``firstFailing(count:seed:draw:failing:)``) replaces it, until none does or
    /// ``shrinkLimit`` rounds have passed.
    static func shrink<Element>(_ start: [Element], shrinks: ([Element]) -> [[Element]],
                                failing: ([Element]) -> [Element]?) -> (sequence: [Element], rounds: Int) {
        var best = start
        var rounds = 0
        var improved = true
        while improved && rounds < shrinkLimit {
            improved = false
            for candidate in shrinks(best) {
                guard let kept = failing(candidate) else { continue }
                best = kept
                rounds += 1
                improved = true
                break
            }
        }
        return (best, rounds)
    }
}

/// A small, fast, seedable random number generator (SplitMix64), so that a check can be repeated.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
