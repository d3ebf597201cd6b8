import FlowGraph
import Flowstate

extension FlowFile {
    /// Why a flow file cannot become a typed Swift flow: every problem, one per line, each with the
    /// file, line and column it is about.
    ///
    /// It has the one shape of the package's errors: a ``code`` to match on, and read-only fields.
    public struct SwiftGenerationError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong, as a value to match on. The set of codes can grow.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            private enum Backing: String, Hashable, Sendable {
                case notTypeable = "not-typeable"
            }

            private let backing: Backing
            private init(_ backing: Backing) { self.backing = backing }

            /// The flow file has problems that keep it from becoming typed Swift (``problems`` lists them).
            public static let notTypeable = Code(.notTypeable)

            /// The code's stable name, kebab-case (`not-typeable`).
            public var description: String { backing.rawValue }
        }

        /// What went wrong: ``Code/notTypeable``; ``problems`` says where and why.
        public var code: Code { .notTypeable }
        /// The problems, in document order.
        public internal(set) var problems: [FlowSpecError]

        /// One line per problem: `file:line:column: error: message`.
        public var message: String { problems.map(\.description).joined(separator: "\n") }

        /// The ``message``.
        public var description: String { message }
    }

    /// Typed Swift for the flow: what `flowviz generate swift` writes, and what the `FlowCodegen`
    /// build-tool plugin runs on every `.scxml` and `.flowspec.json` file of a target.
    ///
    /// The result declares one `enum` conforming to `Flow`, named `typeName` (default: the flow's name
    /// in UpperCamelCase), with:
    /// - `State`, `Event`, `Effect` and `Output` enums, one case per name the file uses, each case's raw
    ///   value (and `description`) the name as written, so labels, diagrams and the spec are the file's;
    /// - a `Requirements` protocol: one `Bool` function per guard the file names (given the step's
    ///   event), one function per effect (what `perform(_:with:)` calls), and one function per child flow a
    ///   state runs, returning the `ChildFlow` the app declares;
    /// - `definition(_:)`, the flow's `FlowDefinition`, with the requirements' guards and children
    ///   (states, events, effects and outputs named with their type, `On(Event.submit, to: State.done)`;
    ///   a big flow's states in parts, private functions of at most 30 declarations each, so that
    ///   type-checking it takes time in proportion to its size; each guard made by a private function,
    ///   `guardValid(requirements)`);
    /// - `perform(_:with:)`, which calls the requirement named after an effect.
    ///
    /// Names that are not Swift identifiers are mapped predictably: words (runs of ASCII letters and
    /// digits; any other character separates words, a non-ASCII one becomes a word of `u` and its hexadecimal code, `中` is `u4E2D`) joined in
    /// lowerCamelCase (types: UpperCamelCase), `_` before a leading digit, keywords in backticks,
    /// `unnamed` for a name without any. Two
    /// names that map to the same identifier are an error naming both places. Every declaration that
    /// comes from the file carries a `#sourceLocation` of its place in the file, so a compiler message
    /// about it (an app's conformance that lacks a guard the file added, say) names the file and line.
    ///
    /// Parallel states become `Parallel` (their regions inside), history states `History` (their
    /// default transition its `default:`), a transition with several targets `On(_:to:)` with an
    /// array, and a transition on `done.state.<id>` of a state inside a parallel state (or of the
    /// parallel state itself) `On(done:to:)`: the engine raises those completions as SCXML does. A
    /// delayed transition becomes `After(.seconds(30), to: ...)`. In a
    /// flow with parallel states an `In('s')` guard becomes `.in(State.s)` (named `In(s)`), which asks the
    /// whole configuration.
    ///
    /// A typed flow matches exact events, starts in one state, and finishes at a final state outside
    /// parallel states: an SCXML descriptor with a wildcard (`*`, `error.*`), a nested `<final>` outside
    /// parallel states under SCXML's semantics (which raises `done.state`), a `done.state` transition
    /// for a state outside parallel states, several initial states, and a history whose default is not
    /// one plain target are errors. Context updates keep their names (a file has no code behind them:
    /// the generated flow has no context). SCXML executable content becomes its effect labels.
    /// - Parameters:
    ///   - typeName: The flow's Swift type name (default: the flow's name, in UpperCamelCase).
    ///   - isPublic: Whether the declarations are `public` (default) or internal.
    ///   - file: The path `#sourceLocation` names (default: the spec's location's file).
    /// - Throws: ``SwiftGenerationError`` with every problem.
    public func swiftSource(typeName: String? = nil, isPublic: Bool = true,
                            file: String? = nil) throws(SwiftGenerationError) -> String {
        var generator = SwiftFlowWriter(spec: self, typeName: typeName, isPublic: isPublic, file: file)
        return try generator.write()
    }
}

