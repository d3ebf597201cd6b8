import Flowstate
import FlowNavigation
import Testing

/// An exhaustive tester for a `Supervisor` tree, and for coordinators driven by a
/// `HeadlessNavigator`: after each command the test states what happened in the tree (machines
/// spawned, transitions, effects, outputs, failures, restarts, teardowns in order) and, with a
/// navigator, the screens pushed, popped, presented, dismissed and the tabs switched. Anything that
/// happened and was not stated, or was stated and did not happen, fails the test at the command's line
/// with a readable difference; so does anything still running at the end.
///
/// ```swift
/// let supervisor = Supervisor()
/// let tester = FlowTreeTester(supervisor)
/// let root = try tester.step {
///     try supervisor.start(Parent.definition, handler: tester.recording())
/// } expect: {
///     let root = $0.spawned(Parent.definition, in: .idle)
///     $0.effects(root, [.showIdle])
/// }
/// try tester.send(.go, to: root) {
///     $0.transition(root, to: .working)
///     $0.spawned(Worker.definition, in: .busy, under: root)   // a declared child
///     $0.effects(root, [.showWorking, .startWork])            // the child's, mapped, are the root's
/// }
/// tester.finish(running: [root.id])
/// ```
///
/// Statements name machines by handle. ``FlowTreeExpectation/spawned(_:in:under:)`` returns the handle
/// of the machine it matched, so a machine started by the step (a root, a declared child) can be named
/// in the same step and driven later. Effects are checked for machines whose handler was wrapped by
/// ``recording(_:)`` (the effects a declared child maps to its parent's are performed, and recorded, by
/// the parent's handler). Navigation is checked when the tester was made with a navigator
/// (``init(_:navigator:sourceLocation:)``); the navigator's problems (a pop on a stack's root, a
/// dismiss with no modal) always fail the test.
///
/// What happens outside a tester's command (an async effect's result, a call the test made directly)
/// is stated with ``receive(sourceLocation:_:)`` before the next command; ``settle(timeout:isolation:)``
/// waits for async effects to deliver their results. ``finish(running:sourceLocation:)``
/// (or, failing that, the tester's deinitialization) reports what was never stated, machines still
/// running that the test did not list, and async effects still in flight.
///
/// `Screen` is the screen type of the navigator (`Never` for a tree without screens, made with
/// ``init(_:sourceLocation:)``).
public final class FlowTreeTester<Screen: Hashable & Sendable> {
    /// The supervisor the tester observes.
    public let supervisor: Supervisor

    private var observation: FlowObservation?
    private let navigation: NavigationReader?
    /// What happened since the last statement, in order.
    private var events: [TreeEvent] = []
    private var effects: [RecordedEffect] = []
    private var finished = false
    private let location: SourceLocation

    /// A tester of the tree `supervisor` runs, without screens. Machines already running are known to
    /// it; everything that happens from now on must be stated.
    /// - Parameters:
    ///   - supervisor: The supervisor; the tester observes its tree events.
    ///   - sourceLocation: Where problems found at deinitialization are reported.
    public init(_ supervisor: Supervisor, sourceLocation: SourceLocation = #_sourceLocation) where Screen == Never {
        self.supervisor = supervisor
        navigation = nil
        location = sourceLocation
        observe()
    }

    /// A tester of coordinator flows: the tree `supervisor` runs (a `Coordinator`'s) and the commands
    /// `navigator` performs. Commands it performed before are not reported.
    /// - Parameters:
    ///   - supervisor: The coordinator's supervisor.
    ///   - navigator: The navigator the coordinator drives.
    ///   - sourceLocation: Where problems found at deinitialization are reported.
    public init(_ supervisor: Supervisor, navigator: HeadlessNavigator<Screen>,
                        sourceLocation: SourceLocation = #_sourceLocation) {
        self.supervisor = supervisor
        navigation = NavigationReader(navigator)
        location = sourceLocation
        observe()
    }

    private func observe() {
        observation = supervisor.observe { [weak self] event in self?.events.append(event) }
    }

    deinit {
        if !finished { check(running: [], at: location) }
    }

    /// An effect handler that records every effect it performs for the tester (as performed by the
    /// machine whose handler it is), then performs it with `perform`. Give it to `Supervisor.start`,
    /// `spawn` or `restore`.
    /// - Parameter perform: Performs the effect; it may throw (a failure of the machine).
    /// - Returns: The handler.
    public func recording<F: Flow>(_ perform: @escaping EffectHandler<F> = { _, _ in }) -> EffectHandler<F> {
        { [weak self] effect, context in
            self?.effects.append(RecordedEffect(performer: context.machine.id, value: effect, label: "\(effect)"))
            try perform(effect, context)
        }
    }

