import FlowNavigation
import Flowstate

/// Tabs that keep their own navigation stacks, as regions of one flow: which tab is selected is one
/// region, each tab's stack another. A user who leaves the feed in the middle of a post and comes back
/// finds the post where it was, in the flow as on screen; a product of states would have to spell out
/// every combination of the tabs' stacks, and one state per tab forgets the other tab's place.
public enum TabbedStacks {
    /// The screens.
    public enum Screen: String, Hashable, Sendable, Codable, CustomStringConvertible {
        case feed, post, profile, settings
        public var description: String { rawValue }
    }

    /// The app's flow.
    public enum App: Flow {
        /// Its states: `main` is parallel, its regions `selection`, `feedStack` and `profileStack`.
        public enum State: String, Hashable, Sendable, CustomStringConvertible {
            case main, selection, onFeed, onProfile, feedStack, feedRoot, reading, profileStack, profileRoot, settings
            public var description: String { rawValue }
        }
        /// Its events: the screens' taps and the user's own navigation (tab switches, the back gesture).
        public enum Event: FlowEvent, Hashable { case open, showSettings, wentBack, userChoseFeed, userChoseProfile }
        /// Navigation only.
        public typealias Effect = Navigation<Screen, Event>
        /// The app never finishes.
        public typealias Output = Never
    }

    /// The tabs are shown once, on entering `main`; each stack moves only while its tab is selected
    /// (`Guard.in`), so the back gesture pops the stack the user sees.
    public static let app = FlowDefinition<App>("tabbed-stacks", initial: .main) {
        Parallel(.main, entry: [.tabs([.feed, .profile])]) {
            StateNode(.selection, initial: .onFeed) {
                StateNode(.onFeed) { On(.userChoseProfile, to: .onProfile) }
                StateNode(.onProfile) { On(.userChoseFeed, to: .onFeed) }
            }
            StateNode(.feedStack, initial: .feedRoot) {
                StateNode(.feedRoot) { On(.open, guard: .in(.onFeed), to: .reading, effects: [.push(.post)]) }
                StateNode(.reading) { On(.wentBack, guard: .in(.onFeed), to: .feedRoot) }
            }
            StateNode(.profileStack, initial: .profileRoot) {
                StateNode(.profileRoot) {
                    On(.showSettings, guard: .in(.onProfile), to: .settings, effects: [.push(.settings)])
                }
                StateNode(.settings) { On(.wentBack, guard: .in(.onProfile), to: .profileRoot) }
            }
        }
    }

    /// The user's own navigation, as the app's events.
    public static func userNavigation(_ navigation: UserNavigation<Screen>) -> App.Event? {
        switch navigation {
        case .selectedTab(.feed): .userChoseFeed
        case .selectedTab(.profile): .userChoseProfile
        case .wentBack: .wentBack
        default: nil
        }
    }

    /// Runs the example on a coordinator.
    public final class Host {
        /// The coordinator.
        public let coordinator: Coordinator<Screen>
        /// The app flow.
        public private(set) var app: MachineHandle<App>!

        /// Starts the app on a navigator: the tabs appear, the feed selected.
        public init(navigator: any Navigator<Screen>) throws {
            coordinator = Coordinator(navigator: navigator)
            app = try coordinator.start(TabbedStacks.app, effects: { $0 }, userNavigation: TabbedStacks.userNavigation)
        }
    }
}
