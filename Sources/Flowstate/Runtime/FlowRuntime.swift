import DequeModule
import Logging

/// A small host around a ``FlowMachine``: it performs each step's effects through a handler and
/// gives the machine run-to-completion semantics.
///
/// Events sent while a step is being processed (typically by the effect handler itself) are queued
/// and handled after the step completes, in FIFO order: the handler is never re-entered. ``start()``
/// from inside a step is refused (``FlowError/Code/reentrantCall``). Every step
/// is passed to observers (``observe(_:)``, ``steps()``) and, when a `Logger` is given, logged at
/// debug level.
///
/// A runtime is not `Sendable`: it lives in one isolation domain (for a coordinator, the main
/// actor) and the compiler keeps it there.
///
/// **Delayed transitions.** The runtime schedules the timers a step arms (``After``) on its clock
/// (`ContinuousClock` unless another is given) and cancels those a step cancels, and all of them when
/// it stops or fails. A due timer fires as a job of its own on the actor the runtime was created on,
/// never inside a step: a step, with the events its handler queued, completes before any timer's step
/// (a timer that comes due meanwhile waits for it), and a timer whose state was left before it fired
/// is never delivered. A timer's step goes to observers like any other. A timer whose step throws
/// (an eventless loop) is not fired again, as an event whose step throws is not sent again: the
/// machine is unchanged and still lists it in `armedTimers` until its state is left.
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
    /// event is queued until the current step's effects are all performed. (A supervised machine's
    /// handler, given an ``EffectContext``, is the top-level ``Flowstate/EffectHandler``.)
    public typealias RuntimeHandler = (F.Effect, FlowRuntime<F>) throws -> Void

    @usableFromInline @exclusivity(unchecked) var machine: FlowMachine<F>
    @usableFromInline let handler: RuntimeHandler
    private let logger: Logger?
    /// The mailbox: events sent while a step is processed, delivered in FIFO order after it.
    @usableFromInline @exclusivity(unchecked) var queue = Deque<F.Event>()
    @usableFromInline @exclusivity(unchecked) var isProcessing = false
    @usableFromInline @exclusivity(unchecked) var failure: FlowError?
    /// Whether anyone observes steps (observers, streams or a logger): the direct path is taken otherwise.
    @usableFromInline @exclusivity(unchecked) var isObserved: Bool
    /// For a flow with delayed transitions, its timers (nil for a flow without: it pays nothing).
    var timers: FlowRuntimeTimers<F>?
    /// Who observes steps (``observe(_:)``, ``steps()``).
    private let observers = ObserverRegistry<FlowStep<F>>()

    /// Creates a runtime for a definition.
    /// - Parameters:
    ///   - definition: The flow to run; it must be valid.
    ///   - context: The flow's context; `nil` for the definition's ``FlowDefinition/initialContext``.
    ///   - logger: Where steps are logged at debug level; `nil` logs nothing.
    ///   - clock: The clock delayed transitions (``After``) wait on; `ContinuousClock` by default. A
    ///     test passes a clock it advances itself.
    ///   - isolation: The actor the runtime lives on (the caller's, by default): timers fire there.
    ///   - handler: Performs effects, in order.
    /// - Throws: ``FlowError/Code/invalidDefinition``; ``FlowError/Code/noIsolation`` for a flow with
    ///   delayed transitions created outside any actor.
    public init(_ definition: FlowDefinition<F>, context: F.Context? = nil, logger: Logger? = nil,
                clock: any Clock<Duration> = ContinuousClock(), isolation: isolated (any Actor)? = #isolation,
                handler: @escaping RuntimeHandler) throws(FlowError) {
        self.machine = try FlowMachine(definition, context: context ?? definition.initialContext)
        self.handler = handler
        self.logger = logger
        if definition.table.hasDelays {
            guard let isolation else {
                throw FlowError(code: .noIsolation,
                                message: "flow '\(definition.name)' has delayed transitions: create its runtime on an "
                                    + "actor (the main actor, for a coordinator), where its timers can fire")
            }
            self.timers = FlowRuntimeTimers(clock: clock, isolation: isolation)
        }
        // A flow with delayed transitions takes the observed path: its steps' timers are scheduled there.
        self.isObserved = logger != nil || timers != nil
    }

    deinit {
        observers.finishStreams()
        timers?.cancelAll()
    }

    /// The current state.
    public var state: F.State { machine.state }
    /// Whether the flow has reached a final state.
    public var isFinished: Bool { machine.isFinished }
    /// The flow's output, once it has finished.
    public var output: F.Output? { machine.output }
    /// The flow's context, as the updates of the transitions taken so far have changed it.
    public var context: F.Context { machine.context }
    /// The events waiting to be processed.
    public var pendingEvents: Int { queue.count }
    /// The definition the runtime runs (for the testing kit, which checks steps against it).
    package var definition: FlowDefinition<F> { machine.definition }
    /// Whether `state` is active (see `FlowMachine.isActive(_:)`).
    package func isActive(_ state: F.State) -> Bool { machine.isActive(state) }

    /// Starts the machine and performs its entry effects, then every event the handler sent meanwhile.
    /// - Returns: The start's step (the steps of queued events go to observers).
    /// - Throws: ``FlowError/Code/alreadyStarted``; ``FlowError/Code/reentrantCall`` when called from
    ///   inside the handler or an observer (the queue is left as it is); the first error met otherwise.
    @discardableResult
    public func start() throws(FlowError) -> FlowStep<F> {
        if isProcessing {
            throw FlowError(code: .reentrantCall,
                            message: "flow '\(machine.definition.name)' cannot be started from inside its own handler")
        }
        return try process { machine throws(FlowError) in try machine.start() }
    }

    /// Sends an event. Outside a step it is processed now, followed by every event queued meanwhile.
    /// Inside a step (from the handler or an observer) it is queued: the handler is never re-entered.
    /// Observers (``observe(_:)``, ``steps()``) see every step; a machine's steps are also what
    /// ``FlowMachine/send(_:)`` returns, for code that needs them without a host.
    /// - Throws: The first ``FlowError`` met while processing. Events after a failed one are still
    ///   processed, unless the effect handler failed: then the runtime stops
    ///   (``FlowError/Code/effectFailed``), drops what is queued, and refuses further events
    ///   (``FlowError/Code/runtimeFailed``).
    @inlinable
    public func send(_ event: F.Event) throws(FlowError) {
        // The direct path: nobody observes, nothing is queued, no failure: one step, its effects.
        if !isProcessing, !isObserved, failure == nil {
            isProcessing = true
            let effects: FlowEffects<F.Effect>
            do throws(FlowError) {
                effects = try machine.send(event).effects
            } catch {
                isProcessing = false
                throw error
            }
            for effect in effects {
                do {
                    try handler(effect, self)
                } catch {
                    isProcessing = false
                    throw handlerFailed(effect, error)
                }
            }
            isProcessing = false
            if !queue.isEmpty { try drainQueued() }
            return
        }
        if failure != nil || isProcessing { return try enqueueOrRefuse(event) }
        try sendObserved(event)
    }

    /// A send outside a step when someone observes.
    @usableFromInline
    func sendObserved(_ event: F.Event) throws(FlowError) {
        _ = try process { machine throws(FlowError) in try machine.send(event) }
    }

    @usableFromInline
    func enqueueOrRefuse(_ event: F.Event) throws(FlowError) {
        if let failure {
            throw FlowError(code: .runtimeFailed,
                            message: "flow '\(machine.definition.name)' stopped after a failure: \(failure.message)")
        }
        queue.append(event)
    }

    /// The events queued by the handler during a direct step.
    @usableFromInline
    func drainQueued() throws(FlowError) {
        let event = queue.removeFirst()
        _ = try process { machine throws(FlowError) in try machine.send(event) }
    }

    @usableFromInline
    func handlerFailed(_ effect: F.Effect, _ error: any Error) -> FlowError {
        let failure = FlowError(
            code: .effectFailed,
            message: "effect '\(effect)' of flow '\(machine.definition.name)' failed in state "
                + "'\(machine.state)': \(error)")
        self.failure = failure
        queue.removeAll()
        timers?.cancelAll()
        finishStreams()  // the runtime refuses every event from now on: no step will follow
        return failure
    }

    /// Ends every ``steps()`` stream: no step will follow (the runtime stopped or failed).
    @usableFromInline
    func finishStreams() {
        observers.finishStreams()
        updateObserved()
    }

    private func process(_ first: (inout FlowMachine<F>) throws(FlowError) -> FlowStep<F>) throws(FlowError) -> FlowStep<F> {
        isProcessing = true
        defer { isProcessing = false }
        var result: FlowStep<F>?
        var firstError: FlowError?
        do throws(FlowError) {
            result = try perform(first(&machine))
        } catch {
            if failure != nil { throw error }
            firstError = error
        }
        while true {
            let event = queue.popFirst()
            // A timer delivered while the step was under way fires once its queued events are done.
            let timer = event == nil ? timers?.takeDue() : nil
            guard event != nil || timer != nil else { break }
            do throws(FlowError) {
                if let event {
                    _ = try perform(machine.send(event))
                } else if let timer {
                    _ = try perform(machine.fire(timer))
                }
            } catch {
                if failure != nil { throw error }
                logger?.debug("flow event failed", metadata: ["flow": "\(machine.definition.name)",
                                                              "event": "\(event.map { "\($0)" } ?? "\(timer!)")",
                                                              "error": "\(error)"])
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
        return result!
    }

    private func perform(_ step: FlowStep<F>) throws(FlowError) -> FlowStep<F> {
        timers?.apply(step.timers, for: self)
        if isObserved {
            logger?.debug("flow step", metadata: ["flow": "\(machine.definition.name)", "step": "\(step)"])
            if observers.notify(step) { updateObserved() }
        }
        for effect in step.effects {
            do {
                try handler(effect, self)
            } catch {
                throw handlerFailed(effect, error)
            }
        }
        return step
    }

    private func updateObserved() {
        isObserved = logger != nil || !observers.isEmpty || timers != nil
    }

    /// The sleeping task woke (on the runtime's actor): fires every timer then due, in the order they
    /// came due; while a step is under way, once the step is done. A timer cancelled meanwhile is not
    /// among them.
    func wake(_ number: UInt64) {
        guard let timers else { return }
        timers.wake(number, for: self)
        guard !isProcessing, failure == nil, let due = timers.takeDue() else { return }
        do throws(FlowError) {
            // `process` fires the other due timers after this one (and after the events its step queues).
            _ = try process { machine throws(FlowError) in try machine.fire(due) }
        } catch {
            logger?.debug("flow timer failed", metadata: ["flow": "\(machine.definition.name)",
                                                          "timer": "\(due)", "error": "\(error)"])
        }
    }

    /// The timers scheduled on the runtime's clock and not yet fired or cancelled (for tests).
    package var scheduledTimers: [FlowTimer] { timers?.scheduledTimers ?? [] }

    /// Calls `observer` with every step from now on, before the step's effects are performed.
    /// - Returns: A token; the observation lasts until ``FlowObservation/cancel()`` or the runtime ends.
    @discardableResult
    public func observe(_ observer: @escaping (FlowStep<F>) -> Void) -> FlowObservation {
        isObserved = true
        return observers.observe(observer) { [weak self] in self?.updateObserved() }
    }

    /// The steps from now on, as an asynchronous sequence. It finishes when the runtime stops
    /// (``stop()``), fails, or is deinitialized; a stream that is dropped is removed at the next step.
    public func steps() -> AsyncStream<FlowStep<F>> {
        isObserved = true
        return observers.makeStream()
    }
}

