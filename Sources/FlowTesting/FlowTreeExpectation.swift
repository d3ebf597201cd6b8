import Flowstate
import FlowNavigation
import Testing

/// What a test states about one command of a ``FlowTreeTester``: everything stated is checked, and
/// everything that happened but was not stated is reported.
///
/// Tree events are matched to statements by kind: ``spawned(_:in:under:)``, ``transition(_:to:)``
/// (in order, per machine; a machine of a flow with parallel states resting in several leaves:
/// ``spawned(_:leaves:under:)``, ``transition(_:toLeaves:)``), ``completed(_:output:)``, ``failed(_:)``, ``restarted(_:)``,
/// ``tornDown(_:_:)`` (in teardown order: children before their parent, siblings in reverse spawn
/// order), and ``event(_:)`` for any event stated exactly (a `dropped` or `refused` one, say).
/// Effects are stated per performing machine (``effects(_:_:)``), navigation as the navigator's
/// commands (``navigation(_:)``). Where a machine rests after the command, every active leaf of it,
/// is stated with ``leaves(_:_:)``.
public struct FlowTreeExpectation<Screen: Hashable & Sendable> {
    private let record: TreeStepRecord
    private let supervisor: Supervisor
    /// Which of the record's events a statement matched.
    private var stated: [Bool]
    private var problems_: [String] = []
    /// Transitions stated per machine, in the order machines were first named.
    private var transitions: [(id: MachineID, states: [String])] = []
    private var effectChecks: [(id: MachineID, check: ([RecordedEffect]) -> String?)] = []
    private var outputs: [(id: MachineID, output: String)] = []
    private var failures: [MachineID] = []
    private var teardowns: [(id: MachineID, reason: TeardownReason)] = []
    private var navigationStated: [(value: AnyHashable, label: String)]?
    /// Where machines rest after the command (``leaves(_:_:)``): each returns its problem, if any.
    private var leafChecks: [() -> String?] = []

    init(_ record: TreeStepRecord, supervisor: Supervisor) {
        self.record = record
        self.supervisor = supervisor
        stated = Array(repeating: false, count: record.events.count)
    }

    // MARK: Statements

    /// A root machine of `definition` started in `state` (after its start's eventless transitions);
    /// a restored root is spawned alike.
    /// - Returns: The machine's handle (a handle that names no machine when no such spawn happened:
    ///   the test then fails).
    @discardableResult
    public mutating func spawned<F: Flow>(_ definition: FlowDefinition<F>, in state: F.State) -> MachineHandle<F> {
        spawned(definition, in: state, parent: nil)
    }

    /// A machine of `definition` started in `state` (after its start's eventless transitions) under
    /// `parent`: a declared child, a dynamic child, a restarted machine's replacement and a restored
    /// child are spawned alike.
    /// - Returns: The machine's handle, to state what it does in this step and to drive it later (a
    ///   handle that names no machine when no such spawn happened: the test then fails).
    @discardableResult
    public mutating func spawned<F: Flow, P: Flow>(_ definition: FlowDefinition<F>, in state: F.State,
                                                   under parent: MachineHandle<P>) -> MachineHandle<F> {
        spawned(definition, in: state, parent: parent.id)
    }

    /// A root machine of a flow with parallel states started resting in exactly `leaves` (one per
    /// active region, in declaration order, as the tree event labels them); a restored root is
    /// spawned alike. One leaf is ``spawned(_:in:)``; ``leaves(_:_:)`` asks where it rests later.
    /// - Returns: The machine's handle (a handle that names no machine when no such spawn happened:
    ///   the test then fails).
    @discardableResult
    public mutating func spawned<F: Flow>(_ definition: FlowDefinition<F>, leaves: [F.State]) -> MachineHandle<F> {
        spawned(definition, label: Self.label(leaves), parent: nil)
    }

    /// A machine of a flow with parallel states started under `parent` resting in exactly `leaves`
    /// (one per active region, in declaration order).
    /// - Returns: The machine's handle (a handle that names no machine when no such spawn happened:
    ///   the test then fails).
    @discardableResult
    public mutating func spawned<F: Flow, P: Flow>(_ definition: FlowDefinition<F>, leaves: [F.State],
                                                   under parent: MachineHandle<P>) -> MachineHandle<F> {
        spawned(definition, label: Self.label(leaves), parent: parent.id)
    }

