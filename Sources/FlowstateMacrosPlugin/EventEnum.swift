import SwiftDiagnostics
import SwiftSyntax

/// A payload enum `@FlowEvent` can expand: its cases, which payloads are sensitive, its access level.
struct EventEnum {
    struct Parameter {
        /// The label as written (without backticks), or nil.
        var label: String?
        var sensitive: Bool
    }

    struct Case {
        /// The name as written, backticks included, for declarations and patterns.
        var name: String
        /// The name without backticks, for descriptions.
        var plainName: String
        /// The payload's parameters, or nil for a case without payload.
        var parameters: [Parameter]?
    }

    var cases: [Case]
    /// `public ` or `package ` (with the space), or nothing: the access of the derived members.
    var access: String
    /// Whether the enum declares its own `description`, which the macro then keeps.
    var declaresDescription: Bool

    /// `Kind`, `kind` and, unless the enum has its own, `description`.
    func members() -> [DeclSyntax] {
        let inlinable = access == "public " ? "@inlinable " : ""
        let kindCases = cases.map(\.name).joined(separator: ", ")
        var members: [DeclSyntax] = [
            """
            /// The payload-free kinds of this event, one per case, that transitions are declared on.
            \(raw: access)enum Kind: Swift.String, Swift.Hashable, Swift.Sendable, Swift.CaseIterable, Swift.CustomStringConvertible {
                case \(raw: kindCases)
                \(raw: access)var description: Swift.String {
                    rawValue
                }
            }
            """,
            """
            /// The case of this event, without its payload.
            \(raw: inlinable)\(raw: access)var kind: Kind {
                switch self {
            \(raw: cases.map { "    case .\($0.name): .\($0.name)" }.joined(separator: "\n"))
                }
            }
            """,
        ]
        if !declaresDescription {
            members.append(
                """
                /// The case and its payload; sensitive payloads are printed as `<redacted>`.
                \(raw: access)var description: Swift.String {
                    switch self {
                \(raw: cases.map { "    " + descriptionClause(of: $0) }.joined(separator: "\n"))
                    }
                }
                """
            )
        }
        return members
    }

    /// `case .name(let v0, _): "name(\(String(describing: v0)), <redacted>)"`.
    private func descriptionClause(of eventCase: Case) -> String {
        guard let parameters = eventCase.parameters else {
            return "case .\(eventCase.name): \"\(eventCase.plainName)\""
        }
        var bindings: [String] = []
        var printed: [String] = []
        for (index, parameter) in parameters.enumerated() {
            let prefix = parameter.label.map { "\($0): " } ?? ""
            if parameter.sensitive {
                bindings.append("_")
                printed.append(prefix + "<redacted>")
            } else {
                bindings.append("let v\(index)")
                printed.append(prefix + "\\(Swift.String(describing: v\(index)))")
            }
        }
        let pattern = parameters.allSatisfy(\.sensitive) ? "" : "(" + bindings.joined(separator: ", ") + ")"
        return "case .\(eventCase.name)\(pattern): \"\(eventCase.plainName)(\(printed.joined(separator: ", ")))\""
    }
}

/// Reads an enum under `@FlowEvent`: either an ``EventEnum`` or the diagnostics that explain why not.
struct EventEnumAnalysis {
    var event: EventEnum?
    var diagnostics: [Diagnostic] = []

    init(attribute: AttributeSyntax, declaration: some DeclGroupSyntax) {
        guard let enumDecl = declaration.as(EnumDeclSyntax.self) else {
            let kind =
                if declaration.is(StructDeclSyntax.self) { "struct" }
                else if declaration.is(ClassDeclSyntax.self) { "class" }
                else if declaration.is(ActorDeclSyntax.self) { "actor" }
                else if declaration.is(ProtocolDeclSyntax.self) { "protocol" }
                else if declaration.is(ExtensionDeclSyntax.self) { "extension" }
                else { "declaration" }
            diagnostics.append(Diagnostic(node: attribute, message: FlowstateMacroMessage.notAnEnum(kind: kind)))
            return
        }

        var cases: [EventEnum.Case] = []
        var seen: Set<String> = []
        var declaresDescription = false
        var sensitiveArguments: [(attribute: AttributeSyntax, decl: EnumCaseDeclSyntax)] = []
        for member in enumDecl.memberBlock.members {
            let decl = member.decl
            if let caseDecl = decl.as(EnumCaseDeclSyntax.self) {
                for element in caseDecl.elements {
                    let plain = element.name.text.filter { $0 != "`" }
                    if !seen.insert(plain).inserted {
                        diagnostics.append(
                            Diagnostic(node: element.name, message: FlowstateMacroMessage.duplicateCaseName(name: plain))
                        )
                    }
                    let parameters = element.parameterClause.map { clause in
                        clause.parameters.map { parameter in
                            EventEnum.Parameter(
                                label: parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.text.filter { $0 != "`" } },
                                sensitive: false
                            )
                        }
                    }
                    cases.append(EventEnum.Case(name: element.name.trimmedDescription, plainName: plain, parameters: parameters))
                }
                for attributeElement in caseDecl.attributes where isAttribute(attributeElement, named: "Sensitive") {
                    if case .attribute(let sensitive) = attributeElement {
                        sensitiveArguments.append((sensitive, caseDecl))
                    }
                }
            } else if let ifConfig = decl.as(IfConfigDeclSyntax.self), Self.containsCases(ifConfig) {
                diagnostics.append(Diagnostic(node: ifConfig, message: FlowstateMacroMessage.casesInIfConfig))
            } else if let name = Self.declaredName(decl) {
                switch name {
                case "Kind", "kind":
                    diagnostics.append(
                        Diagnostic(node: decl, message: FlowstateMacroMessage.derivedMemberDeclared(name: name))
                    )
                case "description":
                    declaresDescription = true
                default:
                    break
                }
            }
        }

