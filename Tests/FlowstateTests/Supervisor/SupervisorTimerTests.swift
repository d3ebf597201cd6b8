@_spi(TimerQueue) @testable import Flowstate
import Foundation
import FlowTestSupport
import Testing
import FlowTesting

/// A toast: shown, dismissed after 3 seconds (its output goes to the screen that runs it).
enum Toast: Flow {
    enum State: Hashable, Sendable { case shown, gone }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case tap }
    typealias Effect = String
    typealias Output = String

    static let definition = FlowDefinition<Toast>("toast", initial: .shown) {
        StateNode(.shown, entry: ["show toast"], exit: ["hide toast"]) {
            After(.seconds(3), to: .gone)
        }
        Final(.gone, output: "toast dismissed")
    }
}

/// A screen that shows a toast while saving; leaving early tears the toast down.
enum Screen: Flow {
    enum State: Hashable, Sendable { case saving, idle }
    enum Event: FlowEvent, Hashable { typealias Kind = Self; case toastDone, leave }
    typealias Effect = String
    typealias Output = Void

    static let definition = FlowDefinition<Screen>("screen", initial: .saving) {
        StateNode(.saving, runs: ChildFlow<Screen>(Toast.definition, output: { _ in .toastDone })) {
            On(.toastDone, to: .idle, effects: ["toast finished"])
            On(.leave, to: .idle, effects: ["left early"])
        }
        StateNode(.idle) {}
    }
}

@Suite("Timers in a supervised tree")
@MainActor
struct SupervisorTimerTests {
    /// A supervisor on a manual clock, recording every effect.
    @MainActor
    final class Host {
        let clock = ManualClock()
        var effects: [String] = []
        var verifyEffects: [Verify.Effect] = []
        let supervisor: Supervisor

        init() { supervisor = Supervisor(clock: clock) }

        func verify() -> (Verify.Effect, EffectContext<Verify>) throws -> Void {
            { [unowned self] effect, _ in verifyEffects.append(effect) }
        }

        func settle() async { for _ in 0..<200 { await Task.yield() } }
    }

    @Test("A root's timer fires on the supervisor's clock once its delay has passed, not before")
    func rootTimerFires() async throws {
        let host = Host()
        let machine = try host.supervisor.start(DelayTests.verify, handler: host.verify())
        #expect(host.supervisor.armedTimers(of: machine.id).map(\.left) == [.seconds(300), .seconds(30)])
        #expect(await eventually { host.clock.sleeperCount == 1 })  // one task, for the earliest deadline
        host.verifyEffects = []
        host.clock.advance(by: .seconds(29))
        await host.settle()
        #expect(host.supervisor.state(of: machine) == .waiting)
        host.clock.advance(by: .seconds(1))
        #expect(await eventually { host.supervisor.state(of: machine) == .canResend })
        #expect(host.verifyEffects == [.exit(.waiting), .resendAvailable, .entry(.canResend)])
        #expect(host.supervisor.armedTimers(of: machine.id).map(\.left) == [.seconds(270)])
        #expect(await eventually { host.clock.sleeperCount == 1 })
        host.clock.advance(by: .seconds(270))
        #expect(await eventually { host.supervisor.state(of: machine) == .locked })
        #expect(host.verifyEffects.suffix(4) == [.exit(.canResend), .exit(.codeSent), .lockedOut, .entry(.locked)])
        #expect(host.supervisor.armedTimerCount == 0)
    }

    @Test("A timer whose state was left is cancelled; stopping a machine drops all its timers")
    func cancelledAndStopped() async throws {
        let host = Host()
        let first = try host.supervisor.start(DelayTests.verify, handler: host.verify())
        let second = try host.supervisor.start(DelayTests.verify, handler: host.verify())
        #expect(host.supervisor.armedTimerCount == 4)
        try host.supervisor.send(.submit, to: first)  // leaves codeSent: both its timers are cancelled
        #expect(host.supervisor.armedTimers(of: first.id).isEmpty)
        host.supervisor.stop(second)
        #expect(host.supervisor.armedTimerCount == 0)
        #expect(await eventually { host.clock.sleeperCount == 0 })  // nothing left to sleep for
        host.verifyEffects = []
        host.clock.advance(by: .seconds(600))
        await host.settle()
        #expect(host.supervisor.state(of: first) == .verifying)
        #expect(host.verifyEffects.isEmpty)
    }

    @Test("A declared child's timer takes the normal step path: it finishes, and its output reaches its parent")
    func childTimerOutput() async throws {
        let host = Host()
        let screen = try host.supervisor.start(Screen.definition) { [unowned host] effect, _ in host.effects.append(effect) }
        #expect(host.supervisor.liveCount == 2)
        #expect(host.effects == ["show toast"])
        #expect(await eventually { host.clock.sleeperCount == 1 })
        host.clock.advance(by: .seconds(3))
        #expect(await eventually { host.supervisor.state(of: screen) == .idle })
        #expect(host.effects == ["show toast", "hide toast", "toast finished"])
        #expect(host.supervisor.liveCount == 1)
        #expect(host.supervisor.armedTimerCount == 0)
    }

