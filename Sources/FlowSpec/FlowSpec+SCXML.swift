import FlowGraph
import Flowstate

extension FlowFile {
    /// Reads an SCXML document's structure (W3C State Chart XML): `<scxml initial name>`, `<state>`
    /// with nested states and `initial` (attribute or `<initial>` element), `<parallel>`, `<final>`
    /// (with `<donedata><content expr>` as its output), `<transition event cond target>`, `<onentry>`,
    /// `<onexit>`, and `<invoke src id>` as the state's child flow.
    ///
    /// Executable content becomes effect labels: `<raise event="e"/>` is `raise(e)`, a `<send>` with an
    /// event and no target or delay is `send(e)` (both performed by ``FlowSimulation``), `<log label="l"/>`
    /// is `l`, and anything else is its element name and attributes (`assign(location=x, expr=1)`).
    /// The spec has ``Semantics/scxml`` semantics.
    ///
    /// Valid SCXML that a drawing does not need to run is read, kept and reported in ``warnings``:
    /// `<datamodel>` and `<script>` (kept as text in ``data`` and ``State/data``), an `<invoke>` that
    /// needs a data model (`namelist`, `idlocation`, `srcexpr`, `typeexpr`, `<param>`, `<finalize>`
    /// with content), of another type, or a state's second one (kept as text in ``State/data``),
    /// `<donedata>` with `<param>`, an eventless transition without a target, an `<scxml>` without
    /// states (``states`` empty, ``initial`` empty). Elements and attributes of other namespaces
    /// (Qt Creator's `<qt:editorinfo>`) are left out. `<history>` is read (drawn, validated,
    /// simulated), `<transition type="internal">` too (drawn dotted, validated, simulated). A delayed
    /// `<send>` on a state's entry, cancelled on its exit, and the transition its event triggers are
    /// read as one delayed transition (``Transition/delay``) where the document has exactly that shape
    /// (see `docs/flowspec.md`); any other `<send delay>` stays a delayed event. A `target` or `initial` may name several states (one
    /// in each of several regions of a parallel state: ``Transition/targets``,
    /// ``State/initialStates``). Anything that is not SCXML is refused with its location.
    public static func parseSCXML(_ bytes: [UInt8], file: String) throws(FlowSpecError) -> FlowFile {
        try read(try XMLParser.parse(bytes, file: file), file: file)
    }

    /// Reads the `<scxml>` element of a document (the whole file, or an `<invoke>`'s inline `<content>`).
    static func read(_ root: XMLNode, file: String) throws(FlowSpecError) -> FlowFile {
        var names = SCXMLReader.InlineNames()
        let spec = try read(root, file: file, inline: &names)
        // An inline document named as an `<invoke src>` of the file, or as the file's own document, would
        // stand for it (a state's `child` names either): read again, numbering past those names.
        let taken = names.sources.union([spec.name])
        guard !names.given.isDisjoint(with: taken) else { return spec }
        var again = SCXMLReader.InlineNames(avoiding: taken)
        return try read(root, file: file, inline: &again)
    }

    /// Reads an `<scxml>` element; `inline` names the inline documents of the file (see
    /// ``SCXMLReader/InlineNames``).
    static func read(_ root: XMLNode, file: String, inline: inout SCXMLReader.InlineNames) throws(FlowSpecError) -> FlowFile {
        guard root.name == "scxml" else {
            throw FlowSpecError(code: .unsupported, message: "the root element is <\(root.name)>, not <scxml>",
                                location: root.location)
        }
        var reader = SCXMLReader(file: file)
        reader.inline = inline
        defer { inline = reader.inline }
        var data: [String] = []
        let states = try reader.children(of: root, in: nil, data: &data)
        var initialStates: [String] = []
        if let first = states.first {
            initialStates = try reader.initialNames(root, children: states) ?? [first.name]
        } else {
            if let named = root.attribute("initial") {
                throw FlowSpecError(code: .invalidValue,
                                    message: "<scxml> names an initial state '\(named)' but contains no <state>, <parallel> or <final>",
                                    location: root.location(of: "initial"))
            }
            reader.warn("<scxml> contains no <state>, <parallel> or <final>: there is nothing to run", root.location)
        }
        var spec = FlowFile(name: root.attribute("name") ?? Self.baseName(file), initial: "", states: states)
        spec.initialStates = initialStates
        spec.semantics = .scxml
        spec.location = root.location
        spec.documents = reader.documents
        // The <send delay>/<cancel> idiom of a delayed transition, where the document has its shape.
        spec.readDelayedTransitions()
        spec.dataElements = reader.dataElements
        spec.data = data
        // In the order written (states are read before the elements around them).
        spec.warnings = reader.warnings.enumerated().sorted { a, b in
            (a.element.location?.line ?? 0, a.element.location?.column ?? 0, a.offset)
                < (b.element.location?.line ?? 0, b.element.location?.column ?? 0, b.offset)
        }.map(\.element)
        return spec
    }

