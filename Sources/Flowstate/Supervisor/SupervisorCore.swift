import DequeModule

/// The supervisor's core: the tree, every machine's lifecycle, the queue and the restart histories, as
/// one value, with the supervisor's rules as its functions. A rule returns what to do; it performs
/// nothing.
///
/// The core calls no user code (the one closure it calls is the clock, read when a restart is
/// recorded). The shell (``Supervisor``) asks it (what the queue holds next and for which machine,
/// which declared children a step stops, what a failure does, where a restarted machine goes, where
/// an output goes, in what order a subtree is torn down), performs the answer (steps machines, calls
/// handlers, hooks and observers) and tells it what happened (a machine placed or removed). The split is swift-async-algorithms' `ChannelStateMachine`, which decides and returns
/// actions, and `ChannelStorage`, which performs them.
///
/// Machines live in a slot array; children form an intrusive doubly linked list in spawn order (a
/// machine's declared children in document order of their states: ``declaredPlacement(parent:state:)``), so
/// placing, removing and replacing a machine cost O(1), and a subtree's teardown costs O(its size).
/// Every walk is iterative: a tree of any depth is handled in constant stack.
///
/// Noncopyable: a supervisor has one core, which its shell reads and changes in place (a copy of the
/// core would retain each of its buffers, on every send).
@usableFromInline
struct SupervisorCore: ~Copyable {
    /// Where a machine is in its life. A slot whose `serial` is 0 is free.
    @usableFromInline
    enum Lifecycle: UInt8 {
        /// Placed; its start is queued (it was spawned while a step was being processed, or it is a
        /// declared child or a restart, started next).
        case pending
        /// Started and taking events.
        case running
        /// Its subtree is being torn down: it takes no event and no child.
        case stopping
    }

    struct Node {
        /// The serial (low 61 bits), whether the owner is gone (bit 61) and the lifecycle (high 2
        /// bits), packed: a node is 32 bytes.
        private var serialAndLifecycle: UInt64 = 0
        var parent: Int32 = -1
        /// For a declared child, the index of the parent state that runs it; -1 otherwise.
        var parentState: Int32 = -1
        var firstChild: Int32 = -1
        var lastChild: Int32 = -1
        var previous: Int32 = -1
        var next: Int32 = -1

        init() {}

        init(serial: UInt64, lifecycle: Lifecycle, parent: Int32, parentState: Int32) {
            self.serialAndLifecycle = serial | UInt64(lifecycle.rawValue) << 62
            self.parent = parent
            self.parentState = parentState
        }

        /// The bit that says the machine's owner is gone.
        private static let ownerGoneBit: UInt64 = 1 << 61

        /// The machine's serial number; 0 for a free slot.
        var serial: UInt64 { serialAndLifecycle & (Self.ownerGoneBit - 1) }

        var lifecycle: Lifecycle {
            get { Lifecycle(rawValue: UInt8(serialAndLifecycle >> 62)) ?? .pending }
            set { serialAndLifecycle = serialAndLifecycle & (1 << 62 - 1) | UInt64(newValue.rawValue) << 62 }
        }

        /// Whether the machine is bound to an owner (a ``FlowLifetime``) that is gone: the shell says
        /// so when it learns it (``SupervisorCore/ownerReleased(_:)``, or when the machine is placed).
        var ownerGone: Bool {
            get { serialAndLifecycle & Self.ownerGoneBit != 0 }
            set { serialAndLifecycle = newValue ? serialAndLifecycle | Self.ownerGoneBit
                    : serialAndLifecycle & ~Self.ownerGoneBit }
        }
    }

    /// What waits in the queue.
    @usableFromInline
    enum Message {
        /// An event for a machine, of its flow's event type.
        case event(MachineID, Any)
        /// The start of a pending machine.
        case start(MachineID)
        /// A stop asked for from inside a step.
        case stop(MachineID, TeardownReason)
        /// An async effect's failure, for the machine that started the work.
        case asyncFailure(MachineID, EffectFailure)
        /// A machine's timer that came due on the clock (``enqueueDue(at:)``).
        case timer(MachineID, FlowTimer)
    }

