import FlowGraph
import Flowstate

extension FlowSpec {
    /// Reads an SCXML document's structure (W3C State Chart XML): `<scxml initial name>`, `<state>`
    /// with nested states and `initial` (attribute or `<initial>` element), `<parallel>`, `<final>`
    /// (with `<donedata><content expr>` as its output), `<transition event cond target>`, `<onentry>`,
    /// `<onexit>`, and `<invoke src id>` as the state's child flow.
    ///
    /// Executable content becomes effect labels: `<raise event="e"/>` is `raise(e)`, a `<send>` with an
    /// event and no target or delay is `send(e)` (both performed by ``FlowSimulation``), `<log label="l"/>`
    /// is `l`, and anything else is its element name and attributes (`assign(location=x, expr=1)`).
    /// The spec has ``Semantics/scxml`` semantics. `<history>`, a transition with several targets and an
    /// `<invoke>` without `src` are refused with their location; so is anything that is not SCXML.
    public static func parseSCXML(_ bytes: [UInt8], file: String) throws(FlowSpecError) -> FlowSpec {
        let root = try XMLParser.parse(bytes, file: file)
        guard root.name == "scxml" else {
            throw FlowSpecError(code: .unsupported, message: "the root element is <\(root.name)>, not <scxml>",
                                location: root.location)
        }
        var reader = SCXMLReader(file: file)
        let states = try reader.children(of: root, in: nil)
        guard let first = states.first else {
            throw FlowSpecError(code: .missingField, message: "<scxml> contains no <state>, <parallel> or <final>",
                                location: root.location)
        }
        let initial = try reader.initialName(root, children: states) ?? first.name
        var spec = FlowSpec(name: root.attribute("name") ?? Self.baseName(file), initial: initial, states: states)
        spec.semantics = .scxml
        spec.location = root.location
        return spec
    }

    /// Reads an SCXML document from text.
    public static func parseSCXML(_ text: String, file: String) throws(FlowSpecError) -> FlowSpec {
        try parseSCXML(Array(text.utf8), file: file)
    }

    /// A file's name without its folders and extension.
    static func baseName(_ path: String) -> String {
        let last = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return last }
        return String(last[..<dot])
    }

    /// The spec as an SCXML document, which `parseSCXML(_:file:)` reads back to the same spec.
    ///
    /// Effects `raise(e)` and `send(e)` are written as `<raise>` and `<send>`; other effect labels as
    /// `<log label>`. A final state's output, when it differs from its name, is written as
    /// `<donedata><content expr>`. The same spec always gives the same bytes.
    public func scxml() -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" name=\(Self.xmlQuote(name)) initial=\(Self.xmlQuote(initial))>\n"
        for state in states { Self.writeSCXML(state, indent: "  ", into: &out) }
        return out + "</scxml>\n"
    }

    private static func writeSCXML(_ state: State, indent: String, into out: inout String) {
        let tag = state.isFinal ? "final" : (state.isParallel ? "parallel" : "state")
        var open = "\(indent)<\(tag) id=\(xmlQuote(state.name))"
        if let initial = state.initial, !state.isParallel { open += " initial=\(xmlQuote(initial))" }
        var body: [String] = []
        let inner = indent + "  "
        func content(_ effects: [String], indent: String) -> [String] {
            effects.map { effect in
                switch SCXMLEffect.queued(effect) {
                case (.internal, let event)?: "\(indent)<raise event=\(xmlQuote(event))/>"
                case (.external, let event)?: "\(indent)<send event=\(xmlQuote(event))/>"
                case nil: "\(indent)<log label=\(xmlQuote(effect))/>"
                }
            }
        }
        if !state.entry.isEmpty { body += ["\(inner)<onentry>"] + content(state.entry, indent: inner + "  ") + ["\(inner)</onentry>"] }
        if !state.exit.isEmpty { body += ["\(inner)<onexit>"] + content(state.exit, indent: inner + "  ") + ["\(inner)</onexit>"] }
        if let child = state.child {
            body.append("\(inner)<invoke src=\(xmlQuote(child))" + (state.childID.map { " id=\(xmlQuote($0))" } ?? "") + "/>")
        }
        if state.isFinal, let output = state.output, output != state.name {
            body.append("\(inner)<donedata><content expr=\(xmlQuote(output))/></donedata>")
        }
        for t in state.transitions {
            var line = "\(inner)<transition"
            if let event = t.event { line += " event=\(xmlQuote(event))" }
            if let guardName = t.guardName { line += " cond=\(xmlQuote(guardName))" }
            if let target = t.target { line += " target=\(xmlQuote(target))" }
            if t.effects.isEmpty {
                body.append(line + "/>")
            } else {
                body += [line + ">"] + content(t.effects, indent: inner + "  ") + ["\(inner)</transition>"]
            }
        }
        var nested = ""
        for child in state.states { writeSCXML(child, indent: inner, into: &nested) }
        if body.isEmpty && nested.isEmpty {
            out += open + "/>\n"
            return
        }
        out += open + ">\n" + body.map { $0 + "\n" }.joined() + nested + "\(indent)</\(tag)>\n"
    }

    /// An attribute value in double quotes, with `&`, `<`, `"` and line breaks escaped.
    static func xmlQuote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// Turns SCXML elements into spec states.