/// Turns names into Swift identifiers, predictably.
enum SwiftIdentifier {
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true",
        "try", "async", "consume", "copy", "discard", "each", "some", "borrowing", "consuming", "package",
        "Type", "Protocol",
    ]

    /// The words of a name: runs of ASCII letters and digits; a non-ASCII scalar is a word of its own,
    /// `u` and its hexadecimal code.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for scalar in name.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                current.unicodeScalars.append(scalar)
                continue
            }
            if !current.isEmpty { words.append(current) }
            current = ""
            if !scalar.isASCII { words.append("u" + String(scalar.value, radix: 16, uppercase: true)) }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `present(email)` → `presentEmail`; `upper`: `PresentEmail`; a name without a letter or digit:
    /// `unnamed`. Never empty, never a keyword bare.
    static func make(_ name: String, upper: Bool = false) -> String {
        let parts = words(name)
        var text = ""
        for (i, word) in parts.enumerated() {
            let first = word.prefix(1), rest = word.dropFirst()
            if i == 0 {
                text += (upper ? first.uppercased() : first.lowercased()) + rest
            } else {
                text += first.uppercased() + rest
            }
        }
        if text.isEmpty { text = upper ? "Unnamed" : "unnamed" }
        if let first = text.unicodeScalars.first, ("0"..."9").contains(first) { text = "_" + text }
        return keywords.contains(text) ? "`\(text)`" : text
    }
}

/// Writes one flow's Swift: see ``FlowFile/swiftSource(typeName:isPublic:file:)``.
struct SwiftFlowWriter {
    let spec: FlowFile
    let typeName: String
    let access: String
    let file: String
    var problems: [FlowSpecError] = []
    /// Whether the flow has parallel states (with regions): an `In()` guard then asks the
    /// configuration (`Guard.in`), not the one leaf a flat flow rests in.
    var hasParallel = false
    /// The most declarations one builder body of `definition(_:)` holds (``DefinitionWriter/bodyLimit``).
    var bodyLimit = DefinitionWriter.bodyLimit

    init(spec: FlowFile, typeName: String?, isPublic: Bool, file: String?) {
        self.spec = spec
        self.typeName = typeName ?? SwiftIdentifier.make(spec.name, upper: true)
        access = isPublic ? "public " : ""
        self.file = file ?? spec.location?.file ?? spec.name
    }

    /// Names of one kind (states, events...), each with its identifier and its first place.
    struct Names {
        var list: [(name: String, identifier: String, location: FlowSourceLocation?)] = []
        var byName: [String: String] = [:]
        var byIdentifier: [String: String] = [:]

        /// Adds a name (once); returns the problem when its identifier is another name's.
        mutating func add(_ name: String, at location: FlowSourceLocation?, kind: String,
                          identifier make: (String) -> String = { SwiftIdentifier.make($0) }) -> String? {
            guard byName[name] == nil else { return nil }
            let identifier = make(name)
            byName[name] = identifier
            if let other = byIdentifier[identifier] {
                return "\(kind) '\(name)' and \(kind) '\(other)' both become the Swift name '\(identifier)': rename one"
            }
            byIdentifier[identifier] = name
            list.append((name, identifier, location))
            return nil
        }

