import FlowNavigation
import Flowstate

/// Root-retained coordinators (seed 004): a first-launch flow starts a new-account child flow (email,
/// password, two-factor code) whose lifetime is bound to its root screen. Dismissing that screen at
/// any step deallocates the child flow; the back gesture still works.
public enum FirstLaunchAccount {
    /// The screens.
    public enum Screen: String, Hashable, Sendable, Codable, CustomStringConvertible {
        case welcome, email, password, code, home
        public var description: String { rawValue }
    }

    /// The first-launch flow.
    public enum Launch: Flow {
        /// Its states.
        public enum State: String, Hashable, Sendable, CustomStringConvertible {
            case welcome, creatingAccount, home
            public var description: String { rawValue }
        }
        /// Its events.
        public enum Event: FlowEvent, Hashable { case createAccount, accountCreated, accountCancelled }
        /// Navigation only.
        public typealias Effect = Navigation<Screen, Event>
        /// It never finishes.
        public typealias Output = Never
    }

    /// The new-account flow.
    public enum NewAccount: Flow {
        /// Its states.
        public enum State: String, Hashable, Sendable, CustomStringConvertible {
            case steps, email, password, code, created, cancelled
            public var description: String { rawValue }
        }
        /// Its events; `wentBack` is the back gesture.
        public enum Event: FlowEvent, Hashable { case next, cancel, wentBack }
        /// Navigation only.
        public typealias Effect = Navigation<Screen, Event>
        /// How it ended.
        public enum Output: Hashable, Sendable { case created, cancelled }
    }

    /// First launch: welcome, then an account, then home.
    public static let launch = FlowDefinition<Launch>("first-launch-account", initial: .welcome) {
        StateNode(.welcome) { On(.createAccount, to: .creatingAccount) }
        StateNode(.creatingAccount) {
            On(.accountCreated, to: .home, effects: [.push(.home)])
            On(.accountCancelled, to: .welcome)
        }
        StateNode(.home)
    }

    /// Email, password, code; cancel anywhere; the back gesture goes back a step.
    /// The steps share one presentation (entered once, so going back does not present again) and one
    /// cancel transition.
    public static let newAccount = FlowDefinition<NewAccount>("new-account", initial: .steps) {
        StateNode(.steps, entry: [.present(.email)]) {
            StateNode(.email) {
                On(.next, to: .password, effects: [.push(.password)])
            }
            StateNode(.password) {
                On(.next, to: .code, effects: [.push(.code)])
                On(.wentBack, to: .email)
            }
            StateNode(.code) {
                On(.next, to: .created)
                On(.wentBack, to: .password)
            }
            On(.cancel, to: .cancelled)
        }
        Final(.created, output: .created, entry: [.dismiss])
        Final(.cancelled, output: .cancelled, entry: [.dismiss])
    }

    /// Runs the example on a coordinator.
    public final class Host {
        /// The coordinator.
        public let coordinator: Coordinator<Screen>
        /// The first-launch flow.
        public private(set) var launch: MachineHandle<Launch>!
        /// The new-account flow, while it runs.
        public private(set) var account: MachineHandle<NewAccount>?

        /// Starts on the welcome screen.
        public init(navigator: any Navigator<Screen>) throws {
            coordinator = Coordinator(navigator: navigator)
            navigator.perform(.push(.welcome), retaining: nil)
            launch = try coordinator.start(FirstLaunchAccount.launch, effects: { $0 })
        }

        /// The welcome screen's "create account" button: the child flow is bound to its first screen.
        public func createAccount() throws {
            // A second tap while the sign-up is shown starts nothing (NavigationCheckTests found the
            // double tap presenting a second sign-up).
            if let account, coordinator.supervisor.contains(account.id) { return }
            try coordinator.send(.createAccount, to: launch)
            account = try coordinator.start(
                FirstLaunchAccount.newAccount, under: launch, effects: { $0 },
                userNavigation: { if case .wentBack = $0 { .wentBack } else { nil } },
                dismissed: .accountCancelled,
                output: { $0 == .created ? .accountCreated : .accountCancelled })
        }
    }
}
