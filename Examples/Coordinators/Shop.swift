import FlowNavigation
import Flowstate

/// A shop, as an app is built with Flowstate's coordinators: tabs as regions of one parallel state, a
/// checkout that detours to a login and comes back where it was by history, a two-factor screen with a
/// delayed resend (written as SCXML, `shop-two-factor.scxml`, typed by the FlowCodegen build plugin),
/// screens that belong to states (``ScreenMap``), a deep link into checkout, logged in, and
/// restoration of the whole tree from a snapshot taken mid-checkout.
///
/// No flow performs a navigation effect: each declares which screen its states show, and the
/// coordinator shows the stacks of the whole tree (issue 38).
public enum Shop {
    /// The screens.
    public enum Screen: String, Hashable, Sendable, Codable, CustomStringConvertible {
        case home, product, cart, address, payment, confirmation, login, code
        public var description: String { rawValue }
    }

    /// What the flows ask of the app besides screens.
    public enum Effect: Hashable, Sendable {
        /// Text a two-factor code to the user.
        case sendCode
        /// Place the order.
        case placeOrder
    }

    // MARK: The two-factor step: the login's declared child

    /// The two-factor step: a code screen; a resend offered after 30 seconds. Written as SCXML
    /// (`shop-two-factor.scxml`) and typed by the FlowCodegen build plugin as `ShopTwoFactor`.
    public typealias TwoFactor = ShopTwoFactor

    /// The generated flow's requirements: it has no guard, and its one effect, `sendCode`, is mapped
    /// to the app's ``Effect/sendCode`` by the login (``login``), which the host performs.
    struct TwoFactorRules: ShopTwoFactor.Requirements {
        func sendCode() {}
    }

    /// The two-factor flow, from the flow file.
    public static let twoFactor = ShopTwoFactor.definition(TwoFactorRules())

    /// The two-factor step's screen: the code, pushed over the login.
    public static let twoFactorScreens = ScreenMap<TwoFactor, Screen>(twoFactor, [.waiting: .pushed(.code)])

    /// The back gesture from the code screen, as the two-factor step's event.
    public static func twoFactorNavigation(_ navigation: UserNavigation<Screen>) -> TwoFactor.Event? {
        navigation == .wentBack(from: .code) ? .back : nil
    }

    // MARK: The login: the checkout's declared child

    /// The login: a sheet, then the two-factor step pushed on it.
    public enum Login: Flow {
        /// Its states.
        public enum State: String, Hashable, Sendable, CustomStringConvertible {
            case form, entering, verifying, done, cancelled
            public var description: String { rawValue }
        }
        /// Its events.
        public enum Event: FlowEvent, Hashable { case submit, verified, codeCancelled, cancel }
        /// The app's effects.
        public typealias Effect = Shop.Effect
        /// How it ended.
        public enum Output: Hashable, Sendable { case loggedIn, cancelled }
    }

    /// The login flow.
    public static let login = FlowDefinition<Login>("login", initial: .form) {
        StateNode(.form, initial: .entering) {
            StateNode(.entering) { On(.submit, to: .verifying) }
            StateNode(.verifying, runs: ChildFlow<Login>(twoFactor, effects: { _ in .sendCode }) {
                $0 == .passed ? .verified : .codeCancelled
            }) {
                On(.verified, to: .done)
                On(.codeCancelled, to: .entering)
            }
            On(.cancel, to: .cancelled)
        }
        Final(.done, output: .loggedIn)
        Final(.cancelled, output: .cancelled)
    }

    /// The login's screen: a sheet.
    public static let loginScreens = ScreenMap<Login, Screen>(login, [.form: .presented(.login)])

    /// The swipe-down of the login sheet, as the login's event.
    public static func loginNavigation(_ navigation: UserNavigation<Screen>) -> Login.Event? {
        navigation == .dismissed(.login) ? .cancel : nil
    }

    // MARK: The app

    /// The app's flow: `main` is parallel; its regions are the tab selection, each tab's stack, and
    /// the session (a guest or a member).
    public enum App: Flow {
        /// Its states.
        public enum State: String, Hashable, Sendable, CustomStringConvertible {
            case main, selection, onHome, onCart, homeStack, browsing, product
            case cartStack, cartRoot, checkout, resume, enteringAddress, payment, loggingIn, placed
            case session, guest, member
            public var description: String { rawValue }
        }
        /// Its events: the screens' taps, the user's own navigation, and the login's outcome.
        public enum Event: FlowEvent, Hashable {
            case showHome, showCart, openProduct, back, checkout, next, pay, loggedIn, loginCancelled, done
        }
        /// The app's effects.
        public typealias Effect = Shop.Effect
        /// The app never finishes.
        public typealias Output = Never
    }

