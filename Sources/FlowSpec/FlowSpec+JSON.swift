import FlowGraph
import Flowstate

extension FlowFile {
    /// Reads a spec from the bytes of a file.
    /// - Parameters:
    ///   - bytes: The file's contents (UTF-8).
    ///   - file: The path, used in every error's location.
    /// - Throws: ``FlowSpecError`` naming the problem and its `file:line:column`.
    public static func parse(_ bytes: [UInt8], file: String) throws(FlowSpecError) -> FlowFile {
        // The top-level states are converted as they are read, each from its own small tree, so the
        // tree of the whole file never exists at once (a 100,000-state file's tree is several times
        // the size of its spec). Problems are still reported in the order a reader of the whole tree
        // finds them: the file's syntax first (the rest of the file is read before a state's problem
        // is reported), then the top-level fields, then the first state with a problem.
        var states: [State] = []
        var stateProblem: FlowSpecError?
        let (root, streamed) = try JSONParser.parse(bytes, file: file, streaming: "states") { item in
            guard stateProblem == nil else { return }
            do throws(FlowSpecError) {
                states.append(try Self.state(item))
            } catch {
                stateProblem = error
                states = []
            }
        }
        if streamed, states.capacity > states.count {
            // Grown by doubling while read: kept at its size (a state is some 180 bytes).
            states = states.withUnsafeBufferPointer { Array($0) }
        }
        return try document(root, what: "the flow spec", streamed: streamed ? (states, stateProblem) : nil)
    }

    /// A spec from its JSON object: the file's, or one of its ``documents`` (a child flow, in the same
    /// format). `streamed` holds the top-level states when they were read as the file was parsed.
    private static func document(_ json: JSON, what: String,
                                 streamed: (states: [State], problem: FlowSpecError?)?) throws(FlowSpecError) -> FlowFile {
        var reader = Reader(json, what: what)
        try reader.only(["flowspec", "name", "semantics", "initial", "data", "states", "documents", "routes"])
        let version = try reader.number("flowspec")
        guard version == Double(FlowFile.version) else {
            throw FlowSpecError(code: .unsupportedVersion,
                                message: "flowspec version \(version.formatted) is not supported (this reader reads \(FlowFile.version))",
                                location: reader.location(of: "flowspec"))
        }
        let name = try reader.string("name")
        let initial = try reader.requiredStateNames("initial")
        let states: [State]
        if let streamed {
            if let problem = streamed.problem { throw problem }
            states = streamed.states
        } else {
            states = try reader.array("states").map(Self.state)
        }
        var spec = FlowFile(name: name, initial: "", states: states)
        spec.initialStates = initial == [""] ? [] : initial
        spec.location = json.location
        if let semantics = try reader.optionalString("semantics") {
            guard let value = Semantics(rawValue: semantics) else {
                throw FlowSpecError(code: .invalidValue,
                                    message: "'semantics' is '\(semantics)': use 'flowstate' or 'scxml'",
                                    location: reader.location(of: "semantics"))
            }
            spec.semantics = value
        }
        spec.data = try reader.strings("data")
        for field in try reader.optionalObject("documents") {
            spec.documents[field.key] = try document(field.value, what: "document '\(field.key)'", streamed: nil)
        }
        for item in try reader.optionalArray("routes") {
            var route = Reader(item, what: "a route")
            try route.only(["path", "state"])
            spec.routes.append(Route(path: try route.string("path"), state: try route.string("state"), location: item.location))
        }
        try spec.checkKeptSCXML()
        return spec
    }

