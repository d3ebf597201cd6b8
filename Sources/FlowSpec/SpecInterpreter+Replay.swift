import DequeModule
import FlowGraph
import Flowstate

/// Replaying what the engine did and reported: a microstep's exits, transitions and entries, with
/// their executable content, a session's end, its invocations and their cancellation.
extension SpecInterpreter {
    /// Replays the microsteps the engine reports a step took, in order, from the configuration
    /// `active` it started in. The engine is the only one that says what a step exited and entered,
    /// for flows with and without parallel states.
    mutating func replay(_ microsteps: [FlowMicrostep], active: Set<String>, in s: Int,
                                 event: SpecEvent?) {
        var active = active
        for report in microsteps { replayMicrostep(report, in: s, active: &active, event: event) }
    }

    // MARK: microstep (replayed)

    /// The recommendation's `microstep`, replayed from the engine's report: `exitStates`, then
    /// `executeTransitionContent`, then `enterStates`. The report lists its actions in that order
    /// (``FlowMicrostep/actions``); `active` follows the configuration through them.
    mutating func replayMicrostep(_ report: FlowMicrostep, in s: Int, active: inout Set<String>,
                                    event: SpecEvent?) {
        let actions = report.actions[...]
        let exits = actions.prefix { if case .exit = $0 { true } else { false } }
        let taken = actions[exits.endIndex...].prefix { if case .take = $0 { true } else { false } }
        replayExitStates(exits, in: s, active: &active, event: event)
        executeTransitionContent(taken, in: s, active: active, event: event)
        replayEnterStates(actions[taken.endIndex...], in: s, active: &active, event: event)
    }

    // MARK: exitStates (replayed)

    /// The recommendation's `exitStates`, replayed over the exit set the engine computed (innermost first, its
    /// history already recorded): each state's `<onexit>` blocks, then the sessions it invoked are
    /// cancelled (and an invocation still due is dropped).
    mutating func replayExitStates(_ exits: ArraySlice<FlowMicrostep.Action>, in s: Int, active: inout Set<String>,
                                     event: SpecEvent?) {
        let declared = sessions[s]!.document.definition.states
        for action in exits {
            guard case .exit(let p) = action else { continue }
            let state = declared[p].state
            exitState(state, in: s, active: &active, event: event)
            cancelInvocations(of: state, in: s)
        }
    }

    /// Exits one state: its `<onexit>` blocks run with the configuration `active` of that moment
    /// (which still holds it), then it leaves `active`. The one place exit blocks run: for a
    /// microstep's exit set and for a session that ends (``exitInterpreter(_:event:)``).
    mutating func exitState(_ state: String, in s: Int, active: inout Set<String>,
                                    event: SpecEvent?) {
        for block in sessions[s]?.document.onExit[state] ?? [] {
            executeContent(block, in: s, active: active, event: event)
        }
        active.remove(state)
    }

    // MARK: executeTransitionContent

    /// The recommendation's `executeTransitionContent`: the blocks of the transitions taken, in the
    /// engine's order, after every exit and before any entry.
    mutating func executeTransitionContent(_ taken: ArraySlice<FlowMicrostep.Action>, in s: Int,
                                                   active: Set<String>, event: SpecEvent?) {
        let document = sessions[s]!.document
        for action in taken {
            guard case .take(let id) = action else { continue }
            if let block = document.contents[document.index.specTransitions[id.position]] {
                executeContent(block, in: s, active: active, event: event)
            }
        }
    }

    // MARK: enterStates (replayed)

    /// The recommendation's `enterStates`, replayed over the entry set the engine computed (outermost first,
    /// default and history entries resolved): each state joins `active` and is entered
    /// (``enterState(_:in:active:event:)``); each `done.state.<id>` the engine raised (a final state
    /// inside a parallel one) is queued where it was raised, after the entry blocks of that final
    /// state.
    mutating func replayEnterStates(_ entries: ArraySlice<FlowMicrostep.Action>, in s: Int,
                                      active: inout Set<String>, event: SpecEvent?) {
        let declared = sessions[s]!.document.definition.states
        for action in entries {
            switch action {
            case .enter(let p):
                let state = declared[p].state
                active.insert(state)
                enterState(state, in: s, active: active, event: event)
            case .done(let p):
                sessions[s]?.internalQueue.append(SpecEvent("done.state.\(declared[p].state)"))
            case .exit, .take:
                assertionFailure("a microstep's exits and transitions come before its entries")
            }
        }
    }

    /// Entering one state: its `<onentry>` blocks; its invocation is due at the end of the macrostep;
    /// a nested final outside parallel states raises `done.state.<parent>` (inside one, the engine
    /// raises it: see ``replayEnterStates(_:in:active:event:)``). A top-level final ends the session once
    /// the step is replayed (``finish(_:output:event:)``).
    mutating func enterState(_ state: String, in s: Int, active: Set<String>, event: SpecEvent?) {
        let document = sessions[s]!.document
        guard let declared = document.states[state] else { return }
        for block in document.onEntry[state] ?? [] { executeContent(block, in: s, active: active, event: event) }
        if declared.child != nil { sessions[s]?.toInvoke.append(state) }
        if document.raisesDone.contains(state), let parent = document.index.parent[state] {
            sessions[s]?.internalQueue.append(SpecEvent("done.state.\(parent)"))
        }
    }

