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
    /// transitions. In a flow with parallel states the path is replayed and the engine asked: the
    /// states active after each step, and the targets of the transitions each step took. `false` when
    /// the path no longer replays on its definition (``replay()`` says why).
    public func visits(_ state: F.State) -> Bool {
        if definition.hierarchy.hasParallel { return replayVisits(state) }
        // A path exists only for a definition that started, so this machine can be made; its state
        // before start is the initial leaf.
        guard let initial = try? FlowMachine(definition).state else { return false }
        if configuration(of: initial).contains(state) { return true }
        var leaf = initial
        for step in [start] + steps {
            if definition.configurationChange(from: leaf, taking: step.transitions).entered.contains(state) {
                return true
            }
            leaf = step.state
        }
        return false
    }

    /// ``visits(_:)`` for a flow with parallel states: the path replayed on a fresh machine, asking
    /// the engine after each step whether `state` is active, and what the step entered (the states
    /// it reports entering, up to the completions it leaves to a driver, and its transitions'
    /// targets).
    private func replayVisits(_ state: F.State) -> Bool {
        guard let position = definition.position(of: state), var machine = try? FlowMachine(definition) else { return false }
        func entered(_ step: FlowStep<F>, _ microsteps: [FlowMicrostep]?) -> Bool {
            machine.isActive(state) || step.transitions.contains { definition[$0].targets.contains(state) }
                || (microsteps ?? []).contains { $0.actions.contains(.enter(position)) }
        }
        var probe = machine
        guard let started = try? machine.start() else { return false }
        if entered(started, try? probe.startReportingMicrosteps().microsteps) { return true }
        for expected in steps {
            if let timer = expected.timer {
                guard let step = try? machine.fire(timer) else { return false }
                if entered(step, nil) { return true }
                continue
            }
            guard let event = expected.event else { return false }
            probe = machine
            guard let step = try? machine.send(event) else { return false }
            if entered(step, try? probe.sendReportingMicrosteps(event).microsteps) { return true }
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
            throw FlowReplayError(step: 0, message: "the machine could not start: \(error)")
        }
        if let difference = Self.difference(expected: start, actual: started) {
            throw FlowReplayError(step: 0, message: "the start differs: \(difference)")
        }
        for (i, expected) in steps.enumerated() {
            if let timer = expected.timer {
                // A delayed transition's step: the same timer (same state, transition and generation,
                // as the replay arms the same timers in the same order) is fired again.
                let actual: FlowStep<F>
                do throws(FlowError) {
                    actual = try machine.fire(timer)
                } catch {
                    throw FlowReplayError(step: i + 1, message: "timer \(i + 1) (\(timer)) threw: \(error)")
                }
                if let difference = Self.difference(expected: expected, actual: actual) {
                    throw FlowReplayError(step: i + 1, message: "timer \(i + 1) (\(timer)): \(difference)")
                }
                continue
            }
            guard let event = expected.event else {
                throw FlowReplayError(step: i + 1, message: "step \(i + 1) has no event: \(expected)")
            }
            let actual: FlowStep<F>
            do throws(FlowError) {
                actual = try machine.send(event)
            } catch {
                throw FlowReplayError(step: i + 1, message: "event \(i + 1) (\(event)) threw: \(error)")
            }
            if let difference = Self.difference(expected: expected, actual: actual) {
                throw FlowReplayError(step: i + 1, message: "event \(i + 1) (\(event)): \(difference)")
            }
        }
        return machine
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
public struct FlowReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The step that differed: 0 for the start, then 1 for the first event.
    public var step: Int
    /// What differed.
    public var message: String

    /// Creates an error.
    public init(step: Int, message: String) {
        self.step = step
        self.message = message
    }

    /// The message.
    public var description: String { "replay differs at step \(step): \(message)" }
}
