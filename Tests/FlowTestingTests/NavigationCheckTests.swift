import CoordinatorExamples
import FlowNavigation
import Flowstate
import FlowTesting
import Testing

/// `NavigationCheck`: every path through a coordinator tree, with the user's gestures at every
/// point, shows only screens that a live flow owns (issue 38, item 5).
@MainActor
@Suite("Navigation check: no screen outlives its flow, on every path")
struct NavigationCheckTests {
    @Test("The shop: every path through its tabs, checkout, login and two-factor step is clean")
    func shop() {
        let check = NavigationCheck<Shop.Host, Shop.Screen>(make: { navigator in
            let host = Shop.Host(navigator: navigator)
            try host.start()
            return (host, host.coordinator)
        }, taps: [
            .init("try host.coordinator.send(.checkout, to: host.app)") { try $0.coordinator.send(.checkout, to: $0.app) },
            .init("try host.coordinator.send(.next, to: host.app)") { try $0.coordinator.send(.next, to: $0.app) },
            .init("try host.coordinator.send(.pay, to: host.app)") { try $0.coordinator.send(.pay, to: $0.app) },
            .init("try host.coordinator.send(.openProduct, to: host.app)") { try $0.coordinator.send(.openProduct, to: $0.app) },
            .init("try host.coordinator.send(.submit, to: host.login!)") { host in
                guard let login = host.login else { throw SupervisorError(code: .machineGone, message: "no login") }
                try host.coordinator.send(.submit, to: login)
            },
            .init("try host.coordinator.send(.correctCode, to: host.twoFactor!)") { host in
                guard let code = host.twoFactor else { throw SupervisorError(code: .machineGone, message: "no code") }
                try host.coordinator.send(.correctCode, to: code)
            },
        ])
        let result = check.run(maxDepth: 9)
        #expect(result.problem == nil, "\(result.swiftTest)")
        #expect(result.explored > 20)
    }

    @Test("Seed 004's first launch, with its screen-bound new-account child: clean, once the welcome screen its host pushes by hand is named")
    func firstLaunch() {
        // The host pushes the welcome screen before the launch flow starts: no flow owns it.
        let unnamed = NavigationCheck<FirstLaunchAccount.Host, FirstLaunchAccount.Screen>(make: { navigator in
            let host = try FirstLaunchAccount.Host(navigator: navigator)
            return (host, host.coordinator)
        }, taps: []).run()
        #expect(unnamed.problem?.contains("screen welcome is shown") == true && unnamed.path.isEmpty)
        let check = NavigationCheck<FirstLaunchAccount.Host, FirstLaunchAccount.Screen>(hostScreens: [.welcome], make: { navigator in
            let host = try FirstLaunchAccount.Host(navigator: navigator)
            return (host, host.coordinator)
        }, taps: [
            .init("try host.createAccount()") { try $0.createAccount() },
            .init("try host.coordinator.send(.next, to: host.account!)") { host in
                guard let account = host.account else { throw SupervisorError(code: .machineGone, message: "none") }
                try host.coordinator.send(.next, to: account)
            },
        ])
        let result = check.run(maxDepth: 12)
        #expect(result.problem == nil, "\(result.swiftTest) \(result.path)")
        #expect(result.isComplete, "\(result.explored)")
    }

    @Test("Seed 001, Khanlou's app coordinator and its photo child: clean")
    func khanlou() {
        func photo(_ event: KhanlouPhotos.Photo.Event) -> NavigationCheck<KhanlouPhotos.Host, KhanlouPhotos.Screen>.Tap {
            .init("try host.coordinator.send(.\(event), to: host.photoFlow!)") { host in
                guard let flow = host.photoFlow else { throw SupervisorError(code: .machineGone, message: "none") }
                try host.coordinator.send(event, to: flow)
            }
        }
        let check = NavigationCheck<KhanlouPhotos.Host, KhanlouPhotos.Screen>(hostScreens: [.feed], make: { navigator in
            let host = try KhanlouPhotos.Host(navigator: navigator)
            return (host, host.coordinator)
        }, taps: [.init("try host.newPhoto()") { try $0.newPhoto() }, photo(.picked), photo(.post), photo(.cancel)])
        let result = check.run(maxDepth: 12)
        #expect(result.problem == nil, "\(result.swiftTest)")
        #expect(result.isComplete)
    }

