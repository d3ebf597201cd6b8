import Flowstate
import PropertyBased
import Testing

/// A random directed graph to explore: node 0 is the start, each edge takes some of `transitionCount`
/// numbered transitions, some nodes are finished (never expanded), and the exploration may keep at
/// most `limit` nodes. Built from generated numbers, which shrink towards a graph of one node.
struct ExplorerCase: Sendable, CustomStringConvertible {
    static let transitionCount = 6
    /// For each node, its edges in the order the expansion finds them: target and transitions taken.
    var edges: [[(to: Int, takes: [Int])]]
    var finished: Set<Int>
    var start: [Int]
    var limit: Int
    /// Each node's parent state in a hierarchy over the nodes (a parent numbered before its child).
    var parents: [Int]

    init(count: Int, genes: [Int], limitPick: Int) {
        var g = genes.makeIterator()
        func next() -> Int { g.next() ?? 0 }
        edges = Array(repeating: [], count: count)
        finished = []
        parents = (0..<count).map { _ in -1 }
        for node in 1..<max(count, 1) {
            parents[node] = next() % (node + 1) - 1
            if next() % 5 == 0 { finished.insert(node) }
        }
        start = next() % 3 == 0 ? [next() % Self.transitionCount] : []
        while let source = g.next() {
            let takes = (0..<(next() % 3)).map { _ in next() % Self.transitionCount }
            edges[source % count].append((next() % count, takes))
        }
        limit = limitPick == 0 ? .max : limitPick
    }

    var description: String { "edges: \(edges), finished: \(finished.sorted()), start: \(start), limit: \(limit), parents: \(parents)" }

    /// The label of an edge: where it was found (node, position in its list).
    struct Label: Hashable { var from: Int; var position: Int }

    /// Runs the explorer: keys and runs are node numbers.
    func explore() -> FlowExploration<Int, Label> {
        var explorer = FlowExplorer<Int, Label, Int>(start: 0, run: finished.contains(0) ? nil : 0, limit: limit)
        while let (node, key, run) = explorer.next() {
            precondition(key == run)
            for (position, edge) in edges[run].enumerated() {
                let reached = explorer.reach(edge.to, by: Label(from: run, position: position),
                                             exploring: finished.contains(edge.to) ? nil : edge.to)
                precondition(reached.map { explorer.exploration.source(of: $0.edge) == node } ?? true)
            }
        }
        return explorer.exploration
    }
}

/// A breadth-first search as a textbook writes it, apart from the explorer: the graph's nodes in the
/// order first seen, the edges followed (in the order followed, with the node each discovered), and
/// whether a node was refused at the limit.
struct ReferenceBFS {
    var order: [Int] = []
    var followed: [(from: Int, to: Int, position: Int)] = []
    var discoveredBy: [Int: Int] = [:]  // node -> index in `followed`
    var refused = false

    init(_ c: ExplorerCase) {
        var queue: [Int] = []
        var seen = Set<Int>()
        func discover(_ node: Int) {
            seen.insert(node)
            order.append(node)
            if !c.finished.contains(node) { queue.append(node) }
        }
        discover(0)
        var head = 0
        while head < queue.count {
            let u = queue[head]
            head += 1
            for (position, edge) in c.edges[u].enumerated() {
                if !seen.contains(edge.to) {
                    guard order.count < c.limit else {
                        refused = true
                        continue
                    }
                    discoveredBy[edge.to] = followed.count
                    followed.append((u, edge.to, position))
                    discover(edge.to)
                } else {
                    followed.append((u, edge.to, position))
                }
            }
        }
    }

    /// Each node's distance from the start, by layers (no parent pointers): layer k + 1 is every node
    /// an expandable node of layer k leads to that no earlier layer holds. Without a limit only.
    static func distances(_ c: ExplorerCase) -> [Int: Int] {
        var distance = [0: 0]
        var layer = [0]
        var k = 0
        while !layer.isEmpty {
            k += 1
            var nextLayer: [Int] = []
            for u in layer where !c.finished.contains(u) {
                for edge in c.edges[u] where distance[edge.to] == nil {
                    distance[edge.to] = k
                    nextLayer.append(edge.to)
                }
            }
            layer = nextLayer
        }
        return distance
    }
}

