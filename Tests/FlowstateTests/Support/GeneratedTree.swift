import Flowstate
import PropertyBased

/// A generated family of flows for supervisor properties: flow 0 is the root's; a state of flow `i`
/// may declare a child of a later flow `j > i`, so declared children nest as deep as there are flows
/// (never in a cycle), at any depth of their parent's states (a compound state may run one). Every
/// flow is a `GeneratedFlow` (nesting, finals, guards, eventless and targetless transitions) whose
/// top-level states also fail on `fail` (a targetless transition whose effect is `.boom`).
///
/// Events: kinds 0...2 are the flows' own; `childDone` is what a child's output becomes, `childFailed`
/// what its failure becomes when its declaration maps failures; `fail` makes the machine's handler throw.
struct GeneratedTree: Sendable, CustomStringConvertible {
    static let childDone = 3, childFailed = 4, fail = 5
    static let policies: [FailurePolicy] = [.escalate, .stop, .restart(maxRestarts: 2, within: .seconds(60))]
    static let maxRestarts = 2

    /// A declared child: `state` of its flow runs flow `flow`.
    struct Declared: Sendable, Hashable {
        var state: Int
        var flow: Int
        var policy: Int
        var mapsFailure: Bool
    }

    var flows: [GeneratedFlow]
    /// For each flow, its declared children.
    var declared: [[Declared]]
    var rootPolicy: Int

    var description: String {
        flows.indices.map { i in
            "D\(i): \(flows[i]) runs: "
                + declared[i].map { "\($0.state)->D\($0.flow)[\($0.policy)\($0.mapsFailure ? ", maps failure" : "")]" }
                .joined(separator: ", ")
        }.joined(separator: "\n") + "\nroot policy: \(rootPolicy)"
    }

    typealias FlowSpec = (states: [GeneratedFlow.StateSpec], transitions: [GeneratedFlow.TransitionSpec])
    /// A declared child as generated: the numbers pick the parent flow, its state (among those that are
    /// not final), the child flow (among the later ones), the policy, and whether failures are mapped.
    typealias DeclaredSpec = (flow: Int, state: Int, child: Int, policy: Int, mapsFailure: Int)

    init(flows specs: [FlowSpec], declared declaredSpecs: [DeclaredSpec], rootPolicy: Int) {
        flows = specs.map { spec in
            var flow = GeneratedFlow(states: spec.states, transitions: spec.transitions, allowEventless: false, eventKinds: 5)
            // No flow finishes while starting: a state that would finish it is not final. (A child that
            // finished at once would send its parent an event without any event from outside, and a
            // parent that reacts by entering a state running such a child again would never settle.)
            var s = flow.initial
            while let first = flow.children(of: s).first { s = flow.initialChildren[s] ?? first }
            flow.finals.remove(s)
            for s in 0..<flow.count where flow.parents[s] < 0 && !flow.finals.contains(s) {
                flow.transitions.append(.init(source: s, event: Self.fail, guardKind: 0, target: nil, fails: true))
            }
            return flow
        }
        self.rootPolicy = rootPolicy % Self.policies.count
        let flows = self.flows
        declared = Array(repeating: [], count: flows.count)
        for spec in declaredSpecs {
            let i = spec.flow % flows.count
            guard i + 1 < flows.count else { continue }
            let states = (0..<flows[i].count).filter { !flows[i].finals.contains($0) }
            let state = states[spec.state % states.count]
            guard !declared[i].contains(where: { $0.state == state }) else { continue }
            declared[i].append(Declared(state: state, flow: i + 1 + spec.child % (flows.count - i - 1),
                                        policy: spec.policy % Self.policies.count, mapsFailure: spec.mapsFailure == 1))
        }
    }

    /// The flows' definitions, named `D0`, `D1`, …; built from the last to the first, each declaring
    /// children of flows built before it.
    var definitions: [FlowDefinition<Gx>] {
        var built = [FlowDefinition<Gx>?](repeating: nil, count: flows.count)
        for i in flows.indices.reversed() {
            var runs: [Int: ChildFlow<Gx>] = [:]
            for d in declared[i] {
                var failure: (@Sendable (SupervisionFailure) -> Gx.Event?)?
                if d.mapsFailure { failure = { _ in Gx.Event(kind: GeneratedTree.childFailed, payload: 0) } }
                let output: @Sendable (Int) -> Gx.Event? = { _ in Gx.Event(kind: GeneratedTree.childDone, payload: 0) }
                let child: FlowDefinition<Gx> = built[d.flow]!
                runs[d.state] = ChildFlow<Gx>(child, policy: Self.policies[d.policy], failure: failure, output: output)
            }
            built[i] = flows[i].definition(name: "D\(i)", runs: runs)
        }
        return built.map { $0! }
    }

    /// The flow a machine runs, from its flow's name.
    static func flowIndex(_ name: String) -> Int { Int(name.dropFirst())! }

    /// The state of flow `flow` that runs declared children, by its label, if any.
    func declaration(in flow: Int, slot: String) -> Declared? {
        declared[flow].first { "\($0.state)" == slot }
    }

    /// The event kinds a machine's state (its leaf or an ancestor) reacts to, `fail` left out.
    func handledKinds(by machine: MachineInfo) -> [Int] {
        let flow = Self.flowIndex(machine.flow)
        guard let leaf = Int(machine.state) else { return [] }
        let active = Set(configuration(of: leaf, in: flow))
        let kinds = flows[flow].transitions.compactMap { t in active.contains(t.source) ? t.event : nil }
        return Set(kinds).subtracting([Self.fail]).sorted()
    }

    /// `leaf` and its ancestors in flow `flow`.
    func configuration(of leaf: Int, in flow: Int) -> [Int] {
        var result: [Int] = []
        var s = leaf
        while s >= 0 {
            result.append(s)
            s = flows[flow].parents[s]
        }
        return result
    }
}

extension Generators {
    static let treeFlows = zip(
        zip(Gen.int(in: 0...4), Gen.int(in: 0...3), Gen.int(in: 0...3))
            .map { GeneratedFlow.StateSpec(parent: $0, final: $1, initial: $2) }.array(of: 1...6),
        // Half as many guards as in the engine's flows (0...4: no guard), so that events move the tree.
        zip(Gen.int(in: 0...20), Gen.int(in: 0...20), Gen.int(in: 0...9), Gen.int(in: 0...20), Gen.int(in: 0...3))
            .map { GeneratedFlow.TransitionSpec(source: $0, event: $1, guardKind: max(0, $2 - 5), target: $3, slot: $4) }
            .array(of: 1...12)
    ).map { GeneratedTree.FlowSpec(states: $0, transitions: $1) }.array(of: 1...4)

    static let declaredChildren = zip(Gen.int(in: 0...3), Gen.int(in: 0...10), Gen.int(in: 0...3), Gen.int(in: 0...2),
                                      Gen.int(in: 0...1))
        .map { GeneratedTree.DeclaredSpec(flow: $0, state: $1, child: $2, policy: $3, mapsFailure: $4) }
        .array(of: 0...10)

    /// Generated trees of flows; they shrink to fewer flows, states, transitions and declared children.
    static let trees = zip(treeFlows, declaredChildren, Gen.int(in: 0...2)).map {
        GeneratedTree(flows: $0, declared: $1, rootPolicy: $2)
    }
}
