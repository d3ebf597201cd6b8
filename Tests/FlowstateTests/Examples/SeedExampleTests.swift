import Flowstate
import FlowstateExamples
import Testing

@Suite("Seed examples under a supervisor")
struct SeedExampleTests {
    @Test("Seed 004: the new-account child signs up, and first launch goes home")
    func firstLaunchSignsUp() throws {
        let supervisor = Supervisor()
        var performed: [String] = []
        let launch = try supervisor.start(FirstLaunch.definition) { effect, _ in performed.append("\(effect)") }
        try supervisor.send(.createAccount, to: launch)
        #expect(supervisor.machines.map(\.flow) == ["first-launch", "sign-up"])
        let signUp = supervisor.handle(of: supervisor.machines[1].id, as: SignUp.self)!
        for event: SignUp.Event in [.submitEmail("ada@example.com"), .submitPassword("correct horse"), .submitCode("123456")] {
            try supervisor.send(event, to: signUp)
        }
        #expect(supervisor.state(of: launch) == .home)
        #expect(supervisor.liveCount == 1, "the finished child is gone")
        #expect(performed == [
            "showWelcome", "signUp.present(email)", "signUp.push(password)", "signUp.push(twoFactor)",
            "signUp.sendCode", "signUp.dismiss", "showHome",
        ])
    }

    @Test("Seed 004: cancelling the new-account child at any step returns to welcome", arguments: 0...2)
    func firstLaunchCancels(step: Int) throws {
        let supervisor = Supervisor()
        let launch = try supervisor.start(FirstLaunch.definition) { _, _ in }
        try supervisor.send(.createAccount, to: launch)
        let signUp = supervisor.handle(of: supervisor.machines[1].id, as: SignUp.self)!
        let steps: [SignUp.Event] = [.submitEmail("ada@example.com"), .submitPassword("correct horse")]
        for event in steps.prefix(step) { try supervisor.send(event, to: signUp) }
        try supervisor.send(.cancel, to: signUp)
        #expect(supervisor.state(of: launch) == .welcome)
        #expect(supervisor.liveCount == 1)
    }

    @Test("Seed 004: a new-account flow bound to its root screen dies with it, at any step", arguments: 0...2)
    func ownerBoundNewAccount(step: Int) throws {
        let supervisor = Supervisor()
        let launch = try supervisor.start(FirstLaunch.definition) { _, _ in }
        weak var weakScreen: RootScreen?
        var child: MachineHandle<SignUp>?
        do {
            let screen = RootScreen()
            weakScreen = screen
            child = try supervisor.spawn(SignUp.definition, under: launch, owner: screen,
                                         handler: { _, _ in }, output: { _ in .accountCancelled })
            let steps: [SignUp.Event] = [.submitEmail("ada@example.com"), .submitPassword("correct horse")]
            for event in steps.prefix(step) { try supervisor.send(event, to: child!) }
        }
        #expect(weakScreen == nil)
        let record = supervisor.sweep()
        #expect(record.ids == [child!.id], "dismissing the screen tore the child down")
        #expect(supervisor.checkInvariants().isEmpty && supervisor.liveCount == 1)
    }

    @Test("Khanlou: photo creation completes and cancels back to the feed with typed events",
          arguments: [true, false])
    func photoCreation(post: Bool) throws {
        let supervisor = Supervisor()
        var performed: [String] = []
        let feed = try supervisor.start(Feed.definition) { effect, _ in performed.append("\(effect)") }
        try supervisor.send(.newPhoto, to: feed)
        let photo = supervisor.handle(of: supervisor.machines[1].id, as: PhotoCreation.self)!
        try supervisor.send(.picked(photo: "IMG_0001"), to: photo)
        try supervisor.send(post ? .post : .cancel, to: photo)
        #expect(supervisor.state(of: feed) == .browsing)
        #expect(supervisor.liveCount == 1)
        #expect(performed == (post
            ? ["photo.presentPicker", "photo.pushEditor", "photo.dismiss", "photo.upload", "refresh"]
            : ["photo.presentPicker", "photo.pushEditor", "photo.dismiss"]))
    }
}

/// Stands for the root view controller of a flow.
typealias RootScreen = FlowLifetime
