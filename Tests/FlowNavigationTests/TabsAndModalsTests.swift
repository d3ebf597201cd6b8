import FlowNavigation
import Flowstate
import Testing

/// Flows with tabs and stacked modals.
enum Tabbed {
    enum Screen: String, Hashable, Sendable, CustomStringConvertible {
        case feed, post, profile, settings, compose, attach, preview
        var description: String { rawValue }
    }

    /// An app flow with two tabs; the user's tab switches are its events.
    enum App: Flow {
        enum State: String, Hashable, Sendable, CustomStringConvertible {
            case main, feed, reading, profile, composing
            var description: String { rawValue }
        }
        enum Event: FlowEvent, Hashable {
            case open, wentBack, showProfile, userChoseFeed, userChoseProfile, compose, composeEnded
        }
        typealias Effect = Navigation<Screen, Event>
        typealias Output = Never
    }

    /// Shows the tabs once, on entering `main`; the states under it are what the user sees.
    static let app = FlowDefinition<App>("tabbed-app", initial: .main) {
        StateNode(.main, entry: [.tabs([.feed, .profile])]) {
            StateNode(.feed) {
                On(.open, to: .reading, effects: [.push(.post)])
                On(.showProfile, to: .profile, effects: [.selectTab(.profile)])
                On(.userChoseProfile, to: .profile)
                On(.compose, to: .composing)
            }
            StateNode(.reading) { On(.userChoseProfile, to: .profile) }
            StateNode(.profile) {
                On(.userChoseFeed, to: .feed)
                On(.compose, to: .composing)
            }
            StateNode(.composing) { On(.composeEnded, to: .feed, effects: [.selectTab(.feed)]) }
            On(.wentBack, to: .feed)
        }
    }

    static func userNavigation(_ navigation: UserNavigation<Screen>) -> App.Event? {
        switch navigation {
        case .selectedTab(.feed): .userChoseFeed
        case .selectedTab(.profile): .userChoseProfile
        case .wentBack: .wentBack
        default: nil
        }
    }

    /// The output mapping of a flow that never finishes.
    @Sendable static func noOutput(_ output: Never) -> Modal.Event? {}

    /// A modal flow: presents its screen, may push, and may start another modal flow over it.
    enum Modal: Flow {
        enum State: String, Hashable, Sendable, CustomStringConvertible {
            case shown, first, deeper, over, done
            var description: String { rawValue }
        }
        enum Event: FlowEvent, Hashable { case deeper, cover, uncovered, close }
        typealias Effect = Navigation<Screen, Event>
        typealias Output = Bool
    }

    static func modal(_ screen: Screen, then next: Screen) -> FlowDefinition<Modal> {
        FlowDefinition<Modal>("modal-\(screen)", initial: .shown) {
            StateNode(.shown, entry: [.present(screen)]) {
                StateNode(.first) {
                    On(.deeper, to: .deeper, effects: [.push(next)])
                    On(.cover, to: .over)
                }
                StateNode(.deeper) { On(.cover, to: .over) }
                StateNode(.over) { On(.uncovered, to: .first) }
                On(.close, to: .done)
            }
            Final(.done, output: true, entry: [.dismiss])
        }
    }
}

@Suite("Tabs, each with its own stack, and modals stacked over them")
struct TabsAndModalsTests {
    typealias Screen = Tabbed.Screen

