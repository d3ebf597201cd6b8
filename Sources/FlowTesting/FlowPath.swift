import Flowstate

/// An event sequence from a machine's start, with what each step did: the events to send, the steps
/// the engine returned, the transitions they took.
///
/// The path finder (``FlowPathfinder``) builds paths by running real machines, so a path's steps are
/// what the engine does. ``replay()`` runs the events again on a fresh machine and checks that every
/// step takes the same transitions to the same state: a test can call it to make sure the definition
/// still behaves as when the path was found.
///
/// ```swift
/// let path = try #require(pathfinder.shortestPath(to: .twoFactor))
/// #expect(path.events == [.submitEmail("ada@example.com"), .submitPassword("correct horse")])
/// try path.replay()
/// ```
public struct FlowPath<F: Flow>: Sendable {
    /// The definition the path runs on.
    public let definition: FlowDefinition<F>
    /// The step `FlowMachine.start()` returned.
    public let start: FlowStep<F>
    /// The step each event caused, in order (never ignored or rejected: each step took a transition).
    public let steps: [FlowStep<F>]

    /// Creates a path from the steps a machine returned.
    /// - Parameters:
    ///   - definition: The definition the machine ran.
    ///   - start: The step of `FlowMachine.start()`.
    ///   - steps: The steps of the events sent after it, in order.
    public init(definition: FlowDefinition<F>, start: FlowStep<F>, steps: [FlowStep<F>]) {
        self.definition = definition
        self.start = start
        self.steps = steps
    }

    /// The events to send after starting, in order. A step of a delayed transition (`After`) has no
    /// event and is left out: ``timers`` lists what fired, ``replay()`` fires it again.
    public var events: [F.Event] { steps.compactMap(\.event) }

    /// The timers of delayed transitions the path fires, in order (each step's `FlowStep/timer`).
    public var timers: [FlowTimer] { steps.compactMap(\.timer) }

    /// The leaf state the machine is in at the end of the path (in a flow with parallel states, the
    /// first of ``leaves``).
    public var state: F.State { steps.last?.state ?? start.state }

    /// The leaf states the machine rests in at the end of the path: `[state]`, or, in a flow with
    /// parallel states, one per active region, in declaration order (the last step's `leaves`).
    public var leaves: [F.State] { (steps.last ?? start).leaves }

    /// The leaf state after the start, then after each event (one more element than ``events``).
    public var states: [F.State] { [start.state] + steps.map(\.state) }

    /// Whether the path ends in a final state.
    public var isFinished: Bool {
        (steps.last ?? start).kind == .finished
    }

    /// The active states at the end of the path, innermost first: the leaf and its ancestors; in a
    /// flow with parallel states, every leaf and ancestor, in reverse declaration order (as
    /// `FlowMachine.configuration` lists them).
    public var configuration: [F.State] {
        let leaves = self.leaves
        guard leaves.count > 1 else { return configuration(of: state) }
        var positions = Set<Int>()
        for leaf in leaves {
            guard let position = definition.position(of: leaf) else { continue }
            positions.formUnion(definition.hierarchy.ancestorsOrSelf(of: position))
        }
        let states = definition.states
        return positions.sorted(by: >).map { states[$0].state }
    }

    /// Every transition the path takes, in order: the start's eventless transitions, then each step's.
    public var transitions: [FlowTransitionID] { ([start] + steps).flatMap { Array($0.transitions) } }

    /// The transitions of each step: the start's first, then one entry per event.
    public var transitionsPerStep: [FlowTransitions] { ([start] + steps).map(\.transitions) }

    /// Whether the path is in `state` at its end (`state` is a leaf it rests in or one of their
    /// ancestors: `state` is active).
    public func ends(in state: F.State) -> Bool { configuration.contains(state) }

    /// Whether the path enters `state` at some point: the states active when the machine starts, and
    /// every state a step enters, including states that a step enters and leaves again by eventless
    /// transitions. The path is replayed on a fresh machine and the engine asked what each step
    /// entered (what a history state remembers included). `false` when the path no longer replays on
    /// its definition (``replay()`` says why).
    public func visits(_ state: F.State) -> Bool {
        guard let position = definition.position(of: state), var machine = try? FlowMachine(definition),
              let started = try? machine.startReportingMicrosteps(completions: .taken) else { return false }
        if started.microsteps.contains(where: { $0.entered.contains(position) }) { return true }
        for step in steps {
            let taken: (step: FlowStep<F>, microsteps: [FlowMicrostep])?
            if let timer = step.timer {
                taken = try? machine.fireReportingMicrosteps(Self.armedTimer(like: timer, in: machine), completions: .taken)
            } else if let event = step.event {
                taken = try? machine.sendReportingMicrosteps(event, completions: .taken)
            } else {
                return false
            }
            guard let taken else { return false }
            if taken.microsteps.contains(where: { $0.entered.contains(position) }) { return true }
        }
        return false
    }

