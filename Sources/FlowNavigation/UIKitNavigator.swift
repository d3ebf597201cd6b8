// Compiled on Apple platforms that have UIKit's view controllers (iOS, iPadOS, Mac Catalyst, tvOS,
// visionOS); not on Linux, where it is type-checked against stubs by Platforms/AppleAdapterCheck
// (docs/ADAPTERS.md). Every decision is in NavigationModel, which is tested on Linux: this file only
// forwards operations to UIKit and UIKit's delegate callbacks to the model.
#if canImport(UIKit) && !os(watchOS)
import UIKit

/// A ``Navigator`` over UIKit: a navigation controller for the root stack (or a tab bar controller of
/// navigation controllers), a navigation controller presented for each modal stack, and an alert
/// controller for the alert. Compiled on Apple platforms only.
///
/// Put ``rootViewController`` in the window, hand the navigator to a ``Coordinator``, and the flows'
/// navigation is shown. The navigator keeps a ``NavigationModel`` and performs the operations it
/// returns; it is the delegate of every navigation controller, presentation controller and tab bar
/// controller it makes, and reports what the user did on their own, after the screen is gone:
/// - the back button, the interactive back gesture, a long press on the back button and a second tap
///   on the selected tab (`navigationController(_:didShow:animated:)`): `UserNavigation.wentBack(from:)`
///   for each screen popped, the top one first;
/// - a swipe down of a sheet (`presentationControllerDidDismiss(_:)`): `UserNavigation.dismissed(_:)`
///   with the root of each modal stack gone, the top one first;
/// - a tab selected (`tabBarController(_:didSelect:)`): `UserNavigation.selectedTab(_:)`;
/// - an alert answered: `UserNavigation.choseAlert(index:)`.
///
/// The navigator implements no animation controller, so the interactive back gesture keeps working.
/// It must stay the delegate of the controllers it makes: replacing a delegate hides the user's
/// navigation from the flows.
///
/// ## Lifetimes
/// The lifetime object that comes with `push`, `present` or `tabs` is retained by the navigator's
/// ``NavigationStore``, keyed by the screen's identity in the model (not by an Objective-C associated
/// object on the view controller), and released as soon as the model lets the screen go: when a flow
/// pops or dismisses it, or when UIKit reports that the user did (before the report is delivered).
///
/// ## Presentations
/// UIKit refuses to present while another presentation or dismissal is animating, so presentations
/// and dismissals run one after another (each from the completion of the one before); pushes and pops
/// are performed at once. An alert is presented by the top modal stack (or the root); the model takes
/// it down around a present or dismiss under it and shows it again after.
///
/// ```swift
/// let navigator = UIKitNavigator<FirstLaunchAccount.Screen> { screen in
///     let controller = UIViewController(nibName: nil, bundle: nil)
///     controller.title = screen.description
///     return controller
/// }
/// window.rootViewController = navigator.rootViewController
/// let host = try FirstLaunchAccount.Host(navigator: navigator)
/// try host.createAccount()   // UIKit presents the email screen; a swipe down reports .dismissed(.email)
/// ```
@MainActor
public final class UIKitNavigator<Screen: Hashable & Sendable>: @MainActor Navigator {
    /// The view controller to put in the window: it shows the root stack or the tabs, and presents
    /// the modal stacks.
    public let rootViewController: UIViewController
    /// Set by the coordinator; called after each of the user's own navigations, once UIKit no longer
    /// shows the screen.
    public var onUserNavigation: ((UserNavigation<Screen>) -> Void)?
    /// Called with each command that made no sense (a pop of a stack's root...); the command was not
    /// performed.
    public var onProblem: ((String) -> Void)?
    /// Whether transitions are animated.
    public var animated: Bool
    /// What is shown.
    public var model: NavigationModel<Screen> { store.model }
    /// The model, for the coordinator (``Navigator/shownModel``).
    public var shownModel: NavigationModel<Screen>? { store.model }

