import FlowGraph
import Flowstate

extension FlowFile {
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
    /// labels as `<log label>`. A delayed transition (``Transition/delay``) is written as SCXML's idiom,
    /// which the reader reads back as one: `<onentry><send event="E" delay="30s" id="E"/></onentry>`,
    /// `<onexit><cancel sendid="E"/></onexit>` and `<transition event="E" ...>`, with `E` made from
    /// its state's name (`after_waiting`) and numbered past the names the document already uses.
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

/// Writes specs as SCXML (see ``FlowFile/scxml()``).
enum SCXMLWriter {
    typealias Instruction = FlowFile.Instruction

    /// Writes an `<scxml>` element: the document's states, and the inline documents they invoke.
    static func write(_ spec: FlowFile, indent: String, into out: inout String) {
        out += "\(indent)<scxml xmlns=\"http://www.w3.org/2005/07/scxml\" version=\"1.0\" name=\(quote(spec.name))"
        out += spec.initial.isEmpty && spec.states.isEmpty ? ">\n" : " initial=\(quote(spec.initialStates.joined(separator: " ")))>\n"
        for entry in spec.data { out += "\(indent)  \(kept(entry, as: ["datamodel", "script"]).xml)\n" }
        // The places the reader will find again in what is written: one for each element kept as text,
        // one for each eventless transition without a target.
        var found = spec.data.count
        var pending = spec.states
        while let state = pending.popLast() {
            found += state.data.count + state.transitions.count { $0.event == nil && $0.target == nil && $0.delay == nil }
            pending += state.states
        }
        for _ in found..<max(found, spec.dataElements.count) { out += "\(indent)  <script/>\n" }
        var delayEvents = delayEventNames(spec).makeIterator()
        for state in spec.states {
            write(state, documents: spec.documents, delayEvents: &delayEvents, indent: indent + "  ", into: &out)
        }
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

    private static func quote(_ text: String) -> String { XMLNode.quote(text) }

    /// The event (and send id) of each delayed transition of a document, in the order the writer
    /// meets them (states in pre-order, each state's transitions in order): `after_<state>`, then
    /// `after_<state>_2` for a state's second, letters, digits, `_` and `-` kept from the state's name
    /// (no dot: no descriptor of the idiom matches another's), numbered on when the document (or a
    /// document inside it) already sends, raises, names in a transition or uses as a send id the same
    /// name, so that the reader finds each idiom again.
    static func delayEventNames(_ spec: FlowFile) -> [String] {
        var taken: Set<String> = []
        func use(_ block: FlowFile.Executable) {
            for instruction in block.instructions {
                switch instruction {
                case .send(let send):
                    taken.insert(send.event)
                    if let id = send.id { taken.insert(id) }
                case .raise(let event): taken.insert(event)
                case .cancel(let id): taken.insert(id)
                default: break
                }
            }
        }
        func use(_ labels: [String]) {
            for label in labels { if let (_, event) = SCXMLEffect.queued(label) { taken.insert(event) } }
        }
        var documents = [spec]
        while let document = documents.popLast() {
            document.forEachState { state in
                (state.onEntry + state.onExit).forEach(use)
                use(state.entry + state.exit)
                for t in state.transitions {
                    if let content = t.content { use(content) }
                    use(t.effects)
                    for d in FlowFile.descriptors(t.event ?? "") { taken.insert(String(d)) }
                }
            }
            documents += document.documents.values
        }
        var names: [String] = []
        spec.forEachState { state in
            var k = 0
            for t in state.transitions where t.delay != nil {
                k += 1
                let word = String(state.name.unicodeScalars.map { scalar -> Character in
                    scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                        || scalar == "_" || scalar == "-") ? Character(scalar) : "_"
                })
                let base = "after_" + word + (k > 1 ? "_\(k)" : "")
                var name = base
                var n = 1
                while taken.contains(name) {
                    n += 1
                    name = "\(base)-\(n)"
                }
                taken.insert(name)
                names.append(name)
            }
        }
        return names
    }

