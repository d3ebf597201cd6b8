import CoordinatorExamples
import FlowNavigation
import Flowstate
import FlowTesting
import Testing

/// The seed coordinator examples (`Examples/Coordinators`), tested with the kit as a user would: every
/// command states the transitions, the children spawned and torn down, and the screens shown.

@Suite("Coordinators with the kit: Khanlou's photos (seed 001)")
struct KhanlouKitTests {
    typealias Example = KhanlouPhotos

    @Test("Post a photo: present the picker, push the editor, post, dismiss")
    func post() throws {
        let navigator = HeadlessNavigator<Example.Screen>()
        let host = try Example.Host(navigator: navigator)
        let tester = FlowTreeTester(host.coordinator.supervisor, navigator: navigator)
        let app: MachineHandle<Example.App> = host.app
        var photo: MachineHandle<Example.Photo>!
        try tester.step { try host.newPhoto() } expect: {
            $0.transition(app, to: .creatingPhoto)
            photo = $0.spawned(Example.photo, in: .picking, under: app)
            $0.navigation([.present(.picker)])
        }
        #expect(photo == host.photoFlow)
        try tester.send(.picked, to: photo) {
            $0.transition(photo, to: .editing)
            $0.navigation([.push(.editor)])
        }
        try tester.send(.post, to: photo) {
            $0.transition(photo, to: .posted)
            $0.completed(photo, output: .posted)
            $0.tornDown(photo, .completed)
            $0.transition(app, to: .browsing)
            $0.navigation([.dismiss])
        }
        #expect(navigator.stacks == [[.feed]])
        tester.finish(running: [app.id])
    }

    @Test("The back gesture on the editor goes back to picking; swiping the picker down cancels")
    func backThenSwipe() throws {
        let navigator = HeadlessNavigator<Example.Screen>()
        let host = try Example.Host(navigator: navigator)
        let tester = FlowTreeTester(host.coordinator.supervisor, navigator: navigator)
        let app: MachineHandle<Example.App> = host.app
        try tester.step { try host.newPhoto() } expect: {
            $0.transition(app, to: .creatingPhoto)
            $0.spawned(Example.photo, in: .picking, under: app)
            $0.navigation([.present(.picker)])
        }
        let photo = try #require(host.photoFlow)
        try tester.send(.picked, to: photo) {
            $0.transition(photo, to: .editing)
            $0.navigation([.push(.editor)])
        }
        tester.step { navigator.goBack() } expect: {
            $0.transition(photo, to: .picking)  // the user popped the editor: no navigation command
        }
        tester.step { navigator.swipeDown() } expect: {
            $0.tornDown(photo, .ownerReleased)
            $0.transition(app, to: .browsing)
        }
        #expect(navigator.stacks == [[.feed]])
        tester.finish(running: [app.id])
    }
}

@Suite("Coordinators with the kit: the Assistant (seeds 000 and 002)")
struct AssistantKitTests {
    typealias Example = Assistant

    @Test("Add a person: typing changes nothing visible, saving dismisses and the list shows the person")
    func save() throws {
        let navigator = HeadlessNavigator<Example.Screen>()
        let host = try Example.Host(navigator: navigator)
        let tester = FlowTreeTester(host.coordinator.supervisor, navigator: navigator)
        let list: MachineHandle<Example.Persons> = host.list
        try tester.step { try host.add() } expect: {
            $0.transition(list, to: .adding)
            $0.spawned(Example.addPerson, in: .editing, under: list)
            $0.navigation([.present(.addPerson)])
        }
        let adding = try #require(host.adding)
        try tester.step { try host.type("Ada") } expect: {
            $0.transition(adding, to: .editing)  // targetless; its effect is no navigation
        }
        try tester.send(.save, to: adding) {
            $0.transition(adding, to: .saved)
            $0.completed(adding, output: .saved("Ada"))
            $0.tornDown(adding, .completed)
            $0.transition(list, to: .list)
            $0.navigation([.dismiss])
        }
        #expect(host.shown == ["Ada"])
        tester.finish(running: [list.id])
    }

    @Test("Cancel asks with the flow's alert; keep editing, then discard")
    func alert() throws {
        let navigator = HeadlessNavigator<Example.Screen>()
        let host = try Example.Host(navigator: navigator)
        let tester = FlowTreeTester(host.coordinator.supervisor, navigator: navigator)
        let list: MachineHandle<Example.Persons> = host.list
        try tester.step { try host.add() } expect: {
            $0.transition(list, to: .adding)
            $0.spawned(Example.addPerson, in: .editing, under: list)
            $0.navigation([.present(.addPerson)])
        }
        let adding = try #require(host.adding)
        let alert = NavigatorCommand<Example.Screen>.alert(title: "Discard this person?", choices: ["Keep editing", "Discard"])
        try tester.send(.cancel, to: adding) {
            $0.transition(adding, to: .confirmingDiscard)
            $0.navigation([alert])
        }
        tester.step { navigator.choose("Keep editing") } expect: {
            $0.transition(adding, to: .editing)
        }
        try tester.send(.cancel, to: adding) {
            $0.transition(adding, to: .confirmingDiscard)
            $0.navigation([alert])
        }
        tester.step { navigator.choose("Discard") } expect: {
            $0.transition(adding, to: .discarded)
            $0.completed(adding, output: .discarded)
            $0.tornDown(adding, .completed)
            $0.transition(list, to: .list)
            $0.navigation([.dismiss])
        }
        #expect(host.shown.isEmpty)
        tester.finish(running: [list.id])
    }
}

