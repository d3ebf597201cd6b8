import Flowstate
import Testing

/// Checks invariants after every step of generated event sequences, and shrinks a failure to a short
/// counterexample printed as Swift code.
///
/// One line in a test checks an invariant after the start and after every step of `count` generated
/// sequences (see ``FlowGen/events(for:samples:length:unhandledRate:)`` for how they are generated):
///
/// ```swift
/// FlowCheck.everyStep(of: SignUp.definition, samples: samples) { machine, step in
///     machine.isFinished || machine.configuration.contains(.signingUp)
/// }
/// ```
///
/// The invariant returns `false` or throws to report a violation. Thrown `FlowError`s of the
/// machine are violations too, except `FlowError.Code.unhandledEvent` (the policy
/// `UnhandledEventPolicy.fail` says that an event the state does not react to throws; the machine is
/// unchanged and the sequence goes on). The events after the flow finishes are not sent.
///
/// To write the invariant with `#expect`, use swift-property-based's `propertyCheck` with
/// ``FlowGen/events(for:samples:length:unhandledRate:)`` and ``run(_:events:each:)`` instead:
/// `propertyCheck` hides the issues of the runs it shrinks.
public enum FlowCheck {
    /// Runs `events` on a fresh machine and checks the invariant after the start and after each step.
    /// - Parameters:
    ///   - definition: The flow.
    ///   - events: The events, in order.
    ///   - invariant: Returns `false` or throws when the machine or the step is wrong.
    /// - Returns: The violation, or `nil` when the invariant held after every step. The
    ///   counterexample holds the events up to the failing step, unshrunk.
    public static func violation<F: Flow>(
        of definition: FlowDefinition<F>, events: [F.Event],
        invariant: (FlowMachine<F>, FlowStep<F>) throws -> Bool
    ) -> FlowCounterexample<F>? {
        let run = execute(definition, events: events, invariant: invariant)
        guard let failure = run.failure else { return nil }
        return FlowCounterexample(events: Array(events.prefix(failure.step)), failingStep: failure.step,
                                  message: failure.message, unhandled: run.unhandled.filter { $0 < failure.step },
                                  originalLength: events.count, shrinkSteps: 0, seed: nil, tries: 1)
    }

    /// Generates up to `count` event sequences, checks the invariant after every step of each, and
    /// shrinks the first violation found to a short counterexample. Nothing is recorded: the caller
    /// decides what to do with the result (``everyStep(of:samples:count:length:unhandledRate:seed:definitionName:sourceLocation:invariant:)``
    /// records it as a test issue).
    /// - Parameters:
    ///   - definition: The flow.
    ///   - samples: The events to pick from, simplest first (shrinking prefers earlier ones).
    ///   - count: How many sequences to try.
    ///   - length: The range each sequence's length is drawn from (shorter when the flow finishes).
    ///   - unhandledRate: The probability of an event the current state does not react to.
    ///   - seed: The seed of the generator, to repeat a run; random when `nil`. The counterexample
    ///     says which seed found it.
    ///   - invariant: Returns `false` or throws when the machine or the step is wrong.
    /// - Returns: The shrunk counterexample, or `nil` when every sequence passed.
    public static func counterexample<F: Flow>(
        of definition: FlowDefinition<F>, samples: [F.Event], count: Int = 200, length: ClosedRange<Int> = 0...30,
        unhandledRate: Double = 0.1, seed: UInt64? = nil,
        invariant: (FlowMachine<F>, FlowStep<F>) throws -> Bool
    ) -> FlowCounterexample<F>? {
        let seed = seed ?? UInt64.random(in: .min ... .max)
        let sampler = EventSampler(definition, samples: samples)
        let lengths = max(0, length.lowerBound)...max(0, length.upperBound)
        let failing = { (positions: [Int]) -> [Int]? in
            execute(definition, events: sampler.events(positions), invariant: invariant).failure
                .map { Array(positions.prefix($0.step)) }
        }
        let draw = { (rng: inout SplitMix64) -> [Int] in
            sampler.generate(count: Int.random(in: lengths, using: &rng), unhandledRate: unhandledRate, using: &rng)
        }
        guard let found = SequenceSearch.firstFailing(count: count, seed: seed, draw: draw, failing: failing)
        else { return nil }
        let (best, rounds) = SequenceSearch.shrink(found.kept, shrinks: sampler.shrinks(of:), failing: failing)
        let events = sampler.events(best)
        let run = execute(definition, events: events, invariant: invariant)
        return FlowCounterexample(events: events, failingStep: run.failure?.step ?? best.count,
                                  message: run.failure?.message ?? "", unhandled: run.unhandled,
                                  originalLength: found.drawn.count, shrinkSteps: rounds, seed: seed,
                                  tries: found.tries)
    }

