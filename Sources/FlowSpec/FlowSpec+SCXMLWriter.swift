import FlowGraph
import Flowstate

extension FlowSpec {
    /// The spec as an SCXML document, which `parseSCXML(_:file:)` reads back to the same spec.
    ///
    /// Executable content read from SCXML (``State/onEntry``, ``State/onExit``,
    /// ``Transition/content``) is written back as the elements it was read from: `<raise>`, `<send>`
    /// with its attributes, `<cancel>`, `<log>`, `<if>`/`<elseif>`/`<else>` however nested, and the
    /// elements the null data model does not run (`<assign>`, `<script>`, ...) by name. Each element
    /// at the top of a block is written with the attributes its label shows when they read back to
    /// the same instruction (so `delay=".5s"` stays `.5s`, and attributes keep their order); an
    /// `<initial>` element's content is written as the state's last `<onentry>`, where it runs. Child
    /// documents the file held inline are written inline. A spec without executable content (a JSON
    /// spec) has only labels: `raise(e)` and `send(e)` are written as `<raise>` and `<send>`, other
    /// labels as `<log label>`.
    ///
    /// SCXML kept as text (``data``, ``State/data``: `<datamodel>`, `<script>`, invocations not run,
    /// `<donedata>` with `<param>`) is written back as it was read, each element on one line; text
    /// that does not read as such an element is written as a `<script>`'s text. What the reader does
    /// not keep is not written: comments, text outside the elements kept as text, elements and
    /// attributes of other namespaces, an SCXML `<invoke type>`. A place that a spec built by hand
    /// says declares data (``dataElements``) without an element kept for it is written as an empty
    /// `<script/>`, so the document still declares data. Blocks built by hand whose branches and
    /// jumps do not nest as `<if>` elements do are written without their branches. The same spec
    /// always gives the same bytes.
    public func scxml() -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        SCXMLWriter.write(self, indent: "", into: &out)
        return out
    }
}

/// Writes specs as SCXML (see ``FlowSpec/scxml()``).
enum SCXMLWriter {
    typealias Instruction = FlowSpec.Instruction

    /// Writes an `<scxml>` element: the document's states, and the inline documents they invoke.
    static func write(_ spec: FlowSpec, indent: String, into out: inout String) {
        out += "\(indent)<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" name=\(quote(spec.name))"
        out += spec.initial.isEmpty && spec.states.isEmpty ? ">\n" : " initial=\(quote(spec.initialStates.joined(separator: " ")))>\n"
        for entry in spec.data { out += "\(indent)  \(kept(entry, as: ["datamodel", "script"]).xml)\n" }
        // The places the reader will find again in what is written: one for each element kept as text,
        // one for each eventless transition without a target.
        var found = spec.data.count
        var pending = spec.states
        while let state = pending.popLast() {
            found += state.data.count + state.transitions.count { $0.event == nil && $0.target == nil }
            pending += state.states
        }
        for _ in found..<max(found, spec.dataElements.count) { out += "\(indent)  <script/>\n" }
        for state in spec.states { write(state, documents: spec.documents, indent: indent + "  ", into: &out) }
        out += "\(indent)</scxml>\n"
    }

    /// An element kept as text, written as the reader reads it back: the element (one of `names`)
    /// the text reads as, else a `<script>` holding the text; and the element's name.
    static func kept(_ text: String, as names: Set<String>) -> (name: String, xml: String) {
        if let node = try? XMLParser.parse(Array(text.utf8), file: ""), names.contains(node.name),
           node.name != "datamodel" || !node.children.isEmpty,
           node.name != "donedata" || (SCXMLReader.output(of: node) == nil && (!node.children.isEmpty || !node.text.isEmpty)) {
            return (node.name, node.xml)
        }
        return ("script", "<script>" + XMLNode.escapeText(text) + "</script>")
    }

    private static func quote(_ text: String) -> String { FlowSpec.xmlQuote(text) }