    @Test("A child torn down with its parent's state never gets its timer")
    func childTornDown() async throws {
        let host = Host()
        let screen = try host.supervisor.start(Screen.definition) { [unowned host] effect, _ in host.effects.append(effect) }
        #expect(host.supervisor.armedTimerCount == 1)
        try host.supervisor.send(.leave, to: screen)
        #expect(host.supervisor.liveCount == 1)
        #expect(host.supervisor.armedTimerCount == 0)
        host.clock.advance(by: .seconds(10))
        await host.settle()
        #expect(host.effects == ["show toast", "hide toast", "left early"])
    }

    @Test("The core never delivers a due timer that was cancelled, or whose machine is gone")
    func coreDropsStaleTimers() {
        var core = SupervisorCore(scope: 9)
        let a = core.place(.init(parent: -1), lifecycle: .running)!
        let b = core.place(.init(parent: -1), lifecycle: .running)!
        let (idA, idB) = (core.id(of: a), core.id(of: b))
        let t1 = FlowTimer(state: 0, transition: FlowTransitionID(position: 0), generation: 1)
        let t2 = FlowTimer(state: 1, transition: FlowTransitionID(position: 1), generation: 2)
        core.applyTimers([.arm(t1, after: .seconds(5)), .arm(t2, after: .seconds(2))], of: idA, now: .zero)
        core.applyTimers([.arm(t1, after: .seconds(1))], of: idB, now: .zero)
        #expect(core.timerQueue.nextDeadline == .seconds(1))
        core.enqueueDue(at: .seconds(5))  // all three came due: b's t1, a's t2, a's t1
        core.applyTimers([.cancel(t2)], of: idA, now: .seconds(5))  // cancelled while waiting in the mailbox
        core.remove(b)  // gone while its timer waits
        var fired: [String] = []
        while let work = core.nextWork(released: false) {
            if case .fire(let timer, let slot) = work { fired.append("\(timer.generation)@\(slot)") }
        }
        #expect(fired == ["1@\(a)"])
        #expect(core.armedTimers(of: idA, now: .seconds(5)).isEmpty)
        #expect(core.timersByMachine.isEmpty && core.dueTimers.isEmpty && core.timerQueue.isEmpty)
    }

    @Test("A snapshot keeps each timer's time left; a restored tree re-arms it with what was left")
    func snapshotKeepsTimeLeft() async throws {
        let host = Host()
        let machine = try host.supervisor.start(DelayTests.verify, handler: host.verify())
        host.clock.advance(by: .seconds(10))
        let snapshot = try host.supervisor.snapshot()
        let timers = snapshot.roots[0].timers
        #expect(timers.map(\.state) == ["codeSent", "waiting"])
        #expect(timers.map(\.left) == [.seconds(290), .seconds(20)])
        let decoded = try JSONDecoder().decode(TreeSnapshot.self, from: JSONEncoder().encode(snapshot))
        #expect(decoded == snapshot)
        host.supervisor.stop(machine)

        let later = Host()
        let restored = try later.supervisor.restore(decoded.roots[0], definition: DelayTests.verify,
                                                    handler: later.verify())
        #expect(later.supervisor.armedTimers(of: restored.id).map(\.left) == [.seconds(290), .seconds(20)])
        #expect(await eventually { later.clock.sleeperCount == 1 })
        later.clock.advance(by: .seconds(19))
        await later.settle()
        #expect(later.supervisor.state(of: restored) == .waiting)
        #expect(later.verifyEffects.isEmpty)
        later.clock.advance(by: .seconds(1))
        #expect(await eventually { later.supervisor.state(of: restored) == .canResend })
        #expect(later.verifyEffects == [.exit(.waiting), .resendAvailable, .entry(.canResend)])
    }

    @Test("A snapshot without timers still decodes, and restores each timer with its whole delay")
    func olderSnapshot() async throws {
        let json = #"{"version":1,"roots":[{"flow":"verify","state":"waiting","children":[]}]}"#
        let snapshot = try JSONDecoder().decode(TreeSnapshot.self, from: Data(json.utf8))
        #expect(snapshot.roots[0].timers.isEmpty)
        let host = Host()
        let restored = try host.supervisor.restore(snapshot.roots[0], definition: DelayTests.verify,
                                                   handler: host.verify())
        #expect(host.supervisor.armedTimers(of: restored.id).map(\.left) == [.seconds(300), .seconds(30)])
    }

    @Test("Restoring a timer whose state is not active is an error naming it; nothing is restored")
    func inactiveTimerRefused() throws {
        let host = Host()
        var machine = MachineSnapshot(flow: "verify", state: "verifying", parentState: nil, children: [])
        machine.timers = [TimerSnapshot(state: "waiting", transition: DelayTests.ids(DelayTests.verify, .waiting,
                                                                                      .seconds(30)).transition.position,
                                        left: .seconds(5))]
        do {
            try host.supervisor.restore(machine, definition: DelayTests.verify, handler: host.verify())
            Issue.record("restored a timer of a state that is not active")
        } catch {
            #expect(error.code == .snapshotMismatch)
            #expect(error.message.contains("'waiting'"), "\(error.message)")
        }
        #expect(host.supervisor.liveCount == 0)
        #expect(host.supervisor.armedTimerCount == 0)
    }
}