    /// Runs a command on the tree (any calls to the supervisor, the coordinator or the navigator) and
    /// checks what it caused against what `expect` states.
    /// - Parameters:
    ///   - sourceLocation: Where failures are reported: the caller's line by default.
    ///   - command: The command.
    ///   - expect: States what happened; without it, nothing must have happened.
    /// - Returns: What `command` returned.
    /// - Throws: What `command` throws (what it caused is still checked).
    @discardableResult
    public func step<T, E: Error>(sourceLocation: SourceLocation = #_sourceLocation, _ command: () throws(E) -> T,
                                  expect: (inout FlowTreeExpectation<Screen>) -> Void = { _ in }) throws(E) -> T {
        reportUnstated(at: sourceLocation)
        do throws(E) {
            let result = try command()
            check(taking(), what: "The command", at: sourceLocation, expect)
            return result
        } catch {
            check(taking(), what: "The command (which threw \(error))", at: sourceLocation, expect)
            throw error
        }
    }

    /// Sends an event to a machine and checks what it caused (``step(sourceLocation:_:expect:)``).
    /// - Throws: What `Supervisor.send(_:to:)` throws.
    public func send<F: Flow>(_ event: F.Event, to machine: MachineHandle<F>, sourceLocation: SourceLocation = #_sourceLocation,
                              _ expect: (inout FlowTreeExpectation<Screen>) -> Void = { _ in }) throws(SupervisorError) {
        reportUnstated(at: sourceLocation)
        do throws(SupervisorError) {
            try supervisor.send(event, to: machine)
        } catch {
            check(taking(), what: "Sending \(event) to \(machine) (which threw: \(error))", at: sourceLocation, expect)
            throw error
        }
        check(taking(), what: "Sending \(event) to \(machine)", at: sourceLocation, expect)
    }

    /// Stops a machine and its subtree and checks what it caused (``step(sourceLocation:_:expect:)``).
    /// - Returns: The teardown record.
    @discardableResult
    public func stop<F: Flow>(_ machine: MachineHandle<F>, sourceLocation: SourceLocation = #_sourceLocation,
                     _ expect: (inout FlowTreeExpectation<Screen>) -> Void = { _ in }) -> TeardownRecord {
        reportUnstated(at: sourceLocation)
        let record = supervisor.stop(machine)
        check(taking(), what: "Stopping \(machine)", at: sourceLocation, expect)
        return record
    }

