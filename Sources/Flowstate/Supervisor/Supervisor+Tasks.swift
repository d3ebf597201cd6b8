// Asynchronous effects: work started by a machine's handler, whose result enters the queue.

extension Supervisor {
    func startTask<F: Flow>(origin: MachineID, target: MachineHandle<F>,
                            _ operation: @escaping @Sendable () async throws -> F.Event?) throws(SupervisorError) {
        guard let isolation else {
            throw SupervisorError(code: .noIsolation,
                                  message: "async effects need a supervisor created on an actor (such as the main actor)")
        }
        guard let slot = core.slot(of: origin), let box = boxes[Int(slot)] else { return }
        let taskID = nextTask
        nextTask += 1
        let supervisor = WeakSupervisor(self)
        box.ensuredSupervision.tasks[taskID] = Task {
            let result: Result<F.Event?, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            await Supervisor.finishTask(supervisor, taskID: taskID, origin: origin, target: target.id,
                                        result: result.map { $0.map { $0 as any Sendable } },
                                        isolation: isolation)
        }
    }

    private static func finishTask(_ supervisor: WeakSupervisor, taskID: UInt64, origin: MachineID,
                                   target: MachineID, result: Result<(any Sendable)?, any Error>,
                                   isolation: isolated any Actor) {
        // Back on the supervisor's isolation: the only place its state is touched.
        supervisor.value?.finishTask(taskID: taskID, origin: origin, target: target, result: result)
    }

    /// An async effect's result or failure enters the queue like any other message, unless the core
    /// drops it (``SupervisorCore/taskResult(origin:target:)``): a machine it concerns is gone.
    private func finishTask(taskID: UInt64, origin: MachineID, target: MachineID,
                            result: Result<(any Sendable)?, any Error>) {
        if let originSlot = core.slot(of: origin) { boxes[Int(originSlot)]?.supervision?.tasks[taskID] = nil }
        if case .drop(let gone) = core.taskResult(origin: origin, target: target) {
            let what: String
            switch result {
            case .success(let event?): what = "async result '\(event)'"
            case .success(nil): what = "async completion"
            case .failure(let error): what = "async error '\(error)'"
            }
            publish(.dropped(gone, what: what))
            return
        }
        switch result {
        case .success(let event?):
            core.enqueue(.event(target, event))
        case .success(nil):
            return
        case .failure(let error):
            core.enqueue(.asyncFailure(origin, EffectFailure(origin: origin, effect: "async work", message: "\(error)")))
        }
        if !core.isProcessing { turn {} }
    }

    /// How many async effects are in flight (for tests and diagnostics).
    package var tasksInFlight: Int { boxes.reduce(0) { $0 + ($1?.taskCount ?? 0) } }
}
