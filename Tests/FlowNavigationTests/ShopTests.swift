import CoordinatorExamples
import FlowNavigation
import Flowstate
import Logging
import Testing

/// The shop (`Examples/Coordinators/Shop.swift`): screens that belong to states, gestures that reach
/// the flow that shows the screen at any depth, restoration of the whole tree from a snapshot, and
/// deep links (issue 38).
@MainActor
@Suite("The shop: declared screens, gestures at any depth, restore, deep links (issue 38)")
struct ShopTests {
    /// A shop on a headless navigator, with the coordinator's warnings recorded.
    static func shop() throws -> (Shop.Host, HeadlessNavigator<Shop.Screen>, WarningRecorder.Store) {
        let navigator = HeadlessNavigator<Shop.Screen>()
        let store = WarningRecorder.Store()
        let host = Shop.Host(coordinator: Coordinator(navigator: navigator,
                                                      logger: Logger(label: "test") { _ in WarningRecorder(store: store) }))
        try host.start()
        return (host, navigator, store)
    }

    @Test("The app's states show the tabs; the user's tab switch and back gesture move the flow, and the coordinator performs nothing for them")
    func tabsAndBack() throws {
        let (host, navigator, warnings) = try Self.shop()
        #expect(navigator.tabStacks == [[.home], [.cart]] && navigator.selectedTab == .home)
        #expect(navigator.selectTab(.cart))
        #expect(host.coordinator.supervisor.leaves(of: host.app)?.contains(.onCart) == true)
        try host.coordinator.send(.checkout, to: host.app)
        try host.coordinator.send(.next, to: host.app)
        #expect(navigator.stacks == [[.cart, .address, .payment]])
        let performed = navigator.log.count
        #expect(navigator.goBack())
        #expect(host.coordinator.supervisor.leaves(of: host.app)?.contains(.enteringAddress) == true)
        #expect(navigator.log.count == performed, "the user already went back: nothing to perform")
        #expect(navigator.stacks == [[.cart, .address]])
        #expect(navigator.problems.isEmpty && warnings.messages.isEmpty)
    }