private struct SCXMLReader {
    let file: String
    /// Names given to states without an `id`.
    var anonymous = 0

    init(file: String) { self.file = file }

    static let executable: Set<String> = ["raise", "send", "log", "assign", "script", "if", "elseif", "else",
                                          "foreach", "cancel"]

    private func error(_ code: FlowSpecError.Code, _ message: String, _ location: FlowSourceLocation) -> FlowSpecError {
        FlowSpecError(code: code, message: message, location: location)
    }

    /// The states among an element's children (`parent` is the enclosing state's name, if any).
    mutating func children(of node: XMLNode, in parent: String?) throws(FlowSpecError) -> [FlowSpec.State] {
        var states: [FlowSpec.State] = []
        for child in node.children {
            switch child.name {
            case "state", "parallel", "final":
                states.append(try state(child))
            case "transition", "onentry", "onexit", "initial", "invoke", "datamodel", "script", "donedata":
                continue  // read by `state`, or data the structure does not need
            case "history":
                throw error(.unsupported, "<history> is not supported: flowviz reads SCXML's structure without history states", child.location)
            default:
                let inside = parent.map { "state '\($0)'" } ?? "<scxml>"
                throw error(.unsupported, "unknown element <\(child.name)> in \(inside)", child.location)
            }
        }
        return states
    }

    mutating func state(_ node: XMLNode) throws(FlowSpecError) -> FlowSpec.State {
        let name: String
        if let id = node.attribute("id") {
            guard !id.isEmpty else { throw error(.invalidValue, "a state's 'id' is empty", node.location(of: "id")) }
            name = id
        } else {
            anonymous += 1
            name = "_\(node.name)\(anonymous)"  // SCXML generates ids for states without one
        }
        var state = FlowSpec.State(name: name)
        state.location = node.location
        state.isFinal = node.name == "final"
        state.isParallel = node.name == "parallel"
        state.states = try children(of: node, in: name)
        for child in node.children {
            switch child.name {
            case "onentry": state.entry += try effects(in: child)
            case "onexit": state.exit += try effects(in: child)
            case "transition": state.transitions.append(try transition(child, in: name))
            case "invoke":
                guard state.child == nil else {
                    throw error(.unsupported, "state '\(name)' has a second <invoke>: a state runs one child flow", child.location)
                }
                guard let src = child.attribute("src"), !src.isEmpty else {
                    throw error(.unsupported, "an <invoke> without 'src' is not supported: name the child flow's file", child.location)
                }
                state.child = src
                state.childID = child.attribute("id")
            case "donedata":
                guard state.isFinal else { throw error(.invalidValue, "<donedata> belongs in a <final>", child.location) }
                if let content = child.children.first(where: { $0.name == "content" }) {
                    state.output = content.attribute("expr")
                }
            default: continue
            }
        }
        if state.isFinal, !state.states.isEmpty || !state.transitions.isEmpty {
            throw error(.invalidValue, "<final> '\(name)' contains states or transitions", node.location)
        }
        let initial = try initialName(node, children: state.states)
        if let initial, state.states.isEmpty {
            throw error(.invalidValue, "state '\(name)' names an initial child '\(initial)' but has no child states",
                        node.location(of: "initial"))
        }
        state.initial = initial
        // The <initial> element's transition content runs after the state's entry, before the child's.
        if let element = node.children.first(where: { $0.name == "initial" }),
           let transition = element.children.first(where: { $0.name == "transition" }) {
            state.entry += try effects(in: transition)
        }
        if state.initial != nil, state.initial == state.states.first?.name { state.initial = nil }
        return state
    }

