@_spi(TimerQueue) import Flowstate
import Testing

/// An exhaustive tester for a `FlowMachine` or a `FlowRuntime`, in the style of a TCA test store:
/// after each event the test states what happened, and anything that happened but was not stated
/// fails the test, at the test's line, with what was missed.
///
/// ```swift
/// let tester = try FlowStepTester(SignUp.definition)
/// try tester.start {
///     $0.state(.email)
///     $0.effects([.present(.email)])
/// }
/// try tester.send(.submitEmail("ada@example.com")) {
///     $0.transition(to: .password)
///     $0.effects([.push(.password)])
///     $0.transitions([FlowTransitionID(position: 0)])
/// }
/// try tester.send(.back) {            // forgetting `$0.effects([.pop])` fails the test here
///     $0.transition(to: .email)
///     $0.effects([.pop])
/// }
/// tester.finish()
/// ```
///
/// What must be stated after a step: the new state when it changed (``FlowStepExpectation/state(_:)``
/// or ``FlowStepExpectation/transition(to:)``; the start always counts as a change; in a flow with
/// parallel states, where several leaves are active, every leaf with ``FlowStepExpectation/leaves(_:)``),
/// the effects when
/// there are any (``FlowStepExpectation/effects(_:)``), and the output when the flow finished
/// (``FlowStepExpectation/finished(output:)``). A step with no closure claims that nothing happened:
/// an ignored or rejected event, or a targetless transition without effects. The transitions taken
/// (``FlowStepExpectation/transitions(_:)``) may be stated, and are then checked. When the flow's
/// context is `Equatable`, a change of it must be stated too (``FlowStepExpectation/context(_:)``);
/// with a runtime, the context is checked after the last step of a call (the `send` itself when its
/// effect handler sent nothing, else the last ``receive(sourceLocation:_:)``), when everything queued
/// has run.
///
/// With a runtime, events its effect handler sends are processed after the step, as steps of their
/// own: state each with ``receive(sourceLocation:_:)`` before the next ``send(_:sourceLocation:_:)``.
/// So are the steps a runtime runs between the tester's calls, such as a delayed transition's timer
/// firing on the runtime's clock: every step the runtime runs is a step the test states.
/// ``finish(sourceLocation:)`` (or, failing that, the tester's deinitialization) reports steps that
/// were never stated.
///
/// A tester that drives a machine drives its time too: ``advance(by:sourceLocation:_:)`` moves its
/// clock and fires the delayed transitions' timers (`After`) that come due, each a step to state (an
/// un-stated firing fails the test, as an un-stated effect does):
///
/// ```swift
/// try tester.advance(by: .seconds(30)) {
///     $0.transition(to: .canResend)
///     $0.effects([.showResend])
/// }
/// ```
public final class FlowStepTester<F: Flow> where F.Effect: Equatable, F.Output: Equatable {
    private enum Driver {
        case machine(FlowMachine<F>)
        case runtime(FlowRuntime<F>)
    }

    private var driver: Driver
    private var observation: FlowObservation?
    /// Steps the runtime ran that the test has not stated yet, in order.
    private var pending: [FlowStep<F>] = []
    private var finished = false
    private let location: SourceLocation
    /// The context when it was last checked.
    private var checkedContext: F.Context
    /// The tester's clock, for a machine's timers: how much time ``advance(by:sourceLocation:_:)``
    /// has moved it by, and the armed timers with the time each comes due.
    private var now: Duration = .zero
    private var due = FlowTimerQueue<FlowTimer>()  // the hosts' queue: by deadline, then arming order

    /// A tester that drives a fresh machine of `definition`.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - sourceLocation: Where problems found at deinitialization are reported.
    /// - Throws: `FlowError.Code.invalidDefinition`.
    public init(_ definition: FlowDefinition<F>, sourceLocation: SourceLocation = #_sourceLocation) throws(FlowError) {
        let machine = try FlowMachine(definition)
        driver = .machine(machine)
        checkedContext = machine.context
        location = sourceLocation
    }

    /// A tester that drives a runtime that has not started: its handler performs the effects, and
    /// events the handler sends become steps to ``receive(sourceLocation:_:)``.
    /// - Parameters:
    ///   - runtime: The runtime, not started yet.
    ///   - sourceLocation: Where problems found at deinitialization are reported.
    public init(runtime: FlowRuntime<F>, sourceLocation: SourceLocation = #_sourceLocation) {
        driver = .runtime(runtime)
        checkedContext = runtime.context
        location = sourceLocation
        observation = runtime.observe { [weak self] step in
            // Every step the runtime runs, whoever caused it (the tester's call, an event its handler
            // sent, a timer that fired on the runtime's clock between two calls), until `finish`.
            guard let self, !self.finished else { return }
            self.pending.append(step)
        }
    }