@Suite("Coordinators with the kit: the first-launch account (seed 004)")
struct FirstLaunchAccountKitTests {
    typealias Example = FirstLaunchAccount

    @Test("Email, password, back, password, code, created: home is pushed")
    func create() throws {
        let navigator = HeadlessNavigator<Example.Screen>()
        let host = try Example.Host(navigator: navigator)
        let tester = FlowTreeTester(host.coordinator.supervisor, navigator: navigator)
        let launch: MachineHandle<Example.Launch> = host.launch
        try tester.step { try host.createAccount() } expect: {
            $0.transition(launch, to: .creatingAccount)
            $0.spawned(Example.newAccount, in: .email, under: launch)
            $0.navigation([.present(.email)])
        }
        let account = try #require(host.account)
        try tester.send(.next, to: account) {
            $0.transition(account, to: .password)
            $0.navigation([.push(.password)])
        }
        tester.step { navigator.goBack() } expect: {
            $0.transition(account, to: .email)
        }
        try tester.send(.next, to: account) {
            $0.transition(account, to: .password)
            $0.navigation([.push(.password)])
        }
        try tester.send(.next, to: account) {
            $0.transition(account, to: .code)
            $0.navigation([.push(.code)])
        }
        try tester.send(.next, to: account) {
            $0.transition(account, to: .created)
            $0.completed(account, output: .created)
            $0.tornDown(account, .completed)
            $0.transition(launch, to: .home)
            $0.navigation([.dismiss, .push(.home)])
        }
        #expect(navigator.stacks == [[.welcome, .home]])
        tester.finish(running: [launch.id])
    }

    @Test("Swiping the account screens down at the code step cancels: back to welcome")
    func swipe() throws {
        let navigator = HeadlessNavigator<Example.Screen>()
        let host = try Example.Host(navigator: navigator)
        let tester = FlowTreeTester(host.coordinator.supervisor, navigator: navigator)
        let launch: MachineHandle<Example.Launch> = host.launch
        try tester.step { try host.createAccount() } expect: {
            $0.transition(launch, to: .creatingAccount)
            $0.spawned(Example.newAccount, in: .email, under: launch)
            $0.navigation([.present(.email)])
        }
        let account = try #require(host.account)
        try tester.send(.next, to: account) {
            $0.transition(account, to: .password)
            $0.navigation([.push(.password)])
        }
        try tester.send(.next, to: account) {
            $0.transition(account, to: .code)
            $0.navigation([.push(.code)])
        }
        tester.step { navigator.swipeDown() } expect: {
            $0.tornDown(account, .ownerReleased)
            $0.transition(launch, to: .welcome)
        }
        #expect(navigator.stacks == [[.welcome]])
        tester.finish(running: [launch.id])
    }
}

@Suite("Coordinators with the kit: the order router (seed 003)")
struct OrderRouterKitTests {
    typealias Example = OrderRouter

    @Test("Not logged in: login first, then the cart and the confirmation; the typed result comes back")
    func orderWithLogin() throws {
        let navigator = HeadlessNavigator<Example.Screen>()
        let host = try Example.Host(navigator: navigator)
        let tester = FlowTreeTester(host.coordinator.supervisor, navigator: navigator)
        let main: MachineHandle<Example.Main> = host.main
        try tester.step { try host.order() } expect: {
            $0.transition(main, to: .ordering)
            $0.spawned(Example.order(session: host.session, nextOrderID: { 0 }), in: .login, under: main)
            $0.navigation([.present(.login)])
        }
        let order = try #require(host.ordering)
        try tester.send(.loggedIn, to: order) {
            $0.transition(order, to: .cart)
            $0.navigation([.push(.cart)])
        }
        try tester.send(.checkout, to: order) {
            $0.transition(order, to: .confirming)
            $0.navigation([.push(.confirmation)])
        }
        try tester.send(.confirm, to: order) {
            $0.transition(order, to: .placed)
            $0.completed(order, output: .placed(orderID: 1001))
            $0.tornDown(order, .completed)
            $0.transition(main, to: .home)
            $0.navigation([.dismiss])
        }
        #expect(host.results == [.placed(orderID: 1001)])
        tester.finish(running: [main.id])
    }

    @Test("Logged in: straight to the cart; going back from the confirmation, then cancelling")
    func orderLoggedIn() throws {
        let navigator = HeadlessNavigator<Example.Screen>()
        let host = try Example.Host(navigator: navigator)
        host.session.isLoggedIn = true
        let tester = FlowTreeTester(host.coordinator.supervisor, navigator: navigator)
        let main: MachineHandle<Example.Main> = host.main
        try tester.step { try host.order() } expect: {
            $0.transition(main, to: .ordering)
            $0.spawned(Example.order(session: host.session, nextOrderID: { 0 }), in: .cart, under: main)
            $0.navigation([.present(.cart)])
        }
        let order = try #require(host.ordering)
        try tester.send(.checkout, to: order) {
            $0.transition(order, to: .confirming)
            $0.navigation([.push(.confirmation)])
        }
        tester.step { navigator.goBack() } expect: {
            $0.transition(order, to: .cart)
        }
        try tester.send(.cancel, to: order) {
            $0.transition(order, to: .cancelled)
            $0.completed(order, output: .cancelled)
            $0.tornDown(order, .completed)
            $0.transition(main, to: .home)
            $0.navigation([.dismiss])
        }
        #expect(host.results == [.cancelled])
        tester.finish(running: [main.id])
    }
}
