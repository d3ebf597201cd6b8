import DequeModule
import FlowGraph
@_spi(TimerQueue) import Flowstate

/// The W3C SCXML algorithm (Appendix D) for the null data model, `<history>` included, around the
/// engine: one interpreter for every flow file, a value that ``FlowSimulation`` drives and
/// ``FlowFilePathfinder`` copies to explore.
///
/// The engine selects transitions (document order, innermost state first, descriptor matching through
/// ``EventClasses``), takes eventless transitions after each microstep, and reports which transitions
/// it took. This driver does the rest from that report, never from labels: it runs the file's
/// executable content of every state exited and entered and of every transition taken (exit blocks,
/// then the transition's, then entry blocks, each with the configuration of that moment for `In()`),
/// keeps each session's internal and external queues, raises `done.state.<id>` on entering a nested
/// `<final>` (inside a parallel state, where the engine decides it: the engine reports it, and the
/// driver queues it), starts `<invoke>`d sessions at the end of the macrostep that entered their state and
/// cancels them when it is exited, delivers `done.invoke.<id>`, routes `<send>` by target, delivers
/// delayed events on virtual time, and places `error.execution` and `error.communication` where the
/// recommendation says.
///
/// Its functions carry the names of the recommendation's procedures they stand for (`interpret`,
/// `mainEventLoop`, `macrostep`, `executeTransitionContent`, `exitInterpreter`, `invoke`,
/// `cancelInvoke`, `executeContent`), one section each; those that replay what the engine did and
/// reported say so (`replayMicrostep`, `replayExitStates`, `replayEnterStates`: the recommendation's
/// `microstep`, `exitStates`, `enterStates`). Why replaying content from the engine's report equals
/// the recommendation's algorithm is written at the head of those sections.
struct SpecInterpreter: Sendable {
    /// Why a run stopped early.
    struct Stop: Error, Sendable {
        var message: String
    }

    /// An event on a queue, with the session that sent it (for invoked sessions' events, which a
    /// cancelled invocation's parent must no longer see).
    struct Queued: Sendable {
        var event: SpecEvent
        var origin: Int?
        /// The output of the child flow named here, reaching its parent as this event (JSON specs).
        var outputOf: String? = nil
    }

    struct Session: Sendable {
        var document: SpecDocument
        var machine: FlowMachine<StringFlow>
        /// The child flow names from the root (empty for it).
        var path: [String]
        var sessionID: String
        var parent: Int?
        /// The invocation's id in the parent (`done.invoke.<id>`, `#_<id>`).
        var invokeID: String?
        /// The parent's state that invoked it.
        var invokingState: String?
        var autoforward = false
        var internalQueue: Deque<SpecEvent> = []
        var externalQueue: Deque<Queued> = []
        /// Invoked children by invoke id.
        var children: [String: Int] = [:]
        /// States with an `<invoke>` entered during the current macrostep, in entry order.
        var toInvoke: [String] = []
        var generatedIDs = 0
    }

    /// A delayed `<send>`, or the timer of a delayed transition, waiting for its time (in
    /// ``delayedQueue``, by its sequence): one model of time for both.
    struct Delayed: Sendable {
        var due: Int
        var sequence: Int
        var sender: Int
        var sendID: String
        var target: Int
        var isInternal: Bool
        /// The event; for a timer, its label (`after 30s`), which records show.
        var event: SpecEvent
        /// For a delayed transition's timer, the timer its machine armed (fired, not sent).
        var timer: FlowTimer? = nil
    }

    /// What happened, for the shell to show.
    /// What happened, for the shell to show. `path` names the session (its child flow names from the
    /// root); transitions are the file's, by index in document order.
    enum Note: Sendable {
        /// `state` names the leaves (see `transitioned`), `leaf` the first.
        case started(path: [String], state: String, leaf: String, effects: [String], transitions: [Int])
        /// `from` and `to` name the leaves (several, separated by commas, with parallel states); `leaf`
        /// is the first leaf after the step.
        case transitioned(path: [String], from: String, to: String, leaf: String, event: String, internal: Bool,
                          effects: [String], transitions: [Int])
        case unhandled(path: [String], state: String, event: String, rejected: Bool)
        /// The output of `child` reached its parent (at `path`) as `event`, and no transition took it.
        case unhandledOutput(path: [String], state: String, event: String, child: String, rejected: Bool)
        case finished(path: [String], output: String)
        case cancelled(path: [String])
        case fired(path: [String], event: String, at: Int)
    }