    /// What a turn does next (``nextWork(released:)``), the machine it is for already found.
    enum Work {
        /// Tear down the machines whose owner is gone.
        case sweep
        /// Step a running machine with a queued event.
        case deliver(Any, to: Int32)
        /// Start a pending machine (now marked running).
        case start(Int32)
        /// Tear a subtree down.
        case stop(Int32, TeardownReason)
        /// Apply a running machine's failure policy to an async failure.
        case fail(Int32, EffectFailure)
        /// Report a queued event whose machine is gone, or not running, as dropped.
        case dropEvent(MachineID, Any)
        /// Report an async failure whose machine is gone as dropped.
        case dropFailure(MachineID, EffectFailure)
        /// Fire a running machine's timer that came due and is still armed.
        case fire(FlowTimer, Int32)
    }

    /// Where a machine goes in the tree.
    struct Placement: Equatable {
        /// The machine it runs under; -1 for a root.
        var parent: Int32
        /// For a declared child, the parent state that runs it; -1 otherwise.
        var state: Int32 = -1
        /// The sibling it goes right after: -1 puts it first, `nil` last (in spawn order).
        var after: Int32? = nil
    }

    /// What follows a machine's step, once its effects are performed.
    @usableFromInline
    enum FollowUp: Equatable {
        /// Nothing: the step is over.
        case none
        /// An effect failed: apply the failure policy of the machine in the slot (the one that
        /// produced the effect, a declared child's mapped effect included).
        case fail(Int32, EffectFailure)
        /// The machine finished: tear it down and route its output.
        case complete
        /// The machine moved and its flow declares children: spawn those of the states it entered.
        case startDeclaredChildren
    }

    /// Where a finished machine's output goes, once the machine is torn down.
    enum OutputRoute: Equatable {
        /// To its parent, as the event its output mapping gives.
        case parent(MachineID)
        /// To the root's output receiver.
        case root
        /// Nowhere: its parent is gone or being torn down.
        case nowhere
    }

    /// One machine of a teardown, in order.
    struct TeardownStep: Equatable {
        var slot: Int32
        /// Whether it had started (a pending machine performs no exit effect).
        var wasRunning: Bool
        /// The reason it is given: the teardown's for its root, `.parentTornDown` for the others.
        var reason: TeardownReason
    }

    /// The supervisor's identity: part of every `MachineID` it gives, so that an identity from
    /// another supervisor never names one of its machines.
    @usableFromInline let scope: UInt64
    private(set) var nodes: [Node] = []
    private var free: [Int32] = []
    private(set) var firstRoot: Int32 = -1
    private(set) var lastRoot: Int32 = -1
    private var nextSerial: UInt64 = 1
    private(set) var liveCount = 0
    /// Whether a step is being processed: calls from user code are then queued or refused.
    @usableFromInline var isProcessing = false
    /// Starts of declared children and restarts, a stack: taken before the mailbox, last pushed first.
    @usableFromInline var startStack: [MachineID] = []
    /// Everything else, first in first out.
    @usableFromInline var mailbox = Deque<Message>()
    /// The restart history of each line of incarnations, by the slot of its current machine.
    var restarts: [Int32: RestartHistory] = [:]
    /// Every machine's armed timers, by deadline (offsets of the supervisor's clock): see
    /// SupervisorCore+Timers.swift.
    var timerQueue = FlowTimerQueue<MachineTimer>()
    /// The timers each machine has armed, in arming order: dropped all at once when it is removed.
    var timersByMachine: [MachineID: [FlowTimer]] = [:]
    /// Timers that came due and wait in the mailbox: delivered only if still here (not cancelled).
    var dueTimers: Set<MachineTimer> = []
    /// Whether the earliest deadline may have changed since the shell last looked
    /// (``Supervisor/rescheduleTimers()``).
    @usableFromInline var timersChanged = false

    init(scope: UInt64) { self.scope = scope }

    // MARK: Identities

    func id(of slot: Int32) -> MachineID {
        MachineID(rawValue: nodes[Int(slot)].serial, scope: scope, slot: slot)
    }