        subscript(name: String) -> String { byName[name] ?? SwiftIdentifier.make(name) }
    }

    mutating func problem(_ message: String, at location: FlowSourceLocation?) {
        problems.append(FlowSpecError(code: .cannotGenerate, message: message,
                                      location: location ?? spec.location ?? FlowSourceLocation(file: file, line: 1, column: 1)))
    }

    /// `#sourceLocation` for a place in the file, or nothing when the place is unknown.
    func at(_ location: FlowSourceLocation?, indent: String) -> String {
        guard let location else { return "" }
        return "\(indent)#sourceLocation(file: \(Self.quote(file)), line: \(max(1, location.line)))\n"
    }

    /// The end of a generated stretch: the compiler's own places again.
    func back(_ location: FlowSourceLocation?, indent: String) -> String {
        location == nil ? "" : "\(indent)#sourceLocation()\n"
    }

    mutating func write() throws(FlowFile.SwiftGenerationError) -> String {
        let scxml = spec.semantics == .scxml
        let states = spec.statesInDocumentOrder
        var stateNames = Names(), events = Names(), effects = Names(), outputs = Names(), requirements = Names()
        var parent: [String: String] = [:]
        var guardNames: [(name: String, location: FlowSourceLocation?)] = []
        var seenGuards = Set<String>()
        var childNames: [(name: String, location: FlowSourceLocation?)] = []
        var seenChildren = Set<String>()
        var byName: [String: FlowFile.State] = [:]
        for state in states {
            byName[state.name] = byName[state.name] ?? state
            for child in state.states { parent[child.name] = state.name }
        }
        /// Whether `name` is a parallel state with regions, or lies inside one: where a typed flow's
        /// engine raises `done.state` as SCXML does.
        func inParallel(_ name: String) -> Bool {
            var current: String? = name
            while let next = current {
                if let state = byName[next], state.isParallel, !state.states.isEmpty { return true }
                current = parent[next]
            }
            return false
        }
        hasParallel = states.contains { $0.isParallel && !$0.states.isEmpty }
        if spec.initialStates.count > 1 {
            problem("the flow starts in several states (\(spec.initialStates.joined(separator: ", "))): a typed flow names one initial state", at: spec.location)
        }
        func note(_ message: String?, at location: FlowSourceLocation?, into writer: inout SwiftFlowWriter) {
            if let message { writer.problem(message, at: location) }
        }
        for state in states {
            note(stateNames.add(state.name, at: state.location, kind: "state"), at: state.location, into: &self)
            if state.history != nil {
                // A history's one transition is its default (`History(_:_:default:)`): a target, no more.
                let defaults = state.transitions
                if defaults.count != 1 || defaults[0].targets.count != 1 || !defaults[0].effects.isEmpty
                    || defaults[0].event != nil || defaults[0].delay != nil || defaults[0].guardName != nil
                    || defaults[0].update != nil {
                    problem("history '\(state.name)' needs exactly one default transition with one target and nothing else: a typed history is `History(_:_:default:)`", at: state.location)
                }
                continue
            }
            if state.initialStates.count > 1 {
                problem("state '\(state.name)' starts in several states (\(state.initialStates.joined(separator: ", "))): a typed state names one initial child", at: state.location)
            }
            if state.isFinal {
                if scxml, let enclosing = parent[state.name], !inParallel(enclosing) {
                    problem("final state '\(state.name)' is nested: under SCXML it raises done.state.\(enclosing), but a typed flow finishes at every final state outside parallel states", at: state.location)
                }
                let output = state.output ?? state.name
                note(outputs.add(output, at: state.location, kind: "output"), at: state.location, into: &self)
            }
            for effect in state.entry + state.exit {
                note(effects.add(effect, at: state.location, kind: "effect"), at: state.location, into: &self)
            }
            if let child = state.child, seenChildren.insert(child).inserted { childNames.append((child, state.location)) }
            for t in state.transitions {
                if let done = completion(t, scxml: scxml, isState: { byName[$0] != nil }) {
                    if !inParallel(done) {
                        problem("a transition of '\(state.name)' waits for done.state.\(done): a typed flow raises done.state only for states inside parallel states (a final state elsewhere finishes the flow)", at: t.location)
                    }
                    if t.targets.count > 1 {
                        problem("a transition of '\(state.name)' on done.state.\(done) has several targets: a typed completion transition (`On(done:to:)`) has one", at: t.location)
                    }
                } else {
                    for event in eventNames(t, scxml: scxml) {
                        note(events.add(event, at: t.location, kind: "event"), at: t.location, into: &self)
                        if event.contains("*") || event.isEmpty {
                            problem("event descriptor '\(t.event ?? "")' matches several events: a typed flow matches exact events", at: t.location)
                        }
                    }
                }
                for effect in t.effects {
                    note(effects.add(effect, at: t.location, kind: "effect"), at: t.location, into: &self)
                }
                if let name = t.guardName, Self.builtInGuard(name) == nil, seenGuards.insert(name).inserted {
                    guardNames.append((name, t.location))
                }
            }
        }
        // One namespace for the requirements: guards, effects, children.
        for g in guardNames {
            note(requirements.add(g.name, at: g.location, kind: "guard"), at: g.location, into: &self)
        }
        for e in effects.list {
            note(requirements.add(e.name, at: e.location, kind: "effect"), at: e.location, into: &self)
        }
        for c in childNames {
            note(requirements.add(c.name, at: c.location, kind: "child flow", identifier: { SwiftIdentifier.make($0 + " child") }),
                     at: c.location, into: &self)
        }
        for state in states {
            if let initial = state.initial, stateNames.byName[initial] == nil {
                problem("state '\(state.name)' starts in '\(initial)', which is not a declared state", at: state.location)
            }
            for t in state.transitions {
                for target in t.targets where stateNames.byName[target] == nil {
                    problem("a transition of '\(state.name)' targets '\(target)', which is not a declared state", at: t.location)
                }
            }
        }
        if stateNames.byName[spec.initial] == nil {
            problem("the initial state '\(spec.initial)' is not a declared state", at: spec.location)
        }
        guard problems.isEmpty else { throw FlowFile.SwiftGenerationError(problems: problems) }

        let a = access
        var out = "// Generated from \(file) by Flowstate's Swift generator (flowviz generate swift). Do not edit:\n"
        out += "// change the flow file; the build regenerates this.\n\n"
        out += "import Flowstate\n\n"
        out += "/// The flow of `\(file.split(separator: "/").last.map(String.init) ?? file)`, `\(spec.name)`.\n"
        out += "\(a)enum \(typeName): Flow {\n"
        out += enumeration("State", doc: "The flow's states.", names: stateNames, conformances: "Hashable, Sendable, CaseIterable")
        if events.list.isEmpty {
            out += "    /// The flow's events (it has none).\n    \(a)enum Event: FlowEvent, Hashable, Sendable {}\n\n"
        } else {
            out += enumeration("Event", doc: "The flow's events.", names: events, conformances: "FlowEvent, Hashable, Sendable, CaseIterable")
        }
        if effects.list.isEmpty {
            out += "    /// The flow's effects (it has none).\n    \(a)typealias Effect = Never\n\n"
        } else {
            out += enumeration("Effect", doc: "The effects the flow asks for, as data (``perform(_:with:)`` calls the requirement of each).",
                               names: effects, conformances: "Hashable, Sendable, CaseIterable")
        }
        if outputs.list.isEmpty {
            out += "    /// The flow's output (it has no final state).\n    \(a)typealias Output = Never\n\n"
        } else {
            out += enumeration("Output", doc: "What the flow finishes with.", names: outputs, conformances: "Hashable, Sendable, CaseIterable")
        }

        // Requirements.
        out += "    /// What the app supplies: a function per guard (true lets the transition be taken), per effect\n"
        out += "    /// (called by ``perform(_:with:)``) and per child flow a state runs.\n"
        out += "    \(a)protocol Requirements: Sendable {\n"
        for g in guardNames {
            out += "        /// The guard `\(g.name)`.\n"
            out += at(g.location, indent: "        ")
            out += "        func \(requirements[g.name])(_ event: Event?) -> Bool\n"
            out += back(g.location, indent: "        ")
        }
        for e in effects.list {
            out += "        /// Performs the effect `\(e.name)`.\n"
            out += at(e.location, indent: "        ")
            out += "        func \(requirements[e.name])()\n"
            out += back(e.location, indent: "        ")
        }
        for c in childNames {
            out += "        /// The child flow `\(c.name)`, with the event each of its outputs becomes.\n"
            out += at(c.location, indent: "        ")
            out += "        func \(requirements[c.name])() -> ChildFlow<\(typeName)>\n"
            out += back(c.location, indent: "        ")
        }
        out += "    }\n\n"

        // perform.
        out += "    /// Performs `effect` by calling the requirement named after it.\n"
        out += "    \(a)static func perform(_ effect: Effect, with requirements: some Requirements) {\n"
        if effects.list.isEmpty {
            out += "    }\n\n"
        } else {
            out += "        switch effect {\n"
            for e in effects.list { out += "        case .\(e.identifier): requirements.\(requirements[e.name])()\n" }
            out += "        }\n    }\n\n"
        }

        // In(): the parent of each state.
        let usesIn = !hasParallel && states.contains { state in
            state.transitions.contains { t in t.guardName.flatMap { FlowFile.inPredicate(Substring($0).trimmingSpaces) } != nil }
        }
        if usesIn {
            out += "    /// Whether `state` is `leaf` or one of its ancestors (SCXML's `In()`).\n"
            out += "    static func isActive(_ state: State, whenIn leaf: State) -> Bool {\n"
            out += "        var current: State? = leaf\n"
            out += "        while let next = current {\n            if next == state { return true }\n"
            out += "            switch next {\n"
            for s in states {
                if let p = parent[s.name] { out += "            case .\(stateNames[s.name]): current = .\(stateNames[p])\n" }
            }
            out += "            default: current = nil\n            }\n        }\n        return false\n    }\n\n"
        }

        // The guards of the app's requirements, each made once by a function of its own.
        for g in guardNames {
            out += "    /// The guard `\(g.name)`, asked of the app's requirements.\n"
            out += "    private static func \(Self.guardFunction(g.name))(_ requirements: some Requirements) -> Guard<\(typeName)> {\n"
            out += at(g.location, indent: "        ")
            out += "        Guard(\(Self.quote(g.name)), evaluate: { _, event in requirements.\(requirements[g.name])(event) })\n"
            out += back(g.location, indent: "        ")
            out += "    }\n\n"
        }

        // The definition: states in document order, each builder body at most `bodyLimit` declarations
        // (`DefinitionWriter`), bigger ones in parts: `definitionPart0(_:)`...
        out += "    /// The flow's definition, with the app's guards and child flows.\n"
        out += "    \(a)static func definition(_ requirements: some Requirements) -> FlowDefinition<\(typeName)> {\n"
        out += "        FlowDefinition(\(Self.quote(spec.name)), initial: State.\(stateNames[spec.initial])) {\n"
        var body = DefinitionWriter(writer: self, scxml: scxml, stateNames: stateNames, events: events,
                                    effects: effects, outputs: outputs, requirements: requirements, limit: max(2, bodyLimit))
        out += body.write(spec.states.map { .state($0) }, depth: 3)
        out += "        }\n    }\n"
        var k = 0
        while k < body.parts.count {
            out += "\n    /// Part \(k) of ``definition(_:)``: a builder body of its own, so that type-checking a big flow\n"
            out += "    /// takes time in proportion to its size.\n"
            out += "    @FlowBuilder<\(typeName)>\n"
            out += "    private static func definitionPart\(k)(_ requirements: some Requirements) -> [FlowElement<\(typeName)>] {\n"
            out += body.write(body.parts[k], depth: 2)
            out += "    }\n"
            k += 1
        }
        out += "}\n"
        return out
    }

