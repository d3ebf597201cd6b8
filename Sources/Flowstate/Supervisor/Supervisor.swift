import DequeModule
import Logging

/// Runs a tree of flow machines: roots you start, children their states declare (``ChildFlow``), and
/// children you spawn bound to an owner's lifetime. Teardown is deterministic: children before their
/// parent, siblings in reverse spawn order, each machine's exit effects and teardown hook exactly once,
/// and a subtree's teardown completes before the next queued event is processed.
///
/// ## Isolation
/// A supervisor is not `Sendable`: it lives in the isolation domain that created it (on iOS, the main
/// actor) and is used there synchronously; the compiler keeps it there. To drive one tree from many
/// tasks, own the supervisor in an actor and call it through the actor. Asynchronous effects
/// (``EffectContext/run(_:)``) run off that domain and deliver their result back to it, which is why the
/// supervisor remembers the isolation it was created in.
///
/// ## Run to completion
/// All machines of the tree share one FIFO queue. An event sent while a step is processed (by an effect
/// handler) waits until the step, and every teardown and spawn it causes, is complete.
public final class Supervisor {
    final class Node {
        let id: MachineID
        var box: any AnyMachineBox
        let parent: MachineID?
        /// For a declared child: the index of the parent state that runs it.
        let slot: Int?
        var children: [MachineID] = []
        weak var owner: AnyObject?
        let ownerBound: Bool
        let policy: FailurePolicy
        let mapOutput: ((any Sendable) -> (any Sendable)?)?
        let mapFailure: ((SupervisionFailure) -> (any Sendable)?)?
        /// Makes a fresh box of the same flow (for restarts).
        let remake: () throws(SupervisorError) -> any AnyMachineBox
        var onTeardown: ((TeardownReason) -> Void)?
        var tasks: [UInt64: Task<Void, Never>] = [:]
        var tornDown = false
        /// The first machine of a line of restarts: restart intensity is counted per lineage.
        var lineage: MachineID

        init(id: MachineID, box: any AnyMachineBox, parent: MachineID?, slot: Int?, owner: AnyObject?,
             policy: FailurePolicy, mapOutput: ((any Sendable) -> (any Sendable)?)?,
             mapFailure: ((SupervisionFailure) -> (any Sendable)?)?,
             remake: @escaping () throws(SupervisorError) -> any AnyMachineBox,
             onTeardown: ((TeardownReason) -> Void)?) {
            self.id = id
            self.box = box
            self.parent = parent
            self.slot = slot
            self.owner = owner
            self.ownerBound = owner != nil
            self.policy = policy
            self.mapOutput = mapOutput
            self.mapFailure = mapFailure
            self.remake = remake
            self.onTeardown = onTeardown
            self.lineage = id
        }
    }

    private struct Message {
        var target: MachineID
        var event: Any
        var label: String
    }

