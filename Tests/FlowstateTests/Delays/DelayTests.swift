import Flowstate
import FlowstateExamples
import Foundation
import Testing

/// A verification screen: a code is sent; after 30 seconds it may be resent; after 5 minutes of
/// waiting the session locks.
enum Verify: Flow {
    enum State: Hashable, Sendable {
        case codeSent, waiting, canResend, verifying, locked, decide, done
        case both, left, l1, l2, right, r1, r2
    }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case submit, resend, done, retry, move, enter }
    enum Effect: Hashable, Sendable { case entry(State), exit(State), resendAvailable, lockedOut }
    typealias Output = Void
}

@Suite("Delayed transitions")
struct DelayTests {
    static func node(_ s: Verify.State, initial: Verify.State? = nil,
                     @FlowBuilder<Verify> _ body: () -> [FlowElement<Verify>] = { [] }) -> StateNode<Verify> {
        StateNode(s, initial: initial, entry: [.entry(s)], exit: [.exit(s)], body)
    }

    static let verify = FlowDefinition<Verify>("verify", initial: .codeSent) {
        node(.codeSent, initial: .waiting) {
            node(.waiting) {
                After(.seconds(30), to: .canResend, effects: [.resendAvailable])
            }
            node(.canResend) { On(.resend, to: .waiting) }
            On(.submit, to: .verifying)
            After(.seconds(300), to: .locked, effects: [.lockedOut])
        }
        node(.verifying) {
            On(.done, to: .done)
            On(.retry, to: .codeSent)
        }
        node(.locked) { On(.retry, to: .codeSent) }
        Final(.done)
    }

    /// The position of a state, and of the delayed transition of `delay` declared on it.
    static func ids(_ definition: FlowDefinition<Verify>, _ state: Verify.State, _ delay: Duration)
        -> (state: Int, transition: FlowTransitionID) {
        let s = definition.states.firstIndex { $0.state == state }!
        let t = definition.transitions.indices.first {
            definition.transitions[$0].source == state && definition.transitions[$0].delay == delay
        }!
        return (s, FlowTransitionID(position: t))
    }

    /// A change without its generation: `arm codeSent 300s`, `cancel waiting`.
    static func shape(_ change: FlowTimerChange, _ definition: FlowDefinition<Verify>) -> String {
        switch change {
        case .arm(let timer, let delay): "arm \(definition.state(of: timer)!) \(FlowTimer.label(of: delay))"
        case .cancel(let timer): "cancel \(definition.state(of: timer)!) \(FlowTimer.label(of: definition.delay(of: timer)!))"
        }
    }

    static func shapes(_ step: FlowStep<Verify>) -> [String] { step.timers.map { shape($0, verify) } }

    @Test("Starting arms the initial states' timers, outer state first; the declaration is inspectable")
    func startArms() throws {
        #expect(Self.verify.validate().isEmpty, "\(Self.verify.validate())")
        var machine = try FlowMachine(Self.verify)
        let start = try machine.start()
        #expect(Self.shapes(start) == ["arm codeSent 5min", "arm waiting 30s"])
        let (s, t) = Self.ids(Self.verify, .waiting, .seconds(30))
        guard case .arm(let timer, let delay) = start.timers[1] else { Issue.record("not armed"); return }
        #expect(timer.state == s && timer.transition == t && delay == .seconds(30))
        #expect(machine.armedTimers == start.timers.map(\.timer))
        #expect(Set(machine.armedTimers.map(\.generation)).count == 2)
        #expect(Self.verify[t].eventLabel == "after 30s")
        #expect(Self.verify[t].event == nil)
        #expect(Self.verify[t].label == "after 30s / resendAvailable")
        let outline = Self.verify.outline
        #expect(outline.transitions[t.position].delay == .seconds(30))
        #expect(outline.transitions[t.position].label == "after 30s / resendAvailable")
    }