    let documents: [String: SpecDocument]
    let rootName: String
    let guards: [String: Bool]
    let classes: EventClasses
    var sessions: [Session?] = []
    /// The sessions alive, in the order they started: what a pass of the run serves (ended sessions
    /// keep their slot, so a document that invokes in a loop does not slow every pass down).
    var live: [Int] = []
    /// Virtual time, in milliseconds since the start.
    private(set) var now = 0
    /// The pending delayed events' sequences, armed at their due time (milliseconds) on the engine's
    /// timer queue, which every host keeps its timers in: ordered by due time, then by sending (or
    /// arming), as SCXML needs for sends due at the same time; O(log n) to arm, cancel or deliver.
    /// `<cancel>` and a machine's cancelled timers take theirs out; those of ended sessions are
    /// dropped when they come up.
    var delayedQueue = FlowTimerQueue<Int>()
    /// The pending delayed events by sequence.
    var delayed: [Int: Delayed] = [:]
    /// The pending delayed events' sequences by sender and send id, for `<cancel>`.
    var sendsByID: [SendKey: [Int]] = [:]
    struct SendKey: Hashable, Sendable {
        var sender: Int
        var id: String
    }
    /// The pending timers' sequences by session and timer, for their machine's cancellations.
    var timerSequences: [TimerKey: Int] = [:]
    struct TimerKey: Hashable, Sendable {
        var session: Int
        var timer: FlowTimer
    }
    var sequence = 0
    var sendCounter = 0
    private(set) var notes: [Note] = []
    /// Sessions cancelled by their parent: their events still queued are not processed.
    var cancelled: Set<Int> = []
    /// Steps taken so far, all sessions together (the limit on a busy document).
    private(set) var steps = 0
    /// Whether the root session has finished.
    var rootFinished = false
    /// The root session's last state (kept after it finishes).
    private(set) var rootState: String?
    /// Whether notes are kept (exploration turns them off, and reads ``rootTransitions`` instead).
    var recording = true
    /// While notes are off: the file's transitions the root session took, in order, since
    /// ``takeRootTransitions()``.
    private(set) var rootTransitions: [Int] = []

    /// The most internal events one macrostep may process before the run stops as a loop.
    static let internalEventLimit = 10_000

    /// The most steps a run may take in all (events per macrostep are bounded separately).
    var stepLimit = 1_000_000

    /// When the run must stop, on the monotonic clock, and the limit it stands for (for the message);
    /// `nil`: no limit. Checked between steps.
    var deadline: (instant: ContinuousClock.Instant, limit: Duration)?

    init(documents: [String: SpecDocument], root: String, guards: [String: Bool], classes: EventClasses) {
        self.documents = documents
        self.rootName = root
        self.guards = guards
        self.classes = classes
    }

