import Flowstate
import PropertyBased
import Testing

@Suite("Engine properties")
struct EngineProperties {
    @Test("The engine agrees with an SCXML reference interpreter on every step: state, effects, output, transitions taken, configuration, exits on stop")
    func agreesWithSCXML() async {
        await propertyCheck(count: 400, input: Generators.flows(), Generators.events) { flow, events in
            let definition = flow.definition
            #expect(definition.isValid, "\(definition.validate())")
            var reference = SCXMLReference(flow)
            // A transition's declaration is the one the document writes at its position.
            for (t, position) in reference.position.enumerated() {
                #expect(definition.transitions[position].effects == [flow.transitions[t].fails ? .boom : .transition(t)],
                        "declaration \(position) is not transition \(t)\n\(flow)")
            }
            var machine = try FlowMachine(definition)
            var reporting = machine
            for event in [nil] + events.map(Optional.some) {
                let expected = event.map { reference.send($0) } ?? reference.start()
                let step = Result { () throws(FlowError) in
                    if let event { try machine.send(event) } else { try machine.start() }
                }
                let actual = SCXMLReference.Outcome(step)
                #expect(actual == expected, "after \(event.map { "\($0)" } ?? "start")\n\(flow)\nevents: \(events)")
                // What the engine reports the step exited and entered is SCXML's exit and entry sets.
                let reported = Result { () throws(FlowError) in
                    if let event { try reporting.sendReportingMicrosteps(event) } else { try reporting.startReportingMicrosteps() }
                }
                if case .success(let report) = reported {
                    // The report numbers states by position; the reference by the flow's own numbers.
                    let states = definition.states.map(\.state)
                    #expect(report.microsteps.flatMap(\.exited).map { states[$0] } == reference.exited
                                && report.microsteps.flatMap(\.entered).map { states[$0] } == reference.entered,
                            "reported after \(event.map { "\($0)" } ?? "start"): \(report.microsteps)\n\(flow)\nevents: \(events)")
                }
                if machine.isStarted {
                    #expect(machine.configuration == reference.innermostFirst, "configuration\n\(flow)\nevents: \(events)")
                }
                guard actual == expected else { return }
            }
            #expect(Array(machine.stop()) == reference.stopEffects(), "stop\n\(flow)\nevents: \(events)")
        }
    }

    @Test("With parallel states, the engine agrees with the SCXML reference on every step: selection over every region, conflicts, exit and entry order, done.state, In guards, eventless fixed point, configuration, stop")
    func parallelAgreesWithSCXML() async {
        await parallelAgreesWithSCXML(Generators.parallelFlows(), count: 300)
    }

    @Test("Without eventless transitions (the engine's common step of parallel flows), every step matches SCXML's algorithm")
    func parallelCommonStepAgreesWithSCXML() async {
        await parallelAgreesWithSCXML(Generators.parallelFlows(allowEventless: false), count: 300)
    }

    func parallelAgreesWithSCXML(_ flows: Generator<GeneratedFlow, some SendableSequenceType>, count: Int) async {
        await propertyCheck(count: count, input: flows, Generators.events) { flow, events in
            let definition = flow.definition
            #expect(definition.isValid, "\(definition.validate())\n\(flow)")
            guard definition.isValid else { return }
            var reference = SCXMLReference(flow)
            var machine = try FlowMachine(definition)
            for event in [nil] + events.map(Optional.some) {
                let expected = event.map { reference.send($0) } ?? reference.start()
                let step = Result { () throws(FlowError) in
                    if let event { try machine.send(event) } else { try machine.start() }
                }
                let actual = SCXMLReference.Outcome(step)
                #expect(actual == expected, "after \(event.map { "\($0)" } ?? "start")\n\(flow)\nevents: \(events)")
                guard actual == expected else { return }
                if machine.isStarted && !machine.isFinished {
                    #expect(machine.configuration == reference.innermostFirst, "configuration\n\(flow)\nevents: \(events)")
                    for s in 0..<flow.count {
                        #expect(machine.isActive(s) == reference.innermostFirst.contains(s), "isActive(\(s))\n\(flow)")
                    }
                    if case .success(let step) = step {
                        #expect(step.leaves == reference.innermostFirst.reversed().filter { flow.children(of: $0).isEmpty })
                    }
                }
            }
            #expect(Array(machine.stop()) == reference.stopEffects(), "stop\n\(flow)\nevents: \(events)")
        }
    }

    @Test("With parallel states, a machine resumed in another's active leaves takes the same steps from there on")
    func parallelResumes() async {
        await propertyCheck(count: 200, input: Generators.parallelFlows(), Generators.events, Gen.int(in: 0...40)) { flow, events, cut in
            let cut = cut % (events.count + 1)
            let definition = flow.definition
            guard definition.isValid else { return }
            var original = try FlowMachine(definition)
            guard (try? original.start()) != nil else { return }
            for event in events.prefix(cut) { _ = try? original.send(event) }
            guard !original.isFinished else { return }
            let leaves = original.configuration.filter { flow.children(of: $0).isEmpty }
            var resumed = try FlowMachine(definition, resumingIn: leaves)
            #expect(resumed.configuration == original.configuration)
            for event in events.dropFirst(cut) {
                let a = Result { () throws(FlowError) in try original.send(event) }
                let b = Result { () throws(FlowError) in try resumed.send(event) }
                #expect(a == b, "\(flow)\nevents: \(events), resumed after \(cut)")
                #expect(resumed.configuration == original.configuration)
            }
            #expect(Array(resumed.stop()) == Array(original.stop()))
        }
    }

    @Test("The report of a step: a transition to an ancestor of its source exits and re-enters that ancestor, as the engine does")
    func reportToAncestor() throws {
        // 0 { 1 }, with 1 --e0--> 0: SCXML's domain is the root (the target is not a proper descendant
        // of any proper ancestor of 1 below it), so 1 and 0 are exited and 0 and 1 entered.
        let flow = GeneratedFlow(count: 2, parents: [-1, 0], finals: [],
                                 transitions: [.init(source: 1, event: 0, guardKind: 0, target: 0)])
        var machine = try FlowMachine(flow.definition)
        _ = try machine.startReportingMicrosteps()
        let (step, microsteps) = try machine.sendReportingMicrosteps(Gx.Event(kind: 0, payload: 0))
        #expect(Array(step.effects) == [.exit(1), .exit(0), .transition(0), .entry(0), .entry(1)])
        let states = flow.definition.states.map(\.state)
        #expect(microsteps.flatMap(\.exited).map { states[$0] } == [1, 0]
                    && microsteps.flatMap(\.entered).map { states[$0] } == [0, 1], "\(microsteps)")
    }

    @Test("A machine resumed where another one rests takes the same steps from there on")
    func resumesWhereItRests() async {
        await propertyCheck(count: 200, input: Generators.flows(), Generators.events, Gen.int(in: 0...40)) { flow, events, cut in
            let cut = cut % (events.count + 1)
            let definition = flow.definition
            var original = try FlowMachine(definition)
            guard (try? original.start()) != nil else { return }
            for event in events.prefix(cut) { _ = try? original.send(event) }
            guard !original.isFinished else { return }
            var resumed = try FlowMachine(definition, resumingIn: original.state)
            #expect(resumed.configuration == original.configuration)
            for event in events.dropFirst(cut) {
                let a = Result { () throws(FlowError) in try original.send(event) }
                let b = Result { () throws(FlowError) in try resumed.send(event) }
                #expect(a == b, "\(flow)\nevents: \(events), resumed after \(cut)")
                #expect(resumed.configuration == original.configuration)
            }
            #expect(Array(resumed.stop()) == Array(original.stop()))
        }
    }

    @Test("Every step's effects are exits innermost-first, then the transition's, then entries outermost-first")
    func effectOrder() async {
        await propertyCheck(count: 200, input: Generators.flows(allowEventless: false), Generators.events) { flow, events in
            var machine = try FlowMachine(flow.definition)
            var configuration = Set<Int>()
            var pending = events[...]
            var next: FlowStep<Gx>? = try machine.start()
            while let step = next {
                defer { next = pending.popFirst().flatMap { try? machine.send($0) } }
                let effects = Array(step.effects)
                // Phases never go backwards: exit* transition? entry*.
                let phases = effects.map { effect -> Int in
                    switch effect { case .exit: 0; case .transition, .boom: 1; case .entry: 2 }
                }
                #expect(phases == phases.sorted(), "\(step)")
                // Exits leave active states, innermost first; entries enter outermost first.
                for effect in effects {
                    switch effect {
                    case .exit(let s):
                        #expect(configuration.contains(s), "exit(\(s)) of an inactive state in \(step)")
                        #expect(!flow.children(of: s).contains { configuration.contains($0) }, "\(step)")
                        configuration.remove(s)
                    case .entry(let s):
                        #expect(!configuration.contains(s), "entry(\(s)) of an active state in \(step)")
                        #expect(flow.parents[s] < 0 || configuration.contains(flow.parents[s]), "\(step)")
                        configuration.insert(s)
                    case .transition, .boom:
                        break
                    }
                }
                #expect(configuration == Set(machine.configuration), "\(step)")
            }
        }
    }

    @Test("A valid generated definition has no validation issue")
    func validHasNoIssue() async {
        await propertyCheck(count: 200, input: Generators.validFlows) { flow in
            let definition = flow.definition
            #expect(definition.validate().isEmpty, "\(definition.validate())")
        }
    }

    @Test("Validation finds each kind of defect injected into a valid definition",
          arguments: [ValidationIssue.Kind.unknownTarget, .unreachableState, .deadEnd, .shadowedTransition])
    func findsInjectedDefect(_ kind: ValidationIssue.Kind) async {
        await propertyCheck(count: 100, input: Generators.validFlows) { flow in
            var flow = flow
            let first = flow.transitions[0]
            switch kind {
            case .unknownTarget:
                flow.transitions.append(.init(source: 0, event: 7, guardKind: 0, target: flow.count + 5))
            case .unreachableState:
                flow.parents.append(-1)
                flow.transitions.append(.init(source: flow.count, event: 0, guardKind: 0, target: 0))
                flow.count += 1
            case .deadEnd:
                flow.parents.append(-1)
                flow.transitions.append(.init(source: 0, event: 9, guardKind: 0, target: flow.count))
                flow.count += 1
            default:
                flow.transitions.append(first)
            }
            let issues = flow.definition.validate()
            #expect(issues.contains { $0.kind == kind }, "\(flow)\n\(issues)")
            #expect(issues.allSatisfy { $0.kind == kind }, "only the injected defect: \(issues)")
            let blocking = kind == .unknownTarget
            #expect(flow.definition.isValid == !blocking)
        }
    }
}
