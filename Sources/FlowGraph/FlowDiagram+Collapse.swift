/// Readable pictures of flows too big for one: compound states collapsed into one node each, one
/// cluster drawn at a time with its connections to the rest as stubs, and a flow cut into an overview
/// plus a page per collapsed cluster.
///
/// Every transform here walks the nesting with explicit loops (a flow can be nested far deeper than
/// the call stack allows) and costs O((states + transitions) · log states): ancestors are found with
/// jump pointers, never by walking a parent chain once per transition.
extension FlowDiagram {
    /// The attribute that marks a collapsed state (a compound state drawn as one node): its value is
    /// how many states it holds, at every depth below it. Graphviz ignores it; a reader of the DOT
    /// or SVG can tell a collapsed state by it.
    public static let collapsedStatesAttribute = "flowstate_states"

    /// The attribute on a collapsed state counting the transitions it hides: those between states
    /// it holds (itself included), each merged edge counting its transitions.
    public static let collapsedTransitionsAttribute = "flowstate_transitions"

    /// The attribute that marks a stub: a state drawn on a page only as the other end of a
    /// transition that leaves the page's cluster. Its value is the identifier of the compound state
    /// that holds the state (empty at the top level). A stub keeps the identifier of the state it
    /// stands for, so the edges to it are the flow's own.
    public static let stubAttribute = "flowstate_stub"

    /// A graph with some compound states collapsed, and where each state of the original went.
    public struct Collapse: Hashable, Sendable {
        /// The collapsed graph.
        public var graph: FlowDiagram
        /// For every state of the original graph, the node of ``graph`` that draws it: itself, or
        /// the collapsed state that holds it.
        public var representative: [String: String]

        /// Creates a result.
        public init(graph: FlowDiagram, representative: [String: String]) {
            self.graph = graph
            self.representative = representative
        }
    }

    /// One picture of a flow cut into pages (``pages(depth:)``).
    public struct Page: Hashable, Sendable {
        /// The compound state the page draws as its cluster, or `nil` for the overview.
        public var state: String?
        /// The page's graph: the cluster's states down to the page's depth, deeper compound states
        /// collapsed, and stubs for the states outside that its own states have transitions with.
        public var graph: FlowDiagram

        /// Creates a page.
        public init(state: String?, graph: FlowDiagram) {
            self.state = state
            self.graph = graph
        }
    }

    /// The graph with the given compound states each drawn as one node that says how many states
    /// and transitions it holds (``collapsedStatesAttribute``, ``collapsedTransitionsAttribute``).
    ///
    /// A state inside a collapsed one is not drawn: transitions to or from it are redirected to the
    /// outermost collapsed state holding it, and the transitions redirected between the same two
    /// nodes are merged into one edge listing how many they are and their first events (its
    /// ``Edge/transitions`` and ``Edge/events`` are all of theirs). Transitions between states of
    /// the same collapsed state are hidden, and counted on it. Identifiers of states without children
    /// are ignored; edges' ends that name no state are kept as they are.
    public func collapsing<S: Sequence>(_ states: S) -> Collapse where S.Element == String {
        let nesting = Nesting(self)
        var chosen = [Bool](repeating: false, count: nodes.count)
        for id in states {
            if let i = nesting.index[id], nesting.isCollapsible(i) { chosen[i] = true }
        }
        // The outermost chosen strict ancestor of each node, found top-down.
        var holder = [Int](repeating: -1, count: nodes.count)
        for x in nesting.order {
            let p = nesting.parent[x]
            guard p != nesting.root else { continue }
            holder[x] = holder[p] >= 0 ? holder[p] : (chosen[p] ? p : -1)
        }
        func drawn(_ x: Int) -> Int { holder[x] >= 0 ? holder[x] : x }
        var insideStates = [Int](repeating: 0, count: nodes.count)
        var insideTransitions = [Int](repeating: 0, count: nodes.count)
        var collapsed = [Bool](repeating: false, count: nodes.count)
        var shown: [Int] = []
        for x in 0..<nodes.count {
            if holder[x] >= 0 {
                insideStates[holder[x]] += 1
            } else {
                shown.append(x)
                collapsed[x] = chosen[x]
            }
        }
        var entries: [PageEntry] = []
        for (e, edge) in edges.enumerated() {
            let u = nesting.index[edge.from].map(drawn), v = nesting.index[edge.to].map(drawn)
            if let u, u == v, collapsed[u] {
                insideTransitions[u] += edge.transitionCount
                continue
            }
            entries.append(.drawn(e, from: u.map { nodes[$0].id } ?? edge.from, to: v.map { nodes[$0].id } ?? edge.to))
        }
        let initialNode = initial.map { id in nesting.index[id].map { nodes[drawn($0)].id } ?? id }
        let graph = assemble(name: name, initial: initialNode, root: nil, shown: shown, nesting: nesting,
                             collapsed: { collapsed[$0] }, insideStates: insideStates,
                             insideTransitions: insideTransitions, entries: entries)
        var representative: [String: String] = [:]
        representative.reserveCapacity(nodes.count)
        for (x, node) in nodes.enumerated() where representative[node.id] == nil {
            representative[node.id] = nodes[drawn(x)].id
        }
        return Collapse(graph: graph, representative: representative)
    }

