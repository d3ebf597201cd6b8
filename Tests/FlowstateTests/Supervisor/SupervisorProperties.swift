import Flowstate
import PropertyBased
import Testing

@Suite("Supervisor properties")
struct SupervisorProperties {
    /// One operation on a live tree of generated flows: the numbers pick the machine (among the live
    /// ones, depth first), the event, the flow and the policy.
    enum Op: CustomStringConvertible {
        case send(machine: Int, kind: Int, payload: Int)
        case stop(machine: Int)
        case spawn(flow: Int, under: Int, policy: Int)
        case release(owner: Int)
        case sweep
        /// Fails the machine `times` times in a row, following it through its restarts.
        case fail(machine: Int, times: Int)

        init(_ kind: Int, _ a: Int, _ b: Int, _ c: Int) {
            switch kind {
            case 0, 1, 2, 3: self = .send(machine: a, kind: b % 5, payload: c)
            case 4: self = .stop(machine: a)
            case 5, 6: self = .spawn(flow: b, under: a, policy: c)
            case 7: self = .release(owner: a)
            case 8: self = .sweep
            default: self = .fail(machine: a, times: 1 + c % 4)
            }
        }

        var description: String {
            switch self {
            case .send(let m, let k, let p): "send(#\(m), e\(k)(\(p)))"
            case .stop(let m): "stop(#\(m))"
            case .spawn(let f, let m, let p): "spawn(D\(f) under #\(m), policy \(p))"
            case .release(let o): "release(\(o))"
            case .sweep: "sweep"
            case .fail(let m, let times): "fail(#\(m), \(times) times)"
            }
        }
    }

    static let operations = zip(Gen.int(in: 0...9), Gen.int(in: 0...20), Gen.int(in: 0...5), Gen.int(in: 0...5))
        .map { Op($0, $1, $2, $3) }.array(of: 1...50)

    struct Boom: Error {}

    /// Watches a tree's events and the effects its machines perform, and checks the laws as they happen.
    final class Watcher {
        let tree: GeneratedTree
        var flowOf: [MachineID: Int] = [:]
        var children: [MachineID: [MachineID]] = [:]
        var tornDown: [MachineID: TeardownReason] = [:]
        var finalState: [MachineID: Int] = [:]
        /// Restarts per line of incarnations (the limit is per line), and the line of each machine.
        var restartsOf: [MachineID: Int] = [:]
        var lineage: [MachineID: MachineID] = [:]
        var replaced: [MachineID: MachineID] = [:]
        /// Entry and exit effects each machine performed, per state.
        var balance: [MachineID: [Int: Int]] = [:]
        var problems: [String] = []

        init(tree: GeneratedTree) { self.tree = tree }

        func record(_ event: TreeEvent) {
            switch event {
            case .spawned(let id, let flow, let parent, _, _):
                flowOf[id] = GeneratedTree.flowIndex(flow)
                if let parent {
                    if let old = replaced[id], let i = children[parent]?.firstIndex(of: old) {
                        children[parent]![i] = id  // a restarted machine takes the place of the one it replaces (OTP)
                    } else {
                        children[parent, default: []].append(id)
                    }
                }
            case .restarted(let old, let replacement):
                replaced[replacement] = old
                let line = lineage[old] ?? old
                lineage[replacement] = line
                restartsOf[line, default: 0] += 1
            case .completed(let id, let output):
                finalState[id] = output.as(Int.self)
            case .tornDown(let id, let reason):
                if tornDown[id] != nil { problems.append("\(id) torn down twice") }
                tornDown[id] = reason
                for child in children[id] ?? [] where tornDown[child] == nil {
                    problems.append("\(id) torn down before its child \(child)")
                }
            default:
                break
            }
        }

        /// The handler every machine's effects reach (a declared child's through its parent's handler,
        /// attributed to the child): no machine performs anything once torn down.
        func perform(_ effect: Gx.Effect, _ context: EffectContext<Gx>) throws {
            let id = context.origin
            if tornDown[id] != nil { problems.append("\(id) performed '\(effect)' after its teardown") }
            switch effect {
            case .entry(let s): balance[id, default: [:]][s, default: 0] += 1
            case .exit(let s): balance[id, default: [:]][s, default: 0] -= 1
            case .boom: throw Boom()
            case .transition: break
            }
        }

        /// Children before parents, and siblings in reverse spawn order, within one teardown.
        func check(_ record: TeardownRecord) {
            let position = Dictionary(uniqueKeysWithValues: record.ids.enumerated().map { ($1, $0) })
            for id in record.ids {
                let kids = (children[id] ?? []).filter { position[$0] != nil }
                for kid in kids where position[kid]! > position[id]! {
                    problems.append("record: \(id) before its child \(kid)")
                }
                for (earlier, later) in zip(kids, kids.dropFirst()) where position[earlier]! < position[later]! {
                    problems.append("record: sibling \(earlier) before the later \(later)")
                }
            }
        }