    @Test("Paying as a guest detours to the login; the back gesture on the two-factor screen (a grandchild's) reaches the two-factor flow, with no warning; the login's success comes back to the payment by history")
    func loginDetour() throws {
        let (host, navigator, warnings) = try Self.shop()
        #expect(navigator.selectTab(.cart))
        for event: Shop.App.Event in [.checkout, .next, .pay] { try host.coordinator.send(event, to: host.app) }
        #expect(navigator.stacks == [[.cart], [.login]])
        try host.coordinator.send(.submit, to: try #require(host.login))
        #expect(navigator.stacks == [[.cart], [.login, .code]])
        let twoFactor = try #require(host.twoFactor)

        #expect(navigator.goBack())  // on the code screen, which the two-factor flow's state shows
        #expect(!host.coordinator.supervisor.contains(twoFactor.id), "the two-factor flow heard .back and finished")
        #expect(host.coordinator.supervisor.state(of: try #require(host.login)) == .entering)
        #expect(navigator.stacks == [[.cart], [.login]])
        #expect(warnings.messages.isEmpty, "\(warnings.messages)")

        try host.coordinator.send(.submit, to: try #require(host.login))
        let before = navigator.log.count
        try host.coordinator.send(.correctCode, to: try #require(host.twoFactor))
        #expect(navigator.stacks == [[.cart, .address, .payment]])
        // Three flows stepped (the two-factor step, the login, the app): one change of the stacks.
        #expect(Array(navigator.log[before...]) == [.dismiss, .push(.address), .push(.payment)])
        #expect(host.coordinator.supervisor.leaves(of: host.app) == [.onCart, .browsing, .payment, .member])
        try host.coordinator.send(.pay, to: host.app)
        #expect(navigator.stacks == [[.cart, .confirmation]])
        #expect(host.performed == [.sendCode, .sendCode, .placeOrder])
        #expect(navigator.problems.isEmpty && warnings.messages.isEmpty)
        #expect(host.coordinator.supervisor.liveCount == 1)
    }

    @Test("A snapshot taken mid-checkout restores the app, the login and the two-factor step, shows every screen with no table written by hand and no effect performed, and the restored tree hears the user")
    func restoreMidCheckout() throws {
        let (host, navigator, _) = try Self.shop()
        #expect(navigator.selectTab(.cart))
        for event: Shop.App.Event in [.checkout, .next, .pay] { try host.coordinator.send(event, to: host.app) }
        try host.coordinator.send(.submit, to: try #require(host.login))
        let snapshot = try host.coordinator.supervisor.snapshot()

        let relaunched = HeadlessNavigator<Shop.Screen>()
        let store = WarningRecorder.Store()
        let restored = Shop.Host(coordinator: Coordinator(navigator: relaunched,
                                                          logger: Logger(label: "test") { _ in WarningRecorder(store: store) }))
        try restored.restore(snapshot)
        #expect(relaunched.tabStacks == [[.home], [.cart]] && relaunched.selectedTab == .cart)
        #expect(relaunched.stacks == navigator.stacks)
        #expect(relaunched.stacks == [[.cart], [.login, .code]])
        #expect(restored.performed.isEmpty)

        #expect(relaunched.goBack())  // the code screen: the restored grandchild hears it
        #expect(relaunched.stacks == [[.cart], [.login]])
        #expect(relaunched.swipeDown())  // the login sheet: the restored login hears it, the app resumes
        #expect(relaunched.stacks == [[.cart, .address, .payment]])
        #expect(relaunched.goBack() && relaunched.selectTab(.home))
        #expect(restored.coordinator.supervisor.leaves(of: restored.app) == [.onHome, .browsing, .enteringAddress, .guest])
        #expect(relaunched.problems.isEmpty && store.messages.isEmpty, "\(store.messages)")
    }

    @Test("A deep link opens the checkout at the payment, logged in, through the login's event: the user sees one change of the stacks, never the login sheet")
    func deepLink() throws {
        let (host, navigator, warnings) = try Self.shop()
        try #require(try Shop.paymentLink.path(in: Shop.app) != nil)  // the one-line check a test makes
        let before = navigator.log.count
        let path = try host.coordinator.open(path: "/checkout/payment", routes: Shop.routes, in: host.app)
        #expect(path == [.showCart, .checkout, .next, .pay, .loggedIn])
        #expect(navigator.stacks == [[.cart, .address, .payment]] && navigator.selectedTab == .cart)
        #expect(Array(navigator.log[before...]) == [.selectTab(.cart), .push(.address), .push(.payment)])
        #expect(host.coordinator.supervisor.leaves(of: host.app)?.contains(.member) == true)
        #expect(navigator.problems.isEmpty && warnings.messages.isEmpty)
    }

    @Test("An unknown route and a link that leads nowhere from where the flow is are errors that change nothing")
    func deepLinkErrors() throws {
        let (host, navigator, _) = try Self.shop()
        let before = navigator.log.count
        #expect {
            try host.coordinator.open(path: "/orders/7", routes: Shop.routes, in: host.app)
        } throws: { ($0 as? DeepLinkError)?.code == .unknownRoute }
        let nowhere = DeepLink<Shop.App>("placed", to: [.placed], through: [.showCart, .checkout])
        #expect(try nowhere.path(in: Shop.app) == nil)
        #expect {
            try host.coordinator.open(nowhere, in: host.app)
        } throws: { ($0 as? DeepLinkError)?.code == .unreachable }
        #expect(navigator.log.count == before)
        #expect(host.coordinator.supervisor.leaves(of: host.app) == [.onHome, .browsing, .cartRoot, .guest])
    }

    @Test("A declared flow that performs a navigation effect anyway: not performed, and warned about")
    func declaredFlowEffectWarned() throws {
        enum Pushy: Flow {
            enum State: Hashable, Sendable { case root, first, second }
            enum Event: FlowEvent, Hashable { case go }
            typealias Effect = Navigation<Shop.Screen, Event>
            typealias Output = Never
        }
        let definition = FlowDefinition<Pushy>("pushy", initial: .root) {
            StateNode(.root, initial: .first) {
                StateNode(.first) { On(.go, to: .second, effects: [.push(.product)]) }
                StateNode(.second)
            }
        }
        let navigator = HeadlessNavigator<Shop.Screen>()
        let store = WarningRecorder.Store()
        let coordinator = Coordinator(navigator: navigator, logger: Logger(label: "test") { _ in WarningRecorder(store: store) })
        coordinator.declare(ScreenMap<Pushy, Shop.Screen>(definition, [.root: .pushed(.home), .second: .pushed(.cart)]))
        let machine = try coordinator.start(definition, effects: { $0 })
        try coordinator.send(.go, to: machine)
        #expect(navigator.stacks == [[.home, .cart]])
        #expect(store.messages.count == 1 && store.messages[0].contains("declares its screens"))
    }

    enum Loader: Flow {
        enum State: Hashable, Sendable { case screen, loading, loaded }
        enum Event: FlowEvent, Hashable { case loaded }
        enum Effect: Hashable, Sendable { case load }
        typealias Output = Never
        static let definition = FlowDefinition<Loader>("loader", initial: .screen) {
            StateNode(.screen, initial: .loading) {
                StateNode(.loading, entry: [.load]) { On(.loaded, to: .loaded) }
                StateNode(.loaded)
            }
        }
    }

    @Test("A step taken outside the coordinator's calls (an async effect's result) changes the declared stacks too")
    func asyncStep() async throws {
        let navigator = HeadlessNavigator<Shop.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        coordinator.declare(ScreenMap<Loader, Shop.Screen>(Loader.definition, [.screen: .pushed(.home), .loaded: .pushed(.product)]))
        let loader = try coordinator.start(Loader.definition, effects: { _ in nil }, handler: { effect, context in
            if effect == .load { try context.task { .loaded } }
        })
        #expect(navigator.stacks == [[.home]])
        for _ in 0..<1_000 where coordinator.supervisor.state(of: loader) != .loaded { await Task.yield() }
        #expect(coordinator.supervisor.state(of: loader) == .loaded)
        #expect(navigator.stacks == [[.home, .product]])
    }

    @Test("A screen-bound child whose screens are declared: restored under its parent with no screens given, shown by its states, and torn down with its first screen")
    func screenBoundDeclaredChild() throws {
        let navigator = HeadlessNavigator<Shop.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        coordinator.declare(ScreenMap<Loader, Shop.Screen>(Loader.definition, [.screen: .pushed(.home)]))
        coordinator.declare(ScreenMap<Shop.Login, Shop.Screen>(Shop.login, [.form: .presented(.login)]))
        let root = try coordinator.start(Loader.definition, effects: { _ in nil })
        let login = try coordinator.start(Shop.login, under: root, effects: { _ in nil }, output: { _ in nil })
        #expect(navigator.stacks == [[.home], [.login]])
        let snapshot = try coordinator.supervisor.snapshot()

        let relaunched = HeadlessNavigator<Shop.Screen>()
        let restored = Coordinator(navigator: relaunched)
        restored.declare(ScreenMap<Loader, Shop.Screen>(Loader.definition, [.screen: .pushed(.home)]))
        restored.declare(ScreenMap<Shop.Login, Shop.Screen>(Shop.login, [.form: .presented(.login)]))
        let (again, child) = try restored.batch { () throws(SupervisorError) in
            let again = try restored.restore(snapshot.roots[0], definition: Loader.definition, effects: { _ in nil })
            let child = try restored.restore(snapshot.roots[0].children[0], definition: Shop.login, under: again,
                                             effects: { _ in nil }, output: { _ in nil })
            return (again, child)
        }
        #expect(relaunched.stacks == [[.home], [.login]])
        #expect(relaunched.log == [.push(.home), .present(.login)], "one batch: each screen shown once")
        #expect(relaunched.swipeDown())  // the child's first screen: it goes with it
        #expect(!restored.supervisor.contains(child.id) && restored.supervisor.contains(again.id))
        #expect(relaunched.stacks == [[.home]] && relaunched.problems.isEmpty)
        _ = login
    }

    @Test("Gestures, case by case: a declared child with no event for the gesture, and none above it up to the flow the coordinator started: a warning names it, and its screen comes back; its parent is not left waiting")
    func unheardDeclaredChildScreenBack() throws {
        let navigator = HeadlessNavigator<Shop.Screen>()
        let store = WarningRecorder.Store()
        let coordinator = Coordinator(navigator: navigator, logger: Logger(label: "test") { _ in WarningRecorder(store: store) })
        coordinator.declare(Shop.appScreens, userNavigation: Shop.appNavigation)
        coordinator.declare(Shop.loginScreens, userNavigation: Shop.loginNavigation)
        coordinator.declare(Shop.twoFactorScreens)  // no event for the back gesture
        let app = try coordinator.start(Shop.app, effects: { _ in nil })
        #expect(navigator.selectTab(.cart))
        for event: Shop.App.Event in [.checkout, .next, .pay] { try coordinator.send(event, to: app) }
        let login = try #require(coordinator.supervisor.declaredChild(of: app, in: .loggingIn, as: Shop.Login.self))
        try coordinator.send(.submit, to: login)
        let code = try #require(coordinator.supervisor.declaredChild(of: login, in: .verifying, as: Shop.TwoFactor.self))
        #expect(navigator.goBack())
        #expect(coordinator.supervisor.contains(code.id))
        #expect(navigator.stacks == [[.cart], [.login, .code]] && navigator.problems.isEmpty)
        #expect(store.messages.count == 1 && store.messages[0].contains("went back from screen code, shown by flow 'shop two-factor'"),
                "\(store.messages)")
        try coordinator.send(.correctCode, to: code)  // the step goes on
        #expect(navigator.stacks == [[.cart, .address, .payment]])
    }

    @Test("Gestures, case by case: a root with no event for the gesture is warned about, and the screen its state shows comes back")
    func unheardRootWarnedScreenBack() throws {
        let navigator = HeadlessNavigator<Shop.Screen>()
        let store = WarningRecorder.Store()
        let coordinator = Coordinator(navigator: navigator, logger: Logger(label: "test") { _ in WarningRecorder(store: store) })
        coordinator.declare(ScreenMap<Loader, Shop.Screen>(Loader.definition, [.screen: .pushed(.home), .loading: .pushed(.product)]))
        _ = try coordinator.start(Loader.definition, effects: { _ in nil })
        #expect(navigator.stacks == [[.home, .product]])
        #expect(navigator.goBack())
        #expect(navigator.stacks == [[.home, .product]], "the flow decides what is shown")
        #expect(store.messages.count == 1 && store.messages[0].contains("went back from screen product"))
    }

    @Test("A tab selected under a sheet keeps the sheet: a child bound to it is not torn down (review of issue 38)")
    func selectionUnderSheet() throws {
        let navigator = HeadlessNavigator<Shop.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        coordinator.declare(Shop.appScreens, userNavigation: Shop.appNavigation)
        coordinator.declare(Shop.loginScreens, userNavigation: Shop.loginNavigation)
        let app = try coordinator.start(Shop.app, effects: { _ in nil })
        let login = try coordinator.start(Shop.login, under: app, effects: { _ in nil }, dismissed: .loginCancelled,
                                          output: { _ in nil })
        #expect(navigator.stacks == [[.home], [.login]])
        let before = navigator.log.count
        try coordinator.send(.showCart, to: app)
        #expect(Array(navigator.log[before...]) == [.selectTab(.cart)])
        #expect(navigator.stacks == [[.cart], [.login]])
        try coordinator.send(.showHome, to: app)  // the supervisor's next call: a released owner would go now
        #expect(coordinator.supervisor.contains(login.id))
    }

    @Test("A layout's tabs without a root screen are left out, not a crash")
    func emptyTabRoots() {
        #expect(NavigationLayout<Int>(roots: [], showsTabs: true).commands(from: NavigationModel()).commands.isEmpty)
        let layout = NavigationLayout<Int>(roots: [[1], []], showsTabs: true)
        #expect(layout.tabStacks == [[1]])
        #expect(layout.commands(from: NavigationModel()).commands == [.tabs([1])])
    }

    enum Bouncy: Flow {
        enum State: Hashable, Sendable { case home, away }
        enum Event: FlowEvent, Hashable { case go, back }
        enum Effect: Hashable, Sendable { case bounce }
        typealias Output = Never
        static let definition = FlowDefinition<Bouncy>("bouncy", initial: .home) {
            StateNode(.home) { On(.go, to: .away) }
            StateNode(.away, entry: [.bounce]) { On(.back, to: .home) }
        }
    }

    @Test("A deep link whose path the flow's handler takes elsewhere throws diverged, saying where the flow is")
    func deepLinkDiverged() throws {
        let navigator = HeadlessNavigator<Shop.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        let machine = try coordinator.start(Bouncy.definition, effects: { _ in nil }, handler: { effect, context in
            if effect == .bounce { context.send(.back) }
        })
        let link = DeepLink<Bouncy>("away", to: [.away], through: [.go])
        #expect(try link.path(in: Bouncy.definition) == [.go])
        #expect {
            try coordinator.open(link, in: machine)
        } throws: { error in
            guard let error = error as? DeepLinkError else { return false }
            return error.code == .diverged && error.message.contains("the flow is in home")
        }
    }
}

