import FlowGraph
import Flowstate

extension FlowTrace {
    /// The trace as JSON (`{"flowtrace": 1, "steps": [{"from", "event", "to", "transitions", "effects"}]}`,
    /// `effects` only when the step recorded them), what
    /// `flowviz simulate --trace-out` writes and `flowviz render --trace` reads.
    public func json() -> String {
        let items = steps.map { step -> String in
            var parts: [String] = []
            if let from = step.from { parts.append("\"from\": \(FlowFile.quote(from))") }
            if let event = step.event { parts.append("\"event\": \(FlowFile.quote(event))") }
            parts.append("\"to\": \(FlowFile.quote(step.to))")
            if !step.transitions.isEmpty {
                parts.append("\"transitions\": [" + step.transitions.map(String.init).joined(separator: ", ") + "]")
            }
            if let effects = step.effects {
                parts.append("\"effects\": [" + effects.map(FlowFile.quote).joined(separator: ", ") + "]")
            }
            return "    { " + parts.joined(separator: ", ") + " }"
        }
        let list = items.isEmpty ? "[]" : "[\n" + items.joined(separator: ",\n") + "\n  ]"
        return "{\n  \"flowtrace\": 1,\n  \"steps\": \(list)\n}\n"
    }

    /// Reads a trace written by ``json()``.
    /// - Throws: ``FlowSpecError`` with the `file:line:column` of the problem.
    public static func parse(_ bytes: [UInt8], file: String) throws(FlowSpecError) -> FlowTrace {
        let root = try JSONParser.parse(bytes, file: file)
        var reader = Reader(root, what: "the trace")
        try reader.only(["flowtrace", "steps"])
        guard try reader.number("flowtrace") == 1 else {
            throw FlowSpecError(code: .unsupportedVersion, message: "flowtrace version is not 1",
                                location: reader.location(of: "flowtrace"))
        }
        var steps: [Step] = []
        for item in try reader.array("steps") {
            var step = Reader(item, what: "a step")
            try step.only(["from", "event", "to", "transitions", "effects"])
            steps.append(Step(from: try step.optionalString("from"), to: try step.string("to"),
                              event: try step.optionalString("event"),
                              transitions: try step.optionalIntegers("transitions"),
                              effects: step.fields["effects"] == nil ? nil : try step.strings("effects")))
        }
        return FlowTrace(steps: steps)
    }
}
