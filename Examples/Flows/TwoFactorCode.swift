import Flowstate

/// The two-factor step of seed 004's sign-up, on its own: the user types the code sent to them; the
/// code may be sent again, but only 30 seconds after it was last sent (a delayed transition).
///
/// Entering the screen sends a code. A wrong code shows an error and keeps the screen (and its
/// 30-second wait) as it is; a right one finishes the flow.
public enum TwoFactorCode: Flow {
    /// `entering` is the screen; inside it, the user `waiting` for the resend button, or able to resend.
    public enum State: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case entering, waiting, canResend, verified, cancelled
        public var description: String { rawValue }
    }

    /// What the user does on the screen.
    public enum Event: FlowEvent, Hashable, CustomStringConvertible {
        case submitCode(String)
        case resend
        case cancel

        /// The payload-free kinds transitions are declared on.
        public enum Kind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
            case submitCode, resend, cancel
            public var description: String { rawValue }
        }

        public var kind: Kind {
            switch self {
            case .submitCode: .submitCode
            case .resend: .resend
            case .cancel: .cancel
            }
        }

        public var description: String {
            switch self {
            case .submitCode(let code): "submitCode(\(code))"
            case .resend: "resend"
            case .cancel: "cancel"
            }
        }
    }

    /// What the screen's coordinator performs.
    public enum Effect: Hashable, Sendable, CustomStringConvertible {
        case sendCode
        case showResend
        case hideResend
        case showError(String)

        public var description: String {
            switch self {
            case .sendCode: "sendCode"
            case .showResend: "showResend"
            case .hideResend: "hideResend"
            case .showError(let message): "showError(\(message))"
            }
        }
    }

    /// How the step ended.
    public enum Output: Hashable, Sendable { case verified, cancelled }

    /// Six digits.
    public static let validCode = Guard<TwoFactorCode>("6 digits") { event in
        if case .submitCode(let code) = event { code.count == 6 && code.allSatisfy(\.isNumber) } else { false }
    }

    /// The definition: resending is offered 30 seconds after a code was sent.
    public static let definition = FlowDefinition<TwoFactorCode>("two-factor code", initial: .entering) {
        StateNode(.entering, initial: .waiting, entry: [.sendCode]) {
            StateNode(.waiting) {
                After(.seconds(30), to: .canResend, effects: [.showResend])
            }
            StateNode(.canResend) {
                On(.resend, to: .waiting, effects: [.hideResend, .sendCode])
            }
            On(.submitCode, guard: validCode, to: .verified)
            On(.submitCode, to: nil, effects: [.showError("wrong code")])
            On(.cancel, to: .cancelled)
        }
        Final(.verified, output: .verified)
        Final(.cancelled, output: .cancelled)
    }
}
