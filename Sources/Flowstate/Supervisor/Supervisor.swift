import DequeModule
import Logging

// Exclusivity: the hot stored properties are `@exclusivity(unchecked)`. No user code runs while one
// of them is being accessed (handlers, hooks and observers are called between accesses, and guards
// are `@Sendable` closures that cannot reach the supervisor), so the dynamic checks could never fire;
// they cost a third of a send (measured with callgrind).

/// Runs a tree of flow machines: roots you start, children their states declare (``ChildFlow``), and
/// children you spawn bound to a ``FlowLifetime``. Teardown is deterministic: children before their
/// parent, siblings in reverse spawn order, each machine's exit effects and teardown hook exactly once,
/// and a subtree's teardown completes before the next queued event is processed.
///
/// ## Isolation
/// A supervisor is not `Sendable`: it lives in the isolation domain that created it (on iOS, the main
/// actor) and is used there synchronously; the compiler keeps it there. To drive one tree from many
/// tasks, own the supervisor in an actor and call it through the actor. Asynchronous effects
/// (``EffectContext/run(_:)``) run off that domain and deliver their result back to it, through the
/// queue, which is why the supervisor remembers the isolation it was created in.
///
/// ## Run to completion and re-entrancy
/// All machines of the tree share one FIFO queue. A step (an event, a start, a stop) is processed
/// completely, with every teardown, spawn and restart it causes, before the next queued message. A
/// handler, hook or observer is never re-entered, and a step never continues on a machine that was torn
/// down. Calls made from inside a handler, a teardown hook or an observer (while a step is being
/// processed) behave as follows:
///
/// | Call | Inside a step |
/// | --- | --- |
/// | ``send(_:to:)`` | Queued; delivered after the step, in FIFO order. |
/// | ``stop(_:)-(MachineID)``, ``sweep()`` | Queued; performed after the step, in FIFO order; returns an empty record. |
/// | ``start(_:context:policy:onTeardown:output:handler:)``, ``spawn(_:under:context:owner:policy:onTeardown:handler:failure:output:)`` | The handle is returned at once; the machine is started after the step, in FIFO order. Spawning under a machine being torn down is refused (``SupervisorError/Code/machineGone``). |
/// | ``snapshot()``, ``restore(_:definition:policy:handler:)`` | Refused with ``SupervisorError/Code/reentrantCall``: the tree is mid-step. |
/// | Inspection (``machines``, ``state(of:)``, ...) | Allowed: it reads the tree as it is mid-step. |
/// | ``observe(_:)``, ``events()`` | Allowed: the observer sees the events emitted from then on. |
public final class Supervisor {
    @exclusivity(unchecked) var core: SupervisorCore
    /// The machines, by slot (parallel to the core's nodes).
    @exclusivity(unchecked) var boxes: [AnyMachineBox?] = []
    /// Whether a step is being processed: calls from user code are queued or refused.
    @usableFromInline @exclusivity(unchecked) var isProcessing = false
    /// Whether anyone observes tree events (observers, streams or a logger): labels are made only then.
    @usableFromInline @exclusivity(unchecked) var isObserved = false
    /// The weak reference every effect context shares.
    @usableFromInline let link = SupervisorLink()
    /// Owner lifetimes report the machines they owned here when they are deallocated.
    @usableFromInline let inbox = ReleaseInbox()
    /// Starts of declared children and restarts: processed before the mailbox, last pushed first.
    var urgent: [Message] = []
    @usableFromInline @exclusivity(unchecked) var mailbox = Deque<Message>()
    /// A failure met by a step performed on the direct path, handled once the step returns.
    @exclusivity(unchecked) var directFailures: [EffectFailure] = []
    private var nextTask: UInt64 = 1
    private var observers: [Int: (TreeEvent) -> Void] = [:]
    private var continuations: [Int: AsyncStream<TreeEvent>.Continuation] = [:]
    private var nextObserver = 0
    private let logger: Logger?
    private let now: () -> Duration
    /// The isolation the supervisor was created in. An actor is held weakly (the actor that owns a
    /// supervisor must not be kept alive by it); the main actor, global and immortal, is remembered as
    /// a flag (a weak reference to it would allocate a side table that is never freed).
    var isolation: (any Actor)? { isolatedToMainActor ? MainActor.shared : weakIsolation }
    private weak var weakIsolation: (any Actor)?
    private let isolatedToMainActor: Bool

    @usableFromInline
    enum Message {
        case event(MachineID, Any)
        case start(MachineID)
        case stop(MachineID, TeardownReason)
        case asyncFailure(MachineID, EffectFailure)
        case sweep
    }

