extension FlowRuntime {
    /// Stops the flow: performs the exit effects of every active state, innermost first, through the
    /// handler, exactly once; events sent afterwards are refused (``FlowError/Code/stopped``). Every
    /// scheduled timer is cancelled: none fires afterwards.
    /// Stopping a flow that finished or was stopped does nothing.
    ///
    /// **Re-entrancy.** From inside the handler or an observer it is refused
    /// (``FlowError/Code/reentrantCall``): the step under way must complete first.
    /// - Throws: ``FlowError/Code/reentrantCall``; ``FlowError/Code/effectFailed`` when an exit effect
    ///   fails (the others still run, and the runtime then refuses every event).
    public func stop() throws(FlowError) {
        if isProcessing {
            throw FlowError(code: .reentrantCall,
                            message: "flow '\(machine.definition.name)' cannot be stopped from inside its own handler")
        }
        let exits = machine.stop()
        queue.removeAll()
        timers?.cancelAll()
        defer { finishStreams() }  // no step will follow
        isProcessing = true
        defer { isProcessing = false }
        var firstFailure: FlowError?
        for effect in exits {
            do {
                try handler(effect, self)
            } catch {
                let failure = handlerFailed(effect, error)
                if firstFailure == nil { firstFailure = failure }
            }
        }
        if let firstFailure { throw firstFailure }
    }

    /// Waits until the flow finishes, and returns its typed output (at once if it has finished).
    /// The flow advances as events are sent to the runtime, from its handler or from elsewhere on its
    /// isolation.
    ///
    /// **Cancellation.** When the awaiting task is cancelled, the flow is stopped (``stop()``: its exit
    /// effects performed once) and `CancellationError` is thrown; if an exit effect fails, that
    /// failure (``FlowError/Code/effectFailed``) is thrown instead.
    /// - Throws: `CancellationError`; ``FlowError/Code/stopped`` when the flow is stopped before it
    ///   finishes; ``FlowError/Code/runtimeFailed`` when an effect failed.
    public func output(isolation: isolated (any Actor)? = #isolation) async throws -> F.Output {
        var steps = self.steps().makeAsyncIterator()
        while true {
            if let output = machine.output { return output }
            if machine.isStopped {
                throw FlowError(code: .stopped, message: "flow '\(machine.definition.name)' was stopped before it finished")
            }
            if let failure {
                throw FlowError(code: .runtimeFailed,
                                message: "flow '\(machine.definition.name)' stopped after a failure: \(failure.message)")
            }
            guard await steps.next(isolation: isolation) == nil else { continue }
            // The stream ended: the task was cancelled, or the flow stopped or failed (checked above).
            if Task.isCancelled {
                // Never re-entrant here (a handler cannot await): `stop()` can only fail with an exit
                // effect's failure, which is thrown rather than hidden behind the cancellation.
                if !machine.isFinished && !machine.isStopped { try stop() }
                throw CancellationError()
            }
        }
    }
}
