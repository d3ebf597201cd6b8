import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@FlowEvent`: derives `Kind`, `kind` and `description` of a payload enum, and its conformances to
/// `FlowEvent` and `CustomStringConvertible`.
///
/// The member role checks the enum and reports every misuse; the extension role adds the
/// conformances only when the enum passed those checks, so each problem is reported once.
public enum FlowEventMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let analysis = EventEnumAnalysis(attribute: node, declaration: declaration)
        for diagnostic in analysis.diagnostics { context.diagnose(diagnostic) }
        guard let event = analysis.event else { return [] }
        return event.members()
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard !protocols.isEmpty, EventEnumAnalysis(attribute: node, declaration: declaration).event != nil else {
            return []
        }
        let list = protocols.map(\.trimmedDescription).joined(separator: ", ")
        return [try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: list) {}")]
    }
}

/// `@Sensitive`: marks a case, or some of its parameters, whose payload `@FlowEvent`'s description
/// redacts. It generates nothing itself: `@FlowEvent` reads it. It checks only where it is written;
/// its arguments are checked by `@FlowEvent`, which knows the case's parameters.
public enum SensitiveMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard declaration.is(EnumCaseDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: FlowstateMacroMessage.sensitiveNotOnCase))
            return []
        }
        let enclosing = context.lexicalContext.first?.as(EnumDeclSyntax.self)
        guard let enclosing, enclosing.attributes.contains(where: { isAttribute($0, named: "FlowEvent") }) else {
            context.diagnose(Diagnostic(node: node, message: FlowstateMacroMessage.sensitiveOutsideFlowEvent))
            return []
        }
        return []
    }
}

/// Whether `element` is the attribute `@name` (or `@FlowstateMacros.name`).
func isAttribute(_ element: AttributeListSyntax.Element, named name: String) -> Bool {
    guard case .attribute(let attribute) = element else { return false }
    let written = attribute.attributeName.trimmedDescription
    return written == name || written == "FlowstateMacros.\(name)"
}

/// The macros' diagnostics.
enum FlowstateMacroMessage: DiagnosticMessage {
    case notAnEnum(kind: String)
    case noCases
    case derivedMemberDeclared(name: String)
    case duplicateCaseName(name: String)
    case casesInIfConfig
    case caseNamedLikeMember(name: String)
    case sensitiveWithoutPayload(caseName: String)
    case sensitiveUnknownLabel(label: String, caseName: String)
    case sensitivePositionOutOfRange(position: Int, caseName: String, count: Int)
    case sensitiveBadArgument
    case sensitiveWithOwnDescription
    case sensitiveNotOnCase
    case sensitiveOutsideFlowEvent

    var message: String {
        switch self {
        case .notAnEnum(let kind):
            "'@FlowEvent' can only be applied to an enum, not to a \(kind)"
        case .noCases:
            "'@FlowEvent' needs an enum with at least one case"
        case .derivedMemberDeclared(let name):
            "'\(name)' is derived by '@FlowEvent'; remove this declaration or remove '@FlowEvent'"
        case .duplicateCaseName(let name):
            "another case is already named '\(name)'; '@FlowEvent' needs distinct case names to name their kinds"
        case .casesInIfConfig:
            "'@FlowEvent' cannot derive kinds for cases declared inside '#if'; declare every case unconditionally"
        case .caseNamedLikeMember(let name):
            "a case named '\(name)' would collide with the member '@FlowEvent' derives; rename the case"
        case .sensitiveWithoutPayload(let caseName):
            "'@Sensitive' on case '\(caseName)', which has no payload to redact"
        case .sensitiveUnknownLabel(let label, let caseName):
            "case '\(caseName)' has no parameter labelled '\(label)'"
        case .sensitivePositionOutOfRange(let position, let caseName, let count):
            "case '\(caseName)' has no parameter at position \(position) (it has \(count), counted from 0)"
        case .sensitiveBadArgument:
            "'@Sensitive' takes parameter labels as string literals or positions as integer literals"
        case .sensitiveWithOwnDescription:
            "'@Sensitive' has no effect: this enum declares its own 'description', which '@FlowEvent' keeps"
        case .sensitiveNotOnCase:
            "'@Sensitive' can only be applied to an enum case"
        case .sensitiveOutsideFlowEvent:
            "'@Sensitive' only has an effect on a case of an enum marked '@FlowEvent'"
        }
    }

    var diagnosticID: MessageID {
        let name: String =
            switch self {
            case .notAnEnum: "notAnEnum"
            case .noCases: "noCases"
            case .derivedMemberDeclared: "derivedMemberDeclared"
            case .duplicateCaseName: "duplicateCaseName"
            case .casesInIfConfig: "casesInIfConfig"
            case .caseNamedLikeMember: "caseNamedLikeMember"
            case .sensitiveWithoutPayload: "sensitiveWithoutPayload"
            case .sensitiveUnknownLabel: "sensitiveUnknownLabel"
            case .sensitivePositionOutOfRange: "sensitivePositionOutOfRange"
            case .sensitiveBadArgument: "sensitiveBadArgument"
            case .sensitiveWithOwnDescription: "sensitiveWithOwnDescription"
            case .sensitiveNotOnCase: "sensitiveNotOnCase"
            case .sensitiveOutsideFlowEvent: "sensitiveOutsideFlowEvent"
            }
        return MessageID(domain: "FlowstateMacros", id: name)
    }

    var severity: DiagnosticSeverity { .error }
}
