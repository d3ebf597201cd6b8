import DequeModule

/// The result of a breadth-first exploration (``FlowExplorer``): the nodes in the order they were
/// discovered, every edge explored, and the tree of first discoveries, which holds a shortest path to
/// every node. The one explorer behind the paths of flow files (`FlowSpec`'s `FlowFilePathfinder`) and of
/// typed definitions (`FlowTesting`'s `FlowPathfinder`).
///
/// Node 0 is the start. Each node but the start keeps the edge that discovered it (its parent edge);
/// the edges leaving a node were explored together, so they are numbered consecutively, and a node's
/// edges follow those of the nodes discovered before it. Nothing here recurses: paths are followed
/// up the tree in loops, and their memory is linear in the nodes and edges explored.
package struct FlowExploration<Key, Label> {
    /// Each node's key, in the order the nodes were discovered (breadth first).
    package fileprivate(set) var keys: [Key]
    /// Each edge's label, in the order the edges were explored.
    package fileprivate(set) var labels: [Label]
    /// Whether every node reachable was kept, rather than some refused at the node limit.
    package fileprivate(set) var isComplete = true
    /// The edge that discovered each node, or -1 for the start.
    fileprivate var parents: [Int32]
    /// The node each edge leaves.
    fileprivate var sources: [Int32] = []
    /// The node each edge reaches.
    fileprivate var targets: [Int32] = []

    /// How many nodes were discovered.
    package var nodeCount: Int { keys.count }
    /// How many edges were explored.
    package var edgeCount: Int { labels.count }

    /// The edge that discovered `node`, or `nil` for the start.
    package func parentEdge(of node: Int) -> Int? {
        parents[node] < 0 ? nil : Int(parents[node])
    }

    /// The node `edge` leaves.
    package func source(of edge: Int) -> Int { Int(sources[edge]) }

    /// The node `edge` reaches.
    package func target(of edge: Int) -> Int { Int(targets[edge]) }

    /// The same exploration with each node's key transformed (to keep less of it, for example).
    package func mapKeys<New>(_ transform: (Key) -> New) -> FlowExploration<New, Label> {
        FlowExploration<New, Label>(keys: keys.map(transform), labels: labels, isComplete: isComplete,
                                    parents: parents, sources: sources, targets: targets)
    }

    // MARK: Shortest paths

    /// How many edges the tree path from the start to `node` has.
    private func depth(of node: Int) -> Int {
        var length = 0
        var current = node
        while parents[current] >= 0 {
            length += 1
            current = Int(sources[Int(parents[current])])
        }
        return length
    }

    /// The edges of the shortest path found from the start to `node` (along the tree of first
    /// discoveries), then `last` if given: one array, filled from its end.
    package func treeEdges(to node: Int, then last: Int? = nil) -> [Int] {
        pathFromEnd(to: node, then: last) { $0 }
    }

    /// The labels of ``treeEdges(to:then:)``: one array, filled from its end.
    package func labels(to node: Int, then last: Int? = nil) -> [Label] {
        pathFromEnd(to: node, then: last) { labels[$0] }
    }

    /// A value for each edge of the tree path to `node`, then for `last`, in path order.
    private func pathFromEnd<T>(to node: Int, then last: Int?, _ value: (Int) -> T) -> [T] {
        let length = depth(of: node) + (last == nil ? 0 : 1)
        // Not `Array(unsafeUninitializedCapacity: 0)`: it writes the count into the storage that all
        // empty arrays share, a data race between explorations on two threads (`make sanitize`).
        guard length > 0 else { return [] }
        return [T](unsafeUninitializedCapacity: length) { buffer, count in
            var position = length
            if let last {
                position -= 1
                (buffer.baseAddress! + position).initialize(to: value(last))
            }
            var current = node
            while parents[current] >= 0 {
                let edge = Int(parents[current])
                position -= 1
                (buffer.baseAddress! + position).initialize(to: value(edge))
                current = Int(sources[edge])
            }
            count = length
        }
    }

    /// For each state of `hierarchy`, the first node (in discovery order, so at the end of a shortest
    /// path) with a leaf state that is the state or inside it, or -1 when no node has one.
    /// - Parameters:
    ///   - hierarchy: The flow's states.
    ///   - leaves: The leaf states a node's key rests in (one; with parallel states, one per region).
    package func firstNodes<Leaves: Sequence<Int>>(inside hierarchy: FlowHierarchy, leaves: (Key) -> Leaves) -> [Int32] {
        var first = [Int32](repeating: -1, count: hierarchy.count)
        for node in keys.indices {
            for leaf in leaves(keys[node]) {
                // The states marked so far are closed under ancestry: the first marked ancestor's
                // ancestors are marked already.
                for state in hierarchy.ancestorsOrSelf(of: leaf) {
                    if first[state] >= 0 { break }
                    first[state] = Int32(node)
                }
            }
        }
        return first
    }

    // MARK: Transition cover

    /// A transition cover, as model-based test generators produce: for each explored edge that takes a
    /// transition not yet taken (in edge order), the shortest path to its source followed by the edge
    /// (the edges on the way take transitions too, and count); a sequence that is a prefix of another
    /// is left out (the longer one takes all its transitions). Linear in the exploration's size: each
    /// node's path is counted once.
    /// - Parameters:
    ///   - start: The transitions taken before the first edge (the start's eventless ones).
    ///   - transitionCount: How many transitions there are; each is numbered below it.
    ///   - taking: The transitions an edge takes.
    /// - Returns: The last edge of each sequence kept, in edge order (a sequence is
    ///   `treeEdges(to: source(of: end), then: end)`), and for each transition whether the start or
    ///   an explored edge takes it.
    package func transitionCover<Taken: Sequence<Int>>(
        start: some Sequence<Int>, transitionCount: Int, taking: (Int) -> Taken
    ) -> (ends: [Int], covered: [Bool]) {
        var covered = [Bool](repeating: false, count: transitionCount)
        for t in start { covered[t] = true }
        var chosen: [Int] = []
        var included = [Bool](repeating: false, count: nodeCount)  // nodes whose tree path is counted
        for edge in 0..<edgeCount where !taking(edge).allSatisfy({ covered[$0] }) {
            chosen.append(edge)
            for t in taking(edge) { covered[t] = true }
            var node = Int(sources[edge])
            while !included[node], parents[node] >= 0 {
                included[node] = true
                let step = Int(parents[node])
                for t in taking(step) { covered[t] = true }
                node = Int(sources[step])
            }
        }
        // A sequence is a prefix of another exactly when its last edge discovered a node on the tree
        // path to another sequence's last source: mark those paths (ancestor-closed, so each stops
        // at the first node marked before).
        var onPaths = [Bool](repeating: false, count: nodeCount)
        for edge in chosen {
            var node = Int(sources[edge])
            while !onPaths[node] {
                onPaths[node] = true
                guard parents[node] >= 0 else { break }
                node = Int(sources[Int(parents[node])])
            }
        }
        let ends = chosen.filter { edge in
            let to = Int(targets[edge])
            return !(to != Int(sources[edge]) && Int(parents[to]) == edge && onPaths[to])
        }
        return (ends, covered)
    }

    /// The bytes the exploration keeps (array capacities), for tests that keep it linear.
    package var footprint: Int {
        keys.capacity * MemoryLayout<Key>.stride + labels.capacity * MemoryLayout<Label>.stride
            + (parents.capacity + sources.capacity + targets.capacity) * MemoryLayout<Int32>.stride
    }
}

