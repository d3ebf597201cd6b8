import Flowstate
import Testing

/// Checks invariants after every command of generated command sequences on a `Supervisor` tree, and
/// shrinks a failure to a short counterexample printed as Swift code.
///
/// One line checks an invariant after every command of `count` generated sequences
/// (``FlowGen/supervisorCommands(for:length:)``), on a tree running the flows of a
/// ``SupervisorUniverse``:
///
/// ```swift
/// SupervisorCheck.everyCommand(of: universe) { supervisor, events in
///     supervisor.machines.allSatisfy { $0.depth < 4 }
/// }
/// ```
///
/// The invariant gets the supervisor and the tree events the command caused; it returns `false` or
/// throws to report a violation. Besides it, the kit checks its own laws after every command: the
/// tree's structure (every machine's parent alive and listing it once, every live machine reachable,
/// nothing left mid-teardown), and that a snapshot restores to the same tree without its dynamic
/// children. Each run uses a supervisor whose restart windows are measured with a clock that stands
/// still, so runs repeat exactly.
///
/// To write the invariant with `#expect`, give ``FlowGen/supervisorCommands(for:length:)`` to
/// swift-property-based's `propertyCheck` and run each sequence with ``run(_:commands:each:)``.
public enum SupervisorCheck {
    /// Runs `commands` on a new tree of `universe` (its root started first, and again whenever the
    /// tree is empty) and calls `each` after every command: the body of a `propertyCheck`, and the
    /// code a counterexample prints for a regression test.
    /// - Parameters:
    ///   - universe: The flows.
    ///   - commands: The commands, in order.
    ///   - each: Called after every command with the supervisor (a new one after a snapshot is
    ///     restored) and the tree events the command caused.
    /// - Throws: What `each` throws, or a description of a broken law of the kit (the tree's
    ///   invariants, a snapshot that does not restore to the same tree) or of a root that cannot start.
    public static func run(_ universe: SupervisorUniverse, commands: [SupervisorCommand],
                           each: (Supervisor, [TreeEvent]) throws -> Void = { _, _ in }) throws {
        try run(universe, calls: commands.map(SupervisorCall.command), each: each)
    }

    /// Runs `calls` on a new tree of `universe` as ``run(_:commands:each:)`` runs commands: commands
    /// made at once, and commands armed to be made from inside a step or from an observer
    /// (``SupervisorCall``), as an app's handlers and observers call the supervisor. `each` is called
    /// after every call, with the tree events it caused (those of the armed commands it set off
    /// included).
    /// - Parameters:
    ///   - universe: The flows.
    ///   - calls: The calls, in order.
    ///   - each: Called after every call with the supervisor (a new one after a snapshot is
    ///     restored) and the tree events the call caused.
    /// - Throws: What `each` throws, or a description of a broken law of the kit or of a root that
    ///   cannot start.
    public static func run(_ universe: SupervisorUniverse, calls: [SupervisorCall],
                           each: (Supervisor, [TreeEvent]) throws -> Void = { _, _ in }) throws {
        let run = try SupervisorRun(universe)
        _ = run.takeEvents()
        for call in calls {
            _ = try run.execute(call)
            try each(run.supervisor, run.takeEvents())
        }
    }

    /// Generates up to `count` command sequences, checks the invariant after every command, and
    /// shrinks the first violation to a short counterexample. Nothing is recorded.
    /// - Parameters:
    ///   - universe: The flows.
    ///   - count: How many sequences to try.
    ///   - length: The range each sequence's length is drawn from.
    ///   - seed: The seed of the generator, to repeat a run; random when `nil`.
    ///   - invariant: Returns `false` or throws when the tree is wrong.
    /// - Returns: The shrunk counterexample, or `nil` when every sequence passed.
    public static func counterexample(
        of universe: SupervisorUniverse, count: Int = 100, length: ClosedRange<Int> = 1...30, seed: UInt64? = nil,
        invariant: (Supervisor, [TreeEvent]) throws -> Bool
    ) -> SupervisorCounterexample? {
        let seed = seed ?? UInt64.random(in: .min ... .max)
        let lengths = max(0, length.lowerBound)...max(0, length.upperBound)
        // The commands as run pick the same numbers, made as small as they can be: what is kept.
        let failing = { (commands: [SupervisorCommand]) -> [SupervisorCommand]? in
            let outcome = execute(universe, commands, invariant)
            return outcome.failure.map { Array(outcome.normalized.prefix($0.step)) }
        }
        let draw = { (rng: inout SplitMix64) -> [SupervisorCommand] in
            (0..<Int.random(in: lengths, using: &rng)).map { _ in
                SupervisorCommand.random(flows: universe.flows.count, using: &rng)
            }
        }
        guard let found = SequenceSearch.firstFailing(count: count, seed: seed, draw: draw, failing: failing)
        else { return nil }
        let (best, rounds) = SequenceSearch.shrink(found.kept, shrinks: SupervisorCommand.shrinks(of:), failing: failing)
        let final = execute(universe, best, invariant)
        return SupervisorCounterexample(commands: best, done: final.done, failingCommand: final.failure?.step ?? best.count,
                                        message: final.failure?.message ?? "", originalLength: found.drawn.count,
                                        shrinkSteps: rounds, seed: seed, tries: found.tries)
    }

