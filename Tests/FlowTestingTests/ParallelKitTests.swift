import Flowstate
import FlowTesting
import Testing

/// Two regions that each toggle.
private enum Toggles: Flow {
    enum State: Hashable, Sendable { case both, left, leftOff, leftOn, right, rightOff, rightOn }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case flipLeft, flipRight }
    typealias Effect = String
    typealias Output = Void

    static let definition = FlowDefinition<Toggles>("toggles", initial: .both) {
        Parallel(.both) {
            StateNode(.left) {
                StateNode(.leftOff) { On(.flipLeft, to: .leftOn) }
                StateNode(.leftOn) { On(.flipLeft, to: .leftOff) }
            }
            StateNode(.right) {
                StateNode(.rightOff) { On(.flipRight, to: .rightOn) }
                StateNode(.rightOn) { On(.flipRight, to: .rightOff) }
            }
        }
    }
}

@Suite("The kit and parallel states")
struct ParallelKitTests {
    @Test("The path finder refuses a flow with parallel states in one typed error, naming the state and where it is declared")
    func pathfinderRefuses() {
        #expect(Toggles.definition.isValid, "\(Toggles.definition.validate())")
        do {
            _ = try FlowPathfinder(Toggles.definition, samples: [.flipLeft, .flipRight])
            Issue.record("a parallel flow was explored")
        } catch {
            #expect(error.code == .unsupported)
            #expect(error.message.contains("parallel state 'both'"), "\(error.message)")
            #expect(error.location != nil)
        }
    }
}