    private func configuration(of leaf: F.State) -> [F.State] {
        guard let position = definition.position(of: leaf) else { return [leaf] }
        let states = definition.states
        return definition.hierarchy.ancestorsOrSelf(of: position).map { states[$0].state }
    }

    /// Runs the path again on a fresh machine and checks that every step takes the same transitions
    /// to the same state, with the same outcome (transitioned or finished).
    /// - Returns: The machine at the end of the path, for further checks.
    /// - Throws: ``FlowReplayError`` naming the first step that differs, or the error the machine threw.
    @discardableResult
    public func replay() throws(FlowReplayError) -> FlowMachine<F> {
        var machine: FlowMachine<F>
        let started: FlowStep<F>
        do throws(FlowError) {
            machine = try FlowMachine(definition)
            started = try machine.start()
        } catch {
            throw FlowReplayError(.startFailed, step: 0, message: "the machine could not start: \(error)")
        }
        if let difference = Self.difference(expected: start, actual: started) {
            throw FlowReplayError(step: 0, message: "the start differs: \(difference)")
        }
        for (i, expected) in steps.enumerated() {
            // A delayed transition's step fires its state's timer for the same transition again (its
            // generation may differ: a path finder's path may reach the state by another route than
            // the one that recorded the step); any other sends its event.
            let what: String
            let result: Result<FlowStep<F>, FlowError>
            if let recorded = expected.timer {
                what = "timer \(i + 1) (\(recorded))"
                let timer = Self.armedTimer(like: recorded, in: machine)
                result = Result { () throws(FlowError) in try machine.fire(timer) }
            } else if let event = expected.event {
                what = "event \(i + 1) (\(event))"
                result = Result { () throws(FlowError) in try machine.send(event) }
            } else {
                throw FlowReplayError(.noEvent, step: i + 1, message: "step \(i + 1) has no event: \(expected)")
            }
            let actual: FlowStep<F>
            switch result {
            case .success(let step): actual = step
            case .failure(let error): throw FlowReplayError(.stepThrew, step: i + 1, message: "\(what) threw: \(error)")
            }
            if let difference = Self.difference(expected: expected, actual: actual) {
                throw FlowReplayError(step: i + 1, message: "\(what): \(difference)")
            }
        }
        return machine
    }

    /// The timer `machine` has armed for the state and transition of `timer` (a recorded step's),
    /// whatever its generation; `timer` itself when there is none (firing it is then ignored).
    static func armedTimer(like timer: FlowTimer, in machine: FlowMachine<F>) -> FlowTimer {
        machine.armedTimers.first { $0.state == timer.state && $0.transition == timer.transition } ?? timer
    }

    /// What differs between two steps, in words, or `nil` when they take the same transitions to the
    /// same state with the same outcome.
    static func difference(expected: FlowStep<F>, actual: FlowStep<F>) -> String? {
        if outcome(of: expected) != outcome(of: actual) {
            return "expected \(outcome(of: expected)) (\(expected)), got \(outcome(of: actual)) (\(actual))"
        }
        if expected.state != actual.state {
            return "expected to end in \(expected.state), ended in \(actual.state)"
        }
        if expected.leaves != actual.leaves {
            return "expected to end in \(expected.leaves), ended in \(actual.leaves)"
        }
        if expected.transitions != actual.transitions {
            return "expected transitions \(expected.transitions), took \(actual.transitions)"
        }
        return nil
    }

    static func outcome(of step: FlowStep<F>) -> String {
        step.kind.description
    }
}

extension FlowPath: CustomStringConvertible {
    /// The path as one line per step, for example `start --> email`, then `email --back--> password`.
    public var description: String {
        ([start] + steps).map(\.description).joined(separator: "\n")
    }
}

/// A path whose replay on a fresh machine did not do what the path recorded.
///
/// It has the one shape of the package's errors: a ``code`` to match on, and read-only fields.
public struct FlowReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a value to match on. The set of codes can grow.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Backing: String, Hashable, Sendable {
            case diverged
            case startFailed = "start-failed"
            case stepThrew = "step-threw"
            case noEvent = "no-event"
        }

        private let backing: Backing
        private init(_ backing: Backing) { self.backing = backing }

        /// The machine took a different step from the one the path recorded.
        public static let diverged = Code(.diverged)
        /// The machine could not start.
        public static let startFailed = Code(.startFailed)
        /// The engine threw on a step the path recorded as taken.
        public static let stepThrew = Code(.stepThrew)
        /// A step of the path has no event to send.
        public static let noEvent = Code(.noEvent)

        /// The code's stable name, kebab-case (`start-failed`).
        public var description: String { backing.rawValue }
    }

    /// What went wrong.
    public let code: Code
    /// The step that differed: 0 for the start, then 1 for the first event.
    public let step: Int
    /// What differed.
    public let message: String

    /// Creates an error.
    public init(_ code: Code = .diverged, step: Int, message: String) {
        self.code = code
        self.step = step
        self.message = message
    }

    /// The message.
    public var description: String { "replay differs at step \(step): \(message)" }
}
