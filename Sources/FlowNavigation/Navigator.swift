/// What a ``Navigator`` is asked to do: a ``Navigation`` with the alert's events left out (they stay
/// with the ``Coordinator``, which sends the chosen one to the flow that asked).
public enum NavigatorCommand<Screen: Hashable & Sendable>: Hashable, Sendable {
    /// Push a screen on the top navigation stack.
    case push(Screen)
    /// Pop the top screen.
    case pop
    /// Pop to the top stack's root.
    case popToRoot
    /// Present a screen as the root of a new modal navigation stack.
    case present(Screen)
    /// Dismiss the top modal stack.
    case dismiss
    /// Show an alert with these button titles.
    case alert(title: String, choices: [String])
    /// Replace the root stack with tabs, one per screen, each the root of its own navigation stack;
    /// select the first (UIKit: a `UITabBarController` of navigation controllers).
    case tabs([Screen])
    /// Select the tab whose root is this screen.
    case selectTab(Screen)
}

/// Navigation the user did without the flow asking: what a ``Navigator`` reports.
public enum UserNavigation<Screen: Hashable & Sendable>: Hashable, Sendable {
    /// The user went back from `screen` (the back button or the interactive back gesture): it is
    /// already off the stack.
    case wentBack(from: Screen)
    /// The user dismissed the modal stack whose root is `screen` (a swipe down): it is already gone.
    case dismissed(Screen)
    /// The user picked the alert's choice at this index.
    case choseAlert(index: Int)
    /// The user switched to the tab whose root is `screen` (UIKit: `tabBarController(_:didSelect:)`).
    case selectedTab(Screen)
}

/// The screens of an app, as a ``Coordinator`` drives them.
///
/// A host implements it: on iOS, a UIKit adapter pushes and presents view controllers, and learns from
/// `UINavigationControllerDelegate` and `UIAdaptivePresentationControllerDelegate` that the user went
/// back or swiped a sheet down, and from `UITabBarControllerDelegate` that they switched tabs.
/// ``HeadlessNavigator`` keeps the stacks in memory for tests and Linux. `UIKitNavigator` and
/// `SwiftUINavigator` are the adapters this package ships, compiled on Apple platforms only (see
/// <doc:PlatformAdapters>). All three keep a ``NavigationModel``, so the logic has one home, tested on
/// Linux.
public protocol Navigator<Screen>: AnyObject {
    /// The app's screens.
    associatedtype Screen: Hashable & Sendable

    /// Performs a command. For `push`, `present` and `tabs`, `lifetime` (when given) must stay alive
    /// exactly as long as the shown screen (for `tabs`, the tab bar) does: the flows bound to the
    /// screen live as long as it. (UIKit: retain it from the view controller, or, as this package's
    /// navigators do, in a ``NavigationStore`` that releases it when the model lets the screen go.)
    func perform(_ command: NavigatorCommand<Screen>, retaining lifetime: AnyObject?)

    /// Shows an alert whose choice at `cancelIndex` (if any) cancels: UIKit gives it the `.cancel`
    /// style, SwiftUI the `.cancel` role. The default performs `.alert(title:choices:)`, so a
    /// navigator with no cancel style implements only ``perform(_:retaining:)``; a navigator that
    /// wraps another forwards this too, or the cancel style is lost.
    func performAlert(title: String, choices: [String], cancelIndex: Int?)

    /// Set by the coordinator: call it after the user navigated on their own, once the screen is gone.
    var onUserNavigation: ((UserNavigation<Screen>) -> Void)? { get set }

    /// What the navigator shows, when it keeps a ``NavigationModel`` (this package's navigators do):
    /// the coordinator reads it before it changes the stacks of declared screens, so that a report of
    /// several screens gone at once (a long press on the back button) is seen whole from its first
    /// event. The default, `nil`, makes the coordinator follow the reports one by one.
    var shownModel: NavigationModel<Screen>? { get }
}

extension Navigator {
    /// `nil`: the navigator keeps no ``NavigationModel``.
    public var shownModel: NavigationModel<Screen>? { nil }

    /// Performs `.alert(title:choices:)`: the cancel choice has no style of its own.
    public func performAlert(title: String, choices: [String], cancelIndex: Int?) {
        perform(.alert(title: title, choices: choices), retaining: nil)
    }
}