    /// The graph with every compound state at `depth` collapsed (``collapsing(_:)``): top-level
    /// states are at depth 0, so `collapsed(toDepth: 0)` draws only the top level, and
    /// `collapsed(toDepth: 1)` the top level and what its compound states hold directly. A negative
    /// depth counts as 0. The overview of ``pages(depth:)``.
    public func collapsed(toDepth depth: Int) -> FlowDiagram {
        let paging = Paging(self, depth: clamped(depth), top: nil)
        return paging.page(paging.nesting.root, graph: self)
    }

    /// One compound state's page: the state as a cluster with what it holds, compound states more
    /// than `depth` levels below it collapsed (`nil`: none; its children are at depth 0), and every
    /// transition between a state it holds and a state outside drawn to a stub (``stubAttribute``)
    /// of the outside state: from the state itself, or from the collapsed state holding it (those
    /// merged by pair of ends). `nil` when `id` names no state with children.
    public func cluster(_ id: String, depth: Int? = nil) -> FlowDiagram? {
        let nesting = Nesting(self)
        guard let top = nesting.index[id], nesting.isCollapsible(top) else { return nil }
        let paging = Paging(self, nesting: nesting, depth: depth.map(clamped), top: top)
        return paging.page(top, graph: self)
    }

    /// The flow cut into pages: the overview (``collapsed(toDepth:)``, or the whole graph when
    /// `depth` is `nil`) first, then a page for every collapsed compound state, each drawn as
    /// ``cluster(_:depth:)`` draws it (its compound states `depth` levels below collapsed again, and
    /// given their own pages), outer pages before the pages of the states they hold.
    ///
    /// Every state is drawn in exactly one page as itself (a collapsed state's page draws it as its
    /// cluster). Every transition is drawn exactly once between two nodes of a page (states or
    /// collapsed states: in the page whose cluster holds both ends most closely), and at most twice
    /// more as a transition to or from a stub, in the pages that draw its ends as themselves (unlike
    /// ``cluster(_:depth:)``, a page does not repeat its collapsed states' transitions with states
    /// outside: their own pages show them, which keeps the pages' total size linear).
    public func pages(depth: Int?) -> [Page] {
        let paging = Paging(self, depth: depth.map(clamped), top: nil)
        var result = [Page(state: nil, graph: paging.page(paging.nesting.root, graph: self))]
        for x in paging.nesting.order where paging.isRoot[x] {
            result.append(Page(state: nodes[x].id, graph: paging.page(x, graph: self)))
        }
        return result
    }