        for eventCase in cases where ["kind", "Kind"].contains(eventCase.plainName)
            || (eventCase.plainName == "description" && !declaresDescription)
        {
            diagnostics.append(
                Diagnostic(node: attribute, message: FlowstateMacroMessage.caseNamedLikeMember(name: eventCase.plainName))
            )
        }

        if cases.isEmpty {
            diagnostics.append(Diagnostic(node: attribute, message: FlowstateMacroMessage.noCases))
        }

        for (sensitive, caseDecl) in sensitiveArguments {
            if declaresDescription {
                diagnostics.append(Diagnostic(node: sensitive, message: FlowstateMacroMessage.sensitiveWithOwnDescription))
                continue
            }
            markSensitive(sensitive, caseDecl: caseDecl, cases: &cases)
        }

        guard diagnostics.isEmpty else { return }
        let access = enumDecl.modifiers.lazy.compactMap { modifier -> String? in
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): "public "
            case .keyword(.package): "package "
            default: nil
            }
        }.first ?? ""
        event = EventEnum(cases: cases, access: access, declaresDescription: declaresDescription)
    }

    /// Applies one `@Sensitive(...)` to the cases of `caseDecl`, or reports why it can't.
    private mutating func markSensitive(
        _ sensitive: AttributeSyntax,
        caseDecl: EnumCaseDeclSyntax,
        cases: inout [EventEnum.Case]
    ) {
        enum Selector { case label(String, Syntax), position(Int, Syntax) }
        var selectors: [Selector] = []
        if case .argumentList(let arguments) = sensitive.arguments {
            for argument in arguments {
                if let string = argument.expression.as(StringLiteralExprSyntax.self),
                    let value = string.representedLiteralValue
                {
                    selectors.append(.label(value, Syntax(argument.expression)))
                } else if let integer = argument.expression.as(IntegerLiteralExprSyntax.self),
                    let value = Int(integer.literal.text.filter { $0 != "_" })
                {
                    selectors.append(.position(value, Syntax(argument.expression)))
                } else {
                    diagnostics.append(
                        Diagnostic(node: argument.expression, message: FlowstateMacroMessage.sensitiveBadArgument)
                    )
                    return
                }
            }
        }
        for element in caseDecl.elements {
            let plain = element.name.text.filter { $0 != "`" }
            guard let index = cases.firstIndex(where: { $0.plainName == plain }) else { continue }
            guard var parameters = cases[index].parameters, !parameters.isEmpty else {
                diagnostics.append(
                    Diagnostic(node: sensitive, message: FlowstateMacroMessage.sensitiveWithoutPayload(caseName: plain))
                )
                continue
            }
            if selectors.isEmpty {
                for position in parameters.indices { parameters[position].sensitive = true }
            }
            for selector in selectors {
                switch selector {
                case .label(let label, let node):
                    if let position = parameters.firstIndex(where: { $0.label == label }) {
                        parameters[position].sensitive = true
                    } else {
                        diagnostics.append(
                            Diagnostic(
                                node: node,
                                message: FlowstateMacroMessage.sensitiveUnknownLabel(label: label, caseName: plain)
                            )
                        )
                    }
                case .position(let position, let node):
                    if parameters.indices.contains(position) {
                        parameters[position].sensitive = true
                    } else {
                        diagnostics.append(
                            Diagnostic(
                                node: node,
                                message: FlowstateMacroMessage.sensitivePositionOutOfRange(
                                    position: position, caseName: plain, count: parameters.count)
                            )
                        )
                    }
                }
            }
            cases[index].parameters = parameters
        }
    }

    /// Whether an `#if` block declares cases, in any of its clauses (nested `#if`s included).
    private static func containsCases(_ ifConfig: IfConfigDeclSyntax) -> Bool {
        ifConfig.clauses.contains { clause in
            guard case .decls(let members) = clause.elements else { return false }
            return members.contains { member in
                member.decl.is(EnumCaseDeclSyntax.self)
                    || member.decl.as(IfConfigDeclSyntax.self).map(containsCases) == true
            }
        }
    }

    /// The name a member declares, for the names the macro derives.
    private static func declaredName(_ decl: DeclSyntax) -> String? {
        if let type = decl.as(EnumDeclSyntax.self) { return type.name.text }
        if let type = decl.as(StructDeclSyntax.self) { return type.name.text }
        if let type = decl.as(ClassDeclSyntax.self) { return type.name.text }
        if let type = decl.as(TypeAliasDeclSyntax.self) { return type.name.text }
        if let variable = decl.as(VariableDeclSyntax.self),
            let binding = variable.bindings.first,
            let pattern = binding.pattern.as(IdentifierPatternSyntax.self)
        {
            return pattern.identifier.text
        }
        return nil
    }
}