/// A navigator whose user pops several screens at once (a long press on UIKit's back button): one
/// report, several events, as `UIKitNavigator` delivers them.
final class MultiPopNavigator<Screen: Hashable & Sendable>: Navigator {
    let store = NavigationStore<Screen>()
    var onUserNavigation: ((UserNavigation<Screen>) -> Void)?
    var shownModel: NavigationModel<Screen>? { store.model }
    var log: [NavigatorCommand<Screen>] = []
    func perform(_ command: NavigatorCommand<Screen>, retaining lifetime: AnyObject?) {
        log.append(command)
        store.perform(command, retaining: lifetime)
    }
    func popTo(remaining: Int) {
        for event in store.reconcile(.popped(store.model.topPosition, remaining: remaining)) { onUserNavigation?(event) }
    }
}

@MainActor
@Suite("Declared screens: a report of several screens gone at once (review of issue 38)")
struct MultiPopTests {
    enum Deep: Flow {
        enum State: Hashable, Sendable { case home, list, product, looking, cart }
        enum Event: FlowEvent, Hashable { case open, add, backToHome, backToProduct }
        enum Effect: Hashable, Sendable { case none }
        typealias Output = Never
        static let definition = FlowDefinition<Deep>("deep", initial: .home) {
            StateNode(.home, initial: .list) {
                StateNode(.list) { On(.open, to: .product) }
                StateNode(.product, initial: .looking) {
                    StateNode(.looking) { On(.add, to: .cart) }
                    StateNode(.cart) { On(.backToProduct, to: .looking) }
                    On(.backToHome, to: .list)
                }
            }
        }
        static let screens = ScreenMap<Deep, Shop.Screen>(definition, [.home: .pushed(.home), .product: .pushed(.product),
                                                                         .cart: .pushed(.cart)])
        static func userNavigation(_ navigation: UserNavigation<Shop.Screen>) -> Event? {
            switch navigation {
            case .wentBack(from: .cart): .backToProduct
            case .wentBack(from: .product): .backToHome
            default: nil
            }
        }
    }

