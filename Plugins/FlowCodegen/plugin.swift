import Foundation
import PackagePlugin

/// Turns every `.scxml` and `.flowspec.json` file of a target into a typed Swift flow at build time,
/// as `qscxmlc` does for Qt and swift-protobuf's plugin for `.proto` files: `sign-up.flowspec.json`
/// becomes `SignUp` (the flow's name in UpperCamelCase) in `sign-up.swift`, regenerated whenever the
/// file changes. A problem (a parallel state, two names that become one Swift name) fails the build
/// with the file's line.
@main
struct FlowCodegen: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let tool = try context.tool(named: "flowstate-codegen")
        return target.sourceFiles.compactMap { file -> Command? in
            let name = file.url.lastPathComponent
            let stem: String
            if name.hasSuffix(".flowspec.json") {
                stem = String(name.dropLast(".flowspec.json".count))
            } else if name.hasSuffix(".scxml") {
                stem = String(name.dropLast(".scxml".count))
            } else {
                return nil
            }
            let output = context.pluginWorkDirectoryURL.appending(path: stem + ".swift")
            return .buildCommand(
                displayName: "Generating the typed flow of \(name)",
                executable: tool.url,
                arguments: [file.url.path, output.path],
                inputFiles: [file.url],
                outputFiles: [output]
            )
        }
    }
}