    deinit {
        observation?.cancel()
        if !finished && !pending.isEmpty {
            Issue.record(Comment(rawValue: Self.unstated(pending)), sourceLocation: location)
        }
    }

    /// The leaves the machine rests in after the last step checked (`[state]` without parallel
    /// states), or `nil` before the start.
    private var checkedLeaves: [F.State]?

    /// The state the machine is in (in a flow with parallel states, the first leaf it rests in).
    public var state: F.State {
        switch driver {
        case .machine(let machine): machine.state
        case .runtime(let runtime): runtime.state
        }
    }

    /// Whether `state` is active: the machine rests in it or in a state inside it (in a flow with
    /// parallel states, in any of its regions).
    public func isActive(_ state: F.State) -> Bool {
        switch driver {
        case .machine(let machine): machine.isActive(state)
        case .runtime(let runtime): runtime.isActive(state)
        }
    }

    /// The definition driven.
    private var definition: FlowDefinition<F> {
        switch driver {
        case .machine(let machine): machine.definition
        case .runtime(let runtime): runtime.definition
        }
    }

    /// The flow's context.
    public var context: F.Context {
        switch driver {
        case .machine(let machine): machine.context
        case .runtime(let runtime): runtime.context
        }
    }

    /// Whether the flow has finished.
    public var isFinished: Bool {
        switch driver {
        case .machine(let machine): machine.isFinished
        case .runtime(let runtime): runtime.isFinished
        }
    }

    /// Starts the flow and checks the start step against what `expect` states.
    /// - Parameters:
    ///   - sourceLocation: Where failures are reported: the caller's line by default.
    ///   - expect: States what the start did.
    /// - Returns: The start step.
    /// - Throws: What the machine or runtime throws.
    @discardableResult
    public func start(sourceLocation: SourceLocation = #_sourceLocation,
                      _ expect: (inout FlowStepExpectation<F>) -> Void = { _ in }) throws(FlowError) -> FlowStep<F> {
        reportPending(at: sourceLocation)
        let before = [state]
        let step = try drive { machine throws(FlowError) in try machine.start() } runtime: { runtime throws(FlowError) in
            _ = try runtime.start()
        }
        check(step, from: before, isStart: true, settled: pending.isEmpty, at: sourceLocation, expect)
        return step
    }

    /// Sends an event and checks its step against what `expect` states.
    /// - Parameters:
    ///   - event: The event.
    ///   - sourceLocation: Where failures are reported: the caller's line by default.
    ///   - expect: States what the step did; without it, the step must have done nothing visible.
    /// - Returns: The event's step.
    /// - Throws: What the machine or runtime throws (an unhandled event under
    ///   `UnhandledEventPolicy.fail`, for example).
    @discardableResult
    public func send(_ event: F.Event, sourceLocation: SourceLocation = #_sourceLocation,
                     _ expect: (inout FlowStepExpectation<F>) -> Void = { _ in }) throws(FlowError) -> FlowStep<F> {
        reportPending(at: sourceLocation)
        let before = checkedLeaves ?? [state]
        let step = try drive { machine throws(FlowError) in try machine.send(event) } runtime: { runtime throws(FlowError) in
            try runtime.send(event)
        }
        check(step, from: before, isStart: false, settled: pending.isEmpty, at: sourceLocation, expect)
        return step
    }

    /// States the next step a runtime ran that the test has not stated: one for an event its effect
    /// handler sent, or one a timer fired on the runtime's clock since the last call.
    /// - Parameters:
    ///   - sourceLocation: Where failures are reported: the caller's line by default.
    ///   - expect: States what the step did.
    /// - Returns: The step, or `nil` (and a recorded issue) when there is none to state.
    @discardableResult
    public func receive(sourceLocation: SourceLocation = #_sourceLocation,
                        _ expect: (inout FlowStepExpectation<F>) -> Void = { _ in }) -> FlowStep<F>? {
        guard !pending.isEmpty else {
            Issue.record("expected a step caused by an event the effect handler sent or by a timer, but there is none",
                         sourceLocation: sourceLocation)
            return nil
        }
        let step = pending.removeFirst()
        let before = checkedLeaves ?? [step.from ?? step.state]
        check(step, from: before, isStart: false, settled: pending.isEmpty, at: sourceLocation, expect)
        return step
    }

