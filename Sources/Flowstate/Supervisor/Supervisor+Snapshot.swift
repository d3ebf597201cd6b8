/// A `Codable` picture of one machine and the declared children under it: enough to rebuild the tree
/// after the app is relaunched.
///
/// States are recorded by label (`String(describing:)` of the state), so a state type needs no `Codable`
/// conformance; restoring checks every label against the definition and says what no longer matches.
/// A flow's ``Flow/Context`` is recorded as JSON (``context``): a flow with a context must make it
/// `Codable` to be snapshotted.
/// Comparing, hashing and freeing a snapshot are iterative: a tree of any depth costs no stack.
public struct MachineSnapshot: Codable, Hashable, Sendable {
    /// The flow's name.
    public var flow: String
    /// The label of the machine's current (leaf) state; for a flow with parallel states, the first
    /// active leaf in document order (``leaves`` lists them all).
    public var state: String
    /// For a flow with parallel states resting in several leaves (one per active region): every
    /// active leaf's label, in document order, ``state`` first. Empty when ``state`` is the one leaf
    /// (and in snapshots taken before parallel states were supervised, which restore as they did).
    /// Restoring resumes in exactly these leaves; leaves that make no configuration the flow can be
    /// in are refused.
    public var leaves: [String] = []
    /// For a declared child: the label of the parent state that runs it. `nil` for a root, or a child
    /// spawned dynamically (which is not restored: its owner is an object of the previous launch).
    /// Encoded under the key `slot`, its name in earlier snapshots (part of the snapshot format).
    public var parentState: String?
    /// Labels of the machine's active states whose declared child was stopped while the state stayed
    /// active (innermost first): restoring leaves them without it, as they were. Any other active
    /// state that declares a child must have it in ``children``.
    public var stoppedChildren: [String] = []
    /// The machine's context as JSON text (keys sorted); `nil` for a flow without context. Restoring
    /// a snapshot without one starts the machine with its definition's initial context.
    public var context: String? = nil
    /// What the machine's history states remember (``FlowMachine/remembered``), by label: each
    /// history's label and the labels of the states it remembers. Empty for a flow without history
    /// states (and in snapshots written before they existed); restoring checks it against the flow.
    public var history: [String: [String]] = [:]
    /// The machine's armed timers (delayed transitions, ``After``), each with the time it had left when
    /// the snapshot was taken, in arming order. Empty for a flow without delayed transitions (and in
    /// snapshots written before timers were recorded: restoring then arms each active state's timers
    /// with their whole delay). Restoring re-arms each with what it had left.
    public var timers: [TimerSnapshot] = []
    /// The machines under it, in sibling order (spawn order; declared children in document order of
    /// their states).
    public var children: [MachineSnapshot] {
        get { storage.items }
        set {
            if isKnownUniquelyReferenced(&storage) {
                storage.items = newValue
            } else {
                storage = SnapshotChildren(newValue)
            }
        }
    }
    fileprivate var storage: SnapshotChildren

    /// Creates a snapshot of one machine.
    public init(flow: String, state: String, parentState: String?, children: [MachineSnapshot]) {
        self.flow = flow
        self.state = state
        self.parentState = parentState
        self.storage = SnapshotChildren(children)
    }

    private enum CodingKeys: String, CodingKey {
        case flow, state, leaves, parentState = "slot", stoppedChildren, context, history, timers, children
    }