    /// One enum of names: a case per name, its raw value and `description` the name as written.
    func enumeration(_ name: String, doc: String, names: Names, conformances: String) -> String {
        var out = "    /// \(doc)\n    \(access)enum \(name): String, \(conformances), CustomStringConvertible {\n"
        for n in names.list {
            out += at(n.location, indent: "        ")
            out += "        case \(n.identifier) = \(Self.quote(n.name))\n"
            out += back(n.location, indent: "        ")
        }
        out += "\n        /// The name as the flow file writes it (what diagrams and specs show).\n"
        out += "        \(access)var description: String { rawValue }\n    }\n\n"
        return out
    }

    /// A Swift string literal.
    static func quote(_ text: String) -> String {
        stringLiteral(text, escapes: isControl) { "\\u{" + String($0, radix: 16) + "}" }
    }

    /// A delay as Swift: `.seconds(30)`, `.milliseconds(1500)`, `.nanoseconds(5)`, or its components.
    static func durationExpression(_ delay: Duration) -> String {
        let (seconds, attoseconds) = delay.components
        if attoseconds == 0 { return ".seconds(\(seconds))" }
        for (name, per) in [("milliseconds", Int64(1_000_000_000_000_000)), ("microseconds", 1_000_000_000_000),
                            ("nanoseconds", 1_000_000_000)] where attoseconds % per == 0 {
            let perSecond = 1_000_000_000_000_000_000 / per
            let (total, overflow) = seconds.multipliedReportingOverflow(by: perSecond)
            if !overflow { return ".\(name)(\(total + attoseconds / per))" }
        }
        return "Duration(secondsComponent: \(seconds), attosecondsComponent: \(attoseconds))"
    }