    // MARK: exitInterpreter

    /// A session reached its top-level final state: it exits (``exitInterpreter(_:event:)``), its
    /// invocations are cancelled, and its parent gets `done.invoke.<id>` (`returnDoneEvent`).
    mutating func finish(_ s: Int, output: String, event: SpecEvent?) {
        guard let session = sessions[s] else { return }
        note(.finished(path: pathOf(s), output: output))
        if s == 0 { rootFinished = true }
        exitInterpreter(s, event: event)
        for (_, child) in (sessions[s]?.children ?? [:]).sorted(by: { $0.key < $1.key }) { cancelInvoke(child) }
        if let parent = session.parent, let document = sessions[parent]?.document, let id = session.invokeID {
            if document.scxml {
                sessions[parent]?.externalQueue.append(Queued(event: SpecEvent("done.invoke.\(id)"), origin: s))
            } else {
                // A JSON flow spec's child flow: its output becomes the event its state's `outputs` names
                // (none when it names null), else the event of the output's own name.
                let mapping = session.invokingState.flatMap { document.states[$0] }?.childOutputs
                let event = mapping?.first { $0.output == output }.map(\.event) ?? output
                if let event {
                    sessions[parent]?.externalQueue.append(Queued(event: SpecEvent(event), origin: s,
                                                                  outputOf: session.document.spec.name))
                }
            }
            sessions[parent]?.children[id] = nil
        }
        end(s)
    }

    /// The recommendation's `exitInterpreter`, for a session that finished or is cancelled: every
    /// active state is exited, innermost first (``exitState(_:in:active:event:)``), each seeing the
    /// configuration of its moment. Its invocations are the caller's: ``finish(_:output:event:)``
    /// cancels them after, ``cancelInvoke(_:)`` has cancelled them before. A failing block abandons
    /// itself only (``executeContent(_:in:active:event:)`` does not throw): the state's next blocks
    /// still run, every state leaves `active`, and the session ends.
    mutating func exitInterpreter(_ s: Int, event: SpecEvent?) {
        guard let machine = sessions[s]?.machine else { return }
        // A finished machine rests in its final configuration, which is exited too; a cancelled
        // session's machine has not finished (a session ends as its machine finishes).
        let configuration = machine.configuration
        var active = Set(configuration)
        for state in configuration { exitState(state, in: s, active: &active, event: event) }
    }

    mutating func end(_ s: Int) {
        live.removeAll { $0 == s }
        sessions[s] = nil
        // Its delayed events, sent or awaited, are dropped as they come up (`isLive`).
    }

    // MARK: invoke

    /// Starts the invocations of the states entered during the macrostep that are still active (the
    /// recommendation's `invoke`, at the end of each macrostep).
    mutating func invoke(_ s: Int) throws(Stop) {
        guard sessions[s]?.toInvoke.isEmpty == false else { return }
        // Fields, not the session: a copy of it would share its queues (see `selectAndTakeTransitions`).
        let toInvoke = sessions[s]!.toInvoke
        sessions[s]!.toInvoke = []
        let machine = sessions[s]!.machine
        let parentDocument = sessions[s]!.document
        let parentPath = sessions[s]!.path
        let configuration = Set(machine.isFinished ? [] : machine.configuration)
        for state in toInvoke where configuration.contains(state) {
            guard let declared = parentDocument.states[state], let child = declared.child,
                  let document = documents[child] else { continue }
            let id: String
            if let given = declared.childID {
                id = given
            } else {
                sessions[s]!.generatedIDs += 1
                id = "\(state).\(sessions[s]!.generatedIDs)"
            }
            // A JSON flow spec's child flow gets every external event its parent gets.
            let started = try interpret(document, path: parentPath + [document.spec.name], parent: s, invokeID: id,
                                        invokingState: state,
                                        autoforward: declared.autoforward || !parentDocument.scxml)
            if sessions[s] != nil, sessions[started] != nil { sessions[s]!.children[id] = started }
        }
    }

    // MARK: cancelInvoke

    /// Exiting a state cancels the sessions it invoked, and its invocation, if still due, is dropped.
    mutating func cancelInvocations(of state: String, in s: Int) {
        sessions[s]?.toInvoke.removeAll { $0 == state }
        guard let session = sessions[s] else { return }
        for (id, child) in session.children where sessions[child]?.invokingState == state {
            sessions[s]!.children[id] = nil
            cancelInvoke(child)
        }
    }

    /// The recommendation's `cancelInvoke`: ends a session and everything it invoked, children first,
    /// deepest first, each exiting its active states (``exitInterpreter(_:event:)``). Iterative:
    /// invocation chains may be deep.
    mutating func cancelInvoke(_ root: Int) {
        var order: [Int] = []
        var stack = [root]
        while let s = stack.popLast() {
            guard let session = sessions[s] else { continue }
            order.append(s)
            stack.append(contentsOf: session.children.values.sorted())
        }
        for s in order.reversed() {
            guard sessions[s] != nil else { continue }
            exitInterpreter(s, event: nil)
            note(.cancelled(path: pathOf(s)))
            cancelled.insert(s)
            end(s)
        }
    }
}