    /// What SCXML kept in a JSON spec that a simulation does not run: its places (``dataElements``)
    /// and ``warnings``, as the SCXML reader records them. An eventless transition without a target is
    /// SCXML's only (`"semantics": "scxml"`), an error otherwise.
    private mutating func checkKeptSCXML() throws(FlowSpecError) {
        let place = location ?? FlowSourceLocation(file: name, line: 0, column: 0)
        for _ in data {
            dataElements.append(place)
            warnings.append(Self.notRun("the flow keeps SCXML data as text: not run (simulate runs SCXML's null data model)", at: place))
        }
        var pending = Array(states.reversed())
        while let state = pending.popLast() {
            let at = state.location ?? place
            for _ in state.data {
                dataElements.append(at)
                warnings.append(Self.notRun("state '\(state.name)' keeps SCXML as text (data or an invocation): not run", at: at))
            }
            for t in state.transitions where t.event == nil && t.target == nil && t.delay == nil {
                let at = t.location ?? at
                guard semantics == .scxml else {
                    throw FlowSpecError(code: .missingField,
                                        message: "a transition without an 'event' is taken as soon as its state is entered, so it needs a 'target'",
                                        location: at)
                }
                dataElements.append(at)
                warnings.append(Self.notRun("an eventless transition without a target needs a data model (it is taken again and again while its guard holds): drawn, not run", at: at))
            }
            pending += state.states.reversed()
        }
    }

    /// Reads a flow file of either format: SCXML when its name ends in `.scxml` or `.xml` or its first
    /// character (after white space and a byte-order mark) is `<`, else a JSON flow spec.
    /// - Parameters:
    ///   - bytes: The file's contents (UTF-8).
    ///   - file: The path, used to choose the format and in every error's location.
    /// - Throws: ``FlowSpecError`` naming the problem and its `file:line:column`.
    public static func read(_ bytes: [UInt8], file: String) throws(FlowSpecError) -> FlowFile {
        let lower = file.lowercased()
        let firstByte = bytes.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        let isXML = lower.hasSuffix(".scxml") || lower.hasSuffix(".xml") || firstByte == UInt8(ascii: "<")
        return isXML ? try parseSCXML(bytes, file: file) : try parse(bytes, file: file)
    }

    /// Reads a spec from text.
    public static func parse(_ text: String, file: String) throws(FlowSpecError) -> FlowFile {
        try parse(Array(text.utf8), file: file)
    }

    private static func state(_ json: JSON) throws(FlowSpecError) -> State {
        var reader = Reader(json, what: "a state")
        try reader.only(["name", "final", "parallel", "history", "output", "initial", "child", "childID", "outputs",
                         "entry", "exit", "data", "transitions", "states"])
        var state = State(name: try reader.string("name"))
        state.location = json.location
        state.isFinal = try reader.optionalBool("final") ?? false
        state.output = try reader.optionalString("output")
        state.initialStates = try reader.stateNames("initial")
        state.child = try reader.optionalString("child")
        state.childID = try reader.optionalString("childID")
        for field in try reader.optionalObject("outputs") {
            switch field.value.value {
            case .string(let event): state.childOutputs.append(ChildOutput(output: field.key, event: event))
            case .null: state.childOutputs.append(ChildOutput(output: field.key, event: nil))
            default:
                throw FlowSpecError(code: .wrongType,
                                    message: "output '\(field.key)' in 'outputs' must be an event name or null, not \(field.value.typeName)",
                                    location: field.value.location)
            }
        }
        state.isParallel = try reader.optionalBool("parallel") ?? false
        if state.isParallel, let initial = state.initial {
            // As SCXML says (and its reader refuses): a parallel state enters all its children.
            throw FlowSpecError(code: .invalidValue,
                                message: "parallel state '\(state.name)' names an initial child '\(initial)': a parallel state enters all its children",
                                location: reader.location(of: "initial"))
        }
        if let history = try reader.optionalString("history") {
            guard let kind = History(rawValue: history) else {
                throw FlowSpecError(code: .invalidValue, message: "'history' is '\(history)': use 'shallow' or 'deep'",
                                    location: reader.location(of: "history"))
            }
            state.history = kind
        }
        state.entry = try reader.strings("entry")
        state.exit = try reader.strings("exit")
        state.data = try reader.strings("data")
        state.transitions = try reader.optionalArray("transitions").map(Self.transition)
        state.states = try reader.optionalArray("states").map(Self.state)
        return state
    }