    /// Checks the invariant after every step of generated event sequences and records a test issue
    /// with the shrunk counterexample, as Swift code to paste into a regression test, when it fails.
    /// - Parameters:
    ///   - definition: The flow.
    ///   - samples: The events to pick from, simplest first.
    ///   - count: How many sequences to try.
    ///   - length: The range each sequence's length is drawn from (shorter when the flow finishes).
    ///   - unhandledRate: The probability of an event the current state does not react to.
    ///   - seed: The seed of the generator; random when `nil` (the issue says which one failed).
    ///   - definitionName: How the printed code names the definition, for example `SignUp.definition`.
    ///   - sourceLocation: Where the issue is reported: the caller's line by default.
    ///   - invariant: Returns `false` or throws when the machine or the step is wrong.
    /// - Returns: The counterexample, or `nil` when every sequence passed.
    @discardableResult
    public static func everyStep<F: Flow>(
        of definition: FlowDefinition<F>, samples: [F.Event], count: Int = 200, length: ClosedRange<Int> = 0...30,
        unhandledRate: Double = 0.1, seed: UInt64? = nil, definitionName: String = "definition",
        sourceLocation: SourceLocation = #_sourceLocation,
        invariant: (FlowMachine<F>, FlowStep<F>) throws -> Bool
    ) -> FlowCounterexample<F>? {
        guard let found = counterexample(of: definition, samples: samples, count: count, length: length,
                                         unhandledRate: unhandledRate, seed: seed, invariant: invariant)
        else { return nil }
        Issue.record(Comment(rawValue: found.report(definition: definitionName)), sourceLocation: sourceLocation)
        return found
    }

    /// ``everyStep(of:samples:count:length:unhandledRate:seed:definitionName:sourceLocation:invariant:)``
    /// for a flow whose events carry no payload: every kind the definition's transitions name is a sample.
    @discardableResult
    public static func everyStep<F: Flow>(
        of definition: FlowDefinition<F>, count: Int = 200, length: ClosedRange<Int> = 0...30,
        unhandledRate: Double = 0.1, seed: UInt64? = nil, definitionName: String = "definition",
        sourceLocation: SourceLocation = #_sourceLocation,
        invariant: (FlowMachine<F>, FlowStep<F>) throws -> Bool
    ) -> FlowCounterexample<F>? where F.Event == F.Event.Kind {
        everyStep(of: definition, samples: FlowIndex(definition).kinds, count: count, length: length,
                  unhandledRate: unhandledRate, seed: seed, definitionName: definitionName,
                  sourceLocation: sourceLocation, invariant: invariant)
    }

    /// Runs `events` on a fresh machine and calls `each` with the machine and the step after the start
    /// and after each step: the body of a `propertyCheck` over ``FlowGen/events(for:samples:length:unhandledRate:)``,
    /// where `each` uses `#expect`.
    ///
    /// Events after the flow finishes are not sent; an event refused as unhandled (under
    /// `UnhandledEventPolicy.fail`) leaves the machine unchanged and calls nothing.
    /// - Throws: What `each` throws, or the `FlowError` of a start or send that failed otherwise.
    public static func run<F: Flow>(
        _ definition: FlowDefinition<F>, events: [F.Event],
        each: (FlowMachine<F>, FlowStep<F>) throws -> Void
    ) throws {
        var machine = try FlowMachine(definition)
        try each(machine, try machine.start())
        for event in events where !machine.isFinished {
            do {
                let step = try machine.send(event)
                try each(machine, step)
            } catch let error as FlowError where error.code == .unhandledEvent {
                continue
            }
        }
    }