    /// Leaves as tree events label a machine resting in them: each leaf's description, joined by ", ".
    private static func label<S>(_ leaves: [S]) -> String { leaves.map { "\($0)" }.joined(separator: ", ") }

    private mutating func spawned<F: Flow>(_ definition: FlowDefinition<F>, in state: F.State,
                                           parent: MachineID?) -> MachineHandle<F> {
        spawned(definition, label: "\(state)", parent: parent)
    }

    private mutating func spawned<F: Flow>(_ definition: FlowDefinition<F>, label: String,
                                           parent: MachineID?) -> MachineHandle<F> {
        for (i, event) in record.events.enumerated() where !stated[i] {
            guard case .spawned(let id, let flow, let actualParent, let actualState, _) = event,
                  flow == definition.name, actualParent == parent, actualState == label else { continue }
            stated[i] = true
            return handle(id)
        }
        problems_.append("expected '\(definition.name)' to be spawned in \(label)"
            + (parent.map { " under \($0)" } ?? " as a root") + ", but it was not")
        return handle(MachineID(rawValue: 0))
    }

    /// A typed handle to a machine the tree events name: the supervisor's when the machine is alive;
    /// otherwise one made from the identity, so that the test can name a machine that is already gone.
    private func handle<F: Flow>(_ id: MachineID) -> MachineHandle<F> {
        // A machine already gone still has its identity: name it by that.
        supervisor.handle(of: id, as: F.self) ?? .naming(id)
    }

    /// The machine took a transition to `state` (a leaf state). State each transition of a machine,
    /// in order; a targetless transition is stated as a transition to the state the machine stays in
    /// (the tree event reports it so).
    public mutating func transition<F: Flow>(_ machine: MachineHandle<F>, to state: F.State) {
        if let i = transitions.firstIndex(where: { $0.id == machine.id }) {
            transitions[i].states.append("\(state)")
        } else {
            transitions.append((machine.id, ["\(state)"]))
        }
    }

    /// The machine took a transition after which it rests in exactly `leaves`: in a flow with
    /// parallel states, one per active region, in declaration order (the tree event labels the
    /// machine with every active leaf). State each transition of a machine, in order, with this or
    /// ``transition(_:to:)``; the step of one event is one transition, whatever number of regions it
    /// changed.
    public mutating func transition<F: Flow>(_ machine: MachineHandle<F>, toLeaves leaves: [F.State]) {
        let label = Self.label(leaves)
        if let i = transitions.firstIndex(where: { $0.id == machine.id }) {
            transitions[i].states.append(label)
        } else {
            transitions.append((machine.id, [label]))
        }
    }

    /// After the command, `machine` rests in exactly `leaves`, in declaration order (asked of the
    /// supervisor: `Supervisor.leaves(of:)`): in a flow with parallel states, one per active region.
    /// Checks where the machine is, without stating any tree event.
    public mutating func leaves<F: Flow>(_ machine: MachineHandle<F>, _ leaves: [F.State]) {
        let expected = Self.label(leaves)
        let supervisor = supervisor
        leafChecks.append {
            guard let actual = supervisor.leaves(of: machine) else {
                return "expected \(machine.id) to rest in [\(expected)], but it is not running"
            }
            let found = Self.label(actual)
            return found == expected ? nil : "leaves of \(machine.id): expected [\(expected)], actual [\(found)]"
        }
    }

    /// The handler of `machine` (wrapped by ``FlowTreeTester/recording(_:)``) performed exactly these
    /// effects, in order: its own, and those its declared children mapped to it.
    public mutating func effects<F: Flow>(_ machine: MachineHandle<F>, _ effects: [F.Effect]) where F.Effect: Equatable {
        effectChecks.append((machine.id, { recorded in
            let actual = recorded.map { $0.value as? F.Effect }
            if actual.count == effects.count && zip(actual, effects).allSatisfy({ $0 == $1 }) { return nil }
            let labels = recorded.map(\.label)
            let expected = effects.map { "\($0)" }
            let shared = zip(expected, labels).prefix { $0 == $1 }.count
            func item(_ list: [String], _ i: Int) -> String { i < list.count ? list[i] : "nothing" }
            return """
                effects of \(machine.id) differ at position \(shared): expected \(item(expected, shared)), \
                actual \(item(labels, shared))
                      expected: [\(expected.joined(separator: ", "))]
                        actual: [\(labels.joined(separator: ", "))]
                """
        }))
    }

