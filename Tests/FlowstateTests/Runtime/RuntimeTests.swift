import Flowstate
import FlowstateExamples
import Logging
import Synchronization
import Testing

@Suite("Runtime")
struct RuntimeTests {
    @Test("The handler performs every effect in order; observers see every step first")
    func performsAndObserves() throws {
        var log: [String] = []
        let runtime = try FlowRuntime(SignUp.definition) { effect, _ in log.append("do \(effect)") }
        let observation = runtime.observe { step in log.append("saw \(step.state)") }
        try runtime.start()
        try runtime.send(.submitEmail("ada@example.com"))
        observation.cancel()
        try runtime.send(.cancel)
        #expect(log == ["saw email", "do present(email)", "saw password", "do push(password)", "do dismiss"])
        #expect(runtime.isFinished && runtime.output == .cancelled)
    }

    @Test("Events the handler sends are processed after the step, before the outer send returns")
    func handlerSends() throws {
        var pendingInside: [Int] = []
        var states: [SignUp.State] = []
        let runtime = try FlowRuntime(SignUp.definition) { effect, runtime in
            if effect == .push(.twoFactor) {
                try runtime.send(.submitCode("123456"))
                pendingInside.append(runtime.pendingEvents)
            }
        }
        runtime.observe { states.append($0.state) }
        try runtime.start()
        try runtime.send(.submitEmail("ada@example.com"))
        try runtime.send(.submitPassword("correct horse"))
        #expect(pendingInside == [1], "inside the step, the send was queued")
        #expect(states == [.email, .password, .twoFactor, .done])
        #expect(runtime.output == .signedUp, "and processed before the outer send returned")
    }

    @Test("start() from inside the handler is refused and leaves the queue working")
    func reentrantStart() throws {
        var refused: FlowError?
        let runtime = try FlowRuntime(SignUp.definition) { effect, runtime in
            if effect == .push(.password) {
                do { try runtime.start() } catch let error as FlowError { refused = error }
                try runtime.send(.back)
            }
        }
        try runtime.start()
        try runtime.send(SignUp.Event.submitEmail("ada@example.com"))
        #expect(refused?.code == .reentrantCall)
        #expect(runtime.state == SignUp.State.email, "the queued back was still processed")
        #expect(runtime.pendingEvents == 0)
    }

    @Test("A failing handler stops the runtime with a typed error; later events are refused")
    func handlerFailure() throws {
        struct Boom: Error {}
        let runtime = try FlowRuntime(SignUp.definition) { effect, runtime in
            if effect == .push(.password) {
                try runtime.send(.back)
                throw Boom()
            }
        }
        try runtime.start()
        let error = #expect(throws: FlowError.self) { try runtime.send(.submitEmail("ada@example.com")) }
        #expect(error?.code == .effectFailed)
        #expect(error?.message.contains("push(password)") == true)
        #expect(runtime.pendingEvents == 0, "the queued event is dropped")
        #expect((#expect(throws: FlowError.self) { try runtime.send(.cancel) })?.code == .runtimeFailed)
    }

    @Test("A queued event that fails does not stop the events queued after it; the first error is thrown")
    func queuedErrors() throws {
        let definition = FlowDefinition<Door>("door", initial: .closed, unhandledEvents: .fail) {
            StateNode(.closed) { On(.open, to: .open, effects: ["creak"]) }
            StateNode(.open) { On(.close, to: .closed) }
        }
        let runtime = try FlowRuntime(definition) { effect, runtime in
            if effect == "creak" {
                try runtime.send(.lock)  // unhandled: fails
                try runtime.send(.close)  // still processed
            }
        }
        try runtime.start()
        let error = #expect(throws: FlowError.self) { try runtime.send(.open) }
        #expect(error?.code == .unhandledEvent)
        #expect(runtime.state == .closed)
    }

    @Test("Steps are delivered as an AsyncSequence")
    func asyncSteps() async throws {
        let runtime = try FlowRuntime(SignUp.definition) { _, _ in }
        let stream = runtime.steps()
        try runtime.start()
        try runtime.send(.cancel)
        var states: [SignUp.State] = []
        for await step in stream {
            states.append(step.state)
            if states.count == 2 { break }
        }
        #expect(states == [.email, .cancelled])
    }

    @Test("Steps are logged at debug level through swift-log")
    func logging() throws {
        let recorder = RecordingLogHandler.Store()
        var logger = Logger(label: "test") { _ in RecordingLogHandler(store: recorder) }
        logger.logLevel = .debug
        let runtime = try FlowRuntime(SignUp.definition, logger: logger) { _, _ in }
        try runtime.start()
        try runtime.send(.cancel)
        let records = recorder.records
        #expect(records.count == 2)
        #expect(records.allSatisfy { $0.level == .debug && $0.metadata["flow"] == "sign-up" })
        #expect(records.last?.metadata["step"]?.description.contains("cancelled") == true)
    }
}

/// A log handler that keeps what it is given.
struct RecordingLogHandler: LogHandler {
    typealias Record = (level: Logger.Level, message: String, metadata: Logger.Metadata)

    final class Store: Sendable {
        private let storage = Mutex<[Record]>([])
        var records: [Record] { storage.withLock { $0 } }
        func append(_ record: Record) { storage.withLock { $0.append(record) } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        store.append((event.level, event.message.description, metadata.merging(event.metadata ?? [:]) { $1 }))
    }
}
