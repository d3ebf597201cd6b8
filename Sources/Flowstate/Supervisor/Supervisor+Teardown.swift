// Teardown: stop, sweep, and the one routine that tears a subtree down in the order the core decides.

extension Supervisor {
    /// Stops a machine and its subtree: children first, siblings in reverse order (reverse spawn order;
    /// declared children in reverse document order of their states), each machine's
    /// exit effects and teardown hook exactly once.
    ///
    /// Called from inside a step, the stop is queued (performed after the step, in FIFO order) and the
    /// returned record is empty; the teardown is reported by ``TreeEvent/tornDown(_:reason:)``.
    /// - Returns: The machines torn down, in order (empty if the machine was already gone).
    @discardableResult
    public func stop(_ machine: MachineID) -> TeardownRecord {
        if core.isProcessing {
            if core.slot(of: machine) != nil { core.enqueue(.stop(machine, .stopped)) }
            return TeardownRecord()
        }
        var record = TeardownRecord()
        turn {
            if let slot = core.slot(of: machine) { tearDown(slot, reason: .stopped, record: &record) }
        }
        return record
    }

    /// Stops a machine and its subtree (see ``stop(_:)-(MachineID)``).
    @discardableResult
    public func stop<F: Flow>(_ machine: MachineHandle<F>) -> TeardownRecord { stop(machine.id) }

    /// Tears down every machine whose owner has been deallocated. Every public call does this first,
    /// so an app needs it only to release memory at a moment of its choosing. Called from inside a
    /// step, it returns an empty record: the sweep comes after the step, before anything queued.
    @discardableResult
    public func sweep() -> TeardownRecord {
        guard !core.isProcessing, !inbox.released.isEmpty else { return TeardownRecord() }
        swept = TeardownRecord()
        turn {}
        defer { swept = TeardownRecord() }
        return swept
    }

    /// Tears down the machines whose lifetime ended, in spawn order: O(machines released).
    @usableFromInline
    func sweepReleased() {
        while !inbox.released.isEmpty {
            let released = inbox.released.sorted()
            inbox.released.removeAll()
            for id in released {
                if let slot = core.slot(of: id) { tearDown(slot, reason: .ownerReleased, record: &swept) }
            }
        }
    }

    /// Tears down a subtree in the order the core decides (``SupervisorCore/beginTeardown(of:reason:)``),
    /// the whole subtree marked as stopping before any user code runs. For each machine, in order: its
    /// exit effects if it had started (a failing one is reported, not escalated: the machine is going
    /// away already, and the other exit effects still run), its tasks cancelled, its removal, its
    /// hook, its tree event.
    func tearDown(_ slot: Int32, reason: TeardownReason, record: inout TeardownRecord) {
        guard let steps = core.beginTeardown(of: slot, reason: reason) else { return }
        for step in steps {
            let box = boxes[Int(step.slot)]!
            let id = box.id(in: self)
            let shape = box.shape
            if step.wasRunning && box.exitsOnStop(shape) {
                for failure in box.stopAndExit(in: self) {
                    publish(.failed(id, failure: SupervisionFailure(machine: failure.origin, flow: shape.name,
                                                                 effect: failure.effect, message: failure.message)))
                }
            }
            let hook = box.onTeardown
            if let tasks = box.supervision?.tasks { for task in tasks.values { task.cancel() } }
            boxes[Int(step.slot)] = nil
            core.remove(step.slot)
            record.append(id, flow: shape.name)
            hook?(step.reason)
            publish(.tornDown(id, reason: step.reason))
        }
    }

    /// Tears down a subtree, keeping no record.
    func tearDown(_ slot: Int32, reason: TeardownReason) {
        var record = TeardownRecord()
        tearDown(slot, reason: reason, record: &record)
    }
}
