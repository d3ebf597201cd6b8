import FlowGraph
import Flowstate

/// Runs flow files as the W3C SCXML recommendation says (Appendix D's algorithm, for the null data
/// model, parallel and history states included), on the engine that runs Swift flows.
///
/// The engine selects and takes transitions; around it one driver (the same that ``FlowFilePathfinder``
/// explores with) keeps each session's internal and external queues, runs the file's executable
/// content (`<raise>`, `<send>` with `delay`, `target` `#_internal`, `#_parent`, `#_<invokeid>`,
/// `#_scxml_<sessionid>` and `type`, `<cancel>`, `<log>`, `<if>`/`<elseif>`/`<else>`, `In()`), raises
/// `done.state.<id>`, starts `<invoke>`d child flows at the end of the macrostep that entered their
/// state and cancels them when it is exited, delivers `done.invoke.<id>`, and places
/// `error.execution` and `error.communication` on the internal queue where the recommendation says.
///
/// **Delayed transitions** (JSON `"after"`, SCXML's `<send delay>`/`<cancel>` idiom, a typed flow's
/// `After`) run on the same virtual time: entering their state arms a timer (leaving it cancels the
/// timer), and ``advance(by:)`` fires the timers due by then, in order of due time with the delayed
/// events, each as a step of its own (recorded as ``Record/fired(machine:event:time:)`` with the
/// event `after 30s`, then the step). Time passes only when asked: ``runDelayedEvents()`` does not
/// wait for timers past the last delayed event.
///
/// **Order.** Each session processes its internal queue to the end before its next external event
/// (eventless transitions come first: the engine takes them after every step). Sessions are served in
/// the order they started, one external event each in turn. An event given to ``send(_:)`` is processed
/// with everything it causes at the current time. Delayed events wait on **virtual time**: they are
/// delivered only by ``advance(by:)``, ``advance(to:)`` or ``runDelayedEvents()``, in order of due time
/// and then of sending, each with everything it causes. No call sleeps; ``run(on:)`` delivers them on
/// a real (or any) `Clock` instead.
///
/// **Limits.** A macrostep processes at most ``internalEventLimit`` internal events, a run takes at
/// most ``stepLimit`` steps (``defaultStepLimit``, 20,000, unless set), and, when ``timeLimit`` is
/// set, spends at most that much wall-clock time processing: a document that keeps itself busy stops
/// with a ``Problem``.
///
/// A simulation is driven from one task; it is not `Sendable`.
public final class FlowSimulation {
    /// What happened, one machine step (or teardown) each.
    public enum Record: Hashable, Sendable, CustomStringConvertible {
        /// A machine started in `state` (with parallel states, every active leaf, separated by commas).
        /// `machine` is the path of child flow names from the root (empty for it).
        case started(machine: [String], state: String, effects: [String])
        /// A machine took a transition on `event` (from its internal queue when `internal`); `from` and
        /// `to` name its leaves (several, separated by commas, with parallel states).
        case transitioned(machine: [String], from: String, to: String, event: String, internal: Bool, effects: [String])
        /// A machine reached a final state.
        case finished(machine: [String], output: String)
        /// No transition took the event: none matches it (`rejected` false) or every guard said no.
        case unhandled(machine: [String], state: String, event: String, rejected: Bool)
        /// A child machine was torn down.
        case stopped(machine: [String], reason: String)
        /// A delayed event became due at `time` (milliseconds of virtual time since the start) and was
        /// delivered to `machine`.
        case fired(machine: [String], event: String, time: Int)

        /// The machine the record is about.
        public var machine: [String] {
            switch self {
            case .started(let m, _, _), .transitioned(let m, _, _, _, _, _), .finished(let m, _), .unhandled(let m, _, _, _),
                 .stopped(let m, _), .fired(let m, _, _):
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
            case .fired(_, let event, let time): return who + "at \(FlowSimulation.format(milliseconds: time)): \(event) (delayed)"
            }
        }
    }

    /// `1.5s`, `200ms`, `0s`.
    static func format(milliseconds ms: Int) -> String {
        if ms % 1000 == 0 { return "\(ms / 1000)s" }
        if ms < 1000 { return "\(ms)ms" }
        var fraction = String(ms % 1000 + 1000).dropFirst()  // three digits: 5 -> "005"
        while fraction.last == "0" { fraction = fraction.dropLast() }
        return "\(ms / 1000).\(fraction)s"
    }

