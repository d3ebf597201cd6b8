/// Turns the elements of a definition into declarations, validation issues and a ``FlowTable``.
///
/// It never traps on bad input: a definition with errors still compiles (its table is simply never
/// run, because a machine refuses to start an invalid definition).
///
/// Nothing recurses over the definition's structure, so a definition may be nested deeper than a
/// thread's stack allows recursion; and no question walks more of the tree than its answer covers,
/// so compiling costs the definition's size plus the table's. (The table itself can be larger than
/// linear: every leaf lists the transitions of all its ancestors, each move with its own exits and
/// entries. The work beyond it is linear.)
struct FlowCompiler<F: Flow> {
    struct Compiled {
        var states: [FlowDefinition<F>.StateDeclaration]
        var transitions: [FlowDefinition<F>.TransitionDeclaration]
        var issues: [ValidationIssue]
        var table: FlowTable<F>
    }

    struct Raw {
        var source: Int
        var data: FlowElement<F>.TransitionData
        var target: Int  // -1: targetless, -2: unknown
        /// The targets after `target`, resolved (-2: unknown).
        var moreTargets: [Int] = []
        /// For a completion transition, the state whose completion it reacts to (-2: unknown), else -1.
        var doneOf = -1
    }

    /// A list of elements being read by `collect`, and how far.
    struct CollectFrame {
        let elements: [FlowElement<F>]
        var next = 0
        /// The state whose elements these are, or -1 for the definition's own elements.
        let parent: Int
        /// Whether `parent` is a final state, whose states are reported rather than collected.
        let insideFinal: Bool
    }

    struct SourceEvent: Hashable {
        let source: Int
        let event: F.Event.Kind?
    }

    let name: String
    let initial: F.State
    /// The flow's initial states after `initial` (a flow that starts in several regions of a parallel
    /// state, SCXML's `<scxml initial="a b">`), and their numbers once resolved.
    let moreInitial: [F.State]
    var moreInitialIndices: [Int] = []
    let unhandled: UnhandledEventPolicy
    /// Emptied by `collect` once read: the tree is freed before the table and declarations are built.
    var elements: [FlowElement<F>]
    let location: FlowSourceLocation

    // States, by index in declaration order (a parent before its children). The structure is kept in
    // flat arrays (the hierarchy's, and the effect lists): the hot loops read integers and effect
    // lists, never a whole state.
    var nodes: [FlowElement<F>.StateData] = []
    /// Each state's parent as `collect` reads it, or -1; handed to ``hierarchy`` once read.
    var parent: [Int] = []
    /// The hierarchy, built once the states are collected and their initial children checked.
    var hierarchy = FlowHierarchy(parents: [])
    // Effects as codes: a constant effect is its index in `pool`, an emit is `-1 - its index in
    // `emits`. Laying out codes copies integers, not effects; the table turns them back at the end.
    var pool: [F.Effect] = []
    var emits: [Emit<F>] = []
    var entries: [[Int32]] = []
    var exits: [[Int32]] = []
    var index: [F.State: Int] = [:]
    // Transitions, in declaration order.
    var raws: [Raw] = []
    var rawSource: [Int] = []
    var rawTarget: [Int] = []  // -1: targetless, -2: unknown
    var rawEffects: [[Int32]] = []
    var issues: [ValidationIssue] = []
    var shortcuts = Shortcuts()

    init(name: String, initial: F.State, moreInitial: [F.State] = [], unhandled: UnhandledEventPolicy,
         elements: [FlowElement<F>], location: FlowSourceLocation) {
        self.name = name
        self.initial = initial
        self.moreInitial = moreInitial
        self.unhandled = unhandled
        self.elements = elements
        self.location = location
    }

    @_specialize(where F == StringFlow)
    consuming func compile() -> Compiled {
        collect()
        resolveInitialChildren()
        resolveTargets()
        link()
        let initialIndex = index[initial] ?? -1
        if initialIndex < 0 {
            report(.missingInitialState, .error,
                   "initial state '\(label(initial))' of flow '\(name)' is not a declared state", location)
        }
        if initialIndex >= 0 { resolveMoreInitial(initialIndex) }
        let table = buildTable(initialIndex: initialIndex)
        checkFinalStates()
        checkDelays()
        checkDeterminism()
        checkInternalTransitions()
        checkParallelReentry()
        if initialIndex >= 0 { checkReachability(table: table) }
        let ordered = issues.filter { $0.severity == .error } + issues.filter { $0.severity == .warning }
        return Compiled(states: stateDeclarations(), transitions: transitionDeclarations(),
                        issues: ordered, table: table)
    }

    // MARK: Declarations

    func stateDeclarations() -> [FlowDefinition<F>.StateDeclaration] {
        nodes.indices.map { i in
            let data = nodes[i]
            let kind: FlowDefinition<F>.StateDeclaration.Kind =
                data.history != nil ? .history : data.output != nil ? .final
                    : (hierarchy.isAtomic(i) ? .atomic : (hierarchy.isParallel(i) ? .parallel : .compound))
            let parent = hierarchy.parent(of: i)
            let initialChild = data.history != nil ? -1 : hierarchy.initialChild(of: i)
            return .init(
                state: data.state, label: label(data.state), kind: kind,
                parent: parent >= 0 ? nodes[parent].state : nil,
                children: hierarchy.children(of: i).map { nodes[$0].state },
                initialChild: initialChild >= 0 ? nodes[initialChild].state : nil,
                entry: data.entry, exit: data.exit, emitOnEntry: data.entryEmits, emitOnExit: data.exitEmits,
                entryLabels: labels(data.entry, data.entryEmits),
                exitLabels: labels(data.exit, data.exitEmits),
                outputLabel: data.output?.label, childFlow: data.child?.name,
                history: data.history, historyDefault: data.history != nil ? data.initial : nil,
                location: data.location
            )
        }
    }

    func transitionDeclarations() -> [FlowDefinition<F>.TransitionDeclaration] {
        raws.map { raw in
            .init(source: nodes[raw.source].state, event: raw.data.event, eventLabel: raw.data.eventLabel,
                  guardLabel: raw.data.guardCondition?.name, guardState: raw.data.guardCondition?.activeState,
                  target: raw.data.target,
                  targets: raw.data.target.map { [$0] + raw.data.moreTargets } ?? [], update: raw.data.update,
                  effects: raw.data.effects, emit: raw.data.emits,
                  effectLabels: labels(raw.data.effects, raw.data.emits), type: raw.data.type,
                  location: raw.data.location, delay: raw.data.delay)
        }
    }

    func label(_ state: F.State) -> String { String(describing: state) }

    mutating func report(_ kind: ValidationIssue.Kind, _ severity: ValidationIssue.Severity,
                                 _ message: String, _ location: FlowSourceLocation?, transition: FlowTransitionID? = nil) {
        issues.append(ValidationIssue(kind: kind, severity: severity, message: message, location: location,
                                      transition: transition))
    }
}
