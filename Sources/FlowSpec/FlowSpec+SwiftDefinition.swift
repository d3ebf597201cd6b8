import FlowGraph
import Flowstate

/// Writes the states and transitions of a generated flow's `definition(_:)`, in builder bodies that
/// each declare at most ``bodyLimit`` states and transitions.
///
/// The type checker solves a builder body (nested bodies included) as one constraint system, one
/// declaration after another, each with the solutions of all those before it: its time grows with
/// the square of the body's size (a flat flow of 400 states, two transitions each, took 30 s to
/// type-check in one body, 7.5 s at 200). So a body that would declare more is cut into consecutive
/// parts, each the body of a function of its own (`definitionPart0(_:)`...), and the body calls them
/// (through further parts when the calls alone are more than the limit); a state too big for one body
/// keeps its place and has its own body cut the same way. Every function then has a small body, and
/// the time grows in proportion to the flow. A flow that fits in one body is written in one.
///
/// Every state, event, effect and output is named with its type (`On(Event.submit, to: State.done)`,
/// not `On(.submit, to: .done)`): the type checker then has no implicit member to look up from the
/// parameter's type, which took 30% of the time of a 1,000-state flow. A state with a body names the
/// flow (`StateNode<SignUp>(State.form) { ... }`), so that a declaration in it that does not
/// type-check is reported at its own line (otherwise the compiler blames the state's line).
struct DefinitionWriter {
    /// What a builder body declares: a state (with what it contains), one transition of a state, or
    /// a call to a part.
    enum Piece {
        case state(FlowFile.State)
        case transition(FlowFile.Transition, of: FlowFile.State)
        case call(Int)
    }

    /// The most states and transitions one builder body declares (nested ones included). Measured with
    /// `swiftc -typecheck` on generated flat flows of 1,000 states: parts of about 10 states of two
    /// transitions each type-check fastest; the definition of a small flow stays in one piece.
    static let bodyLimit = 30

    let writer: SwiftFlowWriter
    let scxml: Bool
    let stateNames: SwiftFlowWriter.Names
    let events: SwiftFlowWriter.Names
    let effects: SwiftFlowWriter.Names
    let outputs: SwiftFlowWriter.Names
    let requirements: SwiftFlowWriter.Names
    let limit: Int
    /// The bodies of the parts, `definitionPart<index>(_:)`, in the order they were cut.
    var parts: [[Piece]] = []

    /// The declarations of `pieces`, at `depth` levels of indentation: inline if they fit in one body,
    /// otherwise as calls to new parts (``parts``). A single piece that makes a whole function's body
    /// (`top`) is written here, a big state's own body then cut: the writer never recurses deeper
    /// than one body's states, however deep the flow.
    mutating func write(_ pieces: [Piece], depth: Int, top: Bool = true) -> String {
        var pieces = pieces
        if pieces.count > 1 || !top, weight(of: pieces, upTo: limit) > limit { pieces = cut(pieces) }
        var out = ""
        for piece in pieces { out += write(piece, depth: depth) }
        return out
    }

    /// Cuts `pieces` into consecutive parts of at most ``limit`` declarations (a piece bigger than that
    /// alone) and returns the calls to them, themselves cut until they fit in one body.
    mutating func cut(_ pieces: [Piece]) -> [Piece] {
        var pieces = pieces
        repeat {
            var calls: [Piece] = [], group: [Piece] = [], total = 0
            for piece in pieces {
                let size = weight(of: piece, upTo: limit)
                if !group.isEmpty, total + size > limit {
                    calls.append(.call(parts.count))
                    parts.append(group)
                    group = []
                    total = 0
                }
                group.append(piece)
                total += size
            }
            if !group.isEmpty {
                calls.append(.call(parts.count))
                parts.append(group)
            }
            pieces = calls
        } while pieces.count > limit
        return pieces
    }

    /// How many declarations `pieces` make, counted up to just past `limit` (the count stops there,
    /// so a deep state costs no more than `limit` steps to weigh).
    func weight(of pieces: [Piece], upTo limit: Int) -> Int {
        var total = 0
        for piece in pieces where total <= limit { total += weight(of: piece, upTo: limit - total) }
        return total
    }

    func weight(of piece: Piece, upTo limit: Int) -> Int {
        switch piece {
        case .call: return 1
        case .transition(let t, _): return lines(of: t)
        case .state(let state):
            var total = 1
            for t in state.transitions { total += lines(of: t) }
            for child in state.states where total <= limit { total += weight(of: .state(child), upTo: limit - total) }
            return total
        }
    }

