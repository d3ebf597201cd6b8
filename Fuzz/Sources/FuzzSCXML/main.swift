import FlowGraph
import FlowSpec

/// libFuzzer's entry point: any bytes given to the SCXML reader. Reading must never crash; what it
/// reads must write back to SCXML that reads to the same spec (``everything(_:)``: its JSON, the
/// executable content, the warnings), writing that again must give the same bytes, its JSON must
/// read back to the same JSON, and the spec must validate without crashing.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let spec = try? FlowFile.parseSCXML(bytes, file: "fuzz.scxml") else { return 0 }
    let text = spec.scxml()
    guard let back = try? FlowFile.parseSCXML(text, file: "fuzz.scxml") else { fatalError("the writer's output does not read back:\n\(text)") }
    let (before, after) = (everything(spec), everything(back))
    // Compared byte for byte (String's == holds for canonically equivalent text); fatalError, not
    // precondition: an optimized build prints its message.
    if !after.utf8.elementsEqual(before.utf8) { fatalError("the round trip changed the spec:\n\(before)\n---- read back:\n\(after)\n---- written:\n\(text)") }
    if !back.scxml().utf8.elementsEqual(text.utf8) { fatalError("writing the spec read back gives other bytes:\n\(text)") }
    // The same spec as a JSON flow spec reads back to the same JSON.
    let json = spec.json()
    guard let fromJSON = try? FlowFile.parse(json, file: "fuzz.json") else { fatalError("the spec's JSON does not read back:\n\(json)") }
    if !fromJSON.json().utf8.elementsEqual(json.utf8) { fatalError("the JSON round trip changed the spec:\n\(json)") }
    _ = spec.definition().validate()
    _ = FlowDiagram(spec)
    return 0
}

/// Everything a spec read from SCXML holds, as text, without the places things were read from (a
/// written document puts elements elsewhere): its JSON, what the JSON does not hold (each state's
/// executable content and `autoforward`, the number of places that declare data; the same for each
/// inline document, by name), and its warnings' messages, sorted. The tests' `everything` in
/// `SCXMLOutsideWorldTests` compares the same.
func everything(_ spec: FlowFile) -> String {
    func blocks(_ list: [FlowFile.Executable]) -> String {
        list.map { "{\($0)}" }.joined(separator: " ")
    }
    var out = spec.json()
    // Inline documents hold their own inline documents: a worklist, not recursion.
    var pending: [(name: String, spec: FlowFile)] = [("", spec)]
    while let (name, document) = pending.popLast() {
        out += "document '\(name)' data=\(document.dataElements.count)\n"
        for state in document.statesInDocumentOrder {
            out += "state \(state.name) autoforward=\(state.autoforward) entry \(blocks(state.onEntry)) exit \(blocks(state.onExit))\n"
            for t in state.transitions { out += "  on \(t.event ?? "-") " + (t.content.map { blocks([$0]) } ?? "no content") + "\n" }
        }
        pending += document.documents.sorted { $0.key > $1.key }.map { (name + "/" + $0.key, $0.value) }
    }
    return out + spec.warnings.map { "warning: \($0.message)\n" }.sorted().joined()
}

// SwiftPM makes this file's top-level code the program's `main`, so libFuzzer is started from here
// through its documented driver entry point, rather than from libFuzzer's own `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzer(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
let status = runFuzzer(&argc, &argv) { data, size in fuzz(data, size) }
guard status == 0 else { fatalError("libFuzzer stopped with status \(status)") }
