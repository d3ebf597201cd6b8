import Flowstate
import Testing

@Suite("FlowRuntime: stop, and awaiting the output")
@MainActor
struct RuntimeAsyncTests {
    enum Door: Flow {
        enum State: Hashable, Sendable { case closed, open, gone }
        enum Event: FlowEvent { case open, leave, fail }
        typealias Effect = String
        typealias Output = String

        static let definition = FlowDefinition<Door>("door", initial: .closed) {
            StateNode(.closed, entry: ["enter closed"], exit: ["exit closed"]) {
                On(.open, to: .open)
                On(.fail, to: nil, effects: ["boom"])
            }
            StateNode(.open, entry: ["enter open"], exit: ["exit open"]) { On(.leave, to: .gone) }
            Final(.gone, output: "left")
        }
    }

    final class Log {
        var effects: [String] = []
        var stopFromHandler: FlowError?
    }

    func runtime(_ log: Log) throws -> FlowRuntime<Door> {
        try FlowRuntime(Door.definition) { effect, runtime in
            log.effects.append(effect)
            if effect == "boom" { throw CancellationError() }
            if effect == "enter open" {
                do throws(FlowError) { try runtime.stop() } catch { log.stopFromHandler = error }
            }
        }
    }

    @Test("output() returns the typed output once the flow finishes")
    func output() async throws {
        let log = Log()
        let runtime = try runtime(log)
        try runtime.start()
        let waiting = Task { @MainActor in try await runtime.output() }
        await Task.yield()
        try runtime.send(.open)
        try runtime.send(.leave)
        #expect(try await waiting.value == "left")
        #expect(try await runtime.output() == "left", "at once when finished")
    }

    @Test("stop() performs the exit effects once; later events are refused; from the handler it is refused")
    func stop() throws {
        let log = Log()
        let runtime = try runtime(log)
        try runtime.start()
        try runtime.send(.open)
        #expect(log.stopFromHandler?.code == .reentrantCall)
        try runtime.stop()
        try runtime.stop()
        #expect(log.effects == ["enter closed", "exit closed", "enter open", "exit open"])
        #expect(throws: FlowError.self) { try runtime.send(.leave) }
    }

    @Test("Cancelling the awaiting task stops the flow (exit effects once) and throws CancellationError")
    func cancellation() async throws {
        let log = Log()
        let runtime = try runtime(log)
        try runtime.start()
        let waiting = Task { @MainActor in try await runtime.output() }
        await Task.yield()
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(log.effects == ["enter closed", "exit closed"])
    }

    @Test("Cancelling the wait when an exit effect fails: the failure is thrown, not swallowed")
    func cancellationWithFailingExit() async throws {
        let runtime = try FlowRuntime(Door.definition) { effect, _ in
            if effect == "exit closed" { throw CancellationError() }
        }
        try runtime.start()
        let waiting = Task { @MainActor in try await runtime.output() }
        await Task.yield()
        waiting.cancel()
        let error = await #expect(throws: FlowError.self) { try await waiting.value }
        #expect(error?.code == .effectFailed)
        #expect(throws: FlowError.self) { try runtime.send(.open) }  // stopped: refused
    }

    @Test("A flow stopped, or failed, while awaited ends the wait with an error, not a hang")
    func stoppedOrFailed() async throws {
        let log = Log()
        let stopped = try runtime(log)
        try stopped.start()
        let waitingStopped = Task { @MainActor in try await stopped.output() }
        await Task.yield()
        try stopped.stop()
        let error = await #expect(throws: FlowError.self) { try await waitingStopped.value }
        #expect(error?.code == .stopped)

        let failing = try runtime(Log())
        try failing.start()
        let waitingFailed = Task { @MainActor in try await failing.output() }
        await Task.yield()
        #expect(throws: FlowError.self) { try failing.send(.fail) }
        let failure = await #expect(throws: FlowError.self) { try await waitingFailed.value }
        #expect(failure?.code == .runtimeFailed)
    }
}
