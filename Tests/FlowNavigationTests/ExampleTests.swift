import CoordinatorExamples
import FlowNavigation
import Flowstate
import Foundation
import Testing

@Suite("Seed 001: Khanlou's app coordinator and its photo-creation child")
struct KhanlouTests {
    typealias Example = KhanlouPhotos

    static var steps: [(String, (Example.Host) throws -> Void, [[Example.Screen]])] { [
        ("new photo", { try $0.newPhoto() }, [[.feed], [.picker]]),
        ("pick", { try $0.coordinator.send(.picked, to: $0.photoFlow!) }, [[.feed], [.picker, .editor]]),
        ("post", { try $0.coordinator.send(.post, to: $0.photoFlow!) }, [[.feed]]),
    ] }

    func host() throws -> (Example.Host, RecordingNavigator<Example.Screen>) {
        let navigator = RecordingNavigator<Example.Screen>()
        return (try Example.Host(navigator: navigator), navigator)
    }

    @Test("Happy path: posting reaches the app as an event; the stacks after every step")
    func happyPath() throws {
        let (host, navigator) = try host()
        for (name, step, expected) in Self.steps {
            try step(host)
            #expect(navigator.stacks == expected, "after \(name)")
        }
        #expect(host.coordinator.supervisor.state(of: host.app) == .browsing)
        #expect(host.coordinator.supervisor.liveCount == 1)
        #expect(navigator.inner.problems.isEmpty)
    }

    @Test("Cancel, swipe down and the back gesture at every step of the child (generated from the happy path)")
    func everyStep() throws {
        for k in 1..<Self.steps.count {
            for action in ["cancel", "swipe", "back"] {
                let (host, navigator) = try host()
                for (_, step, _) in Self.steps.prefix(k) { try step(host) }
                let child = try #require(host.photoFlow)
                let before = navigator.stacks
                switch action {
                case "cancel": try host.coordinator.send(.cancel, to: child)
                case "swipe": #expect(navigator.inner.swipeDown())
                default: _ = navigator.inner.goBack()
                }
                if action == "back" && before.last!.count > 1 {
                    #expect(navigator.stacks.last! == Array(before.last!.dropLast()))
                    #expect(host.coordinator.supervisor.state(of: child) == .picking)
                } else if action != "back" {
                    #expect(navigator.stacks == [[.feed]], "\(action) after \(k)")
                    #expect(!host.coordinator.supervisor.contains(child.id), "no zombie")
                    #expect(host.coordinator.supervisor.state(of: host.app) == .browsing)
                    #expect(navigator.liveLifetimes == 0)
                }
                #expect(navigator.inner.problems.isEmpty, "\(action) after \(k)")
            }
        }
    }

    @Test("Restoration: snapshot while editing, restore, post")
    func restoration() throws {
        let (host, navigator) = try host()
        for (_, step, _) in Self.steps.prefix(2) { try step(host) }
        let snapshot = try JSONDecoder().decode(TreeSnapshot.self, from: JSONEncoder().encode(try host.coordinator.supervisor.snapshot()))
        let relaunched = HeadlessNavigator<Example.Screen>()
        let coordinator = Coordinator(navigator: relaunched)
        relaunched.perform(.push(.feed), retaining: nil)
        let app = try coordinator.restore(snapshot.roots[0], definition: Example.app, effects: { $0 })
        let photo = try coordinator.restore(snapshot.roots[0].children[0], definition: Example.photo, under: app,
                                            screens: navigator.stacks[1], effects: { $0 }, dismissed: .photoCancelled,
                                            output: { $0 == .posted ? .photoPosted : .photoCancelled })
        #expect(relaunched.stacks == navigator.stacks)
        try coordinator.send(.post, to: photo)
        #expect(relaunched.stacks == [[.feed]])
        #expect(coordinator.supervisor.state(of: app) == .browsing)
    }
}

@Suite("Seeds 000 and 002: the Assistant's data in its flows' contexts, and the alert the flow presents")
struct AssistantTests {
    typealias Example = Assistant

    func host() throws -> (Example.Host, RecordingNavigator<Example.Screen>) {
        let navigator = RecordingNavigator<Example.Screen>()
        return (try Example.Host(navigator: navigator), navigator)
    }

    @Test("Saving in the child returns the person as its typed output; the list flow keeps it in its context: no delegate")
    func save() throws {
        let (host, navigator) = try host()
        try host.add()
        #expect(navigator.stacks == [[.persons], [.addPerson]])
        try host.type("Ada")
        try host.coordinator.send(.save, to: host.adding!)
        #expect(host.shown == ["Ada"], "the list flow's context holds the person")
        #expect(navigator.stacks == [[.persons]])
        #expect(host.coordinator.supervisor.liveCount == 1)
    }

    @Test("Cancel asks with an alert the flow presents; each answer is the flow's own event")
    func alert() throws {
        let (host, navigator) = try host()
        try host.add()
        try host.type("Grace")
        try host.coordinator.send(.cancel, to: host.adding!)
        #expect(navigator.inner.alert?.choices == ["Keep editing", "Discard"])
        #expect(navigator.inner.choose("Keep editing"))
        #expect(host.coordinator.supervisor.state(of: host.adding!) == .editing)
        #expect(navigator.stacks == [[.persons], [.addPerson]], "keeping did not present again")
        try host.coordinator.send(.cancel, to: host.adding!)
        #expect(navigator.inner.choose("Discard"))
        #expect(navigator.stacks == [[.persons]])
        #expect(host.shown.isEmpty)
        #expect(host.coordinator.supervisor.liveCount == 1)
        #expect(navigator.inner.problems.isEmpty)
    }