    private var nodes: [MachineID: Node] = [:]
    private var roots: [MachineID] = []
    private var ownerBound: Set<MachineID> = []
    private var queue = Deque<Message>()
    private var isProcessing = false
    private var nextID: UInt64 = 1
    private var nextTask: UInt64 = 1
    private var restarts: [String: [Duration]] = [:]
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
    }

    deinit {
        for node in nodes.values {
            for task in node.tasks.values { task.cancel() }
        }
        for continuation in continuations.values { continuation.finish() }
    }

    // MARK: Starting

    /// Starts a root machine and performs its entry effects (and its declared children's).
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - policy: What to do when its handler throws. A root that escalates stops its tree.
    ///   - onTeardown: Called exactly once, when the machine is torn down.
    ///   - handler: Performs the machine's effects (and its declared children's, mapped).
    @discardableResult
    public func start<F: Flow>(
        _ definition: FlowDefinition<F>,
        policy: FailurePolicy = .escalate,
        onTeardown: ((TeardownReason) -> Void)? = nil,
        handler: @escaping EffectHandler<F>
    ) throws(SupervisorError) -> MachineHandle<F> {
        sweep()
        let make = { () throws(SupervisorError) -> any AnyMachineBox in
            try MachineBox<F>(definition: definition, resumingIn: nil, handler: .handler(handler))
        }
        let node = try makeNode(make: make, parent: nil, slot: nil, owner: nil, policy: policy,
                                mapOutput: nil, mapFailure: nil, onTeardown: onTeardown)
        try run { () throws(SupervisorError) in try self.begin(node) }
        return MachineHandle(id: node.id)
    }

    /// Spawns a child machine under `parent`, bound to `owner`'s lifetime: when `owner` is deallocated,
    /// the child's subtree is torn down (at the supervisor's next operation, or at ``sweep()``).
    /// - Parameters:
    ///   - definition: The child flow; it must be valid.
    ///   - parent: The machine the child runs under; its output becomes this machine's event.
    ///   - owner: The object whose lifetime bounds the child (on iOS, the flow's root view controller).
    ///     Held weakly. `nil` binds the child only to its parent.
    ///   - output: The parent event that reports the child's output (`nil`: none).
    ///   - failure: The parent event that reports the child's failure; `nil` lets it escalate.
    ///   - policy: What to do when its handler throws.
    ///   - onTeardown: Called exactly once, when the child is torn down.
    ///   - handler: Performs the child's effects.
    @discardableResult
    public func spawn<C: Flow, P: Flow>(
        _ definition: FlowDefinition<C>,
        under parent: MachineHandle<P>,
        owner: AnyObject? = nil,
        policy: FailurePolicy = .escalate,
        onTeardown: ((TeardownReason) -> Void)? = nil,
        handler: @escaping EffectHandler<C>,
        failure: (@Sendable (SupervisionFailure) -> P.Event?)? = nil,
        output: @escaping @Sendable (C.Output) -> P.Event?
    ) throws(SupervisorError) -> MachineHandle<C> {
        sweep()
        guard nodes[parent.id] != nil else { throw gone(parent.id, "spawn a child under") }
        let make = { () throws(SupervisorError) -> any AnyMachineBox in
            try MachineBox<C>(definition: definition, resumingIn: nil, handler: .handler(handler))
        }
        let node = try makeNode(
            make: make, parent: parent.id, slot: nil, owner: owner, policy: policy,
            mapOutput: { output($0 as! C.Output) }, mapFailure: failure.map { map in { map($0) } },
            onTeardown: onTeardown)
        try run { () throws(SupervisorError) in try self.begin(node) }
        return MachineHandle(id: node.id)
    }

    private func makeNode(
        make: @escaping () throws(SupervisorError) -> any AnyMachineBox, parent: MachineID?, slot: Int?,
        owner: AnyObject?, policy: FailurePolicy, mapOutput: ((any Sendable) -> (any Sendable)?)?,
        mapFailure: ((SupervisionFailure) -> (any Sendable)?)?, onTeardown: ((TeardownReason) -> Void)?
    ) throws(SupervisorError) -> Node {
        insert(box: try make(), make: make, parent: parent, slot: slot, owner: owner, policy: policy,
               mapOutput: mapOutput, mapFailure: mapFailure, onTeardown: onTeardown)
    }

    /// Gives a box a new identity and puts it in the tree (last among its siblings).
    private func insert(
        box: any AnyMachineBox, make: @escaping () throws(SupervisorError) -> any AnyMachineBox, parent: MachineID?,
        slot: Int?, owner: AnyObject?, policy: FailurePolicy, mapOutput: ((any Sendable) -> (any Sendable)?)?,
        mapFailure: ((SupervisionFailure) -> (any Sendable)?)?, onTeardown: ((TeardownReason) -> Void)?
    ) -> Node {
        let id = MachineID(rawValue: nextID)
        nextID += 1
        let node = Node(id: id, box: box, parent: parent, slot: slot, owner: owner, policy: policy,
                        mapOutput: mapOutput, mapFailure: mapFailure, remake: make, onTeardown: onTeardown)
        nodes[id] = node
        if let parent { nodes[parent]?.children.append(id) } else { roots.append(id) }
        if owner != nil { ownerBound.insert(id) }
        return node
    }

    /// Starts a node's machine, performs its entry effects and spawns the children its states declare.
    private func begin(_ node: Node) throws(SupervisorError) {
        let step: BoxStep
        do {
            step = try node.box.start()
        } catch {
            discard(node)
            throw SupervisorError(code: .stepFailed, message: error.message, underlying: error)
        }
        emit(.spawned(node.id, flow: node.box.flowName, parent: node.parent, state: step.to))
        settle(node, before: [], step: step)
    }

    /// Removes a node that never started.
    private func discard(_ node: Node) {
        nodes[node.id] = nil
        roots.removeAll { $0 == node.id }
        ownerBound.remove(node.id)
        if let parent = node.parent { nodes[parent]?.children.removeAll { $0 == node.id } }
    }

    // MARK: Sending

    /// Sends an event to a machine. If a step is being processed (an effect handler is sending), the
    /// event is queued; otherwise it is processed now, with everything it causes and everything queued
    /// meanwhile.
    /// - Throws: ``SupervisorError/Code/machineGone`` if the machine was torn down,
    ///   ``SupervisorError/Code/stepFailed`` if it refused the event. Errors of queued events are
    ///   reported as tree events and logged, not thrown.
    public func send<F: Flow>(_ event: F.Event, to machine: MachineHandle<F>) throws(SupervisorError) {
        sweep()
        guard nodes[machine.id] != nil else {
            emit(.dropped(machine.id, what: "event '\(event)'"))
            throw gone(machine.id, "send '\(event)' to")
        }
        if isProcessing {
            enqueue(event, to: machine.id, label: "\(event)")
            return
        }
        try run { () throws(SupervisorError) in try self.process(Message(target: machine.id, event: event, label: "\(event)")) }
    }

    func enqueue(_ event: Any, to id: MachineID, label: String) {
        queue.append(Message(target: id, event: event, label: label))
        if !isProcessing { drain() }
    }

    /// Runs `body` as the current step, then drains the queue; `body`'s error is thrown after draining.
    private func run(_ body: () throws(SupervisorError) -> Void) throws(SupervisorError) {
        if isProcessing {
            try body()
            return
        }
        isProcessing = true
        var failure: SupervisorError?
        do throws(SupervisorError) { try body() } catch { failure = error }
        isProcessing = false
        drain()
        if let failure { throw failure }
    }

    private func drain() {
        guard !isProcessing else { return }
        isProcessing = true
        defer { isProcessing = false }
        while let message = queue.popFirst() {
            do throws(SupervisorError) {
                try process(message)
            } catch {
                logger?.debug("queued event failed", metadata: ["machine": "\(message.target)", "error": "\(error)"])
            }
        }
    }

    private func process(_ message: Message) throws(SupervisorError) {
        guard let node = nodes[message.target] else {
            emit(.dropped(message.target, what: "event '\(message.label)'"))
            throw gone(message.target, "deliver '\(message.label)' to")
        }
        let before = node.box.declaresChildren ? node.box.activeIndices : []
        let step: BoxStep
        do {
            step = try node.box.send(message.event)
        } catch {
            throw SupervisorError(code: .stepFailed, message: error.message, underlying: error)
        }
        if step.kind == .transitioned || step.kind == .finished {
            emit(.transitioned(node.id, from: step.from, to: step.to, event: step.event))
        }
        settle(node, before: before, step: step)
    }

    /// What follows a step: children of states that were left are torn down, the step's effects are
    /// performed, then the machine completes or the children of states that were entered are spawned.
    private func settle(_ node: Node, before: [Int], step: BoxStep) {
        let declares = node.box.declaresChildren
        if declares && !node.children.isEmpty {
            let after = Set(node.box.activeIndices)
            for child in node.children.reversed() {
                if let childNode = nodes[child], let slot = childNode.slot, !after.contains(slot) {
                    var record = TeardownRecord()
                    tearDown(child, reason: .parentLeftState, record: &record)
                }
            }
        }
        do throws(EffectFailure) {
            try node.box.perform(step, id: node.id, in: self)
        } catch {
            fail(error.origin == node.id ? node.id : error.origin, error)
            return
        }
        guard nodes[node.id] != nil else { return }  // torn down by its own effects (a stop from a handler)
        if step.kind == .finished {
            complete(node, step: step)
            return
        }
        guard declares else { return }
        let beforeSet = Set(before)
        for index in node.box.activeIndices.reversed() where !beforeSet.contains(index) {
            guard let spec = node.box.childFlow(at: index), nodes[node.id] != nil else { continue }
            spawnDeclared(spec, parent: node, slot: index)
        }
    }

    private func spawnDeclared(_ spec: AnyChildFlow, parent: Node, slot: Int) {
        do throws(SupervisorError) {
            let node = try makeNode(make: { () throws(SupervisorError) in try spec.make(nil) }, parent: parent.id,
                                    slot: slot, owner: nil, policy: spec.policy, mapOutput: spec.mapOutput,
                                    mapFailure: spec.mapFailure, onTeardown: nil)
            try begin(node)
        } catch {
            logger?.debug("declared child failed to start", metadata: ["flow": "\(spec.name)", "error": "\(error)"])
        }
    }

    private func complete(_ node: Node, step: BoxStep) {
        emit(.completed(node.id, output: step.outputLabel))
        let output = node.box.output()
        let parent = node.parent
        let map = node.mapOutput
        var record = TeardownRecord()
        tearDown(node.id, reason: .completed, record: &record)
        if let parent, nodes[parent] != nil, let output, let event = map?(output) {
            enqueue(event, to: parent, label: "\(event)")
        }
    }

    /// Performs an effect that a declared child mapped to its parent's effect type.
    func forwardToParent(_ effect: Any, from child: MachineID, origin: MachineID) throws(EffectFailure) {
        guard let parentID = nodes[child]?.parent, let parent = nodes[parentID] else { return }
        try parent.box.performForwarded(effect, id: parentID, origin: origin, in: self)
    }

    // MARK: Failures

    private func fail(_ id: MachineID, _ error: EffectFailure) {
        guard let node = nodes[id] else { return }
        let failure = SupervisionFailure(machine: id, flow: node.box.flowName, effect: error.effect, message: error.message)
        emit(.failed(id, failure: failure))
        apply(node.policy, to: node, failure: failure)
    }

    private func apply(_ policy: FailurePolicy, to node: Node, failure: SupervisionFailure) {
        switch policy {
        case .stop:
            var record = TeardownRecord()
            tearDown(node.id, reason: .failed, record: &record)
        case .escalate:
            escalate(node, failure: failure)
        case .restart(let maxRestarts, let window):
            // Declared children count per parent state; others per lineage (an id would change
            // with every restart, and the limit would never be reached).
            let place = node.slot.map { "state \($0)" } ?? "lineage \(node.lineage)"
            let key = "\(node.parent.map { "\($0)" } ?? "root")/\(place)/\(node.box.flowName)"
            let time = now()
            var history = (restarts[key] ?? []).filter { time - $0 < window }
            guard history.count < maxRestarts else {
                restarts[key] = history
                escalate(node, failure: failure)
                return
            }
            history.append(time)
            restarts[key] = history
            restart(node, key: key)
        }
    }

    private func escalate(_ node: Node, failure: SupervisionFailure) {
        let parentID = node.parent
        let map = node.mapFailure
        var record = TeardownRecord()
        tearDown(node.id, reason: .failed, record: &record)
        guard let parentID, let parent = nodes[parentID] else { return }  // a root: its tree is stopped
        if let map, let event = map(failure) {
            enqueue(event, to: parentID, label: "\(event)")
        } else {
            emit(.failed(parentID, failure: failure))
            apply(parent.policy, to: parent, failure: failure)
        }
    }

    private func restart(_ node: Node, key: String) {
        var record = TeardownRecord()
        let parentID = node.parent
        let position = parentID.flatMap { nodes[$0]?.children.firstIndex(of: node.id) }
        tearDown(node.id, reason: .failed, record: &record)
        if let parentID, nodes[parentID] == nil { return }
        do throws(SupervisorError) {
            let fresh = try makeNode(make: node.remake, parent: parentID, slot: node.slot, owner: node.owner,
                                     policy: node.policy, mapOutput: node.mapOutput, mapFailure: node.mapFailure,
                                     onTeardown: node.onTeardown)
            fresh.lineage = node.lineage
            if node.ownerBound && node.owner == nil {  // its owner went away meanwhile
                discard(fresh)
                return
            }
            if let parentID, let position, let parent = nodes[parentID] {  // keep the sibling order
                parent.children.removeLast()
                parent.children.insert(fresh.id, at: min(position, parent.children.count))
            }
            emit(.restarted(node.id, replacement: fresh.id))
            try begin(fresh)
        } catch {
            logger?.debug("restart failed", metadata: ["flow": "\(node.box.flowName)", "error": "\(error)"])
        }
    }

    // MARK: Teardown

    /// Stops a machine and its subtree: children first, siblings in reverse spawn order, each machine's
    /// exit effects and teardown hook exactly once.
    /// - Returns: The machines torn down, in order (empty if the machine was already gone).
    @discardableResult
    public func stop(_ machine: MachineID) -> TeardownRecord {
        var record = TeardownRecord()
        try? run { () throws(SupervisorError) in self.tearDown(machine, reason: .stopped, record: &record) }
        return record
    }

    /// Stops a machine and its subtree (see ``stop(_:)-(MachineID)``).
    @discardableResult
    public func stop<F: Flow>(_ machine: MachineHandle<F>) -> TeardownRecord { stop(machine.id) }

    /// Tears down every machine whose owner has been deallocated. Every other operation of the
    /// supervisor does this first, so an app needs it only to release memory at a moment of its choosing.
    @discardableResult
    public func sweep() -> TeardownRecord {
        var record = TeardownRecord()
        guard !ownerBound.isEmpty else { return record }
        let released = ownerBound.filter { nodes[$0]?.owner == nil }.sorted()  // spawn order
        guard !released.isEmpty else { return record }
        try? run { () throws(SupervisorError) in
            for id in released { self.tearDown(id, reason: .ownerReleased, record: &record) }
        }
        return record
    }

    private func tearDown(_ id: MachineID, reason: TeardownReason, record: inout TeardownRecord) {
        tearDown(id, reason: reason, record: &record, detach: true)
    }

    /// - Parameter detach: whether to remove the machine from its parent's children. A cascade does
    ///   not, since the parent goes too: that keeps tearing down a subtree linear in its size.
    private func tearDown(_ id: MachineID, reason: TeardownReason, record: inout TeardownRecord, detach: Bool) {
        guard let node = nodes[id], !node.tornDown else { return }
        node.tornDown = true
        for child in node.children.reversed() {
            tearDown(child, reason: .parentTornDown, record: &record, detach: false)
        }
        node.children = []
        let exits = node.box.stop()
        do throws(EffectFailure) {
            try node.box.perform(exits, id: id, in: self)
        } catch {
            // The machine is going away: a failing exit effect is reported, not escalated.
            emit(.failed(id, failure: SupervisionFailure(machine: id, flow: node.box.flowName,
                                                         effect: error.effect, message: error.message)))
        }
        let hook = node.onTeardown
        node.onTeardown = nil
        for task in node.tasks.values { task.cancel() }
        node.tasks = [:]
        nodes[id] = nil
        if detach, let parent = node.parent, let siblings = nodes[parent] {
            if let i = siblings.children.lastIndex(of: id) { siblings.children.remove(at: i) }
        }
        if node.parent == nil, let i = roots.lastIndex(of: id) { roots.remove(at: i) }
        if node.ownerBound { ownerBound.remove(id) }
        record.append(id, flow: node.box.flowName)
        hook?(reason)
        emit(.tornDown(id, reason: reason))
    }

    // MARK: Async effects

    func startTask<F: Flow>(origin: MachineID, target: MachineHandle<F>,
                            _ operation: @escaping @Sendable () async throws -> F.Event?) throws(SupervisorError) {
        guard let isolation else {
            throw SupervisorError(code: .noIsolation,
                                  message: "async effects need a supervisor created on an actor (such as the main actor)")
        }
        guard let node = nodes[origin] else { return }
        let taskID = nextTask
        nextTask += 1
        let supervisor = WeakSupervisor(self)
        node.tasks[taskID] = Task {
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

    private func finishTask(taskID: UInt64, origin: MachineID, target: MachineID,
                            result: Result<(any Sendable)?, any Error>) {
        let originNode = nodes[origin]
        originNode?.tasks[taskID] = nil
        guard originNode != nil, nodes[target] != nil else {
            let what: String
            switch result {
            case .success(let event?): what = "async result '\(event)'"
            case .success(nil): what = "async completion"
            case .failure(let error): what = "async error '\(error)'"
            }
            emit(.dropped(originNode == nil ? origin : target, what: what))
            return
        }
        switch result {
        case .success(let event?):
            enqueue(event, to: target, label: "\(event)")
        case .success(nil):
            break
        case .failure(let error):
            fail(origin, EffectFailure(origin: origin, effect: "async work", message: "\(error)"))
            drain()
        }
    }

    /// How many async effects are in flight (for tests and diagnostics).
    public var tasksInFlight: Int { nodes.values.reduce(0) { $0 + $1.tasks.count } }

    // MARK: Observation

    /// Reports a tree event. It is only made (labels formatted) when someone observes or logs.
    func emit(_ make: @autoclosure () -> TreeEvent) {
        guard logger != nil || !observers.isEmpty || !continuations.isEmpty else { return }
        let event = make()
        logger?.debug("tree", metadata: ["event": "\(event)"])
        for observer in observers.values { observer(event) }
        for continuation in continuations.values { continuation.yield(event) }
    }

    /// Calls `observer` with every tree event from now on.
    @discardableResult
    public func observe(_ observer: @escaping (TreeEvent) -> Void) -> FlowObservation {
        let token = nextObserver
        nextObserver += 1
        observers[token] = observer
        return FlowObservation { [weak self] in self?.observers[token] = nil }
    }

    /// Tree events from now on, as an asynchronous sequence that ends when the supervisor is deinitialized.
    public func events() -> AsyncStream<TreeEvent> {
        let (stream, continuation) = AsyncStream<TreeEvent>.makeStream()
        continuations[nextObserver] = continuation
        nextObserver += 1
        return stream
    }

    private func gone(_ id: MachineID, _ action: String) -> SupervisorError {
        SupervisorError(code: .machineGone, message: "cannot \(action) machine \(id): it was torn down")
    }

    // MARK: Inspection (see Supervisor+Inspection.swift)

    var allNodes: [MachineID: Node] { nodes }
    var rootIDs: [MachineID] { roots }

    func insertRestored(_ make: @escaping () throws(SupervisorError) -> any AnyMachineBox, box: any AnyMachineBox,
                        parent: MachineID?, slot: Int?, policy: FailurePolicy,
                        mapOutput: ((any Sendable) -> (any Sendable)?)?,
                        mapFailure: ((SupervisionFailure) -> (any Sendable)?)?, owner: AnyObject? = nil,
                        onTeardown: ((TeardownReason) -> Void)? = nil) -> Node {
        let node = insert(box: box, make: make, parent: parent, slot: slot, owner: owner, policy: policy,
                          mapOutput: mapOutput, mapFailure: mapFailure, onTeardown: onTeardown)
        emit(.spawned(node.id, flow: box.flowName, parent: parent, state: box.stateLabel))
        return node
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
