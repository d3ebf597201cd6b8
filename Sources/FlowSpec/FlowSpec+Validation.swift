import FlowGraph
import Flowstate

extension FlowFile {
    /// The file's problems, checked on the definition ``FlowSimulation`` runs (for SCXML, with its
    /// descriptor matching), so a file without errors starts.
    ///
    /// A transition that earlier unguarded transitions of its state always win over, for every event
    /// it matches, is a `ValidationIssue.Kind.shadowedTransition` warning: SCXML selects by document
    /// order, and so does the engine. (`*` after `error`: not shadowed, it still takes other events;
    /// `error` after `*`: shadowed.)
    ///
    /// To validate a file and then explore it, ``compile(guards:)`` it once and ask the result both.
    public func validate() -> [ValidationIssue] {
        compile().validate()
    }

    /// The spec compiled once for the engine, as ``FlowFilePathfinder`` explores it: validate it and explore it
    /// without compiling it twice (what `flowviz paths` does). Compiling costs time and memory linear
    /// in the flow's size; it is most of what validating a big file costs.
    /// - Parameter guards: Default truths of guards that steps do not mention (true otherwise), for
    ///   the exploration. Validation does not depend on them.
    public func compile(guards: [String: Bool] = [:]) -> Compiled {
        Compiled(self, guards: guards)
    }

    /// A spec compiled for the engine: see ``FlowFile/compile(guards:)``.
    public struct Compiled: Sendable {
        /// The spec.
        public let spec: FlowFile
        /// The default guard truths it was compiled with.
        public let guards: [String: Bool]
        let document: SpecDocument
        let classes: EventClasses

        init(_ spec: FlowFile, guards: [String: Bool]) {
            self.spec = spec
            self.guards = guards
            // JSON specs match events exactly: no classes.
            classes = EventClasses(spec.semantics == .scxml ? [spec] : [])
            // Effect labels are left out: neither validation nor exploration reads them.
            document = SpecDocument(spec, guards: guards, classes: classes, effects: false)
        }

        /// The file's problems: see ``FlowFile/validate()``.
        public func validate() -> [ValidationIssue] {
            let definition = document.definition
            let map = document.index.specTransitions
            var declarations = [Int](repeating: 0, count: document.index.transitionList.count)  // per spec transition
            for s in map { declarations[s] += 1 }
            var shadowed: [Int: [ValidationIssue]] = [:]
            var perTransition = Set<PerTransition>()  // spec transitions already warned of (one per descriptor)
            var issues: [ValidationIssue] = []
            let (histories, unresolved) = spec.historyDefaultIssues()
            for issue in definition.validate() {
                // A history without a default, whose parent holds no state to stand in, is compiled
                // with an empty default: the engine says what is wrong at the parent ("contains history
                // states only"), so its report of an unknown target '' at the history is left out.
                if issue.kind == .unknownTarget, let place = issue.location, unresolved.contains(place) {
                    continue
                } else if issue.kind == .shadowedTransition, let id = issue.transition, id.position < map.count {
                    shadowed[map[id.position], default: []].append(issue)
                } else if issue.kind == .ineffectiveInternal || issue.kind == .reentersParallelState,
                          let id = issue.transition, id.position < map.count {
                    // One per spec transition and kind, however many event descriptors it declares.
                    if perTransition.insert(PerTransition(transition: map[id.position], kind: issue.kind)).inserted {
                        issues.append(issue)
                    }
                } else {
                    issues.append(issue)
                }
            }
            for (s, found) in shadowed.sorted(by: { $0.key < $1.key }) where found.count == declarations[s] {
                issues.append(found[0])
            }
            // Child flows are recorded by name in the compiled definition's place, so the engine's
            // compiler does not see them: a final state that runs one is checked here, in document order.
            for state in spec.statesInDocumentOrder where state.isFinal {
                if let child = state.child {
                    issues.append(.finalStateWithChild(state: state.name, child: child, location: state.location))
                }
            }
            // A history's transitions are its default, not the engine's transitions: a delayed one is
            // reported here, as the engine's compiler reports one of a typed flow's history.
            for state in spec.statesInDocumentOrder where state.history != nil {
                for t in state.transitions {
                    guard let delay = t.delay else { continue }
                    if delay <= .zero {
                        issues.append(ValidationIssue(
                            kind: .invalidDelay, severity: .error,
                            message: "delayed transition from '\(state.name)' has delay \(FlowTimer.label(of: delay)): a delay must be positive",
                            location: t.location ?? state.location))
                    }
                    issues.append(ValidationIssue(
                        kind: .invalidDelay, severity: .error,
                        message: "delayed transition declared on history '\(state.name)', which never waits: declare it on a state "
                            + "the flow rests in",
                        location: t.location ?? state.location))
                }
            }
            issues += histories
            for route in spec.routes where definition.position(of: route.state) == nil {
                issues.append(ValidationIssue(kind: .unknownTarget, severity: .error,
                                              message: "route '\(route.path)' opens '\(route.state)', which is not a declared state",
                                              location: route.location ?? spec.location))
            }
            issues += spec.childOutputIssues()
            issues += initialStatesIssues()
            // Errors first, each group in the order found.
            return issues.filter { $0.severity == .error } + issues.filter { $0.severity != .error }
        }

