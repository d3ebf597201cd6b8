// Failures: the core decides what a failure does (SupervisorCore.failure); the shell tears down,
// restarts, and tells parents.

extension Supervisor {
    /// Applies failure policies, walking up the tree while failures escalate: a loop, not recursion.
    /// At each machine the core decides (``SupervisorCore/failure(of:policy:whileStarting:now:)``);
    /// after an escalating machine's teardown, its parent is told if it is still there
    /// (``SupervisorCore/escalationTarget(_:)``): as the event its failure mapping gives, or else as a
    /// failure of its own.
    func fail(_ slot: Int32, _ effectFailure: EffectFailure, whileStarting: Bool) {
        var slot = slot
        let first = boxes[Int(slot)]!
        let failure = SupervisionFailure(machine: first.id(in: self), flow: first.flowName, effect: effectFailure.effect,
                                         message: effectFailure.message)
        publish(.failed(first.id(in: self), failure: failure))
        var startingFailure = whileStarting
        while true {
            let box = boxes[Int(slot)]!
            switch core.failure(of: slot, policy: box.policy, whileStarting: startingFailure, now: now) {
            case .stop:
                tearDown(slot, reason: .failed)
                return
            case .restart(let placement, let history):
                restart(slot, in: placement, history: history)
                return
            case .escalate(let parent):
                let map = box.mapFailure
                tearDown(slot, reason: .failed)
                guard let target = core.escalationTarget(parent) else { return }
                let parentID = core.id(of: target)
                if let map, let event = map(failure) {
                    core.enqueue(.event(parentID, event))
                    return
                }
                publish(.failed(parentID, failure: failure))
                slot = target
                startingFailure = false
            }
        }
    }

    /// Tears a failed machine down and puts a fresh one of the same flow in its place (the core's
    /// `placement`: same parent, same state, same position among its siblings), started next. It has
    /// a new identity, and carries on its line's restart history. Nothing is restarted when the place
    /// is gone meanwhile, or the machine's owner.
    private func restart(_ slot: Int32, in placement: SupervisorCore.Placement, history: RestartHistory) {
        let box = boxes[Int(slot)]!
        tearDown(slot, reason: .failed)
        guard core.canPlace(placement) else { return }
        if box.ownerBound && box.lifetime == nil { return }  // its owner went away meanwhile
        let fresh: AnyMachineBox
        do throws(SupervisorError) {
            fresh = try box.remake()
        } catch {
            logger?.debug("restart failed", metadata: ["flow": "\(box.flowName)", "error": "\(error)"])
            return
        }
        guard let id = place(fresh, at: placement, lifecycle: .pending, history: history) else { return }
        publish(.restarted(box.id(in: self), replacement: id))
        core.startNext([id])
    }

    /// How many restart instants a machine's line keeps (for tests: at most its policy's `maxRestarts`).
    package func restartHistoryLength(of machine: MachineID) -> Int {
        core.slot(of: machine).flatMap { core.restartHistory(of: $0)?.instants.count } ?? 0
    }
}