    @Test("Seeds 000 and 002, the Assistant's list, its add-person child and the flow's alert: clean")
    func assistant() {
        func adding(_ event: Assistant.AddPerson.Event) -> NavigationCheck<Assistant.Host, Assistant.Screen>.Tap {
            .init("try host.coordinator.send(.\(event), to: host.adding!)") { host in
                guard let flow = host.adding else { throw SupervisorError(code: .machineGone, message: "none") }
                try host.coordinator.send(event, to: flow)
            }
        }
        let check = NavigationCheck<Assistant.Host, Assistant.Screen>(hostScreens: [.persons], make: { navigator in
            let host = try Assistant.Host(navigator: navigator)
            return (host, host.coordinator)
        }, taps: [.init("try host.add()") { try $0.add() }, .init("try host.type(\"Ada\")") { try $0.type("Ada") },
                  adding(.save), adding(.cancel)])
        let result = check.run(maxDepth: 12)
        #expect(result.problem == nil, "\(result.swiftTest)")
        #expect(result.isComplete)
    }

    @Test("Seed 003, the Router's order flow that logs in first: clean")
    func router() {
        func order(_ event: OrderRouter.Order.Event) -> NavigationCheck<OrderRouter.Host, OrderRouter.Screen>.Tap {
            .init("try host.coordinator.send(.\(event), to: host.ordering!)") { host in
                guard let flow = host.ordering else { throw SupervisorError(code: .machineGone, message: "none") }
                try host.coordinator.send(event, to: flow)
            }
        }
        let check = NavigationCheck<OrderRouter.Host, OrderRouter.Screen>(hostScreens: [.home], make: { navigator in
            let host = try OrderRouter.Host(navigator: navigator)
            return (host, host.coordinator)
        }, taps: [.init("try host.order()") { try $0.order() }, order(.loggedIn), order(.checkout), order(.confirm),
                  order(.cancel)])
        let result = check.run(maxDepth: 12)
        #expect(result.problem == nil, "\(result.swiftTest)")
        #expect(result.isComplete)
    }

    @Test("TabbedStacks: clean")
    func tabbedStacks() {
        let check = NavigationCheck<TabbedStacks.Host, TabbedStacks.Screen>(make: { navigator in
            let host = try TabbedStacks.Host(navigator: navigator)
            return (host, host.coordinator)
        }, taps: [
            .init("try host.coordinator.send(.open, to: host.app)") { try $0.coordinator.send(.open, to: $0.app) },
            .init("try host.coordinator.send(.showSettings, to: host.app)") { try $0.coordinator.send(.showSettings, to: $0.app) },
        ])
        let result = check.run()
        #expect(result.problem == nil, "\(result.swiftTest)")
        #expect(result.isComplete)
    }

    enum Leaky: Flow {
        enum State: Hashable, Sendable { case list, editing, saved }
        enum Event: FlowEvent, Hashable { case edit, save }
        typealias Effect = Navigation<Int, Event>
        typealias Output = Never
    }

    enum Editor: Flow {
        enum State: Hashable, Sendable { case open, done }
        enum Event: FlowEvent, Hashable { case save }
        typealias Effect = Navigation<Int, Event>
        enum Output: Hashable, Sendable { case saved }
    }

    final class LeakyHost {
        let coordinator: Coordinator<Int>
        var list: MachineHandle<Leaky>!
        var editor: MachineHandle<Editor>?
        init(navigator: HeadlessNavigator<Int>) throws {
            coordinator = Coordinator(navigator: navigator)
            list = try coordinator.start(FlowDefinition<Leaky>("list", initial: .list) {
                StateNode(.list, entry: [.push(1)]) { On(.edit, to: .editing) }
                StateNode(.editing) { On(.save, to: .list) }
            }, effects: { $0 })
        }
        func edit() throws {
            try coordinator.send(.edit, to: list)
            // The editor presents its screen and, finished, forgets to dismiss it.
            editor = try coordinator.start(FlowDefinition<Editor>("editor", initial: .open) {
                StateNode(.open, entry: [.present(2)]) { On(.save, to: .done) }
                Final(.done, output: .saved)
            }, under: list, effects: { $0 }) { _ in .save }
        }
    }