@Suite("FlowExplorer: the one breadth-first explorer of flows")
struct FlowExplorerTests {
    //  0 -a-> 1 -c-> 3
    //  0 -b-> 2 -d-> 3 -e-> 0
    static let diamond = ExplorerCase(edges: [[(1, [0]), (2, [1])], [(3, [2])], [(3, [3])], [(0, [4])]])

    @Test("A diamond: nodes breadth first, every edge kept, the first discovery is the tree")
    func diamondExploration() {
        let tree = Self.diamond.explore()
        #expect(tree.keys == [0, 1, 2, 3])
        #expect(tree.edgeCount == 5 && tree.isComplete)
        #expect((0..<tree.edgeCount).map { [tree.source(of: $0), tree.target(of: $0)] } == [[0, 1], [0, 2], [1, 3], [2, 3], [3, 0]])
        #expect((0..<4).map(tree.parentEdge(of:)) == [nil, 0, 1, 2])
        #expect(tree.treeEdges(to: 3) == [0, 2])
        #expect(tree.treeEdges(to: 0).isEmpty)
        #expect(tree.treeEdges(to: 2, then: 3) == [1, 3])
        #expect(tree.labels(to: 3, then: 4).map(\.from) == [0, 1, 3])
        #expect(tree.mapKeys { "n\($0)" }.keys == ["n0", "n1", "n2", "n3"])
    }

    @Test("Reaching: a new key is a node discovered by the edge; a known one adds an edge only; the limit drops the edge")
    func reaching() throws {
        var explorer = FlowExplorer<String, Int, String>(start: "a", run: "a", limit: 2)
        let popped = explorer.next()
        let (node, key, run) = try #require(popped)
        #expect(node == 0 && key == "a" && run == "a")
        let first = explorer.reach("b", by: 10, exploring: nil)
        #expect(first?.edge == 0 && first?.node == 1 && first?.isNew == true)
        let again = explorer.reach("b", by: 11, exploring: "b")
        #expect(again?.edge == 1 && again?.node == 1 && again?.isNew == false)
        #expect(explorer.reach("c", by: 12, exploring: "c") == nil, "a third node is over the limit")
        #expect(explorer.reach("a", by: 13, exploring: "a")?.isNew == false, "a known node is still reached")
        #expect(explorer.next() == nil, "b was discovered without a run: it is not expanded")
        #expect(explorer.exploration.labels == [10, 11, 13])
        #expect(!explorer.exploration.isComplete)
    }

    @Test("A chain of 200,000 nodes: paths are followed in loops, not recursion, and kept in a few words a node")
    func longChain() {
        let n = 200_000
        var explorer = FlowExplorer<Int, Int, Int>(start: 0, run: 0)
        while let (_, key, run) = explorer.next(), key + 1 < n {
            explorer.reach(run + 1, by: run, exploring: run + 1)
        }
        let tree = explorer.exploration
        #expect(tree.nodeCount == n && tree.isComplete)
        #expect(tree.treeEdges(to: n - 1).count == n - 1)
        #expect(tree.labels(to: n - 1) == Array(0..<(n - 1)))
        let (ends, covered) = tree.transitionCover(start: [], transitionCount: n) { [$0] }
        #expect(ends == [n - 2], "one sequence takes the whole chain")
        #expect(covered.dropLast().allSatisfy { $0 } && !covered[n - 1])
        #expect(tree.footprint < 64 * n, "\(tree.footprint / n) bytes a node")
    }