        /// A declared child runs only while the state that runs it is active in its parent, under the flow
        /// that state names, one per state.
        func checkDeclaredChildren(_ machines: [MachineInfo]) {
            let byID = Dictionary(uniqueKeysWithValues: machines.map { ($0.id, $0) })
            var seen = Set<[String]>()
            for machine in machines {
                guard let slot = machine.parentState, let parentID = machine.parent, let parent = byID[parentID] else { continue }
                let flow = GeneratedTree.flowIndex(parent.flow)
                guard let declared = tree.declaration(in: flow, slot: slot) else {
                    problems.append("\(machine.id) runs in \(parent.flow).\(slot), which declares no child")
                    continue
                }
                if machine.flow != "D\(declared.flow)" {
                    problems.append("\(machine.id) runs \(machine.flow) in \(parent.flow).\(slot), declared D\(declared.flow)")
                }
                if let leaf = Int(parent.state), !tree.configuration(of: leaf, in: flow).contains(declared.state) {
                    problems.append("\(machine.id) still runs in \(parent.flow).\(slot), but \(parentID) is in \(leaf)")
                }
                if !seen.insert(["\(parentID)", slot]).inserted {
                    problems.append("two children of \(parentID) run in its state \(slot)")
                }
            }
        }

        /// Every machine torn down performed each exit of a state it entered exactly once, except a
        /// machine that finished: its final state and that state's ancestors are not exited.
        func checkExits() {
            for (id, reason) in tornDown {
                var expected = [Int: Int]()
                if reason == .completed, let flow = flowOf[id], let final = finalState[id] {
                    for s in tree.configuration(of: final, in: flow) { expected[s] = 1 }
                }
                let actual = (balance[id] ?? [:]).filter { $0.value != 0 }
                if actual != expected {
                    problems.append("\(id) (\(reason)) entered and exited unevenly: \(actual), expected \(expected)")
                }
            }
        }
    }

    @Test("Generated trees: no zombies, children before parents in reverse spawn order, exactly-once exits, declared children only in active states, bounded restarts")
    func treeLaws() async {
        await propertyCheck(count: 300, input: Generators.trees, Self.operations) { tree, ops in
            let definitions = tree.definitions
            let supervisor = Supervisor(now: { .zero })
            let watcher = Watcher(tree: tree)
            supervisor.observe { watcher.record($0) }
            let handler: EffectHandler<Gx> = { try watcher.perform($0, $1) }
            var owners: [Owner] = []
            /// Starts a root when the tree is empty (the last root failed or was stopped); false when it
            /// cannot start (its start loops).
            func ensureRoot() -> Bool {
                guard supervisor.machines.isEmpty else { return true }
                return (try? supervisor.start(definitions[0], policy: GeneratedTree.policies[tree.rootPolicy],
                                              handler: handler)) != nil
            }
            func handle(_ n: Int) -> MachineHandle<Gx>? {
                let machines = supervisor.machines
                return machines.isEmpty ? nil : supervisor.handle(of: machines[n % machines.count].id, as: Gx.self)
            }

            for op in ops {
                guard ensureRoot() else { break }
                switch op {
                case .send(let m, let kind, let payload):
                    guard let target = handle(m) else { continue }
                    // An event the machine's state reacts to, when there is one.
                    let handled = tree.handledKinds(by: supervisor.machines.first { $0.id == target.id }!)
                    let event = Gx.Event(kind: handled.isEmpty ? kind : handled[kind % handled.count], payload: payload)
                    try? supervisor.send(event, to: target)
                case .stop(let m):
                    guard let target = handle(m) else { continue }
                    watcher.check(supervisor.stop(target))
                case .spawn(let flow, let m, let policy):
                    guard let parent = handle(m) else { continue }
                    let owner = Owner()
                    owners.append(owner)
                    _ = try? supervisor.spawn(definitions[flow % definitions.count], under: parent, owner: owner,
                                              policy: GeneratedTree.policies[policy % 3], handler: handler,
                                              output: { _ in Gx.Event(kind: GeneratedTree.childDone, payload: 0) })
                case .release(let o):
                    if !owners.isEmpty { owners.remove(at: o % owners.count) }
                case .sweep:
                    watcher.check(supervisor.sweep())
                case .fail(let m, let times):
                    guard var target = handle(m) else { continue }
                    for _ in 0..<times {
                        try? supervisor.send(Gx.Event(kind: GeneratedTree.fail, payload: 0), to: target)
                        guard let next = watcher.replaced.first(where: { $0.value == target.id })?.key,
                              let handle = supervisor.handle(of: next, as: Gx.self) else { break }
                        target = handle
                    }
                }
                #expect(supervisor.checkInvariants().isEmpty, "\(supervisor.checkInvariants()) after \(op)")
                #expect(supervisor.liveCount == supervisor.machines.count)
                watcher.checkDeclaredChildren(supervisor.machines)
                if !watcher.problems.isEmpty { break }
            }
            for (line, count) in watcher.restartsOf {
                #expect(count <= GeneratedTree.maxRestarts, "restart intensity exceeded for \(line)")
            }
            owners.removeAll()
            for root in supervisor.machines where root.parent == nil { watcher.check(supervisor.stop(root.id)) }
            watcher.check(supervisor.sweep())
            watcher.checkExits()
            #expect(watcher.problems.isEmpty, "\(watcher.problems)\n\(tree)\nops: \(ops)")
            #expect(supervisor.liveCount == 0, "no zombie after the roots stop: \(supervisor.treeDescription)")
            // (A machine whose start failed is torn down without having been reported as spawned.)
            #expect(Set(watcher.flowOf.keys).isSubset(of: watcher.tornDown.keys), "every machine started is torn down")
        }
    }