    private let store = NavigationStore<Screen>()
    private let makeViewController: (Screen) -> UIViewController
    private let delegate = UIKitNavigationDelegate()
    private let presentations = PresentationQueue()
    private let rootNavigation: UINavigationController
    private var tabBar: UITabBarController?
    /// One navigation controller per tab, in the model's tab order.
    private var tabNavigations: [UINavigationController] = []
    /// One navigation controller per modal stack, in the model's order.
    private var modalNavigations: [UINavigationController] = []
    private var alertController: UIAlertController?
    /// The root navigation controller or the tab bar controller, as the root's child.
    private var embedded: UIViewController?

    /// Creates a navigator with an empty root stack.
    /// - Parameters:
    ///   - animated: Whether transitions are animated.
    ///   - makeViewController: The view controller for a screen: called once each time a screen is
    ///     pushed, presented or shown as a tab's root.
    public init(animated: Bool = true, makeViewController: @escaping (Screen) -> UIViewController) {
        self.animated = animated
        self.makeViewController = makeViewController
        rootViewController = UIViewController(nibName: nil, bundle: nil)
        rootNavigation = UINavigationController(nibName: nil, bundle: nil)
        rootNavigation.delegate = delegate
        delegate.didShow = { [weak self] navigation in self?.didShow(navigation) }
        delegate.didDismiss = { [weak self] presentation in self?.didDismiss(presentation) }
        delegate.didSelect = { [weak self] viewController in self?.didSelect(viewController) }
        embed(rootNavigation)
    }

    /// Performs a command: the model changes, then UIKit shows it.
    /// - Parameters:
    ///   - command: What a flow asked for.
    ///   - lifetime: For `push` and `present`, retained while the new screen is shown; for `tabs`,
    ///     while the tab bar is.
    public func perform(_ command: NavigatorCommand<Screen>, retaining lifetime: AnyObject?) {
        show(store.perform(command, retaining: lifetime))
    }

    /// Shows an alert; the choice at `cancelIndex` gets the `.cancel` style, the others `.default`.
    public func performAlert(title: String, choices: [String], cancelIndex: Int?) {
        show(store.perform(.alert(title: title, choices: choices), retaining: nil, cancelIndex: cancelIndex))
    }

    // MARK: Forwarding to UIKit

    private func show(_ update: NavigationUpdate<Screen>) {
        if let problem = update.problem { onProblem?(problem) }
        for operation in update.operations { perform(operation) }
    }

    private func perform(_ operation: NavigationOperation<Screen>) {
        switch operation {
        case .push(let item, let position):
            navigation(at: position)?.pushViewController(makeViewController(item.screen), animated: animated)
        case .pop(let position, let count):
            guard let navigation = navigation(at: position), count >= 1, count <= navigation.viewControllers.count
            else { return }
            _ = navigation.popToViewController(navigation.viewControllers[count - 1], animated: animated)
        case .present(let item, _):
            let navigation = UINavigationController(rootViewController: makeViewController(item.screen))
            navigation.delegate = delegate
            navigation.presentationController?.delegate = delegate
            // The model presents at the next level: over the top modal stack, or the root.
            let presenter = modalNavigations.last ?? rootViewController
            modalNavigations.append(navigation)
            present(navigation, from: presenter)
        case .dismiss(let level):
            guard modalNavigations.indices.contains(level) else { return }
            let navigation = modalNavigations[level]
            modalNavigations.removeSubrange(level...)
            presentations.enqueue { [animated] done in
                guard let presenter = navigation.presentingViewController else { return done() }
                presenter.dismiss(animated: animated, completion: done)
            }
        case .showTabs(let items):
            let navigations = items.map { item in
                let navigation = UINavigationController(rootViewController: makeViewController(item.screen))
                navigation.delegate = delegate
                return navigation
            }
            let tabBar = UITabBarController(nibName: nil, bundle: nil)
            tabBar.setViewControllers(navigations, animated: false)
            tabBar.delegate = delegate
            self.tabBar = tabBar
            tabNavigations = navigations
            embed(tabBar)
        case .selectTab(let index):
            tabBar?.selectedIndex = index
        case .showAlert(let alert):
            let controller = UIAlertController(title: alert.title, message: nil, preferredStyle: .alert)
            for (index, choice) in alert.choices.enumerated() {
                let style: UIAlertAction.Style = index == alert.cancelIndex ? .cancel : .default
                controller.addAction(UIAlertAction(title: choice, style: style) { [weak self, weak controller] _ in
                    guard let self, let controller else { return }
                    self.answered(controller, index: index)
                })
            }
            alertController = controller
            present(controller, from: modalNavigations.last ?? rootViewController)
        case .hideAlert:
            guard let controller = alertController else { return }
            alertController = nil
            presentations.enqueue { done in
                guard controller.presentingViewController != nil else { return done() }
                controller.dismiss(animated: false, completion: done)
            }
        }
    }

