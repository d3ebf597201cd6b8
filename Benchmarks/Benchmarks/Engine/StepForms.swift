import Flowstate

// Every way a caller holds the step `FlowMachine.send` returns (issue 24): each loop drives the same
// 1,000,000 checkout events as `runEngine` (the one-expression form, `try machine.send(event).effects`)
// and must reach the hand-written switch's checksum. The forms differ only in how the step is held:
// bound to a `let`, switched over (bound, or the call's result itself), passed to a function (plain
// or generic, never inlined), or its `state`, `effects` and `transitions` read one after another.
// Each is measured against the switch in the same iteration; `check-ratios.py` holds every one to the
// same threshold as the one-expression form, with no allocation per event. Support/StepDriver runs the
// same loops outside the harness, for callgrind and perf.

/// `let step = try machine.send(event)`, then `step.effects`.
@inline(never)
func runEngineBound(_ machine: inout FlowMachine<Checkout>, _ events: [Checkout.Event]) -> Int {
    var sum = 0
    for event in events {
        do {
            let step = try machine.send(event)
            for effect in step.effects { sum &+= effect }
        } catch {
            continue
        }
    }
    return sum &+ machine.state.rawValue
}

/// `switch step.kind { case .transitioned: ... }`, every kind spelled out.
@inline(never)
func runEngineSwitched(_ machine: inout FlowMachine<Checkout>, _ events: [Checkout.Event]) -> Int {
    var sum = 0
    for event in events {
        do {
            let step = try machine.send(event)
            switch step.kind {
            case .transitioned:
                for effect in step.effects { sum &+= effect }
            case .started:
                for effect in step.effects { sum &+= effect }
            case .finished:
                for effect in step.effects { sum &+= effect }
            case .ignored, .rejected:
                break
            }
        } catch {
            continue
        }
    }
    return sum &+ machine.state.rawValue
}

/// `switch try machine.send(event) { case let step where step.kind == ...: ... }`: the call's result
/// switched over, bound by the patterns rather than by a `let` before the `switch`.
@inline(never)
func runEngineSwitchedResult(_ machine: inout FlowMachine<Checkout>, _ events: [Checkout.Event]) -> Int {
    var sum = 0
    for event in events {
        do {
            switch try machine.send(event) {
            case let step where step.kind == .transitioned:
                for effect in step.effects { sum &+= effect }
            case let step where step.kind == .started || step.kind == .finished:
                for effect in step.effects { sum &+= effect }
            default:
                break
            }
        } catch {
            continue
        }
    }
    return sum &+ machine.state.rawValue
}

/// A function the step is handed to, never inlined into the loop.
@inline(never)
func effectSum(of step: FlowStep<Checkout>) -> Int {
    var sum = 0
    for effect in step.effects { sum &+= effect }
    return sum
}

/// The same, generic over the flow (the optimizer may specialize it; it is never inlined).
@inline(never)
func genericEffectSum<F: Flow>(of step: FlowStep<F>) -> Int where F.Effect == Int {
    var sum = 0
    for effect in step.effects { sum &+= effect }
    return sum
}

/// The step bound, then passed to ``effectSum(of:)``.
@inline(never)
func runEnginePassed(_ machine: inout FlowMachine<Checkout>, _ events: [Checkout.Event]) -> Int {
    var sum = 0
    for event in events {
        do {
            let step = try machine.send(event)
            sum &+= effectSum(of: step)
        } catch {
            continue
        }
    }
    return sum &+ machine.state.rawValue
}

/// The step bound, then passed to ``genericEffectSum(of:)``.
@inline(never)
func runEnginePassedGeneric(_ machine: inout FlowMachine<Checkout>, _ events: [Checkout.Event]) -> Int {
    var sum = 0
    for event in events {
        do {
            let step = try machine.send(event)
            sum &+= genericEffectSum(of: step)
        } catch {
            continue
        }
    }
    return sum &+ machine.state.rawValue
}

/// Where the properties-form keeps what it reads besides the effects (the state after each step and
/// the transitions taken), so that the optimizer cannot drop the reads.
nonisolated(unsafe) var propertiesTrace = 0

/// `step.state`, `step.effects` and `step.transitions`, read one after another.
@inline(never)
func runEngineProperties(_ machine: inout FlowMachine<Checkout>, _ events: [Checkout.Event]) -> Int {
    var sum = 0
    var trace = 0
    for event in events {
        do {
            let step = try machine.send(event)
            let state = step.state
            let effects = step.effects
            let transitions = step.transitions
            for effect in effects { sum &+= effect }
            for transition in transitions { trace &+= transition.position }
            trace &+= state.rawValue
        } catch {
            continue
        }
    }
    propertiesTrace &+= trace
    return sum &+ machine.state.rawValue
}

/// The step forms, by benchmark name, each with its loop (the one-expression form is `runEngine`).
let stepForms: [(name: String, run: @Sendable (inout FlowMachine<Checkout>, [Checkout.Event]) -> Int)] = [
    ("Send: FlowMachine.send, step bound to a let, 1M events", runEngineBound),
    ("Send: FlowMachine.send, step switched over, 1M events", runEngineSwitched),
    ("Send: FlowMachine.send, call's result switched over, 1M events", runEngineSwitchedResult),
    ("Send: FlowMachine.send, step passed to a function, 1M events", runEnginePassed),
    ("Send: FlowMachine.send, step passed to a generic function, 1M events", runEnginePassedGeneric),
    ("Send: FlowMachine.send, step's state, effects and transitions read, 1M events", runEngineProperties),
]