    // MARK: Why replaying the engine's report is Appendix D
    //
    // The recommendation's algorithm (Appendix D) for one session, with the null data model, is:
    //
    //   interpret      enterStates(the initial transition); mainEventLoop()
    //   mainEventLoop  loop: macrostep (eventless transitions, else one internal event, each a
    //                  microstep, until neither is left); invoke the states entered and still active;
    //                  dequeue one external event (autoforward it), selectTransitions, microstep
    //   microstep      exitStates; executeTransitionContent; enterStates
    //   exitStates     the exit set, innermost first: record history, run <onexit>, cancel its
    //                  invocations, leave the configuration
    //   enterStates    the entry set, outermost first: join the configuration, due to invoke, run
    //                  <onentry> (and the initial or default-history transition's content); a final
    //                  state raises done.state.<parent> (and of a completed parallel grandparent), or
    //                  at the top level ends the session
    //   exitInterpreter  exit every active state (<onexit>, cancel invocations); done.invoke to the parent
    //
    // Split between the two layers:
    //
    // - The engine (FlowMachine, SCXML's algorithm in FlowMachine+Parallel.swift for parallel and
    //   history states, precompiled moves otherwise) decides everything that chooses a
    //   configuration: selectTransitions and selectEventlessTransitions (document order, innermost
    //   state first, conflicts between regions, descriptor matching through `EventClasses`), the exit
    //   set and the entry set (transition domain, history recorded and restored, default entry), and
    //   their order. After an event's microstep it takes eventless transitions, one microstep each,
    //   until none is enabled, and it raises done.state of a completed parallel state. It reports all
    //   of this, microstep by microstep (`FlowMicrostep`: exits, transitions, entries, completions).
    // - This driver adds what the engine has no notion of: executable content, the internal and
    //   external queues, done.state of a nested final outside parallel states (which the engine
    //   compiles as a plain state), <invoke> and its cancellation, done.invoke, <send> with its
    //   targets and delays, <cancel>, error.execution and error.communication, virtual time.
    //
    // Replaying the content after the engine's step, instead of running it inside each microstep as
    // the recommendation does, gives the same result because with the null data model executable
    // content cannot change what the engine decides: there is no data to assign, a transition's
    // `cond` is `In()` (the engine's own configuration) or a guard truth fixed for the event, and
    // content only queues events, sends, cancels sends and raises errors. Its one effect on
    // selection, an internal event, is seen only once the eventless transitions are exhausted: the
    // recommendation's macrostep takes eventless transitions first and dequeues an internal event
    // only when none is enabled, which is where the engine's step ends and `macrostep` below
    // dequeues. So the engine takes the same microsteps, and the replay runs each one's content in
    // the recommendation's order, with the configuration of that moment (`active`) for `In()` in
    // `<if>`, queueing every internal event (raised by content or reported done.state) in the order
    // the recommendation raises it.
    //
    // Where this file departs from the recommendation's letter without a visible difference:
    // - The recommendation's loop takes a macrostep before each external event; `mainEventLoopTurn`
    //   takes the external event first and then the macrostep it starts. The same sequence, rotated:
    //   `interpret` takes the first macrostep before any external event.
    // - Sessions share one loop (`mainEventLoop`): each session's external events in order, one at a
    //   time per session in the order sessions started, so none starves another.
    // - `exitInterpreter` runs the exit blocks of every active state, then (a finishing session)
    //   cancels its invocations, or (a cancelled subtree) is called for the children before their
    //   parent; the recommendation cancels each state's invocations as it exits it. Nothing tells
    //   the orders apart: every event a cancelled session sends is dropped, and an ending session's
    //   internal queue with it.

    // MARK: The shell's entry points

    /// Starts the root session (`interpret`) and runs until nothing is left to do at time 0.
    mutating func start() throws(Stop) {
        guard sessions.isEmpty, let document = documents[rootName] else { return }
        _ = try interpret(document, path: [], parent: nil, invokeID: nil, invokingState: nil, autoforward: false)
        try mainEventLoop()
    }

    /// An external event for the root session, processed with all it causes at the current time.
    mutating func send(_ event: SpecEvent) throws(Stop) {
        guard sessions.first != nil else { return }
        if live.count == 1, live[0] == 0, sessions[0]?.externalQueue.isEmpty == true {
            // The root alone, nothing queued: `mainEventLoop` would take this event first and then
            // find nothing else, so it is processed directly, without going through the queue (which
            // an exploration's copies of the run would each have to copy).
            try mainEventLoopTurn(0, external: event)
        } else {
            sessions[0]?.externalQueue.append(Queued(event: event, origin: nil))
        }
        try mainEventLoop()
    }

    /// The next delayed event's time, if any.
    var nextDue: Int? {
        mutating get {
            while let first = delayedQueue.next?.key, let item = delayed[first], !isLive(item) {
                cancelDelayed(first)
            }
            return delayedQueue.next.flatMap { delayed[$0.key]?.due }
        }
    }

    /// Whether a delayed `<send>` (not a delayed transition's timer) is still waiting to be delivered.
    var hasPendingSends: Bool {
        delayed.values.contains { $0.timer == nil && isLive($0) }
    }

