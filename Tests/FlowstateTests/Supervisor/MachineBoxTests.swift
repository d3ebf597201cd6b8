@testable import Flowstate
import Testing

/// What a machine's box packs still behaves: a forwarded failure keeps its origin, and an identity
/// made from the supervisor's scope still tells supervisors apart. (What the box costs, the heap per
/// idle machine, is a threshold of `make bench`: docs/PERFORMANCE.md, "The heap per machine".)
@Suite struct MachineBoxTests {
    @Test("A declared child's effect that fails in its ancestor's handler is reported once, as the child's")
    func forwardedFailureKeepsItsOrigin() throws {
        let supervisor = Supervisor()
        let log = EffectLog()
        var failures: [(MachineID, SupervisionFailure)] = []
        supervisor.observe { event in
            if case .failed(let id, let failure) = event { failures.append((id, failure)) }
        }
        let top = try supervisor.start(Top.definition(), handler: log.handler())
        try supervisor.send(.go, to: top)
        let mid = try #require(supervisor.machines.first { $0.flow == "mid" })
        try supervisor.send(.go, to: #require(supervisor.handle(of: mid.id, as: Mid.self)))
        let leaf = try #require(supervisor.machines.first { $0.flow == "leaf" })
        try supervisor.send(.fail, to: #require(supervisor.handle(of: leaf.id, as: Leaf.self)))

        // Top's handler performed the leaf's "boom" (mapped through Mid's route and Top's) and threw.
        #expect(log.entries.last { $0.effect == "boom" }?.origin == leaf.id)
        #expect(failures.count == 1)
        let failure = try #require(failures.first)
        #expect(failure.0 == leaf.id)
        #expect(failure.1.machine == leaf.id)
        #expect(failure.1.flow == "leaf")
        #expect(failure.1.effect == "boom")
        #expect(failure.1.message == "boom", "the handler's error, not a wrapped failure")
        // Mid maps its leaf's failure to `leafFailed`: the leaf is gone, Mid waits.
        #expect(try supervisor.state(of: #require(supervisor.handle(of: mid.id, as: Mid.self))) == .waiting)
        #expect(supervisor.checkInvariants().isEmpty)
        supervisor.stop(top)
    }

    @Test("A box names its machine by the supervisor's scope: identities still differ between supervisors")
    func identityCarriesTheSupervisorsScope() throws {
        let first = Supervisor(), second = Supervisor()
        let log = EffectLog()
        let a = try first.start(Leaf.definition, handler: log.handler())
        let b = try second.start(Leaf.definition, handler: log.handler())
        #expect(a.id.rawValue == b.id.rawValue)
        #expect(a.id != b.id)
        let box = try #require(first.boxes[Int(a.id.slot)])
        #expect(box.id(in: first) == a.id)
        #expect(box.id(in: first).slot == a.id.slot)
        // The box keeps naming its machine after the machine is gone (teardown reports read it).
        #expect(first.stop(a).ids == [a.id])
        #expect(box.id(in: first) == a.id)
        second.stop(b)
    }
}