    private static func transition(_ json: JSON) throws(FlowSpecError) -> Transition {
        var reader = Reader(json, what: "a transition")
        try reader.only(["event", "after", "guard", "update", "target", "internal", "effects"])
        var transition = Transition(event: try reader.optionalString("event"), guardName: try reader.optionalString("guard"),
                                    targets: try reader.stateNames("target"), effects: try reader.strings("effects"),
                                    update: try reader.optionalString("update"))
        // Without an event nor a target: SCXML's only, checked when the semantics are known.
        transition.location = json.location
        transition.isInternal = try reader.optionalBool("internal") ?? false
        if let delay = try reader.optionalDelay("after") {
            let at = reader.location(of: "after")
            if transition.event != nil {
                throw FlowSpecError(code: .invalidValue,
                                    message: "a transition has an 'event' or an 'after' (a delay), not both",
                                    location: at)
            }
            if transition.targets.count > 1 {
                throw FlowSpecError(code: .invalidValue,
                                    message: "a delayed transition ('after') has one 'target' or none, not several",
                                    location: at)
            }
            if transition.isInternal {
                throw FlowSpecError(code: .invalidValue,
                                    message: "a delayed transition ('after') cannot be 'internal'", location: at)
            }
            transition.delay = delay
        }
        return transition
    }

    /// The spec as JSON text: two-space indentation, fields in a fixed order, empty fields left out.
    /// The same spec always gives the same bytes.
    /// Child flows held in ``documents`` are written inside it, under `"documents"`, by name.
    public func json() -> String { json(indent: "") + "\n" }

    /// The spec as a JSON object whose closing brace is indented by `indent`.
    private func json(indent: String) -> String {
        let field = indent + "  "
        var out = "{\n"
        out += "\(field)\"flowspec\": \(FlowFile.version),\n"
        out += "\(field)\"name\": \(Self.quote(name)),\n"
        if semantics != .flowstate { out += "\(field)\"semantics\": \(Self.quote(semantics.rawValue)),\n" }
        out += "\(field)\"initial\": \(Self.names(initialStates.isEmpty ? [""] : initialStates)),\n"
        if !data.isEmpty { out += "\(field)\"data\": [\(data.map(Self.quote).joined(separator: ", "))],\n" }
        out += "\(field)\"states\": " + Self.list(states.map { Self.write($0, indent: field) }, indent: field)
        if !documents.isEmpty {
            let inner = field + "  "
            let items = documents.sorted { $0.key < $1.key }.map { name, document in
                inner + Self.quote(name) + ": " + document.json(indent: inner)
            }
            out += ",\n\(field)\"documents\": {\n" + items.joined(separator: ",\n") + "\n\(field)}"
        }
        if !routes.isEmpty {
            let items = routes.map { "\(field)  {\"path\": \(Self.quote($0.path)), \"state\": \(Self.quote($0.state))}" }
            out += ",\n\(field)\"routes\": [\n" + items.joined(separator: ",\n") + "\n\(field)]"
        }
        return out + "\n\(indent)}"
    }

    /// A state object inside a list indented by `indent`.
    private static func write(_ state: State, indent: String) -> String {
        let open = indent + "  "  // the braces
        let inner = open + "  "  // the fields
        var fields = ["\(inner)\"name\": \(quote(state.name))"]
        if state.isFinal { fields.append("\(inner)\"final\": true") }
        if state.isParallel { fields.append("\(inner)\"parallel\": true") }
        if let history = state.history { fields.append("\(inner)\"history\": \(quote(history.rawValue))") }
        if let output = state.output { fields.append("\(inner)\"output\": \(quote(output))") }
        if !state.initialStates.isEmpty { fields.append("\(inner)\"initial\": \(names(state.initialStates))") }
        if let child = state.child { fields.append("\(inner)\"child\": \(quote(child))") }
        if let childID = state.childID { fields.append("\(inner)\"childID\": \(quote(childID))") }
        if !state.childOutputs.isEmpty {
            let pairs = state.childOutputs.map { "\(quote($0.output)): " + ($0.event.map(quote) ?? "null") }
            fields.append("\(inner)\"outputs\": { " + pairs.joined(separator: ", ") + " }")
        }
        if !state.entry.isEmpty { fields.append("\(inner)\"entry\": [\(state.entry.map(quote).joined(separator: ", "))]") }
        if !state.exit.isEmpty { fields.append("\(inner)\"exit\": [\(state.exit.map(quote).joined(separator: ", "))]") }
        if !state.data.isEmpty { fields.append("\(inner)\"data\": [\(state.data.map(quote).joined(separator: ", "))]") }
        if !state.transitions.isEmpty {
            let items = state.transitions.map { t -> String in
                var parts: [String] = []
                if let event = t.event { parts.append("\"event\": \(quote(event))") }
                if let delay = t.delay { parts.append("\"after\": \(quote(delayText(delay)))") }
                if let name = t.guardName { parts.append("\"guard\": \(quote(name))") }
                if let update = t.update { parts.append("\"update\": \(quote(update))") }
                if !t.targets.isEmpty { parts.append("\"target\": \(names(t.targets))") }
                if t.isInternal { parts.append("\"internal\": true") }
                if !t.effects.isEmpty { parts.append("\"effects\": [\(t.effects.map(quote).joined(separator: ", "))]") }
                return inner + "  { " + parts.joined(separator: ", ") + " }"  // one transition a line
            }
            fields.append("\(inner)\"transitions\": [\n" + items.joined(separator: ",\n") + "\n\(inner)]")
        }
        if !state.states.isEmpty {
            fields.append("\(inner)\"states\": " + list(state.states.map { write($0, indent: inner) }, indent: inner))
        }
        return open + "{\n" + fields.joined(separator: ",\n") + "\n" + open + "}"
    }

