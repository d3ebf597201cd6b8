import FlowGraph
import FlowSpec

/// libFuzzer's entry point: any bytes given to the JSON flow spec reader. Reading must never crash;
/// what it reads must write back to text that reads to the same spec, and validate without crashing.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let spec = try? FlowFile.parse(bytes, file: "fuzz.json") else { return 0 }
    let text = spec.json()
    guard let back = try? FlowFile.parse(text, file: "fuzz.json") else { fatalError("the writer's output does not read back:\n\(text)") }
    // Compared byte for byte (String's == holds for canonically equivalent text); fatalError, not
    // precondition: an optimized build prints its message.
    if !back.json().utf8.elementsEqual(text.utf8) { fatalError("the round trip changed the spec:\n\(text)\n---- read back:\n\(back.json())") }
    _ = spec.definition().validate()
    _ = FlowDiagram(spec)
    return 0
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