    /// Creates an empty supervisor in the caller's isolation domain.
    /// - Parameters:
    ///   - logger: Where tree events are logged at debug level.
    ///   - now: The clock restart windows are measured with (tests pass a manual one); defaults to
    ///     a monotonic clock.
    ///   - isolation: The actor the supervisor is used on (the caller's, by default); async effects
    ///     deliver their results there.
    public init(logger: Logger? = nil, now: (() -> Duration)? = nil,
                isolation: isolated (any Actor)? = #isolation) {
        self.logger = logger
        core = SupervisorCore(scope: UInt64.random(in: 1...UInt64.max))
        if let now {
            self.now = now
        } else {
            let clock = ContinuousClock()
            let origin = clock.now
            self.now = { origin.duration(to: clock.now) }
        }
        if let isolation, isolation === MainActor.shared {
            isolatedToMainActor = true
        } else {
            isolatedToMainActor = false
            weakIsolation = isolation
        }
        isObserved = logger != nil
        link.supervisor = self
    }

    deinit {
        for box in boxes {
            for task in box?.extras?.tasks.values ?? [:].values { task.cancel() }
        }
        for continuation in continuations.values { continuation.finish() }
    }

    // MARK: Processing

    /// Runs `body` as one turn: sweeps released owners first, then `body`, then everything queued.
    /// Only called when no step is being processed. It throws only what `body` throws (nothing for a
    /// body that cannot fail).
    private func turn<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        precondition(!isProcessing, "a turn never starts inside a step")
        isProcessing = true
        defer { isProcessing = false }
        sweepReleased()
        let result: T
        do throws(E) {
            result = try body()
        } catch {
            drain()
            throw error
        }
        drain()
        return result
    }

    /// Brings the tree up to date before a read: machines whose owner is gone are torn down.
    /// Inside a step it does nothing (the sweep happens once the step completes).
    private func settleForReading() {
        guard !isProcessing, !inbox.released.isEmpty else { return }
        turn {}
    }

    private func drain() {
        while true {
            if !inbox.released.isEmpty {
                sweepReleased()
            } else if let message = urgent.popLast() {
                handle(message)
            } else if let message = mailbox.popFirst() {
                handle(message)
            } else {
                return
            }
        }
    }

    private func handle(_ message: Message) {
        switch message {
        case .event(let id, let event):
            guard let slot = core.slot(of: id), core[slot].lifecycle == .running else {
                emit(.dropped(id, what: "event '\(event)'"))
                return
            }
            do throws(FlowError) {
                try deliver(event, to: slot)
            } catch {
                emit(.refused(id, event: "\(event)", error: error))
                logger?.debug("queued event refused", metadata: ["machine": "\(id)", "error": "\(error)"])
            }
        case .start(let id):
            guard let slot = core.slot(of: id), core[slot].lifecycle == .pending else { return }
            do throws(FlowError) {
                try begin(slot)
            } catch {
                failWhileStarting(slot, error)
            }
        case .stop(let id, let reason):
            if let slot = core.slot(of: id) {
                var record = TeardownRecord()
                tearDown(slot, reason: reason, record: &record)
            }
        case .asyncFailure(let origin, let failure):
            guard let slot = core.slot(of: origin), core[slot].lifecycle == .running else {
                emit(.dropped(origin, what: "async error '\(failure.message)'"))
                return
            }
            fail(slot, failure, whileStarting: false)
        case .sweep:
            sweepReleased()
        }
    }

    // MARK: Starting

    /// Starts a root machine and performs its entry effects (and its declared children's).
    ///
    /// Called from inside a step, the handle is returned at once and the machine starts after the step.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - context: The machine's context; `nil` for the definition's ``FlowDefinition/initialContext``.
    ///     A restart starts again from it.
    ///   - policy: What to do when its handler throws. A root that escalates stops its tree.
    ///   - onTeardown: Called exactly once, when the machine is torn down.
    ///   - output: Receives the flow's output, typed, when it reaches a final state (after its
    ///     teardown, inside the step: calls it makes to the supervisor follow the re-entrancy rules).
    ///   - handler: Performs the machine's effects (and its declared children's, mapped).
    /// - Throws: ``SupervisorError/Code/invalidDefinition``; ``SupervisorError/Code/stepFailed`` when
    ///   the machine cannot start (an eventless loop): nothing is left in the tree then.
    @inlinable
    @discardableResult
    public func start<F: Flow>(
        _ definition: FlowDefinition<F>,
        context: F.Context? = nil,
        policy: FailurePolicy = .escalate,
        onTeardown: ((TeardownReason) -> Void)? = nil,
        output: ((F.Output) -> Void)? = nil,
        handler: @escaping EffectHandler<F>
    ) throws(SupervisorError) -> MachineHandle<F> {
        let box = try MachineBox<F>(fresh: definition, context: context, route: .handler(handler), policy: policy,
                                    onTeardown: onTeardown)
        if let output { box.setRootOutput { output($0 as! F.Output) } }
        return MachineHandle(id: try launch(box, parent: -1))
    }

    /// Spawns a child machine under `parent`, bound to `owner`'s lifetime: when `owner` is deallocated,
    /// the child's subtree is torn down before the supervisor's next call observes the tree.
    ///
    /// Outside a step, the child starts now: its start effects are performed by `handler` and its
    /// declared children spawned before this returns. Called from inside a step (from a handler, hook
    /// or observer), the handle is returned at once and the machine starts after the step, in FIFO
    /// order. The child is torn down when `owner` goes, when its parent is torn down or finishes, when
    /// it reaches a final state (after `output` maps its output), or when it is stopped; `onTeardown`
    /// is called once, then.
    ///
    /// ```swift
    /// let lifetime = FlowLifetime()             // kept by the screen the child shows
    /// let child = try supervisor.spawn(SignUp.definition, under: launch, owner: lifetime,
    ///                                  handler: { effect, _ in show(effect) },
    ///                                  output: { $0 == .signedUp ? .accountCreated : .accountCancelled })
    /// ```
    /// - Parameters:
    ///   - definition: The child flow; it must be valid.
    ///   - parent: The machine the child runs under; its output becomes this machine's event.
    ///   - context: The child's context; `nil` for the definition's ``FlowDefinition/initialContext``.
    ///     A restart starts again from it.
    ///   - owner: The lifetime that bounds the child (on iOS, kept by the flow's root view
    ///     controller). Held weakly. `nil` binds the child only to its parent.
    ///   - policy: What to do when its handler throws.
    ///   - onTeardown: Called exactly once, when the child is torn down.
    ///   - handler: Performs the child's effects.
    ///   - failure: The parent event that reports the child's failure; `nil` lets it escalate.
    ///   - output: The parent event that reports the child's output (`nil`: none). Called inside the
    ///     step that finished the child, after its teardown.
    /// - Returns: The child's handle, valid until the child is torn down (then calls with it throw
    ///   ``SupervisorError/Code/machineGone``).
    /// - Throws: ``SupervisorError/Code/machineGone`` if `parent` is gone or being torn down;
    ///   ``SupervisorError/Code/invalidDefinition``; ``SupervisorError/Code/stepFailed`` when the child
    ///   cannot start.
    @inlinable
    @discardableResult
    public func spawn<C: Flow, P: Flow>(
        _ definition: FlowDefinition<C>,
        under parent: MachineHandle<P>,
        context: C.Context? = nil,
        owner: FlowLifetime? = nil,
        policy: FailurePolicy = .escalate,
        onTeardown: ((TeardownReason) -> Void)? = nil,
        handler: @escaping EffectHandler<C>,
        failure: (@Sendable (SupervisionFailure) -> P.Event?)? = nil,
        output: @escaping @Sendable (C.Output) -> P.Event?
    ) throws(SupervisorError) -> MachineHandle<C> {
        let parentSlot = try livingParent(parent.id)
        let box = try MachineBox<C>(
            fresh: definition, context: context, route: .handler(handler), policy: policy,
            mapOutput: { output($0 as! C.Output) }, mapFailure: failure.map { map in { map($0) } },
            onTeardown: onTeardown, lifetime: owner)
        return MachineHandle(id: try launch(box, parent: parentSlot))
    }

    /// The slot of a parent that can take a child (after sweeping), or ``SupervisorError/Code/machineGone``.
    @usableFromInline
    func livingParent(_ id: MachineID) throws(SupervisorError) -> Int32 {
        settleForReading()
        guard let slot = core.slot(of: id), core[slot].lifecycle != .stopping else {
            throw gone(id, "spawn a child under")
        }
        return slot
    }

    /// Starts a new box: on the direct path (its typed start specialized in the caller's module) when
    /// nothing is in progress, nobody observes and the flow declares no children; otherwise through
    /// the general path.
    @inlinable
    func launch<F: Flow>(_ box: MachineBox<F>, parent: Int32) throws(SupervisorError) -> MachineID {
        guard let id = try beginDirectLaunch(box, parent: parent) else { return try launch(erased: box, parent: parent) }
        let summary: StepSummary
        do throws(FlowError) {
            summary = try box.startDirect(supervisor: self)
        } catch {
            abandonDirectLaunch(id)
            throw SupervisorError(code: .stepFailed, message: error.message, underlying: error)
        }
        completeDirect(box, summary: summary, starting: true)
        return id
    }

    /// Opens a turn and puts the box in the tree, running, if the direct path applies; `nil` if not.
    @usableFromInline
    func beginDirectLaunch(_ box: AnyMachineBox, parent: Int32) throws(SupervisorError) -> MachineID? {
        guard !isProcessing, !isObserved, inbox.released.isEmpty, mailbox.isEmpty, urgent.isEmpty,
              !box.declaresChildren, box.ownHandler else { return nil }
        if parent >= 0, core[parent].serial == 0 || core[parent].lifecycle == .stopping {
            throw SupervisorError(code: .machineGone, message: "cannot spawn '\(box.flowName)': its parent is gone")
        }
        isProcessing = true
        let id = insert(box, parent: parent, stateSlot: -1)
        core.setLifecycle(.running, of: id.slot)
        return id
    }

    /// The machine's start failed in the engine: it leaves the tree as if it never came.
    @usableFromInline
    func abandonDirectLaunch(_ id: MachineID) {
        if let slot = core.slot(of: id) { discard(slot) }
        directFailures.removeAll()
        isProcessing = false
    }

    /// Puts a new box in the tree and starts it: now (in a turn of its own) or, inside a step, queued.
    @usableFromInline
    func launch(erased box: AnyMachineBox, parent: Int32) throws(SupervisorError) -> MachineID {
        if isProcessing {
            let id = insert(box, parent: parent, stateSlot: -1)
            mailbox.append(.start(id))
            return id
        }
        return try turn { () throws(SupervisorError) -> MachineID in
            // The sweep at the start of the turn may have torn the parent down.
            if parent >= 0, core[parent].serial == 0 || core[parent].lifecycle == .stopping {
                throw SupervisorError(code: .machineGone, message: "cannot spawn '\(box.flowName)': its parent is gone")
            }
            let id = insert(box, parent: parent, stateSlot: -1)
            let slot = id.slot
            do throws(FlowError) {
                try begin(slot)
            } catch {
                discard(slot)
                throw SupervisorError(code: .stepFailed, message: error.message, underlying: error)
            }
            return id
        }
    }

    /// Gives a box an identity and a place in the tree (last among its siblings, or after `after`).
    private func insert(_ box: AnyMachineBox, parent: Int32, stateSlot: Int32, after: Int32? = nil) -> MachineID {
        let slot = core.insert(parent: parent, stateSlot: stateSlot, lifecycle: .pending, after: after)
        if Int(slot) == boxes.count { boxes.append(box) } else { boxes[Int(slot)] = box }
        let id = core.id(of: slot)
        box.id = id
        box.lifetime?.register(id, in: inbox)
        if box.ownerBound && box.lifetime == nil { inbox.released.append(id) }  // its owner is already gone
        return id
    }

    /// Removes a machine that never started (its start failed), with whatever was spawned under it.
    private func discard(_ slot: Int32) {
        for s in core.teardownOrder(of: slot) {
            boxes[Int(s)] = nil
            core.remove(s)
        }
    }

    /// Starts a pending machine: performs its entry effects and spawns the children its states declare.
    private func begin(_ slot: Int32) throws(FlowError) {
        let outcome = try boxes[Int(slot)]!.start(in: self, slot: slot)
        afterStep(slot, outcome, starting: true)
    }

    /// What the supervisor does while a box takes a step, before the step's effects: a started
    /// machine is marked running and reported; a moved one is reported, and the children of the
    /// states it left are torn down (children of states being left go first, in reverse spawn order).
    func stepTaken(_ slot: Int32, summary: StepSummary, describe: () -> StepDescription) {
        let box = boxes[Int(slot)]!
        if summary.from < 0 {
            core.setLifecycle(.running, of: slot)
            if isObserved {
                let parent = core[slot].parent
                let description = describe()
                emit(.spawned(box.id, flow: box.flowName, parent: parent >= 0 ? core.id(of: parent) : nil,
                              state: description.to, transitions: description.transitions))
            }
            return
        }
        guard summary.moved else { return }
        if isObserved {
            let description = describe()
            emit(.transitioned(box.id, from: description.from, to: description.to, event: description.event,
                               transitions: description.transitions))
        }
        guard box.declaresChildren else { return }
        var child = core[slot].lastChild
        while child >= 0 {
            let previous = core[child].previous
            let stateSlot = core[child].stateSlot
            if stateSlot >= 0 && (summary.kind == .finished || !box.isActive(Int(stateSlot))) {
                var record = TeardownRecord()
                tearDown(child, reason: .parentLeftState, record: &record)
            }
            child = previous
        }
    }

    /// A queued start failed in the engine (an eventless loop): a failure of the machine, while starting.
    private func failWhileStarting(_ slot: Int32, _ error: FlowError) {
        let box = boxes[Int(slot)]!
        core.setLifecycle(.running, of: slot)
        fail(slot, EffectFailure(origin: box.id, effect: "start", message: error.message), whileStarting: true)
    }

    // MARK: Sending

    /// Sends an event to a machine. Outside a step it is processed now, with everything it causes and
    /// everything queued meanwhile; inside a step (from a handler, hook or observer) it is queued.
    /// - Throws: ``SupervisorError/Code/machineGone`` if the machine was torn down, is being torn down,
    ///   or belongs to another supervisor; ``SupervisorError/Code/stepFailed`` if it refused the event.
    ///   A queued event that is refused later is reported as ``TreeEvent/refused(_:event:error:)``.
    @inlinable
    public func send<F: Flow>(_ event: F.Event, to machine: MachineHandle<F>) throws(SupervisorError) {
        // The direct path: one machine, its own handler, nobody observing, nothing queued.
        if !isProcessing, !isObserved, inbox.released.isEmpty, mailbox.isEmpty,
           let box = directBox(machine.id), !box.declaresChildren, box.ownHandler {
            let typed = unsafeDowncast(box, to: MachineBox<F>.self)  // a handle's type is its machine's
            isProcessing = true
            let summary: StepSummary
            do throws(FlowError) {
                summary = try typed.sendDirect(event, supervisor: self)
            } catch {
                isProcessing = false
                throw SupervisorError(code: .stepFailed, message: error.message, underlying: error)
            }
            if summary.kind == .finished || !directFailuresIsEmpty || !mailbox.isEmpty || !inbox.released.isEmpty {
                completeDirect(box, summary: summary)
            } else {
                isProcessing = false
            }
            return
        }
        try sendSlowly(event, to: machine.id)
    }

    /// The box of a running machine of this supervisor, or `nil`.
    @usableFromInline
    func directBox(_ id: MachineID) -> AnyMachineBox? {
        guard let slot = core.slot(of: id), core[slot].lifecycle == .running else { return nil }
        return boxes[Int(slot)]
    }

    @usableFromInline var directFailuresIsEmpty: Bool { directFailures.isEmpty }

    /// Records a failure met on the direct path.
    @usableFromInline
    func directFailure(_ failure: EffectFailure) { directFailures.append(failure) }

    /// Finishes a direct step or start that needs more than the direct path: a failure of its
    /// effects or a finish get the general treatment; then whatever was queued runs.
    @usableFromInline
    func completeDirect(_ box: AnyMachineBox, summary: StepSummary, starting: Bool = false) {
        defer { isProcessing = false }
        if let slot = core.slot(of: box.id) {
            if let failure = directFailures.first {
                directFailures.removeAll()
                fail(slot, failure, whileStarting: starting)
            } else if summary.kind == .finished {
                complete(slot)
            }
        }
        directFailures.removeAll()
        drain()
    }

    @usableFromInline
    func sendSlowly(_ event: Any, to id: MachineID) throws(SupervisorError) {
        if isProcessing {
            guard let slot = core.slot(of: id), core[slot].lifecycle != .stopping else {
                emit(.dropped(id, what: "event '\(event)'"))
                throw gone(id, "send '\(event)' to")
            }
            guard boxes[Int(slot)]!.accepts(event) else { throw gone(id, "send '\(event)' to") }
            mailbox.append(.event(id, event))
            return
        }
        try turn { () throws(SupervisorError) in
            guard let slot = core.slot(of: id), core[slot].lifecycle == .running else {
                emit(.dropped(id, what: "event '\(event)'"))
                throw gone(id, "send '\(event)' to")
            }
            do throws(FlowError) {
                try deliver(event, to: slot)
            } catch {
                throw SupervisorError(code: .stepFailed, message: error.message, underlying: error)
            }
        }
    }

    private func deliver(_ event: Any, to slot: Int32) throws(FlowError) {
        let outcome = try boxes[Int(slot)]!.deliver(event, in: self, slot: slot)
        afterStep(slot, outcome, starting: false)
    }

    /// What follows a step's effects: a failure applies the policy; otherwise the machine completes,
    /// or the children of the states it entered are spawned (outermost first, started next).
    private func afterStep(_ slot: Int32, _ outcome: StepOutcome, starting: Bool) {
        let box = boxes[Int(slot)]!
        let summary = outcome.summary
        if let failure = outcome.failure {
            fail(core.slot(of: failure.origin) ?? slot, failure, whileStarting: starting)
            return
        }
        guard core.slot(of: box.id) != nil else { return }
        if summary.kind == .finished {
            complete(slot)
            return
        }
        guard summary.moved && box.declaresChildren else { return }
        var entered: [Int] = []
        let hierarchy = box.stateHierarchy
        for s in hierarchy.ancestorsOrSelf(of: Int(summary.to))
        where starting || !hierarchy.isDescendantOrSelf(Int(summary.from), of: s) {
            entered.append(s)
        }
        var starts: [MachineID] = []
        for index in entered.reversed() {
            guard let spec = box.childFlow(at: index) else { continue }
            do throws(SupervisorError) {
                let child = try spec.make(ChildStart(parentContext: box.anyContext))
                starts.append(insert(child, parent: slot, stateSlot: Int32(index)))
            } catch {
                logger?.debug("declared child cannot be made", metadata: ["flow": "\(spec.name)", "error": "\(error)"])
            }
        }
        // Started next, before anything queued, outermost first (the urgent queue is a stack).
        for id in starts.reversed() { urgent.append(.start(id)) }
    }

    private func complete(_ slot: Int32) {
        let box = boxes[Int(slot)]!
        if isObserved, let output = box.output() { emit(.completed(box.id, output: TreeEvent.Output(output))) }
        let output = box.output()
        let parent = core[slot].parent
        let map = box.mapOutput
        let rootOutput = parent < 0 ? box.extras?.rootOutput : nil
        var record = TeardownRecord()
        tearDown(slot, reason: .completed, record: &record)
        if parent >= 0, core[parent].lifecycle == .running, let output, let event = map?(output) {
            mailbox.append(.event(core.id(of: parent), event))
        }
        if let rootOutput, let output { rootOutput(output) }
    }

    /// Performs an effect that a declared child mapped to its parent's effect type.
    func forwardToParent(_ effect: Any, from child: MachineID, origin: MachineID) throws(EffectFailure) {
        guard let slot = core.slot(of: child), core[slot].parent >= 0,
              let parent = boxes[Int(core[slot].parent)] else { return }
        try parent.performForwarded(effect, origin: origin, in: self)
    }

    // MARK: Failures

    /// Applies failure policies, walking up the tree while failures escalate: a loop, not recursion.
    private func fail(_ slot: Int32, _ effectFailure: EffectFailure, whileStarting: Bool) {
        var slot = slot
        let first = boxes[Int(slot)]!
        let failure = SupervisionFailure(machine: first.id, flow: first.flowName, effect: effectFailure.effect,
                                         message: effectFailure.message)
        emit(.failed(first.id, failure: failure))
        var startingFailure = whileStarting
        while true {
            let box = boxes[Int(slot)]!
            switch box.policy {
            case .stop:
                var record = TeardownRecord()
                tearDown(slot, reason: .failed, record: &record)
                return
            case .restart(let maxRestarts, let window):
                if box.ensuredExtras.history.allow(maxRestarts: maxRestarts, within: window, now: now(),
                                                   failedWhileStarting: startingFailure) {
                    restart(slot)
                    return
                }
                fallthrough
            case .escalate:
                let parent = core[slot].parent
                let map = box.mapFailure
                var record = TeardownRecord()
                tearDown(slot, reason: .failed, record: &record)
                guard parent >= 0, core[parent].serial != 0, core[parent].lifecycle == .running else { return }
                if let map, let event = map(failure) {
                    mailbox.append(.event(core.id(of: parent), event))
                    return
                }
                emit(.failed(core.id(of: parent), failure: failure))
                slot = parent
                startingFailure = false
            }
        }
    }

    /// Tears a failed machine down and puts a fresh one of the same flow in its place (same parent,
    /// same state, same position among its siblings), started next. It has a new identity.
    private func restart(_ slot: Int32) {
        let box = boxes[Int(slot)]!
        let node = core[slot]
        let history = box.extras?.history
        var record = TeardownRecord()
        tearDown(slot, reason: .failed, record: &record)
        if node.parent >= 0, core[node.parent].serial == 0 || core[node.parent].lifecycle == .stopping { return }
        if box.ownerBound && box.lifetime == nil { return }  // its owner went away meanwhile
        if node.previous >= 0 && core[node.previous].serial == 0 { return }  // cannot happen: siblings stay
        let fresh: AnyMachineBox
        do throws(SupervisorError) {
            fresh = try box.remake()
        } catch {
            logger?.debug("restart failed", metadata: ["flow": "\(box.flowName)", "error": "\(error)"])
            return
        }
        if let history { fresh.ensuredExtras.history = history }
        let id = insert(fresh, parent: node.parent, stateSlot: node.stateSlot, after: node.previous)
        emit(.restarted(box.id, replacement: id))
        urgent.append(.start(id))
    }

    // MARK: Teardown

    /// Stops a machine and its subtree: children first, siblings in reverse spawn order, each machine's
    /// exit effects and teardown hook exactly once.
    ///
    /// Called from inside a step, the stop is queued (performed after the step, in FIFO order) and the
    /// returned record is empty; the teardown is reported by ``TreeEvent/tornDown(_:reason:)``.
    /// - Returns: The machines torn down, in order (empty if the machine was already gone).
    @discardableResult
    public func stop(_ machine: MachineID) -> TeardownRecord {
        if isProcessing {
            if core.slot(of: machine) != nil { mailbox.append(.stop(machine, .stopped)) }
            return TeardownRecord()
        }
        var record = TeardownRecord()
        turn {
            if let slot = core.slot(of: machine) { tearDown(slot, reason: .stopped, record: &record) }
        }
        return record
    }

    /// Stops a machine and its subtree (see ``stop(_:)-(MachineID)``).
    @discardableResult
    public func stop<F: Flow>(_ machine: MachineHandle<F>) -> TeardownRecord { stop(machine.id) }

    /// Tears down every machine whose owner has been deallocated. Every public call does this first,
    /// so an app needs it only to release memory at a moment of its choosing. Called from inside a
    /// step, it is queued and returns an empty record.
    @discardableResult
    public func sweep() -> TeardownRecord {
        if isProcessing {
            if !inbox.released.isEmpty { mailbox.append(.sweep) }
            return TeardownRecord()
        }
        guard !inbox.released.isEmpty else { return TeardownRecord() }
        swept = TeardownRecord()
        turn {}
        defer { swept = TeardownRecord() }
        return swept
    }

    /// What sweeps tore down since ``sweep()`` began (it returns it).
    private var swept = TeardownRecord()

    /// Tears down the machines whose lifetime ended, in spawn order: O(machines released).
    private func sweepReleased() {
        while !inbox.released.isEmpty {
            let released = inbox.released.sorted()
            inbox.released.removeAll()
            for id in released {
                guard let slot = core.slot(of: id), core[slot].lifecycle != .stopping else { continue }
                tearDown(slot, reason: .ownerReleased, record: &swept)
            }
        }
    }

    /// Tears down a subtree: the order is decided first and the whole subtree marked as stopping, so
    /// that user code run meanwhile (exit effects, hooks, observers) cannot add to it.
    private func tearDown(_ slot: Int32, reason: TeardownReason, record: inout TeardownRecord) {
        guard core[slot].serial != 0, core[slot].lifecycle != .stopping else { return }
        let order = core.teardownOrder(of: slot)
        let started = order.map { core[$0].lifecycle == .running }
        for s in order { core.setLifecycle(.stopping, of: s) }
        for (s, wasRunning) in zip(order, started) {
            let box = boxes[Int(s)]!
            let id = box.id
            if wasRunning && box.exitsOnStop {
                for failure in box.stopAndExit(in: self) {
                    // The machine is going away: a failing exit effect is reported, not escalated,
                    // and the other exit effects still run.
                    emit(.failed(id, failure: SupervisionFailure(machine: failure.origin, flow: box.flowName,
                                                                 effect: failure.effect, message: failure.message)))
                }
            }
            let hook = box.onTeardown
            if let tasks = box.extras?.tasks { for task in tasks.values { task.cancel() } }
            boxes[Int(s)] = nil
            core.remove(s)
            record.append(id, flow: box.flowName)
            let why = s == slot ? reason : .parentTornDown
            hook?(why)
            emit(.tornDown(id, reason: why))
        }
    }

    // MARK: Async effects

    func startTask<F: Flow>(origin: MachineID, target: MachineHandle<F>,
                            _ operation: @escaping @Sendable () async throws -> F.Event?) throws(SupervisorError) {
        guard let isolation else {
            throw SupervisorError(code: .noIsolation,
                                  message: "async effects need a supervisor created on an actor (such as the main actor)")
        }
        guard let slot = core.slot(of: origin), let box = boxes[Int(slot)] else { return }
        let taskID = nextTask
        nextTask += 1
        let supervisor = WeakSupervisor(self)
        box.ensuredExtras.tasks[taskID] = Task {
            let result: Result<F.Event?, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            await Supervisor.finishTask(supervisor, taskID: taskID, origin: origin, target: target.id,
                                        result: result.map { $0.map { $0 as any Sendable } },
                                        isolation: isolation)
        }
    }

    private static func finishTask(_ supervisor: WeakSupervisor, taskID: UInt64, origin: MachineID,
                                   target: MachineID, result: Result<(any Sendable)?, any Error>,
                                   isolation: isolated any Actor) {
        // Back on the supervisor's isolation: the only place its state is touched.
        supervisor.value?.finishTask(taskID: taskID, origin: origin, target: target, result: result)
    }

    /// An async effect's result or failure enters the queue like any other message.
    private func finishTask(taskID: UInt64, origin: MachineID, target: MachineID,
                            result: Result<(any Sendable)?, any Error>) {
        let originSlot = core.slot(of: origin)
        if let originSlot { boxes[Int(originSlot)]?.extras?.tasks[taskID] = nil }
        guard originSlot != nil, core.slot(of: target) != nil else {
            let what: String
            switch result {
            case .success(let event?): what = "async result '\(event)'"
            case .success(nil): what = "async completion"
            case .failure(let error): what = "async error '\(error)'"
            }
            emit(.dropped(originSlot == nil ? origin : target, what: what))
            return
        }
        switch result {
        case .success(let event?):
            mailbox.append(.event(target, event))
        case .success(nil):
            return
        case .failure(let error):
            mailbox.append(.asyncFailure(origin, EffectFailure(origin: origin, effect: "async work", message: "\(error)")))
        }
        if !isProcessing { turn {} }
    }

    /// How many async effects are in flight (for tests and diagnostics).
    @_spi(Testing)
    public var tasksInFlight: Int { boxes.reduce(0) { $0 + ($1?.taskCount ?? 0) } }

    // MARK: Observation

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

    /// How many restart instants a machine's line keeps (for tests: at most its policy's `maxRestarts`).
    @_spi(Testing)
    public func restartHistoryLength(of machine: MachineID) -> Int {
        core.slot(of: machine).flatMap { boxes[Int($0)]?.extras?.history.instants.count } ?? 0
    }

    /// How many `events()` streams are registered (for tests).
    @_spi(Testing)
    public var eventStreamCount: Int { continuations.count }

    func gone(_ id: MachineID, _ action: String) -> SupervisorError {
        if id.scope != core.scope {
            return SupervisorError(code: .machineGone,
                                   message: "cannot \(action) machine \(id): it belongs to another supervisor")
        }
        return SupervisorError(code: .machineGone, message: "cannot \(action) machine \(id): it was torn down")
    }

    func refuseInsideStep(_ action: String) throws(SupervisorError) {
        if isProcessing {
            throw SupervisorError(code: .reentrantCall,
                                  message: "cannot \(action) from inside a handler, hook or observer: the tree is mid-step")
        }
    }

    // MARK: For inspection and snapshots (see Supervisor+Inspection.swift, Supervisor+Snapshot.swift)

    /// Every live machine, depth first, after sweeping released owners.
    func liveTree() -> [(slot: Int32, depth: Int)] {
        settleForReading()
        return core.preorder()
    }

    func box(_ slot: Int32) -> AnyMachineBox { boxes[Int(slot)]! }

    func slot(of id: MachineID) -> Int32? {
        settleForReading()
        return core.slot(of: id)
    }

    /// Inserts restored machines (already checked), in preorder: `parents[i]` is an index into
    /// `boxes` or -1 for the subtree's root, which goes under `root` (-1: a new root).
    func insertRestored(_ restored: [(box: AnyMachineBox, parent: Int, stateSlot: Int32)], under root: Int32)
        throws(SupervisorError) -> MachineID
    {
        try turn { () throws(SupervisorError) -> MachineID in
            if root >= 0, core[root].serial == 0 || core[root].lifecycle != .running {
                throw SupervisorError(code: .machineGone, message: "cannot restore under a machine that is gone")
            }
            var ids: [MachineID] = []
            ids.reserveCapacity(restored.count)
            for (box, parent, stateSlot) in restored {
                let parentSlot = parent >= 0 ? ids[parent].slot : root
                let id = insert(box, parent: parentSlot, stateSlot: stateSlot)
                core.setLifecycle(.running, of: id.slot)
                ids.append(id)
                if isObserved {
                    emit(.spawned(id, flow: box.flowName, parent: parentSlot >= 0 ? core.id(of: parentSlot) : nil,
                                  state: box.stateLabel, transitions: FlowTransitions()))
                }
            }
            return ids[0]
        }
    }
}

/// Lets an async effect's task refer to its supervisor without keeping it alive.
///
/// `@unchecked Sendable`: the task only reads `value` inside `finishTask`, which runs isolated to the
/// actor the supervisor was created on, the one domain where the supervisor is ever used.
final class WeakSupervisor: @unchecked Sendable {
    weak var value: Supervisor?
    init(_ value: Supervisor) { self.value = value }
}