    /// How big ``collapsed(toDepth:)`` draws the graph (or, `under` a compound state, its page
    /// ``cluster(_:depth:)``) at each depth: element `d` is how many nodes the picture collapsed to
    /// depth `d` has, and how many edges at most (before edges redirected to the same collapsed
    /// states are merged; on a page, transitions to stubs included). The last element is the
    /// picture with nothing collapsed; the count is the depth of the deepest state plus one. Empty
    /// for an empty graph, or when `under` names no state with children.
    public func collapsedSizes(under id: String? = nil) -> [(nodes: Int, edges: Int)] {
        let nesting = Nesting(self)
        var start = nesting.root
        if let id {
            guard let i = nesting.index[id], nesting.isCollapsible(i) else { return [] }
            start = i
        }
        // Depth relative to `start`'s children, or -1 outside its subtree.
        var depth = [Int](repeating: -1, count: nesting.count + 1)
        var nodesAt: [Int] = []
        for x in nesting.order {
            let p = nesting.parent[x]
            if p == start {
                depth[x] = 0
            } else if depth[p] >= 0 {
                depth[x] = depth[p] + 1
            } else {
                continue
            }
            if depth[x] == nodesAt.count { nodesAt.append(0) }
            nodesAt[depth[x]] += 1
        }
        guard !nodesAt.isEmpty else { return [] }
        // An edge is hidden at every depth up to that of its ends' common ancestor (a state with
        // children hides its edges at its own depth too, a leaf's own loops only below it).
        var hiddenUpTo = [Int](repeating: 0, count: nodesAt.count + 1)
        var candidates = 0
        for edge in edges {
            let u = nesting.index[edge.from], v = nesting.index[edge.to]
            let inU = u.map { depth[$0] >= 0 } ?? false, inV = v.map { depth[$0] >= 0 } ?? false
            guard inU || inV || id == nil else { continue }
            candidates += 1
            guard let u, let v, inU && inV else { continue }
            let a = nesting.commonAncestor(u, v)
            guard a != nesting.root, depth[a] >= 0 else { continue }
            let last = nesting.collapsible[a] ? depth[a] : depth[a] - 1
            if last >= 0 { hiddenUpTo[last] += 1 }
        }
        var result: [(nodes: Int, edges: Int)] = []
        var hidden = hiddenUpTo.reduce(0, +)
        var nodes = 0
        for d in nodesAt.indices {
            nodes += nodesAt[d]
            result.append((nodes, candidates - hidden))
            hidden -= hiddenUpTo[d]
        }
        return result
    }

    /// A depth between 0 and the number of states (deeper collapses nothing more), so that no
    /// arithmetic on it overflows.
    func clamped(_ depth: Int) -> Int { Swift.min(Swift.max(0, depth), nodes.count) }

    /// What a page draws, in the order of the flow's transitions: a transition between two of its
    /// nodes (redirected to collapsed states), or a transition to or from a stub.
    enum PageEntry {
        case drawn(Int, from: String, to: String)
        case stub(Int, from: String, to: String, outside: String)
    }

