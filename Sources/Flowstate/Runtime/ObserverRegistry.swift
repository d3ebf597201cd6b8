/// The observers of one kind of value: a ``FlowRuntime``'s steps, a ``Supervisor``'s tree events.
/// Callbacks (``observe(_:onCancel:)``, cancelled through the ``FlowObservation`` it returns) and
/// asynchronous streams (``makeStream()``), each registered under a token of its own.
///
/// The owner keeps its own "is anyone observing" flag, from ``isEmpty`` and whatever else it watches
/// (a logger, timers), and reads it on its hot path: the registry tells it when the flag may have
/// dropped (an observer cancelled, a stream ended).
///
/// **Re-entrancy.** ``notify(_:)`` calls the observers registered when it begins, in registration
/// order, then yields to every stream. An observer may register or cancel observers meanwhile: one
/// registered meanwhile is called from the next value on; one cancelled meanwhile is still called
/// with this value; a stream made meanwhile receives this value. A class, so that an observer that
/// reaches the owner mid-notification touches no value under exclusive access.
final class ObserverRegistry<Value: Sendable> {
    private var observers: [(token: Int, call: (Value) -> Void)] = []
    private var streams: [(token: Int, continuation: AsyncStream<Value>.Continuation)] = []
    private var nextToken = 0

    init() {}

    /// Whether nothing observes: no observer, no stream.
    var isEmpty: Bool { observers.isEmpty && streams.isEmpty }

    /// How many streams are registered (ended ones are dropped at the next value).
    var streamCount: Int { streams.count }

    /// Calls `observer` with every value notified from now on, until the returned observation is
    /// cancelled (then `onCancel` runs, for the owner's flag) or the registry ends.
    func observe(_ observer: @escaping (Value) -> Void, onCancel: @escaping () -> Void) -> FlowObservation {
        let token = nextToken
        nextToken += 1
        observers.append((token, observer))
        return FlowObservation { [weak self] in
            guard let self else { return }
            self.observers.removeAll { $0.token == token }
            onCancel()
        }
    }

    /// A stream of every value notified from now on; it ends at ``finishStreams()``.
    func makeStream() -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream()
        streams.append((nextToken, continuation))
        nextToken += 1
        return stream
    }

    /// Calls every observer with `value`, then yields it to every stream; a stream whose consumer is
    /// gone (dropped, or its task ended) is removed.
    /// - Returns: Whether a stream was removed (the owner's flag may have dropped).
    func notify(_ value: Value) -> Bool {
        let called = observers  // observers may register or cancel observers meanwhile
        for observer in called { observer.call(value) }
        var ended: [Int] = []
        for stream in streams {
            if case .terminated = stream.continuation.yield(value) { ended.append(stream.token) }
        }
        guard !ended.isEmpty else { return false }
        streams.removeAll { ended.contains($0.token) }
        return true
    }

    /// Ends every stream: no value will follow (the owner stopped, failed or is going away).
    func finishStreams() {
        let finished = streams
        streams.removeAll()
        for stream in finished { stream.continuation.finish() }
    }
}

/// A registration made by ``FlowRuntime/observe(_:)`` or ``Supervisor/observe(_:)``.
public final class FlowObservation {
    private var onCancel: (() -> Void)?

    init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    /// Stops the observation. Calling it again does nothing.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }
}