    /// The app flow. Each stack moves only while its tab is selected (`Guard.in`). Paying as a guest
    /// detours to the login, which leaves the checkout; the login's outcome comes back to the
    /// checkout's history, so the user is where they left it, at the payment.
    public static let app = FlowDefinition<App>("shop", initial: .main) {
        Parallel(.main) {
            StateNode(.selection, initial: .onHome) {
                StateNode(.onHome) { On(.showCart, to: .onCart) }
                StateNode(.onCart) { On(.showHome, to: .onHome) }
            }
            StateNode(.homeStack, initial: .browsing) {
                StateNode(.browsing) { On(.openProduct, guard: .in(.onHome), to: .product) }
                StateNode(.product) { On(.back, guard: .in(.onHome), to: .browsing) }
            }
            StateNode(.cartStack, initial: .cartRoot) {
                StateNode(.cartRoot) { On(.checkout, guard: .in(.onCart), to: .checkout) }
                StateNode(.checkout, initial: .enteringAddress) {
                    History(.resume, .shallow, default: .enteringAddress)
                    StateNode(.enteringAddress) {
                        On(.next, to: .payment)
                        On(.back, guard: .in(.onCart), to: .cartRoot)
                    }
                    StateNode(.payment) {
                        On(.pay, guard: .in(.member), to: .placed, effects: [.placeOrder])
                        On(.pay, to: .loggingIn)
                        On(.back, guard: .in(.onCart), to: .enteringAddress)
                    }
                }
                StateNode(.loggingIn, runs: ChildFlow<App>(login) { $0 == .loggedIn ? .loggedIn : .loginCancelled }) {
                    On(.loggedIn, to: .resume)
                    On(.loginCancelled, to: .resume)
                }
                StateNode(.placed) { On(.done, to: .cartRoot) }
            }
            StateNode(.session, initial: .guest) {
                StateNode(.guest) { On(.loggedIn, guard: .in(.loggingIn), to: .member) }
                StateNode(.member)
            }
        }
    }

    /// The app's screens: the tabs, each tab's stack, the checkout's address and payment screens.
    public static let appScreens = ScreenMap<App, Screen>(app, [
        .main: .tabs([.home, .cart]),
        .onHome: .selectsTab(.home),
        .onCart: .selectsTab(.cart),
        .homeStack: .tab(.home),
        .product: .pushed(.product),
        .cartStack: .tab(.cart),
        .checkout: .pushed(.address),
        .payment: .pushed(.payment),
        .placed: .pushed(.confirmation),
    ])

    /// The user's own navigation, as the app's events.
    public static func appNavigation(_ navigation: UserNavigation<Screen>) -> App.Event? {
        switch navigation {
        case .selectedTab(.home): .showHome
        case .selectedTab(.cart): .showCart
        case .wentBack(from: .product), .wentBack(from: .address), .wentBack(from: .payment): .back
        case .wentBack(from: .confirmation): .done
        default: nil
        }
    }

    /// The deep link to the checkout's payment step, logged in: the path there may log in, with the
    /// event the login's success becomes.
    public static let paymentLink = DeepLink<App>("checkout/payment", to: [.payment, .member],
                                                  through: [.showCart, .checkout, .next, .pay, .loggedIn])

    /// The deep link to a product (the product screen takes no parameter here; an app would keep it
    /// in an event's payload).
    public static let productLink = DeepLink<App>("product", to: [.product, .onHome], through: [.showHome, .openProduct])

    /// The app's routes: `/checkout/payment` and `/product/:id`.
    public static var routes: DeepLinkRoutes<App> {
        var routes = DeepLinkRoutes<App>()
        routes.add("/checkout/payment") { _ in paymentLink }
        routes.add("/product/:id") { _ in productLink }
        return routes
    }

    /// Runs the shop on a coordinator: every flow's screens declared, the app started.
    public final class Host {
        /// The coordinator.
        public let coordinator: Coordinator<Screen>
        /// The app flow.
        public private(set) var app: MachineHandle<App>!
        /// The effects performed, in order.
        public private(set) var performed: [Effect] = []

        /// Declares the screens of the shop's three flows on a new coordinator over `navigator`.
        /// - Parameter navigator: The screens.
        public convenience init(navigator: any Navigator<Screen>) {
            self.init(coordinator: Coordinator(navigator: navigator))
        }

        /// Declares the screens of the shop's three flows on `coordinator`.
        /// - Parameter coordinator: A coordinator that runs no flow yet.
        public init(coordinator: Coordinator<Screen>) {
            self.coordinator = coordinator
            coordinator.declare(Shop.appScreens, userNavigation: Shop.appNavigation)
            coordinator.declare(Shop.loginScreens, userNavigation: Shop.loginNavigation)
            coordinator.declare(Shop.twoFactorScreens, userNavigation: Shop.twoFactorNavigation)
        }

        /// Starts the app: the tabs appear, home selected.
        public func start() throws {
            app = try coordinator.start(Shop.app, effects: { _ in nil }, perform: { [unowned self] in performed.append($0) })
        }

        /// Restores the app, with its login and two-factor children, from a snapshot: the coordinator
        /// shows every screen the restored states show, in one batch.
        /// - Parameter snapshot: A snapshot of the tree (`Supervisor.snapshot()`).
        public func restore(_ snapshot: TreeSnapshot) throws {
            app = try coordinator.restore(snapshot.roots[0], definition: Shop.app, effects: { _ in nil },
                                          perform: { [unowned self] in performed.append($0) })
        }

        /// The login running in the checkout, if any.
        public var login: MachineHandle<Login>? {
            coordinator.supervisor.declaredChild(of: app, in: .loggingIn, as: Login.self)
        }

        /// The two-factor step running in the login, if any.
        public var twoFactor: MachineHandle<TwoFactor>? {
            login.flatMap { coordinator.supervisor.declaredChild(of: $0, in: .verifying, as: TwoFactor.self) }
        }
    }
}