    /// Ends the test: reports the steps the runtime ran that were never stated.
    /// - Parameter sourceLocation: Where failures are reported: the caller's line by default.
    public func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        finished = true
        reportPending(at: sourceLocation)
    }

    // MARK: Checking

    /// Runs the start or an event on the machine, or on the runtime; a runtime's steps are read from
    /// its observer: the step of the call first, then the steps of the events its handler sent.
    private func drive(_ onMachine: (inout FlowMachine<F>) throws(FlowError) -> FlowStep<F>,
                       runtime onRuntime: (FlowRuntime<F>) throws(FlowError) -> Void) throws(FlowError) -> FlowStep<F> {
        switch driver {
        case .machine(var machine):
            defer { driver = .machine(machine) }
            let step = try onMachine(&machine)
            track(step)
            return step
        case .runtime(let runtime):
            // `pending` is empty here: the caller reported what was left unstated.
            try onRuntime(runtime)
            guard !pending.isEmpty else {
                throw FlowError(code: .reentrantCall, message: "the runtime ran no step: the call was queued")
            }
            return pending.removeFirst()
        }
    }

    /// Schedules the timers a machine's step armed on the tester's clock, and drops those it cancelled.
    private func track(_ step: FlowStep<F>) {
        for change in step.timers {
            switch change {
            case .arm(let timer, let delay): due.arm(timer, at: now + delay)
            case .cancel(let timer): due.cancel(timer)
            }
        }
    }

    /// Moves the tester's clock on by `duration` and fires the timers of delayed transitions (`After`)
    /// that come due meanwhile, earliest first (those due together, in the order they were armed),
    /// timers armed by those steps included. The first firing's step is checked against what `expect`
    /// states; state each further one with ``receive(sourceLocation:_:)``. Stating something when no
    /// timer fires fails the test. Only a tester that drives a machine drives time (a runtime's timers
    /// run on the runtime's clock).
    /// - Parameters:
    ///   - duration: How far to move the clock.
    ///   - sourceLocation: Where failures are reported: the caller's line by default.
    ///   - expect: States what the first timer's step did.
    /// - Returns: The timers' steps, in order.
    /// - Throws: What the machine throws (an eventless loop after a timer's transition).
    @discardableResult
    public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation,
                        _ expect: (inout FlowStepExpectation<F>) -> Void = { _ in }) throws(FlowError) -> [FlowStep<F>] {
        reportPending(at: sourceLocation)
        guard case .machine(var machine) = driver else {
            Issue.record(Comment(rawValue: "advance(by:) drives the timers of a tester that drives a machine: "
                                     + "a runtime's timers run on the runtime's clock"), sourceLocation: sourceLocation)
            return []
        }
        let before = checkedLeaves ?? [state]
        let end = now + duration
        var steps: [FlowStep<F>] = []
        defer { driver = .machine(machine) }
        while let (timer, at) = due.next, at <= end {
            due.cancel(timer)
            now = at
            let step = try machine.fire(timer)
            track(step)
            steps.append(step)
        }
        now = end
        guard let first = steps.first else {
            var expectation = FlowStepExpectation<F>()
            expect(&expectation)
            if expectation.statesAnything {
                Issue.record("no timer fired within \(duration): nothing happened to state", sourceLocation: sourceLocation)
            }
            return []
        }
        pending = Array(steps.dropFirst())
        driver = .machine(machine)
        check(first, from: before, isStart: false, settled: pending.isEmpty, at: sourceLocation, expect)
        return steps
    }

    private func reportPending(at sourceLocation: SourceLocation) {
        guard !pending.isEmpty else { return }
        if let moved = pending.last(where: { $0.kind != .ignored && $0.kind != .rejected }) { checkedLeaves = moved.leaves }
        Issue.record(Comment(rawValue: Self.unstated(pending)), sourceLocation: sourceLocation)
        pending.removeAll()
    }

    private static func unstated(_ steps: [FlowStep<F>]) -> String {
        "\(steps.count) step\(steps.count == 1 ? "" : "s") caused by events the effect handler sent "
            + "(or by timers: after the first that advance(by:) fired, or on a runtime's clock) "
            + "\(steps.count == 1 ? "was" : "were") not stated with receive():\n"
            + steps.map { "  \($0)" }.joined(separator: "\n")
    }

    /// Checks a step; `settled`: it is the last step of the call, so the context is checked too.
    private func check(_ step: FlowStep<F>, from before: [F.State], isStart: Bool, settled: Bool,
                       at sourceLocation: SourceLocation, _ expect: (inout FlowStepExpectation<F>) -> Void) {
        var expectation = FlowStepExpectation<F>()
        expect(&expectation)
        var problems = expectation.problems(with: step, from: before, isStart: isStart, definition: definition)
        switch step.kind {
        case .started, .transitioned, .finished: checkedLeaves = step.leaves
        case .ignored, .rejected: break
        }
        if settled {
            let now = context
            problems += expectation.contextProblems(before: checkedContext, after: now)
            checkedContext = now
        } else if expectation.statesContext {
            problems.append("the context is checked on the last step of the call, once everything queued has run: "
                + "state it with the last receive()")
        }
        guard !problems.isEmpty else { return }
        let text = "\(isStart ? "The start" : "The step") \(step) does not match the test:\n"
            + problems.map { "  - " + $0 }.joined(separator: "\n")
        Issue.record(Comment(rawValue: text), sourceLocation: sourceLocation)
    }
}

