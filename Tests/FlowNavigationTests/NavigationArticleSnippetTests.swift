import CoordinatorExamples
import FlowNavigation
import Flowstate
import Testing

/// The Swift snippet of `docs/coordinators.md`, verbatim, compiled and run (the DocC article
/// "Testing coordinators" runs in `FirstLaunchTests.swift`, `articleExample`). `DocSnippetCheckTests`
/// in FlowstateTests fails when a snippet of the docs is missing from the tests.
@Suite("Docs: the coordinator snippets run as written")
struct NavigationArticleSnippetTests {
    @Test("docs/coordinators.md: the layer in one paragraph")
    func layer() throws {
        let navigator = HeadlessNavigator<FirstLaunchAccount.Screen>()
        let host = try FirstLaunchAccount.Host(navigator: navigator)   // welcome
        try host.createAccount()                                       // [[welcome], [email]]
        try host.coordinator.send(.next, to: host.account!)            // [[welcome], [email, password]]
        navigator.swipeDown()                                          // [[welcome]]: the child is torn down,
                                                                       // first launch hears .accountCancelled

        host.coordinator.supervisor.sweep()
        #expect(navigator.log == [.push(.welcome), .present(.email), .push(.password)])
        #expect(navigator.stacks == [[.welcome]])
        #expect(!host.coordinator.supervisor.contains(try #require(host.account).id))
        #expect(host.coordinator.supervisor.state(of: host.launch) == .welcome, "it heard .accountCancelled")
        #expect(navigator.problems.isEmpty)
    }
}
