import Flowstate

/// The first-launch flow of seed 004: a welcome screen from which the user creates an account. The
/// new-account flow (``SignUp``) runs as a child while `creatingAccount` is active; its result comes
/// back as an event, replacing the `coordinatorFlowComplete` delegate call of the seed.
public enum FirstLaunch: Flow {
    /// The first-launch screens.
    public enum State: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
        case welcome, creatingAccount, home
        public var description: String { rawValue }
    }

    /// What the user (or the child flow) does.
    public enum Event: FlowEvent, Hashable, CaseIterable {
        case createAccount, accountCreated, accountCancelled, logOut
    }

    /// First-launch navigation, plus the sign-up flow's own effects, performed by the same coordinator.
    public enum Effect: Hashable, Sendable, CustomStringConvertible {
        case showWelcome
        case showHome
        case signUp(SignUp.Effect)

        public var description: String {
            switch self {
            case .showWelcome: "showWelcome"
            case .showHome: "showHome"
            case .signUp(let effect): "signUp.\(effect)"
            }
        }
    }

    /// First launch never finishes by itself.
    public typealias Output = Never

    /// The new-account child: its effects are wrapped, its output becomes an event.
    public static let newAccount = ChildFlow<FirstLaunch>(
        SignUp.definition,
        effects: { .signUp($0) },
        output: { $0 == .signedUp ? .accountCreated : .accountCancelled })

    /// The definition.
    public static let definition = FlowDefinition<FirstLaunch>("first-launch", initial: .welcome) {
        StateNode(.welcome, entry: [.showWelcome]) {
            On(.createAccount, to: .creatingAccount)
        }
        StateNode(.creatingAccount, runs: newAccount) {
            On(.accountCreated, to: .home)
            On(.accountCancelled, to: .welcome)
        }
        StateNode(.home, entry: [.showHome]) {
            On(.logOut, to: .welcome)
        }
    }
}
