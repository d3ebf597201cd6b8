import FlowGraph
import Flowstate
import Foundation

/// Writes a flow as one self-contained, interactive HTML page: the diagram as inline SVG (laid out by
/// Graphviz, as ``GraphvizRenderer/render(_:format:engine:)`` draws it), with inline CSS and
/// JavaScript, and nothing fetched from the network.
///
/// In the page, hovering or clicking a state shows its transitions (its own and those it inherits from
/// the states containing it) with their events, guards, targets and effects, and its entry and exit
/// effects, and highlights those transitions in the diagram. A recorded run (``trace``) is stepped
/// forwards and backwards with buttons or the arrow keys (Home and End jump to the ends): each step
/// highlights the current state (in a flow with parallel states, every leaf active after it:
/// `FlowTrace.Step.leaves`), the states containing it, and the transitions the engine took,
/// and shows the step's event and effects. Nested states (clusters) fold into one box and unfold,
/// from the list beside the diagram or by double-clicking them.
///
/// ```swift
/// let page = try FlowViewer(SignUp.definition, trace: FlowTrace(steps)).html()
/// ```
///
/// Every label is the user's text: the page escapes it for HTML, and the data the script reads is
/// JSON with `<`, `>`, `&`, line and paragraph separators and control characters escaped, so a label
/// holding `</script>` or quotes stays text.
///
/// The SVG's elements carry stable identifiers the script (and anyone styling the page) can find:
/// a state's `<g>` (a node, or a cluster for a compound state) has the `id` ``stateElementID(_:)``,
/// and every `<g>` of an edge has the class ``edgeElementClass(_:)`` (an edge drawn through a label
/// node is two such `<g>`s).
public struct FlowViewer: Sendable {
    /// What the page says about one transition, beyond the edge that draws it.
    public struct TransitionInfo: Hashable, Sendable {
        /// The event's label; `nil` for an eventless transition.
        public var event: String?
        /// The guard's label, if any.
        public var guardLabel: String?
        /// The labels of its effects, in order.
        public var effects: [String]
        /// Whether it is targetless (performs effects without leaving its state).
        public var targetless: Bool
        /// The whole label (`event [guard] / effects`).
        public var label: String

        /// Creates the description of a transition.
        public init(event: String?, guardLabel: String? = nil, effects: [String] = [], targetless: Bool = false,
                    label: String) {
            self.event = event
            self.guardLabel = guardLabel
            self.effects = effects
            self.targetless = targetless
            self.label = label
        }
    }

    /// What the page says about one state, beyond its place in the diagram.
    public struct StateInfo: Hashable, Sendable {
        /// The labels of its entry effects.
        public var entry: [String]
        /// The labels of its exit effects.
        public var exit: [String]
        /// For a final state, its output's label.
        public var output: String?

        /// Creates the description of a state.
        public init(entry: [String] = [], exit: [String] = [], output: String? = nil) {
            self.entry = entry
            self.exit = exit
            self.output = output
        }
    }

    /// The page's title (the flow's name by default).
    public var title: String
    /// The flow drawn. Its edges name the transitions they draw (`FlowDiagram.Edge.transitions`) in the
    /// numbering ``transitions`` and the trace's steps use.
    public var graph: FlowDiagram
    /// The recorded run the page steps through; `nil` (or no steps) for a page without one.
    public var trace: FlowTrace?
    /// Each transition's details, by the number the graph's edges and the trace use. A transition
    /// without details is described by its edge's label.
    public var transitions: [Int: TransitionInfo]
    /// Each state's details, by its label.
    public var states: [String: StateInfo]

    /// A page for a graph, its transitions described by their edges' labels.
    /// - Parameters:
    ///   - graph: The flow (from a definition, a file, or a live machine's outline).
    ///   - trace: A recorded run, in the numbering the graph's edges use.
    ///   - title: The page's title (default: the graph's name).
    public init(graph: FlowDiagram, trace: FlowTrace? = nil, title: String? = nil) {
        self.graph = graph
        self.trace = trace
        self.title = title ?? graph.name
        var transitions: [Int: TransitionInfo] = [:]
        for edge in graph.edges where edge.transitions.count == 1 {
            transitions[edge.transitions[0]] = TransitionInfo(event: edge.events.first ?? nil, targetless: false,
                                                              label: edge.label)
        }
        self.transitions = transitions
        self.states = [:]
    }