    /// Whether a delayed event will still be delivered: its sender and target alive.
    func isLive(_ item: Delayed) -> Bool {
        sessions.indices.contains(item.target) && sessions[item.target] != nil && sessions[item.sender] != nil
    }

    /// Queues `item` to be delivered at its due time, after those queued before it for the same time.
    mutating func enqueueDelayed(_ item: Delayed) {
        delayed[item.sequence] = item
        delayedQueue.arm(item.sequence, at: .milliseconds(item.due))
    }

    /// Takes the delayed event `sequence` off the queue: it will not be delivered.
    mutating func cancelDelayed(_ sequence: Int) {
        delayedQueue.cancel(sequence)
        delayed[sequence] = nil
    }

    /// Moves virtual time forward to `time` (never back), delivering every delayed event due by then
    /// in order of time, then of sending, each with all it causes.
    mutating func advance(to time: Int) throws(Stop) {
        while let due = nextDue, due <= time, !rootFinished {
            now = max(now, due)
            guard let sequence = delayedQueue.popDue(at: .milliseconds(due)),
                  let item = delayed.removeValue(forKey: sequence) else { break }
            guard isLive(item) else { continue }  // `nextDue` dropped the dead ones; checked again here
            sendsByID[SendKey(sender: item.sender, id: item.sendID)]?.removeAll { $0 == item.sequence }
            note(.fired(path: pathOf(item.target), event: item.event.name, at: now))
            if let timer = item.timer {
                // A delayed transition's timer: its machine fires it, as a macrostep of its own.
                timerSequences[TimerKey(session: item.target, timer: timer)] = nil
                try selectAndTakeTransitions(item.target, event: item.event, isInternal: false, timer: timer)
                try mainEventLoopTurn(item.target, external: nil)
            } else if item.isInternal {
                sessions[item.target]?.internalQueue.append(item.event)
                try mainEventLoopTurn(item.target, external: nil)
            } else {
                sessions[item.target]?.externalQueue.append(Queued(event: item.event, origin: item.sender))
            }
            try mainEventLoop()
        }
        now = max(now, time)
    }

    // MARK: interpret

    /// The recommendation's `interpret`: starts a session, its machine's start (`enterStates` of the
    /// initial transition, which the engine reports), the content of the states entered, then its
    /// first macrostep. Returns the session's slot.
    mutating func interpret(_ document: SpecDocument, path: [String], parent: Int?, invokeID: String?,
                                    invokingState: String?, autoforward: Bool) throws(Stop) -> Int {
        var machine: FlowMachine<StringFlow>
        do {
            machine = try FlowMachine(document.definition)
        } catch {
            throw Stop(message: "\(document.spec.name) cannot start: \(error.message)")
        }
        let s = sessions.count
        live.append(s)
        sessions.append(Session(document: document, machine: machine, path: path, sessionID: "\(s)", parent: parent,
                                invokeID: invokeID, invokingState: invokingState, autoforward: autoforward))
        let step: FlowStep<StringFlow>
        var microsteps: [FlowMicrostep] = []
        do {
            (step, microsteps) = try machine.startReportingMicrosteps(completions: .reported)
        } catch {
            sessions[s] = nil
            throw Stop(message: "\(document.spec.name) cannot start: \(error.message)")
        }
        sessions[s]!.machine = machine
        schedule(step.timers, in: s)
        let taken = step.transitions.map { document.index.specTransitions[$0.position] }
        if s == 0, !recording { rootTransitions += taken }
        note(.started(path: pathOf(s), state: Self.describe(step.leaves), leaf: step.state, effects: Array(step.effects), transitions: taken))
        if s == 0 { rootState = step.state }
        replay(microsteps, active: [], in: s, event: nil)
        if let output = step.output { finish(s, output: output, event: nil) }
        try mainEventLoopTurn(s, external: nil)
        return s
    }

    // MARK: mainEventLoop