    /// The events a transition reacts to: its event, or under SCXML each descriptor of its list.
    func eventNames(_ t: FlowFile.Transition, scxml: Bool) -> [String] {
        guard let event = t.event else { return [] }
        guard scxml else { return [event] }
        return event.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }

    /// The state whose completion (`done.state.<state>`, a declared state) the transition waits for:
    /// a typed flow's `On(done:)`. Under SCXML its event must be that one descriptor.
    func completion(_ t: FlowFile.Transition, scxml: Bool, isState: (String) -> Bool) -> String? {
        let names = eventNames(t, scxml: scxml)
        guard names.count == 1, names[0].hasPrefix("done.state.") else { return nil }
        let state = String(names[0].dropFirst("done.state.".count))
        return isState(state) ? state : nil
    }

    /// `true`, `false` and `In('s')`: guards the file evaluates itself (`nil` for a named guard).
    static func builtInGuard(_ name: String) -> String? {
        let trimmed = Substring(name).trimmingSpaces
        if trimmed == "true" || trimmed == "false" { return String(trimmed) }
        return FlowFile.inPredicate(trimmed).map { "In(\($0))" }
    }

    func guardExpression(_ name: String, requirements: Names, stateNames: Names) -> String {
        let label = Self.quote(name)
        let trimmed = Substring(name).trimmingSpaces
        if trimmed == "true" || trimmed == "false" { return "Guard(\(label), condition: { \(trimmed) })" }
        if let state = FlowFile.inPredicate(trimmed) {
            // With parallel states a state is active when any region is in it: the engine answers.
            if hasParallel { return ".in(State.\(stateNames[state]))" }
            return "Guard(\(label), evaluate: { leaf, _ in isActive(.\(stateNames[state]), whenIn: leaf) })"
        }
        return "\(Self.guardFunction(name))(requirements)"
    }

    /// The private function that makes the guard `name` of the app's requirements: `guardValid` for
    /// `valid` (one per guard, so that the definition holds a call, not a closure to type-check at
    /// every transition it guards). Distinct for names whose requirements are distinct.
    static func guardFunction(_ name: String) -> String { SwiftIdentifier.make("guard " + name) }
}