        /// A spec transition and a kind of issue about it: reported once, not once per event descriptor.
        private struct PerTransition: Hashable {
            let transition: Int
            let kind: ValidationIssue.Kind
        }
    }
}

extension FlowFile.Compiled {
    /// The states' `initial` lists naming several states that cannot be active together, each a
    /// `conflicting-targets` error at its place, in document order: the rule the engine applies to a
    /// transition's several targets. (One initial state, and the document's initial states, are the
    /// engine's to check.)
    func initialStatesIssues() -> [ValidationIssue] {
        let definition = document.definition
        let hierarchy = definition.hierarchy
        var issues: [ValidationIssue] = []
        func check(_ names: [String], of owner: String?, at location: FlowSourceLocation?) {
            guard names.count > 1 else { return }
            let what = owner.map { "the initial states of state '\($0)'" } ?? "the initial states of the flow"
            var positions: [Int] = []
            for name in names {
                guard let p = definition.position(of: name) else {
                    issues.append(ValidationIssue(kind: .unknownTarget, severity: .error,
                                                  message: "\(what) name '\(name)', which is not a declared state",
                                                  location: location))
                    return
                }
                if let owner, let o = definition.position(of: owner), !hierarchy.isDescendant(p, of: o) {
                    issues.append(ValidationIssue(kind: .invalidInitialChild, severity: .error,
                                                  message: "\(what) name '\(name)', which is not inside it",
                                                  location: location))
                    return
                }
                positions.append(p)
            }
            for a in positions.indices {
                for b in positions.indices where b > a {
                    let common = hierarchy.nearestCommonAncestorOrSelf(positions[a], positions[b])
                    if common == positions[a] || common == positions[b] || !hierarchy.isParallel(common) {
                        issues.append(ValidationIssue(
                            kind: .conflictingTargets, severity: .error,
                            message: "\(what) are '\(names[a])' and '\(names[b])', which cannot be active together: "
                                + "several initial states must lie in different regions of a parallel state",
                            location: location))
                        return
                    }
                }
            }
        }
        spec.forEachState { check($0.initialStates, of: $0.name, at: $0.location) }
        return issues
    }
}

extension FlowFile {
    /// What a state's mapping of its child's outputs to events gets wrong (JSON specs: SCXML's
    /// children report `done.invoke`), in document order: a mapping on a state that runs no child, an
    /// output the child (when the spec holds its document) never produces, an event that no transition
    /// of the state, of its ancestors or of the states inside it takes.
    func childOutputIssues() -> [ValidationIssue] {
        guard semantics == .flowstate else { return [] }
        var issues: [ValidationIssue] = []
        let index = SpecIndex(self)
        for state in statesInDocumentOrder where !state.childOutputs.isEmpty || state.child != nil {
            guard let child = state.child else {
                issues.append(ValidationIssue(kind: .unknownChildOutput, severity: .error,
                                              message: "state '\(state.name)' maps child outputs to events but runs no child flow",
                                              location: state.location))
                continue
            }
            var outputs: Set<String>?
            if let document = documents[child] {
                outputs = Set(document.statesInDocumentOrder.filter(\.isFinal).map { $0.output ?? $0.name })
            }
            // Events taken by the state, its ancestors, or any state inside it (active while it is).
            var handled = Set<String>()
            var around = index.ancestors(of: state.name).compactMap { index.states[$0] }
            var inside = [state]
            while let next = inside.popLast() {
                around.append(next)
                inside += next.states
            }
            for holder in around {
                for t in holder.transitions { if let event = t.event { handled.insert(event) } }
            }
            // An output the mapping does not name (every output, without a mapping) reaches the parent
            // as the event of its own name, as the simulation delivers it: checked like the others.
            let named = Set(state.childOutputs.map(\.output))
            let mapping = state.childOutputs
                + (outputs ?? []).sorted().filter { !named.contains($0) }.map { ChildOutput(output: $0, event: $0) }
            for pair in mapping {
                if let outputs, !outputs.contains(pair.output) {
                    issues.append(ValidationIssue(
                        kind: .unknownChildOutput, severity: .warning,
                        message: "state '\(state.name)' maps output '\(pair.output)' of child flow '\(child)', which the child never produces (its outputs: \(outputs.sorted().joined(separator: ", ")))",
                        location: state.location))
                } else if let event = pair.event, !handled.contains(event) {
                    issues.append(ValidationIssue(
                        kind: .unhandledChildOutput, severity: .warning,
                        message: "output '\(pair.output)' of child flow '\(child)' becomes event '\(event)', which no transition of state '\(state.name)', its ancestors or the states inside it takes: the output would be ignored",
                        location: state.location))
                }
            }
        }
        return issues
    }
}

