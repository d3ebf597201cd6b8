import Flowstate
import PropertyBased
import Testing

/// Model-based: a reference model of the supervisor, written from docs/SUPERVISOR.md (one FIFO queue,
/// calls from inside a step queued or refused, teardown children first in reverse spawn order with
/// every exit effect, completion tears down then queues the output, a failure under `.stop` tears the
/// subtree down, released owners are swept before the next call observes the tree), predicts every
/// effect performed and the whole tree after each command. Commands include ones that a handler
/// issues from inside a step.
@Suite("Supervisor: model")
struct SupervisorModelTests {
    /// A machine of the model universe: two states, a self-ending event and a failing one.
    enum Node: Flow {
        enum State: String, Hashable, Sendable { case a, b, done }
        enum Event: String, FlowEvent, CaseIterable { case next, finish, fail }
        typealias Effect = String
        typealias Output = String

        static let definition = FlowDefinition<Node>("node", initial: .a) {
            StateNode(.a, entry: ["in a"], exit: ["out a"]) {
                On(.next, to: .b, effects: ["act"])
                On(.finish, to: .done)
                On(.fail, to: nil, effects: ["boom"])
            }
            StateNode(.b, entry: ["in b"], exit: ["out b"]) {
                On(.next, to: .a, effects: ["act"])
                On(.fail, to: nil, effects: ["boom"])
            }
            Final(.done, output: "done")
        }
    }

    /// A command: at the top level, or issued by a handler when it performs the effect "act".
    enum Command: CustomStringConvertible {
        case send(Int, Node.Event)
        case stop(Int)
        case spawn(under: Int, restarts: Bool)
        case release(Int)

        init(_ kind: Int, _ a: Int, _ b: Int) {
            switch kind {
            case 0, 1, 2: self = .send(a, Node.Event.allCases[b % 3])
            case 3: self = .stop(a)
            case 4: self = .spawn(under: a, restarts: b % 2 == 0)
            default: self = .release(a)
            }
        }

        var description: String {
            switch self {
            case .send(let m, let e): "send(#\(m), \(e))"
            case .stop(let m): "stop(#\(m))"
            case .spawn(let m, let restarts): "spawn(under: #\(m)\(restarts ? ", restarts" : ""))"
            case .release(let m): "release(#\(m))"
            }
        }
    }

    // MARK: The reference model

    struct Model {
        enum Life { case pending, running, finished }
        struct Machine {
            var parent: Int?
            var children: [Int] = []
            var state: Node.State = .a
            var life: Life = .pending
            /// `.restart(maxRestarts: 1, ...)` rather than `.stop`; and how many restarts its line had.
            var restartPolicy = false
            var restarts = 0
        }
        enum Message { case start(Int), deliver(Int, Node.Event), stop(Int) }

        var machines: [Int: Machine] = [:]
        var nextID = 0
        var queue: [Message] = []
        var log: [String] = []
        var inside = false
        var stopping = Set<Int>()
        /// Machines whose owner was released inside a step: swept when the step completes.
        var released: [Int] = []
        /// Every machine whose owner's lifetime was released (a released machine is not restarted).
        var ownersReleased = Set<Int>()
        /// The commands handlers issue, one per "act" performed, in order.
        var plan: [Command]
        var planned = 0
        /// Starts of restarted machines: before anything queued, last pushed first.
        var startStack: [Int] = []
        /// The commands an observer issues, one per machine torn down (when the test observes).
        var observerPlan: [Command]
        var observed = 0

        init(plan: [Command], observerPlan: [Command] = []) {
            self.plan = plan
            self.observerPlan = observerPlan
        }

        /// The live machine a generated number names (machines in id order), if any.
        func pick(_ n: Int) -> Int? {
            let ids = machines.keys.sorted()
            return ids.isEmpty ? nil : ids[n % ids.count]
        }

        mutating func run(_ command: Command) {
            perform(command)
            guard !inside else { return }
            inside = true
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
                let message = queue.removeFirst()
                switch message {
                case .start(let id):
                    guard machines[id]?.life == .pending, !stopping.contains(id) else { continue }
                    start(id)
                case .deliver(let id, let event):
                    guard machines[id]?.life == .running, !stopping.contains(id) else { continue }
                    deliver(event, to: id)
                case .stop(let id):
                    if machines[id] != nil { tearDown(id) }
                }
            }
            inside = false
        }