    /// A page for a flow's outline (from a definition, or `Supervisor.outline(of:)` for a live machine):
    /// every transition's event, guard and effects and every state's entry and exit effects are shown.
    /// - Parameters:
    ///   - outline: The flow's structure.
    ///   - trace: A recorded run of the flow (transitions by declaration position, as the engine reports them).
    ///   - title: The page's title (default: the flow's name).
    ///   - mergeParallelEdges: Draw the transitions between the same two states as one edge.
    public init(_ outline: FlowOutline, trace: FlowTrace? = nil, title: String? = nil, mergeParallelEdges: Bool = false) {
        self.init(graph: FlowDiagram(outline, mergeParallelEdges: mergeParallelEdges), trace: trace, title: title)
        for (position, t) in outline.transitions.enumerated() {
            transitions[position] = TransitionInfo(event: t.event, guardLabel: t.guardLabel, effects: t.effects,
                                                   targetless: t.targetless, label: t.label)
        }
        for state in outline.states {
            states[state.label] = StateInfo(entry: state.entry, exit: state.exit, output: state.output)
        }
    }

    /// A page for a definition, with a recorded run of it (for example `FlowTrace(steps)` of a
    /// machine's steps, or `FlowTraceRecorder.trace`).
    public init<F: Flow>(_ definition: FlowDefinition<F>, trace: FlowTrace? = nil, title: String? = nil) {
        self.init(definition.outline, trace: trace, title: title)
    }

    /// The `id` of a state's `<g>` in the page's SVG, for the graph node `nodeID` (`FlowDiagram.Node.id`).
    public static func stateElementID(_ nodeID: String) -> String { "fvn_" + nodeID }

    /// The class of the `<g>`s drawing the edge at `index` in `FlowDiagram.edges` in the page's SVG.
    public static func edgeElementClass(_ index: Int) -> String { "fve_\(index)" }

    /// What in the trace the flow does not have, one line each: a step whose state is not a state of
    /// the flow, or whose transition no edge draws. Such steps are shown, without highlighting what is
    /// missing. Empty when the trace fits the flow.
    public var traceProblems: [String] {
        guard let trace else { return [] }
        let drawn = Set(graph.edges.flatMap(\.transitions))
        var problems: [String] = []
        for (i, step) in trace.steps.enumerated() {
            if graph.id(ofLabel: step.to) == nil {
                problems.append("step \(i + 1) reaches '\(step.to)', which is not a state of the flow")
            }
            for leaf in step.leaves ?? [] where leaf != step.to && graph.id(ofLabel: leaf) == nil {
                problems.append("step \(i + 1) rests in '\(leaf)', which is not a state of the flow")
            }
            if let from = step.from, graph.id(ofLabel: from) == nil {
                problems.append("step \(i + 1) leaves '\(from)', which is not a state of the flow")
            }
            for t in step.transitions where !drawn.contains(t) {
                problems.append("step \(i + 1) takes transition \(t), which the flow does not have")
            }
        }
        return problems
    }