    private static func write(_ state: FlowSpec.State, documents: [String: FlowSpec], indent: String,
                              into out: inout String) {
        let tag = state.history != nil ? "history" : (state.isFinal ? "final" : (state.isParallel ? "parallel" : "state"))
        var open = "\(indent)<\(tag) id=\(quote(state.name))"
        if let history = state.history { open += " type=\(quote(history.rawValue))" }
        if !state.initialStates.isEmpty, !state.isParallel, state.history == nil {
            open += " initial=\(quote(state.initialStates.joined(separator: " ")))"
        }
        var body: [String] = []
        let inner = indent + "  "
        // Data first, as documents declare it; invocations and <donedata> kept as text after the
        // invoke the state runs, so that the reader takes that one for its child again.
        let names: Set<String> = state.isFinal ? ["datamodel", "script", "invoke", "donedata"] : ["datamodel", "script", "invoke"]
        let kept = state.data.map { Self.kept($0, as: names) }
        for entry in kept where entry.name == "datamodel" || entry.name == "script" { body.append(inner + entry.xml) }
        for (element, blocks, labels) in [("onentry", state.onEntry, state.entry), ("onexit", state.onExit, state.exit)] {
            if !blocks.isEmpty {
                for nodes in elements(of: blocks, labels: labels) { body += lines(element, nodes, indent: inner) }
            } else if !labels.isEmpty {
                body += lines(element, labelElements(labels), indent: inner)
            }
        }
        if let child = state.child {
            var invoke = "\(inner)<invoke"
            if let document = documents[child] {
                if let id = state.childID { invoke += " id=\(quote(id))" }
                if state.autoforward { invoke += " autoforward=\"true\"" }
                var text = ""
                var named = document
                named.name = inlineName(document.name)
                write(named, indent: inner + "    ", into: &text)
                body.append(invoke + ">")
                body.append("\(inner)  <content>")
                body.append(String(text.dropLast()))  // its own lines, without the last line break
                body.append("\(inner)  </content>")
                body.append("\(inner)</invoke>")
            } else {
                invoke += " src=\(quote(child))"
                if let id = state.childID { invoke += " id=\(quote(id))" }
                if state.autoforward { invoke += " autoforward=\"true\"" }
                body.append(invoke + "/>")
            }
        }
        for entry in kept where entry.name != "datamodel" && entry.name != "script" { body.append(inner + entry.xml) }
        if state.isFinal, let output = state.output {
            body.append("\(inner)<donedata><content expr=\(quote(output))/></donedata>")
        }
        for t in state.transitions {
            var line = "\(inner)<transition"
            if let event = t.event { line += " event=\(quote(event))" }
            if let guardName = t.guardName { line += " cond=\(quote(guardName))" }
            if !t.targets.isEmpty { line += " target=\(quote(t.targets.joined(separator: " ")))" }
            if t.isInternal { line += " type=\"internal\"" }
            let nodes = t.content.map { elements(of: [$0], labels: t.effects)[0] } ?? labelElements(t.effects)
            if nodes.isEmpty {
                body.append(line + "/>")
            } else {
                body += [line + ">"] + nodes.flatMap { render($0, indent: inner + "  ") } + ["\(inner)</transition>"]
            }
        }
        var nested = ""
        for child in state.states { write(child, documents: documents, indent: inner, into: &nested) }
        if body.isEmpty && nested.isEmpty {
            out += open + "/>\n"
            return
        }
        out += open + ">\n" + body.map { $0 + "\n" }.joined() + nested + "\(indent)</\(tag)>\n"
    }

