import FlowGraph
import Flowstate

extension FlowSpec {
    /// A definition of the spec that the engine and the supervisor run, with string states and effects
    /// and ``SpecEvent`` events.
    ///
    /// A guard is true when the step's event says so (``SpecEvent/guards``), else `guards[name]`, else
    /// true. SCXML's `true`, `false` and `In('state')` are evaluated. Declarations carry the file's
    /// locations, so validation issues point into the file. Child flows are recorded by name only:
    /// ``FlowSimulation`` runs them, `FlowGraph.init(_:mergeParallelEdges:)` draws them.
    ///
    /// Transitions match their event text exactly (what drawing needs). ``FlowSimulation`` runs a
    /// definition compiled for SCXML's descriptor matching instead (a descriptor matches every event
    /// whose dotted name starts with its tokens).
    public func definition(guards: [String: Bool] = [:]) -> FlowDefinition<SpecFlow> {
        compiled(guards: guards, matching: .text).definition
    }

    /// How a compiled definition's transitions match events.
    enum Matching {
        /// A transition matches the event its text names (drawing, JSON specs).
        case text
        /// SCXML: a transition is declared once for each class of event names its descriptors match
        /// (``EventClasses``), in document order, so the engine selects exactly what SCXML selects.
        case descriptors(EventClasses)
    }

    /// The definition, and for each of its transitions (by `FlowTransitionID.position`) the spec
    /// transition it was declared for (its index in ``SpecIndex/transitions``, document order): how a
    /// step's reported transitions (`FlowStep.transitions`) name the file's transitions. A transition
    /// matching several event classes is declared once for each; they all map to it.
    /// - Parameter children: The child flow a state runs, by state, for the supervisor.
    func compiled(guards defaults: [String: Bool], matching: Matching,
                  children: (State) -> ChildFlow<SpecFlow>? = { _ in nil })
        -> (definition: FlowDefinition<SpecFlow>, specTransitions: [Int])
    {
        let index = SpecIndex(self)
        let scxml = semantics == .scxml
        func loc(_ location: FlowSourceLocation?) -> FlowSourceLocation {
            location ?? FlowSourceLocation(file: name, line: 0, column: 0)
        }
        func condition(_ name: String) -> Guard<SpecFlow> {
            let trimmed = name.trimmingSpaces
            if trimmed == "true" || trimmed == "false" {
                let value = trimmed == "true"
                return Guard(name, evaluate: { _, _ in value })
            }
            if let state = Self.inPredicate(trimmed) {
                return Guard(name, evaluate: { leaf, _ in leaf == state || index.ancestors(of: leaf).contains(state) })
            }
            let fallback = defaults[name] ?? true
            return Guard(name, evaluate: { _, event in event?.guards[name] ?? fallback })
        }
        var counter = 0
        // The spec transition of each declaration, in declaration order (the compiler's: a state's
        // children's transitions before its own).
        func element(_ state: State) -> (FlowElement<SpecFlow>, [Int]) {
            let l = loc(state.location)
            var own: [FlowElement<SpecFlow>] = []
            var ownSpec: [Int] = []
            for t in state.transitions {
                let tl = loc(t.location)
                let specIndex = counter
                counter += 1
                let guardCondition = t.guardName.map(condition)
                guard let event = t.event else {
                    // The readers refuse an eventless transition without a target.
                    own.append(Always<SpecFlow>(guard: guardCondition, to: t.target ?? state.name, effects: t.effects,
                                                fileID: tl.file, line: tl.line, column: tl.column).element)
                    ownSpec.append(specIndex)
                    continue
                }
                let kinds: [String]
                switch matching {
                case .text: kinds = [event]
                case .descriptors(let classes): kinds = classes.kinds(matching: event)
                }
                for kind in kinds {
                    own.append(On<SpecFlow>(kind, guard: guardCondition, to: t.target, effects: t.effects, label: event,
                                            fileID: tl.file, line: tl.line, column: tl.column).element)
                    ownSpec.append(specIndex)
                }
            }
            // Child states first, then the state's own transitions: the order "cancel from any step"
            // is usually written in, and the order the transitions keep in graphs.
            let nested = state.states.map(element)
            let body = nested.map(\.0) + own
            let declared = nested.flatMap(\.1) + ownSpec
            // Under SCXML, only a top-level <final> ends the flow; a nested one raises done.state.
            if state.isFinal && (!scxml || index.parent[state.name] == nil) {
                return (Final<SpecFlow>(state.name, output: state.output ?? state.name, entry: state.entry,
                                        fileID: l.file, line: l.line, column: l.column) { body }.element, declared)
            }
            return (StateNode<SpecFlow>(state.name, initial: state.initial, runs: children(state), entry: state.entry,
                                        exit: state.exit, fileID: l.file, line: l.line, column: l.column) { body }.element,
                    declared)
        }
        let top = states.map(element)
        return (FlowDefinition(name, initial: initial, elements: top.map(\.0), location: loc(location)),
                top.flatMap(\.1))
    }

