import FlowstateMacros

/// The sign-up flow of `Examples/Flows/SignUp.swift`, with its event derived by `@FlowEvent`:
/// the same states, effects, guards and definition, and an event of five lines instead of thirty.
///
/// The one difference a user sees is the description of a password: `submitPassword(<redacted>)`
/// instead of one `*` per character (which told the password's length).
public enum SignUp: Flow {
    /// The steps of the flow. `signingUp` contains the three screens, so "cancel" is declared once.
    public enum State: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case signingUp, email, password, twoFactor, done, cancelled
        public var description: String { rawValue }
    }

    /// What the user does on the screens; `Kind`, `kind` and `description` are derived.
    @FlowEvent
    public enum Event: Hashable {
        case submitEmail(String)
        @Sensitive case submitPassword(String)
        case submitCode(String)
        case back, cancel
    }

    /// The screens of the flow.
    public enum Screen: String, Hashable, Sendable { case email, password, twoFactor }

    /// Navigation and service commands the coordinator performs.
    public enum Effect: Hashable, Sendable, CustomStringConvertible {
        case present(Screen)
        case push(Screen)
        case pop
        case dismiss
        case sendCode
        case showError(String)

        public var description: String {
            switch self {
            case .present(let screen): "present(\(screen.rawValue))"
            case .push(let screen): "push(\(screen.rawValue))"
            case .pop: "pop"
            case .dismiss: "dismiss"
            case .sendCode: "sendCode"
            case .showError(let message): "showError(\(message))"
            }
        }
    }

    /// How the flow ended.
    public enum Output: Hashable, Sendable { case signedUp, cancelled }

    /// An email needs an `@` and a dot after it.
    public static let validEmail = Guard<SignUp>("valid email") { event in
        guard case .submitEmail(let email) = event, let at = email.firstIndex(of: "@") else { return false }
        return email[at...].contains(".")
    }

    /// At least eight characters.
    public static let strongPassword = Guard<SignUp>("strong password") { event in
        if case .submitPassword(let password) = event { password.count >= 8 } else { false }
    }

    /// Six digits.
    public static let validCode = Guard<SignUp>("6 digits") { event in
        if case .submitCode(let code) = event { code.count == 6 && code.allSatisfy(\.isNumber) } else { false }
    }

    /// The definition.
    public static let definition = FlowDefinition<SignUp>("sign-up", initial: .signingUp) {
        StateNode(.signingUp, entry: [.present(.email)], exit: [.dismiss]) {
            StateNode(.email) {
                On(.submitEmail, guard: validEmail, to: .password, effects: [.push(.password)])
                On(.submitEmail, to: nil, effects: [.showError("invalid email")])
            }
            StateNode(.password) {
                On(.submitPassword, guard: strongPassword, to: .twoFactor, effects: [.push(.twoFactor)])
                On(.submitPassword, to: nil, effects: [.showError("password too short")])
                On(.back, to: .email, effects: [.pop])
            }
            StateNode(.twoFactor, entry: [.sendCode]) {
                On(.submitCode, guard: validCode, to: .done)
                On(.back, to: .password, effects: [.pop])
            }
            On(.cancel, to: .cancelled)
        }
        Final(.done, output: .signedUp)
        Final(.cancelled, output: .cancelled)
    }
}