        mutating func perform(_ command: Command) {
            switch command {
            case .send(let n, let event):
                guard let id = pick(n), !stopping.contains(id) else { return }
                if inside {
                    queue.append(.deliver(id, event))
                } else if machines[id]?.life == .running {
                    inside = true
                    deliver(event, to: id)
                    inside = false
                }
            case .stop(let n):
                guard let id = pick(n) else { return }
                if inside { queue.append(.stop(id)) } else { inside = true; tearDown(id); inside = false }
            case .spawn(let n, let restarts):
                guard let parent = pick(n), !stopping.contains(parent) else { return }
                let id = nextID
                nextID += 1
                machines[id] = Machine(parent: parent, restartPolicy: restarts)
                machines[parent]!.children.append(id)
                if inside { queue.append(.start(id)) } else { inside = true; start(id); inside = false }
            case .release(let n):
                // Owner-bound machines (every spawned one) are swept before the next call observes.
                guard let id = pick(n), machines[id]?.parent != nil else { return }
                ownersReleased.insert(id)
                if inside { released.append(id) } else { inside = true; tearDown(id); inside = false }
            }
        }

        mutating func start(_ id: Int) {
            machines[id]!.life = .running
            effects(["in a"], of: id)
        }

        mutating func deliver(_ event: Node.Event, to id: Int) {
            let state = machines[id]!.state
            switch (state, event) {
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
                let parent = machines[id]!.parent
                tearDown(id)
                if let parent, machines[parent]?.life == .running, !stopping.contains(parent) {
                    queue.append(.deliver(parent, .next))
                }
            case (_, .fail):
                effects(["boom"], of: id)
            default:
                break  // ignored
            }
        }

        /// Performs a step's effects; a failure ("boom") skips the rest and tears the subtree down.
        @discardableResult
        mutating func effects(_ list: [String], of id: Int) -> Bool {
            for effect in list {
                log.append("#\(id) \(effect)")
                if effect == "act", planned < plan.count {
                    planned += 1
                    perform(plan[planned - 1])
                }
                if effect == "boom" {
                    fail(id)
                    return false
                }
            }
            return true
        }

        /// A failure: `.stop` tears the subtree down; `.restart` (at most once per line) puts a fresh
        /// machine in its place, started next; past that it escalates: the subtree goes and the
        /// parent fails in turn, under its own policy.
        mutating func fail(_ id: Int) {
            var m = id
            while let machine = machines[m] {
                if machine.restartPolicy && machine.restarts < 1 {
                    restart(m)
                    return
                }
                let parent = machine.parent
                tearDown(m)
                guard machine.restartPolicy, let parent, machines[parent]?.life == .running,
                      !stopping.contains(parent) else { return }
                m = parent
            }
        }

        mutating func restart(_ id: Int) {
            let old = machines[id]!
            let parent = old.parent!
            let position = machines[parent]!.children.firstIndex(of: id)!
            tearDown(id)
            guard machines[parent] != nil, !stopping.contains(parent), !ownersReleased.contains(id) else { return }
            let fresh = nextID
            nextID += 1
            machines[fresh] = Machine(parent: parent, restartPolicy: true, restarts: old.restarts + 1)
            machines[parent]!.children.insert(fresh, at: min(position, machines[parent]!.children.count))
            startStack.append(fresh)
        }

