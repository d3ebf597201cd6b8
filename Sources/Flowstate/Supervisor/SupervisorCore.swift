import DequeModule

/// The supervisor's pure core: the tree's structure and every machine's lifecycle, as a value.
///
/// It performs nothing and calls no user code. Its methods answer what must happen (the teardown
/// order of a subtree, the place of a restarted machine) and record what happened; the shell
/// (``Supervisor``) performs it: it steps machines, calls handlers, hooks and observers. Every walk is
/// iterative, so a tree of any depth is handled in constant stack.
///
/// Machines live in a slot array; children form an intrusive doubly linked list in spawn order, so
/// adding, removing and replacing a machine cost O(1), and a subtree's teardown costs O(its size).
struct SupervisorCore {
    /// Where a machine is in its life. A slot whose `serial` is 0 is free.
    enum Lifecycle: UInt8 {
        /// Created; its start is queued (it was spawned while a step was being processed).
        case pending
        /// Started and taking events.
        case running
        /// Its subtree is being torn down: it takes no event and no child.
        case stopping
    }

    struct Node {
        /// The serial (low 62 bits) and the lifecycle (high 2 bits), packed: a node is 32 bytes.
        private var serialAndLifecycle: UInt64 = 0
        var parent: Int32 = -1
        /// For a declared child, the index of the parent state that runs it; -1 otherwise.
        var stateSlot: Int32 = -1
        var firstChild: Int32 = -1
        var lastChild: Int32 = -1
        var previous: Int32 = -1
        var next: Int32 = -1

        init() {}

        init(serial: UInt64, lifecycle: Lifecycle, parent: Int32, stateSlot: Int32) {
            self.serialAndLifecycle = serial | UInt64(lifecycle.rawValue) << 62
            self.parent = parent
            self.stateSlot = stateSlot
        }

        /// The machine's serial number; 0 for a free slot.
        var serial: UInt64 { serialAndLifecycle & (1 << 62 - 1) }

        var lifecycle: Lifecycle {
            get { Lifecycle(rawValue: UInt8(serialAndLifecycle >> 62)) ?? .pending }
            set { serialAndLifecycle = serial | UInt64(newValue.rawValue) << 62 }
        }
    }

    /// The supervisor's identity: part of every `MachineID` it gives, so that an identity from
    /// another supervisor never names one of its machines.
    let scope: UInt64
    private(set) var nodes: [Node] = []
    private var free: [Int32] = []
    private(set) var firstRoot: Int32 = -1
    private(set) var lastRoot: Int32 = -1
    private var nextSerial: UInt64 = 1
    private(set) var liveCount = 0

    init(scope: UInt64) { self.scope = scope }

    // MARK: Identities

    func id(of slot: Int32) -> MachineID {
        MachineID(rawValue: nodes[Int(slot)].serial, scope: scope, slot: slot)
    }

    /// The slot of a live machine, or `nil` for an identity that is gone, made by hand, or another
    /// supervisor's. O(1): the identity carries its slot, checked against the slot's serial.
    func slot(of id: MachineID) -> Int32? {
        guard id.scope == scope, id.slot >= 0, Int(id.slot) < nodes.count,
              nodes[Int(id.slot)].serial == id.rawValue else { return nil }
        return id.slot
    }

    // MARK: Structure

    /// Adds a machine, last among its siblings (or in place of `replacing`'s position: right after
    /// `after`, for a restart), and returns its slot.
    mutating func insert(parent: Int32, stateSlot: Int32, lifecycle: Lifecycle, after: Int32? = nil) -> Int32 {
        let slot: Int32
        if let reused = free.popLast() {
            slot = reused
        } else {
            slot = Int32(nodes.count)
            nodes.append(Node())
        }
        nodes[Int(slot)] = Node(serial: nextSerial, lifecycle: lifecycle, parent: parent, stateSlot: stateSlot)
        nextSerial += 1
        liveCount += 1
        link(slot, parent: parent, after: after)
        return slot
    }

