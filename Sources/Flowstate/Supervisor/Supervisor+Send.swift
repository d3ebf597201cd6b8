// Sending events, and what follows a step: one path for every event, sent now or queued.

extension Supervisor {
    /// Sends an event to a machine. Outside a step it is processed now, with everything it causes and
    /// everything queued meanwhile; inside a step (from a handler, hook or observer) it is queued.
    /// - Throws: ``SupervisorError/Code/machineGone`` if the machine was torn down, is being torn down,
    ///   or belongs to another supervisor; ``SupervisorError/Code/stepFailed`` if it refused the event.
    ///   A queued event that is refused later is reported as ``TreeEvent/refused(_:event:error:)``.
    @inlinable
    public func send<F: Flow>(_ event: F.Event, to machine: MachineHandle<F>) throws(SupervisorError) {
        if core.isProcessing { return try queue(event, to: machine.id) }
        // A turn of its own, the machine stepped typed (specialized in the caller's module): with
        // nothing released, nothing queued, nobody observing and no declared children, nothing but
        // the step and its effects runs, and nothing is allocated.
        try turn { () throws(SupervisorError) in
            guard let box = runningBox(machine.id) else { throw dropped(event, to: machine.id) }
            let typed = unsafeDowncast(box, to: MachineBox<F>.self)  // a handle's type is its machine's
            let outcome: StepOutcome
            do throws(FlowError) {
                outcome = try typed.step(event, in: self)
            } catch {
                throw SupervisorError(error, otherwise: .stepFailed)
            }
            followUp(typed, outcome, starting: false)
        }
    }

    /// The box of a running machine of this supervisor, or `nil`.
    @usableFromInline
    func runningBox(_ id: MachineID) -> AnyMachineBox? {
        guard let slot = core.runningSlot(of: id) else { return nil }
        return boxes[Int(slot)]
    }

    /// Reports an event for a machine that is gone (or going) as dropped, and makes the error to throw.
    @usableFromInline
    func dropped(_ event: Any, to id: MachineID) -> SupervisorError {
        publish(.dropped(id, what: "event '\(event)'"))
        return gone(id, "send '\(event)' to")
    }

    /// Queues an event sent from inside a step, for a machine that can still take it (pending or
    /// running); it is delivered after the step, in FIFO order.
    @usableFromInline
    func queue(_ event: Any, to id: MachineID) throws(SupervisorError) {
        guard let slot = core.liveSlot(of: id) else { throw dropped(event, to: id) }
        guard boxes[Int(slot)]!.accepts(event) else { throw gone(id, "send '\(event)' to") }
        core.enqueue(.event(id, event))
    }

    /// Delivers a queued event to a running machine; a refusal is reported, not thrown.
    func deliver(_ event: Any, to slot: Int32) {
        stepQueued(slot, input: event, what: "queued event") { (box) throws(FlowError) in try box.deliver(event, in: self) }
    }

    /// The one path of a queued step, an event's (``deliver(_:to:)``) or a due timer's
    /// (``fire(_:to:)``): the box takes it (`step`), then the step's effects, declared children
    /// stopped and started, output to the parent and failures follow (``followUp(_:_:starting:)``).
    /// A refusal (the machine's `FlowError`) is published and logged, not thrown: the call that
    /// queued it has returned.
    func stepQueued(_ slot: Int32, input: Any, what: String,
                    _ step: (AnyMachineBox) throws(FlowError) -> StepOutcome) {
        let box = boxes[Int(slot)]!
        let outcome: StepOutcome
        do throws(FlowError) {
            outcome = try step(box)
        } catch {
            publish(.refused(box.id(in: self), event: "\(input)", error: error))
            logger?.debug("\(what) refused", metadata: ["machine": "\(box.id(in: self))", "error": "\(error)"])
            return
        }
        followUp(box, outcome, starting: false)
    }

