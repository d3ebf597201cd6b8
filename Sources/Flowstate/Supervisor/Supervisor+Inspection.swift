/// One machine of a live tree, as ``Supervisor/machines`` reports it.
public struct MachineInfo: Hashable, Sendable, CustomStringConvertible {
    /// The machine.
    public let id: MachineID
    /// Its flow's name.
    public let flow: String
    /// Its current state's label; for a flow with parallel states, every active leaf's label in
    /// document order, joined by ", " (``leaves`` lists them).
    public let state: String
    /// The labels of its active leaves, in document order: one, or, with parallel states, one per
    /// active region.
    public let leaves: [String]
    /// The machine it runs under, if any.
    public let parent: MachineID?
    /// The machines running under it, in sibling order (spawn order; declared children in document
    /// order of their states).
    public let children: [MachineID]
    /// For a declared child, the label of the parent state that runs it.
    public let parentState: String?
    /// Whether it is bound to an owner's lifetime.
    public let isOwnerBound: Bool
    /// How deep it is: 0 for a root.
    public let depth: Int

    /// An indented line: `#3 sign-up in password (in parent state signingUp)`.
    public var description: String {
        String(repeating: "  ", count: depth) + "\(id) \(flow) in \(state)" + (parentState.map { " (runs in \($0))" } ?? "")
    }
}

extension Supervisor {
    /// Every live machine, depth first: each root, then its children in sibling order.
    public var machines: [MachineInfo] {
        liveTree().map { slot, depth in
            let node = core[slot]
            let box = box(slot)
            let parentStateLabel = node.parentState >= 0 ? self.box(node.parent).described.label(ofState: Int(node.parentState)) : nil
            return MachineInfo(id: box.id(in: self), flow: box.flowName, state: box.described.stateLabel,
                               leaves: box.described.stateLabels,
                               parent: node.parent >= 0 ? core.id(of: node.parent) : nil,
                               children: core.children(of: slot).map { core.id(of: $0) }, parentState: parentStateLabel,
                               isOwnerBound: box.ownerBound, depth: depth)
        }
    }

    /// How many machines are alive.
    public var liveCount: Int {
        _ = liveTree().isEmpty
        return core.liveCount
    }

    /// Whether the machine is alive (started, or spawned from a handler and about to start).
    public func contains(_ machine: MachineID) -> Bool { slot(of: machine) != nil }

    /// The handle of a live machine found by inspection (``machines``, tree events): a typed
    /// ``MachineHandle``, or `nil` if the machine is gone, belongs to another supervisor, or runs
    /// another flow. A noun: a supervisor's *handler* performs effects (docs/ARCHITECTURE.md, "Glossary").
    public func handle<F: Flow>(of machine: MachineID, as flow: F.Type = F.self) -> MachineHandle<F>? {
        guard let slot = slot(of: machine), box(slot) is MachineBox<F> else { return nil }
        return MachineHandle(id: machine)
    }

    /// The structure of a live machine's flow, for drawing; `nil` if the machine is gone.
    public func outline(of machine: MachineID) -> FlowOutline? { slot(of: machine).map { box($0).described.outline } }

    /// The machine's current state, or `nil` if it is gone. For a flow with parallel states, the
    /// first active leaf in document order: ``leaves(of:)`` lists them all.
    public func state<F: Flow>(of machine: MachineHandle<F>) -> F.State? {
        guard let slot = slot(of: machine.id) else { return nil }
        return (box(slot) as? MachineBox<F>)?.machine.state
    }

    /// The machine's active leaves in document order (one, or, with parallel states, one per active
    /// region), or `nil` if it is gone.
    public func leaves<F: Flow>(of machine: MachineHandle<F>) -> [F.State]? {
        guard let slot = slot(of: machine.id), let box = box(slot) as? MachineBox<F> else { return nil }
        return box.machine.leafPositions.map { box.machine.table.states[$0] }
    }

    /// A copy of a live machine's engine, to explore without changing the machine (the coordinator's
    /// deep links look for the events that lead to a route's target with it), or `nil` if it is gone.
    package func engine<F: Flow>(of machine: MachineHandle<F>) -> FlowMachine<F>? {
        guard let slot = slot(of: machine.id), let box = box(slot) as? MachineBox<F> else { return nil }
        return box.machine
    }

    /// The machine's context (its flow's data, as its updates have changed it), or `nil` if it is gone.
    public func context<F: Flow>(of machine: MachineHandle<F>) -> F.Context? {
        guard let slot = slot(of: machine.id) else { return nil }
        return (box(slot) as? MachineBox<F>)?.machine.context
    }

    /// The live tree as indented text, one machine a line.
    public var treeDescription: String { machines.map(\.description).joined(separator: "\n") }

    /// Checks the tree's invariants (for tests): every machine's parent is alive and lists it exactly
    /// once, every listed child is alive and points back, every machine is reachable from a root, the
    /// count of live machines is right, and outside a step no machine is being torn down.
    package func checkInvariants() -> [String] {
        var problems: [String] = []
        var reached = 0
        var seen = Set<Int32>()
        for (slot, _) in core.preorder() {
            reached += 1
            guard seen.insert(slot).inserted else {
                problems.append("slot \(slot) is reached twice")
                continue
            }
            let node = core[slot]
            if node.serial == 0 { problems.append("slot \(slot) is listed but free (a zombie reference)") }
            if boxes[Int(slot)] == nil { problems.append("\(core.id(of: slot)) has no machine") }
            if !core.isProcessing && node.lifecycle == .stopping {
                problems.append("\(core.id(of: slot)) is still being torn down after the step")
            }
            for child in core.children(of: slot) where core[child].parent != slot {
                problems.append("\(core.id(of: child)) is listed under \(core.id(of: slot)) but points elsewhere")
            }
        }
        if reached != core.liveCount {
            problems.append("\(core.liveCount) machines are alive but \(reached) are reachable (a zombie)")
        }
        let boxed = boxes.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
        if boxed != core.liveCount { problems.append("\(boxed) machines are held for \(core.liveCount) alive") }
        return problems
    }
}
