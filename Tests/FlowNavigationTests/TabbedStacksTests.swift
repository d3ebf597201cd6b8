import CoordinatorExamples
import FlowNavigation
import Flowstate
import Testing

@Suite("Tabs that keep their own stacks, as regions of one flow")
struct TabbedStacksTests {
    typealias Example = TabbedStacks

    @Test("Each tab keeps its place: the flow's regions and the navigator's stacks agree after every step")
    func tabsKeepTheirPlace() throws {
        let navigator = RecordingNavigator<Example.Screen>()
        let host = try Example.Host(navigator: navigator)
        let supervisor = host.coordinator.supervisor
        #expect(navigator.inner.tabStacks == [[.feed], [.profile]])
        #expect(supervisor.leaves(of: host.app) == [.onFeed, .feedRoot, .profileRoot])

        try host.coordinator.send(.open, to: host.app)
        #expect(navigator.inner.tabStacks == [[.feed, .post], [.profile]])
        // The user switches to the profile tab: the feed stays in the middle of its post.
        #expect(navigator.inner.selectTab(.profile))
        #expect(supervisor.leaves(of: host.app) == [.onProfile, .reading, .profileRoot])
        try host.coordinator.send(.showSettings, to: host.app)
        // Opening a post is for the feed's tab only: the profile tab is selected.
        try host.coordinator.send(.open, to: host.app)
        #expect(navigator.inner.tabStacks == [[.feed, .post], [.profile, .settings]])
        // Back on the feed, the post is still open, in the flow as on screen; the back gesture pops it.
        #expect(navigator.inner.selectTab(.feed))
        #expect(navigator.inner.top == .post)
        #expect(supervisor.leaves(of: host.app) == [.onFeed, .reading, .settings])
        #expect(navigator.inner.goBack())
        #expect(supervisor.leaves(of: host.app) == [.onFeed, .feedRoot, .settings])
        #expect(navigator.inner.tabStacks == [[.feed], [.profile, .settings]])
        #expect(navigator.inner.problems.isEmpty)
    }

    @Test("The flow is valid, and its regions draw as one parallel state")
    func valid() {
        #expect(Example.app.isValid, "\(Example.app.validate())")
        #expect(Example.app.declaration(of: .main)?.kind == .parallel)
    }
}
