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
        let (endings, continuation) = AsyncStream<MachineEnding<F.Output>>.makeStream()
        var follower = EndingFollower<F.Output>(current: nil, continuation: continuation)
        // The root's identity is known once `start` returns, but the root may finish, fail, be
        // restarted or be torn down while it starts (its entry effects run inside `start`): the events
        // until then are kept, and followed from the root's identity once it is known.
        var early: [TreeEvent] = []
        let observation = observe { event in
            if follower.current == nil { early.append(event) } else { follower.follow(event) }
        }
        defer { observation.cancel() }
        let handle = try start(definition, context: context, policy: policy, handler: handler)
        follower.current = handle.id
        for event in early { follower.follow(event) }
        early = []
        started(handle)
        do {
            return try await Self.ending(endings, of: { follower.current }, flow: definition.name, isolation: isolation)
        } catch is CancellationError {
            if let current = follower.current, contains(current) { stop(current) }
            throw CancellationError()
        }
    }

    /// Waits for the typed output of `machine`, a root, a spawned child or a declared child: the
    /// output of the final state it reaches.
    ///
    /// ```swift
    /// let login = try supervisor.spawn(Login.definition, under: checkout, handler: { _, _ in },
    ///                                  output: { _ in nil })
    /// let account = try await supervisor.output(of: login)
    /// ```
    ///
    /// A machine restarted by its failure policy is followed to its replacement, as
    /// ``run(_:context:policy:isolation:handler:)`` follows its root.
    ///
    /// **Start waiting before driving the machine.** The wait begins when this call runs: from a new
    /// task (`Task { try await supervisor.output(of: child) }`), that is when the task first runs, after
    /// the code that created it yields. A machine that finishes before then has delivered its output
    /// already, and the wait throws ``SupervisorError/Code/machineGone``.
    ///
    /// **Cancellation.** Cancelling the awaiting task ends the wait, not the machine: it throws
    /// `CancellationError` and the machine runs on (``run(_:context:policy:isolation:handler:)``,
    /// which owns the root it starts, stops it).
    ///
    /// **Re-entrancy.** It cannot be called from inside a handler, which is synchronous; an effect
    /// that waits for a child does so in a task (`EffectContext.task`).
    /// - Parameters:
    ///   - machine: The machine; it must be in the tree.
    ///   - isolation: The actor the supervisor is used on (the caller's, by default).
    /// - Returns: The output of the final state the machine reached.
    /// - Throws: ``SupervisorError/Code/machineGone`` when the machine is not in the tree (it was torn
    ///   down, or finished before the call: an output is delivered once, to its parent or its receiver,
    ///   and not kept) or is torn down before it finishes (stopped, failed, its parent left its state,
    ///   its owner released); `CancellationError`.
    public func output<F: Flow>(
        of machine: MachineHandle<F>,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> F.Output {
        guard contains(machine.id) else {
            throw SupervisorError(code: .machineGone,
                                  message: "\(machine.id) is not in the tree: its output was delivered, or it was torn down")
        }
        let (endings, continuation) = AsyncStream<MachineEnding<F.Output>>.makeStream()
        var follower = EndingFollower<F.Output>(current: machine.id, continuation: continuation)
        let observation = observe { event in follower.follow(event) }
        defer { observation.cancel() }
        return try await Self.ending(endings, of: { follower.current }, flow: "\(machine.id)", isolation: isolation)
    }

    /// The first ending of `endings` that is the current incarnation's: its output, or
    /// ``SupervisorError/Code/machineGone`` when it was torn down unfinished; `CancellationError`
    /// when the awaiting task is cancelled (the stream then ends without a result).
    /// Runs on the caller's isolation (`isolation`), where the tree's events are followed: an ending
    /// is judged after the turn that produced it.
    private static func ending<Output>(
        _ endings: AsyncStream<MachineEnding<Output>>, of current: () -> MachineID?, flow: String,
        isolation: isolated (any Actor)?
    ) async throws -> Output {
        for await ending in endings {
            switch ending {
            case .output(let id, let output):
                if id != current() { continue }
                return output
            case .tornDown(let id, let reason):
                if id != current() { continue }  // an incarnation since replaced by a restart
                throw SupervisorError(code: .machineGone, message: "'\(flow)' was torn down (\(reason)) before it finished")
            }
        }
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

/// How a machine that ``Supervisor/run(_:context:policy:isolation:handler:)`` or
/// ``Supervisor/output(of:isolation:)`` waits for ended.
enum MachineEnding<Output: Sendable>: Sendable {
    case output(MachineID, Output)
    case tornDown(MachineID, TeardownReason)
}

/// Follows one machine through the tree's events to its ending: what `run` and `output(of:)` wait
/// for. Tree events say which incarnation is the machine now (a restart names its replacement), when
/// it completes (with its output) and when one is torn down unfinished. A restart tears the old
/// incarnation down, then starts its replacement in the same turn: an ending is judged once the turn
/// is over (by the stream's reader), when the replacement is known.
struct EndingFollower<Output: Sendable> {
    /// The incarnation followed; `nil` until it is known.
    var current: MachineID?
    let continuation: AsyncStream<MachineEnding<Output>>.Continuation

    mutating func follow(_ event: TreeEvent) {
        switch event {
        case .restarted(let old, let replacement) where old == current:
            current = replacement
        case .completed(let id, let output) where id == current:
            if let value = output.as(Output.self) { continuation.yield(.output(id, value)) }
        case .tornDown(let id, let reason) where id == current && reason != .completed:
            continuation.yield(.tornDown(id, reason))
        default:
            break
        }
    }
}