    /// The page, as HTML text.
    /// - Parameter renderer: Lays the diagram out.
    /// - Throws: ``GraphvizError`` when Graphviz cannot lay the flow out.
    public func html(renderer: GraphvizRenderer = .shared) throws(GraphvizError) -> String {
        var drawn = graph
        for i in drawn.nodes.indices { drawn.nodes[i].attributes["id"] = Self.stateElementID(drawn.nodes[i].id) }
        for i in drawn.edges.indices {
            let own = drawn.edges[i].attributes["class"].map { " " + $0 } ?? ""
            drawn.edges[i].attributes["class"] = Self.edgeElementClass(i) + own
        }
        let bytes = try renderer.render(drawn, format: .svg)
        let svg = Self.inlineSVG(String(decoding: bytes, as: UTF8.self))
        let hasRun = !(trace?.steps.isEmpty ?? true)
        let hasNesting = graph.nodes.contains { $0.kind == .compound }
        var page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        page += "<meta name=\"generator\" content=\"Flowstate FlowViewer\">\n"
        page += "<title>\(Self.htmlText(title))</title>\n<style>\n\(Self.css)</style>\n</head>\n<body>\n"
        page += "<header><h1 id=\"fv-title\">\(Self.htmlText(title))</h1>\n"
        page += "<p class=\"fv-help\">Hover or click a state to see its transitions."
        if hasRun { page += " Step through the run with the buttons or the ← → keys (Home, End)." }
        if hasNesting { page += " Double-click a nested state, or use the list, to fold or unfold it." }
        page += "</p></header>\n<main>\n<div id=\"fv-diagram\">\n\(svg)\n</div>\n<aside id=\"fv-panel\">\n"
        page += """
        <section id="fv-run"\(hasRun ? "" : " hidden")>
        <h2>Run</h2>
        <div class="fv-buttons">
        <button type="button" id="fv-first" title="First step (Home)" aria-label="First step">⏮</button>
        <button type="button" id="fv-back" title="Step back (←)">◀ Back</button>
        <button type="button" id="fv-forward" title="Step forward (→)">Forward ▶</button>
        <button type="button" id="fv-last" title="Last step (End)" aria-label="Last step">⏭</button>
        </div>
        <p id="fv-position" aria-live="polite"></p>
        <dl id="fv-step">
        <dt>Event</dt><dd id="fv-step-event"></dd>
        <dt>Move</dt><dd id="fv-step-move"></dd>
        <dt>Transitions</dt><dd id="fv-step-transitions"></dd>
        <dt id="fv-step-effects-title">Effects</dt><dd id="fv-step-effects"></dd>
        </dl>
        </section>
        <section id="fv-state">
        <h2>State</h2>
        <div id="fv-state-details"><p class="fv-hint">Hover or click a state.</p></div>
        </section>
        <section id="fv-nesting"\(hasNesting ? "" : " hidden")>
        <h2>Nested states</h2>
        <ul id="fv-folds"></ul>
        </section>

        """
        page += "</aside>\n</main>\n"
        page += "<script type=\"application/json\" id=\"fv-data\">\(dataJSON())</script>\n"
        page += "<script>\n\(Self.script)</script>\n</body>\n</html>\n"
        return page
    }