    /// Moves the supervisor's time on by `duration` on a virtual clock, without waiting: every timer
    /// (delayed transition, `After`) of the tree that comes due meanwhile fires at its deadline, in
    /// deadline order, through the supervisor's normal step path; then checks what they caused against
    /// what `expect` states (each timer's transition, effects, children finished or torn down), as
    /// ``step(sourceLocation:_:expect:)`` does. With no timer due, nothing must be stated.
    /// - Returns: How many timers came due.
    @discardableResult
    public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation,
                        _ expect: (inout FlowTreeExpectation<Screen>) -> Void = { _ in }) -> Int {
        reportUnstated(at: sourceLocation)
        let due = supervisor.advanceTimers(by: duration)
        check(taking(), what: "Advancing the clock by \(FlowTimer.label(of: duration)) (\(due) timer(s) due)",
              at: sourceLocation, expect)
        return due
    }

    /// States what happened outside the tester's commands since the last statement: results of async
    /// effects, calls the test made to the supervisor directly.
    /// - Parameters:
    ///   - sourceLocation: Where failures are reported: the caller's line by default.
    ///   - expect: States what happened.
    public func receive(sourceLocation: SourceLocation = #_sourceLocation, _ expect: (inout FlowTreeExpectation<Screen>) -> Void) {
        check(taking(), what: "What happened since the last command", at: sourceLocation, expect)
    }

    /// Waits until every async effect (`EffectContext.task(_:)`) has delivered its result through the
    /// supervisor's queue, or until `timeout`. What the results caused is then stated with
    /// ``receive(sourceLocation:_:)``. Call it from the supervisor's isolation (the main actor, for
    /// example): the results are delivered there while it waits.
    /// - Parameters:
    ///   - timeout: The longest wait.
    ///   - isolation: The caller's isolation, where the supervisor lives.
    /// - Returns: Whether no async effect is in flight any more.
    @discardableResult
    public func settle(timeout: Duration = .seconds(5), isolation: isolated (any Actor)? = #isolation) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while supervisor.tasksInFlight > 0 {
            guard clock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }

    /// Ends the test: reports what happened and was never stated, every live machine not in
    /// `running`, every machine in `running` that is gone, and async effects still in flight. Stops
    /// observing the supervisor.
    /// - Parameters:
    ///   - running: The machines the test leaves running on purpose (a coordinator's root, for example).
    ///   - sourceLocation: Where failures are reported: the caller's line by default.
    public func finish(running: [MachineID] = [], sourceLocation: SourceLocation = #_sourceLocation) {
        finished = true
        check(running: running, at: sourceLocation)
    }

    // MARK: Checking

    /// What happened since the last call, after the supervisor tore down the machines whose owner
    /// was released (as any call that observes the tree does).
    private func taking() -> TreeStepRecord {
        _ = supervisor.liveCount
        var record = TreeStepRecord(events: events, effects: effects)
        events.removeAll()
        effects.removeAll()
        if let navigation {
            (record.navigation, record.navigatorProblems) = navigation.take()
        }
        return record
    }

    private func reportUnstated(at sourceLocation: SourceLocation) {
        let record = taking()
        guard !record.isEmpty else { return }
        check(record, what: "What happened since the last command (state it with receive())", at: sourceLocation) { _ in }
    }

    private func check(_ record: TreeStepRecord, what: String, at sourceLocation: SourceLocation,
                       _ expect: (inout FlowTreeExpectation<Screen>) -> Void) {
        var expectation = FlowTreeExpectation<Screen>(record, supervisor: supervisor)
        expect(&expectation)
        let problems = expectation.problems()
        guard !problems.isEmpty else { return }
        let text = "\(what) does not match the test:\n" + problems.map { "  - " + $0 }.joined(separator: "\n")
        Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
    }

    private func check(running: [MachineID], at sourceLocation: SourceLocation) {
        let record = taking()
        observation?.cancel()
        if !record.isEmpty {
            check(record, what: "What happened after the last command (state it with receive())", at: sourceLocation) { _ in }
        }
        var problems: [String] = []
        let expected = Set(running)
        let live = supervisor.machines
        for machine in live where !expected.contains(machine.id) {
            problems.append("still running: \(machine.id) '\(machine.flow)' in \(machine.state) "
                + "(stop it, or list it in finish(running:))")
        }
        let liveIDs = Set(live.map(\.id))
        for id in running where !liveIDs.contains(id) {
            problems.append("expected \(id) to be running at the end, but it is gone")
        }
        let tasks = supervisor.tasksInFlight
        if tasks > 0 {
            problems.append("\(tasks) async effect\(tasks == 1 ? " is" : "s are") still in flight")
        }
        guard !problems.isEmpty else { return }
        Issue.record(Comment(rawValue: "At the end of the test:\n" + problems.map { "  - " + $0 }.joined(separator: "\n")),
                     sourceLocation: sourceLocation)
    }
}

/// One effect a recording handler performed.
struct RecordedEffect {
    var performer: MachineID
    var value: Any
    var label: String
}

/// Everything one command caused.
struct TreeStepRecord {
    var events: [TreeEvent]
    var effects: [RecordedEffect]
    var navigation: [(value: AnyHashable, label: String)] = []
    var navigatorProblems: [String] = []

    var isEmpty: Bool { events.isEmpty && effects.isEmpty && navigation.isEmpty && navigatorProblems.isEmpty }
}

/// Reads the commands and problems a headless navigator logged since the last read.
final class NavigationReader {
    private let read: () -> (commands: [(AnyHashable, String)], problems: [String])
    private var commandsSeen: Int
    private var problemsSeen: Int

    init<Screen>(_ navigator: HeadlessNavigator<Screen>) {
        read = { (navigator.log.map { (AnyHashable($0), NavigationReader.label($0)) }, navigator.problems) }
        commandsSeen = navigator.log.count
        problemsSeen = navigator.problems.count
    }

    func take() -> ([(value: AnyHashable, label: String)], [String]) {
        let (commands, problems) = read()
        defer {
            commandsSeen = commands.count
            problemsSeen = problems.count
        }
        return (commands.dropFirst(commandsSeen).map { (value: $0.0, label: $0.1) }, Array(problems.dropFirst(problemsSeen)))
    }

    /// `push(editor)`, `alert(Discard?: Keep, Discard)`, `tabs(feed, profile)`...
    static func label<Screen>(_ command: NavigatorCommand<Screen>) -> String {
        switch command {
        case .push(let screen): "push(\(screen))"
        case .pop: "pop"
        case .popToRoot: "popToRoot"
        case .present(let screen): "present(\(screen))"
        case .dismiss: "dismiss"
        case .alert(let title, let choices): "alert(\(title): \(choices.joined(separator: ", ")))"
        case .tabs(let screens): "tabs(\(screens.map { "\($0)" }.joined(separator: ", ")))"
        case .selectTab(let screen): "selectTab(\(screen))"
        }
    }
}