        /// Children first, siblings in reverse spawn order; every running machine's exits run.
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
                    log.append("#\(m) out \(machine.state.rawValue)")
                }
                machines[m] = nil
                stopping.remove(m)
                if let parent = machine.parent { machines[parent]?.children.removeAll { $0 == m } }
                if observed < observerPlan.count {  // the observer, told of the teardown, issues a command
                    observed += 1
                    perform(observerPlan[observed - 1])
                }
            }
        }

        /// The tree: each machine with its parent and state, depth first.
        var tree: [String] {
            var lines: [String] = []
            var stack = machines.keys.filter { machines[$0]!.parent == nil }.sorted().reversed().map { $0 }
            while let m = stack.popLast() {
                let machine = machines[m]!
                lines.append("#\(m) in \(machine.state.rawValue) under \(machine.parent.map { "#\($0)" } ?? "-")")
                stack.append(contentsOf: machine.children.reversed())
            }
            return lines
        }
    }

    // MARK: The property

    static let commands = zip(Gen.int(in: 0...5), Gen.int(in: 0...40), Gen.int(in: 0...5))
        .map { Command($0, $1, $2) }.array(of: 1...40)

    @Test("The supervisor agrees with the reference model on every effect and the whole tree, after every command")
    func agreesWithModel() async {
        await propertyCheck(count: 300, input: Self.commands, Self.commands) { commands, plan in
            try Self.check(commands, plan: plan, observerPlan: nil)
        }
    }

    @Test("The same, with an observer that issues commands when it sees a teardown, and restarts")
    func agreesWithModelObserved() async {
        await propertyCheck(count: 300, input: Self.commands, Self.commands, Self.commands) { commands, plan, observerPlan in
            try Self.check(commands, plan: plan, observerPlan: observerPlan)
        }
    }

    static func check(_ commands: [Command], plan: [Command], observerPlan: [Command]?) throws {
        var model = Model(plan: plan, observerPlan: observerPlan ?? [])
        let supervisor = Supervisor(now: { .zero })
        var log: [String] = []
        var lifetimes: [MachineID: FlowLifetime] = [:]
        var planned = 0
        var observed = 0
        func label(_ id: MachineID) -> String { "#\(id.rawValue - 1)" }
        func pick(_ n: Int) -> MachineID? {
            let ids = supervisor.machines.map(\.id).sorted()
            return ids.isEmpty ? nil : ids[n % ids.count]
        }
        func issue(_ command: Command) {
            switch command {
            case .send(let n, let event):
                guard let id = pick(n), let handle = supervisor.handle(of: id, as: Node.self) else { return }
                try? supervisor.send(event, to: handle)
            case .stop(let n):
                guard let id = pick(n) else { return }
                supervisor.stop(id)
            case .spawn(let n, let restarts):
                guard let id = pick(n), let parent = supervisor.handle(of: id, as: Node.self) else { return }
                let lifetime = FlowLifetime()
                let policy: FailurePolicy = restarts ? .restart(maxRestarts: 1, within: .seconds(60)) : .stop
                if let child = try? supervisor.spawn(Node.definition, under: parent, owner: lifetime,
                                                     policy: policy, handler: handler, output: { _ in .next }) {
                    lifetimes[child.id] = lifetime
                }
            case .release(let n):
                guard let id = pick(n), lifetimes[id] != nil else { return }
                lifetimes[id] = nil
            }
        }
        func handler(_ effect: String, _ context: EffectContext<Node>) throws {
            log.append("\(label(context.origin)) \(effect)")
            if effect == "act", planned < plan.count {
                planned += 1
                issue(plan[planned - 1])
            }
            if effect == "boom" { throw EffectLog.Boom() }
        }
        // A restarted machine keeps its owner's lifetime.
        var observations = [supervisor.observe { event in
            if case .restarted(let old, let new) = event { lifetimes[new] = lifetimes.removeValue(forKey: old) }
        }]
        if let observerPlan {
            observations.append(supervisor.observe { event in
                guard case .tornDown = event, observed < observerPlan.count else { return }
                observed += 1
                issue(observerPlan[observed - 1])
            })
        }
        // One root; the model's id 0.
        model.machines[0] = Model.Machine(parent: nil, life: .running)
        model.nextID = 1
        model.log = ["#0 in a"]
        _ = try supervisor.start(Node.definition, policy: .stop, handler: handler)
        for command in commands {
            model.run(command)
            issue(command)
            let tree = supervisor.machines.map { "\(label($0.id)) in \($0.state) under \($0.parent.map(label) ?? "-")" }
            #expect(log == model.log, "effects after \(command)")
            #expect(tree == model.tree, "tree after \(command)")
            #expect(supervisor.checkInvariants().isEmpty)
            if log != model.log || tree != model.tree { break }
        }
        // The handler and the observers capture the supervisor: stopping every root and ending the
        // observations release it.
        for machine in supervisor.machines where machine.parent == nil { supervisor.stop(machine.id) }
        observations.forEach { $0.cancel() }
    }
}