    @Test("A child that forgets to dismiss what it presented fails with the shortest path to the leak, printed as a Swift test")
    func leak() {
        let check = NavigationCheck<LeakyHost, Int>(make: { navigator in
            let host = try LeakyHost(navigator: navigator)
            return (host, host.coordinator)
        }, taps: [
            .init("try host.edit()") { try $0.edit() },
            .init("try host.coordinator.send(.save, to: host.editor!)") { host in
                guard let editor = host.editor else { throw SupervisorError(code: .machineGone, message: "none") }
                try host.coordinator.send(.save, to: editor)
            },
        ])
        let result = check.run()
        #expect(result.problem?.contains("screen 2 is shown, and no live flow") == true)
        #expect(result.path == ["try host.edit()", "try host.coordinator.send(.save, to: host.editor!)"])
        #expect(result.swiftTest.contains("    try host.edit()\n    try host.coordinator.send(.save, to: host.editor!)"))
    }

    enum Sheet: Flow {
        enum State: Hashable, Sendable { case shown, closed }
        enum Event: FlowEvent, Hashable { case close }
        typealias Effect = Navigation<Int, Event>
        typealias Output = Void
        static let definition = FlowDefinition<Sheet>("sheet", initial: .shown) {
            StateNode(.shown, entry: [.present(3)]) { On(.close, to: .closed, effects: [.dismiss]) }
            StateNode(.closed)
        }
    }

    final class SheetsHost {
        let coordinator: Coordinator<Int>
        let list: MachineHandle<Leaky>
        var sheets: [MachineHandle<Sheet>] = []
        init(navigator: HeadlessNavigator<Int>) throws {
            coordinator = Coordinator(navigator: navigator)
            list = try coordinator.start(FlowDefinition<Leaky>("list", initial: .list) {
                StateNode(.list, entry: [.push(1)]) { On(.edit, to: .list) }
            }, effects: { $0 })
        }
        func open() throws {
            guard sheets.count < 2 else { throw SupervisorError(code: .machineGone, message: "two at most") }
            sheets.append(try coordinator.start(Sheet.definition, under: list, effects: { $0 }, output: { _ in nil }))
        }
    }

    @Test("A flow that dismisses a sheet another flow presented fails the check, with the shortest path to it")
    func removesAnothersScreen() {
        let check = NavigationCheck<SheetsHost, Int>(make: { navigator in
            let host = try SheetsHost(navigator: navigator)
            return (host, host.coordinator)
        }, taps: [
            .init("try host.open()") { try $0.open() },
            .init("try host.coordinator.send(.close, to: host.sheets[0])") { host in
                guard let sheet = host.sheets.first else { throw SupervisorError(code: .machineGone, message: "none") }
                try host.coordinator.send(.close, to: sheet)
            },
        ])
        let result = check.run()
        #expect(result.problem?.contains("removed screen 3 with dismiss, and flow") == true, "\(result)")
        #expect(result.path == ["try host.open()", "try host.open()", "try host.coordinator.send(.close, to: host.sheets[0])"])
    }

    enum Popper: Flow {
        enum State: Hashable, Sendable { case list }
        enum Event: FlowEvent, Hashable { case oops }
        typealias Effect = Navigation<Int, Event>
        typealias Output = Never
    }

    @Test("A problem on the way to a state already seen still fails the check; so does make throwing")
    func problemOnTheWay() {
        let popper = FlowDefinition<Popper>("popper", initial: .list) {
            StateNode(.list, entry: [.push(1)]) { On(.oops, to: nil, effects: [.pop]) }  // pops the root
        }
        let withTap = NavigationCheck<(MachineHandle<Popper>, Coordinator<Int>), Int>(make: { navigator in
            let coordinator = Coordinator(navigator: navigator)
            return ((try coordinator.start(popper, effects: { $0 }), coordinator), coordinator)
        }, taps: [.init("try host.1.send(.oops, to: host.0)") { try $0.1.send(.oops, to: $0.0) }])
        let result = withTap.run()
        #expect(result.problem?.contains("makes no sense") == true, "\(result)")
        #expect(result.path == ["try host.1.send(.oops, to: host.0)"])

        struct Broken: Error {}
        let broken = NavigationCheck<Int, Int>(make: { _ in throw Broken() }, taps: []).run()
        #expect(broken.problem?.hasPrefix("make threw") == true)
    }
}
