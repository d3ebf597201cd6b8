extension Supervisor {
    /// Starts `definition` as a root machine and waits for its typed output.
    ///
    /// ```swift
    /// let supervisor = Supervisor()
    /// let output = try await supervisor.run(Leaf.definition) { effect, context in
    ///     print(effect)  // perform it: show a screen, call a service, send context an event
    /// }
    /// ```
    ///
    /// The machine is an ordinary root of the tree while it runs: find it in ``machines`` (its
    /// handle through ``handle(of:as:)``), send it events, snapshot it; its handler sends events to it
    /// through its `EffectContext`. A root restarted by its failure policy is followed to its
    /// replacement.
    ///
    /// **Cancellation.** When the awaiting task is cancelled, the machine is stopped with its normal
    /// teardown (children first, exit effects once, reason `.stopped`) on the supervisor's isolation,
    /// and `CancellationError` is thrown.
    ///
    /// **Re-entrancy.** Like ``start(_:context:policy:onTeardown:output:handler:)``; it cannot be called from
    /// inside a handler, which is synchronous.
    /// - Returns: The output of the final state the root reached.
    /// - Throws: What `start` throws; ``SupervisorError/Code/machineGone`` when the root is torn down
    ///   before it finishes (stopped, failed, its owner released); `CancellationError`.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - context: The machine's context; `nil` for the definition's ``FlowDefinition/initialContext``.
    ///     A restart starts again from it.
    ///   - policy: What to do when its handler throws.
    ///   - isolation: The actor the supervisor is used on (the caller's, by default).
    ///   - handler: Performs the machine's effects (and its declared children's, mapped).
    public func run<F: Flow>(
        _ definition: FlowDefinition<F>,
        context: F.Context? = nil,
        policy: FailurePolicy = .escalate,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping EffectHandler<F>
    ) async throws -> F.Output {
        try await run(definition, context: context, policy: policy, isolation: isolation, handler: handler,
                      started: { _ in })
    }

    /// ``run(_:context:policy:isolation:handler:)``, telling `started` the root's handle as soon as it
    /// is in the tree (before any await): to send it the events that drive it, or to keep records of
    /// it (the coordinator routes the user's navigation to it).
    ///
    /// ```swift
    /// let output = try await supervisor.run(Leaf.definition) { effect, _ in
    ///     print(effect)
    /// } started: { leaf in
    ///     try? supervisor.send(.next, to: leaf)  // a -> b
    ///     try? supervisor.send(.next, to: leaf)  // b -> done: its output is returned
    /// }
    /// ```
    ///
    /// `started` cannot throw, hence the `try?`: a send there fails only when the root is already
    /// gone (it finished or was torn down while starting), and `run` itself then returns its output
    /// or throws ``SupervisorError/Code/machineGone``, so nothing is lost.
    /// - Returns: The output of the final state the root reached.
    /// - Throws: What ``run(_:context:policy:isolation:handler:)`` throws.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - context: The machine's context; `nil` for the definition's ``FlowDefinition/initialContext``.
    ///     A restart starts again from it.
    ///   - policy: What to do when its handler throws.
    ///   - isolation: The actor the supervisor is used on (the caller's, by default).
    ///   - handler: Performs the machine's effects (and its declared children's, mapped).
    ///   - started: Called once, with the root's handle, after its start (whether it is still
    ///     running or not).
    public func run<F: Flow>(
        _ definition: FlowDefinition<F>,
        context: F.Context? = nil,
        policy: FailurePolicy = .escalate,
        isolation: isolated (any Actor)? = #isolation,
        handler: @escaping EffectHandler<F>,
        started: (MachineHandle<F>) -> Void
    ) async throws -> F.Output {
        let (endings, continuation) = AsyncStream<RootEnding<F.Output>>.makeStream()
        var current: MachineID?
        // Tree events say which incarnation is the root now, and when one is torn down unfinished. A
        // restart tears the old incarnation down, then starts its replacement in the same turn: the
        // teardown is judged once the turn is over, when the replacement is known.
        func follow(_ event: TreeEvent) {
            switch event {
            case .restarted(let old, let replacement) where old == current:
                current = replacement
            case .tornDown(let id, let reason) where id == current && reason != .completed:
                continuation.yield(.tornDown(id, reason))
            default:
                break
            }
        }
        // The root's identity is known once `start` returns, but the root may fail, be restarted or
        // be torn down while it starts (its entry effects run inside `start`): the events until then
        // are kept, and followed from the root's identity once it is known.
        var early: [TreeEvent] = []
        let observation = observe { event in
            if current == nil { early.append(event) } else { follow(event) }
        }
        defer { observation.cancel() }
        let handle = try start(definition, context: context, policy: policy, output: { output in
            continuation.yield(.output(output))
            continuation.finish()
        }, handler: handler)
        current = handle.id
        for event in early { follow(event) }
        early = []
        started(handle)
        for await ending in endings {
            switch ending {
            case .output(let output):
                return output
            case .tornDown(let id, let reason):
                if id != current { continue }  // an incarnation since replaced by a restart
                throw SupervisorError(code: .machineGone,
                                      message: "'\(definition.name)' was torn down (\(reason)) before it finished")
            }
        }
        // The stream ends without a result only when the awaiting task is cancelled.
        if let current, contains(current) { stop(current) }
        throw CancellationError()
    }

    /// The live machine that `parent` runs in its state `state` (a child declared with
    /// `StateNode(_:runs:)`), typed; `nil` when the state is not active, its child was stopped, or the
    /// child runs another flow.
    ///
    /// A handle names one incarnation: after the child is restarted by its failure policy, or spawned
    /// again when the state is entered again, this handle is gone (calls through it throw
    /// ``SupervisorError/Code/machineGone``, and ``contains(_:)`` is false); ask again for the
    /// current one.
    public func declaredChild<P: Flow, C: Flow>(
        of parent: MachineHandle<P>, in state: P.State, as flow: C.Type = C.self
    ) -> MachineHandle<C>? {
        guard let parentSlot = slot(of: parent.id),
              let stateIndex = box(parentSlot).described.stateIndex(labelled: String(describing: state)) else { return nil }
        for child in core.children(of: parentSlot) where core[child].parentState == Int32(stateIndex) {
            guard box(child) is MachineBox<C> else { return nil }
            return MachineHandle(id: core.id(of: child))
        }
        return nil
    }
}

/// How a root that ``Supervisor/run(_:context:policy:isolation:handler:)`` waits for ended.
enum RootEnding<Output: Sendable>: Sendable {
    case output(Output)
    case tornDown(MachineID, TeardownReason)
}
