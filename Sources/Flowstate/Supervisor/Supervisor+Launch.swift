// Launching machines: roots, dynamic children and declared children; one path for every start.

extension Supervisor {
    /// Starts a root machine and performs its entry effects (and its declared children's).
    ///
    /// Called from inside a step, the handle is returned at once and the machine starts after the step.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - context: The machine's context; `nil` for the definition's ``FlowDefinition/initialContext``.
    ///     A restart starts again from it.
    ///   - policy: What to do when its handler throws. A root that escalates stops its tree.
    ///   - onTeardown: Called exactly once, when the machine is torn down.
    ///   - output: Receives the flow's output, typed, when it reaches a final state (after its
    ///     teardown, inside the step: calls it makes to the supervisor follow the re-entrancy rules).
    ///   - handler: Performs the machine's effects (and its declared children's, mapped).
    /// - Throws: ``SupervisorError/Code/invalidDefinition``; ``SupervisorError/Code/stepFailed`` when
    ///   the machine cannot start (an eventless loop): nothing is left in the tree then.
    @inlinable
    @discardableResult
    public func start<F: Flow>(
        _ definition: FlowDefinition<F>,
        context: F.Context? = nil,
        policy: FailurePolicy = .escalate,
        onTeardown: ((TeardownReason) -> Void)? = nil,
        output: ((F.Output) -> Void)? = nil,
        handler: @escaping EffectHandler<F>
    ) throws(SupervisorError) -> MachineHandle<F> {
        let box = try MachineBox<F>(fresh: definition, context: context, route: .handler(handler), policy: policy,
                                    onTeardown: onTeardown)
        if let output { box.setRootOutput { output($0 as! F.Output) } }
        return MachineHandle(id: try launch(box, under: -1))
    }

    /// Spawns a child machine under `parent`, bound to `owner`'s lifetime: when `owner` is deallocated,
    /// the child's subtree is torn down before the supervisor's next call observes the tree.
    ///
    /// Outside a step, the child starts now: its start effects are performed by `handler` and its
    /// declared children spawned before this returns. Called from inside a step (from a handler, hook
    /// or observer), the handle is returned at once and the machine starts after the step, in FIFO
    /// order. The child is torn down when `owner` goes, when its parent is torn down or finishes, when
    /// it reaches a final state (after `output` maps its output), or when it is stopped; `onTeardown`
    /// is called once, then.
    ///
    /// ```swift
    /// let lifetime = FlowLifetime()             // kept by the screen the child shows
    /// let child = try supervisor.spawn(SignUp.definition, under: launch, owner: lifetime,
    ///                                  handler: { effect, _ in show(effect) },
    ///                                  output: { $0 == .signedUp ? .accountCreated : .accountCancelled })
    /// ```
    /// - Parameters:
    ///   - definition: The child flow; it must be valid.
    ///   - parent: The machine the child runs under; its output becomes this machine's event.
    ///   - context: The child's context; `nil` for the definition's ``FlowDefinition/initialContext``.
    ///     A restart starts again from it.
    ///   - owner: The lifetime that bounds the child (on iOS, kept by the flow's root view
    ///     controller). Held weakly. `nil` binds the child only to its parent.
    ///   - policy: What to do when its handler throws.
    ///   - onTeardown: Called exactly once, when the child is torn down.
    ///   - handler: Performs the child's effects.
    ///   - failure: The parent event that reports the child's failure; `nil` lets it escalate.
    ///   - output: The parent event that reports the child's output (`nil`: none). Called inside the
    ///     step that finished the child, after its teardown.
    /// - Returns: The child's handle, valid until the child is torn down (then calls with it throw
    ///   ``SupervisorError/Code/machineGone``).
    /// - Throws: ``SupervisorError/Code/machineGone`` if `parent` is gone or being torn down;
    ///   ``SupervisorError/Code/invalidDefinition``; ``SupervisorError/Code/stepFailed`` when the child
    ///   cannot start.
    @inlinable
    @discardableResult
    public func spawn<C: Flow, P: Flow>(
        _ definition: FlowDefinition<C>,
        under parent: MachineHandle<P>,
        context: C.Context? = nil,
        owner: FlowLifetime? = nil,
        policy: FailurePolicy = .escalate,
        onTeardown: ((TeardownReason) -> Void)? = nil,
        handler: @escaping EffectHandler<C>,
        failure: (@Sendable (SupervisionFailure) -> P.Event?)? = nil,
        output: @escaping @Sendable (C.Output) -> P.Event?
    ) throws(SupervisorError) -> MachineHandle<C> {
        let parentSlot = try livingParent(parent.id)
        let box = try MachineBox<C>(
            fresh: definition, context: context, route: .handler(handler), policy: policy,
            mapOutput: { output($0 as! C.Output) }, mapFailure: failure.map { map in { map($0) } },
            onTeardown: onTeardown, lifetime: owner)
        return MachineHandle(id: try launch(box, under: parentSlot))
    }

    /// The slot of a parent that can take a child (after sweeping), or ``SupervisorError/Code/machineGone``.
    @usableFromInline
    func livingParent(_ id: MachineID) throws(SupervisorError) -> Int32 {
        settleForReading()
        guard let slot = core.liveSlot(of: id) else { throw gone(id, "spawn a child under") }
        return slot
    }