    @Test("Headless: each tab keeps its own stack; the user's tab switch is reported")
    func headlessTabs() {
        let navigator = HeadlessNavigator<Screen>()
        var heard: [UserNavigation<Screen>] = []
        navigator.onUserNavigation = { heard.append($0) }
        #expect(navigator.tabStacks.isEmpty && navigator.selectedTab == nil)
        navigator.perform(.tabs([.feed, .profile]), retaining: nil)
        #expect(navigator.tabStacks == [[.feed], [.profile]])
        #expect(navigator.selectedTab == .feed)
        navigator.perform(.push(.post), retaining: nil)
        #expect(navigator.stacks == [[.feed, .post]])
        #expect(navigator.selectTab(.profile))
        #expect(heard == [.selectedTab(.profile)])
        #expect(navigator.stacks == [[.profile]])
        navigator.perform(.push(.settings), retaining: nil)
        #expect(navigator.tabStacks == [[.feed, .post], [.profile, .settings]])
        #expect(!navigator.selectTab(.profile), "already selected")
        #expect(!navigator.selectTab(.post), "not a tab")
        navigator.perform(.selectTab(.feed), retaining: nil)
        #expect(navigator.top == .post)
        #expect(heard == [.selectedTab(.profile)], "a selection the flow asked for is not reported")
        #expect(navigator.goBack())
        #expect(heard.last == .wentBack(from: .post))
        #expect(navigator.tabStacks == [[.feed], [.profile, .settings]])
        navigator.perform(.popToRoot, retaining: nil)
        #expect(navigator.tabStacks == [[.feed], [.profile, .settings]], "popToRoot acts on the selected tab")
        navigator.perform(.present(.compose), retaining: nil)
        #expect(!navigator.selectTab(.profile), "a modal covers the tab bar")
        #expect(navigator.stacks == [[.feed], [.compose]])
        #expect(navigator.problems.isEmpty)
        navigator.perform(.selectTab(.post), retaining: nil)
        navigator.perform(.tabs([.feed, .feed]), retaining: nil)
        #expect(navigator.problems.count == 2)
    }

    @Test("Headless: modals over modals, each with its own stack; only the top one is swiped down")
    func headlessStackedModals() {
        let navigator = HeadlessNavigator<Screen>()
        var heard: [UserNavigation<Screen>] = []
        navigator.onUserNavigation = { heard.append($0) }
        navigator.perform(.tabs([.feed, .profile]), retaining: nil)
        navigator.perform(.present(.compose), retaining: nil)
        navigator.perform(.push(.attach), retaining: nil)
        navigator.perform(.present(.preview), retaining: nil)
        navigator.perform(.push(.settings), retaining: nil)
        #expect(navigator.stacks == [[.feed], [.compose, .attach], [.preview, .settings]])
        #expect(navigator.goBack())
        #expect(navigator.stacks == [[.feed], [.compose, .attach], [.preview]])
        #expect(!navigator.goBack(), "the top stack is at its root")
        #expect(navigator.swipeDown())
        #expect(heard == [.wentBack(from: .settings), .dismissed(.preview)])
        #expect(navigator.stacks == [[.feed], [.compose, .attach]])
        navigator.perform(.pop, retaining: nil)
        navigator.perform(.dismiss, retaining: nil)
        #expect(navigator.stacks == [[.feed]])
        #expect(!navigator.swipeDown())
        #expect(navigator.problems.isEmpty)
    }

    func app() throws -> (Coordinator<Screen>, HeadlessNavigator<Screen>, MachineHandle<Tabbed.App>) {
        let navigator = HeadlessNavigator<Screen>()
        let coordinator = Coordinator(navigator: navigator)
        let app = try coordinator.start(Tabbed.app, effects: { $0 }, userNavigation: Tabbed.userNavigation)
        return (coordinator, navigator, app)
    }

    @Test("Coordinator: the flow selects tabs; the user's tab switch reaches the flow as its event")
    func coordinatorTabs() throws {
        let (coordinator, navigator, app) = try app()
        #expect(navigator.tabStacks == [[.feed], [.profile]])
        #expect(navigator.selectTab(.profile))
        #expect(coordinator.supervisor.state(of: app) == .profile, "the tab switch is the flow's event")
        #expect(navigator.selectTab(.feed))
        #expect(coordinator.supervisor.state(of: app) == .feed)
        try coordinator.send(.showProfile, to: app)
        #expect(navigator.selectedTab == .profile)
        #expect(navigator.problems.isEmpty)
    }

    @Test("Coordinator: a tab's stack survives switching away and back; the back gesture is routed")
    func coordinatorTabStacks() throws {
        let (coordinator, navigator, app) = try app()
        try coordinator.send(.open, to: app)
        #expect(navigator.tabStacks == [[.feed, .post], [.profile]])
        #expect(navigator.selectTab(.profile))
        #expect(coordinator.supervisor.state(of: app) == .profile)
        #expect(navigator.selectTab(.feed))
        #expect(navigator.stacks == [[.feed, .post]])
        #expect(navigator.goBack())
        #expect(navigator.tabStacks == [[.feed], [.profile]])
        #expect(coordinator.supervisor.state(of: app) == .feed)
        #expect(navigator.problems.isEmpty)
    }

