import FlowGraph
import Flowstate

/// A flow stored as a file: the versioned JSON flow spec (`"flowspec": 1`, documented in
/// `docs/flowspec.md`).
///
/// Any Swift definition writes its spec with one call (`init(_:)`, ``json()``); reading a spec back
/// (`parse(_:file:)`) and turning it into a definition (`definition(guards:events:)`) gives the same
/// graph. Every problem in a file is reported with its `file:line:column`.
public struct FlowFile: Sendable {
    /// A state, with the states and transitions it contains.
    public struct State: Sendable {
        /// The state's name.
        public var name: String
        /// Whether the state is final.
        public var isFinal = false
        /// A final state's output.
        public var output: String?
        /// For a compound state, the child entered first (default: the first child); the first of
        /// ``initialStates`` when it names several.
        public var initial: String? {
            get { initialStates.first }
            set { initialStates = newValue.map { [$0] } ?? [] }
        }
        /// For a compound state, the states its default entry enters (SCXML's `initial="a b"`): one
        /// child, or several descendants, one in each of several regions of a parallel state inside
        /// it. Empty: the first child.
        public var initialStates: [String] = []
        /// The name of the child flow the state runs under a supervisor (for SCXML, the `<invoke>`'s `src`).
        public var child: String?
        /// The invocation's identifier (SCXML `<invoke id>`): the child's completion reaches the flow as
        /// `done.invoke.<childID>`. `nil` for JSON specs, whose child's output is the event itself.
        public var childID: String?
        /// A parallel state (SCXML `<parallel>`): its child states are regions, all active together.
        public var isParallel = false
        /// A history pseudo-state (SCXML `<history type="shallow|deep">`): it remembers which children
        /// of its parent were active when the parent was last exited, and its one transition says
        /// where to go on the first visit. Drawn (`H`, `H*`), validated, simulated and explored.
        public var history: History?
        /// Whether the child flow is sent every external event the state's flow receives (SCXML
        /// `<invoke autoforward="true">`).
        public var autoforward = false
        /// Which event each output of the ``child`` flow becomes in this flow (a Swift `ChildFlow`'s
        /// `output:` mapping, exported for the outputs declared as constants). An output not listed
        /// reaches the flow as the event of the same name (JSON specs) or as `done.invoke.<childID>`
        /// (SCXML).
        public var childOutputs: [ChildOutput] = []
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
        /// (one line each, whitespace collapsed), written back as it was read, never run.
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

    /// What a history state remembers.
    public enum History: String, Hashable, Sendable {
        /// The parent's active child only (SCXML `type="shallow"`, the default).
        case shallow
        /// The parent's active descendants, to the leaves (SCXML `type="deep"`).
        case deep
    }

    /// An output of a state's child flow and the event it becomes in the flow that runs it (the same
    /// pair a definition's outline carries).
    public typealias ChildOutput = FlowOutline.ChildOutput

    /// A transition.
    public struct Transition: Sendable {
        /// The event; `nil` for an eventless transition.
        public var event: String?
        /// The guard's name.
        public var guardName: String?
        /// The target (the first, for a transition with several); `nil` for a targetless transition.
        /// Setting it makes the transition's only target (or none).
        public var target: String? {
            get { targets.first }
            set { targets = newValue.map { [$0] } ?? [] }
        }
        /// Every target, in the order written: one, several (SCXML's `target="a b"`, one state in each
        /// of several regions of a parallel state), or none for a targetless transition.
        public var targets: [String] = []
        /// Effects, as labels.
        public var effects: [String] = []
        /// SCXML `type="internal"` (JSON `"internal": true`): a transition from a compound state to its
        /// own descendants that does not exit and re-enter its source (the definition's
        /// `TransitionType.internal`). Drawn dotted, simulated and explored; where it changes nothing
        /// (an atomic or parallel source, a target outside the source) validation warns
        /// (`ineffective-internal`) and it runs as an external transition.
        public var isInternal = false
        /// For a delayed transition (the typed `After`), how long its state must stay active before
        /// it is taken; its ``event`` is then `nil`. JSON `"after": "30s"`; SCXML the `<send delay>` and
        /// `<cancel>` idiom on entry and exit (see `docs/flowspec.md`). Drawn `after 30s`, validated
        /// (a delay must be positive, and a final state or a history never waits), simulated on
        /// virtual time and explored.
        public var delay: Duration?
        /// The name of the context update the transition makes (drawn `{name}`; a Swift `Update`'s
        /// name). A flow file has no code behind it: simulating it changes no context.
        public var update: String?
        /// SCXML: the transition's executable content (``effects`` holds its labels). `nil` for JSON specs.
        public var content: Executable?
        /// Where the transition was written, for files.
        public var location: FlowSourceLocation?

        /// Creates a transition.
        public init(event: String?, guardName: String? = nil, target: String?, effects: [String] = [],
                    update: String? = nil) {
            self.event = event
            self.guardName = guardName
            self.targets = target.map { [$0] } ?? []
            self.effects = effects
            self.update = update
        }

