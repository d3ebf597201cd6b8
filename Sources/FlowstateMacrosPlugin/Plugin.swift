import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that expands `@FlowEvent` and `@Sensitive` (declared in `FlowstateMacros`).
@main
struct FlowstateMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [FlowEventMacro.self, SensitiveMacro.self]
}