    /// Reads an SCXML document from text.
    public static func parseSCXML(_ text: String, file: String) throws(FlowSpecError) -> FlowFile {
        try parseSCXML(Array(text.utf8), file: file)
    }

    /// One short line for each element of SCXML kept as text (``data``, ``State/data``), for diagrams
    /// and listings: a `<datamodel>`'s `<data id="x" expr="0"/>` is `x = 0` (`x = <text>` for inline
    /// content, `x ← src` for a `src`), a `<script>` is `script: <its text>`, any other element its
    /// name and attributes as effect labels write them (`invoke(src=c.scxml, namelist=a b)`), followed
    /// by its children's. Whitespace is collapsed and each line cut at 80 characters.
    static func dataLines(_ entries: [String]) -> [String] {
        var lines: [String] = []
        for entry in entries {
            guard let node = try? XMLParser.parse(Array(entry.utf8), file: "") else {
                lines.append(short(entry))
                continue
            }
            switch node.name {
            case "datamodel":
                for data in node.children {
                    let id = data.attribute("id") ?? data.name
                    if let expr = data.attribute("expr") {
                        lines.append(short("\(id) = \(expr)"))
                    } else if let src = data.attribute("src") {
                        lines.append(short("\(id) ← \(src)"))
                    } else if !data.text.isEmpty || !data.children.isEmpty {
                        lines.append(short("\(id) = " + (data.text.isEmpty ? data.children.map(\.xml).joined() : data.text)))
                    } else {
                        lines.append(short(id))
                    }
                }
            case "script":
                lines.append(short(node.attribute("src").map { "script ← \($0)" } ?? "script: \(node.text)"))
            default:
                var line = SCXMLReader.label(of: node)
                let inner = node.children.map { child in
                    SCXMLReader.label(of: child)
                        + (child.children.isEmpty ? "" : " { " + child.children.map(SCXMLReader.label(of:)).joined(separator: "; ") + " }")
                }
                if !inner.isEmpty { line += " { " + inner.joined(separator: "; ") + " }" }
                lines.append(short(line))
            }
        }
        return lines
    }

    /// Text on one line (runs of whitespace as one space), cut at 80 characters.
    private static func short(_ text: String) -> String {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        return words.count > 80 ? String(words.prefix(79)) + "…" : words
    }

    /// A file's name without its folders and extension.
    static func baseName(_ path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }
}

/// Turns SCXML elements into spec states.
struct SCXMLReader {
    let file: String
    /// Names given to states without an `id`.
    var anonymous = 0
    /// Documents given inline by `<invoke><content>`, by the name their state's `child` uses.
    var documents: [String: FlowFile] = [:]
    /// How the inline documents of the file are named, and the names met so far.
    var inline = InlineNames()

    /// The names of a file's inline documents: the `n`-th met, nested ones included, is named
    /// `<its name>@<n>`, unique in the file and the same when a written document is read again. A
    /// number that would give a name to avoid (an `<invoke src>` of the file, the file's document's
    /// name) is skipped, so that a state's ``FlowFile/State/child`` names one flow.
    struct InlineNames {
        /// The inline documents named so far.
        var count = 0
        /// Names not to give.
        var avoiding: Set<String> = []
        /// The names given.
        var given: Set<String> = []
        /// The `src` of each `<invoke>` read as a state's child flow.
        var sources: Set<String> = []

        init(avoiding: Set<String> = []) { self.avoiding = avoiding }

        /// The name of the next inline document, whose `<scxml name>` (or the file's name) is `name`.
        mutating func next(_ name: String) -> String {
            var key: String
            repeat {
                count += 1
                key = "\(name)@\(count)"
            } while avoiding.contains(key)
            given.insert(key)
            return key
        }
    }
    /// Where the document declares data or scripts, or holds what needs a data model: one place for
    /// each element kept as text (``FlowFile/data``, ``FlowFile/State/data``) and each eventless
    /// transition without a target. A simulation refuses them.
    var dataElements: [FlowSourceLocation] = []
    /// What was read but is not run, in the order found.
    var warnings: [ValidationIssue] = []

    init(file: String) { self.file = file }