    private mutating func link(_ slot: Int32, parent: Int32, after: Int32?) {
        let s = Int(slot)
        // `after == -1` puts it first; `nil` puts it last.
        let previous: Int32 = after ?? (parent >= 0 ? nodes[Int(parent)].lastChild : lastRoot)
        let next: Int32 = previous >= 0 ? nodes[Int(previous)].next
            : (parent >= 0 ? nodes[Int(parent)].firstChild : firstRoot)
        nodes[s].previous = previous
        nodes[s].next = next
        if previous >= 0 {
            nodes[Int(previous)].next = slot
        } else if parent >= 0 {
            nodes[Int(parent)].firstChild = slot
        } else {
            firstRoot = slot
        }
        if next >= 0 {
            nodes[Int(next)].previous = slot
        } else if parent >= 0 {
            nodes[Int(parent)].lastChild = slot
        } else {
            lastRoot = slot
        }
    }

    /// Removes a machine whose children are all gone; its slot is freed for reuse (with a new serial).
    mutating func remove(_ slot: Int32) {
        let node = nodes[Int(slot)]
        precondition(node.firstChild < 0, "a machine is removed after its children")
        if node.previous >= 0 {
            nodes[Int(node.previous)].next = node.next
        } else if node.parent >= 0 {
            nodes[Int(node.parent)].firstChild = node.next
        } else {
            firstRoot = node.next
        }
        if node.next >= 0 {
            nodes[Int(node.next)].previous = node.previous
        } else if node.parent >= 0 {
            nodes[Int(node.parent)].lastChild = node.previous
        } else {
            lastRoot = node.previous
        }
        nodes[Int(slot)] = Node()
        free.append(slot)
        liveCount -= 1
    }

    mutating func setLifecycle(_ lifecycle: Lifecycle, of slot: Int32) { nodes[Int(slot)].lifecycle = lifecycle }

    subscript(slot: Int32) -> Node { nodes[Int(slot)] }

    /// The children of a machine, in spawn order.
    func children(of slot: Int32) -> [Int32] {
        var result: [Int32] = []
        var c = nodes[Int(slot)].firstChild
        while c >= 0 {
            result.append(c)
            c = nodes[Int(c)].next
        }
        return result
    }

    /// The roots, in start order.
    var roots: [Int32] {
        var result: [Int32] = []
        var r = firstRoot
        while r >= 0 {
            result.append(r)
            r = nodes[Int(r)].next
        }
        return result
    }

    /// The order in which a subtree is torn down: children before their parent, siblings in
    /// reverse spawn order, the root of the subtree last. Iterative.
    func teardownOrder(of slot: Int32) -> [Int32] {
        var order: [Int32] = []
        var stack: [(slot: Int32, expanded: Bool)] = [(slot, false)]
        while let (s, expanded) = stack.popLast() {
            if expanded {
                order.append(s)
                continue
            }
            stack.append((s, true))
            var c = nodes[Int(s)].firstChild  // pushed first to last: the last child is torn down first
            while c >= 0 {
                stack.append((c, false))
                c = nodes[Int(c)].next
            }
        }
        return order
    }

    /// The machines of every root's subtree, depth first, each with its depth: what inspection and
    /// snapshots walk. Iterative.
    func preorder() -> [(slot: Int32, depth: Int)] {
        var result: [(slot: Int32, depth: Int)] = []
        result.reserveCapacity(liveCount)
        var stack: [(Int32, Int)] = []
        var r = lastRoot
        while r >= 0 {
            stack.append((r, 0))
            r = nodes[Int(r)].previous
        }
        while let (s, depth) = stack.popLast() {
            result.append((s, depth))
            var c = nodes[Int(s)].lastChild
            while c >= 0 {
                stack.append((c, depth + 1))
                c = nodes[Int(c)].previous
            }
        }
        return result
    }
}

/// The restarts of one line of incarnations of a machine, within its policy's window: only what the
/// window needs is kept (at most `maxRestarts` instants).
struct RestartHistory {
    private(set) var instants: Deque<Duration> = []
    /// Restarts whose machine failed again while starting, in a row: counted whatever the window, so
    /// a machine that fails on every entry escalates after `maxRestarts` restarts.
    var failedStarts = 0

    /// Records a restart at `now` if the policy allows one more; `false` means escalate.
    mutating func allow(maxRestarts: Int, within window: Duration, now: Duration, failedWhileStarting: Bool) -> Bool {
        while let first = instants.first, now - first > window { instants.removeFirst() }
        failedStarts = failedWhileStarting ? failedStarts + 1 : 0
        guard instants.count < maxRestarts, failedStarts <= maxRestarts else { return false }
        instants.append(now)
        if instants.count > max(maxRestarts, 0) { instants.removeFirst() }
        return true
    }
}