    /// One state name as a string, several as an array of strings (`"initial"` and `"target"`).
    private static func names(_ names: [String]) -> String {
        names.count == 1 ? quote(names[0]) : "[" + names.map(quote).joined(separator: ", ") + "]"
    }

    private static func list(_ items: [String], indent: String) -> String {
        items.isEmpty ? "[]" : "[\n" + items.joined(separator: ",\n") + "\n\(indent)]"
    }

    /// A JSON string literal (FlowDiagram's `jsonStringLiteral`, the one string-literal writer).
    static func quote(_ text: String) -> String { jsonStringLiteral(text) }
}

/// Reads the fields of one JSON object, reporting problems at their location.
struct Reader {
    let json: JSON
    let what: String
    let fields: [String: (keyLocation: FlowSourceLocation, value: JSON)]

    init(_ json: JSON, what: String) {
        self.json = json
        self.what = what
        var fields: [String: (keyLocation: FlowSourceLocation, value: JSON)] = [:]
        if case .object(let pairs) = json.value {
            for pair in pairs { fields[pair.key] = (pair.keyLocation, pair.value) }
        }
        self.fields = fields
    }

    func location(of key: String) -> FlowSourceLocation { fields[key]?.keyLocation ?? json.location }

    /// Refuses anything but an object with only the given fields.
    mutating func only(_ allowed: Set<String>) throws(FlowSpecError) {
        guard case .object(let pairs) = json.value else {
            throw FlowSpecError(code: .wrongType, message: "\(what) must be an object, not \(json.typeName)", location: json.location)
        }
        for pair in pairs where !allowed.contains(pair.key) {
            throw FlowSpecError(code: .unknownField,
                                message: "unknown field '\(pair.key)' in \(what) (allowed: \(allowed.sorted().joined(separator: ", ")))",
                                location: pair.keyLocation)
        }
    }

    private func wrong(_ key: String, _ expected: String, _ value: JSON) -> FlowSpecError {
        FlowSpecError(code: .wrongType, message: "'\(key)' in \(what) must be \(expected), not \(value.typeName)", location: value.location)
    }

    private func missing(_ key: String) -> FlowSpecError {
        FlowSpecError(code: .missingField, message: "\(what) needs a '\(key)' field", location: json.location)
    }

    func string(_ key: String) throws(FlowSpecError) -> String {
        guard let value = try optionalString(key) else { throw missing(key) }
        return value
    }

    func optionalString(_ key: String) throws(FlowSpecError) -> String? {
        guard let field = fields[key] else { return nil }
        guard case .string(let text) = field.value.value else { throw wrong(key, "a string", field.value) }
        return text
    }

    func optionalBool(_ key: String) throws(FlowSpecError) -> Bool? {
        guard let field = fields[key] else { return nil }
        guard case .bool(let flag) = field.value.value else { throw wrong(key, "true or false", field.value) }
        return flag
    }

