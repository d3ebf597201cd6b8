import Flowstate
import PropertyBased
import Testing

/// The generated flows of the engine's properties, with a context: the list of the transitions
/// taken so far. Every transition records itself with an ``Update`` and emits what it saw; every
/// state emits the context's length on entry and on exit.
enum Cx: Flow {
    typealias State = Int
    typealias Event = Gx.Event
    enum Effect: Hashable, Sendable, CustomStringConvertible {
        case base(Gx.Effect)
        /// Transition `t` saw this context (after its own update).
        case saw(Int, [Int])
        /// State `s` was entered / left when the context held this many transitions.
        case entered(Int, Int), left(Int, Int)
        var description: String {
            switch self {
            case .base(let effect): "\(effect)"
            case .saw(let t, let context): "saw(t\(t), \(context))"
            case .entered(let s, let n): "entered(\(s), \(n))"
            case .left(let s, let n): "left(\(s), \(n))"
            }
        }
    }
    typealias Output = Int
    typealias Context = [Int]
}

extension GeneratedFlow {
    /// The definition with context (see ``Cx``), written in the same document order as `definition`.
    var contextDefinition: FlowDefinition<Cx> {
        func guardFor(_ kind: Int) -> Guard<Cx>? { Self.guardFor(kind) }
        let elements: [FlowElement<Cx>] = elements(transition: { i in
            let t = transitions[i]
            let effects: [Cx.Effect] = [.base(t.fails ? .boom : .transition(i))]
            let record = Update<Cx>("record t\(i)") { context, _ in context.append(i) }
            let saw = [Emit<Cx>("saw t\(i)") { context, _ in .saw(i, context) }]
            let type: TransitionType = t.isInternal ? .internal : .external
            return if let event = t.event {
                On<Cx>(event, guard: guardFor(t.guardKind), to: t.target, type: type, update: record, effects: effects,
                       emit: saw).element
            } else {
                Always<Cx>(guard: guardFor(t.guardKind), to: t.target!, type: type, update: record, effects: effects,
                           emit: saw).element
            }
        }, state: { s, body in
            let entered = [Emit<Cx>("entered \(s)") { context, _ in .entered(s, context.count) }]
            let left = [Emit<Cx>("left \(s)") { context, _ in .left(s, context.count) }]
            return if finals.contains(s) {
                Final<Cx>(s, outputLabel: "\(s)", entry: [.base(.entry(s))], emitOnEntry: entered) { context, _ in
                    s * 1_000 + context.count
                }.element
            } else {
                StateNode<Cx>(s, initial: initialChildren[s], entry: [.base(.entry(s))], exit: [.base(.exit(s))],
                              emitOnEntry: entered, emitOnExit: left) { body }.element
            }
        })
        return FlowDefinition(name, initial: initial, context: [], unhandledEvents: failsOnUnhandled ? .fail : .ignore,
                              elements: elements)
    }

    private var name: String { "generated with context" }
}

/// What the documentation promises about context, as a model over the reference interpreter's
/// steps: a transition's update runs when it is taken, before any effect of its own is derived (its
/// exits included); the transitions of a step run in order; each emit follows its constant
/// effects; a failed step changes nothing.
struct ContextModel {
    var context: [Int] = []

    /// The effects the engine must report for a step the reference took with these constant effects
    /// and transitions (by position), and the context after it.
    mutating func expect(_ effects: [Gx.Effect], taken positions: [Int], numberAt: [Int: Int]) -> [Cx.Effect] {
        var pending = positions.map { numberAt[$0]! }[...]
        var result: [Cx.Effect] = []
        var inExits = false
        func beginTransition() {
            // A transition's segment is its exits, its own effect, its entries: its update comes first.
            if let t = pending.popFirst() { context.append(t) }
        }
        for effect in effects {
            switch effect {
            case .exit(let s):
                if !inExits {
                    beginTransition()
                    inExits = true
                }
                result += [.base(effect), .left(s, context.count)]
            case .transition(let t):
                if !inExits { beginTransition() }
                inExits = false
                result += [.base(effect), .saw(t, context)]
            case .boom:
                if !inExits { beginTransition() }
                inExits = false
                result += [.base(effect), .saw(context.last!, context)]
            case .entry(let s):
                inExits = false
                result += [.base(effect), .entered(s, context.count)]
            }
        }
        return result
    }
}

@Suite("Context properties")
struct ContextProperties {
    @Test("Updates, emits and outputs follow the documented order on every step of generated flows, against a model over the SCXML reference")
    func contextFollowsTheModel() async {
        await propertyCheck(count: 300, input: Generators.flows(), Generators.events) { flow, events in
            let definition = flow.contextDefinition
            #expect(definition.isValid, "\(definition.validate())")
            var reference = SCXMLReference(flow)
            var numberAt: [Int: Int] = [:]
            for (t, position) in reference.position.enumerated() { numberAt[position] = t }
            var model = ContextModel()
            var machine = try FlowMachine(definition)
            for event in [nil] + events.map(Optional.some) {
                let expected = event.map { reference.send($0) } ?? reference.start()
                let before = model
                let step = Result { () throws(FlowError) in
                    if let event { try machine.send(event) } else { try machine.start() }
                }
                let context = "after \(event.map { "\($0)" } ?? "start")\n\(flow)\nevents: \(events)"
                switch (expected, step) {
                case (.moved(let to, let effects, let taken), .success(let step)):
                    let want = model.expect(effects, taken: taken, numberAt: numberAt)
                    #expect(step.state == to && Array(step.effects) == want, "\(step)\nwanted \(want)\n\(context)")
                case (.finished(let to, let effects, let output, let taken), .success(let step)):
                    let want = model.expect(effects, taken: taken, numberAt: numberAt)
                    #expect(step.state == to && Array(step.effects) == want, "\(step)\nwanted \(want)\n\(context)")
                    #expect(machine.output == output * 1_000 + model.context.count, "\(context)")
                case (.ignored, .success), (.rejected, .success), (.failed, .failure):
                    model = before
                default:
                    Issue.record("the engine and the reference disagree: \(step) vs \(expected)\n\(context)")
                    return
                }
                #expect(machine.context == model.context, "context \(machine.context), model \(model.context)\n\(context)")
                guard machine.context == model.context else { return }
            }
            let stop = reference.stopEffects().flatMap { effect -> [Cx.Effect] in
                guard case .exit(let s) = effect else { return [] }
                return [.base(effect), .left(s, model.context.count)]
            }
            #expect(Array(machine.stop()) == stop, "stop\n\(flow)\nevents: \(events)")
        }
    }
}
