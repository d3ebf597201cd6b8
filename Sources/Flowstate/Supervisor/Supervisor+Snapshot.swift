/// A `Codable` picture of one machine and the declared children under it: enough to rebuild the tree
/// after the app is relaunched.
///
/// States are recorded by label (`String(describing:)` of the state), so a state type needs no `Codable`
/// conformance; restoring checks every label against the definition and says what no longer matches.
public struct MachineSnapshot: Codable, Hashable, Sendable {
    /// The flow's name.
    public var flow: String
    /// The label of the machine's current (leaf) state.
    public var state: String
    /// For a declared child: the label of the parent state that runs it. `nil` for a root, or a child
    /// spawned dynamically (which is not restored: its owner is an object of the previous launch).
    public var slot: String?
    /// The machines under it, in spawn order.
    public var children: [MachineSnapshot]
}

/// A `Codable` snapshot of a supervisor's whole tree.
public struct TreeSnapshot: Codable, Hashable, Sendable {
    /// The format's version.
    public var version: Int = 1
    /// Each root, with its subtree.
    public var roots: [MachineSnapshot]
}

extension Supervisor {
    /// A snapshot of every live machine, in tree order.
    public func snapshot() -> TreeSnapshot {
        func capture(_ id: MachineID) -> MachineSnapshot? {
            guard let node = allNodes[id] else { return nil }
            let slot = node.slot.flatMap { index in node.parent.flatMap { allNodes[$0]?.box.label(ofState: index) } }
            return MachineSnapshot(flow: node.box.flowName, state: node.box.stateLabel, slot: slot,
                                   children: node.children.compactMap(capture))
        }
        return TreeSnapshot(roots: rootIDs.compactMap(capture))
    }

    /// Rebuilds a root machine and its declared children from a snapshot, without performing any
    /// effect: the host rebuilds its screens from the restored states. Children that were spawned
    /// dynamically are not restored (their owners belonged to the previous launch).
    /// - Throws: ``SupervisorError/Code/snapshotMismatch`` naming the flow, state or child that the
    ///   definition no longer has; nothing is restored then.
    @discardableResult
    public func restore<F: Flow>(
        _ snapshot: MachineSnapshot,
        definition: FlowDefinition<F>,
        policy: FailurePolicy = .escalate,
        handler: @escaping EffectHandler<F>
    ) throws(SupervisorError) -> MachineHandle<F> {
        try restoreTree(snapshot, definition: definition, handler: handler, parent: nil, owner: nil, policy: policy,
                        onTeardown: nil, mapOutput: nil)
    }

    /// Rebuilds a dynamically spawned child (and the declared children under it) from its snapshot,
    /// under `parent` and bound to a new `owner`: what a coordinator does for a child whose screen it
    /// shows again after a relaunch. No effect is performed.
    /// - Throws: ``SupervisorError/Code/snapshotMismatch`` if the definition no longer matches;
    ///   ``SupervisorError/Code/machineGone`` if `parent` is gone.
    @discardableResult
    public func restore<C: Flow, P: Flow>(
        _ snapshot: MachineSnapshot,
        definition: FlowDefinition<C>,
        under parent: MachineHandle<P>,
        owner: AnyObject? = nil,
        policy: FailurePolicy = .escalate,
        onTeardown: ((TeardownReason) -> Void)? = nil,
        handler: @escaping EffectHandler<C>,
        output: @escaping @Sendable (C.Output) -> P.Event?
    ) throws(SupervisorError) -> MachineHandle<C> {
        guard allNodes[parent.id] != nil else {
            throw SupervisorError(code: .machineGone, message: "cannot restore '\(definition.name)' under \(parent.id): it is gone")
        }
        return try restoreTree(snapshot, definition: definition, handler: handler, parent: parent.id, owner: owner,
                               policy: policy, onTeardown: onTeardown, mapOutput: { output($0 as! C.Output) })
    }

    /// Checks a whole snapshot against the definition, then rebuilds the machine and its declared
    /// children, performing no effect.
    private func restoreTree<F: Flow>(
        _ snapshot: MachineSnapshot, definition: FlowDefinition<F>, handler: @escaping EffectHandler<F>,
        parent: MachineID?, owner: AnyObject?, policy: FailurePolicy, onTeardown: ((TeardownReason) -> Void)?,
        mapOutput: ((any Sendable) -> (any Sendable)?)?
    ) throws(SupervisorError) -> MachineHandle<F> {
        guard snapshot.flow == definition.name else {
            throw SupervisorError(code: .snapshotMismatch,
                                  message: "snapshot is of flow '\(snapshot.flow)', not '\(definition.name)'")
        }
        let make = { (state: String?) throws(SupervisorError) -> any AnyMachineBox in
            try MachineBox<F>(definition: definition, resumingIn: state, handler: .handler(handler))
        }
        let box = try make(snapshot.state)
        // Check the whole snapshot before creating anything.
        let plans = try plan(snapshot, box: box)
        let node = insertRestored({ () throws(SupervisorError) in try make(nil) }, box: box, parent: parent, slot: nil,
                                  policy: policy, mapOutput: mapOutput, mapFailure: nil, owner: owner,
                                  onTeardown: onTeardown)
        build(plans, under: node.id)
        return MachineHandle(id: node.id)
    }

    private struct Plan {
        var spec: AnyChildFlow
        var slot: Int
        var box: any AnyMachineBox
        var children: [Plan]
    }

    private func plan(_ snapshot: MachineSnapshot, box: any AnyMachineBox) throws(SupervisorError) -> [Plan] {
        var plans: [Plan] = []
        for child in snapshot.children {
            guard let slotLabel = child.slot else { continue }  // dynamic: not restored
            guard let slot = box.stateIndex(labelled: slotLabel) else {
                throw SupervisorError(code: .snapshotMismatch,
                                      message: "flow '\(box.flowName)' has no state '\(slotLabel)' to run '\(child.flow)' in")
            }
            guard box.activeIndices.contains(slot) else {
                throw SupervisorError(code: .snapshotMismatch,
                                      message: "state '\(slotLabel)' of flow '\(box.flowName)' is not active in the snapshot")
            }
            guard let spec = box.childFlow(at: slot), spec.name == child.flow else {
                throw SupervisorError(code: .snapshotMismatch,
                                      message: "state '\(slotLabel)' of flow '\(box.flowName)' no longer runs '\(child.flow)'")
            }
            let childBox = try spec.make(child.state)
            plans.append(Plan(spec: spec, slot: slot, box: childBox, children: try plan(child, box: childBox)))
        }
        return plans
    }

    private func build(_ plans: [Plan], under parent: MachineID) {
        for plan in plans {
            let spec = plan.spec
            let node = insertRestored({ () throws(SupervisorError) in try spec.make(nil) }, box: plan.box,
                                      parent: parent, slot: plan.slot, policy: spec.policy,
                                      mapOutput: spec.mapOutput, mapFailure: spec.mapFailure)
            build(plan.children, under: node.id)
        }
    }
}