    /// Puts a new box in the tree under `parent` and starts it: the one path of every start from the
    /// API. Inside a step the start is queued. Otherwise it happens now, in a turn of its own: the box
    /// is placed (unless the turn's sweep took the parent away) and started, typed, specialized in the
    /// caller's module; a machine that cannot start leaves the tree as if it never came.
    @inlinable
    func launch<F: Flow>(_ box: MachineBox<F>, under parent: Int32) throws(SupervisorError) -> MachineID {
        if core.isProcessing { return try queueStart(box, under: parent) }
        return try turn { () throws(SupervisorError) -> MachineID in
            let id = try place(box, under: parent, lifecycle: .running)
            let outcome: StepOutcome
            do throws(FlowError) {
                outcome = try box.start(in: self)
            } catch {
                discard(id.slot)
                throw SupervisorError(error, otherwise: .stepFailed)
            }
            followUp(box, outcome, starting: true)
            return id
        }
    }

    /// Places a box under `parent`, pending, and queues its start (a launch from inside a step).
    @usableFromInline
    func queueStart(_ box: AnyMachineBox, under parent: Int32) throws(SupervisorError) -> MachineID {
        let id = try place(box, under: parent, lifecycle: .pending)
        core.enqueue(.start(id))
        return id
    }

    /// Places a box under `parent`, or ``SupervisorError/Code/machineGone`` when the parent is gone.
    @usableFromInline
    func place(_ box: AnyMachineBox, under parent: Int32, lifecycle: SupervisorCore.Lifecycle)
        throws(SupervisorError) -> MachineID
    {
        guard let id = place(box, at: SupervisorCore.Placement(parent: parent), lifecycle: lifecycle) else {
            throw SupervisorError(code: .machineGone, message: "cannot spawn '\(box.flowName)': its parent is gone")
        }
        return id
    }

    /// Gives a box an identity and the place the core finds for it; `nil` when the place is gone
    /// (``SupervisorCore/canPlace(_:)``). An owner-bound box whose lifetime is already released tells
    /// the core so, and the core says to release it now
    /// (``SupervisorCore/place(_:lifecycle:history:ownerGone:)``).
    func place(_ box: AnyMachineBox, at placement: SupervisorCore.Placement, lifecycle: SupervisorCore.Lifecycle,
               history: RestartHistory? = nil) -> MachineID? {
        guard let placed = core.place(placement, lifecycle: lifecycle, history: history,
                                      ownerGone: box.ownerBound && box.lifetime == nil) else { return nil }
        let slot = placed.slot
        if Int(slot) == boxes.count { boxes.append(box) } else { boxes[Int(slot)] = box }
        let id = core.id(of: slot)
        box.place(id)
        box.lifetime?.register(id, in: inbox)
        if placed.releaseNow { inbox.released.append(id) }
        return id
    }

    /// Removes a machine that never started (its start failed), with whatever was spawned under it.
    @usableFromInline
    func discard(_ slot: Int32) {
        for s in core.discard(slot) { boxes[Int(s)] = nil }
    }

    /// Starts a queued machine (the core marked it running): a start the engine refuses (an eventless
    /// loop) is a failure of the machine, while starting.
    func begin(_ slot: Int32) {
        let box = boxes[Int(slot)]!
        let outcome: StepOutcome
        do throws(FlowError) {
            outcome = try box.start(in: self)
        } catch {
            fail(slot, EffectFailure(origin: box.id(in: self), effect: "start", message: error.message), whileStarting: true)
            return
        }
        followUp(box, outcome, starting: true)
    }

    /// Spawns the declared children of the states a step entered, as the core's entry plan says
    /// (``SupervisorCore/entryPlan(of:before:after:finished:declaresChild:)``: made for a start here,
    /// every active state entered; for an event's or a timer's step, when the step was reported, before
    /// its effects), outermost first, each in the place the core finds for it
    /// (``SupervisorCore/declaredPlacement(parent:state:)``), and has them started next, before
    /// anything queued (``SupervisorCore/startNext(_:)``).
    func startDeclaredChildren(of box: AnyMachineBox, _ summary: StepSummary, starting: Bool) {
        let slot = box.slot
        let states: [Int32]
        if starting {
            states = core.entryPlan(of: slot, before: [], after: box.activePositions(), finished: false,
                                    declaresChild: { box.declaresChild(at: Int($0)) }).start
        } else {
            states = box.supervision?.declaredStarts ?? []
            box.supervision?.declaredStarts = nil
        }
        var starts: [MachineID] = []
        for state in states {
            guard let spec = box.childFlow(at: Int(state)) else { continue }
            do throws(SupervisorError) {
                let child = try spec.make(ChildStart(parentContext: box.anyContext))
                let placement = core.declaredPlacement(parent: slot, state: state)
                if let id = place(child, at: placement, lifecycle: .pending) { starts.append(id) }
            } catch {
                logger?.debug("declared child cannot be made", metadata: ["flow": "\(spec.name)", "error": "\(error)"])
            }
        }
        core.startNext(starts)
    }

    /// Inserts restored machines (already checked), in preorder: `parents[i]` is an index into
    /// `boxes` or -1 for the subtree's root, which goes under `root` (-1: a new root).
    func insertRestored(_ restored: [RestoredMachine], under root: Int32)
        throws(SupervisorError) -> MachineID
    {
        try turn { () throws(SupervisorError) -> MachineID in
            var ids: [MachineID] = []
            ids.reserveCapacity(restored.count)
            for (box, parent, parentState, timers) in restored {
                let parentSlot = parent >= 0 ? ids[parent].slot : root
                guard let id = place(box, at: SupervisorCore.Placement(parent: parentSlot, state: parentState),
                                     lifecycle: .running) else {
                    throw SupervisorError(code: .machineGone, message: "cannot restore under a machine that is gone")
                }
                ids.append(id)
                if !timers.isEmpty { core.restoreTimers(timers, of: id, now: timerNow()) }
                if isObserved {
                    publish(.spawned(id, flow: box.flowName, parent: parentSlot >= 0 ? core.id(of: parentSlot) : nil,
                                  state: box.described.stateLabel, transitions: FlowTransitions()))
                }
            }
            return ids[0]
        }
    }
}