    /// `In('s')` or `In("s")`: the state it asks about.
    static func inPredicate(_ text: Substring) -> String? {
        guard text.hasPrefix("In("), text.hasSuffix(")") else { return nil }
        let inner = text.dropFirst(3).dropLast().trimmingSpaces
        guard inner.count >= 2, let quote = inner.first, quote == "'" || quote == "\"", inner.last == quote else { return nil }
        return String(inner.dropFirst().dropLast())
    }

    /// A transition's SCXML event descriptors, normalized: `error.*` and `error.` are `error`; `*` stays.
    static func descriptors(_ event: String) -> [Substring] {
        event.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map { d -> Substring in
            var d = d
            if d.hasSuffix(".*") { d = d.dropLast(2) }
            while d.hasSuffix(".") { d = d.dropLast() }
            return d
        }
    }

    /// Whether a transition's event descriptors match an event name (SCXML: the name equals a
    /// descriptor or starts with it followed by a dot; `*` matches every name).
    static func matches(_ event: String, name: String) -> Bool {
        descriptors(event).contains { d in d == "*" || name == d || (name.hasPrefix(d) && name.dropFirst(d.count).first == ".") }
    }

    /// Every event name the spec's transitions mention: with SCXML semantics, each descriptor of each
    /// transition (`*` left out), plus `done.state.*` of compound states with final children, and the
    /// events raised or sent by effects. Sorted.
    public var eventNames: [String] {
        var names: Set<String> = []
        let index = SpecIndex(self)
        for (_, t) in index.transitions {
            guard let event = t.event else { continue }
            if semantics == .scxml {
                for d in Self.descriptors(event) where d != "*" { names.insert(String(d)) }
            } else {
                names.insert(event)
            }
        }
        if semantics == .scxml {
            for (_, state) in index.states {
                for effect in state.entry + state.exit { if let (_, e) = SCXMLEffect.queued(effect) { names.insert(e) } }
                if state.states.contains(where: { $0.isFinal }) {
                    names.insert("done.state.\(state.name)")
                }
                if state.child != nil { names.insert("done.invoke.\(state.childID ?? state.name)") }
            }
            for (_, t) in index.transitions {
                for effect in t.effects { if let (_, e) = SCXMLEffect.queued(effect) { names.insert(e) } }
            }
        }
        return names.sorted()
    }
}

/// The SCXML executable content that ``FlowSimulation`` performs: `raise(e)` puts `e` on the internal
/// queue, `send(e)` (a `<send>` with no target and no delay) on the external queue.
enum SCXMLEffect {
    enum Queue { case `internal`, external }

    static func queued(_ effect: String) -> (Queue, String)? {
        for (prefix, queue) in [("raise(", Queue.internal), ("send(", Queue.external)] where effect.hasPrefix(prefix) && effect.hasSuffix(")") {
            let name = effect.dropFirst(prefix.count).dropLast()
            guard !name.isEmpty, !name.contains(where: { $0 == "," || $0 == "(" || $0 == ")" || $0 == " " }) else { return nil }
            return (queue, String(name))
        }
        return nil
    }
}

