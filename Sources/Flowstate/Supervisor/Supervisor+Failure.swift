// Failures: the core plans what a failure does (SupervisorCore+Failure.swift); the shell tears down,
// restarts, tells parents, and calls the user's failure mapping where the plan waits for it.

extension Supervisor {
    /// Applies failure policies as the core plans them
    /// (``SupervisorCore/failurePlan(from:whileStarting:now:policy:mapsFailures:)``): tear-downs,
    /// a restart, parents told. The one decision the core cannot take is the user's failure mapping:
    /// where the plan waits for it, the shell calls it once the failed child is torn down; an event
    /// goes to the parent and ends the failure, `nil` makes the parent's failure the next plan's start.
    func fail(_ slot: Int32, _ effectFailure: EffectFailure, whileStarting: Bool) {
        let first = boxes[Int(slot)]!
        let failure = SupervisionFailure(machine: first.id(in: self), flow: first.flowName, effect: effectFailure.effect,
                                         message: effectFailure.message)
        publish(.failed(first.id(in: self), failure: failure))
        var next: (slot: Int32, whileStarting: Bool)? = (slot, whileStarting)
        while let (start, starting) = next {
            next = nil
            learnReleasedOwners()
            let plan = core.failurePlan(from: start, whileStarting: starting, now: now,
                                        policy: { boxes[Int($0)]!.policy },
                                        mapsFailures: { boxes[Int($0)]!.mapFailure != nil })
            let map = plan.mapping.flatMap { boxes[Int($0.child)]?.mapFailure }  // before its teardown
            perform(plan.steps, failure)
            guard let (_, parent) = plan.mapping, let map else { continue }
            if let event = map(failure) {
                core.enqueue(.event(core.id(of: parent), event))
            } else {
                publish(.failed(core.id(of: parent), failure: failure))
                next = (parent, false)
            }
        }
    }

    /// Performs a failure plan's steps in order.
    private func perform(_ steps: [SupervisorCore.FailureStep], _ failure: SupervisionFailure) {
        for step in steps {
            switch step {
            case .tearDown(let slot): tearDown(slot, reason: .failed)
            case .restart(let slot, let placement, let history): restart(slot, in: placement, history: history)
            case .report(let parent): publish(.failed(core.id(of: parent), failure: failure))
            }
        }
    }

    /// Tears a failed machine down and puts a fresh one of the same flow in its place (the core's
    /// `placement`: same parent, same state, same position among its siblings), started next. It has
    /// a new identity, and carries on its line's restart history. Nothing is restarted when the core
    /// says so (``SupervisorCore/restartPlace(_:ownerGone:)``): the place is gone meanwhile, or the
    /// machine's owner, which the shell learns from the box's lifetime once the teardown ran.
    private func restart(_ slot: Int32, in placement: SupervisorCore.Placement, history: RestartHistory) {
        let box = boxes[Int(slot)]!
        tearDown(slot, reason: .failed)
        guard let placement = core.restartPlace(placement, ownerGone: box.ownerBound && box.lifetime == nil) else {
            return
        }
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

    /// Tells the core of every machine whose owner's lifetime reported its end (``ReleaseInbox``) and
    /// that is not swept yet: its failure plan restarts it no more
    /// (``SupervisorCore/ownerReleased(_:)``). Nothing when no owner was released.
    func learnReleasedOwners() {
        for id in inbox.released { core.ownerReleased(id) }
    }

    /// How many restart instants a machine's line keeps (for tests: at most its policy's `maxRestarts`).
    package func restartHistoryLength(of machine: MachineID) -> Int {
        core.slot(of: machine).flatMap { core.restartHistory(of: $0)?.instants.count } ?? 0
    }
}