    @Test("Firing takes the delayed transition: exits cancel, entries arm, the step has no event but its timer")
    func fireTakesTransition() throws {
        var machine = try FlowMachine(Self.verify)
        let start = try machine.start()
        let waitingTimer = start.timers[1].timer
        let step = try machine.fire(waitingTimer)
        #expect(step.kind == .transitioned)
        #expect(step.state == .canResend && step.from == .waiting)
        #expect(step.event == nil && step.timer == waitingTimer)
        #expect(Array(step.effects) == [.exit(.waiting), .resendAvailable, .entry(.canResend)])
        #expect(Self.shapes(step) == [])  // waiting's timer fired: nothing left to cancel
        #expect(machine.armedTimers == [start.timers[0].timer])  // the outer state's timer still runs
        #expect(step.description.contains("timer("))
        // Firing it again: stale, ignored, nothing changes.
        let again = try machine.fire(waitingTimer)
        #expect(again.kind == .ignored && again.effects.isEmpty && again.timer == waitingTimer)
        #expect(machine.state == .canResend)
    }

    @Test("Leaving a state cancels its timers innermost first; re-entering arms a new generation; the old one is stale")
    func leaveAndReenter() throws {
        var machine = try FlowMachine(Self.verify)
        let start = try machine.start()
        let submit = try machine.send(.submit)
        #expect(Self.shapes(submit) == ["cancel waiting 30s", "cancel codeSent 5min"])
        #expect(submit.timers.map(\.timer) == [start.timers[1].timer, start.timers[0].timer])
        #expect(machine.armedTimers.isEmpty)
        let retry = try machine.send(.retry)
        #expect(Self.shapes(retry) == ["arm codeSent 5min", "arm waiting 30s"])
        let stale = try machine.fire(start.timers[1].timer)
        #expect(stale.kind == .ignored && machine.state == .waiting)
        let fresh = try machine.fire(retry.timers[1].timer)
        #expect(fresh.state == .canResend)
        // Moving inside codeSent keeps its timer: it fires and leaves for locked.
        let lock = try machine.fire(retry.timers[0].timer)
        #expect(lock.state == .locked)
        #expect(Array(lock.effects) == [.exit(.canResend), .exit(.codeSent), .lockedOut, .entry(.locked)])
    }

    @Test("A self transition re-enters its state: cancels and re-arms")
    func selfTransitionRearms() throws {
        var machine = try FlowMachine(Self.verify)
        _ = try machine.start()
        let fired = try machine.fire(machine.armedTimers[1])  // canResend
        #expect(fired.state == .canResend)
        let back = try machine.send(.resend)  // to waiting: arms waiting's timer again
        #expect(Self.shapes(back) == ["arm waiting 30s"])
    }

    @Test("A guard that says no when the timer fires: a rejected step, the timer spent")
    func guardRejects() throws {
        let never = Guard<Verify>("never", condition: { false })
        let definition = FlowDefinition<Verify>("guarded", initial: .waiting) {
            StateNode(.waiting) {
                After(.seconds(1), guard: never, to: .done)
                On(.submit, to: .done)
            }
            Final(.done)
        }
        var machine = try FlowMachine(definition)
        let timer = try machine.start().timers[0].timer
        let step = try machine.fire(timer)
        #expect(step.kind == .rejected && step.timer == timer && step.effects.isEmpty)
        #expect(machine.armedTimers.isEmpty && machine.state == .waiting)
    }

    @Test("Eventless transitions follow a timer's transition; finishing cancels every timer left")
    func eventlessAfterTimerAndFinish() throws {
        let definition = FlowDefinition<Verify>("decide", initial: .codeSent) {
            StateNode(.codeSent, initial: .waiting) {
                StateNode(.waiting) { After(.milliseconds(500), to: .decide) }
                StateNode(.decide) { Always(to: .done) }
                After(.seconds(60), to: .locked)
            }
            StateNode(.locked) { On(.retry, to: .codeSent) }
            Final(.done)
        }
        #expect(definition.validate().filter { $0.severity == .error }.isEmpty)
        var machine = try FlowMachine(definition)
        let start = try machine.start()
        #expect(start.timers.count == 2)
        let step = try machine.fire(start.timers[1].timer)
        #expect(step.kind == .finished && step.state == .done)
        #expect(step.timers == [.cancel(start.timers[0].timer)])
        #expect(machine.armedTimers.isEmpty)
        #expect(try machine.fire(start.timers[0].timer).kind == .ignored)
        #expect(FlowTimer.label(of: .milliseconds(500)) == "500ms")
    }

