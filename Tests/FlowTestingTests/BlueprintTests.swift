import Flowstate
import FlowTesting
import PropertyBased
import Testing

@Suite("Generated definitions")
struct BlueprintTests {
    static let generator = FlowGen.definitions(states: 1...10, events: 3, maxDepth: 3)

    /// The state a validation message is about: the first quoted name.
    static func subject(of issue: ValidationIssue) -> String? {
        let parts = issue.message.split(separator: "'", omittingEmptySubsequences: false)
        return parts.count > 1 ? String(parts[1]) : nil
    }

    @Test("A generated definition has no validation error and declares exactly the blueprint")
    func matchesBlueprint() async {
        await propertyCheck(count: 300, input: Self.generator) { blueprint in
            let definition = blueprint.definition
            #expect(definition.isValid, "\(blueprint)\n\(definition.validate())")
            #expect(definition.states.map(\.state) == blueprint.states.indices.map(FlowBlueprint.name(of:)))
            for (i, state) in blueprint.states.enumerated() {
                let declaration = definition.states[i]
                #expect(declaration.parent == state.parent.map(FlowBlueprint.name(of:)))
                #expect((declaration.kind == .final) == state.isFinal)
            }
            #expect(definition.transitions.count == blueprint.transitions.count)
            for (i, transition) in zip(blueprint.transitions.indices, blueprint.transitions)
            where i < definition.transitions.count {
                let declaration = definition[FlowTransitionID(position: i)]
                #expect(declaration.source == FlowBlueprint.name(of: transition.source))
                #expect(declaration.target == transition.target.map(FlowBlueprint.name(of:)))
                #expect(declaration.event?.name == transition.event)
                #expect((declaration.guardLabel == nil) == (transition.guardRule == nil))
                #expect(declaration.effectLabels == ["t\(i)"])
            }
        }
    }

    @Test("The path finder misses no state a random run settles in, and its paths replay")
    func pathfinderIsComplete() async {
        await propertyCheck(count: 200, input: Self.generator, Gen.int(in: 0...1_000).array(of: 0...30)) { blueprint, picks in
            let definition = blueprint.definition
            let pathfinder = try FlowPathfinder(definition)
            #expect(pathfinder.isComplete)
            for path in pathfinder.shortestPaths.values { try path.replay() }
            for path in pathfinder.transitionCover().paths { try path.replay() }
            // A random run over the flow's events: every state it settles in was found, no sooner.
            let events = blueprint.events
            guard !events.isEmpty else { return }
            var machine = try FlowMachine(definition)
            _ = try machine.start()
            var count = 0
            for pick in picks where !machine.isFinished {
                _ = try machine.send(SpecEvent(events[pick % events.count]))
                count += 1
                for state in machine.configuration {
                    let path = pathfinder.shortestPath(to: state)
                    #expect(path != nil, "\(state) settled after \(count) events, not found: \(blueprint)")
                    #expect((path?.events.count ?? 0) <= count)
                }
            }
        }
    }

    @Test("Unreachable with no path is exactly what validation calls unreachable")
    func noPathAgreesWithValidation() async {
        await propertyCheck(count: 300, input: Self.generator) { blueprint in
            let definition = blueprint.definition
            let pathfinder = try FlowPathfinder(definition)
            let noPath = Set(definition.states.map(\.state).filter { pathfinder.reachability(of: $0).reason == .noPath })
            let unreachable = Set(definition.validate().filter { $0.kind == .unreachableState }.compactMap(Self.subject))
            #expect(noPath == unreachable, "\(blueprint)")
            for state in definition.states.map(\.state) where !noPath.contains(state) {
                #expect(pathfinder.reachability(of: state).reason != .noPath)
            }
        }
    }

    @Test("Every shrink candidate is still free of errors and strictly smaller")
    func shrinksStayValid() async {
        await propertyCheck(count: 100, input: Self.generator) { blueprint in
            func size(_ b: FlowBlueprint) -> [Int] {
                [b.states.count, b.transitions.count, b.transitions.filter { $0.guardRule != nil }.count]
            }
            for candidate in blueprint.shrinks() {
                #expect(candidate.definition.isValid, "\(blueprint) -> \(candidate): \(candidate.definition.validate())")
                #expect(size(candidate).lexicographicallyPrecedes(size(blueprint)), "\(blueprint) -> \(candidate)")
                var machine = try FlowMachine(candidate.definition)
                _ = try machine.start()  // no eventless loop
            }
        }
    }