/// SCXML matches an event name against a transition's descriptors by dotted prefix; the engine
/// dispatches on exact kinds. Two names behave alike when the same descriptors match them, and the
/// descriptors matching a name are the token prefixes of the longest one that does: so the names an
/// event can have fall into one class per descriptor of the file (the longest descriptor that matches
/// them), plus one class, `""`, for names only `*` matches. A definition declares each transition once
/// for every class its descriptors match, in document order, and an event's kind is its class: the
/// engine's first enabled transition is SCXML's, for any event name, known in advance or not.
struct EventClasses: Sendable {
    /// Every descriptor of the files (normalized: `error.*` is `error`), `*` left out.
    private(set) var descriptors: Set<String> = []
    /// For each descriptor, the classes it matches: itself and the descriptors it is a token prefix of.
    private var extensions: [String: [String]] = [:]
    /// Every class, sorted, `""` first.
    private(set) var all: [String] = [""]

    /// The classes of the descriptors in the given specs' transitions.
    init(_ specs: [FlowSpec]) {
        for spec in specs {
            for (_, t) in SpecIndex(spec).transitions {
                guard let event = t.event else { continue }
                for d in FlowSpec.descriptors(event) where d != "*" && !d.isEmpty { descriptors.insert(String(d)) }
            }
        }
        all = [""] + descriptors.sorted()
        for c in all.dropFirst() {
            for p in Self.prefixes(of: c) where descriptors.contains(p) { extensions[p, default: []].append(c) }
        }
    }

    /// A name's token prefixes, longest first, the name itself included (`a.b.c`, `a.b`, `a`).
    private static func prefixes(of name: String) -> [String] {
        var result = [name]
        var rest = Substring(name)
        while let dot = rest.lastIndex(of: ".") {
            rest = rest[..<dot]
            if !rest.isEmpty { result.append(String(rest)) }
        }
        return result
    }

    /// The class of an event name: the longest descriptor that is a token prefix of it, or `""`.
    func kind(of name: String) -> String {
        if descriptors.contains(name) { return name }
        var rest = Substring(name)
        while let dot = rest.lastIndex(of: ".") {
            rest = rest[..<dot]
            if descriptors.contains(String(rest)) { return String(rest) }
        }
        return ""
    }

    /// The classes a transition's event attribute matches, in ``all``'s order.
    func kinds(matching event: String) -> [String] {
        var set = Set<String>()
        for d in FlowSpec.descriptors(event) {
            if d == "*" { return all }
            set.formUnion(extensions[String(d)] ?? [])
        }
        return all.filter(set.contains)
    }
}

/// A spec's states by name, their parents, and its transitions in document order.
struct SpecIndex: Sendable {
    /// For a compiled definition, the spec transition each declaration stands for (see
    /// ``FlowSpec/compiled(guards:events:children:)``).
    var specTransitions: [Int] = []
    var states: [String: FlowSpec.State] = [:]
    var parent: [String: String] = [:]
    /// Every transition with the name of the state it is declared on, in document order (a state's
    /// transitions, then its children's).
    var transitions: [(source: String, transition: FlowSpec.Transition)] = []
    /// State names in document order.
    var order: [String] = []

    init(_ spec: FlowSpec) {
        func visit(_ state: FlowSpec.State, parent: String?) {
            if states[state.name] == nil {
                states[state.name] = state
                order.append(state.name)
                if let parent { self.parent[state.name] = parent }
            }
            for t in state.transitions { transitions.append((state.name, t)) }
            for child in state.states { visit(child, parent: state.name) }
        }
        for state in spec.states { visit(state, parent: nil) }
    }

    /// A state's ancestors, innermost first.
    func ancestors(of name: String) -> [String] {
        var result: [String] = []
        var current = parent[name]
        while let p = current, result.count <= states.count {
            result.append(p)
            current = parent[p]
        }
        return result
    }
}
