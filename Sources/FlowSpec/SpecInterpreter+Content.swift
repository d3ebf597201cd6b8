import DequeModule
import FlowGraph
import Flowstate

/// Executable content run: each block lowered once to branches and jumps (``SpecInstruction``), then
/// run as a loop.
extension SpecInterpreter {
    // MARK: executeContent

    /// The recommendation's `executeContent` for one block, lowered once (``SpecDocument``). An
    /// instruction that fails places its error event on the internal queue and abandons the rest of
    /// the block (the recommendation's rule). It does not throw: a failure is an event, never a
    /// reason to skip the blocks after this one (the next `<onexit>` of the same state, the next
    /// state's), so every replay of a microstep and every exit of a session
    /// (``exitInterpreter(_:event:)``) runs to its end.
    mutating func executeContent(_ code: [SpecInstruction], in s: Int, active: Set<String>, event: SpecEvent?) {
        var pc = 0
        while pc < code.count {
            var next = pc + 1
            switch code[pc] {
            case .raise(let name):
                sessions[s]?.internalQueue.append(SpecEvent(name))
            case .branch(let condition, let otherwise):
                guard let value = evaluate(condition, in: s, active: active, event: event) else {
                    raiseError("error.execution", in: s)
                    return
                }
                if !value { next = otherwise }
            case .jump(let to):
                next = to
            case .cancel(let id):
                for sequence in sendsByID.removeValue(forKey: SendKey(sender: s, id: id)) ?? [] {
                    cancelDelayed(sequence)
                }
            case .unsupported:
                raiseError("error.execution", in: s)
                return
            case .send(let send):
                guard dispatch(send, from: s) else { return }
            }
            // Branches and jumps only go forward (``SpecInstruction/lower(_:)`` writes them so): one
            // that did not would loop, so it fails as any instruction that cannot run.
            guard next > pc else {
                raiseError("error.execution", in: s)
                return
            }
            pc = next
        }
    }

    /// A condition of `<if>`/`<elseif>`: `true`, `false`, `In('id')`, or a guard by name (the event's
    /// truths, then the run's defaults, then true, as for transitions). `nil` when empty.
    func evaluate(_ condition: String, in s: Int, active: Set<String>, event: SpecEvent?) -> Bool? {
        let text = condition.trimmingSpaces
        if text.isEmpty { return nil }
        if text == "true" { return true }
        if text == "false" { return false }
        if let state = FlowFile.inPredicate(text) { return active.contains(state) }
        return event?.guards[condition] ?? guards[condition] ?? true
    }

    mutating func raiseError(_ name: String, in s: Int) {
        sessions[s]?.internalQueue.append(SpecEvent(name))
    }

    /// Routes a `<send>`; false when it failed (its error is already queued).
    mutating func dispatch(_ send: FlowFile.Send, from s: Int) -> Bool {
        if let type = send.type, type != FlowFile.Send.scxmlType, type != "scxml" {
            raiseError("error.execution", in: s)
            return false
        }
        let id: String
        if let given = send.id {
            id = given
        } else {
            sendCounter += 1
            id = "send.\(sendCounter)"
        }
        let target: Int
        var isInternal = false
        switch send.target {
        case nil:
            target = s
        case "#_internal"?:
            target = s
            isInternal = true
        case "#_parent"?:
            guard let parent = sessions[s]?.parent, sessions[parent] != nil else {
                raiseError("error.communication", in: s)
                return false
            }
            target = parent
        case let value? where value.hasPrefix("#_scxml_"):
            let sessionID = String(value.dropFirst("#_scxml_".count))
            guard let found = Int(sessionID), sessions.indices.contains(found), sessions[found] != nil else {
                raiseError("error.communication", in: s)
                return false
            }
            target = found
        case let value? where value.hasPrefix("#_"):
            guard let child = sessions[s]?.children[String(value.dropFirst(2))], sessions[child] != nil else {
                raiseError("error.communication", in: s)
                return false
            }
            target = child
        case _?:
            raiseError("error.execution", in: s)
            return false
        }
        let event = SpecEvent(send.event)
        if send.delay > 0 {
            sequence += 1
            sendsByID[SendKey(sender: s, id: id), default: []].append(sequence)
            enqueueDelayed(Delayed(due: now + send.delay, sequence: sequence, sender: s, sendID: id, target: target,
                                   isInternal: isInternal, event: event))
        } else if isInternal {
            sessions[target]?.internalQueue.append(event)
        } else {
            sessions[target]?.externalQueue.append(Queued(event: event, origin: s))
        }
        return true
    }
}

/// An instruction of a block of executable content lowered for running (``lower(_:)``): the tree's
/// `<if>` becomes branches and jumps, so that running a block is a loop however deeply it nests. The
/// one place executable content is encoded so; the flow file holds the tree.
enum SpecInstruction: Hashable, Sendable {
    /// `<raise event>`.
    case raise(String)
    /// `<send>`.
    case send(FlowFile.Send)
    /// `<cancel sendid>`.
    case cancel(String)
    /// The start of a branch of `<if>` (its own or an `<elseif>`): when the condition is false,
    /// execution continues at instruction `otherwise`.
    case branch(condition: String, otherwise: Int)
    /// Continue at instruction `to` (the end of an `<if>` after a taken branch).
    case jump(to: Int)
    /// An element the null data model cannot execute: it raises `error.execution`.
    case unsupported

    /// A block lowered: `<if c1>A<elseif c2>B<else>C</if>` is `branch(c1) A jump(end) branch(c2) B
    /// jump(end) C end:`, each branch continuing past its segment's jump; a branch without an
    /// `<elseif>` or `<else>` after it has no jump; an `<if>` without branches runs its `<else>`.
    /// `<log>` does nothing (its label is the step's effect; the null data model evaluates no `expr`)
    /// and is left out. Walks the tree with `FlowFile.Executable.walk(_:_:)`: no recursion.
    static func lower(_ block: FlowFile.Executable) -> [SpecInstruction] {
        var code: [SpecInstruction] = []
        /// For each `<if>` open: the branch whose `otherwise` is still to be known, and its jumps.
        var open: [(branch: Int?, jumps: [Int])] = []
        func closeBranch() {
            guard let b = open[open.count - 1].branch, case .branch(let condition, _) = code[b] else { return }
            code[b] = .branch(condition: condition, otherwise: code.count)
            open[open.count - 1].branch = nil
        }
        func jumpToEnd() {
            open[open.count - 1].jumps.append(code.count)
            code.append(.jump(to: -1))
        }
        FlowFile.Executable.walk(block.actions) { step in
            switch step {
            case .action(let action):
                switch action.kind {
                case .raise(let event): code.append(.raise(event))
                case .send(let send): code.append(.send(send))
                case .cancel(let id): code.append(.cancel(id))
                case .log, .if: break
                case .unsupported: code.append(.unsupported)
                }
            case .openIf:
                open.append((nil, []))
            case .branch(let condition, let first):
                if !first {
                    jumpToEnd()
                    closeBranch()
                }
                open[open.count - 1].branch = code.count
                code.append(.branch(condition: condition, otherwise: -1))
            case .otherwise:
                if open[open.count - 1].branch != nil {
                    jumpToEnd()
                    closeBranch()
                }
            case .closeIf:
                closeBranch()
                for j in open.removeLast().jumps { code[j] = .jump(to: code.count) }
            }
        }
        return code
    }
}
