@_spi(Testing) import Flowstate
import PropertyBased
import Testing

@Suite("Supervisor properties")
struct SupervisorProperties {
    /// One operation on a live tree: the numbers pick the machine and the event.
    enum Op: CustomStringConvertible {
        case send(machine: Int, event: Int)
        case stop(machine: Int)
        case spawn(machine: Int)
        case release(owner: Int)
        case sweep

        init(_ kind: Int, _ a: Int, _ b: Int) {
            switch kind {
            case 0, 1, 2: self = .send(machine: a, event: b)
            case 3: self = .stop(machine: a)
            case 4: self = .spawn(machine: a)
            case 5: self = .release(owner: a)
            default: self = .sweep
            }
        }

        var description: String {
            switch self {
            case .send(let m, let e): "send(\(m), \(e))"
            case .stop(let m): "stop(\(m))"
            case .spawn(let m): "spawn(\(m))"
            case .release(let o): "release(\(o))"
            case .sweep: "sweep"
            }
        }
    }

    static let operations = zip(Gen.int(in: 0...6), Gen.int(in: 0...20), Gen.int(in: 0...5))
        .map { Op($0, $1, $2) }.array(of: 1...60)
    static let policies: [FailurePolicy] = [.escalate, .stop, .restart(maxRestarts: 2, within: .seconds(60))]

    /// Watches a tree's events and checks the teardown laws as they happen.
    final class Watcher {
        var parents: [MachineID: MachineID] = [:]
        var children: [MachineID: [MachineID]] = [:]
        var tornDown: [MachineID: Int] = [:]
        /// Restarts per line of incarnations (the limit is per child).
        var restartsOf: [MachineID: Int] = [:]
        var lineage: [MachineID: MachineID] = [:]
        var pendingReplacement: [MachineID: MachineID] = [:]
        var problems: [String] = []

        func record(_ event: TreeEvent) {
            switch event {
            case .spawned(let id, _, let parent, _, _):
                if let parent {
                    parents[id] = parent
                    if let replaced = pendingReplacement[id], let i = children[parent]?.firstIndex(of: replaced) {
                        children[parent]![i] = id  // a restarted machine takes the place of the one it replaces (OTP)
                    } else {
                        children[parent, default: []].append(id)
                    }
                }
            case .restarted(let old, let replacement):
                pendingReplacement[replacement] = old
                let line = lineage[old] ?? old
                lineage[replacement] = line
                restartsOf[line, default: 0] += 1
            case .tornDown(let id, _):
                tornDown[id, default: 0] += 1
                if tornDown[id]! > 1 { problems.append("\(id) torn down twice") }
                for child in children[id] ?? [] where tornDown[child] == nil {
                    problems.append("\(id) torn down before its child \(child)")
                }
            default:
                break
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
    }

    @Test("No zombies, children before parents in reverse spawn order, exactly-once exits, bounded restarts")
    func treeLaws() async {
        await propertyCheck(count: 150, input: Self.operations, Gen.int(in: 0...2), Gen.int(in: 0...2)) { ops, midPolicy, leafPolicy in
            let log = EffectLog()
            let supervisor = Supervisor(now: { .zero })
            let watcher = Watcher()
            supervisor.observe { watcher.record($0) }
            // Checked when each effect is performed: no machine performs anything once torn down.
            func handler<F: Flow>() -> EffectHandler<F> where F.Effect == String {
                let inner: EffectHandler<F> = log.handler()
                return { effect, context in
                    if watcher.tornDown[context.origin] != nil {
                        watcher.problems.append("\(context.origin) performed '\(effect)' after its teardown")
                    }
                    try inner(effect, context)
                }
            }
            let policy = Self.policies[leafPolicy]
            let top = try supervisor.start(Top.definition(midPolicy: Self.policies[midPolicy], leafPolicy: policy),
                                           policy: .stop, handler: handler())
            var owners: [Owner] = []

            for op in ops {
                let machines = supervisor.machines
                switch op {
                case .send(let m, let e):
                    guard !machines.isEmpty else { continue }
                    let target = machines[m % machines.count]
                    switch target.flow {
                    case "top": try? supervisor.send(Top.Event.allCases[e % 5], to: supervisor.handle(target.id, as: Top.self)!)
                    case "mid": try? supervisor.send(Mid.Event.allCases[e % 6], to: supervisor.handle(target.id, as: Mid.self)!)
                    default: try? supervisor.send(Leaf.Event.allCases[e % 2], to: supervisor.handle(target.id, as: Leaf.self)!)
                    }
                case .stop(let m):
                    guard !machines.isEmpty else { continue }
                    let target = machines[m % machines.count].id
                    watcher.check(supervisor.stop(target))
                case .spawn(let m):
                    guard !machines.isEmpty else { continue }
                    let owner = Owner()
                    owners.append(owner)
                    if let parent = supervisor.handle(machines[m % machines.count].id, as: Top.self) {
                        _ = try? supervisor.spawn(Leaf.definition, under: parent, owner: owner, policy: policy,
                                                  handler: handler(), output: { _ in Top.Event.cancel })
                    } else if let parent = supervisor.handle(machines[m % machines.count].id, as: Mid.self) {
                        _ = try? supervisor.spawn(Leaf.definition, under: parent, owner: owner, policy: policy,
                                                  handler: handler(), output: { _ in Mid.Event.back })
                    }
                case .release(let o):
                    if !owners.isEmpty { owners.remove(at: o % owners.count) }
                case .sweep:
                    watcher.check(supervisor.sweep())
                }
                #expect(supervisor.checkInvariants().isEmpty, "\(supervisor.checkInvariants()) after \(op)")
                #expect(supervisor.liveCount == supervisor.machines.count)
                log.entries.removeAll()
            }
            #expect(watcher.problems.isEmpty, "\(watcher.problems)\n\(ops)")
            for (line, count) in watcher.restartsOf { #expect(count <= 2, "restart intensity exceeded for \(line)") }
            owners.removeAll()
            watcher.check(supervisor.stop(top))
            watcher.check(supervisor.sweep())
            #expect(watcher.problems.isEmpty, "\(watcher.problems)")
            #expect(supervisor.liveCount == 0, "no zombie after the root stops: \(supervisor.treeDescription)")
        }
    }

    @Test("Snapshot after any prefix, restore, replay the rest: the same trace as the uninterrupted run")
    func snapshotReplay() async {
        let sends = zip(Gen.int(in: 0...2), Gen.int(in: 0...5)).array(of: 0...30)
        await propertyCheck(count: 100, input: sends, Gen.int(in: 0...30)) { sends, cut in
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
                    case 0: try? supervisor.send(Top.Event.allCases[event % 5], to: supervisor.handle(target.id, as: Top.self)!)
                    case 1: try? supervisor.send(Mid.Event.allCases[event % 6], to: supervisor.handle(target.id, as: Mid.self)!)
                    default: try? supervisor.send(Leaf.Event.allCases[event % 2], to: supervisor.handle(target.id, as: Leaf.self)!)
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
}
