import Flowstate
import PropertyBased

/// One command on a `Supervisor` tree, as ``FlowGen/supervisorCommands(for:length:)`` generates it
/// and ``SupervisorCheck`` runs it.
///
/// Numbers pick among what exists when the command runs, so that a sequence stays meaningful while
/// it shrinks: `machine` is a position among the live machines (depth first, as
/// `Supervisor.machines` lists them), taken modulo their count; `event` a sample among those the
/// machine's state reacts to; `flow` a flow of the ``SupervisorUniverse``; `owner` one of the owner
/// lifetimes of the machines spawned so far. Zero is the simplest value of each.
public enum SupervisorCommand: Hashable, Sendable, CustomStringConvertible {
    /// Send a machine a sample event its state reacts to (any sample when it reacts to none).
    case send(machine: Int, event: Int)
    /// Stop a machine and its subtree.
    case stop(machine: Int)
    /// Spawn a machine of a universe flow under a machine, bound to a new owner lifetime, with the
    /// failure policy `policy` picks: `.escalate`, `.stop` or `.restart(maxRestarts: 2, within: .seconds(60))`.
    case spawn(flow: Int, under: Int, policy: Int)
    /// Release (deallocate) the owner lifetime of a spawned machine: its subtree goes before the next
    /// call observes the tree.
    case releaseOwner(Int)
    /// Make the machine's handler throw after it performs the machine's next effect (a failure, which
    /// applies the machine's policy: escalation, stop or restart; during a teardown it is reported only).
    case fail(machine: Int)
    /// Tear down the machines whose owner was released (`Supervisor.sweep()`).
    case sweep
    /// Take a snapshot, restore it on a new supervisor and go on there, as an app killed and launched
    /// again: the old tree goes without a teardown, and dynamic children are not restored (their owners
    /// belonged to the previous launch). Any snapshot the supervisor takes must restore.
    case snapshotRestore

    /// The failure policies ``spawn(flow:under:policy:)`` picks from.
    public static let policies: [FailurePolicy] = [.escalate, .stop, .restart(maxRestarts: 2, within: .seconds(60))]

    /// The command as Swift, for example `.spawn(flow: 1, under: 0, policy: 2)`.
    public var description: String {
        switch self {
        case .send(let machine, let event): ".send(machine: \(machine), event: \(event))"
        case .stop(let machine): ".stop(machine: \(machine))"
        case .spawn(let flow, let under, let policy): ".spawn(flow: \(flow), under: \(under), policy: \(policy))"
        case .releaseOwner(let owner): ".releaseOwner(\(owner))"
        case .fail(let machine): ".fail(machine: \(machine))"
        case .sweep: ".sweep"
        case .snapshotRestore: ".snapshotRestore"
        }
    }

    /// Simpler commands: each number set to zero, halved, or one less.
    var simpler: [SupervisorCommand] {
        func smaller(_ n: Int) -> [Int] { n <= 0 ? [] : Array(Set([0, n / 2, n - 1])).sorted() }
        switch self {
        case .send(let machine, let event):
            return smaller(machine).map { .send(machine: $0, event: event) } + smaller(event).map { .send(machine: machine, event: $0) }
        case .stop(let machine): return smaller(machine).map { .stop(machine: $0) }
        case .spawn(let flow, let under, let policy):
            return smaller(flow).map { .spawn(flow: $0, under: under, policy: policy) }
                + smaller(under).map { .spawn(flow: flow, under: $0, policy: policy) }
                + smaller(policy).map { .spawn(flow: flow, under: under, policy: $0) }
        case .releaseOwner(let owner): return smaller(owner).map { .releaseOwner($0) }
        case .fail(let machine): return smaller(machine).map { .fail(machine: $0) }
        case .sweep, .snapshotRestore: return []
        }
    }

    /// Smaller sequences, most shrunk first (``SequenceSearch/shrinks(of:simpler:)``): a command's
    /// simpler forms pick smaller numbers, so shrinking ends.
    static func shrinks(of commands: [SupervisorCommand]) -> [[SupervisorCommand]] {
        SequenceSearch.shrinks(of: commands) { $0.simpler }
    }