    /// An inline document's name without the number the reader appended to keep it apart (`sub@2`).
    private static func inlineName(_ name: String) -> String {
        guard let at = name.lastIndex(of: "@") else { return name }
        let number = name[name.index(after: at)...]
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && $0.isNumber }) else { return name }
        return String(name[..<at])
    }

    /// `<onentry>` (or another container) with its elements, one line each.
    private static func lines(_ container: String, _ nodes: [XMLNode], indent: String) -> [String] {
        nodes.isEmpty ? ["\(indent)<\(container)/>"]
            : ["\(indent)<\(container)>"] + nodes.flatMap { render($0, indent: indent + "  ") } + ["\(indent)</\(container)>"]
    }

    /// An element and its children, as lines.
    private static func render(_ node: XMLNode, indent: String) -> [String] {
        let open = "\(indent)<\(node.name)" + node.attributes.map { " \($0.name)=\(quote($0.value))" }.joined()
        if node.children.isEmpty { return [open + "/>"] }
        return [open + ">"] + node.children.flatMap { render($0, indent: indent + "  ") } + ["\(indent)</\(node.name)>"]
    }

    private static let nowhere = FlowSourceLocation(file: "", line: 0, column: 0)

    private static func node(_ name: String, _ attributes: [(String, String?)], children: [XMLNode] = []) -> XMLNode {
        XMLNode(name: name, attributes: attributes.compactMap { name, value in value.map { (name, $0, nowhere) } },
                children: children, location: nowhere)
    }

    /// Effect labels as elements, for specs without executable content: `raise(e)`, `send(e)`, or a
    /// `<log label>`.
    private static func labelElements(_ labels: [String]) -> [XMLNode] {
        labels.map { effect in
            switch SCXMLEffect.queued(effect) {
            case (.internal, let event)?: node("raise", [("event", event)])
            case (.external, let event)?: node("send", [("event", event)])
            case nil: node("log", [("label", effect)])
            }
        }
    }

    // MARK: Executable content

    /// The elements of each block, in order; `labels` are the labels of the blocks' top-level elements,
    /// all blocks together (used only when there is one for each element).
    static func elements(of blocks: [FlowSpec.Executable], labels: [String]) -> [[XMLNode]] {
        let decoded = blocks.map { block in Decoder(code: block.instructions).elements() }
        let count = decoded.reduce(0) { $0 + ($1?.count ?? 0) }
        var next = labels.startIndex
        return zip(blocks, decoded).map { block, nodes in
            guard var nodes else { return flat(block.instructions) }
            if count == labels.count, decoded.allSatisfy({ $0 != nil }) {
                for k in nodes.indices {
                    nodes[k] = labelled(nodes[k], label: labels[next])
                    next += 1
                }
            }
            return nodes
        }
    }

    /// Instructions without the places they were read from, to compare what they do.
    private static func placeless(_ code: [Instruction]) -> [Instruction] {
        code.map { instruction in
            switch instruction {
            case .send(var send):
                send.location = nil
                return .send(send)
            case .unsupported(let element, _): return .unsupported(element: element, location: nil)
            default: return instruction
            }
        }
    }

    /// What the reader makes of elements: their instructions, or `nil` if it refuses them.
    private static func read(_ nodes: [XMLNode]) -> [Instruction]? {
        var code: [Instruction] = []
        do {
            try SCXMLReader(file: "").flatten(nodes, into: &code)
        } catch {
            return nil
        }
        return placeless(code)
    }

    /// A top-level element written with the attributes its label shows, when they read back to the
    /// same instructions and the same label; else the element as it is.
    private static func labelled(_ element: XMLNode, label: String) -> XMLNode {
        guard SCXMLReader.label(of: element) != label, label.hasPrefix(element.name + "("), label.hasSuffix(")") else {
            return element
        }
        let inside = label.dropFirst(element.name.count + 1).dropLast()
        guard let instructions = read([element]) else { return element }
        // `send(e)` and `raise(e)` name only the event (a `<send>` with `<param>` or `<content>` in
        // it has that label too): the event first, then the attributes a label lists.
        let event: [[(name: String, value: String)]] = ["send", "raise"].contains(element.name) ? [[("event", String(inside))]] : []
        for attributes in event + readings(inside) {
            let candidate = XMLNode(name: element.name, attributes: attributes.map { ($0.name, $0.value, nowhere) },
                                    children: element.children, location: nowhere)
            if SCXMLReader.label(of: candidate) == label, read([candidate]) == instructions { return candidate }
        }
        return element
    }

    /// The ways to read a label's `a=1, b=x, y` as attributes, the likeliest first: a value may hold
    /// ", " (even ", c=3"), so each ", " followed by a name and `=` may start an attribute or belong to
    /// a value. At most 2^10 readings are tried.
    private static func readings(_ inside: Substring) -> [[(name: String, value: String)]] {
        if inside.isEmpty { return [[]] }
        // Where an attribute may start: the beginning, and after each ", " followed by `name=`.
        var starts: [String.Index] = []
        var position = inside.startIndex
        while let comma = inside[position...].firstIndex(of: ",") {
            let after = inside.index(after: comma)
            position = after
            guard after < inside.endIndex, inside[after] == " " else { continue }
            let begin = inside.index(after: after)
            if let equals = inside[begin...].firstIndex(of: "="), isName(inside[begin..<equals]) { starts.append(comma) }
        }
        guard let firstEquals = inside.firstIndex(of: "="), isName(inside[..<firstEquals]) else { return [] }
        let optional = starts.count
        let masks = optional <= 10 ? Array((0..<(1 << optional)).reversed()) : [(1 << 10) - 1]
        var result: [[(name: String, value: String)]] = []
        for mask in masks {
            var cuts = [inside.startIndex]
            for (k, start) in starts.enumerated() where optional > 10 || mask & (1 << k) != 0 { cuts.append(start) }
            var attributes: [(name: String, value: String)] = []
            for (k, cut) in cuts.enumerated() {
                let begin = k == 0 ? cut : inside.index(cut, offsetBy: 2)
                let end = k + 1 < cuts.count ? cuts[k + 1] : inside.endIndex
                let item = inside[begin..<end]
                guard let equals = item.firstIndex(of: "=") else { break }
                attributes.append((String(item[..<equals]), String(item[item.index(after: equals)...])))
            }
            guard attributes.count == cuts.count, Set(attributes.map { $0.name }).count == attributes.count else { continue }
            result.append(attributes)
        }
        return result
    }

    /// Whether text is a name the XML reader reads whole (and keeps as written: no prefix).
    private static func isName(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."): true
            default: byte >= 0x80
            }
        }
    }

    /// One instruction that is not a branch or a jump, as an element.
    static func element(_ instruction: Instruction) -> XMLNode {
        switch instruction {
        case .raise(let event):
            return node("raise", [("event", event)])
        case .send(let send):
            return node("send", [("event", send.event), ("target", send.target), ("type", send.type), ("id", send.id),
                                 ("delay", send.delay > 0 ? "\(send.delay)ms" : nil)])
        case .cancel(let id):
            return node("cancel", [("sendid", id)])
        case .log(let label, let expr):
            return node("log", [("label", label), ("expr", expr)])
        case .unsupported(let element, _):
            return unsupported(element)
        case .branch, .jump:
            return node("script", [])  // not reached: the decoder handles them
        }
    }

    /// An element the reader makes the same unsupported instruction of (`<assign>`, `<send eventexpr>`,
    /// `<param> in <send>`, `<send> without 'event'`, `<cancel> without 'sendid'`); an unsupported
    /// instruction built by hand with other text is written as `<script/>`, which no more runs.
    private static func unsupported(_ text: String) -> XMLNode {
        if text == "<cancel> without 'sendid'" { return node("cancel", []) }
        if text == "<send> without 'event'" { return node("send", []) }
        if text.hasPrefix("<"), text.hasSuffix("> in <send>") {
            let name = text.dropFirst().dropLast("> in <send>".count)
            if isName(name) { return node("send", [], children: [node(String(name), [])]) }
        }
        if text.hasPrefix("<send "), text.hasSuffix(">") {
            let attribute = text.dropFirst("<send ".count).dropLast()
            if isName(attribute) { return node("send", [(String(attribute), "")]) }
        }
        if text.hasPrefix("<"), text.hasSuffix(">") {
            let name = text.dropFirst().dropLast()
            if isName(name), SCXMLReader.executable.contains(String(name)), name != "if" {
                return node(String(name), [])
            }
        }
        return node("script", [])
    }

    /// A block whose branches do not nest as `<if>` writes them: its other instructions, in order.
    private static func flat(_ code: [Instruction]) -> [XMLNode] {
        code.compactMap { instruction in
            switch instruction {
            case .branch, .jump: nil
            default: element(instruction)
            }
        }
    }

    /// Rebuilds the `<if>`/`<elseif>`/`<else>` elements of a block from its branches and jumps, as
    /// the reader lays them out: `<if c1>A<elseif c2>B<else>C</if>` is `branch(c1) A jump(end)
    /// branch(c2) B jump(end) C`, each branch continuing after its segment's jump. The result is
    /// checked by reading it back: `nil` unless it gives the same instructions.
    private struct Decoder {
        let code: [Instruction]

        func elements() -> [XMLNode]? {
            guard let nodes = sequence(0, code.count, depth: 0), read(nodes) == placeless(code) else { return nil }
            return nodes
        }

        /// The elements of code[start..<end], which holds no jump of an enclosing `<if>`.
        private func sequence(_ start: Int, _ end: Int, depth: Int) -> [XMLNode]? {
            guard let (nodes, jump) = segment(start, end, depth: depth), jump == nil else { return nil }
            return nodes
        }

        /// The elements of one branch's segment, code[start..<end], and the target of the jump that
        /// ends it (at end - 1) when the `<if>` goes on with an `<elseif>` or `<else>`.
        private func segment(_ start: Int, _ end: Int, depth: Int) -> (nodes: [XMLNode], jump: Int?)? {
            var nodes: [XMLNode] = []
            var pc = start
            while pc < end {
                switch code[pc] {
                case .jump(let to):
                    guard pc == end - 1 else { return nil }
                    return (nodes, to)
                case .branch:
                    guard let (node, next) = conditional(pc, limit: end, depth: depth + 1) else { return nil }
                    nodes.append(node)
                    pc = next
                default:
                    nodes.append(element(code[pc]))
                    pc += 1
                }
            }
            return (nodes, nil)
        }

        /// The `<if>` whose branch is at `start`, ending at or before `limit`, and where it ends.
        private func conditional(_ start: Int, limit: Int, depth: Int) -> (XMLNode, Int)? {
            guard depth < XMLParser.maxDepth, case .branch(let condition, let otherwise) = code[start],
                  otherwise > start, otherwise <= limit,
                  let (first, jump) = segment(start + 1, otherwise, depth: depth) else { return nil }
            var children = first
            guard let end = jump else { return (node("if", [("cond", condition)], children: children), otherwise) }
            guard end >= otherwise, end <= limit else { return nil }
            // The branches after the first: <elseif>s while a branch's segment ends with a jump to the
            // same end (or reaches it), then an <else> with what is left.
            var position = otherwise
            while true {
                if position < end, case .branch(let next, let after) = code[position], after > position, after <= end,
                   let (nodes, jump) = segment(position + 1, after, depth: depth) {
                    if jump == nil, after == end {
                        children += [node("elseif", [("cond", next)])] + nodes
                        break
                    }
                    if jump == end {
                        children += [node("elseif", [("cond", next)])] + nodes
                        position = after
                        continue
                    }
                }
                guard let rest = sequence(position, end, depth: depth) else { return nil }
                children += [node("else", [])] + rest
                break
            }
            return (node("if", [("cond", condition)], children: children), end)
        }
    }
}
