import Flowstate
import PropertyBased
import Testing

@Suite("Delayed transitions against the SCXML reference")
struct DelayProperties {
    @Test("With delayed transitions, the engine agrees with the SCXML reference on every step and every timer: flat flows")
    func flatAgrees() async {
        await Self.agrees(Generators.delayFlows(parallel: false), count: 300)
    }

    @Test("With delayed transitions, the engine agrees with the SCXML reference on every step and every timer: parallel and history states")
    func parallelAgrees() async {
        await Self.agrees(Generators.delayFlows(parallel: true), count: 300)
    }

    /// Runs each flow in the engine and the reference on the same inputs: events, and timers fired
    /// from the engine's armed set (or, stale or not, from every timer armed so far); compares each
    /// step's outcome, the timers it armed and cancelled, the armed set and the configuration.
    static func agrees(_ flows: Generator<GeneratedFlow, some SendableSequenceType>, count: Int) async {
        await propertyCheck(count: count, input: flows, Generators.timedInputs) { flow, inputs in
            let definition = flow.definition
            #expect(definition.isValid, "\(definition.validate())\n\(flow)")
            guard definition.isValid else { return }
            let document = SCXMLReference(flow)
            func convert(_ timer: FlowTimer) -> SCXMLReference.Timer {
                SCXMLReference.Timer(state: definition.state(of: timer)!,
                                     transition: document.transition(at: timer.transition.position),
                                     generation: Int(timer.generation))
            }
            func convert(_ change: FlowTimerChange) -> SCXMLReference.TimerChange {
                switch change {
                case .arm(let timer, let delay):
                    #expect(delay == .seconds(flow.transitions[convert(timer).transition].delay ?? 0))
                    return .arm(convert(timer))
                case .cancel(let timer): return .cancel(convert(timer))
                }
            }
            var reference = document
            var machine = try FlowMachine(definition)
            var everArmed: [FlowTimer] = []
            var trace: [String] = ["start"]
            let steps: [(choice: Int, event: Gx.Event)?] = [nil] + inputs.map(Optional.some)
            for input in steps {
                let expected: SCXMLReference.Outcome
                let step: Result<FlowStep<Gx>, FlowError>
                let armed = machine.armedTimers
                if let input, input.choice == 0, !armed.isEmpty {
                    let timer = armed[input.event.payload % armed.count]
                    trace.append("fire \(timer)")
                    expected = reference.fire(convert(timer))
                    step = Result { () throws(FlowError) in try machine.fire(timer) }
                } else if let input, input.choice == 1, !everArmed.isEmpty {
                    let timer = everArmed[input.event.payload % everArmed.count]
                    trace.append("fire \(timer) (maybe stale)")
                    expected = reference.fire(convert(timer))
                    step = Result { () throws(FlowError) in try machine.fire(timer) }
                } else if let input {
                    trace.append("\(input.event)")
                    expected = reference.send(input.event)
                    step = Result { () throws(FlowError) in try machine.send(input.event) }
                } else {
                    expected = reference.start()
                    step = Result { () throws(FlowError) in try machine.start() }
                }
                let actual = SCXMLReference.Outcome(step)
                let context = "\(flow)\ninputs: \(trace.joined(separator: ", "))"
                #expect(actual == expected, "\(context)")
                guard actual == expected else { return }
                let changes = (try? step.get())?.timers ?? []
                #expect(changes.map(convert) == reference.timerChanges, "timers\n\(context)")
                #expect(machine.armedTimers.map(convert) == reference.armed, "armed\n\(context)")
                everArmed += changes.compactMap { if case .arm(let timer, _) = $0 { timer } else { nil } }
                if machine.isStarted && !machine.isFinished {
                    #expect(machine.configuration == reference.innermostFirst, "configuration\n\(context)")
                }
            }
            #expect(Array(machine.stop()) == reference.stopEffects(), "stop\n\(flow)")
            #expect(machine.armedTimers.isEmpty)
        }
    }
}