    /// A random command: mostly sends, then spawns, failures, stops, owner releases, sweeps and
    /// snapshots.
    static func random<R: RandomNumberGenerator>(flows: Int, using rng: inout R) -> SupervisorCommand {
        let machine = Int.random(in: 0..<8, using: &rng)
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<45: return .send(machine: machine, event: Int.random(in: 0..<8, using: &rng))
        case 45..<62:
            return .spawn(flow: Int.random(in: 0..<max(1, flows), using: &rng), under: machine,
                          policy: Int.random(in: 0..<policies.count, using: &rng))
        case 62..<72: return .fail(machine: machine)
        case 72..<80: return .stop(machine: machine)
        case 80..<90: return .releaseOwner(Int.random(in: 0..<8, using: &rng))
        case 90..<95: return .sweep
        default: return .snapshotRestore
        }
    }
}

/// A step of a ``SupervisorCheck`` run: a ``SupervisorCommand`` made at once, or armed to be made
/// later from inside a step or from an observer, as an app's effect handlers and observers call the
/// supervisor. ``SupervisorCheck/run(_:calls:each:)`` runs them.
///
/// An armed command is made when its moment comes, with the numbers it has (a machine is a position
/// among the live machines then, the tree as it is mid-step). The supervisor queues, refuses or
/// allows it as it does any call made there (docs/SUPERVISOR.md, "Re-entrancy"): a send, a stop or
/// a spawn is queued, a sweep returns nothing, a ``SupervisorCommand/snapshotRestore`` only asks for
/// the snapshot, which is refused mid-step (nothing is restored).
public enum SupervisorCall: Hashable, Sendable, CustomStringConvertible {
    /// The command, made at once, at the top level.
    case command(SupervisorCommand)
    /// Arm a call from inside a step: at the machine's next effect, once its handler has performed
    /// it (and before an injected failure is thrown), the handler makes the command. Several armed
    /// for one machine are made at that effect, in the order they were armed; armed for a machine
    /// that is gone, never.
    case duringStep(machine: Int, SupervisorCommand)
    /// Arm a call from an observer: when the next machine is torn down (`TreeEvent.tornDown`, after
    /// it left the tree), an observer of the tree makes the command. Several armed are made at
    /// successive teardowns, in the order they were armed.
    case atTeardown(SupervisorCommand)

    /// The call as Swift, for example `.duringStep(machine: 1, .stop(machine: 0))`.
    public var description: String {
        switch self {
        case .command(let command): ".command(\(command))"
        case .duringStep(let machine, let command): ".duringStep(machine: \(machine), \(command))"
        case .atTeardown(let command): ".atTeardown(\(command))"
        }
    }
}

extension FlowGen {
    /// Sequences of commands on a supervisor tree running `universe`'s flows: sends, spawns under any
    /// machine (with every failure policy), stops, owner releases, injected failures (which restart
    /// machines spawned with `.restart`), sweeps, and snapshot/restore. Run them with
    /// ``SupervisorCheck/run(_:commands:each:)`` inside `propertyCheck`. Calls from inside a step or
    /// an observer (``SupervisorCall``) are not drawn: to test them, generate calls and run them with
    /// ``SupervisorCheck/run(_:calls:each:)``.
    ///
    /// Sequences shrink by removing chunks of commands, then by moving each command's numbers towards
    /// zero, so a failure is reported as a few commands.
    /// - Parameters:
    ///   - universe: The flows; only their number is read.
    ///   - length: The range each sequence's length is drawn from.
    /// - Returns: A generator of command sequences.
    public static func supervisorCommands(for universe: SupervisorUniverse, length: ClosedRange<Int> = 1...30)
        -> Generator<[SupervisorCommand], [[SupervisorCommand]]>
    {
        let flows = universe.flows.count
        let lengths = max(0, length.lowerBound)...max(0, length.upperBound)
        return Generator<[SupervisorCommand], [[SupervisorCommand]]>(
            run: { rng in
                let count = Int.random(in: lengths, using: &rng)
                return (0..<count).map { _ in SupervisorCommand.random(flows: flows, using: &rng) }
            },
            shrink: { SupervisorCommand.shrinks(of: $0) }
        )
    }
}

/// Runs commands on a supervisor tree of a universe's flows: the engine behind ``SupervisorCheck``.
final class SupervisorRun {
    let universe: SupervisorUniverse
    private(set) var supervisor: Supervisor
    private let failures = FailureSwitch()
    /// The owner lifetimes of spawned machines, in spawn order, with the machine each owns.
    private var owners: [(lifetime: FlowLifetime, machine: MachineID)] = []
    private var observation: FlowObservation?
    /// The tree events since the last command.
    private var events: [TreeEvent] = []
    /// The last command run, with each number replaced by what it picked (the position among the
    /// machines, samples, flows, policies or owners): the same command, with the smallest numbers.
    private(set) var normalized: SupervisorCommand = .sweep
    /// The calls armed by ``SupervisorCall/atTeardown(_:)``, run one per teardown, in order.
    private var teardownCalls: [SupervisorCommand] = []
    /// What the armed calls did during the current command.
    private var callsDone: [String] = []
    /// How many armed calls are running (inside a handler or an observer).
    private var depth = 0

