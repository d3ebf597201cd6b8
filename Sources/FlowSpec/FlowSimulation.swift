import FlowGraph
import Flowstate

/// Runs a flow file on the engine and the `Supervisor` that run Swift flows, with SCXML's event queues.
///
/// The root flow runs as a root machine of a `Supervisor`; a state's child flow (a spec's `child`,
/// SCXML's `<invoke src>`) runs as a declared child machine, spawned on entry and torn down on exit,
/// whose completion reaches the parent as an event (`done.invoke.<id>` under SCXML semantics, the
/// child's output otherwise). Effects `raise(e)` put `e` on the raising machine's internal queue and
/// `send(e)` on the external queue; internal events are processed before the next external one, and
/// entering a nested SCXML `<final>` raises `done.state.<parent>`. Every other effect is recorded.
///
/// A simulation is driven from one task; it is not `Sendable`.
public final class FlowSimulation {
    /// What happened, one machine step (or teardown) each.
    public enum Record: Hashable, Sendable, CustomStringConvertible {
        /// A machine started in `state`. `machine` is the path of child flow names from the root (empty for it).
        case started(machine: [String], state: String, effects: [String])
        /// A machine took a transition on `event` (from its internal queue when `internal`).
        case transitioned(machine: [String], from: String, to: String, event: String, internal: Bool, effects: [String])
        /// A machine reached a final state.
        case finished(machine: [String], output: String)
        /// No transition took the event: none matches it (`rejected` false) or every guard said no.
        case unhandled(machine: [String], state: String, event: String, rejected: Bool)
        /// A child machine was torn down.
        case stopped(machine: [String], reason: String)

        /// The machine the record is about.
        public var machine: [String] {
            switch self {
            case .started(let m, _, _), .transitioned(let m, _, _, _, _, _), .finished(let m, _), .unhandled(let m, _, _, _),
                 .stopped(let m, _):
                m
            }
        }

        /// One line, indented by the machine's depth, for example `idle --open--> opening / creak`.
        public var description: String {
            let who = machine.isEmpty ? "" : String(repeating: "  ", count: machine.count) + "[\(machine.joined(separator: "/"))] "
            func tail(_ effects: [String]) -> String { effects.isEmpty ? "" : " / " + effects.joined(separator: ", ") }
            switch self {
            case .started(_, let state, let effects): return who + "start --> \(state)" + tail(effects)
            case .transitioned(_, let from, let to, let event, let isInternal, let effects):
                return who + "\(from) --\(event)--> \(to)" + tail(effects) + (isInternal ? "  (internal)" : "")
            case .finished(_, let output): return who + "finished: \(output)"
            case .unhandled(_, let state, let event, let rejected):
                return who + "\(state) " + (rejected ? "rejects \(event) (every guard false)" : "ignores \(event)")
            case .stopped(_, let reason): return who + "torn down (\(reason))"
            }
        }
    }

