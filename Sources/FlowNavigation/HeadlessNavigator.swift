/// A ``Navigator`` without screens: navigation stacks in memory, and methods that play the user
/// (``goBack()``, ``swipeDown()``, ``selectTab(_:)``, ``choose(_:)``). This is how coordinator flows
/// are tested on Linux: drive the flows, then assert ``stacks`` (and ``tabStacks``) after every event.
///
/// The model is UIKit's: a root stack, or tabs each with its own stack (one of them selected), and
/// over it the modal stacks, each presented over the one before and each with its own navigation.
/// The *top stack* is the last modal stack, or the selected tab's (the root stack) when no modal is
/// shown: `push`, `pop` and `popToRoot` act on it.
///
/// Each screen's entry retains the lifetime object the coordinator hands it with `push`, `present` or
/// `tabs`, and releases it when the screen leaves the stacks, as UIKit releases a view controller: that
/// is what tears down the flows bound to the screen. A command that makes no sense is not performed; it
/// is recorded in ``problems``, so a test can assert that the flows never asked for one.
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
    /// A screen on a stack; it retains the lifetimes of the flows bound to it.
    private final class Entry {
        let screen: Screen
        let lifetime: AnyObject?
        init(_ screen: Screen, _ lifetime: AnyObject?) {
            self.screen = screen
            self.lifetime = lifetime
        }
    }

    /// The root stacks: one per tab, or a single one while no tabs are shown.
    private var roots: [[Entry]] = [[]]
    private var selected = 0
    /// Whether ``roots`` are tabs.
    private var showsTabs = false
    /// The lifetime retained by the tab bar.
    private var tabBarLifetime: AnyObject?
    /// The modal stacks, bottom first.
    private var modals: [[Entry]] = []

    /// The navigation stacks, bottom first: the root stack (the selected tab's, when tabs are shown),
    /// then each modal stack presented over it.
    public var stacks: [[Screen]] { ([roots[selected]] + modals).map { $0.map(\.screen) } }
    /// Every tab's navigation stack, in tab order (empty while no tabs are shown).
    public var tabStacks: [[Screen]] { showsTabs ? roots.map { $0.map(\.screen) } : [] }
    /// The root screen of the selected tab (`nil` while no tabs are shown).
    public var selectedTab: Screen? { showsTabs ? roots[selected].first?.screen : nil }
    /// The screen on top, if any.
    public var top: Screen? { (modals.last ?? roots[selected]).last?.screen }
    /// The alert on screen, if any.
    public private(set) var alert: (title: String, choices: [String])?
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

    /// Calls `body` with the top stack's entries, in place.
    private func withTopStack<R>(_ body: (inout [Entry]) -> R) -> R {
        if modals.isEmpty { body(&roots[selected]) } else { body(&modals[modals.count - 1]) }
    }

    /// Performs a command on the in-memory stacks, and appends it to ``log``.
    ///
    /// A command that makes no sense (a `pop` on a stack's root, a `dismiss` with no modal stack, tabs
    /// whose root screens repeat, an unknown tab) changes nothing and is recorded in ``problems``. It
    /// never calls ``onUserNavigation``: only the user's own navigation does.
    /// - Parameters:
    ///   - command: What the flow asked for.
    ///   - lifetime: For `push` and `present`, retained by the new screen's entry until it leaves the
    ///     stacks; for `tabs`, by the tab bar until tabs are replaced. Ignored for other commands.
    public func perform(_ command: NavigatorCommand<Screen>, retaining lifetime: AnyObject?) {
        log.append(command)
        switch command {
        case .push(let screen):
            withTopStack { $0.append(Entry(screen, lifetime)) }
        case .present(let screen):
            modals.append([Entry(screen, lifetime)])
        case .pop:
            let popped = withTopStack { stack in stack.count > 1 ? stack.removeLast() : nil }
            if popped == nil {
                problems.append("pop on the root of a stack (\(stacks))")
            }
        case .popToRoot:
            withTopStack { $0.removeSubrange(min(1, $0.count)...) }
        case .dismiss:
            if modals.isEmpty {
                problems.append("dismiss with no modal stack (\(stacks))")
            } else {
                modals.removeLast()
            }
        case .alert(let title, let choices):
            alert = (title, choices)
        case .tabs(let screens):
            guard !screens.isEmpty, Set(screens).count == screens.count else {
                problems.append("tabs need distinct root screens (\(screens))")
                return
            }
            roots = screens.map { [Entry($0, nil)] }
            selected = 0
            showsTabs = true
            tabBarLifetime = lifetime
        case .selectTab(let screen):
            if let index = tabIndex(of: screen) {
                selected = index
            } else {
                problems.append("no tab whose root is \(screen) (\(tabStacks))")
            }
        }
    }

    private func tabIndex(of root: Screen) -> Int? {
        showsTabs ? roots.firstIndex { $0.first?.screen == root } : nil
    }

    /// The user goes back (back button or gesture) on the top stack. Returns false if there is
    /// nothing to go back to (the stack's root).
    @discardableResult
    public func goBack() -> Bool {
        // Only the screen is kept: the entry, and the lifetimes it retains, are released before the
        // coordinator hears of it, as UIKit releases a popped view controller.
        guard let screen = withTopStack({ stack in stack.count > 1 ? stack.removeLast().screen : nil }) else {
            return false
        }
        onUserNavigation?(.wentBack(from: screen))
        return true
    }

    /// The user swipes the top modal stack down (only the top one: the ones under it stay). Returns
    /// false if no modal stack is shown.
    @discardableResult
    public func swipeDown() -> Bool {
        guard let screen = modals.last?.first?.screen else { return false }
        modals.removeLast()
        onUserNavigation?(.dismissed(screen))
        return true
    }

    /// The user taps the tab whose root is `root`. Returns false if there is no such tab, if it is
    /// already selected, or if a modal stack covers the tab bar.
    @discardableResult
    public func selectTab(_ root: Screen) -> Bool {
        guard modals.isEmpty, let index = tabIndex(of: root), index != selected else { return false }
        selected = index
        onUserNavigation?(.selectedTab(root))
        return true
    }

    /// The user picks the alert's choice with this title. Returns false if no alert shows it.
    @discardableResult
    public func choose(_ label: String) -> Bool {
        guard let alert, let index = alert.choices.firstIndex(of: label) else { return false }
        self.alert = nil
        onUserNavigation?(.choseAlert(index: index))
        return true
    }
}
