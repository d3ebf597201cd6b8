import Flowstate

/// Turns values and event sequences into Swift source that a test can paste: the printer behind
/// ``FlowCounterexample/swiftCode(definition:event:)``.
///
/// Values are read through `Mirror` and written as expressions whose type the context gives: an enum
/// case as `.submitEmail("a@b.c")` (labels kept: `.picked(photo: "cat")`), a struct as
/// `.init(kind: 1, payload: 2)`, strings quoted and escaped, optionals as `nil` or their value, arrays
/// and dictionaries as literals. A payload-free case prints its `description` after a dot: when an
/// enum's `description` is not its case name, pass your own printer (`event:` below).
public enum FlowSwiftCode {
    /// A Swift expression that rebuilds `value` where the context gives its type (an argument of
    /// `machine.send(_:)`, for example). The value is walked on an explicit stack: deep values do not
    /// exhaust the call stack.
    public static func expression(_ value: Any) -> String {
        enum Item {
            case value(Any)
            case text(String)
        }
        var output = ""
        var stack: [Item] = [.value(value)]
        func push(_ elements: [(label: String?, value: Any)], open: String, close: String) {
            stack.append(.text(close))
            for (i, element) in elements.enumerated().reversed() {
                stack.append(.value(element.value))
                if let label = element.label, !label.hasPrefix(".") { stack.append(.text("\(label): ")) }
                if i > 0 { stack.append(.text(", ")) }
            }
            stack.append(.text(open))
        }
        while let item = stack.popLast() {
            switch item {
            case .text(let text):
                output += text
            case .value(let value):
                if let literal = literal(value) {
                    output += literal
                    continue
                }
                let mirror = Mirror(reflecting: value)
                let children = mirror.children.map { (label: $0.label, value: $0.value) }
                switch mirror.displayStyle {
                case .enum?:
                    guard let payload = children.first else {
                        output += "." + String(describing: value)
                        continue
                    }
                    let name = payload.label ?? String(describing: value)
                    let inner = Mirror(reflecting: payload.value)
                    if inner.displayStyle == .tuple {
                        push(inner.children.map { (label: $0.label, value: $0.value) }, open: ".\(name)(", close: ")")
                    } else {
                        push([(label: nil, value: payload.value)], open: ".\(name)(", close: ")")
                    }
                case .struct?:
                    push(children, open: ".init(", close: ")")
                case .tuple?:
                    push(children, open: "(", close: ")")
                case .optional?:
                    if let wrapped = children.first { stack.append(.value(wrapped.value)) } else { output += "nil" }
                case .collection?, .set?:
                    push(children.map { (label: nil, value: $0.value) }, open: "[", close: "]")
                case .dictionary?:
                    if children.isEmpty {
                        output += "[:]"
                        continue
                    }
                    stack.append(.text("]"))
                    for (i, pair) in children.enumerated().reversed() {
                        let parts = Mirror(reflecting: pair.value).children.map(\.value)
                        guard parts.count == 2 else { continue }
                        stack.append(.value(parts[1]))
                        stack.append(.text(": "))
                        stack.append(.value(parts[0]))
                        if i > 0 { stack.append(.text(", ")) }
                    }
                    stack.append(.text("["))
                default:
                    output += String(describing: value)
                }
            }
        }
        return output
    }

    private static func literal(_ value: Any) -> String? {
        switch value {
        case let string as String: String(reflecting: string)
        case let character as Character: String(reflecting: character)
        case let substring as Substring: String(reflecting: String(substring))
        case let bool as Bool: bool ? "true" : "false"
        case let integer as any BinaryInteger: "\(integer)"
        case let number as Double: number.isFinite ? "\(number)" : nil
        case let number as Float: number.isFinite ? "\(number)" : nil
        default: nil
        }
    }

    /// The statements that start a machine and send `events`, one line each, as a regression test
    /// holds them:
    ///
    /// ```swift
    /// var machine = try FlowMachine(definition)
    /// _ = try machine.start()
    /// _ = try machine.send(.submitEmail("a"))
    /// ```
    ///
    /// - Parameters:
    ///   - events: The events, in order.
    ///   - definition: The Swift expression of the definition, for example `SignUp.definition`.
    ///   - throwing: Positions in `events` (from 0) whose send throws (an unhandled event under
    ///     `UnhandledEventPolicy.fail`): they are written `_ = try? machine.send(...)`.
    ///   - event: Prints an event as an expression; ``expression(_:)`` by default.
    public static func replay<Event>(_ events: [Event], definition: String = "definition",
                                     throwing: Set<Int> = [],
                                     event: (Event) -> String = { expression($0) }) -> String {
        var lines = ["var machine = try FlowMachine(\(definition))", "_ = try machine.start()"]
        for (i, value) in events.enumerated() {
            let code = event(value)
            lines.append(throwing.contains(i)
                ? "_ = try? machine.send(\(code))  // throws: unhandled event"
                : "_ = try machine.send(\(code))")
        }
        return lines.joined(separator: "\n")
    }
}
