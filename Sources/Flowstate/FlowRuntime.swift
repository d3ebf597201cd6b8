import DequeModule
import Logging

/// A small host around a ``FlowMachine``: it performs each step's effects through a handler and
/// gives the machine run-to-completion semantics.
///
/// Events sent while a step is being processed (typically by the effect handler itself) are queued
/// and handled after the step completes, in FIFO order: the handler is never re-entered. Every step
/// is passed to observers (``observe(_:)``, ``steps()``) and, when a `Logger` is given, logged at
/// debug level.
///
/// A runtime is not `Sendable`: it lives in one isolation domain (for a coordinator, the main
/// actor) and the compiler keeps it there.
///
/// ```swift
/// let runtime = try FlowRuntime(signUp) { effect, runtime in
///     navigator.perform(effect)
/// }
/// try runtime.start()
/// try runtime.send(.submitEmail("ada@example.com"))
/// ```
public final class FlowRuntime<F: Flow> {
    /// Performs one effect. It may call ``FlowRuntime/send(_:)`` on the runtime it is given: the
    /// event is queued until the current step's effects are all performed.
    public typealias EffectHandler = (F.Effect, FlowRuntime<F>) throws -> Void

    private var machine: FlowMachine<F>
    private let handler: EffectHandler
    private let logger: Logger?
    private var queue = Deque<F.Event>()
    private var isProcessing = false
    private var failure: FlowError?
    private var observers: [Int: (FlowStep<F>) -> Void] = [:]
    private var continuations: [Int: AsyncStream<FlowStep<F>>.Continuation] = [:]
    private var nextToken = 0

    /// Creates a runtime for a definition.
    /// - Parameters:
    ///   - definition: The flow to run; it must be valid.
    ///   - logger: Where steps are logged at debug level; `nil` logs nothing.
    ///   - handler: Performs effects, in order.
    /// - Throws: ``FlowError/Code/invalidDefinition``.
    public init(_ definition: FlowDefinition<F>, logger: Logger? = nil,
                handler: @escaping EffectHandler) throws(FlowError) {
        self.machine = try FlowMachine(definition)
        self.handler = handler
        self.logger = logger
    }

    deinit {
        for continuation in continuations.values { continuation.finish() }
    }

    /// The current state.
    public var state: F.State { machine.state }
    /// Whether the flow has reached a final state.
    public var isFinished: Bool { machine.isFinished }
    /// The flow's output, once it has finished.
    public var output: F.Output? { machine.output }
    /// The events waiting to be processed.
    public var pendingEvents: Int { queue.count }

    /// Starts the machine and performs its entry effects.
    /// - Returns: The steps processed, including those of events the handler sent meanwhile.
    @discardableResult
    public func start() throws(FlowError) -> [FlowStep<F>] {
        try run { machine throws(FlowError) in try machine.start() }
    }

    /// Sends an event. If a step is being processed (the handler is sending), the event is queued
    /// and this returns an empty array; otherwise it is processed now, followed by every event
    /// queued meanwhile.
    /// - Returns: The steps processed by this call, in order.
    /// - Throws: The first ``FlowError`` met while processing. Events after a failed one are still
    ///   processed, unless the effect handler failed: then the runtime stops
    ///   (``FlowError/Code/effectFailed``), drops what is queued, and refuses further events
    ///   (``FlowError/Code/runtimeFailed``).
    @discardableResult
    public func send(_ event: F.Event) throws(FlowError) -> [FlowStep<F>] {
        if let failure {
            throw FlowError(code: .runtimeFailed,
                            message: "flow '\(machine.definition.name)' stopped after a failure: \(failure.message)")
        }
        if isProcessing {
            queue.append(event)
            return []
        }
        return try run { machine throws(FlowError) in try machine.send(event) }
    }

    private func run(_ first: (inout FlowMachine<F>) throws(FlowError) -> FlowStep<F>) throws(FlowError) -> [FlowStep<F>] {
        isProcessing = true
        defer { isProcessing = false }
        var steps: [FlowStep<F>] = []
        var firstError: FlowError?
        do throws(FlowError) {
            steps.append(try perform(first(&machine)))
        } catch {
            if failure != nil { throw error }
            firstError = error
        }
        while let event = queue.popFirst() {
            do throws(FlowError) {
                steps.append(try perform(machine.send(event)))
            } catch {
                if failure != nil { throw error }
                logger?.debug("flow event failed", metadata: ["flow": "\(machine.definition.name)",
                                                              "event": "\(event)", "error": "\(error)"])
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
        return steps
    }

    private func perform(_ step: FlowStep<F>) throws(FlowError) -> FlowStep<F> {
        logger?.debug("flow step", metadata: ["flow": "\(machine.definition.name)", "step": "\(step)"])
        for observer in observers.values { observer(step) }
        for continuation in continuations.values { continuation.yield(step) }
        for effect in step.effects {
            do {
                try handler(effect, self)
            } catch {
                let failure = FlowError(
                    code: .effectFailed,
                    message: "effect '\(effect)' of flow '\(machine.definition.name)' failed in state "
                        + "'\(machine.state)': \(error)")
                self.failure = failure
                queue.removeAll()
                throw failure
            }
        }
        return step
    }

    /// Calls `observer` with every step from now on, before the step's effects are performed.
    /// - Returns: A token; the observation lasts until ``FlowObservation/cancel()`` or the runtime ends.
    @discardableResult
    public func observe(_ observer: @escaping (FlowStep<F>) -> Void) -> FlowObservation {
        let token = nextToken
        nextToken += 1
        observers[token] = observer
        return FlowObservation { [weak self] in self?.observers[token] = nil }
    }

    /// The steps from now on, as an asynchronous sequence. It finishes when the runtime is deinitialized.
    public func steps() -> AsyncStream<FlowStep<F>> {
        let (stream, continuation) = AsyncStream<FlowStep<F>>.makeStream()
        let token = nextToken
        nextToken += 1
        continuations[token] = continuation
        return stream
    }
}

/// A registration made by ``FlowRuntime/observe(_:)``.
public final class FlowObservation {
    private var onCancel: (() -> Void)?

    init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    /// Stops the observation. Calling it again does nothing.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }
}