    /// Builds a page: the root (drawn as a cluster at the top level), the nodes shown (collapsed or
    /// not), the transitions between them (those redirected to a collapsed state merged by pair of
    /// ends), and stubs.
    func assemble(name: String, initial: String?, root: Int?, shown: [Int], nesting: Nesting, collapsed: (Int) -> Bool,
                  insideStates: [Int], insideTransitions: [Int], entries: [PageEntry]) -> FlowDiagram {
        var pageNodes: [Node] = []
        pageNodes.reserveCapacity(shown.count + 1)
        var collapsedIDs: Set<String> = []
        for x in (root.map { [$0] } ?? []) + shown.sorted() {
            var node = nodes[x]
            if x == root {
                node.parent = nil
                node.kind = .compound
            }
            if collapsed(x) && x != root {
                let states = insideStates[x], transitions = insideTransitions[x]
                node.kind = .state
                node.label += "\n\(states) state\(states == 1 ? "" : "s"), \(transitions) transition\(transitions == 1 ? "" : "s") inside"
                node.attributes = ["shape": "box3d", "style": "filled", "fillcolor": "#eef2ff"].merging(node.attributes) { $1 }
                node.attributes[Self.collapsedStatesAttribute] = "\(states)"
                node.attributes[Self.collapsedTransitionsAttribute] = "\(transitions)"
                collapsedIDs.insert(node.id)
            }
            pageNodes.append(node)
        }
        var pageEdges: [Edge] = []
        var groups: [[Int]] = []           // merged edges' members, by group
        var groupOf: [String: Int] = [:]   // "from \0 to" -> group
        var edgeIndex: [Int] = []            // for each group, its place in pageEdges
        var stubs: [String: Int] = [:]     // outside state -> its stub's place in stubNodes
        var stubNodes: [Node] = []
        func draw(_ e: Int, from: String, to: String) {
            guard collapsedIDs.contains(from) || collapsedIDs.contains(to) else {
                pageEdges.append(edges[e])
                return
            }
            let key = from + "\u{0}" + to
            if let g = groupOf[key] {
                groups[g].append(e)
            } else {
                groupOf[key] = groups.count
                groups.append([e])
                edgeIndex.append(pageEdges.count)
                var edge = edges[e]
                edge.from = from
                edge.to = to
                pageEdges.append(edge)
            }
        }
        for entry in entries {
            switch entry {
            case .drawn(let e, let from, let to):
                draw(e, from: from, to: to)
            case .stub(let e, let from, let to, let outside):
                draw(e, from: from, to: to)
                guard stubs[outside] == nil else { continue }
                stubs[outside] = stubNodes.count
                let original = nesting.index[outside].map { nodes[$0] }
                let holder = original?.parent.flatMap { nesting.index[$0] }.map { nodes[$0] }
                var label = "↗ " + (original?.label ?? outside)
                if let holder { label += "\nin " + holder.label }
                stubNodes.append(Node(id: outside, label: label, kind: .state, parent: nil, attributes: [
                    "style": "rounded,dashed", "color": "#888888", "fontcolor": "#555555",
                    Self.stubAttribute: holder?.id ?? "",
                ]))
            }
        }
        for (g, members) in groups.enumerated() where members.count > 1 {
            var edge = pageEdges[edgeIndex[g]]
            var events: [String?] = []
            var transitions: [Int] = []
            var names: [String] = []
            for e in members {
                let member = edges[e]
                events += member.events.isEmpty ? [nil] : member.events
                transitions += member.transitions
                for case let event? in member.events where names.count < 4 && !names.contains(event) { names.append(event) }
            }
            edge.label = "\(events.count) transitions"
            if !names.isEmpty { edge.label += "\n" + names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "") }
            edge.events = events
            edge.transitions = transitions
            edge.attributes["label"] = nil
            edge.attributes["xlabel"] = nil
            pageEdges[edgeIndex[g]] = edge
        }
        var graph = FlowDiagram(name: name, initial: initial, nodes: pageNodes + stubNodes, edges: pageEdges)
        graph.graphAttributes = graphAttributes
        graph.externalEdgeLabels = externalEdgeLabels
        return graph
    }
}

extension FlowDiagram.Edge {
    /// How many declared transitions the edge draws: one per event label (merged edges have several),
    /// and at least one.
    public var transitionCount: Int { Swift.max(1, events.count) }
}

/// The nesting of a graph's states as a tree over their positions, with a virtual root above the
/// top level (``root``, at level 0): each node's parent, level, children, a top-down order and
/// jump pointers (Myers' skew-binary scheme) for ancestor queries in O(log n). Built in linear time
/// with explicit loops. Bad input is repaired, never trusted: a parent that names no state or the
/// state itself makes a top-level state, a cycle of parents is cut, and a repeated identifier names
/// its first state.
struct Nesting {
    let count: Int
    var index: [String: Int] = [:]
    var parent: [Int]
    var level: [Int]
    var jump: [Int]
    var children: [[Int]]
    /// Every node, parents before children (the virtual root not included).
    var order: [Int] = []
    let collapsible: [Bool]

    var root: Int { count }

