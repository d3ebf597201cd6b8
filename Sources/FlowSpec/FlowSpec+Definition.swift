import FlowGraph
import Flowstate

extension FlowFile {
    /// A definition of the spec that the engine and the supervisor run, with string states and effects
    /// and ``SpecEvent`` events.
    ///
    /// A guard is true when the step's event says so (`SpecEvent.guards`), else `guards[name]`, else
    /// true. SCXML's `true`, `false` and `In('state')` are evaluated. Declarations carry the file's
    /// locations, so validation issues point into the file. Child flows are recorded by name only:
    /// ``FlowSimulation`` runs them, `FlowDiagram.init(_:mergeParallelEdges:)` draws them.
    ///
    /// Transitions match their event text exactly (what drawing needs). ``FlowSimulation`` runs a
    /// definition compiled for SCXML's descriptor matching instead (a descriptor matches every event
    /// whose dotted name starts with its tokens).
    public func definition(guards: [String: Bool] = [:]) -> FlowDefinition<StringFlow> {
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
    /// - Parameters:
    ///   - effects: Whether effect labels (entry, exit, transitions') are compiled in. Validation and
    ///     exploration never read them (the driver runs the file's executable content, never labels),
    ///     so they compile without: the engine then lays out no effect ranges and makes no labels.
    ///   - children: The child flow a state runs, by state, for the supervisor.
    func compiled(guards defaults: [String: Bool], matching: Matching, effects: Bool = true,
                  children: (State) -> ChildFlow<StringFlow>? = { _ in nil })
        -> (definition: FlowDefinition<StringFlow>, specTransitions: [Int])
    {
        let scxml = semantics == .scxml
        // With parallel states, `In()` asks the engine's configuration (a set of states); without,
        // the leaf the machine rests in says what is active.
        var hasParallel = false
        forEachState { if $0.isParallel && !$0.states.isEmpty { hasParallel = true } }
        // `In()` needs the states' ancestors when it is evaluated: an index, made only if a condition
        // asks (most files do not, and a big file's compilation is where its memory peaks).
        var ancestry: SpecIndex?
        let fallbackLocation = FlowSourceLocation(file: name, line: 0, column: 0)
        // One guard per distinct condition text, shared by every transition that names it: a file
        // with 50,000 guarded transitions and five guard names makes five closures, not 50,000.
        var conditions: [String: Guard<StringFlow>] = [:]
        func condition(_ name: String) -> Guard<StringFlow> {
            if let known = conditions[name] { return known }
            let made: Guard<StringFlow>
            let trimmed = name.trimmingSpaces
            if trimmed == "true" || trimmed == "false" {
                let value = trimmed == "true"
                made = Guard(name, evaluate: { _, _ in value })
            } else if let state = Self.inPredicate(trimmed), hasParallel {
                made = Guard.in(state, named: name)
            } else if let state = Self.inPredicate(trimmed) {
                let index = ancestry ?? SpecIndex(self)
                ancestry = index
                made = Guard(name, evaluate: { leaf, _ in index.isActive(state, whenIn: leaf) })
            } else {
                let fallback = defaults[name] ?? true
                made = Guard(name, evaluate: { _, event in event?.guards[name] ?? fallback })
            }
            conditions[name] = made
            return made
        }
        // One update per distinct name: a flow file's context update is a name with no code behind it.
        var updates: [String: Update<StringFlow>] = [:]
        func update(_ name: String) -> Update<StringFlow> {
            if let known = updates[name] { return known }
            let made = Update<StringFlow>(name) { _, _ in }
            updates[name] = made
            return made
        }
        // The classes an event attribute matches, once per distinct attribute text.
        var kindsByEvent: [String: [String]] = [:]
        func kinds(_ event: String) -> [String] {
            switch matching {
            case .text:
                return [event]
            case .descriptors(let classes):
                if let known = kindsByEvent[event] { return known }
                let found = classes.kinds(matching: event)
                kindsByEvent[event] = found
                return found
            }
        }
        // The spec transition of each declaration, in declaration order (the compiler's: a state's
        // children's transitions before its own). A state's own transitions are numbered before its
        // children's in document order, so each state takes its block of numbers on the way down.
        var declared: [Int] = []
        var counter = 0
        func element(_ state: State, topLevel: Bool, inParallel: Bool, parent: State?) -> FlowElement<StringFlow> {
            let l = state.location ?? fallbackLocation
            let firstOwn = counter
            counter += state.transitions.count
            if let history = state.history {
                // A <history>: its one transition is its default (the engine's `default:`), not one of
                // the engine's transitions. Without one, its parent's initial state stands in (as Qt
                // SCXML does; validation warns, `historyDefaultIssues`).
                let target = state.transitions.first?.target
                    ?? parent.flatMap { $0.standInDefault(forHistory: state.name, deep: history == .deep) } ?? ""
                return Flowstate.History<StringFlow>(state.name, history == .deep ? .deep : .shallow, default: target,
                                                     fileID: l.file, line: l.line, column: l.column).element
            }
            var body: [FlowElement<StringFlow>] = []
            body.reserveCapacity(state.states.count + state.transitions.count)
            // Child states first, then the state's own transitions: the order "cancel from any step"
            // is usually written in, and the order the transitions keep in graphs.
            let regions = inParallel || (state.isParallel && !state.states.isEmpty)
            for child in state.states { body.append(element(child, topLevel: false, inParallel: regions, parent: state)) }
            for (k, t) in state.transitions.enumerated() {
                let tl = t.location ?? fallbackLocation
                let guardCondition = t.guardName.map(condition)
                let labels = effects ? t.effects : []
                let type: TransitionType = t.isInternal ? .internal : .external
                if let delay = t.delay {
                    // A delayed transition: the engine arms its timer when the state is entered (the
                    // readers refuse a delay with an event, several targets or `internal`).
                    body.append(After<StringFlow>(delay, guard: guardCondition, to: t.target, update: t.update.map(update),
                                                effects: labels, fileID: tl.file, line: tl.line, column: tl.column).element)
                    declared.append(firstOwn + k)
                    continue
                }
                guard let event = t.event else {
                    // The readers refuse an eventless transition without a target.
                    if t.targets.count > 1 {
                        body.append(Always<StringFlow>(guard: guardCondition, to: t.targets, type: type, update: t.update.map(update),
                                                    effects: labels, fileID: tl.file, line: tl.line, column: tl.column).element)
                    } else {
                        body.append(Always<StringFlow>(guard: guardCondition, to: t.target ?? state.name, type: type, update: t.update.map(update),
                                                    effects: labels, fileID: tl.file, line: tl.line, column: tl.column).element)
                    }
                    declared.append(firstOwn + k)
                    continue
                }
                for kind in kinds(event) {
                    if t.targets.count > 1 {
                        body.append(On<StringFlow>(SpecEvent(kind), guard: guardCondition, to: t.targets, type: type, update: t.update.map(update),
                                                 effects: labels, label: event, fileID: tl.file, line: tl.line,
                                                 column: tl.column).element)
                    } else {
                        body.append(On<StringFlow>(SpecEvent(kind), guard: guardCondition, to: t.target, type: type, update: t.update.map(update),
                                                 effects: labels, label: event, fileID: tl.file, line: tl.line,
                                                 column: tl.column).element)
                    }
                    declared.append(firstOwn + k)
                }
            }
            // Handed over as a function, not a closure literal: the result builder would copy the list.
            let contents: () -> [FlowElement<StringFlow>] = { body }
            // Under SCXML, only a top-level <final> ends the flow; a nested one raises done.state: the
            // engine raises it for a final inside a parallel state (and reports it to the driver), the
            // driver for any other. (A name declared twice is an error; the engine skips the second
            // declaration.)
            if state.isFinal && (!scxml || topLevel || inParallel) {
                return Final<StringFlow>(state.name, output: state.output ?? state.name, entry: effects ? state.entry : [],
                                       fileID: l.file, line: l.line, column: l.column, contents).element
            }
            if state.isParallel && !state.states.isEmpty {
                return Parallel<StringFlow>(state.name, runs: children(state), entry: effects ? state.entry : [],
                                          exit: effects ? state.exit : [], fileID: l.file, line: l.line,
                                          column: l.column, contents).element
            }
            // Several initial states (one in each of several regions below): the engine's initial child
            // is the child that holds the first (the driver refuses to run such a state).
            var initialChild = state.initial
            if state.initialStates.count > 1, let first = state.initial {
                let index = ancestry ?? SpecIndex(self)
                ancestry = index
                initialChild = ([first] + index.ancestors(of: first)).first { index.parent[$0] == state.name } ?? first
            }
            return StateNode<StringFlow>(state.name, initial: initialChild, runs: children(state),
                                       entry: effects ? state.entry : [], exit: effects ? state.exit : [],
                                       fileID: l.file, line: l.line, column: l.column, contents).element
        }
        var top: [FlowElement<StringFlow>] = []
        top.reserveCapacity(states.count)
        for state in states { top.append(element(state, topLevel: true, inParallel: false, parent: nil)) }
        // Handed over, not copied: the engine can free the tree as soon as it has read it.
        if initialStates.count > 1 {
            // A document that starts in several regions of a parallel state (`<scxml initial="a b">`).
            return (FlowDefinition(name, initialStates: initialStates, context: (), elements: consume top,
                                   location: location ?? fallbackLocation), declared)
        }
        return (FlowDefinition(name, initial: initial, elements: consume top, location: location ?? fallbackLocation),
                declared)
    }

    /// `In('s')` or `In("s")`: the state it asks about.
    static func inPredicate(_ text: Substring) -> String? {
        guard text.hasPrefix("In("), text.hasSuffix(")") else { return nil }
        let inner = text.dropFirst(3).dropLast().trimmingSpaces
        guard inner.count >= 2, let quote = inner.first, quote == "'" || quote == "\"", inner.last == quote else { return nil }
        return String(inner.dropFirst().dropLast())
    }

    /// A transition's SCXML event descriptors, normalized (``EventDescriptor/descriptors(_:)``).
    static func descriptors(_ event: String) -> [Substring] { EventDescriptor.descriptors(event) }

    /// Whether a transition's event descriptors match an event name (``EventDescriptor``).
    static func matches(_ event: String, name: String) -> Bool { EventDescriptor.matches(event: event, name: name) }

    /// Every event name the spec's transitions mention: with SCXML semantics, each descriptor of each
    /// transition (`*` left out), plus `done.state.*` of compound states with final children, and the
    /// events raised or sent by effects. Sorted.
    var eventNames: [String] {
        var names: Set<String> = []
        let scxml = semantics == .scxml
        SpecIndex(self).forEach(state: { _, state in
            guard scxml else { return }
            for effect in state.entry + state.exit { if let (_, e) = SCXMLEffect.queued(effect) { names.insert(e) } }
            if state.states.contains(where: { $0.isFinal }) {
                names.insert("done.state.\(state.name)")
            }
            if state.child != nil { names.insert("done.invoke.\(state.childID ?? state.name)") }
        }, transition: { _, t in
            if scxml {
                for effect in t.effects { if let (_, e) = SCXMLEffect.queued(effect) { names.insert(e) } }
            }
            guard let event = t.event else { return }
            if scxml {
                for d in Self.descriptors(event) where d != "*" { names.insert(String(d)) }
            } else {
                names.insert(event)
            }
        })
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
    /// For each descriptor, the classes it matches (itself and the descriptors it is a token prefix
    /// of), by their position in ``all``.
    private var extensions: [String: [Int]] = [:]
    /// Every class, sorted, `""` first.
    private(set) var all: [String] = [""]

    /// The classes of the descriptors in the given specs' transitions.
    init(_ specs: [FlowFile]) {
        for spec in specs {
            spec.forEachTransition { t in
                guard let event = t.event else { return }
                for d in FlowFile.descriptors(event) where d != "*" && !d.isEmpty { descriptors.insert(String(d)) }
            }
        }
        all = [""] + descriptors.sorted()
        for (rank, c) in all.enumerated().dropFirst() {
            for p in EventDescriptor.prefixes(of: Substring(c)) where descriptors.contains(String(p)) {
                extensions[String(p), default: []].append(rank)
            }
        }
    }

    /// The class of an event name: the longest descriptor that is a token prefix of it, or `""`.
    func kind(of name: String) -> String {
        EventDescriptor.longestPrefix(of: Substring(name)) { descriptors.contains(String($0)) }.map(String.init) ?? ""
    }

    /// The classes a transition's event attribute matches, in ``all``'s order.
    func kinds(matching event: String) -> [String] {
        var ranks = Set<Int>()
        for d in FlowFile.descriptors(event) {
            if d == "*" { return all }
            ranks.formUnion(extensions[String(d)] ?? [])
        }
        return ranks.sorted().map { all[$0] }
    }
}

extension FlowFile {
    /// Calls `body` with every state, in document order, without copying the states.
    func forEachState(_ body: (State) -> Void) {
        var stack: [(states: [State], next: Int)] = [(states, 0)]
        while let (list, next) = stack.last {
            guard next < list.count else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            body(list[next])
            if !list[next].states.isEmpty { stack.append((list[next].states, 0)) }
        }
    }

    /// Calls `body` with every transition, in document order (a state's transitions, then its
    /// children's), without copying the states.
    func forEachTransition(_ body: (Transition) -> Void) {
        forEachState { state in
            for transition in state.transitions { body(transition) }
        }
    }
}

/// A spec's states by name, their hierarchy, and its transitions in document order, as numbers: names
/// are hashed once, a question about ancestors is asked of the states' ``FlowHierarchy`` (numbered by
/// ordinal), and no state or transition is copied (the index finds them in the spec: a 100,000-state
/// file's index is a few bytes a state).
struct SpecIndex: Sendable {
    /// For a compiled definition, the spec transition each declaration stands for (see
    /// ``FlowFile/compiled(guards:matching:effects:children:)``).
    var specTransitions: [Int] = []
    /// State names in document order (pre-order), each once.
    private(set) var order: [String] = []
    /// Each name's position in ``order`` (its ordinal).
    private(set) var ordinals: [String: Int] = [:]
    /// The states' parents, children, initial children and ancestry, by ordinal.
    private(set) var hierarchy = FlowHierarchy(parents: [])
    /// The ordinal of the state each transition is declared on, in document order (a state's
    /// transitions, then its children's).
    private(set) var sourceOrdinals: [Int32] = []
    /// The top-level states, from which every state is found.
    private let roots: [FlowFile.State]
    /// States as declared, in pre-order, a name declared twice counted twice ("instances"): each one's
    /// parent instance (-1 at the top), its position among its parent's states, the document-order
    /// number of its first transition, and its name's ordinal.
    private var instanceParent: [Int32] = []
    private var instanceSlot: [Int32] = []
    private var instanceFirstTransition: [Int32] = []
    /// The ordinal of each instance's name.
    private var instanceOrdinal: [Int32] = []
    /// The instance of each state's first declaration, by ordinal.
    private var firstInstance: [Int32] = []
    /// The instance each transition is declared on.
    private var transitionInstance: [Int32] = []

    init(_ spec: FlowFile) {
        roots = spec.states
        // Counted first, so every list is allocated once at its size.
        var instanceCount = 0
        var transitionCount = 0
        Self.preorder(spec.states) { state, _, _ in
            instanceCount += 1
            transitionCount += state.transitions.count
        }
        instanceParent.reserveCapacity(instanceCount)
        instanceSlot.reserveCapacity(instanceCount)
        instanceFirstTransition.reserveCapacity(instanceCount)
        instanceOrdinal.reserveCapacity(instanceCount)
        ordinals.reserveCapacity(instanceCount)
        transitionInstance.reserveCapacity(transitionCount)
        sourceOrdinals.reserveCapacity(transitionCount)
        var parentOrdinals: [Int] = []
        parentOrdinals.reserveCapacity(instanceCount)
        var initialNames: [(ordinal: Int, name: String)] = []
        Self.preorder(spec.states) { state, parent, slot in
            let instance = instanceParent.count
            instanceParent.append(Int32(parent))
            instanceSlot.append(Int32(slot))
            instanceFirstTransition.append(Int32(transitionInstance.count))
            let ordinal: Int
            if let known = ordinals[state.name] {
                ordinal = known  // a name declared twice: the first declaration is the state
            } else {
                ordinal = order.count
                ordinals[state.name] = ordinal
                order.append(state.name)
                firstInstance.append(Int32(instance))
                parentOrdinals.append(parent >= 0 ? Int(instanceOrdinal[parent]) : -1)
                if let initial = state.initial { initialNames.append((ordinal, initial)) }
            }
            instanceOrdinal.append(Int32(ordinal))
            for _ in state.transitions {
                transitionInstance.append(Int32(instance))
                sourceOrdinals.append(Int32(ordinal))
            }
        }
        // A declared initial child that is not a child is left to the hierarchy, which enters the
        // first child instead (validation reports it).
        var initialChildren = [Int](repeating: -1, count: initialNames.isEmpty ? 0 : order.count)
        for (ordinal, name) in initialNames { initialChildren[ordinal] = ordinals[name] ?? -1 }
        hierarchy = FlowHierarchy(parents: parentOrdinals, initialChildren: initialChildren)
    }

    /// Visits every state in pre-order with its parent's instance number (-1 at the top) and its
    /// position among its siblings, without recursion.
    private static func preorder(_ states: [FlowFile.State], _ body: (FlowFile.State, Int, Int) -> Void) {
        var stack: [(states: [FlowFile.State], next: Int, parent: Int)] = [(states, 0, -1)]
        var instances = 0
        while let (list, next, parent) = stack.last {
            guard next < list.count else {
                stack.removeLast()
                continue
            }
            stack[stack.count - 1].next += 1
            let instance = instances
            instances += 1
            body(list[next], parent, next)
            if !list[next].states.isEmpty { stack.append((list[next].states, 0, instance)) }
        }
    }

    /// The bytes the index's own storage takes (array and table capacities; the names are shared with
    /// the spec), for tests that keep it small.
    var footprint: Int {
        order.capacity * MemoryLayout<String>.stride + ordinals.capacity * (MemoryLayout<String>.stride + MemoryLayout<Int>.stride)
            + hierarchy.footprint + sourceOrdinals.capacity * MemoryLayout<Int32>.stride
            + specTransitions.capacity * MemoryLayout<Int>.stride
            + (instanceParent.capacity + instanceSlot.capacity + instanceFirstTransition.capacity + instanceOrdinal.capacity
                + firstInstance.capacity + transitionInstance.capacity) * MemoryLayout<Int32>.stride
    }

    /// The state declared as an instance: found from the top, through its ancestors.
    private func state(instance: Int) -> FlowFile.State {
        guard instanceParent[instance] >= 0 else { return roots[Int(instanceSlot[instance])] }
        var path: [Int] = []
        var current = instance
        while current >= 0 {
            path.append(Int(instanceSlot[current]))
            current = Int(instanceParent[current])
        }
        var state = roots[path.removeLast()]
        while let slot = path.popLast() { state = state.states[slot] }
        return state
    }

    /// Calls `body` with every state (its first declaration) and its ordinal, in document order, and
    /// with every transition and its number, walking the spec once (``stateList`` and
    /// ``transitionList`` find each item from the top).
    func forEach(state: (Int, FlowFile.State) -> Void = { _, _ in }, transition: (Int, FlowFile.Transition) -> Void = { _, _ in }) {
        var instance = 0
        var t = 0
        Self.preorder(roots) { item, _, _ in
            if firstInstance[Int(instanceOrdinal[instance])] == Int32(instance) { state(Int(instanceOrdinal[instance]), item) }
            for each in item.transitions {
                transition(t, each)
                t += 1
            }
            instance += 1
        }
    }

    /// Every state (its first declaration), by ordinal.
    var stateList: StateList { StateList(index: self) }

    /// Every transition in document order.
    var transitionList: TransitionList { TransitionList(index: self) }

    /// The states by ordinal.
    struct StateList: RandomAccessCollection {
        let index: SpecIndex
        var startIndex: Int { 0 }
        var endIndex: Int { index.order.count }
        subscript(position: Int) -> FlowFile.State { index.state(instance: Int(index.firstInstance[position])) }
    }

    /// The transitions in document order.
    struct TransitionList: RandomAccessCollection {
        let index: SpecIndex
        var startIndex: Int { 0 }
        var endIndex: Int { index.transitionInstance.count }
        subscript(position: Int) -> FlowFile.Transition {
            let instance = Int(index.transitionInstance[position])
            return index.state(instance: instance).transitions[position - Int(index.instanceFirstTransition[instance])]
        }
    }

    /// The state declared with a name (its first declaration): `index.states["a"]`.
    var states: States { States(index: self) }

    /// The name of the state that contains a state, for states that have a parent: `index.parent["a"]`.
    var parent: Parents { Parents(index: self) }

    /// The name of the state that contains the state with this ordinal, if any.
    func parentName(ofOrdinal ordinal: Int) -> String? {
        let parent = hierarchy.parent(of: ordinal)
        return parent >= 0 ? order[parent] : nil
    }

    /// Every transition with the name of the state that declares it, in document order.
    var transitions: Transitions { Transitions(index: self) }

    /// A state's ancestors, innermost first.
    func ancestors(of name: String) -> [String] {
        guard let start = ordinals[name] else { return [] }
        return hierarchy.properAncestors(of: start).map { order[$0] }
    }

    /// Whether `state` is `leaf` or one of its ancestors (SCXML's `In()` for a machine resting in
    /// `leaf`), without allocating.
    func isActive(_ state: String, whenIn leaf: String) -> Bool {
        if leaf == state { return true }
        guard let wanted = ordinals[state], let start = ordinals[leaf] else { return false }
        return hierarchy.isDescendant(start, of: wanted)
    }

    /// States by name.
    struct States {
        let index: SpecIndex
        subscript(name: String) -> FlowFile.State? { index.ordinals[name].map { index.stateList[$0] } }
    }

    /// Parents by name.
    struct Parents {
        let index: SpecIndex
        subscript(name: String) -> String? { index.ordinals[name].flatMap(index.parentName(ofOrdinal:)) }
    }

    /// The transitions in document order, each with its source's name.
    struct Transitions: RandomAccessCollection {
        let index: SpecIndex
        var startIndex: Int { 0 }
        var endIndex: Int { index.transitionList.count }
        subscript(position: Int) -> (source: String, transition: FlowFile.Transition) {
            (index.order[Int(index.sourceOrdinals[position])], index.transitionList[position])
        }
    }
}