    /// Decodes a snapshot.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(flow: try container.decode(String.self, forKey: .flow),
                  state: try container.decode(String.self, forKey: .state),
                  parentState: try container.decodeIfPresent(String.self, forKey: .parentState),
                  children: try container.decode([MachineSnapshot].self, forKey: .children))
        leaves = try container.decodeIfPresent([String].self, forKey: .leaves) ?? []
        stoppedChildren = try container.decodeIfPresent([String].self, forKey: .stoppedChildren) ?? []
        context = try container.decodeIfPresent(String.self, forKey: .context)
        history = try container.decodeIfPresent([String: [String]].self, forKey: .history) ?? [:]
        timers = try container.decodeIfPresent([TimerSnapshot].self, forKey: .timers) ?? []
    }

    /// Encodes a snapshot.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(flow, forKey: .flow)
        try container.encode(state, forKey: .state)
        if !leaves.isEmpty { try container.encode(leaves, forKey: .leaves) }
        try container.encodeIfPresent(parentState, forKey: .parentState)
        if !stoppedChildren.isEmpty { try container.encode(stoppedChildren, forKey: .stoppedChildren) }
        try container.encodeIfPresent(context, forKey: .context)
        if !history.isEmpty { try container.encode(history, forKey: .history) }
        if !timers.isEmpty { try container.encode(timers, forKey: .timers) }
        try container.encode(children, forKey: .children)
    }

    /// Equal when both trees hold the same machines in the same places. Iterative.
    public static func == (lhs: MachineSnapshot, rhs: MachineSnapshot) -> Bool {
        var pairs = [(lhs, rhs)]
        while let (a, b) = pairs.popLast() {
            guard a.flow == b.flow, a.state == b.state, a.leaves == b.leaves, a.parentState == b.parentState,
                  a.stoppedChildren == b.stoppedChildren,
                  a.context == b.context, a.history == b.history, a.timers == b.timers,
                  a.storage.items.count == b.storage.items.count else { return false }
            if a.storage === b.storage { continue }
            pairs.append(contentsOf: zip(a.storage.items, b.storage.items))
        }
        return true
    }

    /// Hashes the whole tree, in preorder. Iterative.
    public func hash(into hasher: inout Hasher) {
        var pending = [self]
        while let node = pending.popLast() {
            hasher.combine(node.flow)
            hasher.combine(node.state)
            hasher.combine(node.leaves)
            hasher.combine(node.parentState)
            hasher.combine(node.stoppedChildren)
            hasher.combine(node.context)
            hasher.combine(node.history)
            hasher.combine(node.timers)
            hasher.combine(node.storage.items.count)
            pending.append(contentsOf: node.storage.items.reversed())
        }
    }
}

/// An armed timer in a ``MachineSnapshot``: the state that armed it, its delayed transition, and the
/// time it had left when the snapshot was taken.
public struct TimerSnapshot: Codable, Hashable, Sendable {
    /// The label of the state the delayed transition is declared on.
    public var state: String
    /// The delayed transition, by position among the definition's transitions
    /// (``FlowTransitionID/position``).
    public var transition: Int
    /// The time the timer had left.
    public var left: Duration

    /// A timer of the transition at `transition`, declared on the state labelled `state`, with `left` to go.
    public init(state: String, transition: Int, left: Duration) {
        self.state = state
        self.transition = transition
        self.left = left
    }
}

/// The children of a ``MachineSnapshot``, in a box whose deinit frees a deep tree iteratively (the
/// compiler's own destruction of nested arrays would recurse once per level).
///
/// `@unchecked Sendable`: the box is copied on write: it is only mutated when uniquely referenced.
final class SnapshotChildren: @unchecked Sendable {
    var items: [MachineSnapshot]

    init(_ items: [MachineSnapshot]) { self.items = items }

    deinit {
        var pending = items
        items = []
        while var node = pending.popLast() {
            if isKnownUniquelyReferenced(&node.storage) {
                pending.append(contentsOf: node.storage.items)
                node.storage.items = []
            }
        }
    }
}

/// A `Codable` snapshot of a supervisor's whole tree.
public struct TreeSnapshot: Codable, Hashable, Sendable {
    /// The format's version: 1. Decoding any other version fails, naming it.
    public internal(set) var version: Int = 1
    /// Each root, with its subtree.
    public var roots: [MachineSnapshot]

    /// Creates a snapshot of the format's current version.
    public init(roots: [MachineSnapshot]) { self.roots = roots }

    private enum CodingKeys: String, CodingKey { case version, roots }

    /// Decodes a snapshot, refusing a version this library does not know.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: .version, in: container,
                debugDescription: "tree snapshot version \(version) is not supported (this library reads version 1)")
        }
        self.version = version
        roots = try container.decode([MachineSnapshot].self, forKey: .roots)
    }
}