    /// The recommendation's `mainEventLoop`, for every session at once: runs them until all their
    /// external queues are empty, in the order they started, one external event at a time each, so
    /// no session starves another. (A session waits for external events here; virtual time brings
    /// the delayed ones, see ``advance(to:)``.)
    mutating func mainEventLoop() throws(Stop) {
        var progressed = true
        while progressed {
            progressed = false
            for s in live {
                // Checked in place: a copy of the session would share its queues, and the removal
                // below would then copy a whole queue (quadratic in a flood of events).
                guard sessions[s]?.externalQueue.isEmpty == false else { continue }
                let item = sessions[s]!.externalQueue.removeFirst()
                progressed = true
                // Events from an invocation that was cancelled meanwhile are not processed (a finished
                // one's completion is: it was queued as the session ended).
                if let origin = item.origin, cancelled.contains(origin) { continue }
                try mainEventLoopTurn(s, external: item.event, outputOf: item.outputOf)
            }
        }
    }

    /// One turn of `mainEventLoop` for one session: the external event dequeued, if any (autoforwarded
    /// to the children that asked for it, its transitions selected and taken), then the macrostep it
    /// starts, then the invocations of the states entered and still active.
    mutating func mainEventLoopTurn(_ s: Int, external: SpecEvent?, outputOf child: String? = nil)
        throws(Stop)
    {
        if let external {
            // <invoke autoforward="true">: the child gets a copy of every external event.
            if let children = sessions[s]?.children, !children.isEmpty {
                for (_, child) in children.sorted(by: { $0.key < $1.key }) where sessions[child]?.autoforward == true {
                    sessions[child]?.externalQueue.append(Queued(event: external, origin: s))
                }
            }
            try selectAndTakeTransitions(s, event: external, isInternal: false, outputOf: child)
        }
        try macrostep(s)
        try invoke(s)
    }

    // MARK: macrostep

    /// The recommendation's macrostep: every internal event, first in first out, each selecting and
    /// taking its transitions and the eventless ones after them, until the internal queue is empty.
    mutating func macrostep(_ s: Int) throws(Stop) {
        var count = 0
        while sessions[s]?.internalQueue.isEmpty == false {
            count += 1
            guard count <= Self.internalEventLimit else {
                throw Stop(message: "more than \(Self.internalEventLimit) internal events in one macrostep of '\(sessions[s]!.document.spec.name)': the flow raises events in a loop")
            }
            let event = sessions[s]!.internalQueue.removeFirst()
            try selectAndTakeTransitions(s, event: event, isInternal: true)
        }
    }

    // MARK: selectTransitions (in the engine)