    /// Writes the page to a file.
    /// - Throws: ``GraphvizError`` when Graphviz cannot lay the flow out, or (code `writeFailed`) the
    ///   file cannot be written.
    public func write(to path: String, renderer: GraphvizRenderer = .shared) throws(GraphvizError) {
        let text = try html(renderer: renderer)
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw GraphvizError(code: .writeFailed, message: "cannot write \(path): \(error.localizedDescription)")
        }
    }

    // MARK: The data the script reads

    /// The flow and the run as JSON, safe inside a `<script>` element.
    func dataJSON() -> String {
        let json = JSONText()
        json.object {
            json.key("title")
            json.string(title)
            json.key("flow")
            json.string(graph.name)
            json.key("initial")
            json.optional(graph.initial)
            json.key("states")
            json.array(graph.nodes) { node in
                let info = states[node.label]
                json.object {
                    json.key("id"); json.string(node.id)
                    json.key("label"); json.string(node.label)
                    json.key("kind")
                    json.string(node.kind == .compound ? "compound" : node.kind == .final ? "final" : "state")
                    json.key("parent"); json.optional(node.parent)
                    json.key("childFlow"); json.optional(node.childFlow)
                    json.key("entry"); json.strings(info?.entry ?? [])
                    json.key("exit"); json.strings(info?.exit ?? [])
                    json.key("output"); json.optional(info?.output)
                }
            }
            json.key("edges")
            json.array(Array(graph.edges.enumerated())) { e, edge in
                json.object {
                    json.key("from"); json.string(edge.from)
                    json.key("to"); json.string(edge.to)
                    json.key("label"); json.string(edge.label)
                    json.key("transitions"); json.integers(edge.transitions)
                }
            }
            json.key("transitions")
            var entries: [(edge: Int, number: Int?, info: TransitionInfo?, event: String?)] = []
            for (e, edge) in graph.edges.enumerated() {
                if edge.transitions.isEmpty {  // drawn without a declaration (a file's transition to an undeclared state)
                    entries.append((e, nil, nil, edge.events.first ?? nil))
                }
                for (k, number) in edge.transitions.enumerated() {
                    entries.append((e, number, transitions[number], k < edge.events.count ? edge.events[k] : nil))
                }
            }
            json.array(entries) { entry in
                let edge = graph.edges[entry.edge]
                json.object {
                    json.key("number"); json.optionalInteger(entry.number)
                    json.key("edge"); json.integer(entry.edge)
                    json.key("from"); json.string(edge.from)
                    json.key("to"); json.string(edge.to)
                    json.key("event"); json.optional(entry.info?.event ?? entry.event)
                    json.key("guard"); json.optional(entry.info?.guardLabel)
                    json.key("effects"); json.strings(entry.info?.effects ?? [])
                    json.key("targetless"); json.boolean(entry.info?.targetless ?? false)
                    json.key("label"); json.string(entry.info?.label ?? edge.label)
                    json.key("described"); json.boolean(entry.info != nil)
                }
            }
            json.key("steps")
            var edgeOf: [Int: Int] = [:]
            for (e, edge) in graph.edges.enumerated() {
                for t in edge.transitions where edgeOf[t] == nil { edgeOf[t] = e }
            }
            json.array(trace?.steps ?? []) { step in
                json.object {
                    json.key("from"); json.optional(step.from)
                    json.key("to"); json.string(step.to)
                    json.key("state"); json.optional(graph.id(ofLabel: step.to))
                    // Every leaf active after the step (several with parallel states), each drawn as current.
                    json.key("states"); json.strings((step.leaves ?? [step.to]).compactMap { graph.id(ofLabel: $0) })
                    json.key("event"); json.optional(step.event)
                    json.key("transitions")
                    json.array(step.transitions) { t in
                        json.object {
                            json.key("number"); json.integer(t)
                            json.key("edge"); json.optionalInteger(edgeOf[t])
                            json.key("label")
                            json.string(transitions[t]?.label ?? edgeOf[t].map { graph.edges[$0].label } ?? "transition \(t)")
                        }
                    }
                    json.key("edges"); json.integers(step.transitions.compactMap { edgeOf[$0] })
                    json.key("effects")
                    if let effects = step.effects { json.strings(effects) } else { json.null() }
                    json.key("declaredEffects"); json.strings(step.transitions.flatMap { transitions[$0]?.effects ?? [] })
                }
            }
        }
        return json.text
    }

    // MARK: Escaping

    /// Text for HTML (element content or a quoted attribute): `&`, `<`, `>`, quotes escaped, and
    /// control characters other than tab and line feed replaced by spaces.
    static func htmlText(_ text: String) -> String {
        escaping(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            case "\t", "\n": nil
            default: scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) ? " " : nil
            }
        }
    }

    /// A JSON string literal that is also safe as the content of an HTML `<script>` element: quotes,
    /// backslashes and control characters (DEL included) escaped as JSON requires, and `<`, `>`, `&`,
    /// U+2028 and U+2029 as `\u` escapes (so no `</script>` or `<!--` can appear, and the text is also
    /// valid JavaScript). FlowDiagram's `jsonStringLiteral` writes it.
    static func jsonString(_ text: String) -> String {
        jsonStringLiteral(text) { scalar in
            switch scalar {
            case "<", ">", "&", "\u{2028}", "\u{2029}": true
            default: isControl(scalar)
            }
        }
    }

    /// Graphviz's SVG document as an element to put inside HTML: from `<svg` on, without comments
    /// (Graphviz writes node names into them).
    static func inlineSVG(_ document: String) -> String {
        guard let start = document.range(of: "<svg") else { return "" }
        var rest = document[start.lowerBound...]
        var out = ""
        while let open = rest.range(of: "<!--") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "-->") else {
                rest = rest[rest.endIndex...]
                break
            }
            rest = rest[close.upperBound...]
        }
        out += rest
        return out.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A small JSON writer for the page's data: compact, deterministic, every string through
/// ``FlowViewer/jsonString(_:)``. A class, so that the closures that write nested values can write
/// to the same text.
final class JSONText {
    private(set) var text = ""
    private var needsComma = [false]

    private func value(_ literal: String) {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
        text += literal
    }

    func object(_ body: () -> Void) {
        value("{")
        needsComma.append(false)
        body()
        needsComma.removeLast()
        text += "}"
    }

    func array<T>(_ items: [T], _ body: (T) -> Void) {
        value("[")
        needsComma.append(false)
        for item in items { body(item) }
        needsComma.removeLast()
        text += "]"
    }

    func key(_ name: String) {
        value(FlowViewer.jsonString(name) + ":")
        needsComma[needsComma.count - 1] = false
    }

    func string(_ text: String) { value(FlowViewer.jsonString(text)) }
    func optional(_ text: String?) { value(text.map(FlowViewer.jsonString) ?? "null") }
    func integer(_ number: Int) { value(String(number)) }
    func optionalInteger(_ number: Int?) { value(number.map(String.init) ?? "null") }
    func boolean(_ flag: Bool) { value(flag ? "true" : "false") }
    func null() { value("null") }
    func strings(_ items: [String]) { array(items) { string($0) } }
    func integers(_ items: [Int]) { array(items) { integer($0) } }
}