    /// The `type` values of an `<invoke>` that invokes an SCXML document.
    static let scxmlTypes: Set<String> = ["scxml", "http://www.w3.org/TR/scxml/", "http://www.w3.org/TR/scxml"]

    func error(_ code: FlowSpecError.Code, _ message: String, _ location: FlowSourceLocation) -> FlowSpecError {
        FlowSpecError(code: code, message: message, location: location)
    }

    /// Records something read that is not run.
    mutating func warn(_ message: String, _ location: FlowSourceLocation) {
        warnings.append(FlowFile.notRun(message, at: location))
    }

    /// Keeps an element as text in `data`, a place a simulation refuses, and a warning.
    private mutating func keep(_ node: XMLNode, in data: inout [String], because reason: String) {
        data.append(node.xml)
        dataElements.append(node.location)
        warn(reason, node.location)
    }

    /// The states among an element's children (`parent` is the enclosing state's name, if any); its
    /// `<datamodel>` and `<script>` elements are kept in `data`.
    mutating func children(of node: XMLNode, in parent: String?, data: inout [String]) throws(FlowSpecError)
        -> [FlowFile.State]
    {
        var states: [FlowFile.State] = []
        for child in node.children {
            switch child.name {
            case "state", "parallel", "final":
                states.append(try state(child))
            case "transition", "onentry", "onexit", "initial", "invoke", "donedata":
                continue  // read by `state`
            case "datamodel":
                // Data the structure does not need; a simulation refuses to run it (null data model).
                if !child.children.isEmpty {
                    keep(child, in: &data, because: "<datamodel> declares data: kept as text, not run (simulate runs SCXML's null data model)")
                }
            case "script":
                keep(child, in: &data, because: "<script> needs a data model: kept as text, not run (simulate runs SCXML's null data model)")
            case "history":
                guard parent != nil else {
                    throw error(.invalidValue, "<history> belongs in a <state> or <parallel>, not in <scxml>", child.location)
                }
                states.append(try history(child))
            default:
                let inside = parent.map { "state '\($0)'" } ?? "<scxml>"
                throw error(.unsupported, "unknown element <\(child.name)> in \(inside)", child.location)
            }
        }
        return states
    }

    /// A `<history>`: a pseudo-state with its type and its default transition (drawn, not simulated).
    mutating func history(_ node: XMLNode) throws(FlowSpecError) -> FlowFile.State {
        guard let id = node.attribute("id"), !id.isEmpty else {
            throw error(.missingField, "a <history> needs an 'id' (transitions target it)", node.location)
        }
        var state = FlowFile.State(name: id)
        state.location = node.location
        switch node.attribute("type") ?? "shallow" {
        case "shallow": state.history = .shallow
        case "deep": state.history = .deep
        case let other:
            throw error(.invalidValue, "<history type=\"\(other)\">: use shallow or deep", node.location(of: "type"))
        }
        for child in node.children {
            guard child.name == "transition" else {
                throw error(.unsupported, "unknown element <\(child.name)> in <history> '\(id)' (it holds one <transition>)", child.location)
            }
            guard state.transitions.isEmpty else {
                throw error(.invalidValue, "<history> '\(id)' has a second <transition>: it holds one, its default", child.location)
            }
            let transition = try self.transition(child, in: id)
            guard transition.event == nil, transition.guardName == nil, transition.target != nil else {
                throw error(.invalidValue, "the <transition> of <history> '\(id)' has an event or a condition, or no target: it is the history's default target", child.location)
            }
            state.transitions.append(transition)
        }
        return state
    }

