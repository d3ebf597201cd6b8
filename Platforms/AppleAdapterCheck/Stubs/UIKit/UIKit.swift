// UIKit, reduced to what Flowstate's UIKitNavigator (and its documentation snippet) uses: a STUB for
// type-checking on Linux, where UIKit does not exist. NOT UIKit.
//
// - Each declaration is copied from Apple's documentation (developer.apple.com/documentation/uikit):
//   names, argument labels, parameter and return types, optionality, `@MainActor` classes and
//   protocols, default arguments. The check is as faithful as these signatures, and no more: nothing
//   here behaves like UIKit (every body is `fatalError()`), so nothing here may be run.
// - Objective-C optional protocol requirements are declared as ordinary requirements, and only the
//   ones the adapter implements: a misspelled delegate method then fails the check, where on iOS it
//   would compile and never be called.
// - `NSObject`, `NSObjectProtocol`, `Bundle`, `NSCoder` and `CGRect` are swift-corelibs-foundation's
//   (UIKit re-exports Foundation on Apple platforms too).
// - Documented but simplified: `UIView.AutoresizingMask`'s raw values; the `Style` enumerations'
//   raw values.
@_exported import Foundation

/// developer.apple.com/documentation/uikit/uiresponder
@MainActor open class UIResponder: NSObject {}

/// developer.apple.com/documentation/uikit/uiview
@MainActor open class UIView: UIResponder {
    /// `init(frame:)`
    public init(frame: CGRect) { fatalError("UIKit stub") }
    /// `var frame: CGRect { get set }`
    open var frame: CGRect {
        get { fatalError("UIKit stub") }
        set { fatalError("UIKit stub") }
    }
    /// `var bounds: CGRect { get set }`
    open var bounds: CGRect {
        get { fatalError("UIKit stub") }
        set { fatalError("UIKit stub") }
    }
    /// `var autoresizingMask: UIView.AutoresizingMask { get set }`
    open var autoresizingMask: UIView.AutoresizingMask {
        get { fatalError("UIKit stub") }
        set { fatalError("UIKit stub") }
    }
    /// `var window: UIWindow? { get }`
    open var window: UIWindow? { fatalError("UIKit stub") }
    /// `func addSubview(_ view: UIView)`
    open func addSubview(_ view: UIView) { fatalError("UIKit stub") }
    /// `func removeFromSuperview()`
    open func removeFromSuperview() { fatalError("UIKit stub") }

    /// `struct AutoresizingMask`
    public struct AutoresizingMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `static var flexibleWidth: UIView.AutoresizingMask { get }`
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        /// `static var flexibleHeight: UIView.AutoresizingMask { get }`
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    }
}

/// developer.apple.com/documentation/uikit/uiwindow
@MainActor open class UIWindow: UIView {
    /// `var rootViewController: UIViewController? { get set }`
    open var rootViewController: UIViewController? {
        get { fatalError("UIKit stub") }
        set { fatalError("UIKit stub") }
    }
}

/// developer.apple.com/documentation/uikit/uiviewcontroller
@MainActor open class UIViewController: UIResponder {
    /// `init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?)`
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { fatalError("UIKit stub") }
    /// `init?(coder: NSCoder)`
    public required init?(coder: NSCoder) { fatalError("UIKit stub") }
    /// `var view: UIView! { get set }`
    open var view: UIView! {
        get { fatalError("UIKit stub") }
        set { fatalError("UIKit stub") }
    }
    /// `var viewIfLoaded: UIView? { get }`
    open var viewIfLoaded: UIView? { fatalError("UIKit stub") }
    /// `var title: String? { get set }`
    open var title: String? {
        get { fatalError("UIKit stub") }
        set { fatalError("UIKit stub") }
    }
    /// `var presentingViewController: UIViewController? { get }`
    open var presentingViewController: UIViewController? { fatalError("UIKit stub") }
    /// `var presentationController: UIPresentationController? { get }`
    open var presentationController: UIPresentationController? { fatalError("UIKit stub") }
    /// `func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil)`
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool,
                      completion: (() -> Void)? = nil) { fatalError("UIKit stub") }
    /// `func dismiss(animated flag: Bool, completion: (() -> Void)? = nil)`
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) { fatalError("UIKit stub") }
    /// `func addChild(_ childController: UIViewController)`
    open func addChild(_ childController: UIViewController) { fatalError("UIKit stub") }
    /// `func removeFromParent()`
    open func removeFromParent() { fatalError("UIKit stub") }
    /// `func willMove(toParent parent: UIViewController?)`
    open func willMove(toParent parent: UIViewController?) { fatalError("UIKit stub") }
    /// `func didMove(toParent parent: UIViewController?)`
    open func didMove(toParent parent: UIViewController?) { fatalError("UIKit stub") }
}