        /// Creates a transition with several targets (none: targetless).
        public init(event: String?, guardName: String? = nil, targets: [String], effects: [String] = [],
                    update: String? = nil) {
            self.event = event
            self.guardName = guardName
            self.targets = targets
            self.effects = effects
            self.update = update
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
    /// The initial state's name (the first, when the document names several); empty for a document
    /// without states. Setting it makes it the only one.
    public var initial: String {
        get { initialStates.first ?? "" }
        set { initialStates = newValue.isEmpty ? [] : [newValue] }
    }
    /// The states the flow starts in: one, or several (SCXML's `<scxml initial="a b">`, one state in
    /// each of several regions of a parallel state).
    public var initialStates: [String] = []
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
    public var documents: [String: FlowFile] = [:]
    /// The deep links the file declares (the JSON flow spec's `"routes"`), in the order written:
    /// `flowviz routes` prints the shortest event path each takes; one whose state is not declared is
    /// an `unknown-target` error of ``validate()``.
    public var routes: [Route] = []

    /// A deep link a flow file declares: a URL path, and the state it opens.
    public struct Route: Hashable, Sendable {
        /// The URL path (`/checkout/payment`).
        public var path: String
        /// The name of the state the link opens.
        public var state: String
        /// Where the file declares it.
        public var location: FlowSourceLocation?

        /// A route.
        public init(path: String, state: String, location: FlowSourceLocation? = nil) {
            self.path = path
            self.state = state
            self.location = location
        }
    }
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
    /// transitions, then its children's): the numbering the graph of a file (`FlowDiagram(spec)`),
    /// traces (`FlowTrace.Step.transitions`) and ``FlowFilePathfinder`` use for the file's transitions.
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
        self.states = states
        self.initialStates = initial.isEmpty ? [] : [initial]
    }

    /// The spec of any definition, by its labels: states, transitions (event, guard, context update,
    /// target, effects and emits), nesting, entry and exit effects, final outputs, and the child flows
    /// its states run, each exported the same way into ``documents`` with the events its constant
    /// outputs become (``State/childOutputs``). An output computed from the context or the event is
    /// written by its case, its label up to the payload (`loggedIn(email)` is written `loggedIn`): a
    /// parent receives it as the event of that name. A `Guard.in(.s)` is written as the files'
    /// In-condition, `In('s')`, which reads back as one. Reading the spec back draws the same graph as
    /// the definition (`FlowDiagram(spec)` equals `FlowDiagram(definition)`), and so does each child's
    /// document, except for the label of an In guard: the definition's reads `[In(s)]`, the file's
    /// `[In('s')]`.
    public init<F: Flow>(_ definition: FlowDefinition<F>) {
        // Children are visited without recursion: each flow is exported alone, with its children's
        // visits queued, and the documents nest once every flow is known (a child comes after its parent).
        var pending: [ChildVisit] = []
        var exported: [(spec: FlowFile, parent: Int?)] = [(FlowFile(flow: definition, pending: &pending, position: 0), nil)]
        var next = 0
        while next < pending.count {
            let exporter = ChildExporter(position: exported.count)
            pending[next].describe(exporter)
            if let child = exporter.spec {
                exported.append((child, pending[next].parent))
                pending += exporter.pending
            }
            next += 1
        }
        for i in exported.indices.dropFirst().reversed() {
            guard let parent = exported[i].parent else { continue }
            let child = exported[i].spec
            if exported[parent].spec.documents[child.name] == nil { exported[parent].spec.documents[child.name] = child }
        }
        self = exported[0].spec
    }

    /// A declared child still to export: the position of the flow that runs it, and how to visit it.
    fileprivate struct ChildVisit {
        var parent: Int
        var describe: (any ChildDefinitionVisitor) -> Void
    }

    /// One flow's spec (its outline's), without its children's documents: their visits go to
    /// `pending`, as children of the flow exported at `position`.
    fileprivate init<F: Flow>(flow definition: FlowDefinition<F>, pending: inout [ChildVisit], position: Int) {
        self.init(Self.outlineWithComputedOutputsByCase(definition))
        for case let child? in definition.childFlows {
            pending.append(ChildVisit(parent: position, describe: { child.describe(to: $0) }))
        }
    }
}

extension FlowFile {
    /// The definition's outline, each final state's output computed from the context or the event
    /// named by its case (``outputCase(of:)``): what the flow that runs it as a child receives under
    /// that name when the state's `outputs` does not list it, as events are named by kind. Only
    /// constant outputs are listed there (a computed one's event is known only by running the child),
    /// and each keeps its label, which the listing names.
    static func outlineWithComputedOutputsByCase<F: Flow>(_ definition: FlowDefinition<F>) -> FlowOutline {
        var outline = definition.outline
        let constants = Set(definition.constantOutputs.map(\.label))
        for i in outline.states.indices where outline.states[i].kind == .final {
            guard let label = outline.states[i].output, !constants.contains(label) else { continue }
            outline.states[i].output = outputCase(of: label)
        }
        return outline
    }

    /// The case a computed output's label names: the label up to its payload (`loggedIn(email)` is
    /// `loggedIn`, as `Final(_:outputLabel:output:)` documents labels); a label without a payload
    /// (`email`), or with nothing before it, is itself.
    static func outputCase(of label: String) -> String {
        guard label.hasSuffix(")"), let open = label.firstIndex(of: "(") else { return label }
        let name = label[..<open].trimmingSpaces
        return name.isEmpty ? label : String(name)
    }
}

/// Exports one declared child's spec (its own children left to the caller's queue).
private final class ChildExporter: ChildDefinitionVisitor {
    let position: Int
    var spec: FlowFile?
    var pending: [FlowFile.ChildVisit] = []

    init(position: Int) { self.position = position }

    func visit<Child: Flow>(_ definition: FlowDefinition<Child>) {
        spec = FlowFile(flow: definition, pending: &pending, position: position)
    }
}