    @Test("Two screens popped at once, both heard: the flow follows, and nothing is pushed back in between")
    func heard() throws {
        let navigator = MultiPopNavigator<Shop.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        coordinator.declare(Deep.screens, userNavigation: Deep.userNavigation)
        let deep = try coordinator.start(Deep.definition, effects: { _ in nil })
        try coordinator.send(.open, to: deep)
        try coordinator.send(.add, to: deep)
        #expect(navigator.store.model.stacks == [[.home, .product, .cart]])
        let before = navigator.log.count
        navigator.popTo(remaining: 1)
        #expect(coordinator.supervisor.state(of: deep) == .list)
        #expect(navigator.log.count == before)
        try coordinator.send(.open, to: deep)
        #expect(navigator.store.model.stacks == [[.home, .product]])
    }

    @Test("Two screens popped at once, neither heard: both come back, in order, with the stacks the coordinator knows")
    func unheard() throws {
        let navigator = MultiPopNavigator<Shop.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        coordinator.declare(Deep.screens)
        let deep = try coordinator.start(Deep.definition, effects: { _ in nil })
        try coordinator.send(.open, to: deep)
        try coordinator.send(.add, to: deep)
        let before = navigator.log.count
        navigator.popTo(remaining: 1)
        #expect(Array(navigator.log[before...]) == [.push(.product), .push(.cart)])
        #expect(navigator.store.model.stacks == [[.home, .product, .cart]])
        #expect(coordinator.layout?.stacks == [[.home, .product, .cart]])
    }
}

