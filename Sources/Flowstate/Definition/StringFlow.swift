/// The one flow of string labels: states, effects and outputs are names, events are names with
/// guard truths (``SpecEvent``). Flows read from files (the FlowSpec module) are of this type, and
/// so are flows built at run time from names (`FlowTesting`'s `FlowBlueprint`); string literals
/// write its events (`On("next", to: "b")`, `send("next")`).
public enum StringFlow: Flow {
    /// States are names.
    public typealias State = String
    /// Events are names with guard truths.
    public typealias Event = SpecEvent
    /// Effects are labels.
    public typealias Effect = String
    /// Outputs are labels.
    public typealias Output = String
}

/// An event of a ``StringFlow``: a name, and the truth of the guards this one step needs.
///
/// Flows read from files have no code behind their guards, so each step says which guards hold:
/// `submit[valid email, !locked]` is the event `submit` with `valid email` true and `locked` false.
/// A guard a step does not mention takes the definition's default (true unless given). `flowviz
/// paths` prints steps in this form and `flowviz simulate` reads them.
///
/// An event is its own kind: a transition declared for `"submit"` matches every `submit` step,
/// whatever its guard truths (``kind`` drops them). Flows whose guards are code ignore the truths.
/// The FlowSpec module names this type `FlowSpec.SpecEvent` too.
public struct SpecEvent: FlowEvent, Hashable, Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The event's name, which transitions match.
    public var name: String
    /// Guard truths for this step, by guard name.
    public var guards: [String: Bool]
    /// Under SCXML semantics, the class of names the event belongs to (FlowSpec's `EventClasses`),
    /// set by FlowSpec's interpreter before the engine sees the event; `nil`: the name itself.
    package var matchKind: String?

    /// Creates an event.
    public init(_ name: String, guards: [String: Bool] = [:]) {
        self.name = name
        self.guards = guards
    }

    /// An event without guard truths.
    public init(stringLiteral name: String) { self.init(name) }

    /// An event without guard truths, its name interpolated (`"s\(i)"`).
    public init(stringInterpolation: DefaultStringInterpolation) { self.init(String(stringInterpolation: stringInterpolation)) }

    /// Events are dispatched by name, without guard truths (under SCXML semantics, by the most
    /// specific event descriptor of the file that matches the name).
    public var kind: SpecEvent { guards.isEmpty && matchKind == nil ? self : SpecEvent(matchKind ?? name) }

    /// Events are equal when their names and guard truths are.
    public static func == (lhs: SpecEvent, rhs: SpecEvent) -> Bool { lhs.name == rhs.name && lhs.guards == rhs.guards }

    /// Hashes the name and guard truths.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(guards)
    }

    /// `name`, or `name[g, !h]` with the guards sorted by name.
    public var description: String {
        guard !guards.isEmpty else { return name }
        let list = guards.sorted { $0.key < $1.key }.map { $0.value ? $0.key : "!" + $0.key }
        return "\(name)[\(list.joined(separator: ", "))]"
    }

    /// Reads one step written as ``description`` writes it; `nil` if the brackets do not match or the
    /// name is empty.
    public init?(parsing token: Substring) {
        let text = token.trimmingSpaces
        guard let open = text.firstIndex(of: "[") else {
            guard !text.isEmpty, !text.contains("]") else { return nil }
            self.init(String(text))
            return
        }
        guard text.last == "]", text.filter({ $0 == "[" }).count == 1, text.filter({ $0 == "]" }).count == 1 else {
            return nil
        }
        let name = text[..<open].trimmingSpaces
        guard !name.isEmpty else { return nil }
        var guards: [String: Bool] = [:]
        for part in text[text.index(after: open)..<text.index(before: text.endIndex)].split(separator: ",") {
            var item = part.trimmingSpaces
            var value = true
            if item.first == "!" {
                value = false
                item = item.dropFirst().trimmingSpaces
            }
            guard !item.isEmpty else { return nil }
            guards[String(item)] = value
        }
        self.init(String(name), guards: guards)
    }

    /// Reads a comma-separated list of steps (`open, submit[valid], close`); commas inside brackets
    /// separate guards. Returns the index of the first bad step on failure.
    public static func list(_ text: String) -> Result<[SpecEvent], ListError> {
        var events: [SpecEvent] = []
        var depth = 0
        var start = text.startIndex
        var position = 1
        func take(_ end: String.Index) -> ListError? {
            let token = text[start..<end]
            guard let event = SpecEvent(parsing: token) else { return ListError(position: position, token: String(token)) }
            events.append(event)
            position += 1
            return nil
        }
        for i in text.indices {
            switch text[i] {
            case "[": depth += 1
            case "]": depth -= 1
            case "," where depth == 0:
                if let error = take(i) { return .failure(error) }
                start = text.index(after: i)
            default: break
            }
        }
        if let error = take(text.endIndex) { return .failure(error) }
        return .success(events)
    }

    /// A step of a list that could not be read.
    ///
    /// It has the one shape of the package's errors: a ``code`` to match on, and read-only fields.
    public struct ListError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong, as a value to match on. The set of codes can grow.
        public struct Code: Hashable, Sendable, CustomStringConvertible {
            private enum Backing: String, Hashable, Sendable {
                case malformedEvent = "malformed-event"
                case invalidStep = "invalid-step"
            }

            private let backing: Backing
            private init(_ backing: Backing) { self.backing = backing }

            /// The step is not an event name optionally followed by `[guard, !guard]`.
            public static let malformedEvent = Code(.malformedEvent)
            /// The step reads, but cannot be taken as written (``ListError/reason`` says why: a `wait`
            /// without a duration, for example).
            public static let invalidStep = Code(.invalidStep)

            /// The code's stable name, kebab-case (`malformed-event`).
            public var description: String { backing.rawValue }
        }

        /// What went wrong.
        public var code: Code { reason == nil ? .malformedEvent : .invalidStep }
        /// The step's position in the list, from 1.
        public let position: Int
        /// The text of the step.
        public let token: String
        /// What is wrong with it, when the step is not simply malformed (a `wait` without a duration).
        public let reason: String?

        /// A step that could not be read.
        public init(position: Int, token: String, reason: String? = nil) {
            self.position = position
            self.token = token
            self.reason = reason
        }

        /// What is wrong, in one sentence.
        public var message: String {
            if let reason { return "step \(position) '\(token)': \(reason)" }
            return "event \(position) '\(token)' is not an event name optionally followed by [guard, !guard]"
        }

        /// The ``message``.
        public var description: String { message }
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace.
    package var trimmingSpaces: Substring {
        let scalars = Substring(self)
        guard let first = scalars.firstIndex(where: { !$0.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.isWhitespace }) else { return scalars[scalars.endIndex...] }
        return scalars[first...last]
    }
}