    init(_ graph: FlowDiagram) {
        count = graph.nodes.count
        let n = count
        for (i, node) in graph.nodes.enumerated() where index[node.id] == nil { index[node.id] = i }
        parent = Array(repeating: n, count: n + 1)
        for (i, node) in graph.nodes.enumerated() {
            if let p = node.parent, let j = index[p], j != i { parent[i] = j }
        }
        // Cut cycles of parents: walk up from each node; meeting the walk itself closes a cycle.
        var state = [UInt8](repeating: 0, count: n)
        var path: [Int] = []
        for i in 0..<n where state[i] == 0 {
            var x = i
            while x != n && state[x] == 0 {
                state[x] = 1
                path.append(x)
                x = parent[x]
            }
            if x != n && state[x] == 1, let last = path.last { parent[last] = n }
            for y in path { state[y] = 2 }
            path.removeAll(keepingCapacity: true)
        }
        children = Array(repeating: [], count: n + 1)
        for i in 0..<n { children[parent[i]].append(i) }
        level = Array(repeating: 0, count: n + 1)
        jump = Array(repeating: n, count: n + 1)
        order.reserveCapacity(n)
        var queue = [n]
        var head = 0
        while head < queue.count {
            let x = queue[head]
            head += 1
            for child in children[x] {
                order.append(child)
                queue.append(child)
                level[child] = level[x] + 1
                let p = x, j = jump[p]
                jump[child] = level[p] - level[j] == level[j] - level[jump[j]] && j != p ? jump[j] : p
            }
        }
        let children = children
        collapsible = (0..<n).map { !children[$0].isEmpty }
    }

    func isCollapsible(_ x: Int) -> Bool { x < count && collapsible[x] }

    /// The ancestor-or-self of `x` at a level (at most `x`'s).
    func ancestor(of x: Int, atLevel target: Int) -> Int {
        var x = x
        while level[x] > target { x = level[jump[x]] >= target ? jump[x] : parent[x] }
        return x
    }

    /// The lowest common ancestor-or-self of two nodes (the virtual root when they share none).
    func commonAncestor(_ a: Int, _ b: Int) -> Int {
        var a = ancestor(of: a, atLevel: Swift.min(level[a], level[b]))
        var b = ancestor(of: b, atLevel: Swift.min(level[a], level[b]))
        while a != b {
            if jump[a] != jump[b] {
                a = jump[a]
                b = jump[b]
            } else {
                a = parent[a]
                b = parent[b]
            }
        }
        return a
    }
}

/// A flow cut into pages by depth. The overview (the virtual root's page) draws the states down to
/// `depth`; a page root is a compound state with children that a page above draws collapsed, and
/// its page draws what it holds down to `depth` levels below it. With `top`, only `top`'s page and
/// those below it are laid out (``FlowDiagram/cluster(_:depth:)``).
struct Paging {
    let nesting: Nesting
    let depth: Int?
    /// Whether a node has its own page.
    var isRoot: [Bool]
    /// The page (a page root, or the virtual root for the overview) that draws each node as itself.
    var owner: [Int]
    /// The drawn edges and stubs of each page, by page root.
    var entries: [[FlowDiagram.PageEntry]]
    /// The states and transitions below each node (for collapsed states' labels).
    var insideStates: [Int]
    var insideTransitions: [Int]

    init(_ graph: FlowDiagram, depth: Int?, top: Int?) {
        self.init(graph, nesting: Nesting(graph), depth: depth, top: top)
    }

