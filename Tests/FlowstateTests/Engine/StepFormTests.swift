import Flowstate
import Testing

// Every way a caller holds a step (issue 24) must see the same step: the one-expression form, a step
// bound to a `let`, switched over, passed to a function (plain or generic), its properties read one
// after another, and a step kept after its machine and definition are gone. The flows below take
// the paths whose steps carry more than the step holds inline: more than two effects from the
// compiled table, more than two derived effects, effects joined along eventless transitions, and
// several transitions in one step. The benchmark's forms (Benchmarks/Benchmarks/Engine/StepForms.swift)
// measure the cost of the same forms; these tests pin what they must observe, whatever the step's
// stored representation.

/// A flow whose effects are plain integers, as in the engine benchmark, with a counter as context.
enum HeldStepFlow: Flow {
    enum State: Hashable, Sendable { case idle, work, a, b, chain1, chain2, done }
    enum Event: FlowEvent { case go, hop, back, finish, noop, blocked }
    typealias Effect = Int
    typealias Output = Int
    typealias Context = Int
}

/// What a step says, read field by field from the call's result as soon as it is returned (the
/// reference the other forms are compared with).
struct StepObservation: Equatable, CustomStringConvertible {
    var kind: String
    var state: HeldStepFlow.State
    var event: HeldStepFlow.Event?
    var effects: [Int]
    var transitions: [Int]
    var output: Int?

    var description: String {
        "\(kind) \(state) on \(event.map { "\($0)" } ?? "-"): effects \(effects), transitions \(transitions)"
            + (output.map { ", output \($0)" } ?? "")
    }
}

@Suite("A step reads the same however it is held")
struct StepFormTests {
    typealias F = HeldStepFlow

    static let never = Guard<F>("never", condition: { false })
    static let count = Update<F>("count") { counter, _ in counter += 1 }
    static let emitCounter = Emit<F>("counter") { counter, _ in 1_000 + counter }
    static let emitTwice = Emit<F>("counter twice") { counter, _ in 2_000 + 2 * counter }
    static let emitEvent = Emit<F>("event") { _, event in event == .go ? 3_000 : 3_001 }

    /// Constant effects only: every range is a view of the compiled table.
    static func constantDefinition() -> FlowDefinition<F> {
        FlowDefinition("held, constant", initial: .idle, context: 0) {
            StateNode(.idle, entry: [1], exit: [2]) {
                On(.go, to: .a, effects: [3])  // exit idle, 3, enter work, enter a: four effects
                On(.blocked, guard: never, to: .a)  // rejected
            }
            StateNode(.work, initial: .a, entry: [10], exit: [11]) {
                StateNode(.a, entry: [20], exit: [21]) {
                    On(.hop, to: .b, effects: [4])  // three effects
                }
                StateNode(.b, entry: [30], exit: [31]) {
                    On(.back, to: .chain1, effects: [5])  // then two eventless transitions: three in all
                }
                On(.finish, to: .done, effects: [8])
            }
            StateNode(.chain1, entry: [40], exit: [41]) {
                Always(to: .chain2, effects: [6])
            }
            StateNode(.chain2, entry: [50], exit: [51]) {
                Always(to: .idle, effects: [7])
            }
            Final(.done, output: 99, entry: [60])
        }
    }

    /// The same flow with updates and derived effects: the table derives every range.
    static func derivedDefinition() -> FlowDefinition<F> {
        FlowDefinition("held, derived", initial: .idle, context: 0) {
            StateNode(.idle, entry: [1], exit: [2], emitOnExit: [emitEvent]) {
                On(.go, to: .a, update: count, effects: [3], emit: [emitCounter, emitTwice])
                On(.blocked, guard: never, to: .a)
            }
            StateNode(.work, initial: .a, entry: [10], exit: [11], emitOnEntry: [emitCounter]) {
                StateNode(.a, entry: [20], exit: [21], emitOnExit: [emitTwice]) {
                    On(.hop, to: .b, update: count, effects: [4], emit: [emitCounter])
                }
                StateNode(.b, entry: [30], exit: [31]) {
                    On(.back, to: .chain1, effects: [5], emit: [emitEvent])
                }
                On(.finish, to: .done, effects: [8], emit: [emitCounter])
            }
            StateNode(.chain1, entry: [40], exit: [41]) {
                Always(to: .chain2, update: count, effects: [6], emit: [emitCounter])
            }
            StateNode(.chain2, entry: [50], exit: [51], emitOnEntry: [emitTwice]) {
                Always(to: .idle, effects: [7])
            }
            Final(.done, outputLabel: "counter", entry: [60]) { counter, _ in counter }
        }
    }

    static let events: [F.Event] = [.go, .hop, .back, .noop, .blocked, .go, .finish]