    /// The `initial` attribute or the `<initial>` element's target.
    func initialName(_ node: XMLNode, children: [FlowSpec.State]) throws(FlowSpecError) -> String? {
        let element = node.children.first { $0.name == "initial" }
        if let attribute = node.attribute("initial") {
            guard element == nil else {
                throw error(.invalidValue, "both an 'initial' attribute and an <initial> element", node.location(of: "initial"))
            }
            return try single(attribute, "initial", node.location(of: "initial"))
        }
        guard let element else { return nil }
        guard let transition = element.children.first(where: { $0.name == "transition" }),
              let target = transition.attribute("target") else {
            throw error(.missingField, "<initial> needs a <transition target>", element.location)
        }
        return try single(target, "target", transition.location(of: "target"))
    }

    /// One state name from an IDREFS value (several are for parallel regions, which are not simulated).
    func single(_ value: String, _ attribute: String, _ location: FlowSourceLocation) throws(FlowSpecError) -> String {
        let names = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        guard names.count == 1 else {
            throw error(names.isEmpty ? .invalidValue : .unsupported,
                        names.isEmpty ? "'\(attribute)' is empty" : "'\(attribute)' names \(names.count) states: flowviz reads one",
                        location)
        }
        return String(names[0])
    }

    mutating func transition(_ node: XMLNode, in state: String) throws(FlowSpecError) -> FlowSpec.Transition {
        let event = node.attribute("event").map { String($0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).joined(separator: " ")) }
        let target = try node.attribute("target").map { value throws(FlowSpecError) in try single(value, "target", node.location(of: "target")) }
        if event == nil || event == "", target == nil {
            throw error(.missingField, "an eventless <transition> needs a 'target'", node.location)
        }
        var transition = FlowSpec.Transition(event: event == "" ? nil : event, guardName: node.attribute("cond"),
                                             target: target, effects: try effects(in: node))
        transition.location = node.location
        return transition
    }

    /// The executable content of an element, as effect labels.
    func effects(in node: XMLNode) throws(FlowSpecError) -> [String] {
        var labels: [String] = []
        for child in node.children {
            guard Self.executable.contains(child.name) else {
                throw error(.unsupported, "<\(child.name)> is not executable content (in <\(node.name)>)", child.location)
            }
            let attributes = child.attributes
            switch child.name {
            case "raise" where child.attribute("event") != nil:
                labels.append("raise(\(child.attribute("event")!))")
            case "send" where child.attribute("event") != nil && attributes.allSatisfy({ ["event", "id"].contains($0.name) }):
                labels.append("send(\(child.attribute("event")!))")
            case "log" where child.attribute("label") != nil && child.attribute("expr") == nil:
                labels.append(child.attribute("label")!)
            default:
                let list = attributes.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
                labels.append("\(child.name)(\(list))")
            }
        }
        return labels
    }
}