@MainActor
@Suite("Declared screens: a declared child in a tab's region pushes on that tab (review of issue 38)")
struct ChildInTabTests {
    enum Review: Flow {
        enum State: Hashable, Sendable { case reading }
        enum Event: FlowEvent, Hashable { case done }
        enum Effect: Hashable, Sendable { case none }
        typealias Output = Void
        static let definition = FlowDefinition<Review>("review", initial: .reading) { StateNode(.reading) }
    }

    enum Tabs: Flow {
        enum State: Hashable, Sendable { case main, selection, onHome, onCart, homeStack, browsing, reviewing, cartStack, cartRoot }
        enum Event: FlowEvent, Hashable { case showHome, showCart, review }
        typealias Effect = Review.Effect
        typealias Output = Never
        static let definition = FlowDefinition<Tabs>("tabs", initial: .main) {
            Parallel(.main) {
                StateNode(.selection, initial: .onHome) {
                    StateNode(.onHome) { On(.showCart, to: .onCart) }
                    StateNode(.onCart) { On(.showHome, to: .onHome) }
                }
                StateNode(.homeStack, initial: .browsing) {
                    StateNode(.browsing) { On(.review, to: .reviewing) }
                    StateNode(.reviewing, runs: ChildFlow<Tabs>(Review.definition) { _ in nil })
                }
                StateNode(.cartStack, initial: .cartRoot) { StateNode(.cartRoot) }
            }
        }
    }