    /// Checks the invariant after every command of generated sequences and records a test issue with
    /// the shrunk counterexample, as Swift code to paste into a regression test, when it fails.
    /// - Parameters:
    ///   - universe: The flows.
    ///   - count: How many sequences to try.
    ///   - length: The range each sequence's length is drawn from.
    ///   - seed: The seed of the generator; random when `nil` (the issue says which one failed).
    ///   - universeName: How the printed code names the universe.
    ///   - sourceLocation: Where the issue is reported: the caller's line by default.
    ///   - invariant: Returns `false` or throws when the tree is wrong; by default, only the kit's
    ///     laws are checked.
    /// - Returns: The counterexample, or `nil` when every sequence passed.
    @discardableResult
    public static func everyCommand(
        of universe: SupervisorUniverse, count: Int = 100, length: ClosedRange<Int> = 1...30, seed: UInt64? = nil,
        universeName: String = "universe", sourceLocation: SourceLocation = #_sourceLocation,
        invariant: (Supervisor, [TreeEvent]) throws -> Bool = { _, _ in true }
    ) -> SupervisorCounterexample? {
        guard let found = counterexample(of: universe, count: count, length: length, seed: seed, invariant: invariant)
        else { return nil }
        Issue.record(Comment(rawValue: found.report(universe: universeName)), sourceLocation: sourceLocation)
        return found
    }

    // MARK: Running and shrinking

    struct Outcome {
        var failure: CheckFailure?
        /// What each command did, up to the failing one.
        var done: [String]
        /// The commands run, each with the numbers it picked (the same run, with the smallest numbers).
        var normalized: [SupervisorCommand] = []
    }

    static func execute(_ universe: SupervisorUniverse, _ commands: [SupervisorCommand],
                        _ invariant: (Supervisor, [TreeEvent]) throws -> Bool) -> Outcome {
        let run: SupervisorRun
        do {
            run = try SupervisorRun(universe)
        } catch {
            return Outcome(failure: CheckFailure(step: 0, message: error.description), done: [])
        }
        _ = run.takeEvents()
        var outcome = Outcome(failure: nil, done: [])
        for (i, command) in commands.enumerated() {
            do {
                outcome.done.append(try run.execute(command))
                outcome.normalized.append(run.normalized)
            } catch {
                outcome.done.append("(\(error.description))")
                outcome.normalized.append(run.normalized)
                outcome.failure = CheckFailure(step: i + 1, message: "after command \(i + 1): \(error.description)")
                return outcome
            }
            do {
                if try !invariant(run.supervisor, run.takeEvents()) {
                    outcome.failure = CheckFailure(step: i + 1, message: "the invariant is false after command \(i + 1)")
                    return outcome
                }
            } catch {
                outcome.failure = CheckFailure(step: i + 1, message: "the invariant threw after command \(i + 1): \(error)")
                return outcome
            }
        }
        return outcome
    }
}

/// A command sequence that breaks an invariant, shrunk, with the Swift code that replays it.
public struct SupervisorCounterexample: Sendable {
    /// The commands, up to and including the one after which the invariant broke.
    public let commands: [SupervisorCommand]
    /// What each command did (the machines it picked, the event it sent, what it tore down...).
    public let done: [String]
    /// The command after which it broke: 0 when the root could not start, `k` for the `k`-th.
    public let failingCommand: Int
    /// What went wrong.
    public let message: String
    /// How many commands the sequence first found had.
    public let originalLength: Int
    /// How many times shrinking found a smaller failing sequence.
    public let shrinkSteps: Int
    /// The seed that found it (pass it to ``SupervisorCheck`` to find it again), when generated.
    public let seed: UInt64?
    /// How many sequences were tried before one failed.
    public let tries: Int

    /// The statement that replays the counterexample, for a regression test: one command a line, each
    /// with what it did as a comment.
    ///
    /// ```swift
    /// try SupervisorCheck.run(universe, commands: [
    ///     .spawn(flow: 1, under: 0, policy: 2),  // spawn 'child' #2 under #1 'parent' with restart(...)
    ///     .fail(machine: 1),  // #2 'child' will fail at its next effect
    /// ]) { supervisor, events in
    ///     // the invariant
    /// }
    /// ```
    /// - Parameter universe: The Swift expression of the universe.
    public func swiftCode(universe: String = "universe") -> String {
        var lines = ["try SupervisorCheck.run(\(universe), commands: ["]
        for (i, command) in commands.enumerated() {
            lines.append("    \(command),  // " + (i < done.count ? done[i] : ""))
        }
        lines.append("]) { supervisor, events in")
        lines.append("    // the invariant")
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The failure, the seed and the code, as a test issue shows them.
    public func report(universe: String = "universe") -> String {
        let seedText = seed.map { " (seed \($0), after \(tries) sequence\(tries == 1 ? "" : "s"))" } ?? ""
        return """
            Invariant violated\(seedText): \(message)
            Shrunk from \(originalLength) to \(commands.count) command\(commands.count == 1 ? "" : "s") \
            in \(shrinkSteps) step\(shrinkSteps == 1 ? "" : "s"). Regression test:

            \(swiftCode(universe: universe))
            """
    }
}

extension SupervisorCounterexample: CustomStringConvertible {
    /// ``report(universe:)`` with the universe named `universe`.
    public var description: String { report() }
}