    @Test("Random graphs: the explorer agrees with a textbook breadth-first search, its paths are shortest, its cover is the greedy one")
    func agreesWithReference() async {
        let cases = zip(Gen.int(in: 1...9), Gen.int(in: 0...99).array(of: 0...48), Gen.int(in: 0...8))
            .map { ExplorerCase(count: $0, genes: $1, limitPick: $2) }
        await propertyCheck(count: 500, input: cases) { c in
            let tree = c.explore()
            let reference = ReferenceBFS(c)
            // The nodes, edges and tree of a textbook search.
            #expect(tree.keys == reference.order, "order\n\(c)")
            #expect(tree.isComplete == !reference.refused, "complete\n\(c)")
            #expect(tree.edgeCount == reference.followed.count, "edges\n\(c)")
            for (e, edge) in reference.followed.enumerated() where e < tree.edgeCount {
                #expect(tree.keys[tree.source(of: e)] == edge.from && tree.keys[tree.target(of: e)] == edge.to
                        && tree.labels[e] == ExplorerCase.Label(from: edge.from, position: edge.position), "edge \(e)\n\(c)")
            }
            for (node, key) in tree.keys.enumerated() {
                #expect(tree.parentEdge(of: node) == reference.discoveredBy[key], "parent of \(key)\n\(c)")
            }
            // Each tree path is a walk from the start to its node, as long as the node's distance.
            let distances = ReferenceBFS.distances(c)
            for node in 0..<tree.nodeCount {
                let path = tree.treeEdges(to: node)
                var at = 0
                for e in path {
                    #expect(tree.source(of: e) == at, "path to \(node) breaks at \(e)\n\(c)")
                    at = tree.target(of: e)
                }
                #expect(at == node, "path to \(node) ends at \(at)\n\(c)")
                #expect(tree.labels(to: node) == path.map { tree.labels[$0] }, "labels to \(node)\n\(c)")
                if c.limit == .max {
                    #expect(path.count == distances[tree.keys[node]], "path to \(tree.keys[node]) is not shortest\n\(c)")
                }
            }
            if c.limit == .max { #expect(Set(tree.keys) == Set(distances.keys), "reachable\n\(c)") }
            // The cover: the greedy cover with prefixes dropped, written naively.
            let (ends, covered) = tree.transitionCover(start: c.start, transitionCount: ExplorerCase.transitionCount) { e in
                c.edges[tree.labels[e].from][tree.labels[e].position].takes
            }
            let sequences = ends.map { tree.treeEdges(to: tree.source(of: $0), then: $0) }
            func takes(_ e: Int) -> [Int] { c.edges[tree.labels[e].from][tree.labels[e].position].takes }
            var naiveCovered = Set(c.start)
            var chosen: [[Int]] = []
            for e in 0..<tree.edgeCount where !Set(takes(e)).isSubset(of: naiveCovered) {
                let sequence = tree.treeEdges(to: tree.source(of: e)) + [e]
                chosen.append(sequence)
                for step in sequence { naiveCovered.formUnion(takes(step)) }
            }
            let kept = chosen.filter { s in !chosen.contains { $0.count > s.count && Array($0.prefix(s.count)) == s } }
            #expect(sequences == kept, "cover\n\(c)")
            let everything = Set(c.start).union((0..<tree.edgeCount).flatMap(takes))
            #expect(Set(covered.indices.filter { covered[$0] }) == everything, "covered\n\(c)")
            #expect(Set(c.start).union(sequences.flatMap { $0.flatMap(takes) }) == everything, "the sequences take it all\n\(c)")
            // The first node inside each state of a hierarchy over the nodes (a node's leaf: its key).
            let hierarchy = FlowHierarchy(parents: c.parents)
            let first = tree.firstNodes(inside: hierarchy) { CollectionOfOne($0) }
            for state in c.parents.indices {
                let inside = tree.keys.firstIndex { key in
                    var s = key
                    while s >= 0, s != state { s = c.parents[s] }
                    return s == state
                }
                #expect(first[state] == Int32(inside ?? -1), "first node inside \(state)\n\(c)")
            }
        }
    }
}

extension ExplorerCase {
    /// A graph written out: `edges[n]` lists node `n`'s edges; nothing finished, no limit.
    init(edges: [[(to: Int, takes: [Int])]]) {
        self.edges = edges
        finished = []
        start = []
        limit = .max
        parents = edges.indices.map { _ in -1 }
    }
}
