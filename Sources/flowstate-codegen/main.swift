// The tool the FlowCodegen build-tool plugin runs: `flowstate-codegen INPUT OUTPUT [TYPE]` writes the
// typed Swift flow of one flow file (JSON flow spec or SCXML). It depends on FlowSpec alone (no
// Graphviz), so an app that uses the plugin builds nothing else. Problems are printed one a line as
// `file:line:column: error: message`, which build systems show at the file's line; the exit status
// is then 1.
import FlowSpec
import Foundation

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2 || arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: flowstate-codegen INPUT OUTPUT [TYPE]\n".utf8))
    exit(64)
}
let input = arguments[arguments.startIndex]
let output = arguments[arguments.startIndex + 1]
let typeName = arguments.count == 3 ? arguments[arguments.startIndex + 2] : nil

func fail(_ line: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((line + "\n").utf8))
    exit(status)
}

guard let data = FileManager.default.contents(atPath: input) else {
    fail("\(input): error: cannot read the flow file", status: 2)
}
do {
    let spec = try FlowFile.read(Array(data), file: input)
    let source = try spec.swiftSource(typeName: typeName, isPublic: true, file: input)
    do {
        try Data(source.utf8).write(to: URL(fileURLWithPath: output))
    } catch {
        fail("\(output): error: cannot write: \(error.localizedDescription)", status: 1)
    }
} catch let error as FlowSpecError {
    fail(error.description, status: 2)
} catch let error as FlowFile.SwiftGenerationError {
    fail(error.description, status: 1)
} catch {
    fail("\(input): error: \(error)", status: 1)
}