    /// The navigation controller of a stack of the model.
    private func navigation(at position: StackPosition) -> UINavigationController? {
        switch position {
        case .root(let tab):
            guard tabBar != nil else { return tab == 0 ? rootNavigation : nil }
            return tabNavigations.indices.contains(tab) ? tabNavigations[tab] : nil
        case .modal(let level):
            return modalNavigations.indices.contains(level) ? modalNavigations[level] : nil
        }
    }

    /// Presents after the transitions before it.
    private func present(_ viewController: UIViewController, from presenter: UIViewController) {
        presentations.enqueue { [animated] done in
            presenter.present(viewController, animated: animated, completion: done)
            // UIKit never completes a presentation from a view controller outside a window (it logs
            // why nothing is shown): the next transitions must not wait for it.
            if presenter.viewIfLoaded?.window == nil { done() }
        }
    }

    /// Shows the root navigation controller or the tab bar controller in ``rootViewController``; the
    /// modal stacks, presented by ``rootViewController``, stay.
    private func embed(_ child: UIViewController) {
        if let embedded {
            embedded.willMove(toParent: nil)
            embedded.view.removeFromSuperview()
            embedded.removeFromParent()
        }
        rootViewController.addChild(child)
        child.view.frame = rootViewController.view.bounds
        child.view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        rootViewController.view.addSubview(child.view)
        child.didMove(toParent: rootViewController)
        embedded = child
    }

    // MARK: What the user did

    private func didShow(_ navigation: UINavigationController) {
        let position: StackPosition
        if let level = modalNavigations.firstIndex(where: { $0 === navigation }) {
            position = .modal(level: level)
        } else if let tab = tabNavigations.firstIndex(where: { $0 === navigation }) {
            position = .root(tab: tab)
        } else if navigation === rootNavigation, tabBar == nil {
            position = .root(tab: 0)
        } else {
            return
        }
        // UIKit reports every transition, the flows' own included: the model finds whether the
        // stack is shorter than it shows.
        report(.popped(position, remaining: navigation.viewControllers.count))
    }

    private func didDismiss(_ presentation: UIPresentationController) {
        guard let level = modalNavigations.firstIndex(where: { $0 === presentation.presentedViewController })
        else { return }
        report(.dismissed(level: level))
    }

    private func didSelect(_ viewController: UIViewController) {
        guard let tab = tabNavigations.firstIndex(where: { $0 === viewController }) else { return }
        report(.selectedTab(tab))
    }

    private func answered(_ controller: UIAlertController, index: Int) {
        guard controller === alertController else { return }  // an alert the model took down
        alertController = nil
        report(.choseAlert(index: index))
    }

    /// The model catches up with UIKit, the navigation controllers of the stacks that are gone are
    /// dropped, then each event is delivered.
    private func report(_ report: NavigationReport<Screen>) {
        let events = store.reconcile(report)
        let modals = store.model.modals.count
        if modalNavigations.count > modals { modalNavigations.removeSubrange(modals...) }
        for event in events { onUserNavigation?(event) }
    }
}

/// The delegate of the controllers a ``UIKitNavigator`` makes. Not generic, so that its methods are
/// the Objective-C ones UIKit calls; it forwards them to the navigator.
@MainActor
final class UIKitNavigationDelegate: NSObject, UINavigationControllerDelegate, UIAdaptivePresentationControllerDelegate,
    UITabBarControllerDelegate {
    var didShow: (UINavigationController) -> Void = { _ in }
    var didDismiss: (UIPresentationController) -> Void = { _ in }
    var didSelect: (UIViewController) -> Void = { _ in }

    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController,
                              animated: Bool) {
        didShow(navigationController)
    }

    func presentationControllerDidDismiss(_ presentationController: UIPresentationController) {
        didDismiss(presentationController)
    }

    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {
        didSelect(viewController)
    }
}
#endif
