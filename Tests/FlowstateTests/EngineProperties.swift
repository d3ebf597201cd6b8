import Flowstate
import PropertyBased
import Testing

@Suite("Engine properties")
struct EngineProperties {
    /// Runs a machine over events, recording each outcome (errors included) in the reference's terms.
    static func trace(_ definition: FlowDefinition<Gx>, _ events: [Gx.Event]) throws -> [ReferenceInterpreter.Outcome] {
        var machine = try FlowMachine(definition)
        var outcomes = [ReferenceInterpreter.Outcome(Result { () throws(FlowError) in try machine.start() })]
        for event in events {
            outcomes.append(ReferenceInterpreter.Outcome(Result { () throws(FlowError) in try machine.send(event) }))
        }
        return outcomes
    }

    @Test("The engine agrees with a naive reference interpreter on every step (effect order included)")
    func agreesWithReference() async {
        await propertyCheck(count: 300, input: Generators.numbers, Generators.events) { numbers, events in
            let flow = GeneratedFlow(numbers: numbers)
            let definition = flow.definition
            #expect(definition.isValid, "\(definition.validate())")
            var reference = ReferenceInterpreter(flow)
            let expected = [reference.start()] + events.map { reference.send($0) }
            let actual = try Self.trace(definition, events)
            #expect(actual == expected, "\(flow)\nevents: \(events)")
        }
    }

    @Test("Replaying the same events on the same definition gives the identical trace")
    func deterministic() async {
        await propertyCheck(count: 200, input: Generators.numbers, Generators.events) { numbers, events in
            let definition = GeneratedFlow(numbers: numbers).definition
            var first = try FlowMachine(definition)
            var second = try FlowMachine(definition)
            let a = [try? first.start()] + events.map { try? first.send($0) }
            let b = [try? second.start()] + events.map { try? second.send($0) }
            #expect(a == b)
            #expect(first.configuration == second.configuration)
        }
    }

    @Test("Every step's effects are exits innermost-first, then the transition's, then entries outermost-first")
    func effectOrder() async {
        await propertyCheck(count: 200, input: Generators.numbers, Generators.events) { numbers, events in
            let flow = GeneratedFlow(numbers: numbers, allowEventless: false)
            var machine = try FlowMachine(flow.definition)
            var configuration = Set<Int>()
            var pending = events[...]
            var next: FlowStep<Gx>? = try machine.start()
            while let step = next {
                defer { next = pending.popFirst().flatMap { try? machine.send($0) } }
                let effects = Array(step.effects)
                // Phases never go backwards: exit* transition? entry*.
                let phases = effects.map { effect -> Int in
                    switch effect { case .exit: 0; case .transition: 1; case .entry: 2 }
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
                    case .transition:
                        break
                    }
                }
                #expect(configuration == Set(machine.configuration), "\(step)")
            }
        }
    }

    @Test("A valid generated definition has no validation issue")
    func validHasNoIssue() async {
        await propertyCheck(count: 200, input: Generators.numbers) { numbers in
            let definition = GeneratedFlow.valid(numbers: numbers).definition
            #expect(definition.validate().isEmpty, "\(definition.validate())")
        }
    }

    @Test("Validation finds each kind of defect injected into a valid definition",
          arguments: [ValidationIssue.Kind.unknownTarget, .unreachableState, .deadEnd, .nondeterministicTransitions])
    func findsInjectedDefect(_ kind: ValidationIssue.Kind) async {
        await propertyCheck(count: 100, input: Generators.numbers) { numbers in
            var flow = GeneratedFlow.valid(numbers: numbers)
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
            let blocking = kind == .unknownTarget || kind == .nondeterministicTransitions
            #expect(flow.definition.isValid == !blocking)
        }
    }
}