    @Test("Coordinator: children in stacked modals; swiping the top one down tears down only its flow")
    func coordinatorStackedModals() throws {
        let (coordinator, navigator, app) = try app()
        #expect(navigator.selectTab(.profile))
        try coordinator.send(.compose, to: app)
        let lower = try coordinator.start(Tabbed.modal(.compose, then: .attach), under: app, effects: { $0 },
                                          dismissed: .composeEnded, output: { _ in .composeEnded })
        try coordinator.send(.deeper, to: lower)
        try coordinator.send(.cover, to: lower)
        let upper = try coordinator.start(Tabbed.modal(.preview, then: .settings), under: lower, effects: { $0 },
                                          dismissed: .uncovered, output: { _ in .uncovered })
        try coordinator.send(.deeper, to: upper)
        #expect(navigator.stacks == [[.profile], [.compose, .attach], [.preview, .settings]])
        #expect(coordinator.routedMachines == 3)

        #expect(navigator.swipeDown())
        #expect(!coordinator.supervisor.contains(upper.id))
        #expect(coordinator.supervisor.state(of: lower) == .first, "the modal under it heard of it")
        #expect(navigator.stacks == [[.profile], [.compose, .attach]])
        #expect(coordinator.routedMachines == 2)

        // The lower modal's flow closes itself: its own dismiss, then the app selects the feed tab.
        try coordinator.send(.close, to: lower)
        #expect(navigator.stacks == [[.feed]])
        #expect(navigator.tabStacks == [[.feed], [.profile]])
        #expect(coordinator.supervisor.state(of: app) == .feed)
        #expect(coordinator.routedMachines == 1)
        #expect(navigator.problems.isEmpty)
    }

    @Test("Coordinator: the upper modal's flow dismisses only its own stack")
    func upperModalCloses() throws {
        let (coordinator, navigator, app) = try app()
        try coordinator.send(.compose, to: app)
        let lower = try coordinator.start(Tabbed.modal(.compose, then: .attach), under: app, effects: { $0 },
                                          dismissed: .composeEnded, output: { _ in .composeEnded })
        try coordinator.send(.cover, to: lower)
        let upper = try coordinator.start(Tabbed.modal(.preview, then: .settings), under: lower, effects: { $0 },
                                          dismissed: .uncovered, output: { _ in .uncovered })
        try coordinator.send(.close, to: upper)
        #expect(navigator.stacks == [[.feed], [.compose]])
        #expect(coordinator.supervisor.state(of: lower) == .first)
        #expect(navigator.swipeDown())
        #expect(!coordinator.supervisor.contains(lower.id))
        #expect(coordinator.supervisor.state(of: app) == .feed)
        #expect(coordinator.routedMachines == 1)
        #expect(navigator.problems.isEmpty)
    }

    @Test("Coordinator: a child whose first screen is a tab bar lives as long as the tab bar")
    func childBoundToTabs() throws {
        let navigator = RecordingNavigator<Screen>()
        let coordinator = Coordinator(navigator: navigator)
        navigator.perform(.push(.settings), retaining: nil)
        let host = try coordinator.start(Tabbed.modal(.compose, then: .attach), effects: { _ in nil })
        let child = try coordinator.start(
            FlowDefinition<Tabbed.App>("tabs-child", initial: .main) {
                StateNode(.main, entry: [.tabs([.feed, .profile])]) {
                    StateNode(.feed) { On(.userChoseProfile, to: .profile) }
                    StateNode(.profile) { On(.userChoseFeed, to: .feed) }
                }
            },
            under: host, effects: { $0 }, userNavigation: Tabbed.userNavigation, output: Tabbed.noOutput)
        #expect(navigator.inner.tabStacks == [[.feed], [.profile]])
        #expect(navigator.liveLifetimes == 1, "the tab bar retains the child's lifetime")
        #expect(navigator.inner.selectTab(.profile))
        #expect(coordinator.supervisor.state(of: child) == .profile)

        // The host replaces the tabs: the old tab bar, and the flow bound to it, go.
        navigator.perform(.tabs([.settings, .compose]), retaining: nil)
        #expect(navigator.liveLifetimes == 0)
        #expect(!coordinator.supervisor.contains(child.id))
        #expect(coordinator.routedMachines == 1)
        #expect(navigator.inner.problems.isEmpty)
    }
}
