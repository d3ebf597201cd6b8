@testable import Flowstate
import Testing

/// What only a flow with parallel states, history or delayed transitions uses is kept out of a
/// machine (`FlowMachine.statechart`) until it is needed, and copied on write: a machine stays a value.
@Suite struct StatechartStorageTests {
    @Test("A flat flow without history or delays never makes the machine's statechart storage")
    func flatMachineStaysSmall() throws {
        var machine = try FlowMachine(KindIndexTests.door)
        _ = try machine.start()
        for event in [KindIndexTests.Door.Event.open, .kick, .close, .lock, .unlock, .close, .knock] {
            _ = try machine.send(event)
        }
        _ = machine.stop()
        #expect(machine.statechart == nil)
        #expect(MemoryLayout<FlowMachine<KindIndexTests.Door>>.size < 88)  // 88 with the fields inline
    }

    @Test("Two copies of a machine with delays keep their own timers")
    func copiesKeepTheirOwnTimers() throws {
        var first = try FlowMachine(DelayTests.verify)
        _ = try first.start()
        let armed = first.armedTimers
        #expect(armed.count == 2 && first.statechart != nil)
        var second = first  // shares the storage until one of them changes them
        _ = try second.send(.submit)  // leaves codeSent: cancels both timers
        #expect(second.armedTimers.isEmpty)
        #expect(first.armedTimers == armed)
        // The inner state's timer (30 s, armed after the outer one): waiting -> canResend.
        let resend = try #require(armed.max { $0.generation < $1.generation })
        _ = try first.fire(resend)
        #expect(first.state == .canResend && second.state == .verifying)
        #expect(first.armedTimers.count == 1 && second.armedTimers.isEmpty)
    }

    @Test("Two copies of a machine with history remember their own")
    func copiesRememberTheirOwnHistory() throws {
        var first = try FlowMachine(HistoryTests.wizard)
        _ = try first.start()
        _ = try first.send(.next)  // name -> photo
        var second = first
        _ = try second.send(.help)  // leaves the wizard: its histories remember photo
        #expect(!second.historyValue.isEmpty && first.historyValue.isEmpty)
        _ = try first.send(.next)  // photo -> address (street)
        _ = try first.send(.help)
        _ = try second.send(.backDeep)  // back to photo, from its own memory
        #expect(second.state == .photo)
        _ = try first.send(.backDeep)
        #expect(first.state == .street)
    }
}