/// What a test states about one step of a ``FlowStepTester``; everything stated is checked, and what
/// happened but was not stated is reported.
public struct FlowStepExpectation<F: Flow>: Sendable where F.Effect: Equatable, F.Output: Equatable {
    private enum Outcome: String, Sendable {
        case transitioned, finished, ignored, rejected
    }

    private var state: F.State?
    private var leaves: [F.State]?
    private var active: [F.State] = []
    private var outcome: Outcome?
    private var effects: [F.Effect]?
    private var output: F.Output?
    private var transitions: [FlowTransitionID]?
    /// The stated context, as a check of the actual one (`nil`: it matches).
    private var contextCheck: (@Sendable (_ before: F.Context, _ after: F.Context) -> String?)?
    /// The fields stated with ``context(_:_:)``, applied in order to the context before the step.
    private var contextEdit: (@Sendable (inout F.Context) -> Void)?

    init() {}

    var statesContext: Bool { contextCheck != nil }

    /// Whether the test stated anything at all.
    var statesAnything: Bool {
        state != nil || leaves != nil || !active.isEmpty || outcome != nil || effects != nil || output != nil
            || transitions != nil || contextCheck != nil
    }

    /// The machine is in `state` after the step (a leaf state).
    public mutating func state(_ state: F.State) { self.state = state }

    /// The machine rests in exactly these leaves after the step, in declaration order (its
    /// `FlowStep.leaves`): in a flow with parallel states, one per active region. States the whole
    /// configuration, and so a change of any region.
    public mutating func leaves(_ leaves: [F.State]) { self.leaves = leaves }

    /// Each of `states` is active after the step (a leaf the machine rests in, or a state containing
    /// one: `FlowMachine.isActive(_:)`). Checks, without stating a change of state.
    public mutating func active(_ states: [F.State]) { active += states }

    /// The step took a transition (or finished) and the machine is in `state` after it.
    public mutating func transition(to state: F.State) {
        self.state = state
        if outcome == nil { outcome = .transitioned }
    }

    /// The step's effects are exactly `effects`, in order (`[]`: no effects).
    public mutating func effects(_ effects: [F.Effect]) { self.effects = effects }

    /// The step took exactly these transitions, in order (its `FlowStep.transitions`).
    public mutating func transitions(_ transitions: [FlowTransitionID]) { self.transitions = transitions }

    /// The flow finished with `output`.
    public mutating func finished(output: F.Output) {
        outcome = .finished
        self.output = output
    }

    /// No transition reacted to the event (a `FlowStep` of kind `ignored`).
    public mutating func ignored() { outcome = .ignored }

    /// Transitions reacted to the event but every guard was false (a `FlowStep` of kind `rejected`).
    public mutating func rejected() { outcome = .rejected }

