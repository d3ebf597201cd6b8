/// One machine of a live tree, as ``Supervisor/machines`` reports it.
public struct MachineInfo: Hashable, Sendable, CustomStringConvertible {
    /// The machine.
    public let id: MachineID
    /// Its flow's name.
    public let flow: String
    /// Its current state's label.
    public let state: String
    /// The machine it runs under, if any.
    public let parent: MachineID?
    /// The machines running under it, in spawn order.
    public let children: [MachineID]
    /// For a declared child, the label of the parent state that runs it.
    public let slot: String?
    /// Whether it is bound to an owner's lifetime.
    public let isOwnerBound: Bool
    /// How deep it is: 0 for a root.
    public let depth: Int

    /// An indented line: `#3 sign-up in password (in parent state signingUp)`.
    public var description: String {
        String(repeating: "  ", count: depth) + "\(id) \(flow) in \(state)" + (slot.map { " (runs in \($0))" } ?? "")
    }
}

extension Supervisor {
    /// Every live machine, depth first: each root, then its children in spawn order.
    public var machines: [MachineInfo] {
        var result: [MachineInfo] = []
        func visit(_ id: MachineID, depth: Int) {
            guard let node = allNodes[id] else { return }
            let slot = node.slot.flatMap { index in node.parent.flatMap { allNodes[$0]?.box.label(ofState: index) } }
            result.append(MachineInfo(id: id, flow: node.box.flowName, state: node.box.stateLabel, parent: node.parent,
                                      children: node.children, slot: slot, isOwnerBound: node.ownerBound, depth: depth))
            for child in node.children { visit(child, depth: depth + 1) }
        }
        for root in rootIDs { visit(root, depth: 0) }
        return result
    }

    /// How many machines are alive.
    public var liveCount: Int { allNodes.count }

    /// Whether the machine is alive.
    public func contains(_ machine: MachineID) -> Bool { allNodes[machine] != nil }

    /// A typed handle to a live machine found by inspection (``machines``, tree events), or `nil`
    /// if the machine is gone or runs another flow.
    public func handle<F: Flow>(_ machine: MachineID, as flow: F.Type = F.self) -> MachineHandle<F>? {
        allNodes[machine]?.box is MachineBox<F> ? MachineHandle(id: machine) : nil
    }

    /// The structure of a live machine's flow, for drawing; `nil` if the machine is gone.
    public func outline(of machine: MachineID) -> FlowOutline? { allNodes[machine]?.box.outline }

    /// The machine's current state, or `nil` if it is gone.
    public func state<F: Flow>(of machine: MachineHandle<F>) -> F.State? {
        (allNodes[machine.id]?.box as? MachineBox<F>)?.machine.state
    }

    /// The live tree as indented text, one machine a line.
    public var treeDescription: String { machines.map(\.description).joined(separator: "\n") }

    /// Checks the tree's invariants (for tests): every machine's parent is alive and lists it exactly
    /// once, every listed child is alive and points back, and every machine is reachable from a root.
    public func checkInvariants() -> [String] {
        var problems: [String] = []
        var reached = Set<MachineID>()
        func visit(_ id: MachineID) {
            guard reached.insert(id).inserted else {
                problems.append("\(id) is reached twice")
                return
            }
            guard let node = allNodes[id] else {
                problems.append("\(id) is listed but gone (a zombie reference)")
                return
            }
            for child in node.children {
                if allNodes[child]?.parent != id { problems.append("\(child) is listed under \(id) but points elsewhere") }
                visit(child)
            }
        }
        for root in rootIDs {
            if allNodes[root]?.parent != nil { problems.append("root \(root) has a parent") }
            visit(root)
        }
        for id in allNodes.keys where !reached.contains(id) { problems.append("\(id) is alive but unreachable (a zombie)") }
        return problems
    }
}