    init(_ graph: FlowDiagram, nesting: Nesting, depth: Int?, top: Int?) {
        self.nesting = nesting
        self.depth = depth
        let n = nesting.count, root = nesting.root
        isRoot = Array(repeating: false, count: n + 1)
        isRoot[root] = true
        owner = Array(repeating: root, count: n + 1)
        var inside = Array(repeating: top == nil, count: n + 1)
        for x in nesting.order {
            let p = nesting.parent[x]
            if let top { inside[x] = x == top || inside[p] }
            // The level of depth 0: the top level, or `top`'s children.
            let base = top.map { nesting.level[$0] + 1 } ?? 1
            if x == top {
                isRoot[x] = true
            } else if let depth, inside[x], nesting.collapsible[x] {
                let relative = nesting.level[x] - base
                isRoot[x] = relative >= depth && (relative - depth) % (depth + 1) == 0
            }
            owner[x] = isRoot[x] ? x : owner[p]
        }
        // States below each node, and transitions whose ends both lie below or at it.
        insideStates = Array(repeating: 0, count: n + 1)
        insideTransitions = Array(repeating: 0, count: n + 1)
        entries = Array(repeating: [], count: n + 1)
        var common: [Int] = []
        common.reserveCapacity(graph.edges.count)
        for edge in graph.edges {
            guard let u = nesting.index[edge.from], let v = nesting.index[edge.to] else {
                common.append(root)
                continue
            }
            let a = nesting.commonAncestor(u, v)
            common.append(a)
            insideTransitions[a] += edge.transitionCount
        }
        for x in nesting.order.reversed() {
            let p = nesting.parent[x]
            insideStates[p] += insideStates[x] + 1
            insideTransitions[p] += insideTransitions[x]
        }
        let wanted: (Int) -> Bool = { page in top == nil || inside[page] }
        for (e, edge) in graph.edges.enumerated() {
            let u = nesting.index[edge.from], v = nesting.index[edge.to]
            let a = common[e]
            let page = a == root || isRoot[a] ? a : owner[a]
            if wanted(page) {
                entries[page].append(.drawn(e, from: drawn(u, on: page).map { graph.nodes[$0].id } ?? edge.from,
                                            to: drawn(v, on: page).map { graph.nodes[$0].id } ?? edge.to))
            }
            if let u, owner[u] != page, wanted(owner[u]) {
                entries[owner[u]].append(.stub(e, from: edge.from, to: edge.to, outside: edge.to))
            }
            if let v, owner[v] != page, wanted(owner[v]) {
                entries[owner[v]].append(.stub(e, from: edge.from, to: edge.to, outside: edge.from))
            }
            // A cluster drawn alone also shows its collapsed states' transitions with states outside
            // (in a set of pages, the collapsed states' own pages show them).
            if let top {
                let inU = u.map { inside[$0] } ?? false, inV = v.map { inside[$0] } ?? false
                if inU != inV, let x = inU ? u : v, owner[x] != top, let shown = drawn(x, on: top) {
                    let id = graph.nodes[shown].id
                    entries[top].append(.stub(e, from: inU ? id : edge.from, to: inU ? edge.to : id,
                                              outside: inU ? edge.to : edge.from))
                }
            }
        }
    }

    /// The node that draws `x` on a page whose subtree holds it: itself, or the collapsed state
    /// (a page root one level of pages below) that holds it.
    func drawn(_ x: Int?, on page: Int) -> Int? {
        guard let x else { return nil }
        guard owner[x] != page, let depth else { return x }
        let base = page == nesting.root ? 1 : nesting.level[page] + 1
        return nesting.ancestor(of: x, atLevel: base + depth)
    }

    /// The graph of a page.
    func page(_ page: Int, graph: FlowDiagram) -> FlowDiagram {
        var shown: [Int] = []
        var collapsed: Set<Int> = []
        // The page's own states, and the page roots right below it, drawn collapsed.
        var stack = nesting.children[page]
        while let x = stack.popLast() {
            shown.append(x)
            if isRoot[x] {
                collapsed.insert(x)
            } else {
                stack += nesting.children[x]
            }
        }
        var initial: String?
        if let start = graph.initial, let s = nesting.index[start] {
            if page == nesting.root || nesting.commonAncestor(s, page) == page { initial = drawn(s, on: page).map { graph.nodes[$0].id } }
        } else if page == nesting.root {
            initial = graph.initial
        }
        let name = page == nesting.root ? graph.name : graph.name + ": " + graph.nodes[page].label
        return graph.assemble(name: name, initial: initial, root: page == nesting.root ? nil : page, shown: shown,
                              nesting: nesting, collapsed: { collapsed.contains($0) }, insideStates: insideStates,
                              insideTransitions: insideTransitions, entries: entries[page])
    }
}
