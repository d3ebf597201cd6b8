import Flowstate
import FlowTestSupport
import FlowTesting
import PropertyBased
import Testing

/// Model-based: the testing kit's commands (`SupervisorCommand`, and `SupervisorCall` for those made
/// from inside a step or an observer), run by its runner (`SupervisorCheck.run`) on a tree of `Node`
/// machines, against a reference model of the supervisor
/// written from docs/SUPERVISOR.md (one FIFO queue; calls from inside a step queued or refused;
/// teardown children first in reverse spawn order with every exit effect; completion tears down then
/// queues the output; failures under `.escalate`, `.stop` and `.restart`, a step's remaining effects
/// skipped; released owners swept before the next call observes the tree, and never restarted). The
/// model predicts every effect performed and the whole tree after each command, including the
/// commands a handler calls from inside a step and an observer calls at a teardown.
///
/// The model reads the kit's commands as the kit documents them (`SupervisorCommand`): a machine is
/// a position among the live machines, depth first; an event a sample among those the machine's
/// state reacts to; an owner one of the owners of the machines spawned so far, in spawn order.
@Suite("Supervisor: model")
struct SupervisorModelTests {
    /// The samples, in the order the universe is given them.
    static let samples: [Node.Event] = [.next, .finish, .fail]
    /// The universe's flows: the root's ("node", no output), then "child", whose output is `.next`.
    static let outputs = [false, true]

    // MARK: The reference model

    struct Model {
        enum Life { case pending, running, finished }
        /// `SupervisorCommand.policies`, by position: `.escalate`, `.stop`, `.restart(maxRestarts: 2, ...)`.
        enum Policy: Int { case escalate, stop, restart }
        struct Machine {
            var parent: Int?
            var children: [Int] = []
            var state: Node.State = .a
            var life: Life = .pending
            var policy: Policy
            /// Whether its parent gets `.next` when it completes.
            var output: Bool
            var line: Int
        }
        /// A machine and the machines that restart it: one owner, one restart count.
        struct Line {
            var current: Int
            var restarts = 0
            var ownerGone = false
        }
        enum Message { case start(Int), deliver(Int, Node.Event), stop(Int) }

        /// Machines by id (`MachineID.rawValue`): the supervisor numbers them from 1 in creation order.
        var machines: [Int: Machine] = [:]
        var nextID = 1
        var lines: [Line] = []
        var queue: [Message] = []
        var log: [String] = []
        var inside = false
        var stopping = Set<Int>()
        /// Machines whose owner was released inside a step: swept when the step completes.
        var released: [Int] = []
        /// Starts of restarted machines: before anything queued, last pushed first.
        var startStack: [Int] = []
        /// The lines of the owners the kit keeps, in spawn order.
        var owners: [Int] = []
        /// Armed by `.fail`: the machine's next effect fails.
        var failing = Set<Int>()
        /// Armed by `.duringStep`: the calls the machine's handler makes at its next effect.
        var calls: [Int: [SupervisorCommand]] = [:]
        /// Armed by `.atTeardown`: one call at each of the next teardowns.
        var teardownCalls: [SupervisorCommand] = []

        /// The machines depth first, children in order: what `Supervisor.machines` lists.
        var preorder: [Int] {
            var order: [Int] = []
            var stack = machines.keys.filter { machines[$0]!.parent == nil }.sorted(by: >)
            while let m = stack.popLast() {
                order.append(m)
                stack.append(contentsOf: machines[m]!.children.reversed())
            }
            return order
        }

        /// The tree: each machine with its parent and state, depth first.
        var tree: [String] {
            preorder.map { m in "\(m) in \(machines[m]!.state.rawValue) under \(machines[m]!.parent.map(String.init) ?? "-")" }
        }

        func pick(_ n: Int) -> Int? {
            let order = preorder
            return order.isEmpty ? nil : order[n % order.count]
        }

        /// A call at the top level, as the kit runs it: the root started first when the tree is
        /// empty; then the command made (and what it queued, until the queue is empty) or armed.
        mutating func run(_ call: SupervisorCall) {
            if machines.isEmpty {
                let id = place(parent: nil, policy: .escalate, output: false)
                turn { $0.start(id) }
            }
            switch call {
            case .command(let command): perform(command)
            case .duringStep(let n, let command): if let id = pick(n) { calls[id, default: []].append(command) }
            case .atTeardown(let command): teardownCalls.append(command)
            }
            if !released.isEmpty { turn { _ in } }  // the kit reads the tree: what released owners left is swept
        }

        /// Runs `body` as a turn (calls inside it are queued), then drains the queue.
        mutating func turn(_ body: (inout Model) -> Void) {
            inside = true
            body(&self)
            while !queue.isEmpty || !released.isEmpty || !startStack.isEmpty {
                if !released.isEmpty {
                    let sweep = released.sorted()
                    released.removeAll()
                    for id in sweep { tearDown(id) }
                    continue
                }
                if let id = startStack.popLast() {
                    if machines[id]?.life == .pending, !stopping.contains(id) { start(id) }
                    continue
                }
                switch queue.removeFirst() {
                case .start(let id):
                    if machines[id]?.life == .pending, !stopping.contains(id) { start(id) }
                case .deliver(let id, let event):
                    if machines[id]?.life == .running, !stopping.contains(id) { deliver(event, to: id) }
                case .stop(let id):
                    if machines[id] != nil { tearDown(id) }
                }
            }
            inside = false
        }

