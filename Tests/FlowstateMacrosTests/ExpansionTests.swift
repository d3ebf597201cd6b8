import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite("@FlowEvent expansion")
struct ExpansionTests {
    @Test("a public payload enum: kinds, an inlinable kind, a description with a redacted case")
    func publicEnum() {
        assertExpansion(
            """
            @FlowEvent
            public enum Event: Hashable {
                case submitEmail(String)
                @Sensitive case submitPassword(String)
                case back, cancel
            }
            """,
            expandedSource: #"""
            public enum Event: Hashable {
                case submitEmail(String)
                case submitPassword(String)
                case back, cancel

                /// The payload-free kinds of this event, one per case, that transitions are declared on.
                public enum Kind: Swift.String, Swift.Hashable, Swift.Sendable, Swift.CaseIterable, Swift.CustomStringConvertible {
                    case submitEmail, submitPassword, back, cancel
                    public var description: Swift.String {
                        rawValue
                    }
                }

                /// The case of this event, without its payload.
                @inlinable public var kind: Kind {
                    switch self {
                    case .submitEmail:
                        .submitEmail
                    case .submitPassword:
                        .submitPassword
                    case .back:
                        .back
                    case .cancel:
                        .cancel
                    }
                }

                /// The case and its payload; sensitive payloads are printed as `<redacted>`.
                public var description: Swift.String {
                    switch self {
                    case .submitEmail(let v0):
                        "submitEmail(\(Swift.String(describing: v0)))"
                    case .submitPassword:
                        "submitPassword(<redacted>)"
                    case .back:
                        "back"
                    case .cancel:
                        "cancel"
                    }
                }
            }

            extension Event: FlowEvent, CustomStringConvertible {
            }
            """#
        )
    }

    @Test("labelled and positional parameters, some sensitive; internal access")
    func parameters() {
        assertExpansion(
            """
            @FlowEvent
            enum Event {
                @Sensitive("password") case signIn(user: String, password: String)
                @Sensitive(1) case token(String, String)
                @Sensitive case pair(a: Int, b: Int), single(Int?)
                case `default`
            }
            """,
            expandedSource: #"""
            enum Event {
                case signIn(user: String, password: String)
                case token(String, String)
                case pair(a: Int, b: Int), single(Int?)
                case `default`

                /// The payload-free kinds of this event, one per case, that transitions are declared on.
                enum Kind: Swift.String, Swift.Hashable, Swift.Sendable, Swift.CaseIterable, Swift.CustomStringConvertible {
                    case signIn, token, pair, single, `default`
                    var description: Swift.String {
                        rawValue
                    }
                }

                /// The case of this event, without its payload.
                var kind: Kind {
                    switch self {
                    case .signIn:
                        .signIn
                    case .token:
                        .token
                    case .pair:
                        .pair
                    case .single:
                        .single
                    case .`default`:
                        .`default`
                    }
                }

                /// The case and its payload; sensitive payloads are printed as `<redacted>`.
                var description: Swift.String {
                    switch self {
                    case .signIn(let v0, _):
                        "signIn(user: \(Swift.String(describing: v0)), password: <redacted>)"
                    case .token(let v0, _):
                        "token(\(Swift.String(describing: v0)), <redacted>)"
                    case .pair:
                        "pair(a: <redacted>, b: <redacted>)"
                    case .single:
                        "single(<redacted>)"
                    case .`default`:
                        "default"
                    }
                }
            }

            extension Event: FlowEvent, CustomStringConvertible {
            }
            """#
        )
    }

    @Test("an enum with its own description keeps it; package access")
    func ownDescription() {
        assertExpansion(
            """
            @FlowEvent
            package enum Event {
                case open(URLString)
                case close
                package var description: String { "event" }
            }
            """,
            expandedSource: """
            package enum Event {
                case open(URLString)
                case close
                package var description: String { "event" }

                /// The payload-free kinds of this event, one per case, that transitions are declared on.
                package enum Kind: Swift.String, Swift.Hashable, Swift.Sendable, Swift.CaseIterable, Swift.CustomStringConvertible {
                    case open, close
                    package var description: Swift.String {
                        rawValue
                    }
                }

                /// The case of this event, without its payload.
                package var kind: Kind {
                    switch self {
                    case .open:
                        .open
                    case .close:
                        .close
                    }
                }
            }

            extension Event: FlowEvent, CustomStringConvertible {
            }
            """
        )
    }
}

@Suite("@FlowEvent and @Sensitive diagnostics")
struct DiagnosticTests {
    @Test("applied to a struct, a class or a protocol")
    func notAnEnum() {
        assertExpansion(
            """
            @FlowEvent
            struct Event {}
            """,
            expandedSource: """
            struct Event {}
            """,
            diagnostics: [error("'@FlowEvent' can only be applied to an enum, not to a struct", line: 1, column: 1)]
        )
        assertExpansion(
            """
            @FlowEvent
            final class Event {}
            """,
            expandedSource: """
            final class Event {}
            """,
            diagnostics: [error("'@FlowEvent' can only be applied to an enum, not to a class", line: 1, column: 1)]
        )
        assertExpansion(
            """
            @FlowEvent
            protocol Event {}
            """,
            expandedSource: """
            protocol Event {}
            """,
            diagnostics: [error("'@FlowEvent' can only be applied to an enum, not to a protocol", line: 1, column: 1)]
        )
    }

    @Test("applied to an enum with no cases")
    func noCases() {
        assertExpansion(
            """
            @FlowEvent
            enum Event {
                static let x = 1
            }
            """,
            expandedSource: """
            enum Event {
                static let x = 1
            }
            """,
            diagnostics: [error("'@FlowEvent' needs an enum with at least one case", line: 1, column: 1)]
        )
    }

    @Test("an enum that declares Kind or kind itself")
    func derivedMembersDeclared() {
        assertExpansion(
            """
            @FlowEvent
            enum Event {
                case a(Int)
                enum Kind {
                    case a
                }
                var kind: Kind { .a }
            }
            """,
            expandedSource: """
            enum Event {
                case a(Int)
                enum Kind {
                    case a
                }
                var kind: Kind { .a }
            }
            """,
            diagnostics: [
                error("'Kind' is derived by '@FlowEvent'; remove this declaration or remove '@FlowEvent'", line: 4, column: 5),
                error("'kind' is derived by '@FlowEvent'; remove this declaration or remove '@FlowEvent'", line: 7, column: 5),
            ]
        )
    }

    @Test("two cases with the same name")
    func duplicateNames() {
        assertExpansion(
            """
            @FlowEvent
            enum Event {
                case move(x: Int)
                case move(y: Int)
            }
            """,
            expandedSource: """
            enum Event {
                case move(x: Int)
                case move(y: Int)
            }
            """,
            diagnostics: [
                error(
                    "another case is already named 'move'; '@FlowEvent' needs distinct case names to name their kinds",
                    line: 4, column: 10)
            ]
        )
    }

    @Test("cases inside #if, and cases named like a derived member")
    func ifConfigAndCollisions() {
        assertExpansion(
            """
            @FlowEvent
            enum Event {
                case a(Int)
                #if DEBUG
                case debug(String)
                #endif
            }
            """,
            expandedSource: """
            enum Event {
                case a(Int)
                #if DEBUG
                case debug(String)
                #endif
            }
            """,
            diagnostics: [
                error(
                    "'@FlowEvent' cannot derive kinds for cases declared inside '#if'; declare every case unconditionally",
                    line: 4, column: 5)
            ]
        )
        assertExpansion(
            """
            @FlowEvent
            enum Event {
                case kind(Int), description(String)
            }
            """,
            expandedSource: """
            enum Event {
                case kind(Int), description(String)
            }
            """,
            diagnostics: [
                error("a case named 'kind' would collide with the member '@FlowEvent' derives; rename the case",
                      line: 1, column: 1),
                error("a case named 'description' would collide with the member '@FlowEvent' derives; rename the case",
                      line: 1, column: 1),
            ]
        )
    }

    @Test("@Sensitive on a case without payload, with an unknown label, a position out of range, a bad argument")
    func sensitiveArguments() {
        assertExpansion(
            """
            @FlowEvent
            enum Event {
                @Sensitive case back
                @Sensitive("pasword") case signIn(user: String, password: String)
                @Sensitive(2) case token(String, String)
                @Sensitive(true) case flag(Bool)
            }
            """,
            expandedSource: """
            enum Event {
                case back
                case signIn(user: String, password: String)
                case token(String, String)
                case flag(Bool)
            }
            """,
            diagnostics: [
                error("'@Sensitive' on case 'back', which has no payload to redact", line: 3, column: 5),
                error("case 'signIn' has no parameter labelled 'pasword'", line: 4, column: 16),
                error("case 'token' has no parameter at position 2 (it has 2, counted from 0)", line: 5, column: 16),
                error("'@Sensitive' takes parameter labels as string literals or positions as integer literals",
                      line: 6, column: 16),
            ]
        )
    }

    @Test("@Sensitive in an enum that keeps its own description")
    func sensitiveWithOwnDescription() {
        assertExpansion(
            """
            @FlowEvent
            enum Event {
                @Sensitive case password(String)
                var description: String { "event" }
            }
            """,
            expandedSource: """
            enum Event {
                case password(String)
                var description: String { "event" }
            }
            """,
            diagnostics: [
                error("'@Sensitive' has no effect: this enum declares its own 'description', which '@FlowEvent' keeps",
                      line: 3, column: 5)
            ]
        )
    }

    @Test("@Sensitive outside a @FlowEvent enum, or on something other than a case")
    func sensitivePlacement() {
        assertExpansion(
            """
            enum Event {
                @Sensitive case password(String)
            }
            """,
            expandedSource: """
            enum Event {
                case password(String)
            }
            """,
            diagnostics: [
                error("'@Sensitive' only has an effect on a case of an enum marked '@FlowEvent'", line: 2, column: 5)
            ]
        )
        assertExpansion(
            """
            struct Form {
                @Sensitive var password: String
            }
            """,
            expandedSource: """
            struct Form {
                var password: String
            }
            """,
            diagnostics: [error("'@Sensitive' can only be applied to an enum case", line: 2, column: 5)]
        )
    }
}
