/// The baseline for spawn and teardown: a hand-written tree with the bookkeeping a supervisor needs
/// and nothing more. A class per node with a parent link, its children in spawn order, a dictionary
/// from identity to node, and a teardown that visits children first, in reverse spawn order, and
/// removes each node from the dictionary.
final class HandNode {
    let id: UInt64
    unowned let parent: HandNode?
    var children: [HandNode] = []
    var state = Screen.State.shown

    init(id: UInt64, parent: HandNode?) {
        self.id = id
        self.parent = parent
    }
}

final class HandTree {
    private(set) var nodes: [UInt64: HandNode] = [:]
    private var nextID: UInt64 = 1

    @discardableResult
    func spawn(under parent: HandNode?) -> HandNode {
        let node = HandNode(id: nextID, parent: parent)
        nextID += 1
        nodes[node.id] = node
        parent?.children.append(node)
        return node
    }

    /// Children first, siblings in reverse spawn order; returns how many nodes went.
    @discardableResult
    func tearDown(_ node: HandNode) -> Int {
        var count = 1
        for child in node.children.reversed() { count += tearDown(child) }
        node.children = []
        node.state = .closed
        nodes[node.id] = nil
        return count
    }
}

/// The same shape as `spawnTree(_:count:levels:)` with three levels: a root, `fanOut` parents
/// under it and `fanOut` children under each.
@inline(never)
func handTree(_ tree: HandTree, fanOut: Int) -> HandNode {
    let root = tree.spawn(under: nil)
    for _ in 0..<fanOut {
        let mid = tree.spawn(under: root)
        for _ in 0..<fanOut { tree.spawn(under: mid) }
    }
    return root
}