extension Supervisor {
    /// A snapshot of every live machine, in tree order (after sweeping machines whose owner is gone).
    /// - Throws: ``SupervisorError/Code/reentrantCall`` from inside a handler, hook or observer: the
    ///   tree is mid-step there, and a snapshot of it would not restore to a tree that exists.
    ///   ``SupervisorError/Code/contextNotCodable`` when a machine's context is not `Codable`.
    public func snapshot() throws(SupervisorError) -> TreeSnapshot {
        try refuseInsideStep("take a snapshot")
        let tree = liveTree()
        // Built bottom-up (reverse preorder), so that depth costs no stack.
        var built: [Int32: MachineSnapshot] = [:]
        for (slot, _) in tree.reversed() {
            let box = box(slot)
            let node = core[slot]
            let parentStateLabel = node.parentState >= 0 ? self.box(node.parent).described.label(ofState: Int(node.parentState)) : nil
            let childSlots = core.children(of: slot)
            let children = childSlots.compactMap { built.removeValue(forKey: $0) }
            let leaves = box.described.stateLabels
            var snapshot = MachineSnapshot(flow: box.flowName, state: leaves[0], parentState: parentStateLabel, children: children)
            if leaves.count > 1 { snapshot.leaves = leaves }
            snapshot.context = try box.described.encodedContext()
            snapshot.history = box.described.rememberedLabels
            if box.hasDelays {
                snapshot.timers = armedTimers(of: box.id(in: self)).map { timer, left in
                    TimerSnapshot(state: box.described.label(ofState: timer.state),
                                  transition: timer.transition.position, left: left)
                }
            }
            // Active states whose declared child is not running: it was stopped, and stays so.
            let running = Set(childSlots.map { core[$0].parentState })
            for s in box.activePositions().reversed().lazy.map({ Int($0) })
            where box.childFlow(at: s) != nil && !running.contains(Int32(s)) {
                snapshot.stoppedChildren.append(box.described.label(ofState: s))
            }
            built[slot] = snapshot
        }
        return TreeSnapshot(roots: core.roots.compactMap { built[$0] })
    }

    /// Rebuilds a root machine and its declared children from a snapshot, without performing any
    /// effect: the host rebuilds its screens from the restored states. Children that were spawned
    /// dynamically are not restored (their owners belonged to the previous launch).
    /// - Throws: ``SupervisorError/Code/snapshotMismatch`` naming what does not match and where (a
    ///   flow, a state that is unknown or final, leaves that make no configuration the flow can be in,
    ///   a child in a state that does not run it or is not active, two children in one state, a
    ///   declared child missing); nothing is restored then.
    ///   ``SupervisorError/Code/reentrantCall`` from inside a handler, hook or observer.
    @discardableResult
    public func restore<F: Flow>(
        _ snapshot: MachineSnapshot,
        definition: FlowDefinition<F>,
        policy: FailurePolicy = .escalate,
        handler: @escaping EffectHandler<F>
    ) throws(SupervisorError) -> MachineHandle<F> {
        try refuseInsideStep("restore a snapshot")
        let root = try MachineBox<F>(definition: definition, resumingIn: try Self.checked(snapshot, definition),
                                     history: snapshot.history, savedContext: snapshot.context,
                                     route: .handler(handler), policy: policy)
        let plan = try Self.plan(snapshot, root: root)
        return MachineHandle(id: try insertRestored(plan, under: -1))
    }

    /// Rebuilds a dynamically spawned child (and the declared children under it) from its snapshot,
    /// under `parent` and bound to a new `owner`: what a coordinator does for a child whose screen it
    /// shows again after a relaunch. No effect is performed.
    /// - Throws: ``SupervisorError/Code/snapshotMismatch`` if the definition no longer matches;
    ///   ``SupervisorError/Code/machineGone`` if `parent` is gone;
    ///   ``SupervisorError/Code/reentrantCall`` from inside a handler, hook or observer.
    @discardableResult
    public func restore<C: Flow, P: Flow>(
        _ snapshot: MachineSnapshot,
        definition: FlowDefinition<C>,
        under parent: MachineHandle<P>,
        owner: FlowLifetime? = nil,
        policy: FailurePolicy = .escalate,
        onTeardown: ((TeardownReason) -> Void)? = nil,
        handler: @escaping EffectHandler<C>,
        output: @escaping @Sendable (C.Output) -> P.Event?
    ) throws(SupervisorError) -> MachineHandle<C> {
        try refuseInsideStep("restore a snapshot")
        guard let parentSlot = slot(of: parent.id) else {
            throw SupervisorError(code: .machineGone,
                                  message: "cannot restore '\(definition.name)' under \(parent.id): it is gone")
        }
        let root = try MachineBox<C>(definition: definition, resumingIn: try Self.checked(snapshot, definition),
                                     history: snapshot.history, savedContext: snapshot.context,
                                     route: .handler(handler), policy: policy,
                                     mapOutput: { output($0 as! C.Output) }, onTeardown: onTeardown, lifetime: owner)
        let plan = try Self.plan(snapshot, root: root)
        return MachineHandle(id: try insertRestored(plan, under: parentSlot))
    }

