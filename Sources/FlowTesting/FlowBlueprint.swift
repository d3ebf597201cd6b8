import Flowstate
import PropertyBased

/// A small random flow as plain data, for people testing tools built on Flowstate (writers, diagram
/// layouts, analyses): nested states, final states, parallel states, guards, eventless and targetless
/// transitions.
///
/// States are named `s0`, `s1`, … in declaration order (a parent before its children; `s0` is the
/// initial state), events are lowercase letters, effects name what they belong to (`entry s1`,
/// `exit s1`, `t3` for the transition at position 3). ``definition`` builds the
/// `FlowDefinition` (of `StringFlow`, the shape of flows read from files), and ``swiftCode``
/// prints the same definition as Swift, to paste into a regression test.
///
/// ``FlowGen/definitions(states:events:maxDepth:eventlessRate:guardRate:finalRate:parallelRate:)`` generates
/// blueprints whose definitions have no validation error (warnings, such as unreachable states, are
/// allowed) and never loop on eventless transitions: an eventless transition always targets a state
/// declared after its source and everything inside it, and never one in another region of a parallel
/// state that contains its source.
public struct FlowBlueprint: Hashable, Sendable {
    /// A state: where it is nested and whether it is final.
    public struct State: Hashable, Sendable {
        /// The position of the state containing this one; it must be smaller than this state's.
        public var parent: Int?
        /// Whether the state is final (a final state has no children and no transitions).
        public var isFinal: Bool
        /// Whether the state is parallel: its children are regions, all active together. It is
        /// declared as one (`Parallel`) only when it has children and none of them is final (a final
        /// state cannot be a region); otherwise it is an ordinary state.
        public var isParallel: Bool

        /// Creates a state.
        public init(parent: Int? = nil, isFinal: Bool = false, isParallel: Bool = false) {
            self.parent = parent
            self.isFinal = isFinal
            self.isParallel = isParallel
        }
    }

    /// A guard, as data, so that a blueprint prints and compares.
    public enum GuardRule: Hashable, Sendable {
        /// Never holds.
        case never
        /// Holds when the machine's current leaf is one of these states (by position).
        case inStates([Int])
    }

    /// A transition.
    public struct Transition: Hashable, Sendable {
        /// The position of the state it is declared on.
        public var source: Int
        /// The event it reacts to; `nil` for an eventless transition.
        public var event: String?
        /// Its guard, if any.
        public var guardRule: GuardRule?
        /// The position of its target; `nil` for a targetless transition (not allowed when eventless).
        public var target: Int?

        /// Creates a transition.
        public init(source: Int, event: String?, guardRule: GuardRule? = nil, target: Int?) {
            self.source = source
            self.event = event
            self.guardRule = guardRule
            self.target = target
        }
    }

    /// The states, in declaration order: a parent before its children, children right after their
    /// parent's earlier children and their descendants.
    public let states: [State]
    /// The transitions, ordered by source (stably), so that transition `i` of the blueprint is
    /// transition `i` of ``definition`` (its `FlowTransitionID`).
    public let transitions: [Transition]

    /// Creates a blueprint. Transitions are ordered by source, keeping their order within a source.
    /// A parent that is not a smaller position is ignored (the state is top level).
    public init(states: [State], transitions: [Transition]) {
        self.states = states.enumerated().map { i, state in
            var state = state
            if let parent = state.parent, parent < 0 || parent >= i { state.parent = nil }
            return state
        }
        self.transitions = transitions.enumerated()
            .sorted { ($0.element.source, $0.offset) < ($1.element.source, $1.offset) }
            .map(\.element)
    }

    /// The name of the state at `position`: `s0`, `s1`, …
    public static func name(of position: Int) -> String { "s\(position)" }

    /// The event names the transitions use, sorted.
    public var events: [String] { Set(transitions.compactMap(\.event)).sorted() }

    /// The states' hierarchy (children, ancestry), built from their parents: ask it once per question
    /// that needs it, it costs the blueprint's size.
    var hierarchy: FlowHierarchy { FlowHierarchy(parents: states.map { $0.parent ?? FlowHierarchy.root }) }

    /// The position just after the last state inside `state` (the states inside it are contiguous
    /// when the blueprint is in declaration order).
    func subtreeEnd(_ state: Int, in hierarchy: FlowHierarchy) -> Int {
        var end = state + 1
        while end < states.count, hierarchy.isDescendant(end, of: state) { end += 1 }
        return end
    }