    @Test("Snapshot after any prefix, restore, replay the rest: the same trace as the uninterrupted run")
    func snapshotReplay() async {
        let sends = zip(Gen.int(in: 0...2), Gen.int(in: 0...5)).array(of: 1...30)
        await propertyCheck(count: 100, input: sends, Gen.int(in: 0...30)) { sends, cut in
            let cut = cut % sends.count  // always restored at some point: never the same run twice
            func trace(restoringAt cut: Int?) throws -> [String] {
                var supervisor = Supervisor()
                var lines: [String] = []
                let log = EffectLog()
                log.failBoom = false
                _ = try supervisor.start(Top.definition(), handler: log.handler())
                for (i, (level, event)) in sends.enumerated() {
                    if i == cut {
                        let snapshot = try supervisor.snapshot()
                        supervisor = Supervisor()
                        for root in snapshot.roots {
                            try supervisor.restore(root, definition: Top.definition(), handler: log.handler())
                        }
                    }
                    let flows = ["top", "mid", "leaf"]
                    guard let target = supervisor.machines.first(where: { $0.flow == flows[level] }) else { continue }
                    switch level {
                    case 0: try? supervisor.send(Top.Event.allCases[event % 5], to: supervisor.handle(of: target.id, as: Top.self)!)
                    case 1: try? supervisor.send(Mid.Event.allCases[event % 6], to: supervisor.handle(of: target.id, as: Mid.self)!)
                    default: try? supervisor.send(Leaf.Event.allCases[event % 2], to: supervisor.handle(of: target.id, as: Leaf.self)!)
                    }
                    lines.append(supervisor.machines.map { "\($0.flow):\($0.state)" }.joined(separator: " ")
                                 + " | " + log.effects.joined(separator: ","))
                    log.entries.removeAll()
                }
                return lines
            }
            let restored = try trace(restoringAt: cut)
            let uninterrupted = try trace(restoringAt: nil)
            #expect(restored == uninterrupted)
        }
    }

    @Test("Snapshot after any prefix, restore, replay the rest, with a parallel parent: the same trace as the uninterrupted run")
    func snapshotReplayParallel() async {
        // An office runs a desk (two regions and the parallel state itself run children); each send goes
        // to the desk or to one of its children, which finish and report to it.
        let sends = zip(Gen.int(in: 0...3), Gen.int(in: 0...7)).array(of: 1...30)
        await propertyCheck(count: 100, input: sends, Gen.int(in: 0...30)) { sends, cut in
            let cut = cut % sends.count
            func trace(restoringAt cut: Int?) throws -> [String] {
                var supervisor = Supervisor()
                var lines: [String] = []
                let log = EffectLog()
                _ = try supervisor.start(Office.definition, handler: log.handler())
                for (i, (target, event)) in sends.enumerated() {
                    if i == cut {
                        let snapshot = try supervisor.snapshot()
                        supervisor = Supervisor()
                        for root in snapshot.roots {
                            try supervisor.restore(root, definition: Office.definition, handler: log.handler())
                        }
                    }
                    let flows = ["desk", "timer", "inbox", "chat"]
                    guard let machine = supervisor.machines.first(where: { $0.flow == flows[target] }) else { continue }
                    if target == 0 {
                        try? supervisor.send(Desk.Event.allCases[event], to: supervisor.handle(of: machine.id, as: Desk.self)!)
                    } else {
                        try? supervisor.send(Leaf.Event.next, to: supervisor.handle(of: machine.id, as: Leaf.self)!)
                    }
                    #expect(supervisor.checkInvariants().isEmpty)
                    lines.append(supervisor.machines.map { "\($0.flow):\($0.state)@\($0.parentState ?? "-")" }.joined(separator: " ")
                                 + " | " + log.effects.joined(separator: ","))
                    log.entries.removeAll()
                }
                return lines
            }
            let restored = try trace(restoringAt: cut)
            let uninterrupted = try trace(restoringAt: nil)
            #expect(restored == uninterrupted)
        }
    }
}