    /// `selectTransitions` and the microsteps that follow, in the engine: one event is sent to the
    /// session's machine (or, with `timer`, one of its timers fires: `event` is then the timer's
    /// label), which selects and takes the enabled transitions, then the eventless ones
    /// (`selectEventlessTransitions`) until none is enabled, and reports each microstep; each is then
    /// replayed (``replayMicrostep(_:in:active:event:)``).
    mutating func selectAndTakeTransitions(_ s: Int, event: SpecEvent, isInternal: Bool,
                                                   outputOf child: String? = nil, timer: FlowTimer? = nil)
        throws(Stop)
    {
        // The machine alone is taken out and put back: holding the whole session would share its
        // queues with the array's copy, and every event queued during the step would copy a queue.
        guard sessions[s]?.machine.isFinished == false else { return }
        let document = sessions[s]!.document
        var machine = sessions[s]!.machine
        if let deadline, ContinuousClock.now >= deadline.instant {
            let (seconds, attoseconds) = deadline.limit.components
            let time = FlowSimulation.format(milliseconds: Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
            throw Stop(message: "more than \(time) of processing: the run was stopped (a document that keeps itself busy)")
        }
        steps += 1
        guard steps <= stepLimit else {
            throw Stop(message: "more than \(stepLimit) steps: the run was stopped (a document that keeps itself busy)")
        }
        var classified = event
        classified.matchKind = document.scxml ? classes.kind(of: event.name) : nil
        let from = document.parallel ? Self.leaves(machine) : machine.state
        let before = document.hasContent ? machine.configuration : []
        let step: FlowStep<StringFlow>
        var microsteps: [FlowMicrostep] = []
        do {
            // The engine reports what the step exited and entered when the driver has anything to run
            // for it (`done.state` events of parallel states are left to the driver's queue).
            if let timer {
                if document.hasContent {
                    (step, microsteps) = try machine.fireReportingMicrosteps(timer, completions: .reported)
                } else {
                    step = try machine.fire(timer)
                }
            } else if document.hasContent {
                (step, microsteps) = try machine.sendReportingMicrosteps(classified, completions: .reported)
            } else {
                step = try machine.send(classified)
            }
        } catch {
            throw Stop(message: "\(document.spec.name): \(error.message)")
        }
        sessions[s]!.machine = machine
        schedule(step.timers, in: s)
        switch step.kind {
        case .ignored, .rejected:
            let rejected = step.kind == .rejected
            if recording {
                if let child {
                    note(.unhandledOutput(path: pathOf(s), state: from, event: event.description, child: child,
                                          rejected: rejected))
                } else {
                    note(.unhandled(path: pathOf(s), state: from, event: event.description, rejected: rejected))
                }
            }
            return
        case .started:
            return
        case .transitioned, .finished:
            if s == 0, !recording {
                for id in step.transitions { rootTransitions.append(document.index.specTransitions[id.position]) }
            }
            if recording {
                let taken = step.transitions.map { document.index.specTransitions[$0.position] }
                note(.transitioned(path: pathOf(s), from: from, to: Self.describe(step.leaves), leaf: step.state,
                                   event: event.name, internal: isInternal, effects: Array(step.effects),
                                   transitions: taken))
            }
            if s == 0 { rootState = step.state }
            // A timer's step has no event: its content sees none.
            replay(microsteps, active: Set(before), in: s, event: timer == nil ? event : nil)
            if let output = step.output { finish(s, output: output, event: timer == nil ? event : nil) }
        }
    }

    // MARK: Leaves and timers

    /// The atomic states a machine is in, as notes name them: the state, or with parallel states each
    /// active leaf in declaration order, separated by commas.
    static func leaves(_ machine: FlowMachine<StringFlow>) -> String {
        guard machine.definition.hierarchy.hasParallel else { return machine.state }
        let hierarchy = machine.definition.hierarchy
        let leaves = machine.activeStates.filter { state in
            machine.definition.position(of: state).map(hierarchy.isAtomic) ?? false
        }
        return describe(Array(leaves.reversed()))
    }

    /// Leaves as notes name them (see ``leaves(_:)``).
    static func describe(_ leaves: [String]) -> String { leaves.joined(separator: ", ") }

    /// Schedules the timers a step armed on virtual time, and drops those it cancelled.
    mutating func schedule(_ changes: [FlowTimerChange], in s: Int) {
        for change in changes {
            switch change {
            case .arm(let timer, let delay):
                sequence += 1
                timerSequences[TimerKey(session: s, timer: timer)] = sequence
                enqueueDelayed(Delayed(due: now + Self.milliseconds(delay), sequence: sequence, sender: s, sendID: "",
                                       target: s, isInternal: false,
                                       event: SpecEvent("after \(FlowTimer.label(of: delay))"), timer: timer))
            case .cancel(let timer):
                if let cancelled = timerSequences.removeValue(forKey: TimerKey(session: s, timer: timer)) {
                    cancelDelayed(cancelled)
                }
            }
        }
    }

    /// A delay in whole milliseconds of virtual time, rounded up (a timer never fires early), at least 1.
    static func milliseconds(_ delay: Duration) -> Int {
        let (seconds, attoseconds) = delay.components
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let whole = seconds * 1000 + attoseconds / perMillisecond + (attoseconds % perMillisecond > 0 ? 1 : 0)
        return Int(max(1, min(whole, Int64(Int32.max))))
    }

    func pathOf(_ s: Int) -> [String] { sessions[s]?.path ?? [] }

    mutating func note(_ note: Note) {
        if recording { notes.append(note) }
    }

    /// Takes the root session's transitions taken so far (see ``rootTransitions``).
    mutating func takeRootTransitions() -> [Int] {
        defer { rootTransitions = [] }
        return rootTransitions
    }

    /// Takes the notes written so far.
    mutating func takeNotes() -> [Note] {
        defer { notes = [] }
        return notes
    }
}

