import FlowGraph
import Flowstate

/// A flow stored as a file: the versioned JSON flow spec (`"flowspec": 1`, documented in
/// `docs/flowspec.md`).
///
/// Any Swift definition writes its spec with one call (`init(_:)`, ``json()``); reading a spec back
/// (`parse(_:file:)`) and turning it into a definition (`definition(guards:events:)`) gives the same
/// graph. Every problem in a file is reported with its `file:line:column`.
public struct FlowSpec: Sendable {
    /// A state, with the states and transitions it contains.
    public struct State: Sendable {
        /// The state's name.
        public var name: String
        /// Whether the state is final.
        public var isFinal = false
        /// A final state's output.
        public var output: String?
        /// For a compound state, the child entered first (default: the first child).
        public var initial: String?
        /// The name of the child flow the state runs under a supervisor (for SCXML, the `<invoke>`'s `src`).
        public var child: String?
        /// The invocation's identifier (SCXML `<invoke id>`): the child's completion reaches the flow as
        /// `done.invoke.<childID>`. `nil` for JSON specs, whose child's output is the event itself.
        public var childID: String?
        /// A parallel state (SCXML `<parallel>`): drawn and validated, not simulated.
        public var isParallel = false
        /// Whether the child flow is sent every external event the state's flow receives (SCXML
        /// `<invoke autoforward="true">`).
        public var autoforward = false
        /// Entry effects, as labels (drawn, written to JSON, reported by steps).
        public var entry: [String] = []
        /// Exit effects, as labels.
        public var exit: [String] = []
        /// SCXML: the `<onentry>` blocks' executable content, one block per element (what
        /// ``FlowSimulation`` runs; ``entry`` holds their labels). Empty for JSON specs.
        public var onEntry: [Executable] = []
        /// SCXML: the `<onexit>` blocks' executable content.
        public var onExit: [Executable] = []
        /// SCXML the state holds that its structure does not model, each element as XML text (one
        /// line, attributes as written): its `<datamodel>` and `<script>` elements, the `<invoke>`s
        /// it does not run as ``child`` (one that needs a data model, of another type, or a second
        /// one) and a `<donedata>` with `<param>`. Drawn as text under the state's name
        /// (``FlowSpec/dataLines(_:)``), written back as it was read, never run.
        public var data: [String] = []
        /// The state's transitions.
        public var transitions: [Transition] = []
        /// The states it contains.
        public var states: [State] = []
        /// Where the state was written, for files.
        public var location: FlowSourceLocation?

        /// Creates a state.
        public init(name: String) { self.name = name }
    }

    /// A transition.
    public struct Transition: Sendable {
        /// The event; `nil` for an eventless transition.
        public var event: String?
        /// The guard's name.
        public var guardName: String?
        /// The target; `nil` for a targetless transition.
        public var target: String?
        /// Effects, as labels.
        public var effects: [String] = []
        /// SCXML: the transition's executable content (``effects`` holds its labels). `nil` for JSON specs.
        public var content: Executable?
        /// Where the transition was written, for files.
        public var location: FlowSourceLocation?

        /// Creates a transition.
        public init(event: String?, guardName: String? = nil, target: String?, effects: [String] = []) {
            self.event = event
            self.guardName = guardName
            self.target = target
            self.effects = effects
        }
    }

    /// The spec format's version this library reads and writes.
    public static let version = 1

    /// How a flow file's events and final states behave when simulated.
    public enum Semantics: String, Hashable, Sendable {
        /// The engine's own: events match exactly; entering any final state finishes the flow.
        case flowstate
        /// SCXML's (the W3C recommendation): an event descriptor matches the events it is a dotted
        /// prefix of (`error` matches `error.send`), `*` matches every event, a transition may list
        /// several descriptors separated by spaces, and entering a nested `<final>` raises
        /// `done.state.<parent>` instead of finishing the flow.
        case scxml
    }