    mutating func state(_ node: XMLNode) throws(FlowSpecError) -> FlowFile.State {
        let name: String
        if let id = node.attribute("id") {
            guard !id.isEmpty else { throw error(.invalidValue, "a state's 'id' is empty", node.location(of: "id")) }
            name = id
        } else {
            anonymous += 1
            name = "_\(node.name)\(anonymous)"  // SCXML generates ids for states without one
        }
        var state = FlowFile.State(name: name)
        state.location = node.location
        state.isFinal = node.name == "final"
        state.isParallel = node.name == "parallel"
        state.states = try children(of: node, in: name, data: &state.data)
        var invokes = 0
        for child in node.children {
            switch child.name {
            case "onentry":
                let (labels, block) = try content(in: child)
                state.entry += labels
                state.onEntry.append(block)
            case "onexit":
                let (labels, block) = try content(in: child)
                state.exit += labels
                state.onExit.append(block)
            case "transition": state.transitions.append(try transition(child, in: name))
            case "invoke":
                invokes += 1
                if invokes > 1 {
                    keep(child, in: &state.data,
                         because: "state '\(name)' has a second <invoke>: a state runs one child flow, so it is kept as text, not run")
                } else if let reason = Self.unrunnable(invoke: child) {
                    keep(child, in: &state.data, because: "\(reason): the <invoke> is kept as text, not run")
                } else if let content = child.children.first(where: { $0.name == "content" }),
                          let document = content.children.first(where: { $0.name == "scxml" }) {
                    // Named before the documents it holds, which the reading below names.
                    let key = inline.next(document.attribute("name") ?? FlowFile.baseName(file))
                    var inner = try FlowFile.read(document, file: file, inline: &inline)
                    inner.name = key
                    warnings += inner.warnings
                    documents[key] = inner
                    state.child = key
                    state.childID = child.attribute("id")
                    state.autoforward = child.attribute("autoforward") == "true"
                } else {
                    state.child = child.attribute("src")
                    if let src = state.child { inline.sources.insert(src) }
                    state.childID = child.attribute("id")
                    state.autoforward = child.attribute("autoforward") == "true"
                }
            case "donedata":
                guard state.isFinal else { throw error(.invalidValue, "<donedata> belongs in a <final>", child.location) }
                if let output = Self.output(of: child) {
                    state.output = output
                } else if !child.children.isEmpty || !child.text.isEmpty {
                    keep(child, in: &state.data,
                         because: "<donedata> with \(child.children.contains { $0.name == "param" } ? "<param>" : "data") needs a data model: kept as text, not run")
                }
            default: continue
            }
        }
        if state.isFinal, !state.states.isEmpty || !state.transitions.isEmpty {
            throw error(.invalidValue, "<final> '\(name)' contains states or transitions", node.location)
        }
        if state.isParallel {
            // Not SCXML: a <parallel> enters all its children (and the writer would not keep it).
            let place = node.attribute("initial") != nil ? node.location(of: "initial")
                : node.children.first { $0.name == "initial" }?.location
            if let place {
                throw error(.invalidValue, "<parallel> '\(name)' names an initial child: a <parallel> enters all its children", place)
            }
        }
        let initial = try initialNames(node, children: state.states)
        if let initial, state.states.isEmpty {
            throw error(.invalidValue, "state '\(name)' names an initial child '\(initial.joined(separator: " "))' but has no child states",
                        node.location(of: "initial"))
        }
        state.initialStates = initial ?? []
        // The <initial> element's transition content runs after the state's entry, before the child's.
        if let element = node.children.first(where: { $0.name == "initial" }),
           let transition = element.children.first(where: { $0.name == "transition" }) {
            let (labels, block) = try content(in: transition)
            state.entry += labels
            if !block.actions.isEmpty { state.onEntry.append(block) }
        }
        // SCXML's default initial child is the first child state: a history is not one. It is named
        // then, so that the first child in document order (what a spec's default is) may be a history.
        if state.states.first?.history != nil {
            // Kept even when it names the first child (the history): without it, the default would be
            // the first child that is not one.
            if state.initial == nil { state.initial = state.states.first { $0.history == nil }?.name }
        } else if state.initialStates.count == 1, state.initial == state.states.first?.name {
            state.initial = nil
        }
        return state
    }

    /// Why an `<invoke>` cannot be a state's child flow (``FlowFile/State/child``), or `nil` when it
    /// can: an SCXML document by `src` or inline `<content>`, with an `id` and `autoforward` at most.
    static func unrunnable(invoke node: XMLNode) -> String? {
        for attribute in node.attributes where !["src", "id", "type", "autoforward"].contains(attribute.name) {
            return ["namelist", "idlocation", "srcexpr", "typeexpr"].contains(attribute.name)
                ? "<invoke \(attribute.name)> needs a data model" : "<invoke \(attribute.name)> is not SCXML's"
        }
        if let type = node.attribute("type"), !scxmlTypes.contains(type) {
            return "<invoke type=\"\(type)\"> is not an SCXML document"
        }
        var contents = 0
        for child in node.children {
            switch child.name {
            case "content":
                contents += 1
                guard contents == 1, child.attributes.isEmpty, child.text.isEmpty, child.children.count == 1,
                      child.children[0].name == "scxml" else {
                    return "an <invoke>'s <content> without one <scxml> document needs a data model"
                }
            case "finalize":
                if !child.children.isEmpty || !child.text.isEmpty { return "<finalize> with content needs a data model" }
            case "param": return "<param> in <invoke> needs a data model"
            default: return "<\(child.name)> in <invoke> is not SCXML's"
            }
        }
        if !node.text.isEmpty { return "an <invoke> with text is not SCXML's" }
        let src = node.attribute("src")
        switch (src, contents) {
        case (let src?, 0): return src.isEmpty ? "an <invoke> with an empty 'src' names no document" : nil
        case (nil, 1): return nil
        case (nil, _): return "an <invoke> without 'src' or <content> names no document"
        default: return "an <invoke> with both 'src' and <content> is not SCXML's"
        }
    }