    /// Shrinks a failing blueprint as swift-property-based does: the first smaller candidate that
    /// still fails, until none does.
    static func minimize(_ blueprint: FlowBlueprint, failing: (FlowBlueprint) -> Bool) -> FlowBlueprint {
        var best = blueprint
        var improved = true
        while improved {
            improved = false
            for candidate in best.shrinks() where failing(candidate) {
                best = candidate
                improved = true
                break
            }
        }
        return best
    }

    @Test("A wrong claim about generated definitions shrinks to a counterexample of at most two states")
    func wrongClaimShrinks() throws {
        // The claim: "no flow can finish". Wrong as soon as a final state is reachable.
        func canFinish(_ blueprint: FlowBlueprint) -> Bool {
            guard let pathfinder = try? FlowPathfinder(blueprint.definition) else { return false }
            return pathfinder.reachableStates.contains { blueprint.definition.declaration(of: $0)?.kind == .final }
        }
        var rng = Xoshiro(seed: (11, 12, 13, 14))
        var failures = 0
        for _ in 0..<200 {
            let blueprint = Self.generator.run(using: &rng)
            guard canFinish(blueprint) else { continue }
            failures += 1
            let minimal = Self.minimize(blueprint, failing: canFinish)
            // The smallest flows that finish: a final initial state (shrinking may remove the
            // compound around it), a compound whose first child is final, or one transition to a final.
            #expect(minimal.states.count <= 2, "\(blueprint) -> \(minimal)")
            #expect(minimal.transitions.count <= 1 && minimal.transitions.allSatisfy { $0.guardRule == nil })
            let sibling = minimal.transitions.count == 1 && minimal.description.hasPrefix("s0 s1! | s0 -")
                && minimal.description.hasSuffix("-> s1")
            #expect(["s0! | ", "s0{s1!} | "].contains(minimal.description) || sibling, "\(blueprint) -> \(minimal)")
        }
        #expect(failures > 10)
    }

    @Test("The printed Swift builds the same definition")
    func swiftCode() throws {
        let blueprint = FlowBlueprint(
            states: [.init(), .init(parent: 0), .init(parent: 0), .init(isFinal: true)],
            transitions: [
                .init(source: 1, event: "a", target: 2),
                .init(source: 0, event: nil, guardRule: .inStates([2]), target: 3),
                .init(source: 2, event: "b", guardRule: .never, target: nil),
                .init(source: 2, event: "b", target: 1),
            ])
        #expect(blueprint.description == "s0{s1 s2} s3! | s0 -ε[in s2]-> s3, s1 -a-> s2, s2 -b[never]-> ·, s2 -b-> s1")
        #expect(blueprint.swiftCode == """
            FlowDefinition<StringFlow>("generated", initial: "s0") {
                StateNode("s0", entry: ["entry s0"], exit: ["exit s0"]) {
                    Always(guard: Guard("in s2", evaluate: { state, _ in ["s2"].contains(state) }), to: "s3", effects: ["t0"])
                    StateNode("s1", entry: ["entry s1"], exit: ["exit s1"]) {
                        On("a", to: "s2", effects: ["t1"])
                    }
                    StateNode("s2", entry: ["entry s2"], exit: ["exit s2"]) {
                        On("b", guard: Guard("never", condition: { false }), to: nil, effects: ["t2"])
                        On("b", to: "s1", effects: ["t3"])
                    }
                }
                Final("s3", output: "s3", entry: ["entry s3"])
            }
            """)
        // Pasted from `blueprint.swiftCode`:
        let pasted = FlowDefinition<StringFlow>("generated", initial: "s0") {
            StateNode("s0", entry: ["entry s0"], exit: ["exit s0"]) {
                Always(guard: Guard("in s2", evaluate: { state, _ in ["s2"].contains(state) }), to: "s3", effects: ["t0"])
                StateNode("s1", entry: ["entry s1"], exit: ["exit s1"]) {
                    On("a", to: "s2", effects: ["t1"])
                }
                StateNode("s2", entry: ["entry s2"], exit: ["exit s2"]) {
                    On("b", guard: Guard("never", condition: { false }), to: nil, effects: ["t2"])
                    On("b", to: "s1", effects: ["t3"])
                }
            }
            Final("s3", output: "s3", entry: ["entry s3"])
        }
        #expect(pasted.outline == blueprint.definition.outline)
        for definition in [pasted, blueprint.definition] {
            var machine = try FlowMachine(definition)
            #expect(try machine.start().state == "s1")
            let step = try machine.send("a")
            #expect(step.state == "s3" && machine.isFinished)
            #expect(Array(step.effects) == ["exit s1", "t1", "entry s2", "exit s2", "exit s0", "t0", "entry s3"])
            #expect(Array(step.transitions) == [FlowTransitionID(position: 1), FlowTransitionID(position: 0)])
        }
    }
}
