// Observation: tree events for observers, streams and the logger, made only while someone observes.

extension Supervisor {
    /// Reports a tree event. It is only made (labels formatted) when someone observes or logs.
    func emit(_ make: @autoclosure () -> TreeEvent) {
        guard isObserved else { return }
        let event = make()
        logger?.debug("tree", metadata: ["event": "\(event)"])
        for observer in observers.values { observer(event) }
        var ended: [Int] = []
        for (token, continuation) in continuations {
            if case .terminated = continuation.yield(event) { ended.append(token) }
        }
        if !ended.isEmpty {
            for token in ended { continuations[token] = nil }
            updateObserved()
        }
    }

    private func updateObserved() {
        isObserved = logger != nil || !observers.isEmpty || !continuations.isEmpty
    }

    /// Calls `observer` with every tree event from now on.
    @discardableResult
    public func observe(_ observer: @escaping (TreeEvent) -> Void) -> FlowObservation {
        let token = nextObserver
        nextObserver += 1
        observers[token] = observer
        isObserved = true
        return FlowObservation { [weak self] in
            self?.observers[token] = nil
            self?.updateObserved()
        }
    }

    /// Tree events from now on, as an asynchronous sequence that ends when the supervisor is
    /// deinitialized. A stream that is dropped (or whose iterating task ends) is removed at the next
    /// event, so it costs nothing after.
    public func events() -> AsyncStream<TreeEvent> {
        let (stream, continuation) = AsyncStream<TreeEvent>.makeStream()
        continuations[nextObserver] = continuation
        nextObserver += 1
        isObserved = true
        return stream
    }

    /// How many `events()` streams are registered (for tests).
    @_spi(Testing)
    public var eventStreamCount: Int { continuations.count }
}