    /// A `<donedata>`'s output when it is one `<content>` with an `expr` or text, and nothing else.
    static func output(of node: XMLNode) -> String? {
        guard node.attributes.isEmpty, node.text.isEmpty, node.children.count == 1 else { return nil }
        let content = node.children[0]
        guard content.name == "content", content.children.isEmpty else { return nil }
        switch (content.attribute("expr"), content.attributes.count, content.text) {
        case (let expr?, 1, ""): return expr
        case (nil, 0, let text) where !text.isEmpty: return text
        default: return nil
        }
    }

    /// The `initial` attribute or the `<initial>` element's target: one state, or several (one in each
    /// of several regions of a parallel state).
    func initialNames(_ node: XMLNode, children: [FlowFile.State]) throws(FlowSpecError) -> [String]? {
        let element = node.children.first { $0.name == "initial" }
        if let attribute = node.attribute("initial") {
            guard element == nil else {
                throw error(.invalidValue, "both an 'initial' attribute and an <initial> element", node.location(of: "initial"))
            }
            return try names(attribute, "initial", node.location(of: "initial"))
        }
        guard let element else { return nil }
        guard let transition = element.children.first(where: { $0.name == "transition" }),
              let target = transition.attribute("target") else {
            throw error(.missingField, "<initial> needs a <transition target>", element.location)
        }
        return try names(target, "target", transition.location(of: "target"))
    }

    /// The state names of an IDREFS value, at least one (several are states in several regions of a
    /// parallel state; validation checks they can be active together).
    func names(_ value: String, _ attribute: String, _ location: FlowSourceLocation) throws(FlowSpecError) -> [String] {
        let names = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        guard !names.isEmpty else { throw error(.invalidValue, "'\(attribute)' is empty", location) }
        return names.map(String.init)
    }

    mutating func transition(_ node: XMLNode, in state: String) throws(FlowSpecError) -> FlowFile.Transition {
        let event = node.attribute("event").map { String($0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).joined(separator: " ")) }
        let targets = try node.attribute("target").map { value throws(FlowSpecError) in try names(value, "target", node.location(of: "target")) } ?? []
        let type = node.attribute("type") ?? "external"
        guard type == "external" || type == "internal" else {
            throw error(.invalidValue, "<transition type=\"\(type)\">: use external or internal", node.location(of: "type"))
        }
        if event == nil || event == "", targets.isEmpty {
            // Taken again after every microstep while its condition holds: only data can stop it.
            dataElements.append(node.location)
            warn("an eventless <transition> without a target needs a data model (it is taken again and again while its condition holds): drawn, not run",
                 node.location)
        }
        let (labels, block) = try content(in: node)
        var transition = FlowFile.Transition(event: event == "" ? nil : event, guardName: node.attribute("cond"),
                                             targets: targets, effects: labels)
        transition.content = block
        transition.location = node.location
        transition.isInternal = type == "internal"
        return transition
    }
}

extension FlowDiagram {
    /// Draws the SCXML a flow file keeps as text where it belongs: each state's (``FlowFile/State/data``:
    /// its data, the invocations it does not run) under the state's name, the document's own
    /// (``FlowFile/data``) as the graph's label, one line each (``FlowFile/dataLines(_:)``). `flowviz
    /// render` and `flowviz view` draw files so. Nodes are found by their state's name; a graph of
    /// another flow is left as it is.
    package mutating func showKeptSCXML(of spec: FlowFile) {
        var kept: [String: [String]] = [:]
        var pending = spec.states
        while let state = pending.popLast() {
            if !state.data.isEmpty, kept[state.name] == nil { kept[state.name] = FlowFile.dataLines(state.data) }
            pending += state.states
        }
        for i in nodes.indices {
            guard let lines = kept[nodes[i].label] else { continue }
            nodes[i].attributes["label"] = ([nodes[i].attributes["label"] ?? nodes[i].label] + lines).joined(separator: "\n")
        }
        if !spec.data.isEmpty { graphAttributes["label"] = FlowFile.dataLines(spec.data).joined(separator: "\n") }
    }
}