    /// Why a simulation (or an exploration, ``FlowFilePathfinder``) cannot run.
    ///
    /// It has the one shape of the package's errors: a ``code`` to match on, and read-only fields.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong, as a value to match on. The set of codes can grow.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            private enum Backing: String, Hashable, Sendable {
                case needsDataModel = "needs-data-model"
                case notRunnable = "not-runnable"
                case childNotFound = "child-not-found"
                case childCycle = "child-cycle"
                case finished
                case cannotStart = "cannot-start"
                case stepFailed = "step-failed"
            }

            private let backing: Backing
            private init(_ backing: Backing) { self.backing = backing }

            /// The document declares data, a script or an element that needs a data model: the
            /// simulation runs SCXML's null data model.
            public static let needsDataModel = Code(.needsDataModel)
            /// A state keeps something the engine does not run (an `<invoke>` kept as text, for example).
            public static let notRunnable = Code(.notRunnable)
            /// A state runs a child flow that is not among the flows given.
            public static let childNotFound = Code(.childNotFound)
            /// Child flows nest in a cycle.
            public static let childCycle = Code(.childCycle)
            /// An event was given after the flow had finished.
            public static let finished = Code(.finished)
            /// The flow cannot start.
            public static let cannotStart = Code(.cannotStart)
            /// A step failed (an error of the engine, or the step limit).
            public static let stepFailed = Code(.stepFailed)

            /// The code's stable name, kebab-case (`needs-data-model`).
            public var description: String { backing.rawValue }
        }

        /// What went wrong.
        public let code: Code
        /// One line, `file:line:column: error: ...` where a place is known.
        public let description: String
        /// The ``description``.
        public var message: String { description }

        init(_ code: Code, _ description: String) {
            self.code = code
            self.description = description
        }
    }

    /// The most internal events one macrostep may process before the run stops as a loop.
    public static let internalEventLimit = SpecInterpreter.internalEventLimit

    /// The step limit a new simulation starts with: 20,000 steps, all machines together (it was
    /// 1,000,000). A simulation step costs some 7 to 11 µs in a release build and 40 to 70 µs in a
    /// debug one (docs/PERFORMANCE.md, "A simulation step"), so a document that sends itself events
    /// for ever stops in a fifth of a second in release and a second or so in debug, and a test or a
    /// preview that runs one does not seem to hang. Twice the internal events one macrostep may
    /// process (``internalEventLimit``), so that a loop of raised events still stops as such. A run
    /// that needs more sets ``stepLimit`` (`flowviz simulate --max-steps`).
    public static let defaultStepLimit = 20_000

    /// The most steps a run may take, all machines together, before it stops as a document that keeps
    /// itself busy (default ``defaultStepLimit``, 20,000). The stop's ``Problem`` says that this limit
    /// was hit and how to raise it.
    public var stepLimit: Int {
        get { interpreter.stepLimit }
        set { interpreter.stepLimit = newValue }
    }

    /// The most wall-clock time the run may spend processing, all calls together (`nil`, the default:
    /// no limit). Measured on the monotonic clock (`ContinuousClock`) and checked between steps, so a
    /// document that keeps itself busy in a way the other limits do not catch (long blocks of executable
    /// content, many sessions) still stops, with a ``Problem`` that says so. Time spent waiting for
    /// delayed events in ``run(on:)`` does not count. `flowviz simulate` sets it (`--time-limit`).
    public var timeLimit: Duration?

    /// Processing time spent so far, against ``timeLimit``.
    private var timeUsed = Duration.zero

    private var interpreter: SpecInterpreter
    private let rootSpec: FlowFile
    private let rootIndex: SpecIndex
    private var started = false
    /// Everything that happened so far, in order.
    public private(set) var records: [Record] = []
    /// The root machine's steps as a trace for `FlowDiagram.overlay(_:lastPathLength:)` (event labels
    /// as the file writes them, the file's transitions the engine took, and each step's effects).
    public private(set) var trace = FlowTrace(steps: [])
    /// The root flow's transitions taken so far, by their index in document order (for tests).
    private(set) var takenTransitions: [Int] = []

    /// Whether the root flow has finished.
    public var isFinished: Bool { interpreter.rootFinished }

    /// Virtual time: milliseconds since the start that ``advance(by:)`` and its relatives moved on.
    public var now: Int { interpreter.now }

    /// When the next delayed event is due (milliseconds of virtual time), if one is waiting.
    public var nextDelayedEvent: Int? { interpreter.nextDue }

    /// Prepares a simulation; ``start()`` runs it.
    /// - Parameters:
    ///   - spec: The root flow.
    ///   - guards: Default truths of guards the steps do not mention (true otherwise).
    ///   - children: The flow file a state's `child` names (`nil`: not found). Child flows a file holds
    ///     inline (`<invoke><content>`) are found without it.
    /// - Throws: ``Problem`` when a flow has what is not simulated (a history whose default runs
    ///   content, several initial states, data), a child flow is missing, or child flows nest in a cycle.
    public init(_ spec: FlowFile, guards: [String: Bool] = [:], children: (String) -> FlowFile? = { _ in nil }) throws(Problem) {
        // Every flow the run may start, by the name states use: iteratively, with cycles refused.
        var specs: [String: FlowFile] = [spec.name: spec]
        var work: [(spec: FlowFile, chain: [String])] = [(spec, [spec.name])]
        while let (current, chain) = work.popLast() {
            let index = SpecIndex(current)
            // The null data model runs no data: a document that needs it is refused, naming where.
            if let at = current.dataElements.first {
                throw Problem(.needsDataModel, "\(at): error: the document declares data or a script: simulate runs SCXML's null data model (structure, events, In())")
            }
            func refuseData(_ block: FlowFile.Executable) throws(Problem) {
                var first: (element: String, location: FlowSourceLocation?)?
                block.forEachAction { action in
                    if first == nil, case .unsupported(let element, let location) = action.kind { first = (element, location) }
                }
                if let (element, location) = first {
                    let at = location.map { "\($0): " } ?? ""
                    throw Problem(.needsDataModel, "\(at)error: \(element) needs a data model: simulate runs SCXML's null data model (structure, events, In())")
                }
            }
            for (_, t) in index.transitions { if let content = t.content { try refuseData(content) } }
            for name in index.order {
                let state = index.states[name]!
                for block in state.onEntry + state.onExit { try refuseData(block) }
                if let reason = FlowFile.notRun(state, verb: "simulated") { throw Problem(.notRunnable, reason) }
                guard let child = state.child else { continue }
                guard var childSpec = current.documents[child] ?? children(child) else {
                    let at = state.location.map { "\($0): " } ?? ""
                    throw Problem(.childNotFound, "\(at)error: state '\(name)' runs child flow '\(child)', which was not found")
                }
                guard !chain.contains(child) else {
                    throw Problem(.childCycle, "error: child flows nest in a cycle: \((chain + [child]).joined(separator: " -> "))")
                }
                childSpec.name = child
                if specs[child] == nil {
                    specs[child] = childSpec
                    work.append((childSpec, chain + [child]))
                }
            }
        }
        let classes = EventClasses(Array(specs.values))
        var documents: [String: SpecDocument] = [:]
        for (name, s) in specs { documents[name] = SpecDocument(s, guards: guards, classes: classes) }
        interpreter = SpecInterpreter(documents: documents, root: spec.name, guards: guards, classes: classes)
        interpreter.stepLimit = Self.defaultStepLimit
        rootSpec = spec
        rootIndex = SpecIndex(spec)
    }

    /// Starts the root machine and runs what it does at time 0 (its internal events, the events it
    /// sends itself, the child flows it invokes).
    /// - Throws: ``Problem`` if the flow is invalid (validate it first for every problem) or keeps
    ///   itself busy past a limit.
    public func start() throws(Problem) {
        guard !started else { return }
        started = true
        try drive { (i: inout SpecInterpreter) throws(SpecInterpreter.Stop) in try i.start() }
    }

    /// Sends one external event to the root machine and processes everything it causes at the current
    /// virtual time.
    /// - Throws: ``Problem`` when the flow is finished or keeps itself busy past a limit.
    public func send(_ event: SpecEvent) throws(Problem) {
        if !started { try start() }
        guard !isFinished else {
            throw Problem(.finished, "error: \(rootSpec.name) has finished: event '\(event)' cannot be delivered")
        }
        let before = records.count
        defer {
            let taken = records[before...].contains {
                if case .transitioned(_, _, _, let name, false, _) = $0 { name == event.name } else { false }
            }
            if taken {
                // A machine took it: the others that ignored it (it is forwarded to child flows) say nothing.
                let description = event.description
                records[before...].removeAll {
                    if case .unhandled(_, _, let name, _) = $0 { name == description } else { false }
                }
            } else {
                unhandledEvents.append(event)
            }
        }
        try drive { (i: inout SpecInterpreter) throws(SpecInterpreter.Stop) in try i.send(event) }
    }

    /// A child flow's output that reached its parent as an event no transition of the parent took.
    public struct UnhandledOutput: Hashable, Sendable, CustomStringConvertible {
        /// The parent machine (its path of child flow names from the root; empty for the root).
        public let machine: [String]
        /// The parent's state when the event arrived.
        public let state: String
        /// The event the output became (a JSON spec state's `outputs`, else the output's name).
        public let event: String
        /// The child flow whose output it was.
        public let child: String
        /// Whether transitions matched the event but every guard said no.
        public let rejected: Bool

        /// One line, for example `the output of child flow 'twoFactor' reaches 'login' as event 'ok',
        /// which state 'verifying' ignores`.
        public var description: String {
            let parent = machine.last.map { "'\($0)'" } ?? "the root flow"
            let what = rejected ? "rejects (every guard false)" : "ignores"
            return "the output of child flow '\(child)' reaches \(parent) as event '\(event)', which state '\(state)' \(what)"
        }
    }

    /// The outputs of child flows that reached their parent as an event the parent took no transition
    /// on, in order (each is also a ``Record/unhandled(machine:state:event:rejected:)`` record). A
    /// JSON spec's state maps its child's outputs to events with `outputs`; one the parent does not
    /// handle is usually a renamed output or event (`flowviz simulate --strict` fails on it).
    public private(set) var unhandledOutputs: [UnhandledOutput] = []

    /// The events given to ``send(_:)`` that no machine took a transition on (not the root, nor a
    /// child flow it was forwarded to), in order.
    public private(set) var unhandledEvents: [SpecEvent] = []

    /// Moves virtual time forward by `milliseconds`, delivering the delayed events due by then.
    public func advance(by milliseconds: Int) throws(Problem) {
        try advance(to: now + max(0, milliseconds))
    }

    /// Moves virtual time forward to `time` (milliseconds since the start; never backwards),
    /// delivering the delayed events due by then, in order of due time and then of sending.
    public func advance(to time: Int) throws(Problem) {
        if !started { try start() }
        try drive { (i: inout SpecInterpreter) throws(SpecInterpreter.Stop) in try i.advance(to: time) }
    }

    /// Delivers every delayed event (`<send delay>`), moving virtual time to each in turn, until none is
    /// waiting or the root flow finished (a document that keeps sending itself delayed events stops at
    /// ``stepLimit``). The timers of delayed transitions due before the last delayed event fire on the
    /// way; those due after it stay armed: a flow waiting for a timer waits until ``advance(by:)``
    /// says time passes.
    public func runDelayedEvents() throws(Problem) {
        if !started { try start() }
        while !isFinished, interpreter.hasPendingSends, let due = interpreter.nextDue { try advance(to: due) }
    }

    /// One input of a simulation script: an event, or time passing.
    public enum Input: Hashable, Sendable, CustomStringConvertible {
        /// An external event for the root machine (``send(_:)``).
        case event(SpecEvent)
        /// Virtual time passes (``advance(by:)``), in milliseconds: the timers and delayed events due
        /// by then fire.
        case wait(milliseconds: Int)

        /// `submit[valid]`, or `wait 30s`.
        public var description: String {
            switch self {
            case .event(let event): event.description
            case .wait(let ms): "wait \(FlowSimulation.format(milliseconds: ms))"
            }
        }

        /// Reads a comma-separated script: events (`SpecEvent.list(_:)`, in Flowstate) and `wait D` steps, where
        /// `D` is a duration with a unit (`wait 30s`, `wait 500ms`, `wait 5min`, `wait 1.5s`).
        public static func list(_ text: String) -> Result<[Input], SpecEvent.ListError> {
            switch SpecEvent.list(text) {
            case .failure(let error): return .failure(error)
            case .success(let events):
                var inputs: [Input] = []
                for (i, event) in events.enumerated() {
                    guard event.guards.isEmpty, event.name.hasPrefix("wait ") || event.name == "wait" else {
                        inputs.append(.event(event))
                        continue
                    }
                    let amount = event.name.dropFirst(4)
                    guard let delay = FlowFile.duration(parsing: amount), delay > .zero else {
                        return .failure(SpecEvent.ListError(position: i + 1, token: event.name,
                                                            reason: "'wait' takes a positive duration such as 30s, 500ms or 5min"))
                    }
                    inputs.append(.wait(milliseconds: SpecInterpreter.milliseconds(delay)))
                }
                return .success(inputs)
            }
        }
    }

    /// Performs one input: sends its event, or lets its time pass.
    public func perform(_ input: Input) throws(Problem) {
        switch input {
        case .event(let event): try send(event)
        case .wait(let ms): try advance(by: ms)
        }
    }

    /// Delivers every delayed event when it is due on `clock` (for example `ContinuousClock()`, to run
    /// a flow file in real time), until none is waiting or the root flow finished, with the timers of
    /// delayed transitions due on the way (as ``runDelayedEvents()``).
    public func run<C: Clock>(on clock: C) async throws where C.Duration == Duration {
        if !started { try start() }
        let origin = clock.now
        while !isFinished, interpreter.hasPendingSends, let due = interpreter.nextDue {
            try await clock.sleep(until: origin.advanced(by: .milliseconds(due)), tolerance: nil)
            try advance(to: due)
        }
    }

    private func drive(_ body: (inout SpecInterpreter) throws(SpecInterpreter.Stop) -> Void) throws(Problem) {
        let clock = ContinuousClock()
        let started = clock.now
        interpreter.deadline = timeLimit.map { (started.advanced(by: max(.zero, $0 - timeUsed)), $0) }
        defer { timeUsed += clock.now - started }
        do {
            try body(&interpreter)
            absorb()
        } catch {
            absorb()
            // The step limit is the one stop a caller may simply want to go past: say which limit it was.
            let hint = interpreter.steps > interpreter.stepLimit
                ? "; the step limit (\(interpreter.stepLimit)) was hit: raise FlowSimulation.stepLimit (flowviz simulate --max-steps) to run longer"
                : ""
            throw Problem(.stepFailed, "error: \(error.message)\(hint)")
        }
    }

    /// Turns the interpreter's notes into records and the root's trace.
    private func absorb() {
        for note in interpreter.takeNotes() {
            switch note {
            case .started(let path, let state, let leaf, let effects, let transitions):
                records.append(.started(machine: path, state: state, effects: effects))
                if path.isEmpty {
                    takenTransitions += transitions
                    trace.steps.append(.init(from: nil, to: leaf, event: nil, transitions: transitions, effects: effects))
                }
            case .transitioned(let path, let from, let to, let leaf, let event, let isInternal, let effects, let transitions):
                records.append(.transitioned(machine: path, from: from, to: to, event: event, internal: isInternal,
                                             effects: effects))
                if path.isEmpty {
                    takenTransitions += transitions
                    let label = transitions.first.flatMap { rootIndex.transitions[$0].transition.event } ?? event
                    trace.steps.append(.init(from: from, to: leaf, event: label, transitions: transitions, effects: effects))
                }
            case .unhandled(let path, let state, let event, let rejected):
                records.append(.unhandled(machine: path, state: state, event: event, rejected: rejected))
            case .unhandledOutput(let path, let state, let event, let child, let rejected):
                records.append(.unhandled(machine: path, state: state, event: event, rejected: rejected))
                unhandledOutputs.append(UnhandledOutput(machine: path, state: state, event: event, child: child,
                                                        rejected: rejected))
            case .finished(let path, let output):
                records.append(.finished(machine: path, output: output))
            case .cancelled(let path):
                records.append(.stopped(machine: path, reason: "cancelled: its invoking state was exited"))
            case .fired(let path, let event, let time):
                records.append(.fired(machine: path, event: event, time: time))
            }
        }
    }

    /// The root machine's configuration: its active states, innermost first (a leaf and its
    /// ancestors; with parallel states, every active state, later regions before earlier ones). Once
    /// the flow has finished: the final state and its ancestors.
    public var configuration: [String] {
        if !isFinished, let machine = interpreter.sessions.first??.machine, machine.isStarted { return machine.configuration }
        guard let state = interpreter.rootState else { return [] }
        return [state] + rootIndex.ancestors(of: state)
    }

    /// The machines alive now, one line each (`flow: state`), the root first, children indented.
    public var machines: [String] {
        interpreter.sessions.compactMap { session in
            session.map {
                String(repeating: "  ", count: $0.path.count) + "\($0.document.spec.name): " + SpecInterpreter.leaves($0.machine)
            }
        }
    }
}
