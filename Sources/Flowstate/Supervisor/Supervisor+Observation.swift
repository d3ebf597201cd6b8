// Observation: tree events for observers, streams and the logger, made only while someone observes.

extension Supervisor {
    /// Reports a tree event. It is only made (labels formatted) when someone observes or logs.
    func publish(_ make: @autoclosure () -> TreeEvent) {
        guard isObserved else { return }
        let event = make()
        logger?.debug("tree", metadata: ["event": "\(event)"])
        if observers.notify(event) { updateObserved() }
    }

    private func updateObserved() {
        isObserved = logger != nil || !observers.isEmpty
    }

    /// Calls `observer` with every tree event from now on.
    @discardableResult
    public func observe(_ observer: @escaping (TreeEvent) -> Void) -> FlowObservation {
        isObserved = true
        return observers.observe(observer) { [weak self] in self?.updateObserved() }
    }

    /// Tree events from now on, as an asynchronous sequence that ends when the supervisor is
    /// deinitialized. A stream that is dropped (or whose iterating task ends) is removed at the next
    /// event, so it costs nothing after.
    public func events() -> AsyncStream<TreeEvent> {
        isObserved = true
        return observers.makeStream()
    }

    /// How many `events()` streams are registered (for tests).
    package var eventStreamCount: Int { observers.streamCount }
}