    /// The machine reached a final state with `output` (compared by description, as the tree event
    /// reports it).
    public mutating func completed<F: Flow>(_ machine: MachineHandle<F>, output: F.Output) {
        outputs.append((machine.id, "\(output)"))
    }

    /// The machine's handler threw (a `TreeEvent.failed`), once per statement.
    public mutating func failed<F: Flow>(_ machine: MachineHandle<F>) { failures.append(machine.id) }

    /// The machine was restarted by its failure policy.
    /// - Returns: The replacement's handle (its start is stated with ``spawned(_:in:under:)``), or a
    ///   handle that names no machine when there was no such restart.
    @discardableResult
    public mutating func restarted<F: Flow>(_ machine: MachineHandle<F>) -> MachineHandle<F> {
        for (i, event) in record.events.enumerated() where !stated[i] {
            guard case .restarted(let old, let replacement) = event, old == machine.id else { continue }
            stated[i] = true
            return handle(replacement)
        }
        problems_.append("expected \(machine) to be restarted, but it was not")
        return handle(MachineID(rawValue: 0))
    }

    /// The machine was torn down for `reason`. State the teardowns in the order they happen: the
    /// order is checked.
    public mutating func tornDown<F: Flow>(_ machine: MachineHandle<F>, _ reason: TeardownReason) {
        teardowns.append((machine.id, reason))
    }

    /// This exact tree event happened (any kind: a `dropped` or `refused` event, for example).
    public mutating func event(_ event: TreeEvent) {
        if let i = record.events.indices.first(where: { !stated[$0] && record.events[$0] == event }) {
            stated[i] = true
        } else {
            problems_.append("expected \(event), but it did not happen")
        }
    }

    /// The navigator performed exactly these commands, in order (a tester made with a navigator).
    public mutating func navigation(_ commands: [NavigatorCommand<Screen>]) {
        navigationStated = commands.map { (AnyHashable($0), NavigationReader.label($0)) }
    }

    // MARK: Comparing

    mutating func problems() -> [String] {
        var problems = problems_
        checkTransitions(&problems)
        checkOutputs(&problems)
        checkFailures(&problems)
        checkTeardowns(&problems)
        checkEffects(&problems)
        checkNavigation(&problems)
        for check in leafChecks { if let problem = check() { problems.append(problem) } }
        for (i, event) in record.events.enumerated() where !stated[i] {
            problems.append("unstated: \(event) (state it with \(Self.hint(for: event)))")
        }
        return problems
    }

    private mutating func checkTransitions(_ problems: inout [String]) {
        var actual: [(id: MachineID, states: [String], indices: [Int])] = []
        for (i, event) in record.events.enumerated() where !stated[i] {
            guard case .transitioned(let id, _, let to, _, _) = event else { continue }
            if let k = actual.firstIndex(where: { $0.id == id }) {
                actual[k].states.append(to)
                actual[k].indices.append(i)
            } else {
                actual.append((id, [to], [i]))
            }
        }
        for (id, states) in transitions {
            let found = actual.first { $0.id == id }
            for i in found?.indices ?? [] { stated[i] = true }
            let actualStates = found?.states ?? []
            if actualStates != states {
                problems.append("transitions of \(id): expected [\(states.joined(separator: ", "))], "
                    + "actual [\(actualStates.joined(separator: ", "))]")
            }
        }
    }

    private mutating func checkOutputs(_ problems: inout [String]) {
        for (id, output) in outputs {
            if let i = record.events.indices.first(where: { !stated[$0] && record.events[$0].isCompletion(of: id) }) {
                stated[i] = true
                if case .completed(_, let actual) = record.events[i], actual.description != output {
                    problems.append("output of \(id): expected \(output), actual \(actual)")
                }
            } else {
                problems.append("expected \(id) to complete with \(output), but it did not complete")
            }
        }
    }