    /// The slot of a machine, or `nil` for an identity that is gone, made by hand, or another
    /// supervisor's. O(1): the identity carries its slot, checked against the slot's serial.
    @usableFromInline @inline(__always)
    func slot(of id: MachineID) -> Int32? {
        guard id.scope == scope, id.slot >= 0, Int(id.slot) < nodes.count,
              nodes[Int(id.slot)].serial == id.rawValue else { return nil }
        return id.slot
    }

    /// Whether the machine in `slot` can take a child or a message: it is there and not being torn
    /// down. The root level (-1) always can. Every "is the parent gone?" question of the supervisor is
    /// this one.
    func isLive(_ slot: Int32) -> Bool {
        slot < 0 || (nodes[Int(slot)].serial != 0 && nodes[Int(slot)].lifecycle != .stopping)
    }

    /// The slot of a machine that can take a child or a queued message (``isLive(_:)``).
    func liveSlot(of id: MachineID) -> Int32? {
        guard let slot = slot(of: id), isLive(slot) else { return nil }
        return slot
    }

    /// The slot of a machine that can take a step now: started, and not being torn down.
    @usableFromInline @inline(__always)
    func runningSlot(of id: MachineID) -> Int32? {
        guard let slot = slot(of: id), nodes[Int(slot)].lifecycle == .running else { return nil }
        return slot
    }

    subscript(slot: Int32) -> Node { nodes[Int(slot)] }

    // MARK: Placing and removing

    /// Whether a machine can go in `placement`: its parent can take a child, and the sibling it goes
    /// after is still there.
    func canPlace(_ placement: Placement) -> Bool {
        guard isLive(placement.parent) else { return false }
        if let after = placement.after, after >= 0, nodes[Int(after)].serial == 0 { return false }
        return true
    }

    /// A machine placed by ``place(_:lifecycle:history:ownerGone:)``.
    struct Placed: Equatable {
        /// Where it is.
        var slot: Int32
        /// Whether its owner is gone already: the shell releases it now (the turn's next sweep tears
        /// it down, before anything queued), as if its owner had just been released.
        var releaseNow: Bool
    }

    /// Places a machine and returns its slot (a new serial, never reused), or `nil` when the place is
    /// gone (``canPlace(_:)``). A restart's replacement takes its line's `history`.
    mutating func place(_ placement: Placement, lifecycle: Lifecycle, history: RestartHistory? = nil) -> Int32? {
        place(placement, lifecycle: lifecycle, history: history, ownerGone: false)?.slot
    }

    /// Places a machine bound to an owner, or not, and says what to do with it: a machine whose owner
    /// is already gone (`ownerGone`: the shell found its lifetime released before it could register)
    /// is placed, so that its handle names it, recorded as such, and released now. `nil` when the
    /// place is gone (``canPlace(_:)``).
    mutating func place(_ placement: Placement, lifecycle: Lifecycle, history: RestartHistory? = nil,
                        ownerGone: Bool) -> Placed? {
        guard canPlace(placement) else { return nil }
        let slot = insert(parent: placement.parent, parentState: placement.state, lifecycle: lifecycle,
                          after: placement.after)
        if let history { restarts[slot] = history }
        if ownerGone { nodes[Int(slot)].ownerGone = true }
        return Placed(slot: slot, releaseNow: ownerGone)
    }

    /// Records that the owner of the machine `id` is gone (the shell learned it from the lifetime's
    /// report, ``ReleaseInbox``): its failure policy restarts it no more. Nothing for a machine that
    /// is gone.
    mutating func ownerReleased(_ id: MachineID) {
        guard let slot = slot(of: id) else { return }
        nodes[Int(slot)].ownerGone = true
    }

    /// Adds a machine, last among its siblings or right after `after` (-1: first).
    private mutating func insert(parent: Int32, parentState: Int32, lifecycle: Lifecycle, after: Int32?) -> Int32 {
        let slot: Int32
        if let reused = free.popLast() {
            slot = reused
        } else {
            slot = Int32(nodes.count)
            nodes.append(Node())
        }
        nodes[Int(slot)] = Node(serial: nextSerial, lifecycle: lifecycle, parent: parent, parentState: parentState)
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

    /// Removes a machine whose children are all gone; its slot is freed for reuse (with a new serial),
    /// and its restart history goes with it.
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
        if !restarts.isEmpty { restarts[slot] = nil }
        if !timersByMachine.isEmpty { dropTimers(of: MachineID(rawValue: node.serial, scope: scope, slot: slot)) }
    }