    /// The leaves a snapshot's root resumes in, once its flow is checked.
    private static func checked<F: Flow>(_ snapshot: MachineSnapshot, _ definition: FlowDefinition<F>)
        throws(SupervisorError) -> [String]
    {
        guard snapshot.flow == definition.name else {
            throw SupervisorError(code: .snapshotMismatch,
                                  message: "snapshot is of flow '\(snapshot.flow)', not '\(definition.name)'")
        }
        return snapshot.resumeLeaves
    }

    /// Checks a whole snapshot against the definitions and makes every box, before anything is put
    /// in the tree: the result is in preorder, each entry naming its parent's index. Iterative.
    private static func plan(_ snapshot: MachineSnapshot, root: AnyMachineBox) throws(SupervisorError)
        -> [RestoredMachine]
    {
        var plan: [RestoredMachine] = [(root, -1, -1, try root.described.restoredTimers(snapshot.timers))]
        var work: [(snapshot: MachineSnapshot, index: Int)] = [(snapshot, 0)]
        while let (machine, index) = work.popLast() {
            let box = plan[index].box
            var taken: [Int: String] = [:]
            var children: [(MachineSnapshot, Int)] = []
            for child in machine.children {
                guard let stateLabel = child.parentState else { continue }  // dynamic: not restored
                guard let stateIndex = box.described.stateIndex(labelled: stateLabel) else {
                    throw SupervisorError(code: .snapshotMismatch,
                                          message: "flow '\(box.flowName)' has no state '\(stateLabel)' to run '\(child.flow)' in")
                }
                guard box.isActive(stateIndex) else {
                    throw SupervisorError(code: .snapshotMismatch,
                                          message: "state '\(stateLabel)' of flow '\(box.flowName)' is not active in the snapshot")
                }
                guard let spec = box.childFlow(at: stateIndex), spec.name == child.flow else {
                    throw SupervisorError(code: .snapshotMismatch,
                                          message: "state '\(stateLabel)' of flow '\(box.flowName)' does not run '\(child.flow)'")
                }
                if let first = taken[stateIndex] {
                    throw SupervisorError(code: .snapshotMismatch,
                                          message: "state '\(stateLabel)' of flow '\(box.flowName)' runs one '\(first)', "
                                              + "and the snapshot has two")
                }
                taken[stateIndex] = child.flow
                let childBox: AnyMachineBox
                do throws(SupervisorError) {
                    childBox = try spec.make(ChildStart(resumingIn: child.resumeLeaves, history: child.history, savedContext: child.context,
                                                        parentContext: box.anyContext))
                } catch {
                    var located = error
                    located.message = "declared child '\(child.flow)' in state '\(stateLabel)' of flow "
                        + "'\(box.flowName)': \(error.message)"
                    throw located
                }
                let timers: [(timer: FlowTimer, left: Duration)]
                do throws(SupervisorError) {
                    timers = try childBox.described.restoredTimers(child.timers)
                } catch {
                    var located = error
                    located.message = "declared child '\(child.flow)' in state '\(stateLabel)' of flow "
                        + "'\(box.flowName)': \(error.message)"
                    throw located
                }
                plan.append((childBox, index, Int32(stateIndex), timers))
                children.append((child, plan.count - 1))
            }
            // Every active state that declares a child must have it.
            let stopped = Set(machine.stoppedChildren)
            for s in box.activePositions().reversed().lazy.map({ Int($0) }) {
                if taken[s] == nil, let spec = box.childFlow(at: s), !stopped.contains(box.described.label(ofState: s)) {
                    throw SupervisorError(code: .snapshotMismatch,
                                          message: "state '\(box.described.label(ofState: s))' of flow '\(box.flowName)' runs "
                                              + "'\(spec.name)', which the snapshot does not have")
                }
            }
            work.append(contentsOf: children.reversed())
        }
        // Preorder with each machine's children in snapshot order: sort by discovery (parents first).
        return plan
    }
}

/// A machine a restore puts in the tree: its box, its parent's index in the plan (-1: the subtree's
/// root), the parent state that runs it, and its timers with the time each has left.
typealias RestoredMachine = (box: AnyMachineBox, parent: Int, parentState: Int32,
                             timers: [(timer: FlowTimer, left: Duration)])

extension MachineSnapshot {
    /// The leaves a machine resumes in: ``leaves``, or ``state`` alone.
    var resumeLeaves: [String] { leaves.isEmpty ? [state] : leaves }
}