    private mutating func checkFailures(_ problems: inout [String]) {
        for id in failures {
            if let i = record.events.indices.first(where: { !stated[$0] && record.events[$0].isFailure(of: id) }) {
                stated[i] = true
            } else {
                problems.append("expected \(id) to fail, but it did not")
            }
        }
    }

    private mutating func checkTeardowns(_ problems: inout [String]) {
        guard !teardowns.isEmpty else { return }
        let ids = Set(teardowns.map(\.id))
        var actual: [(id: MachineID, reason: TeardownReason)] = []
        for (i, event) in record.events.enumerated() where !stated[i] {
            guard case .tornDown(let id, let reason) = event, ids.contains(id) else { continue }
            stated[i] = true
            actual.append((id, reason))
        }
        let actualIDs = Set(actual.map(\.id))
        for (id, reason) in teardowns {
            guard let found = actual.first(where: { $0.id == id }) else {
                problems.append("expected \(id) to be torn down (\(reason)), but it was not")
                continue
            }
            if found.reason != reason {
                problems.append("teardown of \(id): expected reason '\(reason)', actual '\(found.reason)'")
            }
        }
        let expectedOrder = teardowns.map(\.id).filter { actualIDs.contains($0) }
        let actualOrder = actual.map(\.id)
        if expectedOrder != actualOrder {
            problems.append("teardown order: expected \(expectedOrder), actual \(actualOrder)")
        }
    }

    private func checkEffects(_ problems: inout [String]) {
        var performers: [MachineID] = []
        for effect in record.effects where !performers.contains(effect.performer) { performers.append(effect.performer) }
        let statedIDs = Set(effectChecks.map(\.id))
        for (id, check) in effectChecks {
            if let problem = check(record.effects.filter { $0.performer == id }) { problems.append(problem) }
        }
        for id in performers where !statedIDs.contains(id) {
            let labels = record.effects.filter { $0.performer == id }.map(\.label)
            problems.append("unstated effects of \(id): [\(labels.joined(separator: ", "))] "
                + "(state them with $0.effects(handle, [...]))")
        }
    }

    private func checkNavigation(_ problems: inout [String]) {
        for problem in record.navigatorProblems { problems.append("navigator problem: \(problem)") }
        let actual = record.navigation
        guard let expected = navigationStated else {
            if !actual.isEmpty {
                problems.append("unstated navigation: [\(actual.map(\.label).joined(separator: ", "))] "
                    + "(state it with $0.navigation([...]))")
            }
            return
        }
        guard expected.map(\.value) != actual.map(\.value) else { return }
        let shared = zip(expected, actual).prefix { $0.value == $1.value }.count
        func item(_ list: [(value: AnyHashable, label: String)], _ i: Int) -> String { i < list.count ? list[i].label : "nothing" }
        problems.append("""
            navigation differs at position \(shared): expected \(item(expected, shared)), actual \(item(actual, shared))
                  expected: [\(expected.map(\.label).joined(separator: ", "))]
                    actual: [\(actual.map(\.label).joined(separator: ", "))]
            """)
    }

    private static func hint(for event: TreeEvent) -> String {
        switch event {
        case .spawned(_, _, let parent, let state, _):
            "$0.spawned(definition, in: .\(state)\(parent.map { ", under: \($0)" } ?? ""))"
        case .transitioned(_, _, let to, _, _): "$0.transition(handle, to: .\(to))"
        case .completed(_, let output): "$0.completed(handle, output: \(output))"
        case .failed: "$0.failed(handle)"
        case .restarted: "$0.restarted(handle)"
        case .tornDown(_, let reason): "$0.tornDown(handle, .\(reason.caseName))"
        case .dropped, .refused: "$0.event(...)"
        }
    }
}

extension TreeEvent {
    fileprivate func isCompletion(of machine: MachineID) -> Bool {
        if case .completed(let id, _) = self { id == machine } else { false }
    }

    fileprivate func isFailure(of machine: MachineID) -> Bool {
        if case .failed(let id, _) = self { id == machine } else { false }
    }
}

extension TeardownReason {
    /// The case's name, as a test writes it.
    var caseName: String {
        switch self {
        case .parentLeftState: "parentLeftState"
        case .parentTornDown: "parentTornDown"
        case .completed: "completed"
        case .stopped: "stopped"
        case .ownerReleased: "ownerReleased"
        case .failed: "failed"
        }
    }
}