    @Test("Swipe down with the alert up, or while editing: the child goes, the list is told, the stale alert does nothing")
    func swipe() throws {
        for withAlert in [false, true] {
            let (host, navigator) = try host()
            try host.add()
            let child = try #require(host.adding)
            if withAlert { try host.coordinator.send(.cancel, to: child) }
            #expect(navigator.inner.swipeDown())
            #expect(!host.coordinator.supervisor.contains(child.id))
            #expect(host.coordinator.supervisor.state(of: host.list) == .list)
            #expect(navigator.liveLifetimes == 0)
            if withAlert { #expect(navigator.inner.choose("Discard"), "the alert was still up") }
            #expect(navigator.stacks == [[.persons]])
            #expect(navigator.inner.problems.isEmpty)
        }
    }

    @Test("Restoration: snapshot while the discard alert is up, restore, keep editing, save: the list and the draft survive")
    func restoration() throws {
        let (host, _) = try host()
        try host.add()
        try host.type("Ada")
        try host.coordinator.send(.save, to: host.adding!)
        try host.add()
        try host.type("Linus")
        try host.coordinator.send(.cancel, to: host.adding!)
        let snapshot = try host.coordinator.supervisor.snapshot()
        let relaunched = HeadlessNavigator<Example.Screen>()
        let coordinator = Coordinator(navigator: relaunched)
        relaunched.perform(.push(.persons), retaining: nil)
        let list = try coordinator.restore(snapshot.roots[0], definition: Example.persons, effects: { $0 })
        let adding = try coordinator.restore(
            snapshot.roots[0].children[0], definition: Example.addPerson, under: list, screens: [.addPerson],
            effects: { $0 }, dismissed: .addCancelled, output: Example.listEvent)
        #expect(coordinator.supervisor.state(of: adding) == .confirmingDiscard)
        #expect(coordinator.supervisor.context(of: adding)?.name == "Linus")
        try coordinator.send(.keepEditing, to: adding)
        try coordinator.send(.save, to: adding)
        #expect(coordinator.supervisor.context(of: list)?.persons == ["Ada", "Linus"])
        #expect(relaunched.stacks == [[.persons]])
    }
}

@Suite("Seed 003: the Router's order flow, which needs a login first, with a typed result")
struct RouterTests {
    typealias Example = OrderRouter

    func host(loggedIn: Bool) throws -> (Example.Host, RecordingNavigator<Example.Screen>) {
        let navigator = RecordingNavigator<Example.Screen>()
        let host = try Example.Host(navigator: navigator)
        host.session.isLoggedIn = loggedIn
        return (host, navigator)
    }

    static var steps: [(String, (Example.Host) throws -> Void, [[Example.Screen]])] { [
        ("order", { try $0.order() }, [[.home], [.login]]),
        ("log in", { try $0.coordinator.send(.loggedIn, to: $0.ordering!) }, [[.home], [.login, .cart]]),
        ("checkout", { try $0.coordinator.send(.checkout, to: $0.ordering!) }, [[.home], [.login, .cart, .confirmation]]),
        ("confirm", { try $0.coordinator.send(.confirm, to: $0.ordering!) }, [[.home]]),
    ] }

    @Test("Not logged in: the login comes first; the typed result reaches the requester")
    func happyPath() throws {
        let (host, navigator) = try host(loggedIn: false)
        for (name, step, expected) in Self.steps {
            try step(host)
            #expect(navigator.stacks == expected, "after \(name)")
        }
        #expect(host.results == [.placed(orderID: 1001)])
        #expect(host.coordinator.supervisor.state(of: host.main) == .home)
        #expect(host.coordinator.supervisor.liveCount == 1)
    }

    @Test("Logged in: straight to the cart")
    func loggedIn() throws {
        let (host, navigator) = try host(loggedIn: true)
        try host.order()
        #expect(navigator.stacks == [[.home], [.cart]])
    }

    @Test("Cancel and swipe down at every step: the requester receives .cancelled, once")
    func cancelEverywhere() throws {
        for k in 1..<Self.steps.count {
            for swipe in [false, true] {
                let (host, navigator) = try host(loggedIn: false)
                for (_, step, _) in Self.steps.prefix(k) { try step(host) }
                let child = try #require(host.ordering)
                if swipe { #expect(navigator.inner.swipeDown()) } else { try host.coordinator.send(.cancel, to: child) }
                #expect(navigator.stacks == [[.home]])
                #expect(!host.coordinator.supervisor.contains(child.id))
                #expect(host.coordinator.supervisor.state(of: host.main) == .home)
                if !swipe { #expect(host.results == [.cancelled]) }
                #expect(navigator.inner.problems.isEmpty)
            }
        }
    }

    @Test("Restoration: snapshot at the confirmation, restore, confirm")
    func restoration() throws {
        let (host, navigator) = try host(loggedIn: false)
        for (_, step, _) in Self.steps.prefix(3) { try step(host) }
        let snapshot = try host.coordinator.supervisor.snapshot()
        let relaunched = HeadlessNavigator<Example.Screen>()
        let coordinator = Coordinator(navigator: relaunched)
        relaunched.perform(.push(.home), retaining: nil)
        let main = try coordinator.restore(snapshot.roots[0], definition: Example.main, effects: { $0 })
        let order = try coordinator.restore(
            snapshot.roots[0].children[0], definition: Example.order(session: host.session, nextOrderID: { 7 }),
            under: main, screens: navigator.stacks[1], effects: { $0 }, dismissed: .orderFinished(.cancelled),
            output: { .orderFinished($0) })
        #expect(relaunched.stacks == navigator.stacks)
        try coordinator.send(.confirm, to: order)
        #expect(relaunched.stacks == [[.home]])
        #expect(coordinator.supervisor.state(of: main) == .home)
    }
}
