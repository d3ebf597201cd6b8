import Flowstate

/// SCXML's event descriptors (a transition's `event` attribute) and how they match event names: the
/// one home of dotted-prefix matching, which the definition's event classes (``EventClasses``), the
/// path finder (``FlowFilePathfinder``), the delayed-transition idiom and ``FlowFile`` use.
///
/// A descriptor matches a name when it is one of the name's token prefixes (`error` matches `error`
/// and `error.send`, not `errors`); `*` matches every name. `error.*` and `error.` are written forms
/// of `error`.
enum EventDescriptor {
    /// A transition's descriptors, normalized: `error.*` and `error.` are `error`; `*` stays.
    static func descriptors(_ event: String) -> [Substring] {
        event.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map { d -> Substring in
            var d = d
            if d.hasSuffix(".*") { d = d.dropLast(2) }
            while d.hasSuffix(".") { d = d.dropLast() }
            return d
        }
    }

    /// A name's token prefixes, longest first, the name itself included (`a.b.c`, `a.b`, `a`): the
    /// descriptors (other than `*`) that match it.
    static func prefixes(of name: Substring) -> [Substring] {
        var result: [Substring] = []
        _ = longestPrefix(of: name) { prefix in
            result.append(prefix)
            return false
        }
        return result
    }

    /// The longest of a name's token prefixes (the name itself first) that passes `test`, without
    /// allocating: what an event's class is (the longest descriptor that matches it).
    static func longestPrefix(of name: Substring, where test: (Substring) -> Bool) -> Substring? {
        var rest = name
        while true {
            if !rest.isEmpty, test(rest) { return rest }
            guard let dot = rest.lastIndex(of: ".") else { return nil }
            rest = rest[..<dot]
        }
    }

    /// Whether one normalized descriptor matches an event name.
    static func matches(_ descriptor: Substring, name: String) -> Bool {
        descriptor == "*" || longestPrefix(of: Substring(name)) { $0 == descriptor } != nil
    }

    /// Whether any of a transition's descriptors (its `event` attribute) matches an event name.
    static func matches(event: String, name: String) -> Bool {
        descriptors(event).contains { matches($0, name: name) }
    }
}
