import CoordinatorExamples
import FlowNavigation
import Flowstate
import FlowTesting
import Testing

// The tutorial "Building an app's flow, end to end", sections 7 to 10 (Sources/FlowNavigation/
// FlowNavigation.docc/BuildingAnApp.md): its snippets, verbatim, in its order; `DocSnippetCheckTests`
// fails when one is missing.

@MainActor
@Suite("Tutorial, sections 7-10: declared screens, restoring the whole tree, deep links, the navigation check")
struct AppTutorialShopTests {
    @Test("The shop as the tutorial builds it")
    func shopPath() throws {
        let navigator = HeadlessNavigator<Shop.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        coordinator.declare(Shop.appScreens, userNavigation: Shop.appNavigation)
        coordinator.declare(Shop.loginScreens, userNavigation: Shop.loginNavigation)
        coordinator.declare(Shop.twoFactorScreens, userNavigation: Shop.twoFactorNavigation)
        let app = try coordinator.start(Shop.app, effects: { _ in nil })
        #expect(navigator.tabStacks == [[.home], [.cart]])

        let screens = ScreenMap<Shop.Login, Shop.Screen>(Shop.login, [.form: .presented(.login)])
        #expect(screens.layout(of: [.entering]).stacks == [[], [.login]])

        #expect(navigator.selectTab(.cart))
        for event: Shop.App.Event in [.checkout, .next, .pay] { try coordinator.send(event, to: app) }
        let login = try #require(coordinator.supervisor.declaredChild(of: app, in: .loggingIn, as: Shop.Login.self))
        try coordinator.send(.submit, to: login)
        #expect(navigator.stacks == [[.cart], [.login, .code]])
        #expect(navigator.goBack())                   // the two-factor flow hears it, and ends
        #expect(coordinator.supervisor.state(of: login) == .entering)
        try coordinator.send(.submit, to: login)

        let snapshot = try coordinator.supervisor.snapshot()
        let relaunched = HeadlessNavigator<Shop.Screen>()
        let restoring = Coordinator(navigator: relaunched)
        restoring.declare(Shop.appScreens, userNavigation: Shop.appNavigation)
        restoring.declare(Shop.loginScreens, userNavigation: Shop.loginNavigation)
        restoring.declare(Shop.twoFactorScreens, userNavigation: Shop.twoFactorNavigation)
        let restored = try restoring.restore(snapshot.roots[0], definition: Shop.app, effects: { _ in nil })
        #expect(relaunched.stacks == [[.cart], [.login, .code]])
        #expect(relaunched.swipeDown())               // the restored login hears it: back to the payment
        #expect(relaunched.stacks == [[.cart, .address, .payment]])
        #expect(restoring.supervisor.state(of: restored) == .onCart)

        let linked = HeadlessNavigator<Shop.Screen>()
        let host = Shop.Host(navigator: linked)
        try host.start()
        let path = try host.coordinator.open(path: "/checkout/payment", routes: Shop.routes, in: host.app)
        #expect(path == [.showCart, .checkout, .next, .pay, .loggedIn])
        #expect(linked.stacks == [[.cart, .address, .payment]])
        #expect(try Shop.paymentLink.path(in: Shop.app) != nil)   // a test's one line: the link leads somewhere

        let check = NavigationCheck<Shop.Host, Shop.Screen>(make: { navigator in
            let host = Shop.Host(navigator: navigator)
            try host.start()
            return (host, host.coordinator)
        }, taps: [
            .init("try host.coordinator.send(.checkout, to: host.app)") { try $0.coordinator.send(.checkout, to: $0.app) },
            .init("try host.coordinator.send(.next, to: host.app)") { try $0.coordinator.send(.next, to: $0.app) },
            .init("try host.coordinator.send(.pay, to: host.app)") { try $0.coordinator.send(.pay, to: $0.app) },
        ])
        let result = check.run()
        #expect(result.problem == nil, "\(result.swiftTest)")
    }
}