    func number(_ key: String) throws(FlowSpecError) -> Double {
        guard let field = fields[key] else { throw missing(key) }
        guard case .number(let number) = field.value.value else { throw wrong(key, "a number", field.value) }
        return number
    }

    func array(_ key: String) throws(FlowSpecError) -> [JSON] {
        guard fields[key] != nil else { throw missing(key) }
        return try optionalArray(key)
    }

    func optionalArray(_ key: String) throws(FlowSpecError) -> [JSON] {
        guard let field = fields[key] else { return [] }
        guard case .array(let items) = field.value.value else { throw wrong(key, "an array", field.value) }
        return items
    }

    /// An optional object's fields, in the order written (missing: none).
    func optionalObject(_ key: String) throws(FlowSpecError) -> [(key: String, value: JSON)] {
        guard let field = fields[key] else { return [] }
        guard case .object(let pairs) = field.value.value else { throw wrong(key, "an object", field.value) }
        return pairs.map { ($0.key, $0.value) }
    }

    /// An optional delay (`"after"`): a string with a unit (`"30s"`, `"500ms"`, `"1.5s"`, `"5min"`,
    /// `"1h"`) or a number of seconds (`30`, `0.5`); missing: `nil`. Anything else is an error at the
    /// value. Whether it is positive is validation's question, as for a typed flow's `After`.
    func optionalDelay(_ key: String) throws(FlowSpecError) -> Duration? {
        guard let field = fields[key] else { return nil }
        let expected = "a delay: a number of seconds or a string such as \"30s\", \"500ms\", \"1.5s\" or \"5min\""
        switch field.value.value {
        case .string(let text):
            guard let delay = FlowFile.duration(parsing: Substring(text)) else {
                throw FlowSpecError(code: .invalidValue,
                                    message: "'\(key)' is '\(text)', not \(expected) (units: ms, s, min, h)",
                                    location: field.value.location)
            }
            return delay
        case .number(let seconds):
            guard seconds.isFinite, abs(seconds) < 1e12 else {
                throw FlowSpecError(code: .invalidValue, message: "'\(key)' is \(seconds.formatted) seconds: too long",
                                    location: field.value.location)
            }
            // Read from its shortest decimal text, exactly (0.1 is 100 milliseconds).
            return FlowFile.duration(parsing: Substring(seconds.formatted + "s")) ?? .seconds(seconds)
        default:
            throw wrong(key, expected, field.value)
        }
    }

    /// An optional array of non-negative integers (missing: empty).
    func optionalIntegers(_ key: String) throws(FlowSpecError) -> [Int] {
        var result: [Int] = []
        for item in try optionalArray(key) {
            guard case .number(let number) = item.value, number >= 0, number < 1e15, number == number.rounded() else {
                throw wrong(key, "an array of non-negative integers", item)
            }
            result.append(Int(number))
        }
        return result
    }

    /// State names: a string names one, an array of strings several (`"target": ["a", "b"]`), each
    /// non-empty; missing: none.
    func stateNames(_ key: String) throws(FlowSpecError) -> [String] {
        guard let field = fields[key] else { return [] }
        switch field.value.value {
        case .string(let name): return [name]
        case .array(let items):
            var names: [String] = []
            for item in items {
                guard case .string(let name) = item.value, !name.isEmpty else {
                    throw wrong(key, "a state name or an array of state names", item)
                }
                names.append(name)
            }
            guard !names.isEmpty else {
                throw FlowSpecError(code: .invalidValue, message: "'\(key)' is an empty array: name at least one state",
                                    location: field.value.location)
            }
            return names
        default: throw wrong(key, "a state name or an array of state names", field.value)
        }
    }

    /// ``stateNames(_:)`` of a field that must be there.
    func requiredStateNames(_ key: String) throws(FlowSpecError) -> [String] {
        guard fields[key] != nil else { throw missing(key) }
        return try stateNames(key)
    }

    func strings(_ key: String) throws(FlowSpecError) -> [String] {
        var result: [String] = []
        for item in try optionalArray(key) {
            guard case .string(let text) = item.value else { throw wrong(key, "an array of strings", item) }
            result.append(text)
        }
        return result
    }
}

private extension Double {
    var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