    /// Whether state `i` is declared as a parallel state: marked parallel, with children, none of
    /// them final.
    func declaresParallel(_ i: Int, in hierarchy: FlowHierarchy) -> Bool {
        states[i].isParallel && !states[i].isFinal && !hierarchy.isAtomic(i)
            && !hierarchy.children(of: i).contains { states[$0].isFinal }
    }

    /// Whether a transition from `source` to `target` goes from one region of a parallel state to
    /// another: taken without an event, it would exit and enter the parallel state again, and again.
    func crossesRegions(_ source: Int, _ target: Int, in hierarchy: FlowHierarchy) -> Bool {
        var region = source  // the child of `ancestor` that contains the source
        var ancestor = hierarchy.parent(of: source)
        while ancestor != FlowHierarchy.root {
            if declaresParallel(ancestor, in: hierarchy), hierarchy.isDescendant(target, of: ancestor),
               !hierarchy.isDescendantOrSelf(target, of: region) {
                return true
            }
            region = ancestor
            ancestor = hierarchy.parent(of: ancestor)
        }
        return false
    }

    private static func guardFor(_ rule: GuardRule?) -> Guard<StringFlow>? {
        switch rule {
        case nil: return nil
        case .never: return Guard("never", condition: { false })
        case .inStates(let positions):
            let names = Set(positions.map(name(of:)))
            return Guard(guardLabel(rule!), evaluate: { state, _ in names.contains(state) })
        }
    }

    private static func guardLabel(_ rule: GuardRule) -> String {
        switch rule {
        case .never: "never"
        case .inStates(let positions): "in " + positions.map(name(of:)).joined(separator: " ")
        }
    }

    /// The definition the blueprint describes, named `generated`, starting in `s0`. Built without
    /// recursion: states are assembled from the last to the first.
    public var definition: FlowDefinition<StringFlow> {
        let hierarchy = self.hierarchy
        var own = [[Int]](repeating: [], count: states.count)
        for (t, transition) in transitions.enumerated() where transition.source < states.count {
            own[transition.source].append(t)
        }
        var built = [FlowElement<StringFlow>?](repeating: nil, count: states.count)
        for i in states.indices.reversed() {
            let name = Self.name(of: i)
            if states[i].isFinal {
                built[i] = Final<StringFlow>(name, output: name, entry: ["entry \(name)"]).element
                continue
            }
            var body: [FlowElement<StringFlow>] = own[i].map { t in
                let transition = transitions[t]
                let target = transition.target.map(Self.name(of:))
                if let event = transition.event {
                    return On<StringFlow>(SpecEvent(event), guard: Self.guardFor(transition.guardRule), to: target,
                                          effects: ["t\(t)"]).element
                }
                return Always<StringFlow>(guard: Self.guardFor(transition.guardRule), to: target ?? name,
                                          effects: ["t\(t)"]).element
            }
            body.append(contentsOf: hierarchy.children(of: i).compactMap { built[$0] })
            for child in hierarchy.children(of: i) { built[child] = nil }  // each element has one owner
            built[i] = declaresParallel(i, in: hierarchy)
                ? Parallel<StringFlow>(name, entry: ["entry \(name)"], exit: ["exit \(name)"]) { body }.element
                : StateNode<StringFlow>(name, entry: ["entry \(name)"], exit: ["exit \(name)"]) { body }.element
        }
        let top = states.indices.filter { states[$0].parent == nil }.compactMap { built[$0] }
        return FlowDefinition("generated", initial: Self.name(of: 0), elements: top)
    }