/// developer.apple.com/documentation/uikit/uinavigationcontroller
@MainActor open class UINavigationController: UIViewController {
    /// `init(rootViewController: UIViewController)`
    public init(rootViewController: UIViewController) { fatalError("UIKit stub") }
    /// `init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?)`
    public override init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { fatalError("UIKit stub") }
    /// `init?(coder aDecoder: NSCoder)`
    public required init?(coder aDecoder: NSCoder) { fatalError("UIKit stub") }
    /// `var viewControllers: [UIViewController] { get set }`
    open var viewControllers: [UIViewController] {
        get { fatalError("UIKit stub") }
        set { fatalError("UIKit stub") }
    }
    /// `weak var delegate: (any UINavigationControllerDelegate)? { get set }`
    weak open var delegate: (any UINavigationControllerDelegate)? {
        get { fatalError("UIKit stub") }
        set { fatalError("UIKit stub") }
    }
    /// `func pushViewController(_ viewController: UIViewController, animated: Bool)`
    open func pushViewController(_ viewController: UIViewController, animated: Bool) { fatalError("UIKit stub") }
    /// `func popToViewController(_ viewController: UIViewController, animated: Bool) -> [UIViewController]?`
    open func popToViewController(_ viewController: UIViewController, animated: Bool) -> [UIViewController]? {
        fatalError("UIKit stub")
    }
}

/// developer.apple.com/documentation/uikit/uinavigationcontrollerdelegate
/// (`@MainActor protocol UINavigationControllerDelegate : NSObjectProtocol`; the method is optional
/// in UIKit.)
@MainActor public protocol UINavigationControllerDelegate: NSObjectProtocol {
    /// `optional func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool)`
    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController,
                              animated: Bool)
}

/// developer.apple.com/documentation/uikit/uitabbarcontroller
@MainActor open class UITabBarController: UIViewController {
    /// `var viewControllers: [UIViewController]? { get set }`
    open var viewControllers: [UIViewController]? {
        get { fatalError("UIKit stub") }
        set { fatalError("UIKit stub") }
    }
    /// `func setViewControllers(_ viewControllers: [UIViewController]?, animated: Bool)`
    open func setViewControllers(_ viewControllers: [UIViewController]?, animated: Bool) { fatalError("UIKit stub") }
    /// `var selectedIndex: Int { get set }`
    open var selectedIndex: Int {
        get { fatalError("UIKit stub") }
        set { fatalError("UIKit stub") }
    }
    /// `weak var delegate: (any UITabBarControllerDelegate)? { get set }`
    weak open var delegate: (any UITabBarControllerDelegate)? {
        get { fatalError("UIKit stub") }
        set { fatalError("UIKit stub") }
    }
}

/// developer.apple.com/documentation/uikit/uitabbarcontrollerdelegate (the method is optional in UIKit)
@MainActor public protocol UITabBarControllerDelegate: NSObjectProtocol {
    /// `optional func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController)`
    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController)
}

/// developer.apple.com/documentation/uikit/uipresentationcontroller
@MainActor open class UIPresentationController: NSObject {
    /// `var presentedViewController: UIViewController { get }`
    open var presentedViewController: UIViewController { fatalError("UIKit stub") }
    /// `weak var delegate: (any UIAdaptivePresentationControllerDelegate)? { get set }`
    weak open var delegate: (any UIAdaptivePresentationControllerDelegate)? {
        get { fatalError("UIKit stub") }
        set { fatalError("UIKit stub") }
    }
}

/// developer.apple.com/documentation/uikit/uiadaptivepresentationcontrollerdelegate (the method is
/// optional in UIKit)
@MainActor public protocol UIAdaptivePresentationControllerDelegate: NSObjectProtocol {
    /// `optional func presentationControllerDidDismiss(_ presentationController: UIPresentationController)`
    func presentationControllerDidDismiss(_ presentationController: UIPresentationController)
}

/// developer.apple.com/documentation/uikit/uialertcontroller
@MainActor open class UIAlertController: UIViewController {
    /// `convenience init(title: String?, message: String?, preferredStyle: UIAlertController.Style)`
    public convenience init(title: String?, message: String?, preferredStyle: UIAlertController.Style) {
        fatalError("UIKit stub")
    }
    /// `func addAction(_ action: UIAlertAction)`
    open func addAction(_ action: UIAlertAction) { fatalError("UIKit stub") }

    /// `enum Style`
    public enum Style: Int, Sendable {
        case actionSheet = 0
        case alert = 1
    }
}

/// developer.apple.com/documentation/uikit/uialertaction
@MainActor open class UIAlertAction: NSObject {
    /// `convenience init(title: String?, style: UIAlertAction.Style, handler: ((UIAlertAction) -> Void)? = nil)`
    public convenience init(title: String?, style: UIAlertAction.Style, handler: ((UIAlertAction) -> Void)? = nil) {
        fatalError("UIKit stub")
    }

    /// `enum Style`
    public enum Style: Int, Sendable {
        case `default` = 0
        case cancel = 1
        case destructive = 2
    }
}