    /// The flow's name.
    public var name: String
    /// How events and final states behave (SCXML files read with SCXML's semantics).
    public var semantics = Semantics.flowstate
    /// The initial state's name.
    public var initial: String
    /// The top-level states.
    public var states: [State]
    /// Where the spec was read from.
    public var location: FlowSourceLocation?
    /// SCXML: where the document declares data (`<datamodel>` with `<data>`) or a `<script>`, or holds
    /// what needs a data model (each element kept as text in ``data`` or ``State/data``, and each
    /// eventless transition without a target). Drawing and validation do not need them;
    /// ``FlowSimulation``, which runs SCXML's null data model, refuses them.
    public var dataElements: [FlowSourceLocation] = []
    /// Child flows the file itself contains (SCXML `<invoke>` with inline `<content>`), by the name
    /// their state's ``State/child`` gives them.
    public var documents: [String: FlowSpec] = [:]
    /// SCXML: the document's own `<datamodel>` and `<script>` elements, each as XML text (see
    /// ``State/data``), never run.
    public var data: [String] = []
    /// What the file holds that is valid but not run (SCXML: data, scripts, invocations that need a
    /// data model, eventless transitions without a target, a document without states, and those of
    /// its inline documents), in the order written: issues of kind `ValidationIssue.Kind.notRun`,
    /// with their location. `flowviz validate` prints them as warnings; `simulate` and `paths` refuse
    /// a file that has any, naming the first.
    public var warnings: [ValidationIssue] = []

    /// A ``warnings`` entry: something valid in a flow file that the spec keeps but a simulation does
    /// not run, at its place in the file.
    static func notRun(_ message: String, at location: FlowSourceLocation) -> ValidationIssue {
        ValidationIssue(kind: .notRun, severity: .warning, message: message, location: location)
    }

    /// Every transition with the name of the state that declares it, in document order (a state's
    /// transitions, then its children's): the numbering the graph of a file (`FlowGraph(spec)`),
    /// traces (`FlowTrace.Step.transitions`) and ``FlowPaths`` use for the file's transitions.
    public var transitionsInDocumentOrder: [(state: String, transition: Transition)] {
        SpecIndex(self).transitions.map { ($0.source, $0.transition) }
    }

    /// Every state, in document order (pre-order), each once.
    public var statesInDocumentOrder: [State] {
        var states: [State] = []
        SpecIndex(self).forEach(state: { _, state in states.append(state) })
        return states
    }

    /// Creates a spec.
    public init(name: String, initial: String, states: [State]) {
        self.name = name
        self.initial = initial
        self.states = states
    }

    /// The spec of any definition, by its labels: states, transitions (event, guard, target, effects),
    /// nesting, entry and exit effects, final outputs, child flows.
    public init<F: Flow>(_ definition: FlowDefinition<F>) {
        var index: [F.State: Int] = [:]
        for (i, state) in definition.states.enumerated() { index[state.state] = i }
        var declaredOn: [Int: [FlowDefinition<F>.TransitionDeclaration]] = [:]  // grouped once: linear in size
        for transition in definition.transitions {
            if let source = index[transition.source] { declaredOn[source, default: []].append(transition) }
        }
        func make(_ i: Int) -> State {
            let declaration = definition.states[i]
            var state = State(name: declaration.label)
            state.isFinal = declaration.kind == .final
            state.output = declaration.outputLabel
            state.initial = declaration.initialChild.map { "\($0)" }
            if let first = declaration.children.first, declaration.initialChild == first { state.initial = nil }
            state.child = declaration.childFlow
            state.entry = declaration.entryLabels
            state.exit = declaration.exitLabels
            state.transitions = (declaredOn[i] ?? []).map { t in
                Transition(event: t.eventLabel, guardName: t.guardLabel, target: t.target.map { "\($0)" },
                           effects: t.effectLabels)
            }
            state.states = declaration.children.compactMap { index[$0] }.map(make)
            return state
        }
        self.init(name: definition.name, initial: "\(definition.initial)",
                  states: definition.states.indices.filter { definition.states[$0].parent == nil }.map(make))
    }
}