    @Test("The child's pushes go on the tab its parent's state fills, whichever tab is selected")
    func childPushesOnItsTab() throws {
        let navigator = HeadlessNavigator<Shop.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        coordinator.declare(ScreenMap<Tabs, Shop.Screen>(Tabs.definition, [
            .main: .tabs([.home, .cart]), .onHome: .selectsTab(.home), .onCart: .selectsTab(.cart),
            .homeStack: .tab(.home), .cartStack: .tab(.cart),
        ]))
        coordinator.declare(ScreenMap<Review, Shop.Screen>(Review.definition, [.reading: .pushed(.product)]))
        let tabs = try coordinator.start(Tabs.definition, effects: { _ in nil })
        try coordinator.send(.showCart, to: tabs)
        try coordinator.send(.review, to: tabs)
        #expect(navigator.tabStacks == [[.home, .product], [.cart]])
        #expect(navigator.stacks == [[.cart]])
        let before = navigator.log.count
        try coordinator.send(.showHome, to: tabs)
        #expect(Array(navigator.log[before...]) == [.selectTab(.home)])
        #expect(navigator.stacks == [[.home, .product]] && navigator.problems.isEmpty)
    }
}

@MainActor
@Suite("Declared screens: a step taken outside the coordinator's calls (review of issue 38)")
struct AsyncStepTests {
    enum Inner: Flow {
        enum State: Hashable, Sendable { case showing }
        enum Event: FlowEvent, Hashable { case never }
        typealias Effect = Outer.Effect
        typealias Output = Void
        static let definition = FlowDefinition<Inner>("inner", initial: .showing) { StateNode(.showing) { On(.never, to: .showing) } }
    }

    enum Outer: Flow {
        enum State: Hashable, Sendable { case root, a, b }
        enum Event: FlowEvent, Hashable { case go }
        enum Effect: Hashable, Sendable { case load }
        typealias Output = Void
        static let definition = FlowDefinition<Outer>("outer", initial: .root) {
            StateNode(.root, initial: .a) {
                StateNode(.a, runs: ChildFlow<Outer>(Inner.definition) { _ in nil }, entry: [.load]) { On(.go, to: .b) }
                StateNode(.b)
            }
        }
    }

    @Test("An async result that leaves the state running a child: the child's screen goes and the new one comes, once each")
    func leavesChildState() async throws {
        let navigator = HeadlessNavigator<Shop.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        coordinator.declare(ScreenMap<Outer, Shop.Screen>(Outer.definition, [.root: .pushed(.home), .b: .pushed(.cart)]))
        coordinator.declare(ScreenMap<Inner, Shop.Screen>(Inner.definition, [.showing: .pushed(.product)]))
        let outer = try coordinator.start(Outer.definition, effects: { _ in nil }, handler: { effect, context in
            if effect == .load { try context.task { .go } }
        })
        #expect(navigator.stacks == [[.home, .product]])
        let before = navigator.log.count
        for _ in 0..<1_000 where coordinator.supervisor.state(of: outer) != .b { await Task.yield() }
        #expect(coordinator.supervisor.state(of: outer) == .b)
        #expect(navigator.stacks == [[.home, .cart]])
        #expect(Array(navigator.log[before...]) == [.pop, .push(.cart)])
    }
}