    private static func write(_ state: FlowFile.State, documents: [String: FlowFile],
                              delayEvents: inout IndexingIterator<[String]>, indent: String, into out: inout String) {
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
        // Delayed transitions: SCXML's idiom, which the reader reads back as one delayed transition
        // each (a delayed event sent on entry, cancelled on exit, and the transition it triggers).
        var delayed: [String?] = []
        for t in state.transitions {
            guard let delay = t.delay, let event = delayEvents.next() else {
                delayed.append(nil)
                continue
            }
            delayed.append(event)
            body += lines("onentry", [node("send", [("event", event), ("delay", FlowFile.scxmlDelayText(delay)), ("id", event)])],
                          indent: inner)
            body += lines("onexit", [node("cancel", [("sendid", event)])], indent: inner)
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
        for (t, delayEvent) in zip(state.transitions, delayed) {
            var line = "\(inner)<transition"
            if let event = delayEvent ?? t.event { line += " event=\(quote(event))" }
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
        for child in state.states {
            write(child, documents: documents, delayEvents: &delayEvents, indent: inner, into: &nested)
        }
        if body.isEmpty && nested.isEmpty {
            out += open + "/>\n"
            return
        }
        out += open + ">\n" + body.map { $0 + "\n" }.joined() + nested + "\(indent)</\(tag)>\n"
    }

    /// An inline document's name without the number the reader appended to keep it apart (`sub@2`).
    private static func inlineName(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        guard let at = scalars.lastIndex(of: "@") else { return name }
        let number = scalars[(at + 1)...]
        guard !number.isEmpty, number.allSatisfy({ ("0"..."9").contains($0) }) else { return name }
        return string(scalars[..<at])
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
    static func elements(of blocks: [FlowFile.Executable], labels: [String]) -> [[XMLNode]] {
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
        guard !same(SCXMLReader.label(of: element), label),
              let insideText = stripping(label, prefix: element.name + "(", suffix: ")"),
              let instructions = read([element]) else {
            return element
        }
        func fitting(_ attributes: [(name: String, value: String)]) -> XMLNode? {
            let candidate = XMLNode(name: element.name, attributes: attributes.map { ($0.name, $0.value, nowhere) },
                                    children: element.children, location: nowhere)
            return same(SCXMLReader.label(of: candidate), label) && read([candidate]) == instructions ? candidate : nil
        }
        // `send(e)` and `raise(e)` name only the event (a `<send>` with `<param>` or `<content>` in
        // it has that label too): the event first, then the attributes a label lists.
        if ["send", "raise"].contains(element.name), let candidate = fitting([("event", insideText)]) { return candidate }
        let inside = Array(insideText.unicodeScalars)
        if inside.isEmpty { return fitting([]) ?? element }
        guard let places = places(inside) else { return element }
        for attributes in readings(inside, places) {
            if let candidate = fitting(attributes) { return candidate }
        }
        // Too many ways to read it to try them all: a reading the reader makes the same of, found
        // from what it does with each attribute.
        var search = LabelReading(inside, places, uses: AttributeUse.uses(of: element.name, instructions))
        if let attributes = search.search(), let candidate = fitting(attributes) { return candidate }
        return element
    }

    // MARK: Strings the reader put together, taken apart

    // The writer takes apart labels (`send(event=e, delay=2s)`), `<send foo>` and inline documents'
    // names (`sub@2`) scalar by scalar: a name or a value may begin with a combining accent or end
    // with a prepended mark, and be one character with what the reader wrote next to it.

    /// Whether two strings are the same scalars (not only canonically equivalent).
    static func same(_ a: String, _ b: String) -> Bool { a.unicodeScalars.elementsEqual(b.unicodeScalars) }

    /// Scalars as a string.
    static func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// `text` without `prefix` and `suffix`, or `nil` if it does not have both (apart).
    static func stripping(_ text: String, prefix: String, suffix: String) -> String? {
        let all = Array(text.unicodeScalars), head = Array(prefix.unicodeScalars), tail = Array(suffix.unicodeScalars)
        guard all.count >= head.count + tail.count, all.starts(with: head), all.suffix(tail.count).elementsEqual(tail) else {
            return nil
        }
        return string(all[head.count..<(all.count - tail.count)])
    }

    /// Where an attribute may start in a label's `a=1, b=x, y` (at the beginning, and at each ", "
    /// followed by a name and `=`; a value may hold ", ", even ", c=3"): the place (the ", " before
    /// it), the name, and where the value starts. `nil` if the label does not start with `name=`.
    static func places(_ inside: [Unicode.Scalar]) -> [(at: Int, name: String, value: Int)]? {
        guard let equals = inside.firstIndex(of: "="), isName(string(inside[..<equals])) else { return nil }
        var places = [(at: 0, name: string(inside[..<equals]), value: equals + 1)]
        for comma in (equals + 1)..<max(equals + 1, inside.count - 1) where inside[comma] == "," && inside[comma + 1] == " " {
            let begin = comma + 2
            if let equals = inside[begin...].firstIndex(of: "="), isName(string(inside[begin..<equals])) {
                places.append((comma, string(inside[begin..<equals]), equals + 1))
            }
        }
        return places
    }

    /// The ways to read a label's attributes, the likeliest first (every place an attribute): each
    /// place but the first may start one or belong to a value. All of them up to 10 such places (2^10
    /// readings), else only the likeliest (``LabelReading`` searches then).
    private static func readings(_ inside: [Unicode.Scalar], _ places: [(at: Int, name: String, value: Int)])
        -> [[(name: String, value: String)]]
    {
        let optional = places.count - 1
        let masks = optional <= 10 ? Array((0..<(1 << optional)).reversed()) : [(1 << 10) - 1]
        var result: [[(name: String, value: String)]] = []
        for mask in masks {
            var cuts = [0]
            for k in 1..<places.count where optional > 10 || mask & (1 << (k - 1)) != 0 { cuts.append(k) }
            var attributes: [(name: String, value: String)] = []
            for (n, k) in cuts.enumerated() {
                let end = n + 1 < cuts.count ? places[cuts[n + 1]].at : inside.count
                attributes.append((places[k].name, string(inside[places[k].value..<end])))
            }
            guard Set(attributes.map { $0.name }).count == attributes.count else { continue }
            result.append(attributes)
        }
        return result
    }

    /// Whether text is a name the XML reader reads whole (and keeps as written: no prefix).
    private static func isName(_ text: String) -> Bool {
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
        if same(text, "<cancel> without 'sendid'") { return node("cancel", []) }
        if same(text, "<send> without 'event'") { return node("send", []) }
        if let name = stripping(text, prefix: "<", suffix: "> in <send>"), isName(name) {
            return node("send", [], children: [node(name, [])])
        }
        if let attribute = stripping(text, prefix: "<send ", suffix: ">"), isName(attribute) {
            return node("send", [(attribute, "")])
        }
        if let name = stripping(text, prefix: "<", suffix: ">"), isName(name), SCXMLReader.executable.contains(name), name != "if" {
            return node(name, [])
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
    struct Decoder {
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

extension SCXMLWriter {
    /// What the SCXML reader does with an attribute of an executable element, for reading a label
    /// (`send(event=e, delay=2s)`) back into the attributes it was made of (``LabelReading``).
    enum AttributeUse: Equatable {
        /// Absent: with it, the reader would make something else of the element.
        case absent
        /// With this value; `optional`: or absent.
        case value(String, optional: Bool)
        /// A `<send delay>` of this many milliseconds (absent: 0).
        case delay(Int)
        /// Absent, or with any value.
        case free
        /// With any value.
        case required

        /// Whether a reading must have the attribute.
        var needed: Bool {
            switch self {
            case .value(_, let optional): !optional
            case .delay(let milliseconds): milliseconds > 0
            case .required: true
            case .absent, .free: false
            }
        }

        /// Whether a value fits.
        func accepts(_ value: String) -> Bool {
            switch self {
            case .absent: false
            case .value(let expected, _): SCXMLWriter.same(value, expected)
            case .delay(let milliseconds): FlowFile.milliseconds(Substring(value)) == milliseconds
            case .free, .required: true
            }
        }

        /// The use of each attribute of an element (by name; `others` for any other name) that the
        /// reader reads to `code`.
        static func uses(of element: String, _ code: [Instruction]) -> (named: [String: AttributeUse], others: AttributeUse) {
            func exactly(_ value: String?) -> AttributeUse { value.map { .value($0, optional: false) } ?? .absent }
            switch (element, code.first) {
            case ("raise", .raise(let event)?): return (["event": exactly(event)], .free)
            case ("log", .log(let label, let expr)?): return (["label": exactly(label), "expr": exactly(expr)], .free)
            case ("cancel", .cancel(let id)?): return (["sendid": exactly(id)], .free)
            case ("cancel", .unsupported?): return (["sendid": .absent], .free)
            case ("if", .branch(let condition, _)?): return (["cond": .value(condition, optional: condition.isEmpty)], .free)
            case ("send", .send(let send)?):
                return (["event": exactly(send.event), "target": exactly(send.target), "type": exactly(send.type),
                         "id": exactly(send.id), "delay": .delay(send.delay)], .absent)
            case ("send", .unsupported(let text, _)?):
                // Its attributes are all the reader knows (any value), but for the one it names.
                var named: [String: AttributeUse] = ["event": .free, "target": .free, "type": .free, "id": .free, "delay": .free]
                if same(text, "<send> without 'event'") {
                    named["event"] = .value("", optional: true)
                } else if let attribute = stripping(text, prefix: "<send ", suffix: ">") {
                    named[attribute] = .required
                }
                return (named, .absent)
            default: return ([:], .free)  // <assign>, <script>, ...: the reader keeps only the name
            }
        }
    }

    /// A label's attributes (`a=1, b=x, c=2`) read so that the reader makes what it made of the
    /// element, when there are too many readings to try them all (``readings(_:_:)``).
    ///
    /// A search over the places where an attribute may start (``places(_:)``): an attribute whose
    /// value the reader needs ends where that value does; one whose value is any ends where an
    /// attribute the reading still needs starts, or at the end (an attribute after it may as well
    /// belong to its value: the reader makes the same of the element without it). Each attribute name
    /// is used once, so a reading has at most twice as many attributes as the reader knows, and the
    /// search goes that deep; a place reached again with the same attributes before it is not
    /// searched again.
    struct LabelReading {
        private let inside: [Unicode.Scalar]
        private let places: [(at: Int, name: String, value: Int)]
        private let named: [String: AttributeUse]
        private let others: AttributeUse
        /// Places, with the names before them, that lead to no reading.
        private var dead: Set<String> = []
        /// Searches left before giving up (a bound no label of a real document comes near).
        private var budget = 20_000

        /// The search in a label's scalars, from its places (``places(_:)``).
        init(_ inside: [Unicode.Scalar], _ places: [(at: Int, name: String, value: Int)],
             uses: (named: [String: AttributeUse], others: AttributeUse)) {
            self.inside = inside
            self.places = places
            self.named = uses.named
            self.others = uses.others
        }

        private func use(of name: String) -> AttributeUse { named[name] ?? others }

        /// A reading, or `nil` if none was found.
        mutating func search() -> [(name: String, value: String)]? {
            places.isEmpty ? nil : attributes(from: 0, after: [])
        }

        /// The attributes from the `k`-th place on, when the names in `before` come before it.
        private mutating func attributes(from k: Int, after before: Set<String>) -> [(name: String, value: String)]? {
            let name = places[k].name
            let rule = use(of: name)
            guard rule != .absent, !before.contains(name), budget > 0 else { return nil }
            budget -= 1
            let key = "\(k) " + before.sorted().joined(separator: " ")
            guard !dead.contains(key) else { return nil }
            let names = before.union([name])
            let anyValue = rule == .free || rule == .required
            var length: Int?  // of a value known in advance
            if case .value(let expected, _) = rule { length = expected.unicodeScalars.count }
            // Where the value may end: at a later place (nearest first), or at the end.
            for next in (k + 1)...places.count {
                if anyValue, next < places.count, !use(of: places[next].name).needed || names.contains(places[next].name) {
                    continue  // it may belong to this value
                }
                let end = next < places.count ? places[next].at : inside.count
                if let length, end - places[k].value != length { continue }
                let value = SCXMLWriter.string(inside[places[k].value..<end])
                guard rule.accepts(value) else { continue }
                if next == places.count {
                    if named.allSatisfy({ !$0.value.needed || names.contains($0.key) }) { return [(name, value)] }
                } else if let rest = attributes(from: next, after: names) {
                    return [(name, value)] + rest
                }
            }
            dead.insert(key)
            return nil
        }
    }
}