    /// What the tree does while a box takes a step, before the step's effects, as the core classes it
    /// (``SupervisorCore/stepKind(_:declaresChildren:)``): a started machine is
    /// reported; a moved one is reported, and, if its flow declares children, the core plans what the
    /// step does with them (``SupervisorCore/entryPlan(of:before:after:finished:declaresChild:)``) from
    /// the configuration `before` the step (the engine's, for a flow with parallel states; empty
    /// otherwise: the leaf the step left and its ancestors) and the one after it: the children of the
    /// states it left are torn down now, and the states whose children start are kept for the
    /// follow-up. A box calls this only when someone observes or its flow declares children.
    @usableFromInline
    func stepTaken(_ box: AnyMachineBox, _ summary: StepSummary, before: [Int32],
                   describe: () -> StepDescription) {
        let slot = box.slot
        let plansChildren: Bool
        switch SupervisorCore.stepKind(summary, declaresChildren: box.declaresChildren) {
        case .none:
            return
        case .spawn:
            if isObserved {
                let parent = core[slot].parent
                let description = describe()
                publish(.spawned(box.id(in: self), flow: box.flowName, parent: parent >= 0 ? core.id(of: parent) : nil,
                              state: description.to, transitions: description.transitions))
            }
            return
        case .move(let plans):
            plansChildren = plans
        }
        if isObserved {
            let description = describe()
            publish(.transitioned(box.id(in: self), from: description.from, to: description.to, event: description.event,
                               transitions: description.transitions))
        }
        guard plansChildren else { return }
        let finished = summary.kind == .finished
        let configurationBefore = before.isEmpty ? box.configuration(atLeaf: summary.from) : before
        let plan = core.entryPlan(of: slot, before: configurationBefore, after: finished ? [] : box.activePositions(),
                                  finished: finished, declaresChild: { box.declaresChild(at: Int($0)) })
        if plan.start.isEmpty { box.supervision?.declaredStarts = nil } else { box.ensuredSupervision.declaredStarts = plan.start }
        for child in plan.stop { tearDown(child, reason: .parentLeftState) }
    }

    /// Performs what follows a step, as the core decides (``SupervisorCore/followUp(of:_:declaresChildren:)``):
    /// nothing, most of the time, decided inline.
    @inlinable
    func followUp(_ box: AnyMachineBox, _ outcome: StepOutcome, starting: Bool) {
        let next = core.followUp(of: box.id(in: self), outcome, declaresChildren: box.declaresChildren)
        if case .none = next { return }
        perform(next, after: box, outcome.summary, starting: starting)
    }

    @usableFromInline
    func perform(_ next: SupervisorCore.FollowUp, after box: AnyMachineBox, _ summary: StepSummary, starting: Bool) {
        switch next {
        case .none:
            return
        case .fail(let slot, let failure):
            fail(slot, failure, whileStarting: starting)
        case .complete:
            complete(box.slot)
        case .startDeclaredChildren:
            startDeclaredChildren(of: box, summary, starting: starting)
        }
    }

    /// A machine reached a final state: it is torn down, then its output goes where the core says
    /// (``SupervisorCore/outputRoute(parent:)``): to its parent as a queued event, or to the root's
    /// receiver.
    func complete(_ slot: Int32) {
        let box = boxes[Int(slot)]!
        let output = box.output()
        if isObserved, let output { publish(.completed(box.id(in: self), output: TreeEvent.Output(output))) }
        let parent = core[slot].parent
        tearDown(slot, reason: .completed)
        guard let output else { return }
        switch core.outputRoute(parent: parent) {
        case .parent(let id):
            if let event = box.mapOutput?(output) { core.enqueue(.event(id, event)) }
        case .root:
            box.supervision?.rootOutput?(output)
        case .nowhere:
            break
        }
    }

    /// Performs an effect that a declared child mapped to its parent's effect type.
    @usableFromInline
    func forwardToParent(_ effect: Any, from child: MachineID, origin: MachineID) throws(EffectFailure) {
        guard let slot = core.slot(of: child), core[slot].parent >= 0,
              let parent = boxes[Int(core[slot].parent)] else { return }
        try parent.performForwarded(effect, origin: origin, in: self)
    }
}
