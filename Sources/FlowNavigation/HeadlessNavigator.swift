/// A ``Navigator`` without screens: navigation stacks in memory, and methods that play the user
/// (``goBack()``, ``swipeDown()``, ``selectTab(_:)``, ``choose(_:)``). This is how coordinator flows
/// are tested on Linux: drive the flows, then assert ``stacks`` (and ``tabStacks``) after every event.
///
/// The model is UIKit's: a root stack, or tabs each with its own stack (one of them selected), and
/// over it the modal stacks, each presented over the one before and each with its own navigation.
/// The *top stack* is the last modal stack, or the selected tab's (the root stack) when no modal is
/// shown: `push`, `pop` and `popToRoot` act on it.
///
/// Each screen retains the lifetime object the coordinator hands it with `push`, `present` or `tabs`,
/// and releases it when the screen leaves the stacks, as UIKit releases a view controller: that is
/// what tears down the flows bound to the screen. A command that makes no sense is not performed; it
/// is recorded in ``problems``, so a test can assert that the flows never asked for one.
///
/// The stacks are a ``NavigationModel`` (in a ``NavigationStore``, with the lifetimes), the same one
/// the UIKit and SwiftUI adapters keep: what this navigator shows is what they show, and the user
/// actions it plays are the reports they make (``NavigationReport``).
///
/// ## Re-entrancy
/// The methods that play the user change the stacks first, then call ``onUserNavigation``
/// synchronously, as UIKit reports a back gesture or a swipe after the fact. The coordinator reacts
/// inside that call: the flows' steps may call ``perform(_:retaining:)`` on this navigator before
/// ``goBack()``, ``swipeDown()``, ``selectTab(_:)`` or ``choose(_:)`` returns. Like a coordinator, a
/// headless navigator is used from one isolation domain; it is not `Sendable`.
///
/// ```swift
/// let navigator = HeadlessNavigator<FirstLaunchAccount.Screen>()
/// let host = try FirstLaunchAccount.Host(navigator: navigator)
/// try host.createAccount()
/// navigator.swipeDown()                       // the new-account flow is torn down with its screen
/// #expect(navigator.stacks == [[.welcome]] && navigator.problems.isEmpty)
/// ```
public final class HeadlessNavigator<Screen: Hashable & Sendable>: Navigator {
    private let store = NavigationStore<Screen>()

    /// What is shown, as the value the platform adapters keep too.
    public var model: NavigationModel<Screen> { store.model }
    /// The model, for the coordinator (``Navigator/shownModel``).
    public var shownModel: NavigationModel<Screen>? { store.model }
    /// The navigation stacks, bottom first: the root stack (the selected tab's, when tabs are shown),
    /// then each modal stack presented over it.
    public var stacks: [[Screen]] { store.model.stacks }
    /// Every tab's navigation stack, in tab order (empty while no tabs are shown).
    public var tabStacks: [[Screen]] { store.model.tabStacks }
    /// The root screen of the selected tab (`nil` while no tabs are shown).
    public var selectedTab: Screen? { store.model.selectedTabRoot }
    /// The screen on top, if any.
    public var top: Screen? { store.model.top }
    /// The alert on screen, if any.
    public var alert: (title: String, choices: [String])? { store.model.alert.map { ($0.title, $0.choices) } }
    /// Commands that made no sense (a pop of a stack's root, a dismiss with no modal, an unknown tab),
    /// in order. Tests assert that it stays empty.
    public private(set) var problems: [String] = []
    /// Every command performed, in order.
    public private(set) var log: [NavigatorCommand<Screen>] = []
    /// Called, synchronously, after each of the user's own navigations (``goBack()``, ``swipeDown()``,
    /// ``selectTab(_:)``, ``choose(_:)``), once the stacks no longer show the screen. Set by the
    /// ``Coordinator`` that drives this navigator.
    public var onUserNavigation: ((UserNavigation<Screen>) -> Void)?

    /// Creates a navigator with an empty root stack.
    public init() {}

    /// Performs a command on the in-memory stacks, and appends it to ``log``.
    ///
    /// A command that makes no sense (a `pop` on a stack's root, a `dismiss` with no modal stack, tabs
    /// whose root screens repeat, an unknown tab) changes nothing and is recorded in ``problems``. It
    /// never calls ``onUserNavigation``: only the user's own navigation does.
    /// - Parameters:
    ///   - command: What the flow asked for.
    ///   - lifetime: For `push` and `present`, retained by the new screen until it leaves the stacks;
    ///     for `tabs`, by the tab bar until tabs are replaced. Ignored for other commands.
    public func perform(_ command: NavigatorCommand<Screen>, retaining lifetime: AnyObject?) {
        log.append(command)
        if let problem = store.perform(command, retaining: lifetime).problem { problems.append(problem) }
    }

    /// Plays a report of the user's navigation: the model (and the lifetimes) first, then each event.
    private func userNavigated(_ report: NavigationReport<Screen>) -> Bool {
        // The screens, and the lifetimes they retain, are released before the coordinator hears of
        // it, as UIKit releases a popped view controller.
        let events = store.reconcile(report)
        for event in events { onUserNavigation?(event) }
        return !events.isEmpty
    }

    /// The user goes back (back button or gesture) on the top stack. Returns false if there is
    /// nothing to go back to (the stack's root).
    @discardableResult
    public func goBack() -> Bool {
        let position = store.model.topPosition
        return userNavigated(.popped(position, remaining: store.model.items(in: position).count - 1))
    }

    /// The user swipes the top modal stack down (only the top one: the ones under it stay). Returns
    /// false if no modal stack is shown.
    @discardableResult
    public func swipeDown() -> Bool {
        userNavigated(.dismissed(level: store.model.modals.count - 1))
    }

    /// The user taps the tab whose root is `root`. Returns false if there is no such tab, if it is
    /// already selected, or if a modal stack covers the tab bar.
    @discardableResult
    public func selectTab(_ root: Screen) -> Bool {
        guard store.model.modals.isEmpty, let index = store.model.tabIndex(of: root) else { return false }
        return userNavigated(.selectedTab(index))
    }

    /// The user picks the alert's choice with this title. Returns false if no alert shows it.
    @discardableResult
    public func choose(_ label: String) -> Bool {
        guard let index = store.model.alert?.choices.firstIndex(of: label) else { return false }
        return userNavigated(.choseAlert(index: index))
    }
}