    /// How many lines (`On`, `After`, `Always`) a transition is written as.
    func lines(of t: FlowFile.Transition) -> Int {
        t.event == nil ? 1 : max(1, writer.eventNames(t, scxml: scxml).count)
    }

    mutating func write(_ piece: Piece, depth: Int) -> String {
        let pad = String(repeating: "    ", count: depth)
        switch piece {
        case .call(let k):
            return "\(pad)definitionPart\(k)(requirements)\n"
        case .transition(let t, let state):
            return transition(t, of: state, pad: pad)
        case .state(let state):
            var out = writer.at(state.location, indent: pad)
            if let history = state.history {
                let target = state.transitions.first?.target ?? ""
                out += "\(pad)History(State.\(stateNames[state.name]), .\(history == .deep ? "deep" : "shallow"), default: State.\(stateNames[target]))\n"
                return out + writer.back(state.location, indent: pad)
            }
            let entry = state.entry.isEmpty ? "" : ", entry: [" + state.entry.map { "Effect." + effects[$0] }.joined(separator: ", ") + "]"
            if state.isFinal {
                out += "\(pad)Final(State.\(stateNames[state.name]), output: Output.\(outputs[state.output ?? state.name])\(entry))\n"
                return out + writer.back(state.location, indent: pad)
            }
            let parallel = state.isParallel && !state.states.isEmpty
            var arguments = "State.\(stateNames[state.name])"
            if !parallel, let initial = state.initial { arguments += ", initial: State.\(stateNames[initial])" }
            if let child = state.child { arguments += ", runs: requirements.\(requirements[child])()" }
            arguments += entry
            if !state.exit.isEmpty { arguments += ", exit: [" + state.exit.map { "Effect." + effects[$0] }.joined(separator: ", ") + "]" }
            let hasBody = !state.states.isEmpty || !state.transitions.isEmpty
            // A state with a body names the flow type: its body is then checked against it, and a
            // declaration in it that fails is reported at its own line, not at the state's.
            let generic = hasBody ? "<\(writer.typeName)>" : ""
            out += "\(pad)\(parallel ? "Parallel" : "StateNode")\(generic)(\(arguments))" + (hasBody ? " {\n" : "\n")
            out += writer.back(state.location, indent: pad)
            guard hasBody else { return out }
            // Children first, then the state's own transitions (the order the spec compiles to).
            let body = state.states.map { Piece.state($0) } + state.transitions.map { Piece.transition($0, of: state) }
            return out + write(body, depth: depth + 1, top: false) + pad + "}\n"
        }
    }

    /// One transition of `state`, with its place in the file.
    func transition(_ t: FlowFile.Transition, of state: FlowFile.State, pad: String) -> String {
        var out = writer.at(t.location, indent: pad)
        let guardPart = t.guardName.map { ", guard: " + writer.guardExpression($0, requirements: requirements, stateNames: stateNames) } ?? ""
        let updatePart = t.update.map { ", update: Update(\(SwiftFlowWriter.quote($0))) { _, _ in }" } ?? ""
        let effectPart = t.effects.isEmpty ? "" : ", effects: [" + t.effects.map { "Effect." + effects[$0] }.joined(separator: ", ") + "]"
        let target = t.targets.count > 1
            ? "[" + t.targets.map { "State.\(stateNames[$0])" }.joined(separator: ", ") + "]"
            : t.target.map { "State.\(stateNames[$0])" }
        let typePart = t.isInternal ? ", type: .internal" : ""
        if let done = writer.completion(t, scxml: scxml, isState: { stateNames.byName[$0] != nil }) {
            out += "\(pad)On(done: State.\(stateNames[done])\(guardPart), to: \(target ?? "nil")\(typePart)\(updatePart)\(effectPart))\n"
        } else if let delay = t.delay {
            // A delayed transition (the readers give it one target or none, external).
            out += "\(pad)After(\(SwiftFlowWriter.durationExpression(delay))\(guardPart), to: \(target ?? "nil")\(updatePart)\(effectPart))\n"
        } else if t.event == nil {
            // The readers refuse an eventless transition without a target.
            out += "\(pad)Always(" + String(guardPart.dropFirst(2)) + (guardPart.isEmpty ? "" : ", ")
                + "to: \(target ?? "State.\(stateNames[state.name])")\(typePart)\(updatePart)\(effectPart))\n"
        } else {
            for event in writer.eventNames(t, scxml: scxml) {
                out += "\(pad)On(Event.\(events[event])\(guardPart), to: \(target ?? "nil")\(typePart)\(updatePart)\(effectPart))\n"
            }
        }
        return out + writer.back(t.location, indent: pad)
    }
}