    func problems(with step: FlowStep<F>, from before: [F.State], isStart: Bool, definition: FlowDefinition<F>) -> [String] {
        var problems: [String] = []
        let actualOutcome: Outcome?
        let actualOutput = step.output
        switch step.kind {
        case .started: actualOutcome = nil
        case .transitioned: actualOutcome = .transitioned
        case .finished: actualOutcome = .finished
        case .ignored: actualOutcome = .ignored
        case .rejected: actualOutcome = .rejected
        }
        if let outcome {
            let matches = outcome == actualOutcome || (outcome == .transitioned && actualOutcome == .finished)
            if !matches {
                problems.append("expected the event to be \(outcome.rawValue), but it was \(actualOutcome?.rawValue ?? "a start")")
            }
        }
        let actualLeaves = step.leaves
        if let state, state != step.state { problems.append("state: expected \(state), actual \(step.state)") }
        func list(_ states: [F.State]) -> String { "[" + states.map { "\($0)" }.joined(separator: ", ") + "]" }
        if let leaves, leaves != actualLeaves {
            problems.append("leaves: expected \(list(leaves)), actual \(list(actualLeaves))")
        }
        let changed = isStart || actualLeaves != before
        if changed, leaves == nil {
            if actualLeaves.count > 1 {
                // Several regions: the first leaf alone does not say what changed.
                problems.append("unstated change of the active leaves: \(isStart ? "started in" : "\(list(before)) ->") "
                    + "\(list(actualLeaves)) (state them with $0.leaves(\(list(actualLeaves))))")
            } else if state == nil {
                let from = before.count == 1 ? "\(before[0])" : list(before)
                problems.append("unstated state change: \(isStart ? "started in" : "\(from) ->") \(step.state) "
                    + "(state it with $0.state(\(step.state)))")
            }
        }
        if !active.isEmpty {
            let hierarchy = definition.hierarchy
            let positions = actualLeaves.compactMap { definition.position(of: $0) }
            for state in active {
                let isActive = definition.position(of: state).map { s in
                    positions.contains { hierarchy.isDescendantOrSelf($0, of: s) }
                } ?? false
                if !isActive { problems.append("expected \(state) to be active, but the active leaves are \(list(actualLeaves))") }
            }
        }
        let actualEffects = Array(step.effects)
        if let effects {
            if effects != actualEffects { problems.append(Self.diff(expected: effects, actual: actualEffects)) }
        } else if !actualEffects.isEmpty {
            problems.append("unstated effects: \(step.effects) (state them with $0.effects([...]))")
        }
        if let actualOutput {
            if let output {
                if output != actualOutput { problems.append("output: expected \(output), actual \(actualOutput)") }
            } else {
                problems.append("unstated finish with output \(actualOutput) (state it with $0.finished(output:))")
            }
        }
        if let transitions, transitions != Array(step.transitions) {
            problems.append("transitions: expected \(FlowTransitions(transitions)), actual \(step.transitions)")
        }
        return problems
    }

    func contextProblems(before: F.Context, after: F.Context) -> [String] {
        if let contextCheck { return contextCheck(before, after).map { [$0] } ?? [] }
        guard let changed = Self.differ(before, after), changed else { return [] }
        return ["unstated context change: \(before) -> \(after) (state it with $0.context(...))"]
    }

    /// Whether two contexts differ, when the context type is `Equatable` (`nil` otherwise).
    static func differ(_ a: F.Context, _ b: F.Context) -> Bool? {
        func differs<E: Equatable>(_ a: E, _ b: F.Context) -> Bool { (b as? E).map { $0 != a } ?? true }
        guard let a = a as? any Equatable else { return nil }
        return differs(a, b)
    }

    /// The two effect lists, and where they first differ.
    static func diff(expected: [F.Effect], actual: [F.Effect]) -> String {
        let shared = zip(expected, actual).prefix { $0 == $1 }.count
        func item(_ list: [F.Effect], _ i: Int) -> String { i < list.count ? "\(list[i])" : "nothing" }
        return """
            effects differ at position \(shared): expected \(item(expected, shared)), actual \(item(actual, shared))
                expected: \(FlowEffects(expected))
                  actual: \(FlowEffects(actual))
            """
    }
}

extension FlowStepExpectation where F.Context: Equatable & Sendable {
    /// The flow's context after the step is `context`. A change of an `Equatable` context that is
    /// not stated fails the test.
    public mutating func context(_ context: F.Context) {
        contextEdit = nil
        contextCheck = { _, actual in actual == context ? nil : "context: expected \(context), actual \(actual)" }
    }

    /// One field of the flow's context after the step is `value`, and every field not stated this
    /// way is as it was before the step: `$0.context(\.total, 3)`. State several fields with
    /// several calls.
    public mutating func context<Value: Equatable & Sendable>(_ field: WritableKeyPath<F.Context, Value> & Sendable,
                                                             _ value: Value) {
        let earlier = contextEdit
        let edit: @Sendable (inout F.Context) -> Void = { context in
            earlier?(&context)
            context[keyPath: field] = value
        }
        contextEdit = edit
        contextCheck = { before, actual in
            var expected = before
            edit(&expected)
            return expected == actual ? nil : "context: expected \(expected), actual \(actual)"
        }
    }
}
