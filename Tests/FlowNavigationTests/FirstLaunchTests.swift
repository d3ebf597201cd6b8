import CoordinatorExamples
import FlowNavigation
import Flowstate
import Foundation
import Testing

@Suite("Seed 004: a first-launch flow with a new-account child bound to its root screen")
struct FirstLaunchTests {
    typealias Example = FirstLaunchAccount

    /// The happy path, one user action a step, with the stacks expected after each.
    static var steps: [(String, (Example.Host) throws -> Void, [[Example.Screen]])] { [
        ("create account", { try $0.createAccount() }, [[.welcome], [.email]]),
        ("email", { try $0.coordinator.send(.next, to: $0.account!) }, [[.welcome], [.email, .password]]),
        ("password", { try $0.coordinator.send(.next, to: $0.account!) }, [[.welcome], [.email, .password, .code]]),
        ("code", { try $0.coordinator.send(.next, to: $0.account!) }, [[.welcome, .home]]),
    ] }

    func host() throws -> (Example.Host, RecordingNavigator<Example.Screen>) {
        let navigator = RecordingNavigator<Example.Screen>()
        return (try Example.Host(navigator: navigator), navigator)
    }

    @Test("Happy path: the stacks after every step; the child completes and nothing survives it")
    func happyPath() throws {
        let (host, navigator) = try host()
        #expect(navigator.stacks == [[.welcome]])
        for (name, step, expected) in Self.steps {
            try step(host)
            #expect(navigator.stacks == expected, "after \(name)")
        }
        #expect(host.coordinator.supervisor.state(of: host.launch) == .home)
        #expect(host.coordinator.supervisor.liveCount == 1)
        #expect(navigator.inner.problems.isEmpty)
        #expect(host.coordinator.supervisor.checkInvariants().isEmpty)
    }

    @Test("Cancel at every step of the child (generated from the happy path): back to welcome, no zombie")
    func cancelEverywhere() throws {
        for k in 1..<Self.steps.count {
            let (host, navigator) = try host()
            for (_, step, _) in Self.steps.prefix(k) { try step(host) }
            let child = try #require(host.account)
            try host.coordinator.send(.cancel, to: child)
            #expect(navigator.stacks == [[.welcome]], "cancel after \(k) steps")
            #expect(host.coordinator.supervisor.state(of: host.launch) == .welcome)
            #expect(!host.coordinator.supervisor.contains(child.id))
            #expect(host.coordinator.supervisor.liveCount == 1)
            #expect(navigator.liveLifetimes == 0, "the screen's lifetime is deallocated")
            #expect(navigator.inner.problems.isEmpty)
        }
    }

    @Test("Swipe down at every step: the child flow is deallocated through its screen's lifetime")
    func swipeDownEverywhere() throws {
        for k in 1..<Self.steps.count {
            let (host, navigator) = try host()
            for (_, step, _) in Self.steps.prefix(k) { try step(host) }
            let child = try #require(host.account)
            #expect(navigator.liveLifetimes == 1)
            #expect(navigator.inner.swipeDown())
            #expect(navigator.liveLifetimes == 0, "the owner is gone")
            #expect(!host.coordinator.supervisor.contains(child.id), "no zombie coordinator")
            #expect(host.coordinator.supervisor.state(of: host.launch) == .welcome, "the parent heard of it")
            #expect(navigator.stacks == [[.welcome]])
            #expect(host.coordinator.routedMachines == 1)
            #expect(navigator.inner.problems.isEmpty, "the torn-down child's dismiss was not replayed")
        }
    }

    @Test("The back gesture at every step: the screen goes, the flow follows, and the path still completes")
    func backEverywhere() throws {
        for k in 0..<Self.steps.count {
            let (host, navigator) = try host()
            for (_, step, _) in Self.steps.prefix(k) { try step(host) }
            let before = navigator.stacks
            let went = navigator.inner.goBack()
            #expect(went == (before.last!.count > 1), "after \(k) steps")
            if went {
                #expect(navigator.stacks.last! == Array(before.last!.dropLast()))
                let state = host.account.flatMap { host.coordinator.supervisor.state(of: $0) }
                #expect(state?.rawValue == navigator.inner.top?.rawValue, "the flow is on the screen shown")
                // Going forward again finishes the flow.
                while let child = host.account, host.coordinator.supervisor.contains(child.id) {
                    try host.coordinator.send(.next, to: child)
                }
                #expect(navigator.stacks == [[.welcome, .home]], "k=\(k) \(navigator.inner.log)")
            }
            #expect(navigator.inner.problems.isEmpty)
        }
    }

    @Test("Restoration: snapshot in the middle of the child flow, restore on a new launch, continue")
    func restoration() throws {
        let (host, navigator) = try host()
        for (_, step, _) in Self.steps.prefix(2) { try step(host) }
        let snapshot = try host.coordinator.supervisor.snapshot()
        let encoded = try JSONEncoder().encode(snapshot)
        let stacks = navigator.stacks

        // A new launch: restore the flows, show the screens again, go on.
        let decoded = try JSONDecoder().decode(TreeSnapshot.self, from: encoded)
        let relaunched = HeadlessNavigator<Example.Screen>()
        let coordinator = Coordinator(navigator: relaunched)
        relaunched.perform(.push(.welcome), retaining: nil)
        let launch = try coordinator.restore(decoded.roots[0], definition: Example.launch, effects: { $0 })
        let account = try coordinator.restore(
            decoded.roots[0].children[0], definition: Example.newAccount, under: launch, screens: stacks[1],
            effects: { $0 }, userNavigation: { if case .wentBack = $0 { .wentBack } else { nil } },
            dismissed: .accountCancelled, output: { $0 == .created ? .accountCreated : .accountCancelled })
        #expect(relaunched.stacks == stacks)
        #expect(coordinator.supervisor.state(of: account) == .password)
        try coordinator.send(.next, to: account)
        try coordinator.send(.next, to: account)
        #expect(relaunched.stacks == [[.welcome, .home]])
        #expect(coordinator.supervisor.state(of: launch) == .home)
        #expect(coordinator.supervisor.liveCount == 1)
    }
}


/// The code of the DocC article `TestingCoordinators.md`, compiled and run.
@Test("The DocC article's example runs as written")
func articleExample() throws {
    let navigator = HeadlessNavigator<FirstLaunchAccount.Screen>()
    let host = try FirstLaunchAccount.Host(navigator: navigator)
    try host.createAccount()
    #expect(navigator.stacks == [[.welcome], [.email]])
    navigator.swipeDown()
    #expect(navigator.stacks == [[.welcome]])
    #expect(host.coordinator.supervisor.liveCount == 1)  // the new-account flow is gone
}
