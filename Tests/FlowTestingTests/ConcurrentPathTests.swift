import Flowstate
import FlowstateExamples
import FlowTesting
import Testing

/// `make sanitize` found a data race: the shortest path to the start state, empty, was built with
/// `Array(unsafeUninitializedCapacity: 0)`, which writes its count into the one empty-array storage
/// that every empty array shares. Two explorations on two threads wrote it at once. This test runs
/// explorations on several threads at once: it fails under ThreadSanitizer when the race is back.
@Suite("Path finders on several threads at once")
struct ConcurrentPathTests {
    /// The length of the shortest path to each state of the two-factor code.
    static func lengths() throws -> [TwoFactorCode.State: Int] {
        let samples: [TwoFactorCode.Event] = [.submitCode("123456"), .submitCode("x"), .resend, .cancel]
        return try FlowPathfinder(TwoFactorCode.definition, samples: samples).shortestPaths.mapValues(\.steps.count)
    }

    @Test("Shortest paths found on several threads at once, the empty path to the start included, are the same")
    func concurrentShortestPaths() async throws {
        let expected = try Self.lengths()
        #expect(expected.values.contains(0))  // the path to where the flow starts
        let lengths = await withTaskGroup(of: [TwoFactorCode.State: Int]?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    // Many explorations per task, so that the tasks run at the same time on every core.
                    var last: [TwoFactorCode.State: Int]?
                    for _ in 0..<200 { last = try? Self.lengths() }
                    return last
                }
            }
            var all: [[TwoFactorCode.State: Int]?] = []
            for await lengths in group { all.append(lengths) }
            return all
        }
        #expect(lengths.count == 8)
        for found in lengths { #expect(found == expected) }
    }
}