        mutating func place(parent: Int?, policy: Policy, output: Bool) -> Int {
            let id = nextID
            nextID += 1
            lines.append(Line(current: id))
            machines[id] = Machine(parent: parent, policy: policy, output: output, line: lines.count - 1)
            if let parent { machines[parent]!.children.append(id) }
            return id
        }

        /// One command, at the top level or called from inside a step or an observer.
        mutating func perform(_ command: SupervisorCommand) {
            switch command {
            case .send(let n, let e):
                guard let id = pick(n), !stopping.contains(id) else { return }
                let machine = machines[id]!
                // The samples the state reacts to (all of them in a state that reacts to none).
                let pool: [Node.Event] = switch machine.state {
                case .a: [.next, .finish, .fail]
                case .b: [.next, .fail]
                case .done: SupervisorModelTests.samples
                }
                let event = pool[e % pool.count]
                if inside {
                    queue.append(.deliver(id, event))
                } else if machine.life == .running {
                    turn { $0.deliver(event, to: id) }
                }
            case .stop(let n):
                guard let id = pick(n) else { return }
                if inside { queue.append(.stop(id)) } else { turn { $0.tearDown(id) } }
            case .spawn(let f, let n, let p):
                guard let parent = pick(n), !stopping.contains(parent) else { return }  // refused: nothing outlives its parent
                let flow = f % SupervisorModelTests.outputs.count
                let id = place(parent: parent, policy: Policy(rawValue: p % 3)!, output: SupervisorModelTests.outputs[flow])
                owners.append(machines[id]!.line)
                if inside { queue.append(.start(id)) } else { turn { $0.start(id) } }
            case .releaseOwner(let n):
                guard !owners.isEmpty else { return }
                let line = owners.remove(at: n % owners.count)
                lines[line].ownerGone = true
                let id = lines[line].current
                if machines[id] != nil { released.append(id) }
            case .fail(let n):
                guard let id = pick(n) else { return }
                failing.insert(id)
            case .sweep:
                if !inside, !released.isEmpty { turn { _ in } }
            case .snapshotRestore:
                guard !inside else { return }  // refused inside a step
                // A new supervisor: the root, restored where it rests, without its dynamic children.
                let roots = preorder.filter { machines[$0]!.parent == nil }
                let restored = roots.map { machines[$0]! }
                machines = [:]
                nextID = 1
                owners = []
                failing = []
                calls = [:]
                teardownCalls = []
                for old in restored {
                    let id = place(parent: nil, policy: old.policy, output: old.output)
                    machines[id]!.state = old.state
                    machines[id]!.life = .running
                }
            }
        }

        mutating func start(_ id: Int) {
            machines[id]!.life = .running
            effects(["in a"], of: id)
        }

        mutating func deliver(_ event: Node.Event, to id: Int) {
            switch (machines[id]!.state, event) {
            case (.a, .next):
                machines[id]!.state = .b
                effects(["out a", "act", "in b"], of: id)
            case (.b, .next):
                machines[id]!.state = .a
                effects(["out b", "act", "in a"], of: id)
            case (.a, .finish):
                machines[id]!.state = .done
                machines[id]!.life = .finished
                guard effects(["out a"], of: id) else { return }
                let machine = machines[id]!
                tearDown(id)
                if machine.output, let parent = machine.parent, machines[parent] != nil, !stopping.contains(parent) {
                    queue.append(.deliver(parent, .next))
                }
            case (_, .fail):
                effects(["boom"], of: id)
            default:
                break  // ignored
            }
        }

        /// A step's effects. The handler throws on "boom"; otherwise it makes the calls armed for the
        /// machine, then throws if a failure is armed. A failure skips the rest and applies the policy.
        @discardableResult
        mutating func effects(_ list: [String], of id: Int) -> Bool {
            for effect in list {
                log.append("\(id) \(effect)")
                if effect == "boom" {
                    fail(id)
                    return false
                }
                for call in calls.removeValue(forKey: id) ?? [] { perform(call) }
                if failing.remove(id) != nil {
                    fail(id)
                    return false
                }
            }
            return true
        }

        /// A failure, up the tree: `.restart` puts a fresh machine in its place (at most twice per line;
        /// a machine whose owner is gone is stopped instead); `.stop` tears the subtree down; past its
        /// restarts, and under `.escalate`, the subtree goes and the parent fails in turn.
        mutating func fail(_ id: Int) {
            var m = id
            while let machine = machines[m], !stopping.contains(m) {
                if machine.policy == .restart, lines[machine.line].restarts < 2 {
                    if lines[machine.line].ownerGone { tearDown(m) } else { restart(m) }
                    return
                }
                tearDown(m)
                guard machine.policy != .stop, let parent = machine.parent else { return }
                m = parent
            }
        }