    /// A law of the kit or a problem of the run: the message of a violation.
    struct Violation: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the root. Throws a violation when it cannot start.
    init(_ universe: SupervisorUniverse) throws(Violation) {
        self.universe = universe
        supervisor = Supervisor(now: { .zero })
        failures.call = { [weak self] in self?.call($0, from: "inside a step") }
        observe()
        _ = try startRoot()
    }

    deinit { observation?.cancel() }

    private func observe() {
        observation?.cancel()
        observation = supervisor.observe { [weak self] event in
            guard let self else { return }
            events.append(event)
            if case .tornDown = event, !teardownCalls.isEmpty {
                call(teardownCalls.removeFirst(), from: "at a teardown")
            }
        }
    }

    /// Runs an armed call, from inside a handler or an observer, keeping the command being run's
    /// normalized form.
    private func call(_ command: SupervisorCommand, from place: String) {
        let outer = normalized
        depth += 1
        let what: String
        do throws(Violation) {
            what = try perform(command)
        } catch {
            what = "(\(error.description))"
        }
        depth -= 1
        normalized = outer
        callsDone.append("\(place): \(what)")
    }

    /// The tree events since the last call.
    func takeEvents() -> [TreeEvent] {
        defer { events.removeAll() }
        return events
    }

    private func startRoot() throws(Violation) -> String {
        guard let root = universe.flows.first else { throw Violation(description: "the universe has no flow") }
        do throws(SupervisorError) {
            let id = try root.start(in: supervisor, failures: failures)
            return "started a root '\(root.name)' \(id)"
        } catch {
            throw Violation(description: "the root '\(root.name)' cannot start: \(error)")
        }
    }

    /// Runs one command (starting a root first when the tree is empty), checks the tree's invariants,
    /// and says what the command did.
    func execute(_ command: SupervisorCommand) throws(Violation) -> String {
        try execute { () throws(Violation) -> String in try perform(command) }
    }

    /// Runs one call: a command at once, or one armed for later (``SupervisorCall``).
    func execute(_ call: SupervisorCall) throws(Violation) -> String {
        switch call {
        case .command(let command):
            return try execute(command)
        case .duringStep(let n, let command):
            return try execute { () -> String in
                guard let (target, _) = machine(n) else { return "no machine" }
                failures.calls[target.id, default: []].append(command)
                return "\(target.id) '\(target.flow)' will call \(command) at its next effect"
            }
        case .atTeardown(let command):
            return try execute { () -> String in
                teardownCalls.append(command)
                return "an observer will call \(command) at the next teardown"
            }
        }
    }

    private func execute(_ body: () throws(Violation) -> String) throws(Violation) -> String {
        var done: [String] = []
        if supervisor.liveCount == 0 { done.append(try startRoot()) }
        done.append(try body())
        _ = supervisor.liveCount  // sweeps what released owners left, as any observing call does
        done.append(contentsOf: callsDone)
        callsDone.removeAll()
        let problems = supervisor.checkInvariants()
        if !problems.isEmpty {
            throw Violation(description: "the tree's invariants do not hold: " + problems.joined(separator: "; "))
        }
        return done.joined(separator: "; ")
    }

    private func machine(_ n: Int) -> (info: MachineInfo, position: Int)? {
        let machines = supervisor.machines
        return machines.isEmpty ? nil : (machines[n % machines.count], n % machines.count)
    }