extension FlowFile {
    /// The histories that declare no default transition, in document order: SCXML requires one, Qt
    /// SCXML enters the parent's initial state instead, and so do the definition, the simulation and
    /// the path finder (``State/standInDefault(forHistory:deep:)``). Each is an `invalid-history`
    /// warning at the history that names the state entered. `unresolved`: the places of those whose
    /// parent holds no other state (the engine reports the parent).
    func historyDefaultIssues() -> (warnings: [ValidationIssue], unresolved: Set<FlowSourceLocation>) {
        var warnings: [ValidationIssue] = []
        var unresolved = Set<FlowSourceLocation>()
        let index = SpecIndex(self)
        forEachState { state in
            guard let depth = state.history, state.transitions.isEmpty, let parentName = index.parent[state.name],
                  let parent = index.states[parentName] else { return }  // a top-level history: the engine reports it
            guard let standIn = parent.standInDefault(forHistory: state.name, deep: depth == .deep) else {
                if let place = state.location { unresolved.insert(place) }
                return
            }
            warnings.append(ValidationIssue(
                kind: .invalidHistory, severity: .warning,
                message: "history '\(state.name)' has no default transition (SCXML requires one): until '\(parent.name)' "
                    + "is first exited, entering the history enters '\(standIn)', the initial state of '\(parent.name)', "
                    + "as Qt SCXML does",
                location: state.location))
        }
        return (warnings, unresolved)
    }
}

extension FlowFile.State {
    /// For a history among this state's children that declares no default transition, the state
    /// entering it enters until this state is first exited: this state's initial state, as Qt SCXML
    /// does. That is the state ``initialStates`` names first (for a shallow history, the child
    /// holding it), else the first child that is not a history; `nil` when there is none.
    func standInDefault(forHistory name: String, deep: Bool) -> String? {
        if let first = initialStates.first, first != name {
            // The child that is or holds the initial state, found without recursion.
            let holder = states.first { child in
                var stack = [child]
                while let next = stack.popLast() {
                    if next.name == first { return true }
                    stack += next.states
                }
                return false
            }
            if let holder, holder.history == nil { return deep ? first : holder.name }
        }
        return states.first { $0.history == nil }?.name
    }
}

extension FlowFile {
    /// Why the driver that simulates and explores files cannot run `state` (one line with its place),
    /// or `nil`: a history whose default transition runs content, or a state naming several initial
    /// states. The one place `simulate` and `paths` ask. (Parallel states, transitions with several
    /// targets and internal transitions run.)
    static func notRun(_ state: State, verb: String) -> String? {
        func at(_ location: FlowSourceLocation?) -> String { location.map { "\($0): " } ?? "" }
        if state.initialStates.count > 1 {
            return "\(at(state.location))error: state '\(state.name)' names several initial states: several initial states are drawn and validated, not \(verb)"
        }
        if state.history != nil, state.transitions.contains(where: { !($0.content?.actions.isEmpty ?? true) }) {
            return "\(at(state.location))error: the default transition of <history> '\(state.name)' has executable content: it is drawn and validated, not \(verb)"
        }
        return nil
    }
}
