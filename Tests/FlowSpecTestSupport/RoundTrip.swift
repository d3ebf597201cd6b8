import FlowSpec
import Testing

/// Everything a spec read from SCXML holds, as text, without the places things were read from (a
/// written document puts them elsewhere), each inline child document in place.
public func canonical(_ spec: FlowFile) -> String {
    func blocks(_ list: [FlowFile.Executable]) -> String {
        list.map { "{\($0)}" }.joined(separator: " ")
    }
    var out = "scxml \(spec.name) \(spec.semantics) initial=\(spec.initial) data=\(spec.dataElements.count)\n"
    func write(_ state: FlowFile.State, _ indent: String) {
        out += "\(indent)state \(state.name) final=\(state.isFinal) parallel=\(state.isParallel) output=\(state.output ?? "-")"
            + " initial=\(state.initial ?? "-") id=\(state.childID ?? "-") autoforward=\(state.autoforward)\n"
        out += "\(indent)  entry \(state.entry) \(blocks(state.onEntry))\n"
        out += "\(indent)  exit \(state.exit) \(blocks(state.onExit))\n"
        if let child = state.child {
            out += "\(indent)  invokes \(child)\n"
            if let document = spec.documents[child] {
                out += canonical(document).split(separator: "\n").map { "\(indent)  | \($0)\n" }.joined()
            }
        }
        for t in state.transitions {
            out += "\(indent)  on \(t.event ?? "-") [\(t.guardName ?? "-")] -> \(t.target ?? "-") \(t.effects) "
                + (t.content.map { blocks([$0]) } ?? "no content") + "\n"
        }
        for child in state.states { write(child, indent + "  ") }
    }
    for state in spec.states { write(state, "") }
    return out
}


/// Everything a spec read from SCXML holds (``canonical(_:)``, its JSON with the SCXML kept as text,
/// its warnings without their places, sorted: a written document puts elements in an order of its
/// own), to compare a spec with the one its written document reads to.
public func everything(_ spec: FlowFile) -> String {
    canonical(spec) + spec.json() + spec.warnings.map { "warning: \($0.message)\n" }.sorted().joined()
}

/// Reads a document, writes it, reads what was written: the two specs must be the same, and
/// writing the second must give the same bytes. Returns the first spec and what was written.
@discardableResult
public func expectRoundTrip(_ bytes: [UInt8], file: String, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> (spec: FlowFile, written: String)
{
    let first = try FlowFile.parseSCXML(bytes, file: file)
    let written = first.scxml()
    let second = try FlowFile.parseSCXML(written, file: file)
    // Byte for byte: String's == holds for canonically equivalent text.
    #expect(everything(second).utf8.elementsEqual(everything(first).utf8), "written:\n\(written)", sourceLocation: sourceLocation)
    #expect(second.scxml().utf8.elementsEqual(written.utf8), "writing is stable", sourceLocation: sourceLocation)
    return (first, written)
}