    // MARK: Running and shrinking

    struct Run {
        var failure: CheckFailure?
        /// Positions (from 0) of events whose send threw an unhandled-event error.
        var unhandled: [Int]
    }

    static func execute<F: Flow>(_ definition: FlowDefinition<F>, events: [F.Event],
                                 invariant: (FlowMachine<F>, FlowStep<F>) throws -> Bool) -> Run {
        var unhandled: [Int] = []
        var machine: FlowMachine<F>
        do {
            machine = try FlowMachine(definition)
            let step = try machine.start()
            if try !invariant(machine, step) {
                return Run(failure: CheckFailure(step: 0, message: "the invariant is false after the start: \(step)"),
                           unhandled: [])
            }
        } catch {
            return Run(failure: CheckFailure(step: 0, message: "the start failed: \(error)"), unhandled: [])
        }
        for (i, event) in events.enumerated() where !machine.isFinished {
            let step: FlowStep<F>
            do throws(FlowError) {
                step = try machine.send(event)
            } catch where error.code == .unhandledEvent {
                unhandled.append(i)
                continue
            } catch {
                return Run(failure: CheckFailure(step: i + 1, message: "event \(i + 1) threw: \(error)"),
                           unhandled: unhandled)
            }
            do {
                if try !invariant(machine, step) {
                    return Run(failure: CheckFailure(step: i + 1, message: "the invariant is false after event \(i + 1): \(step)"),
                               unhandled: unhandled)
                }
            } catch {
                return Run(failure: CheckFailure(step: i + 1, message: "the invariant threw after event \(i + 1) (\(step)): \(error)"),
                           unhandled: unhandled)
            }
        }
        return Run(failure: nil, unhandled: unhandled)
    }
}

/// An event sequence that breaks an invariant, shrunk, with the Swift code that replays it.
public struct FlowCounterexample<F: Flow>: Sendable {
    /// The events, up to and including the one whose step broke the invariant.
    public let events: [F.Event]
    /// The step that broke it: 0 for the start, `k` for the `k`-th event.
    public let failingStep: Int
    /// What went wrong at that step.
    public let message: String
    /// Positions in ``events`` (from 0) whose send threw an unhandled-event error.
    public let unhandled: [Int]
    /// How many events the sequence first found had.
    public let originalLength: Int
    /// How many times shrinking found a smaller failing sequence.
    public let shrinkSteps: Int
    /// The seed that found it (pass it to ``FlowCheck`` to find it again), when generated.
    public let seed: UInt64?
    /// How many sequences were tried before one failed.
    public let tries: Int

    /// The statements that replay the counterexample, for a regression test:
    ///
    /// ```swift
    /// var machine = try FlowMachine(SignUp.definition)
    /// _ = try machine.start()
    /// _ = try machine.send(.submitEmail("a@b.c"))
    /// ```
    /// - Parameters:
    ///   - definition: The Swift expression of the definition.
    ///   - event: Prints an event; ``FlowSwiftCode/expression(_:)`` by default.
    public func swiftCode(definition: String = "definition",
                          event: (F.Event) -> String = { FlowSwiftCode.expression($0) }) -> String {
        FlowSwiftCode.replay(events, definition: definition, throwing: Set(unhandled), event: event)
    }

    /// The failure, the seed and the code, as a test issue shows them.
    public func report(definition: String = "definition") -> String {
        let seedText = seed.map { " (seed \($0), after \(tries) sequence\(tries == 1 ? "" : "s"))" } ?? ""
        return """
            Invariant violated at step \(failingStep)\(seedText): \(message)
            Shrunk from \(originalLength) to \(events.count) event\(events.count == 1 ? "" : "s") \
            in \(shrinkSteps) step\(shrinkSteps == 1 ? "" : "s"). Regression test:

            \(swiftCode(definition: definition))
            """
    }
}

extension FlowCounterexample: CustomStringConvertible {
    /// ``report(definition:)`` with the definition named `definition`.
    public var description: String { report() }
}
