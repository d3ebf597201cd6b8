import FlowstateMacrosPlugin
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros under test, with the conformances the `@FlowEvent` declaration names.
let macroSpecs: [String: MacroSpec] = [
    "FlowEvent": MacroSpec(type: FlowEventMacro.self, conformances: ["FlowEvent", "CustomStringConvertible"]),
    "Sensitive": MacroSpec(type: SensitiveMacro.self),
]

/// swift-syntax's `assertMacroExpansion`, reporting through Swift Testing.
func assertExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    assertMacroExpansion(
        source,
        expandedSource: expandedSource,
        diagnostics: diagnostics,
        macroSpecs: macroSpecs,
        failureHandler: { failure in
            Issue.record(
                Comment(rawValue: failure.message),
                sourceLocation: SourceLocation(
                    fileID: String(describing: failure.location.fileID),
                    filePath: String(describing: failure.location.filePath),
                    line: Int(failure.location.line),
                    column: Int(failure.location.column)
                )
            )
        },
        fileID: fileID,
        filePath: filePath,
        line: line,
        column: column
    )
}

/// An error the macros report at `line`:`column` of the original source.
func error(_ message: String, line: Int, column: Int) -> DiagnosticSpec {
    DiagnosticSpec(message: message, line: line, column: column, severity: .error)
}