extension FlowExploration: Sendable where Key: Sendable, Label: Sendable {}

/// A breadth-first search over nodes told apart by a key, one step at a time: ``next()`` hands out the
/// next node to expand, with the run it carries (a machine, an interpreter: whatever produces its
/// successors), and ``reach(_:by:exploring:)`` records each edge its expansion finds. A key seen
/// before adds an edge to the node it names; a new one, a node, discovered by that edge, and expanded
/// later (breadth first) unless its run is `nil` (a run that finished). ``exploration`` is the result.
///
/// At most `limit` nodes are kept: an edge that would discover one more is dropped, and the
/// exploration is then incomplete. The search is a loop over a queue, never recursion.
package struct FlowExplorer<Key: Hashable, Label, Run> {
    /// What has been explored so far.
    package private(set) var exploration: FlowExploration<Key, Label>
    /// The node of each key seen.
    private var lookup: [Key: Int32]
    /// The nodes waiting to be expanded, with their runs, in discovery order.
    private var frontier = Deque<(node: Int32, run: Run)>()
    /// The node being expanded: the source of the edges recorded.
    private var current: Int32 = -1
    /// The most nodes kept.
    private let limit: Int

    /// An edge recorded by ``FlowExplorer/reach(_:by:exploring:)``.
    package struct Reached {
        /// The edge's number.
        package var edge: Int
        /// The node it reaches.
        package var node: Int
        /// Whether the edge discovered the node.
        package var isNew: Bool
    }

    /// Starts an exploration at `start`.
    /// - Parameters:
    ///   - start: The start's key: node 0.
    ///   - run: What expands the start, or `nil` when nothing does (a run finished at once).
    ///   - limit: The most nodes kept (at least 1).
    package init(start: Key, run: Run?, limit: Int = .max) {
        exploration = FlowExploration(keys: [start], labels: [], parents: [-1])
        lookup = [start: 0]
        self.limit = max(1, limit)
        if let run { frontier.append((0, run)) }
    }

    /// The next node to expand, breadth first: its number, key and run; `nil` when none is left. The
    /// edges recorded until the next call leave it.
    package mutating func next() -> (node: Int, key: Key, run: Run)? {
        guard let (node, run) = frontier.popFirst() else { return nil }
        current = node
        return (Int(node), exploration.keys[Int(node)], run)
    }

    /// Records an edge from the node being expanded to the node `key` names, discovering that node if
    /// the key is new.
    /// - Parameters:
    ///   - key: The node reached.
    ///   - label: The edge's label.
    ///   - run: What expands the node if it is new, or `nil` when it is not to be expanded.
    /// - Returns: The edge, or `nil` when the key is new and the limit keeps no more nodes (the edge is
    ///   dropped, and the exploration is incomplete).
    @discardableResult
    package mutating func reach(_ key: Key, by label: Label, exploring run: Run?) -> Reached? {
        precondition(current >= 0, "reach(_:by:exploring:) records an edge from the node next() returned: call next() first")
        let node: Int32
        let isNew: Bool
        if let known = lookup[key] {
            node = known
            isNew = false
        } else {
            guard exploration.keys.count < limit else {
                exploration.isComplete = false
                return nil
            }
            node = Int32(exploration.keys.count)
            isNew = true
            lookup[key] = node
            exploration.keys.append(key)
            exploration.parents.append(Int32(exploration.labels.count))
            if let run { frontier.append((node, run)) }
        }
        exploration.sources.append(current)
        exploration.targets.append(node)
        exploration.labels.append(label)
        return Reached(edge: exploration.labels.count - 1, node: Int(node), isNew: isNew)
    }
}