    private func perform(_ command: SupervisorCommand) throws(Violation) -> String {
        normalized = command
        switch command {
        case .send(let n, let pick):
            guard let (target, position) = machine(n) else { return "no machine" }
            normalized = .send(machine: position, event: pick)
            guard let flow = universe.flow(named: target.flow),
                  let sent = flow.send(pick, to: target.id, in: supervisor) else {
                return "\(target.id) '\(target.flow)' is not a flow of the universe: nothing sent"
            }
            normalized = .send(machine: position, event: sent.pick)
            let what = "send \(sent.event) to \(target.id) '\(target.flow)' in \(target.state)"
            return sent.error.map { "\(what) (refused: \($0))" } ?? what
        case .stop(let n):
            guard let (target, position) = machine(n) else { return "no machine" }
            normalized = .stop(machine: position)
            let record = supervisor.stop(target.id)
            return "stop \(target.id) '\(target.flow)' (torn down: \(record.ids.map(\.description).joined(separator: ", ")))"
        case .spawn(let f, let n, let p):
            guard let (parent, position) = machine(n) else { return "no machine" }
            let child = universe.flows[f % universe.flows.count]
            let policy = SupervisorCommand.policies[p % SupervisorCommand.policies.count]
            normalized = .spawn(flow: f % universe.flows.count, under: position, policy: p % SupervisorCommand.policies.count)
            guard let parentFlow = universe.flow(named: parent.flow) else {
                return "\(parent.id) '\(parent.flow)' is not a flow of the universe: nothing spawned"
            }
            let owner = FlowLifetime()
            do throws(SupervisorError) {
                guard let id = try parentFlow.spawn(child, under: parent.id, in: supervisor, owner: owner,
                                                    policy: policy, failures: failures) else {
                    return "\(parent.id) is gone: nothing spawned"
                }
                owners.append((owner, id))
                return "spawn '\(child.name)' \(id) under \(parent.id) '\(parent.flow)' with \(policy)"
            } catch {
                return "spawn '\(child.name)' under \(parent.id) refused: \(error)"
            }
        case .releaseOwner(let n):
            guard !owners.isEmpty else { return "no owner" }
            normalized = .releaseOwner(n % owners.count)
            let released = owners.remove(at: n % owners.count)
            return "release the owner of \(released.machine)"
        case .fail(let n):
            guard let (target, position) = machine(n) else { return "no machine" }
            normalized = .fail(machine: position)
            failures.armed.insert(target.id)
            return "\(target.id) '\(target.flow)' will fail at its next effect"
        case .sweep:
            let record = supervisor.sweep()
            return "sweep (torn down: \(record.ids.map(\.description).joined(separator: ", ")))"
        case .snapshotRestore:
            guard depth == 0 else {
                do throws(SupervisorError) {
                    _ = try supervisor.snapshot()
                    return "snapshot taken (not restored inside a call)"
                } catch {
                    return "snapshot refused: \(error)"
                }
            }
            return try snapshotRestore()
        }
    }

    /// Snapshots the tree, restores its roots on a new supervisor, and checks that the new tree's
    /// snapshot is the old one without its dynamic children.
    private func snapshotRestore() throws(Violation) -> String {
        let snapshot: TreeSnapshot
        do throws(SupervisorError) {
            snapshot = try supervisor.snapshot()
        } catch {
            throw Violation(description: "snapshot() failed: \(error)")
        }
        let old = supervisor
        supervisor = Supervisor(now: { .zero })
        observe()  // the restored machines' spawns are the command's events
        for root in snapshot.roots {
            guard let flow = universe.flow(named: root.flow) else {
                throw Violation(description: "the snapshot has a root of '\(root.flow)', not a flow of the universe")
            }
            do throws(SupervisorError) {
                _ = try flow.restore(root, in: supervisor, failures: failures)
            } catch {
                supervisor = old
                observe()
                events.removeAll()
                throw Violation(description: "restore refused the supervisor's own snapshot: \(error)")
            }
        }
        // The old tree goes as an app that is killed goes: no teardown, no exit effect.
        owners.removeAll()
        failures.armed.removeAll()
        failures.calls.removeAll()
        teardownCalls.removeAll()
        let expected = Self.declaredOnly(snapshot)
        let restored: TreeSnapshot
        do throws(SupervisorError) {
            restored = try supervisor.snapshot()
        } catch {
            throw Violation(description: "snapshot() failed after restore: \(error)")
        }
        let actual = Self.declaredOnly(restored)
        guard actual == expected else {
            throw Violation(description: "the restored tree is not the snapshot's: expected \(expected), actual \(actual)")
        }
        return "snapshot and restore \(actual.count) machine\(actual.count == 1 ? "" : "s") on a new supervisor"
    }

    /// A snapshot's machines in preorder, as `depth flow state slot` lines, without dynamic children
    /// and what runs under them. Iterative.
    static func declaredOnly(_ snapshot: TreeSnapshot) -> [String] {
        var lines: [String] = []
        var stack: [(MachineSnapshot, Int)] = snapshot.roots.reversed().map { ($0, 0) }
        while let (machine, depth) = stack.popLast() {
            lines.append("\(depth) \(machine.flow) in \(machine.state)" + (machine.parentState.map { " (runs in \($0))" } ?? ""))
            for child in machine.children.reversed() where child.parentState != nil { stack.append((child, depth + 1)) }
        }
        return lines
    }
}