    /// Removes a subtree that never started (its root's start failed in the engine), children first,
    /// and returns its slots: it leaves the tree as if it never came.
    mutating func discard(_ slot: Int32) -> [Int32] {
        let order = teardownOrder(of: slot)
        for s in order { remove(s) }
        return order
    }

    /// Marks a machine running: it starts now.
    mutating func markRunning(_ slot: Int32) { nodes[Int(slot)].lifecycle = .running }

    // MARK: The queue

    /// Whether anything waits in the queue.
    @inlinable
    var hasQueued: Bool { !startStack.isEmpty || !mailbox.isEmpty }

    /// Queues a message behind everything queued.
    mutating func enqueue(_ message: Message) { mailbox.append(message) }

    /// Queues the starts of machines to be taken next, before anything queued, in the order given
    /// (declared children outermost first; a restart).
    mutating func startNext(_ ids: [MachineID]) {
        for id in ids.reversed() { startStack.append(id) }
    }

    /// What a turn does next, or `nil` when it is over. Machines whose owner is gone (`released`) are
    /// swept first; then the starts queued by ``startNext(_:)``, last pushed first; then the mailbox,
    /// first in first out. A message for a machine that cannot take it resolves here: an event or an
    /// async failure for a machine that is gone (or not running) is dropped, to be reported; a start
    /// of a machine that is no longer pending and a stop of a machine that is gone are skipped.
    mutating func nextWork(released: Bool) -> Work? {
        if released { return .sweep }
        while let message = startStack.popLast().map(Message.start) ?? mailbox.popFirst() {
            switch message {
            case .event(let id, let event):
                guard let slot = runningSlot(of: id) else { return .dropEvent(id, event) }
                return .deliver(event, to: slot)
            case .start(let id):
                guard let slot = slot(of: id), nodes[Int(slot)].lifecycle == .pending else { continue }
                markRunning(slot)
                return .start(slot)
            case .stop(let id, let reason):
                guard let slot = slot(of: id) else { continue }
                return .stop(slot, reason)
            case .asyncFailure(let origin, let failure):
                guard let slot = runningSlot(of: origin) else { return .dropFailure(origin, failure) }
                return .fail(slot, failure)
            case .timer(let id, let timer):
                // Cancelled since it came due, or its machine is gone: never delivered.
                guard let slot = takeDueTimer(MachineTimer(machine: id, timer: timer)) else { continue }
                return .fire(timer, slot)
            }
        }
        return nil
    }

    // MARK: Teardown

    /// Begins tearing down the subtree of `slot`: decides the order (children before their parent,
    /// siblings in reverse order, `slot` last) and marks every machine of it as stopping, so
    /// that user code run meanwhile (exit effects, hooks, observers) cannot add to it or reorder it.
    /// `nil` when the machine is gone or already being torn down: a teardown happens once.
    mutating func beginTeardown(of slot: Int32, reason: TeardownReason) -> [TeardownStep]? {
        guard nodes[Int(slot)].serial != 0, nodes[Int(slot)].lifecycle != .stopping else { return nil }
        let order = teardownOrder(of: slot)
        var steps: [TeardownStep] = []
        steps.reserveCapacity(order.count)
        for s in order {
            steps.append(TeardownStep(slot: s, wasRunning: nodes[Int(s)].lifecycle == .running,
                                      reason: s == slot ? reason : .parentTornDown))
            nodes[Int(s)].lifecycle = .stopping
        }
        return steps
    }

    /// The order in which a subtree is torn down: children before their parent, siblings in
    /// reverse order (reverse spawn order; declared children in reverse document order of their
    /// states), the root of the subtree last. Iterative.
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

    // MARK: Walks

    /// The children of a machine, in sibling order.
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