    /// The definition as Swift, in Flowstate's DSL, to paste into a test (it needs `import Flowstate`).
    public var swiftCode: String {
        var own = [[Int]](repeating: [], count: states.count)
        for (t, transition) in transitions.enumerated() where transition.source < states.count {
            own[transition.source].append(t)
        }
        var lines = ["FlowDefinition<StringFlow>(\"generated\", initial: \"s0\") {"]
        var open: [Int] = []  // states whose block is open, outermost first
        func indent(_ depth: Int) -> String { String(repeating: "    ", count: depth) }
        let hierarchy = self.hierarchy
        for i in states.indices {
            while let last = open.last, !hierarchy.isDescendantOrSelf(i, of: last) {
                open.removeLast()
                lines.append(indent(open.count + 1) + "}")
            }
            let name = Self.name(of: i)
            let pad = indent(open.count + 1)
            if states[i].isFinal {
                lines.append(pad + "Final(\"\(name)\", output: \"\(name)\", entry: [\"entry \(name)\"])")
                continue
            }
            lines.append(pad + (declaresParallel(i, in: hierarchy) ? "Parallel" : "StateNode")
                + "(\"\(name)\", entry: [\"entry \(name)\"], exit: [\"exit \(name)\"]) {")
            for t in own[i] {
                let transition = transitions[t]
                var arguments: [String] = []
                if let event = transition.event { arguments.append("\"\(event)\"") }
                if let rule = transition.guardRule { arguments.append("guard: \(Self.guardCode(rule))") }
                arguments.append("to: " + (transition.target.map { "\"\(Self.name(of: $0))\"" } ?? "nil"))
                arguments.append("effects: [\"t\(t)\"]")
                lines.append(pad + "    " + (transition.event == nil ? "Always" : "On") + "("
                    + arguments.joined(separator: ", ") + ")")
            }
            open.append(i)
        }
        while !open.isEmpty {
            open.removeLast()
            lines.append(indent(open.count + 1) + "}")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private static func guardCode(_ rule: GuardRule) -> String {
        switch rule {
        case .never:
            return "Guard(\"never\", condition: { false })"
        case .inStates(let positions):
            let names = positions.map { "\"\(name(of: $0))\"" }.joined(separator: ", ")
            return "Guard(\"\(guardLabel(rule))\", evaluate: { state, _ in [\(names)].contains(state) })"
        }
    }

    // MARK: Shrinking

    /// Smaller blueprints that stay free of validation errors, most shrunk first: without one state
    /// (a leaf, with the transitions naming it dropped or redirected to where it led; or a compound
    /// state, its children moved up to its parent, its transitions moved to its initial child and the
    /// transitions to it redirected there), without one transition, without one guard (when that makes no two unguarded
    /// transitions of one state react alike), with one parallel state made ordinary. Each has fewer
    /// states, or as many and fewer transitions, or as many of both and fewer guards, or as many of
    /// all three and fewer parallel states, so shrinking always ends.
    public func shrinks() -> [FlowBlueprint] {
        var result: [FlowBlueprint] = []
        let hierarchy = self.hierarchy
        for i in states.indices.reversed() {
            if hierarchy.isAtomic(i) {
                guard i > 0 else { continue }
                result.append(removingState(i, redirectingTo: nil))
                var seen = Set<Int>()
                for transition in transitions where transition.source == i {
                    if let target = transition.target, target != i, seen.insert(target).inserted {
                        result.append(removingState(i, redirectingTo: target))
                    }
                }
            } else {
                result.append(removingState(i, redirectingTo: hierarchy.children(of: i)[0]))
            }
        }
        for t in transitions.indices {
            var fewer = transitions
            fewer.remove(at: t)
            result.append(FlowBlueprint(states: states, transitions: fewer))
        }
        for (t, transition) in transitions.enumerated() where transition.guardRule != nil {
            let clash = transitions.enumerated().contains { other in
                other.offset != t && other.element.guardRule == nil && other.element.source == transition.source
                    && other.element.event == transition.event
            }
            guard !clash else { continue }
            var unguarded = transitions
            unguarded[t].guardRule = nil
            result.append(FlowBlueprint(states: states, transitions: unguarded))
        }
        for i in states.indices where states[i].isParallel {
            var ordinary = states
            ordinary[i].isParallel = false
            result.append(FlowBlueprint(states: ordinary, transitions: transitions))
        }
        return result
    }

    /// The blueprint without state `removed`: its children (if any) move up to its parent and its
    /// transitions to its first child (a leaf's are dropped), and the transitions targeting it go to
    /// `replacement` (or are dropped when it is `nil`). An eventless transition that would no longer
    /// target a state after its source's subtree is dropped, so no eventless loop appears.
    private func removingState(_ removed: Int, redirectingTo replacement: Int?) -> FlowBlueprint {
        func renumber(_ s: Int) -> Int { s > removed ? s - 1 : s }
        var newStates = states
        let parent = states[removed].parent
        newStates.remove(at: removed)
        for i in newStates.indices {
            if newStates[i].parent == removed { newStates[i].parent = parent }
            newStates[i].parent = newStates[i].parent.map(renumber)
        }
        // A compound state's own transitions move to its initial child (unless that child is final or
        // already has an unguarded transition on the same event); a leaf's are dropped.
        let heir = states.indices.first { states[$0].parent == removed && !states[$0].isFinal }
        let unguardedOfHeir = Set(transitions.filter { $0.source == heir && $0.guardRule == nil }.map(\.event))
        let newTransitions = transitions.compactMap { transition -> Transition? in
            var copy = transition
            if transition.source == removed {
                guard let heir, transition.guardRule != nil || !unguardedOfHeir.contains(transition.event) else {
                    return nil
                }
                copy.source = heir
            }
            if transition.target == removed {
                guard let replacement else { return nil }
                copy.target = replacement
            }
            copy.source = renumber(copy.source)
            copy.target = copy.target.map(renumber)
            if case .inStates(let positions) = transition.guardRule {
                copy.guardRule = .inStates(positions.filter { $0 != removed }.map(renumber))
            }
            return copy
        }
        let shrunk = FlowBlueprint(states: newStates, transitions: newTransitions)
        let hierarchy = shrunk.hierarchy
        let kept = shrunk.transitions.filter { transition in
            guard transition.event == nil else { return true }
            let target = transition.target ?? -1
            return target >= shrunk.subtreeEnd(transition.source, in: hierarchy)
                && !shrunk.crossesRegions(transition.source, target, in: hierarchy)
        }
        return kept.count == shrunk.transitions.count ? shrunk : FlowBlueprint(states: newStates, transitions: kept)
    }

    // MARK: Generation

    static func generate<R: RandomNumberGenerator>(
        states count: Int, events: Int, maxDepth: Int, eventlessRate: Double, guardRate: Double,
        finalRate: Double, parallelRate: Double = 0, using rng: inout R
    ) -> FlowBlueprint {
        let n = max(1, count)
        let alphabet = (0..<max(1, min(events, 26))).map { String(UnicodeScalar(UInt8(97 + $0))) }
        // A random forest, parents before children.
        var parents = [Int?](repeating: nil, count: n)
        var finals = [Bool](repeating: false, count: n)
        var depth = [Int](repeating: 0, count: n)
        for i in 1..<max(1, n) {
            finals[i] = Double.random(in: 0..<1, using: &rng) < finalRate
            let eligible = (0..<i).filter { !finals[$0] && depth[$0] < maxDepth }
            if !eligible.isEmpty, Double.random(in: 0..<1, using: &rng) < 0.4,
               let parent = eligible.randomElement(using: &rng) {
                parents[i] = parent
                depth[i] = depth[parent] + 1
            }
        }
        // Renumber in declaration order (depth first, children in order): each state's position in
        // document order.
        let forest = FlowHierarchy(parents: parents.map { $0 ?? FlowHierarchy.root })
        var order = [Int](repeating: 0, count: n)
        for old in 0..<n { order[forest.documentPosition(of: old)] = old }
        var states = order.map { old in
            State(parent: parents[old].map { forest.documentPosition(of: $0) }, isFinal: finals[old])
        }
        var blueprint = FlowBlueprint(states: states, transitions: [])
        let hierarchy = blueprint.hierarchy
        // Parallel states: drawn only when asked for, so that the flows of a seed stay the same.
        if parallelRate > 0 {
            for i in states.indices where !states[i].isFinal && !hierarchy.isAtomic(i)
                && !hierarchy.children(of: i).contains(where: { states[$0].isFinal }) {
                states[i].isParallel = Double.random(in: 0..<1, using: &rng) < parallelRate
            }
            blueprint = FlowBlueprint(states: states, transitions: [])
        }
        let hasParallel = states.contains { $0.isParallel }
        let sources = states.indices.filter { !states[$0].isFinal }
        guard !sources.isEmpty else { return blueprint }
        let transitionCount = Int.random(in: n...(2 * n + 1), using: &rng)
        var transitions: [Transition] = []
        var unguarded = Set<[String]>()  // (source, event or "") pairs with an unguarded transition
        for _ in 0..<transitionCount {
            let source = sources.randomElement(using: &rng)!
            let end = blueprint.subtreeEnd(source, in: hierarchy)
            // An eventless transition goes forward, and never from one region of a parallel state to
            // another (it would loop).
            let forward = hasParallel ? (end..<n).filter { !blueprint.crossesRegions(source, $0, in: hierarchy) } : []
            let eventless = end < n && (!hasParallel || !forward.isEmpty)
                && Double.random(in: 0..<1, using: &rng) < eventlessRate
            let event = eventless ? nil : alphabet.randomElement(using: &rng)!
            let target: Int?
            if eventless {
                target = hasParallel ? forward.randomElement(using: &rng)! : Int.random(in: end..<n, using: &rng)
            } else {
                target = Double.random(in: 0..<1, using: &rng) < 0.1 ? nil : Int.random(in: 0..<n, using: &rng)
            }
            let leaves = (source..<end).filter { hierarchy.isAtomic($0) }
            func randomGuard(_ rng: inout R) -> GuardRule {
                if Int.random(in: 0..<3, using: &rng) == 0 { return .never }
                return .inStates(leaves.filter { _ in Bool.random(using: &rng) })
            }
            var rule: GuardRule? = Double.random(in: 0..<1, using: &rng) < guardRate ? randomGuard(&rng) : nil
            let key = ["\(source)", event ?? ""]
            if rule == nil, !unguarded.insert(key).inserted { rule = randomGuard(&rng) }
            transitions.append(Transition(source: source, event: event, guardRule: rule, target: target))
        }
        blueprint = FlowBlueprint(states: states, transitions: transitions)
        return blueprint
    }
}

extension FlowBlueprint: CustomStringConvertible {
    /// A compact summary: states with their nesting, then transitions, for example
    /// `s0{s1 s2} s3! | s0 -a[never]-> s3, s1 -ε-> s3`.
    public var description: String {
        var text = ""
        var open: [Int] = []
        let hierarchy = self.hierarchy
        for i in states.indices {
            while let last = open.last, !hierarchy.isDescendantOrSelf(i, of: last) {
                open.removeLast()
                text += "}"
            }
            if !text.isEmpty && !text.hasSuffix("{") { text += " " }
            text += Self.name(of: i) + (states[i].isFinal ? "!" : "") + (declaresParallel(i, in: hierarchy) ? "||" : "")
            if i + 1 < states.count, states[i + 1].parent == i {
                text += "{"
                open.append(i)
            }
        }
        text += String(repeating: "}", count: open.count)
        let edges = transitions.map { t in
            let rule = t.guardRule.map { "[\(Self.guardLabel($0))]" } ?? ""
            return "\(Self.name(of: t.source)) -\(t.event ?? "ε")\(rule)-> \(t.target.map(Self.name(of:)) ?? "·")"
        }
        return text + " | " + edges.joined(separator: ", ")
    }
}

extension FlowGen {
    /// Small random definitions, as ``FlowBlueprint``s, for testing tools built on Flowstate.
    ///
    /// Each has no validation error (it may have warnings: unreachable states, dead ends), starts in
    /// `s0`, and never loops on eventless transitions. Shrinking removes leaf states, transitions and
    /// guards, keeping the definition free of errors.
    /// - Parameters:
    ///   - states: How many states.
    ///   - events: How many event names (`a`, `b`, …, at most 26).
    ///   - maxDepth: How deep states nest (0: no nesting).
    ///   - eventlessRate: The probability that a transition is eventless.
    ///   - guardRate: The probability that a transition has a guard.
    ///   - finalRate: The probability that a state (other than `s0`) is final.
    ///   - parallelRate: The probability that a state with children, none of them final, is parallel
    ///     (0, the default, draws none, and generates the same blueprints for a seed as before the
    ///     parameter existed).
    /// - Returns: A generator of blueprints; read ``FlowBlueprint/definition``.
    public static func definitions(
        states: ClosedRange<Int> = 2...8, events: Int = 3, maxDepth: Int = 2, eventlessRate: Double = 0.15,
        guardRate: Double = 0.3, finalRate: Double = 0.2, parallelRate: Double = 0
    ) -> Generator<FlowBlueprint, [FlowBlueprint]> {
        let counts = max(1, states.lowerBound)...max(1, states.upperBound)
        return Generator(
            run: { rng in
                FlowBlueprint.generate(states: Int.random(in: counts, using: &rng), events: events, maxDepth: maxDepth,
                                       eventlessRate: eventlessRate, guardRate: guardRate, finalRate: finalRate,
                                       parallelRate: parallelRate, using: &rng)
            },
            shrink: { $0.shrinks() }
        )
    }
}