        mutating func restart(_ id: Int) {
            let old = machines[id]!
            let parent = old.parent!
            let position = machines[parent]!.children.firstIndex(of: id)!
            tearDown(id)
            guard machines[parent] != nil, !stopping.contains(parent), !lines[old.line].ownerGone else { return }
            let fresh = nextID
            nextID += 1
            lines[old.line].current = fresh
            lines[old.line].restarts += 1
            machines[fresh] = Machine(parent: parent, policy: old.policy, output: old.output, line: old.line)
            machines[parent]!.children.insert(fresh, at: min(position, machines[parent]!.children.count))
            startStack.append(fresh)
        }

        /// Children first, siblings in reverse spawn order; every running machine's exits run (a
        /// failure there is reported only); each teardown may run a call an observer armed.
        mutating func tearDown(_ id: Int) {
            guard machines[id] != nil, !stopping.contains(id) else { return }
            var order: [Int] = []
            var stack: [(Int, Bool)] = [(id, false)]
            while let (m, expanded) = stack.popLast() {
                if expanded { order.append(m); continue }
                stack.append((m, true))
                for child in machines[m]!.children { stack.append((child, false)) }
            }
            stopping.formUnion(order)
            for m in order {
                let machine = machines[m]!
                if machine.life == .running {
                    log.append("\(m) out \(machine.state.rawValue)")
                    for call in calls.removeValue(forKey: m) ?? [] { perform(call) }
                    failing.remove(m)
                }
                machines[m] = nil
                stopping.remove(m)
                if let parent = machine.parent { machines[parent]?.children.removeAll { $0 == m } }
                if !teardownCalls.isEmpty { perform(teardownCalls.removeFirst()) }
            }
        }
    }

    // MARK: The property

    /// A command that is not an armed call: `(kind, a, b)` with kinds 0-8.
    static func plain(_ kind: Int, _ a: Int, _ b: Int) -> SupervisorCommand {
        switch kind {
        case 0, 1, 2: .send(machine: a, event: b)
        case 3: .stop(machine: a)
        case 4: .spawn(flow: b % 2, under: a, policy: b / 2)
        case 5: .releaseOwner(a)
        case 6: .fail(machine: a)
        case 7: .sweep
        default: .snapshotRestore
        }
    }

    /// Every kind of command, made at once or armed to be made from inside a step or an observer.
    static let calls = zip(Gen.int(in: 0...11), Gen.int(in: 0...40), Gen.int(in: 0...5), Gen.int(in: 0...8))
        .map { kind, a, b, inner -> SupervisorCall in
            switch kind {
            case 9, 10: .duringStep(machine: a, plain(inner, a + b, b))
            case 11: .atTeardown(plain(inner, a + b, b))
            default: .command(plain(kind, a, b))
            }
        }
        .array(of: 1...40)

    static var universe: (SupervisorUniverse, EffectRecord) {
        let record = EffectRecord()
        let handler: EffectHandler<Node> = { effect, context in
            record.entries.append("\(context.origin.rawValue) \(effect)")
            if effect == "boom" { throw Boom() }
        }
        let universe = SupervisorUniverse(root: Node.definition, samples: samples, policy: .escalate, handler: handler)
            .adding(Node.definition(named: "child"), samples: samples, handler: handler, output: { _ in Node.Event.next })
        return (universe, record)
    }

    final class EffectRecord {
        var entries: [String] = []
    }

    struct Boom: Error {}

    struct Disagreement: Error, CustomStringConvertible {
        var description: String
    }

    @Test("The supervisor agrees with the reference model on every effect and the whole tree, after every command")
    func agreesWithModel() async {
        await propertyCheck(count: 300, input: Self.calls) { calls in
            try Self.check(calls)
        }
    }

    @Test("The same on the kit's own generated commands (FlowGen.supervisorCommands)")
    func agreesWithModelOnKitCommands() async {
        await propertyCheck(count: 200, input: FlowGen.supervisorCommands(for: Self.universe.0)) { commands in
            try Self.check(commands.map(SupervisorCall.command))
        }
    }

    static func check(_ calls: [SupervisorCall]) throws {
        let (universe, record) = Self.universe
        var model = Model()
        var next = 0
        try SupervisorCheck.run(universe, calls: calls) { supervisor, _ in
            let command = calls[next]
            next += 1
            model.run(command)
            let tree = supervisor.machines.map { "\($0.id.rawValue) in \($0.state) under \($0.parent.map { "\($0.rawValue)" } ?? "-")" }
            #expect(record.entries == model.log, "effects after \(command)")
            #expect(tree == model.tree, "tree after \(command)")
            if record.entries != model.log || tree != model.tree {
                throw Disagreement(description: "after call \(next) of \(calls)")
            }
        }
    }
}