    /// The step's fields, each read from the value it is given.
    static func observe(_ step: FlowStep<F>) -> StepObservation {
        StepObservation(kind: step.kind.description, state: step.state, event: step.event, effects: Array(step.effects),
                        transitions: step.transitions.map(\.position), output: step.output)
    }

    /// The step's properties, read one after another from a bound step.
    static func properties(_ step: FlowStep<F>, kind: String, output: Int?) -> StepObservation {
        let state = step.state
        let effects = step.effects
        let transitions = step.transitions
        let event = step.event
        return StepObservation(kind: kind, state: state, event: event, effects: Array(effects),
                               transitions: transitions.map(\.position), output: output)
    }

    /// The kind and output of a step, without binding its other fields.
    static func kindAndOutput(_ step: FlowStep<F>) -> (String, Int?) {
        switch step.kind {
        case .started: ("started", nil)
        case .transitioned: ("transitioned", nil)
        case .finished: ("finished", step.output)
        case .ignored: ("ignored", nil)
        case .rejected: ("rejected", nil)
        }
    }

    @inline(never)
    static func passed(_ step: FlowStep<F>) -> StepObservation {
        let (kind, output) = kindAndOutput(step)
        return properties(step, kind: kind, output: output)
    }

    @inline(never)
    static func passedGeneric<G: Flow>(_ step: FlowStep<G>) -> (effects: [G.Effect], transitions: [Int]) {
        (Array(step.effects), step.transitions.map(\.position))
    }

    /// The steps of the events, from a machine and a definition that are gone when this returns.
    static func keptSteps(_ makeDefinition: () -> FlowDefinition<F>) throws -> [FlowStep<F>] {
        var machine = try FlowMachine(makeDefinition())
        var steps = [try machine.start()]
        for event in events { steps.append(try machine.send(event)) }
        return steps
    }

    static let definitions: [(name: String, make: @Sendable () -> FlowDefinition<F>)] = [
        ("constant", constantDefinition),
        ("derived", derivedDefinition),
    ]

