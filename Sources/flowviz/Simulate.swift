import ArgumentParser
import FlowGraph
import FlowSpec
import Foundation

/// `flowviz simulate FILE --events a,b,c`
struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a flow file on the Flowstate engine and supervisor, one event at a time.",
        discussion: """
        Each step is printed, then the final configuration (the active state and its ancestors) and \
        the machines alive. An event may say which guards hold for its step: submit[valid email, !locked]. \
        A step "wait 30s" (units ms, s, min, h) lets virtual time pass: the delayed transitions and \
        delayed events due by then fire, each line saying when. \
        Without --events, events are read from standard input, one a line.

        A document that keeps itself busy stops with one line at the first limit it passes: 10,000 \
        internal events in one macrostep, --max-steps steps (default 100,000, all machines together), \
        or --time-limit seconds of processing (default 10, measured on the monotonic clock and checked \
        between steps; 0: no time limit).

        With --strict, an event no machine takes fails the run, and so does a child flow's output \
        that its parent takes no transition on (a JSON spec's state says which event each output \
        becomes with "outputs"; one the parent ignores is usually a renamed output or event).

        Exit status: 0 done; 1 an event was not handled (with --strict), or the flow raises events in \
        a loop or passes a limit; 2 a file cannot be read or parsed; 3 the flow uses what simulate \
        does not run (history states; SCXML's data, scripts, invocations that need a data model, an \
        eventless transition without a target, a document without states: one line names the first) \
        or a child flow is missing; 64 the command line is wrong.

        Example: flowviz simulate docs/flows/specs/sign-up.json --events submitEmail,submitPassword --trace-out run.trace.json
        """
    )

    @Argument(help: "The flow file (JSON flow spec or SCXML).", completion: .file(extensions: ["json", "scxml"]))
    var file: String

    @Option(help: "The events, separated by commas; each may carry guard truths in brackets.")
    var events: String?

    @Option(name: .customLong("guard"), help: "A guard's default truth for every step, as NAME=true or NAME=false (repeatable).")
    var guards: [String] = []

    @Flag(help: "Fail when an event, or a child flow's output, is not handled.")
    var strict = false

    @Option(help: "Write the root machine's trace here, for render --trace.")
    var traceOut: String?

    @Option(help: ArgumentHelp("Stop the run after this many seconds of processing (0: no limit).", valueName: "seconds"))
    var timeLimit: Double = 10

    @Option(help: ArgumentHelp("Stop the run after this many steps, all machines together.", valueName: "steps"))
    var maxSteps: Int = FlowSimulation.defaultStepLimit

    func validate() throws {
        guard timeLimit.isFinite, timeLimit >= 0 else {
            throw ValidationError("--time-limit must be a number of seconds, 0 or more (0: no limit)")
        }
        guard maxSteps > 0 else { throw ValidationError("--max-steps must be a number of steps, 1 or more") }
        _ = try guardDefaults(guards)
    }

    func run() async throws {
        let flow = try DiskFile.open(file)
        try flow.refuseWhatIsNotRun()
        try flow.requireValid(orExit: 1)
        let text: String
        if let events {
            text = events
        } else {
            var lines: [String] = []
            while let line = readLine() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty && !trimmed.hasPrefix("#") { lines.append(trimmed) }
            }
            text = lines.joined(separator: ",")
        }
        let list = try inputList(text)
        let simulation = try flow.simulation(guards: guardDefaults(guards))
        if timeLimit > 0 { simulation.timeLimit = .seconds(timeLimit) }
        simulation.stepLimit = maxSteps
        var printed = 0
        func flush() {
            for record in simulation.records[printed...] { print(record.description) }
            printed = simulation.records.count
        }
        var failure: FlowSimulation.Problem?
        do {
            try simulation.start()
            flush()
            for input in list {
                try simulation.perform(input)
                flush()
            }
            // Then the delayed events still waiting, on virtual time: each line says when it fired.
            try simulation.runDelayedEvents()
            flush()
        } catch {
            flush()
            failure = error
        }
        print("configuration: " + simulation.configuration.joined(separator: " < "))
        if simulation.machines.count > 1 {
            print("machines:")
            simulation.machines.forEach { print("  " + $0) }
        }
        if let traceOut {
            do {
                try Data(simulation.trace.json().utf8).write(to: URL(fileURLWithPath: traceOut))
            } catch {
                report("\(traceOut): error: cannot write: \(error.localizedDescription)")
                throw ExitCode(2)
            }
        }
        if let failure {
            report(failure.description.hasPrefix("error:") ? "\(file): \(failure.description)" : failure.description)
            throw ExitCode(1)
        }
        if strict, !simulation.unhandledEvents.isEmpty || !simulation.unhandledOutputs.isEmpty {
            for output in simulation.unhandledOutputs { report("\(file): error: \(output)") }
            for event in simulation.unhandledEvents {
                // The root's own line for it (`wide ignores nothing`), else what no machine did.
                let line = simulation.records.last {
                    if case .unhandled([], _, let name, _) = $0 { name == event.description } else { false }
                }
                report("\(file): error: " + (line?.description ?? "no machine took event '\(event)'"))
            }
            throw ExitCode(1)
        }
    }
}
