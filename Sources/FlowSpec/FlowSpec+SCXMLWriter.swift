import FlowGraph
import Flowstate

extension FlowFile {
    /// The spec as an SCXML document, which `parseSCXML(_:file:)` reads back to the same spec.
    ///
    /// Executable content (``State/onEntry``, ``State/onExit``, ``Transition/content``) is written
    /// as its tree of actions: `<raise>`, `<send>`, `<cancel>`, `<log>`, `<if>`/`<elseif>`/`<else>`
    /// however nested, and the elements the null data model does not run (`<assign>`, `<script>`,
    /// ...). An action read from a file is written as its element was (attributes in their order and
    /// as written, so `delay=".5s"` stays `.5s`) when that reads back to the same action; an action
    /// built in code is written from what it does. An `<initial>` element's content is written as the
    /// state's last `<onentry>`, where it runs. Child documents the file held inline are written
    /// inline. A spec without executable content (a JSON spec) has only labels: `raise(e)` and
    /// `send(e)` are written as `<raise>` and `<send>`, other labels as `<log label>`. A delayed
    /// transition (``Transition/delay``) is written as SCXML's idiom, which the reader reads back as
    /// one: `<onentry><send event="E" delay="30s" id="E"/></onentry>`, `<onexit><cancel
    /// sendid="E"/></onexit>` and `<transition event="E" ...>`, with `E` made from its state's name
    /// (`after_waiting`) and numbered past the names the document already uses.
    ///
    /// SCXML kept as text (``data``, ``State/data``: `<datamodel>`, `<script>`, invocations not run,
    /// `<donedata>` with `<param>`) is written back as it was read, each element on one line; text
    /// that does not read as such an element is written as a `<script>`'s text. What the reader does
    /// not keep is not written: comments, text outside the elements kept as text, elements and
    /// attributes of other namespaces, an SCXML `<invoke type>`. A place that a spec built by hand
    /// says declares data (``dataElements``) without an element kept for it is written as an empty
    /// `<script/>`, so the document still declares data. The same spec always gives the same bytes.
    public func scxml() -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        SCXMLWriter.write(self, indent: "", into: &out)
        return out
    }
}

/// Writes specs as SCXML (see ``FlowFile/scxml()``).
enum SCXMLWriter {
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
            block.forEachAction { action in
                switch action.kind {
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
                for block in blocks { body += lines(element, block, indent: inner) }
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
            let content = t.content.map { lines(of: $0.actions, indent: inner + "  ") }
                ?? labelElements(t.effects).flatMap { render($0, indent: inner + "  ") }
            if content.isEmpty {
                body.append(line + "/>")
            } else {
                body += [line + ">"] + content + ["\(inner)</transition>"]
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
        lines(container, nodes.flatMap { render($0, indent: indent + "  ") }, indent: indent)
    }

    /// `<onentry>` (or another container) with a block's actions.
    private static func lines(_ container: String, _ block: FlowFile.Executable, indent: String) -> [String] {
        lines(container, lines(of: block.actions, indent: indent + "  "), indent: indent)
    }

    /// `<onentry>` (or another container) around lines.
    private static func lines(_ container: String, _ inside: [String], indent: String) -> [String] {
        inside.isEmpty ? ["\(indent)<\(container)/>"] : ["\(indent)<\(container)>"] + inside + ["\(indent)</\(container)>"]
    }

    /// An element and its children, as lines: an element the writer builds (two levels at most) or
    /// one the reader read (as deep as the XML reader allows, ``XMLParser/maxDepth``).
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

    /// Actions as lines, in document order, with an explicit stack (`FlowFile.Executable.walk(_:_:)`):
    /// an `<if>` opens, its `<elseif>` and `<else>` stand between its branches' actions, and it closes
    /// (`<if cond="c"/>` when it holds nothing).
    static func lines(of actions: [FlowFile.Action], indent: String) -> [String] {
        var out: [String] = []
        var depth = 0  // the <if> elements open
        var closes: [Bool] = []  // for each <if> entered, whether it is written open (it holds something)
        func pad() -> String { indent + String(repeating: "  ", count: depth) }
        FlowFile.Executable.walk(actions) { step in
            switch step {
            case .action(let action):
                out += render(element(of: action), indent: pad())
            case .openIf(let action):
                guard case .if(let branches, let otherwise) = action.kind else { return }
                let empty = branches.count <= 1 && (branches.first?.actions.isEmpty ?? true) && otherwise == nil
                let open = pad() + "<if" + written(ifAttributes(action, branches: branches)).joined()
                out.append(open + (empty ? "/>" : ">"))
                closes.append(!empty)
                if !empty { depth += 1 }
            case .branch(let condition, let first):
                if !first { out.append(pad() + "<elseif cond=\(quote(condition))/>") }
            case .otherwise:
                out.append(pad() + "<else/>")
            case .closeIf:
                guard closes.popLast() == true else { return }
                depth -= 1
                out.append(pad() + "</if>")
            }
        }
        return out
    }

    /// Attributes as written in an opening tag (` name="value"` each).
    private static func written(_ attributes: [(name: String, value: String, location: FlowSourceLocation)]) -> [String] {
        attributes.map { " \($0.name)=\(quote($0.value))" }
    }

    /// An `<if>`'s attributes: as read, when their `cond` is still the first branch's; else that
    /// condition (`false` for an `<if>` without branches, built in code: it runs its `<else>`).
    private static func ifAttributes(_ action: FlowFile.Action, branches: [FlowFile.Action.Branch])
        -> [(name: String, value: String, location: FlowSourceLocation)]
    {
        let condition = branches.first?.condition ?? "false"
        if let element = action.element, !branches.isEmpty, (element.attribute("cond") ?? "") == condition {
            return element.attributes
        }
        return [("cond", condition, nowhere)]
    }

    /// The element of an action that is not an `<if>`: the one it was read from when that reads back
    /// to the same action, else one made from what it does.
    static func element(of action: FlowFile.Action) -> XMLNode {
        if let element = action.element, (try? SCXMLReader(file: "").actions([element]))?.map({ placeless($0.kind) }) == [placeless(action.kind)] {
            return element
        }
        return element(action.kind)
    }

    /// What an action does, without the places it was read from (where a written document puts it
    /// differs).
    private static func placeless(_ kind: FlowFile.Action.Kind) -> FlowFile.Action.Kind {
        switch kind {
        case .send(var send):
            send.location = nil
            return .send(send)
        case .unsupported(let element, _): return .unsupported(element: element, location: nil)
        default: return kind
        }
    }

    /// The element made from what an action that is not an `<if>` does.
    private static func element(_ kind: FlowFile.Action.Kind) -> XMLNode {
        switch kind {
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
        case .if:
            return node("script", [])  // not reached: `lines(of:indent:)` writes an <if> itself
        }
    }

    /// An element the reader makes the same unsupported action of (`<assign>`, `<send eventexpr>`,
    /// `<param> in <send>`, `<send> without 'event'`, `<cancel> without 'sendid'`), for one built in
    /// code; one with other text is written as `<script/>`, which no more runs.
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

    // MARK: Names the reader put together, taken apart

    // The writer takes apart the unsupported elements of actions built in code (`<send foo>`) and
    // inline documents' names (`sub@2`) scalar by scalar: a name may begin with a combining accent or
    // end with a prepended mark, and be one character with what the reader wrote next to it.

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
}