    @Test("Every form observes the payload the step was built with", arguments: [0, 1])
    func everyForm(definitionIndex: Int) throws {
        let definition = Self.definitions[definitionIndex].make()
        var reference = try FlowMachine(definition)
        var expression = try FlowMachine(definition)
        var bound = try FlowMachine(definition)
        var switched = try FlowMachine(definition)

        _ = try reference.start()
        _ = try expression.start()
        _ = try bound.start()
        _ = try switched.start()
        for event in Self.events {
            // The reference: the call's result, read field by field.
            let expected = Self.observe(try reference.send(event))

            // One expression: a property of the call's result, nothing bound.
            let (kind, output) = Self.kindAndOutput(try expression.send(event))
            #expect(kind == expected.kind)
            #expect(output == expected.output)

            // Bound to a `let`, then read property after property, then passed along.
            let step = try bound.send(event)
            #expect(Self.properties(step, kind: kind, output: output) == expected, "bound, \(event)")
            #expect(Self.passed(step) == expected, "passed, \(event)")
            let generic = Self.passedGeneric(step)
            #expect(generic.effects == expected.effects, "passed to a generic function, \(event)")
            #expect(generic.transitions == expected.transitions, "passed to a generic function, \(event)")
            let copy = step
            #expect(copy == step)

            // Switched over, kind by kind.
            let held = try switched.send(event)
            switch held.kind {
            case .transitioned:
                #expect(expected.kind == "transitioned" && held.output == nil && held.from != nil)
                #expect(held.state == expected.state && held.event == expected.event)
                #expect(Array(held.effects) == expected.effects
                    && held.transitions.map(\.position) == expected.transitions)
            case .finished:
                #expect(expected.kind == "finished")
                #expect(held.state == expected.state && held.output == expected.output)
                #expect(Array(held.effects) == expected.effects
                    && held.transitions.map(\.position) == expected.transitions)
            case .started:
                Issue.record("send never starts")
            case .ignored, .rejected:
                #expect(expected.effects.isEmpty && expected.transitions.isEmpty)
                #expect(held.state == expected.state && held.from == nil && held.output == nil)
            }
        }
        #expect(reference.state == bound.state && reference.state == switched.state)
        #expect(reference.output == 99 || definitionIndex == 1)
    }

    @Test("The paths take more effects and transitions than a step holds inline")
    func pathsOverflow() throws {
        let constant = try Self.keptSteps(Self.constantDefinition).map(Self.observe)
        #expect(constant.map(\.kind) == ["started", "transitioned", "transitioned", "transitioned", "ignored",
                                         "rejected", "transitioned", "finished"])
        #expect(constant[1].effects == [2, 3, 10, 20])  // exit idle, transition, enter work, enter a
        #expect(constant[2].effects == [21, 4, 30])
        // b to chain1, then two eventless transitions: three transitions, effects joined in order.
        #expect(constant[3].effects == [31, 11, 5, 40, 41, 6, 50, 51, 7, 1])
        #expect(constant[3].transitions.count == 3)
        #expect(constant[3].state == .idle)
        #expect(constant[7].effects == [21, 11, 8, 60])
        #expect(constant[7].output == 99)

        let derived = try Self.keptSteps(Self.derivedDefinition).map(Self.observe)
        // go: exit idle (2, emitted 3000), transition (3, counter 1 after the update: 1001, 2002), enter
        // work (10, 1001), enter a (20).
        #expect(derived[1].effects == [2, 3_000, 3, 1_001, 2_002, 10, 1_001, 20])
        #expect(derived[3].transitions.count == 3)
        #expect(derived[3].effects.count > 8)
        #expect(derived.last?.output == 4)  // counted on go, hop, chain1, and go again
    }

    @Test("A step kept after its machine and definition are gone still reads the same", arguments: [0, 1])
    func keptSteps(definitionIndex: Int) throws {
        let make = Self.definitions[definitionIndex].make
        let kept = try Self.keptSteps(make)
        // The same events through a machine that is still alive give equal steps.
        var machine = try FlowMachine(make())
        var fresh = [try machine.start()]
        for event in Self.events { fresh.append(try machine.send(event)) }
        #expect(kept == fresh)
        #expect(kept.map(Self.observe) == fresh.map(Self.observe))
        // Copies of the steps, stored elsewhere, read the same after the originals are dropped.
        var copies = kept
        copies.append(contentsOf: kept)
        let observed = copies.map(Self.observe)
        #expect(Array(observed.prefix(kept.count)) == fresh.map(Self.observe))
        #expect(Array(observed.suffix(kept.count)) == fresh.map(Self.observe))
    }

    @Test("Steps made by hand hold any number of effects and transitions")
    func handMadeSteps() {
        let effects = FlowEffects(Array(1...40))
        let transitions = FlowTransitions((0..<12).map { FlowTransitionID(position: $0 * 3) })
        let step = FlowStep<F>.transitioned(from: .a, to: .b, event: .hop, effects: effects, transitions: transitions)
        var held: [FlowStep<F>] = []
        for _ in 0..<3 { held.append(step) }
        for copy in held {
            #expect(Array(copy.effects) == Array(1...40))
            #expect(copy.transitions.map(\.position) == (0..<12).map { $0 * 3 })
            #expect(Self.passedGeneric(copy).effects == Array(1...40))
        }
        #expect(FlowEffects<Int>([7]).count == 1 && FlowEffects<Int>([7, 8]).last == 8)
        // One transition whose index does not fit beside the kind, and a finish: kept beside the step.
        let far = FlowTransitions([FlowTransitionID(position: Int(Int32.max))])
        let farStep = FlowStep<F>.transitioned(from: .a, to: .b, event: .hop, effects: FlowEffects([1, 2]),
                                               transitions: far)
        #expect(farStep.transitions == far && Array(farStep.effects) == [1, 2] && farStep.kind == .transitioned)
        let finish = FlowStep<F>.finished(from: nil, to: .done, event: nil, effects: FlowEffects([3]), output: 7,
                                          transitions: FlowTransitions())
        #expect(finish.kind == .finished && finish.output == 7 && finish.from == nil && finish.event == nil)
        #expect(Array(finish.effects) == [3] && finish.transitions.isEmpty)
        #expect(finish != FlowStep<F>.finished(from: nil, to: .done, event: nil, effects: FlowEffects([3]), output: 8,
                                               transitions: FlowTransitions()))
        #expect(FlowTransitions([FlowTransitionID(position: 5)]).map(\.position) == [5])
        #expect(FlowTransitions().isEmpty && FlowEffects<Int>().isEmpty)
    }

    @Test("A step of a flow with small types is at most four words: Swift passes it in registers")
    func stepSize() {
        // Payload-free states and events, word-sized effects (the benchmark's checkout flow is the
        // same): the step must stay small enough to be returned and passed in registers, or holding
        // it copies it through generic value witnesses again (docs/PERFORMANCE.md). Adding a stored
        // field to FlowStep breaks this, and so does a seventh field for the optimizer: see the
        // comment on FlowStep's stored properties.
        #expect(MemoryLayout<FlowStep<F>>.size <= 4 * MemoryLayout<Int>.size)
        #expect(MemoryLayout<FlowEffects<Int>>.size <= 3 * MemoryLayout<Int>.size)
    }
}