    /// Why a simulation cannot run.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// One line, `file:line:column: error: ...` where a place is known.
        public var description: String
    }

    /// The most internal events one external event may cause before the run is stopped as a loop.
    public static let internalEventLimit = 10_000

    private let supervisor: Supervisor
    private var root: MachineHandle<SpecFlow>!
    private var indexes: [String: SpecIndex] = [:]
    private var paths: [MachineID: [String]] = [:]
    private var specOf: [MachineID: String] = [:]
    private var internalQueue: [(MachineID, SpecEvent)] = []
    private var externalQueue: [(MachineID, SpecEvent)] = []
    private var moved: Set<MachineID> = []
    private var observation: FlowObservation?
    private var rootSpec: FlowSpec
    /// Everything that happened so far, in order.
    public private(set) var records: [Record] = []
    /// The root machine's steps as a trace for ``FlowGraph/overlay(_:lastPathLength:)`` (event labels
    /// as the file writes them, so the taken edges are found).
    public private(set) var trace = FlowTrace(steps: [])
    /// The root flow's transitions taken so far, by their index in document order (for tests).
    private(set) var takenTransitions: [Int] = []
    /// Whether the root flow has finished.
    public private(set) var isFinished = false

    /// Prepares a simulation; ``start()`` runs it.
    /// - Parameters:
    ///   - spec: The root flow.
    ///   - guards: Default truths of guards the steps do not mention (true otherwise).
    ///   - events: Event names the run may be sent beyond those the files mention (SCXML matches
    ///     events by dotted prefix, so the engine is told every name it will see).
    ///   - children: The flow file a state's `child` names (`nil`: not found).
    ///   - isolation: The actor the simulation is driven from (the caller's, by default).
    /// - Throws: ``Problem`` when a flow has parallel states, a child flow is missing, or child flows
    ///   nest in a cycle.
    public init(_ spec: FlowSpec, guards: [String: Bool] = [:], events: [String] = [],
                children: (String) -> FlowSpec? = { _ in nil },
                isolation: isolated (any Actor)? = #isolation) throws(Problem) {
        var specs: [String: FlowSpec] = [:]
        var indexes: [String: SpecIndex] = [:]
        var semantics: [String: FlowSpec.Semantics] = [:]
        func gather(_ spec: FlowSpec, chain: [String]) throws(Problem) {
            let index = SpecIndex(spec)
            for name in index.order {
                let state = index.states[name]!
                if state.isParallel {
                    let at = state.location.map { "\($0): " } ?? ""
                    throw Problem(description: "\(at)error: state '\(name)' is a <parallel> state: parallel states are drawn and validated, not simulated")
                }
                guard let child = state.child else { continue }
                guard let childSpec = children(child) else {
                    let at = state.location.map { "\($0): " } ?? ""
                    throw Problem(description: "\(at)error: state '\(name)' runs child flow '\(child)', which was not found")
                }
                guard !chain.contains(childSpec.name) else {
                    throw Problem(description: "error: child flows nest in a cycle: \((chain + [childSpec.name]).joined(separator: " -> "))")
                }
                specs[child] = childSpec
                try gather(childSpec, chain: chain + [childSpec.name])
            }
            indexes[spec.name] = index
            semantics[spec.name] = spec.semantics
        }
        try gather(spec, chain: [spec.name])
        var alphabet = Set(events)
        for s in [spec] + specs.values { alphabet.formUnion(s.eventNames) }
        let sortedAlphabet = alphabet.sorted()
        // Each flow's map from declarations to the file's transitions: the engine reports which
        // transitions a step took, and this names them as the file does.
        var maps: [String: [Int]] = [:]
        func definition(_ spec: FlowSpec) -> FlowDefinition<SpecFlow> {
            let (compiled, map) = spec.compiled(guards: guards, events: sortedAlphabet) { state in
                guard let child = state.child, let childSpec = specs[child] else { return nil }
                let done: String? = spec.semantics == .scxml ? "done.invoke.\(state.childID ?? state.name)" : nil
                // A child's effects are performed by the root's handler; the context names their origin.
                return ChildFlow(definition(childSpec), effects: { $0 }, output: { SpecEvent(done ?? $0) })
            }
            maps[spec.name] = map
            return compiled
        }
        definitionToRun = definition(spec)
        for (name, map) in maps { indexes[name]?.specTransitions = map }
        rootSpec = spec
        supervisor = Supervisor()
        self.indexes = indexes
        self.flowSemantics = semantics
    }

    private var definitionToRun: FlowDefinition<SpecFlow>

    /// Starts the root machine (and the child machines its initial states run).
    /// - Throws: ``Problem`` if the flow is invalid (validate it first for every problem).
    public func start() throws(Problem) {
        guard root == nil else { return }
        observation = supervisor.observe { [unowned self] event in self.observe(event) }
        do {
            root = try supervisor.start(definitionToRun) { [unowned self] effect, context in
                self.perform(effect, by: context.origin)
            }
        } catch {
            throw Problem(description: "error: \(rootSpec.name) cannot start: \(error.message)")
        }
        try drainInternal()
    }

    /// Sends one external event to the root machine, then processes what it causes: its internal
    /// events first, then the external events it sent, each with its own internal events.
    /// - Throws: ``Problem`` when the flow is finished or raises events without end.
    public func send(_ event: SpecEvent) throws(Problem) {
        guard let root, !isFinished else {
            throw Problem(description: "error: \(rootSpec.name) has finished: event '\(event)' cannot be delivered")
        }
        // The root first; then, as SCXML's `<invoke autoforward="true">`, every child machine alive.
        let state = supervisor.state(of: root) ?? ""
        var handled = deliver(event, to: root.id, isInternal: false)
        try drainInternal()
        var rejected = matches(event.name, at: state, in: rootSpec.name)
        for machine in supervisor.machines where machine.id != root.id {
            if matches(event.name, at: machine.state, in: machine.flow) { rejected = true }
            if deliver(event, to: machine.id, isInternal: false) { handled = true }
            try drainInternal()
        }
        if !handled {
            records.append(.unhandled(machine: [], state: state, event: event.description, rejected: rejected))
        }
        while !externalQueue.isEmpty {
            let (target, next) = externalQueue.removeFirst()
            deliver(next, to: target, isInternal: false)
            try drainInternal()
        }
    }

    /// The root machine's configuration: its active state and that state's ancestors, innermost first.
    public var configuration: [String] {
        let current = root.flatMap { supervisor.state(of: $0) } ?? lastRootState
        guard let state = current else { return [] }
        return [state] + (indexes[rootSpec.name]?.ancestors(of: state) ?? [])
    }

    private var lastRootState: String?

    /// The machines alive now, one line each (`flow: state`), the root first, children indented.
    public var machines: [String] {
        supervisor.machines.map { String(repeating: "  ", count: $0.depth) + "\($0.flow): \($0.state)" }
    }

    private func drainInternal() throws(Problem) {
        var count = 0
        while !internalQueue.isEmpty {
            count += 1
            guard count <= Self.internalEventLimit else {
                internalQueue.removeAll()
                throw Problem(description: "error: more than \(Self.internalEventLimit) internal events for one external event: the flow raises events in a loop")
            }
            let (target, event) = internalQueue.removeFirst()
            deliver(event, to: target, isInternal: true)
        }
    }

    /// Delivers an event to a machine; returns whether it took a transition. Internal and sent events
    /// that nothing takes are recorded as unhandled here; external ones by ``send(_:)``.
    @discardableResult
    private func deliver(_ event: SpecEvent, to target: MachineID, isInternal: Bool) -> Bool {
        guard let handle = supervisor.handle(target, as: SpecFlow.self), let state = supervisor.state(of: handle) else {
            return false  // the machine was torn down meanwhile: SCXML drops events for a finished session
        }
        currentInternal = isInternal
        moved.remove(target)
        try? supervisor.send(event, to: handle)
        let handled = moved.contains(target)
        if !handled, isInternal, supervisor.contains(target) {
            records.append(.unhandled(machine: paths[target] ?? [], state: state, event: event.description,
                                      rejected: matches(event.name, at: state, in: specOf[target] ?? rootSpec.name)))
        }
        return handled
    }

    private var currentInternal = false

    /// Whether any transition of `state` or its ancestors matches the event.
    private func matches(_ event: String, at state: String, in flow: String) -> Bool {
        guard let index = indexes[flow] else { return false }
        let chain = Set([state] + index.ancestors(of: state))
        let scxml = semantics(of: flow) == .scxml
        return index.transitions.contains { source, t in
            guard chain.contains(source), let descriptor = t.event else { return false }
            return scxml ? !FlowSpec.matching(descriptor, in: [event]).isEmpty : descriptor == event
        }
    }

    private func observe(_ event: TreeEvent) {
        switch event {
        case .spawned(let id, let flow, let parent, let state, let taken):
            let path = parent.map { (paths[$0] ?? []) + [flow] } ?? []
            paths[id] = path
            specOf[id] = flow
            records.append(.started(machine: path, state: state, effects: []))
            if parent == nil {
                let transitions = specTransitions(taken, of: flow)
                takenTransitions += transitions
                trace.steps.append(.init(from: nil, to: state, event: nil, transitions: transitions))
                lastRootState = state
            }
            raiseDoneState(for: id, entering: state)
        case .transitioned(let id, let from, let to, let kind, let taken):
            moved.insert(id)
            records.append(.transitioned(machine: paths[id] ?? [], from: from, to: to, event: kind,
                                         internal: currentInternal, effects: []))
            if paths[id] == [], let flow = specOf[id] {
                // The engine took these transitions: the trace names them as the file does.
                let transitions = specTransitions(taken, of: flow)
                takenTransitions += transitions
                let event = transitions.first.flatMap { indexes[flow]?.transitions[$0].transition.event } ?? kind
                trace.steps.append(.init(from: from, to: to, event: event, transitions: transitions))
                lastRootState = to
            }
            raiseDoneState(for: id, entering: to)
        case .completed(let id, let output):
            records.append(.finished(machine: paths[id] ?? [], output: output))
            if paths[id] == [] { isFinished = true }
        case .tornDown(let id, let reason):
            if let path = paths[id], !path.isEmpty { records.append(.stopped(machine: path, reason: "\(reason)")) }
            internalQueue.removeAll { $0.0 == id }
            externalQueue.removeAll { $0.0 == id }
        case .failed, .restarted, .dropped, .refused:
            break
        }
    }

    /// The file's transitions (indices in document order) for transitions the engine reported.
    private func specTransitions(_ taken: FlowTransitions, of flow: String) -> [Int] {
        guard let map = indexes[flow]?.specTransitions else { return [] }
        return taken.compactMap { $0.position < map.count ? map[$0.position] : nil }
    }

    /// Entering a nested SCXML `<final>` raises `done.state.<parent>` on the machine's internal queue.
    private func raiseDoneState(for id: MachineID, entering state: String) {
        guard let flow = specOf[id], let index = indexes[flow], index.states[state]?.isFinal == true,
              let parent = index.parent[state], semantics(of: flow) == .scxml else { return }
        internalQueue.append((id, SpecEvent("done.state.\(parent)")))
    }

    private func semantics(of flow: String) -> FlowSpec.Semantics { flowSemantics[flow] ?? .flowstate }

    private var flowSemantics: [String: FlowSpec.Semantics] = [:]

    /// An effect performed by the root's handler: its own, or a child's (the context names its origin).
    private func perform(_ effect: String, by origin: MachineID) {
        let text = effect
        if let i = records.lastIndex(where: { $0.machine == (paths[origin] ?? []) }) {
            switch records[i] {
            case .started(let m, let s, let effects): records[i] = .started(machine: m, state: s, effects: effects + [text])
            case .transitioned(let m, let f, let t, let e, let n, let effects):
                records[i] = .transitioned(machine: m, from: f, to: t, event: e, internal: n, effects: effects + [text])
            default: break
            }
        }
        guard let flow = specOf[origin], semantics(of: flow) == .scxml, let (queue, event) = SCXMLEffect.queued(text) else { return }
        switch queue {
        case .internal: internalQueue.append((origin, SpecEvent(event)))
        case .external: externalQueue.append((origin, SpecEvent(event)))
        }
    }
}