    @Test("A timer in one region of a parallel state survives the other region's moves")
    func parallelRegions() throws {
        let definition = FlowDefinition<Verify>("regions", initial: .both) {
            Parallel(.both) {
                StateNode(.left, initial: .l1) {
                    StateNode(.l1) { After(.seconds(5), to: .l2) }
                    StateNode(.l2)
                }
                StateNode(.right, initial: .r1) {
                    StateNode(.r1) { On(.move, to: .r2) }
                    StateNode(.r2) { On(.move, to: .r1) }
                }
                After(.seconds(9), to: .done)
            }
            Final(.done)
        }
        var machine = try FlowMachine(definition)
        let start = try machine.start()
        #expect(start.timers.map { definition.state(of: $0.timer)! } == [.both, .l1])
        let moved = try machine.send(.move)
        #expect(moved.timers.isEmpty && machine.armedTimers.count == 2)
        let fired = try machine.fire(start.timers[1].timer)
        #expect(fired.leaves == [.l2, .r2])
        let done = try machine.fire(start.timers[0].timer)
        #expect(done.kind == .finished)
    }

    @Test("Stop cancels every timer; a restored machine arms its active states' timers again")
    func stopAndResume() throws {
        var machine = try FlowMachine(Self.verify)
        let start = try machine.start()
        _ = machine.stop()
        #expect(machine.armedTimers.isEmpty)
        #expect(try machine.fire(start.timers[0].timer).kind == .ignored)

        var restored = try FlowMachine(Self.verify, resumingIn: .canResend)
        #expect(restored.armedTimers.map { Self.verify.state(of: $0)! } == [.codeSent])
        #expect(restored.armedTimers.map { Self.verify.delay(of: $0)! } == [.seconds(300)])
        let locked = try restored.fire(restored.armedTimers[0])
        #expect(locked.state == .locked)
    }

    @Test("Validation: a delay that is not positive, an After on a final state or a history, with locations")
    func validation() throws {
        let line = #line + 3
        let definition = FlowDefinition<Verify>("bad", initial: .codeSent) {
            StateNode(.codeSent, initial: .waiting) {
                StateNode(.waiting) { After(.zero, to: .done) }
                History(.decide, default: .waiting) { After(.seconds(1), to: .done) }
                After(.seconds(-1), to: .done)
            }
            Final(.done, output: ()) { After(.seconds(1), to: .codeSent) }
        }
        let delays = definition.validate().filter { $0.kind == .invalidDelay }
        #expect(delays.count == 3, "\(delays)")
        #expect(delays.allSatisfy { $0.severity == .error })
        let lines: [Int] = delays.map { $0.location?.line ?? 0 }.sorted()
        let expected: [Int] = [line, line + 2, line + 4]
        #expect(lines == expected)
        #expect(delays.contains { $0.message.contains("final state 'done'") })
        // A history declares nothing of its own: the After inside it is refused with the history.
        let history = definition.validate().filter { $0.kind == .invalidHistory }
        #expect(history.contains { $0.message.contains("'decide'") && $0.location?.line == line + 1 }, "\(history)")
        #expect(delays.contains { $0.message.contains("delay 0s") })
        #expect(throws: FlowError.self) { _ = try FlowMachine(definition) }
    }

    @Test("A flow without delayed transitions reports no timers (flat and parallel)")
    func noDelaysNoTimers() throws {
        var flat = try FlowMachine(SignUp.definition)
        #expect(try flat.start().timers.isEmpty)
        #expect(try flat.send(.submitEmail("ada@example.com")).timers.isEmpty)
        #expect(flat.armedTimers.isEmpty)
        var player = try FlowMachine(ParallelTests.player)
        #expect(try player.start().timers.isEmpty)
        #expect(try player.send(.play).timers.isEmpty)
    }

    @Test("Timers and their changes are Codable; delays are labelled as diagrams draw them")
    func codableAndLabels() throws {
        let change = FlowTimerChange.arm(FlowTimer(state: 2, transition: FlowTransitionID(position: 3), generation: 7),
                                         after: .seconds(30))
        let data = try JSONEncoder().encode(change)
        #expect(try JSONDecoder().decode(FlowTimerChange.self, from: data) == change)
        #expect(change.description == "arm timer(t3 of s2 #7) after 30s")
        #expect(FlowTimer.label(of: .seconds(120)) == "2min")
        #expect(FlowTimer.label(of: .seconds(7200)) == "2h")
        #expect(FlowTimer.label(of: .milliseconds(1500)) == "1.5s")
        #expect(FlowTimer.label(of: .seconds(90)) == "90s")
    }
}
