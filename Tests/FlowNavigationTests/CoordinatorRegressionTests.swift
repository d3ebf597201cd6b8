import FlowNavigation
import Flowstate
import Logging
import Testing

/// Small flows for the coordinator's regression tests.
enum Regression {
    enum Screen: String, Hashable, Sendable, CustomStringConvertible {
        case home, a, b, modal, child, childNext
        var description: String { rawValue }
    }

    /// A root flow that pushes, pops, pops to its root, presents and dismisses.
    enum Root: Flow {
        enum State: String, Hashable, Sendable, CustomStringConvertible {
            case home, onA, onB, presenting, running
            var description: String { rawValue }
        }
        enum Event: FlowEvent, Hashable { case open, back, toRoot, present, close, startChild, childEnded }
        typealias Effect = Navigation<Screen, Event>
        typealias Output = Never
    }

    static let root = FlowDefinition<Root>("regression-root", initial: .home) {
        StateNode(.home) {
            On(.open, to: .onA, effects: [.push(.a)])
            On(.present, to: .presenting, effects: [.present(.modal)])
            On(.startChild, to: .running)
        }
        StateNode(.onA) {
            On(.open, to: .onB, effects: [.push(.b)])
            On(.back, to: .home, effects: [.pop])
        }
        StateNode(.onB) {
            On(.back, to: .onA, effects: [.pop])
            On(.toRoot, to: .home, effects: [.popToRoot])
        }
        StateNode(.presenting) { On(.close, to: .home, effects: [.dismiss]) }
        StateNode(.running) { On(.childEnded, to: .home) }
    }

    /// A child that presents its screen, pushes a second one, and finishes or is cancelled.
    enum Child: Flow {
        enum State: String, Hashable, Sendable, CustomStringConvertible {
            case showing, first, second, done, cancelled
            var description: String { rawValue }
        }
        enum Event: FlowEvent, Hashable { case next, finish, cancel, ask }
        enum Effect: Hashable, Sendable {
            case navigation(Navigation<Screen, Event>)
            case save
        }
        typealias Output = Bool
    }

    static let child = FlowDefinition<Child>("regression-child", initial: .showing) {
        StateNode(.showing, entry: [.navigation(.present(.child))]) {
            StateNode(.first) {
                On(.next, to: .second, effects: [.navigation(.push(.childNext)), .save])
                On(.ask, to: .first,
                   effects: [.navigation(.alert(Alert("Sure?", choices: [.init("Yes", sends: .finish)])))])
            }
            StateNode(.second) { On(.finish, to: .done, effects: [.save]) }
            On(.cancel, to: .cancelled)
            On(.finish, to: .done)
        }
        Final(.done, output: true, entry: [.navigation(.dismiss)])
        Final(.cancelled, output: false, entry: [.navigation(.dismiss)])
    }

    /// What a child's closures capture.
    final class Captured {}
}

@Suite("Coordinator regressions: the root flow's navigation, and what a finished child leaves behind")
struct CoordinatorRegressionTests {
    typealias Screen = Regression.Screen

    func rootOnHome() throws -> (Coordinator<Screen>, HeadlessNavigator<Screen>, MachineHandle<Regression.Root>) {
        let navigator = HeadlessNavigator<Screen>()
        let coordinator = Coordinator(navigator: navigator)
        navigator.perform(.push(.home), retaining: nil)
        let root = try coordinator.start(Regression.root, effects: { $0 })
        return (coordinator, navigator, root)
    }

    @Test("A root flow that pushed pops its screens again")
    func rootPops() throws {
        let (coordinator, navigator, root) = try rootOnHome()
        try coordinator.send(.open, to: root)
        try coordinator.send(.open, to: root)
        #expect(navigator.stacks == [[.home, .a, .b]])
        try coordinator.send(.back, to: root)
        #expect(navigator.stacks == [[.home, .a]])
        try coordinator.send(.back, to: root)
        #expect(navigator.stacks == [[.home]])
        #expect(navigator.log == [.push(.home), .push(.a), .push(.b), .pop, .pop])
        #expect(navigator.problems.isEmpty)
    }

    @Test("A root flow that pushed pops to its root")
    func rootPopsToRoot() throws {
        let (coordinator, navigator, root) = try rootOnHome()
        try coordinator.send(.open, to: root)
        try coordinator.send(.open, to: root)
        try coordinator.send(.toRoot, to: root)
        #expect(navigator.stacks == [[.home]])
        #expect(navigator.log.last == .popToRoot)
        // And again, after navigating once more.
        try coordinator.send(.open, to: root)
        #expect(navigator.stacks == [[.home, .a]])
        #expect(navigator.problems.isEmpty)
    }

    @Test("A root flow that pushed, then presented, dismisses")
    func rootDismisses() throws {
        let (coordinator, navigator, root) = try rootOnHome()
        try coordinator.send(.open, to: root)
        try coordinator.send(.back, to: root)
        try coordinator.send(.present, to: root)
        #expect(navigator.stacks == [[.home], [.modal]])
        try coordinator.send(.close, to: root)
        #expect(navigator.stacks == [[.home]])
        #expect(navigator.log.last == .dismiss)
        #expect(navigator.problems.isEmpty)
    }

    @Test("A restored root flow pops what it pushes")
    func restoredRootPops() throws {
        let (first, _, root) = try rootOnHome()
        try first.send(.open, to: root)
        let snapshot = try first.supervisor.snapshot()
        let navigator = HeadlessNavigator<Screen>()
        let coordinator = Coordinator(navigator: navigator)
        navigator.perform(.push(.home), retaining: nil)
        navigator.perform(.push(.a), retaining: nil)
        let restored = try coordinator.restore(snapshot.roots[0], definition: Regression.root, effects: { $0 })
        try coordinator.send(.open, to: restored)
        try coordinator.send(.back, to: restored)
        try coordinator.send(.back, to: restored)
        #expect(navigator.stacks == [[.home]])
        #expect(navigator.problems.isEmpty)
        #expect(coordinator.routedMachines == 1)
        coordinator.supervisor.stop(restored)
        #expect(coordinator.routedMachines == 0, "a restored root is forgotten when stopped")
    }

    /// Starts a child whose `effects`, `perform` and `userNavigation` closures all capture an object
    /// only they hold; returns a weak reference to it.
    func startChild(_ coordinator: Coordinator<Screen>, under root: MachineHandle<Regression.Root>)
        throws -> (MachineHandle<Regression.Child>, () -> Regression.Captured?) {
        final class Weak { weak var object: Regression.Captured? }
        let weak = Weak()
        let machine: MachineHandle<Regression.Child>
        do {
            let captured = Regression.Captured()
            weak.object = captured
            try coordinator.send(.startChild, to: root)
            machine = try coordinator.start(
                Regression.child, under: root,
                effects: { [captured] effect in
                    _ = captured
                    if case .navigation(let navigation) = effect { return navigation }
                    return nil
                },
                perform: { [captured] _ in _ = captured },
                userNavigation: { [captured] _ in
                    _ = captured
                    return nil
                },
                dismissed: .childEnded,
                output: { _ in .childEnded })
        }
        return (machine, { weak.object })
    }

    @Test("A child that completes is forgotten at once, with what its closures captured",
          arguments: [false, true])
    func completedChildReleased(afterPush: Bool) throws {
        let (coordinator, navigator, root) = try rootOnHome()
        let (child, captured) = try startChild(coordinator, under: root)
        #expect(captured() != nil)
        #expect(coordinator.routedMachines == 2)
        if afterPush { try coordinator.send(.next, to: child) }
        try coordinator.send(.finish, to: child)
        #expect(!coordinator.supervisor.contains(child.id))
        #expect(navigator.stacks == [[.home]])
        #expect(coordinator.routedMachines == 1, "the child's route is dropped without any user navigation")
        #expect(captured() == nil, "the child's closures are released")
        #expect(coordinator.supervisor.state(of: root) == .home)
        #expect(navigator.problems.isEmpty)
    }

    @Test("A child that is cancelled (by its own event, by stop, by its parent's stop) is forgotten at once")
    func cancelledChildReleased() throws {
        for way in ["event", "stop", "parent"] {
            let (coordinator, _, root) = try rootOnHome()
            let (child, captured) = try startChild(coordinator, under: root)
            switch way {
            case "event": try coordinator.send(.cancel, to: child)
            case "stop": coordinator.supervisor.stop(child)
            default: coordinator.supervisor.stop(root)
            }
            #expect(!coordinator.supervisor.contains(child.id), "\(way)")
            #expect(coordinator.routedMachines == (way == "parent" ? 0 : 1), "\(way)")
            #expect(captured() == nil, "\(way): the child's closures are released")
        }
    }

    @Test("An alert left by a child that finished does nothing, and keeps nothing alive")
    func alertOfFinishedChild() throws {
        let (coordinator, navigator, root) = try rootOnHome()
        let (child, captured) = try startChild(coordinator, under: root)
        try coordinator.send(.ask, to: child)
        #expect(navigator.alert?.title == "Sure?")
        try coordinator.send(.cancel, to: child)
        #expect(captured() == nil)
        #expect(navigator.choose("Yes"))
        #expect(coordinator.supervisor.state(of: root) == .home)
        #expect(coordinator.routedMachines == 1)
    }

    @Test("Swiping a child's sheet down forgets it and releases its closures")
    func swipedChildReleased() throws {
        let (coordinator, navigator, root) = try rootOnHome()
        let (child, captured) = try startChild(coordinator, under: root)
        try coordinator.send(.next, to: child)
        #expect(navigator.swipeDown())
        #expect(!coordinator.supervisor.contains(child.id))
        #expect(captured() == nil)
        #expect(coordinator.routedMachines == 1)
        #expect(navigator.stacks == [[.home]])
        #expect(navigator.problems.isEmpty)
    }

    @Test("Two live flows showing the same screen value: when the later one goes, the earlier one owns the screen again (found by NavigationCheck)")
    func sameScreenTwoOwners() throws {
        let navigator = HeadlessNavigator<Profile.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        let root = try coordinator.start(Leaf.definition, effects: { _ in nil })
        let first = try coordinator.start(Profile.definition, under: root, effects: Profile.navigation, output: { _ in nil })
        let second = try coordinator.start(Profile.definition, under: root, effects: Profile.navigation, output: { _ in nil })
        #expect(navigator.stacks == [[.profile, .profile]])
        #expect(coordinator.owner(of: .profile) == second.id)
        coordinator.supervisor.stop(second)
        #expect(coordinator.owner(of: .profile) == first.id)
    }

    @Test("A flow that dismisses a sheet another flow presented: recorded in problems and warned about; its own dismissal is not")
    func removesWhatItDidNotShow() throws {
        enum Sheet: Flow {
            enum State: Hashable, Sendable { case shown, closed }
            enum Event: FlowEvent, Hashable { case close }
            typealias Effect = Navigation<Profile.Screen, Event>
            typealias Output = Void
        }
        let sheet = FlowDefinition<Sheet>("sheet", initial: .shown) {
            StateNode(.shown, entry: [.present(.edit)]) { On(.close, to: .closed, effects: [.dismiss]) }
            StateNode(.closed)
        }
        let navigator = HeadlessNavigator<Profile.Screen>()
        let store = WarningRecorder.Store()
        let coordinator = Coordinator(navigator: navigator, logger: Logger(label: "test") { _ in WarningRecorder(store: store) })
        let root = try coordinator.start(Leaf.definition, effects: { _ in nil })
        let first = try coordinator.start(sheet, under: root, effects: { $0 }, output: { _ in nil })
        let second = try coordinator.start(sheet, under: root, effects: { $0 }, output: { _ in nil })
        try coordinator.send(.close, to: second)  // its own sheet, the top one
        #expect(coordinator.problems.isEmpty)
        let third = try coordinator.start(sheet, under: root, effects: { $0 }, output: { _ in nil })
        try coordinator.send(.close, to: first)  // dismisses the top sheet, the third flow's, not its own
        #expect(coordinator.problems.count == 1)
        #expect(coordinator.problems.first?.contains("removed screen edit with dismiss, and flow \(third.id) showed it") == true)
        #expect(store.messages == coordinator.problems)
    }

    @Test("A declared child that ends and leaves its sheet: the sheet has no owner (its parent does not inherit it)")
    func declaredChildLeakHasNoOwner() throws {
        enum Sheet: Flow {
            enum State: Hashable, Sendable { case shown, done }
            enum Event: FlowEvent, Hashable { case close }
            typealias Effect = Navigation<Profile.Screen, Event>
            typealias Output = Void
        }
        enum Host: Flow {
            enum State: Hashable, Sendable { case idle, editing }
            enum Event: FlowEvent, Hashable { case edit, edited }
            typealias Effect = Navigation<Profile.Screen, Event>
            typealias Output = Void
        }
        let sheet = FlowDefinition<Sheet>("sheet", initial: .shown) {
            StateNode(.shown, entry: [.present(.edit)]) { On(.close, to: .done) }  // forgets to dismiss
            Final(.done, output: ())
        }
        let child = ChildFlow<Host>(sheet, effects: { $0.mapEvents { _ in Host.Event.edited } }) { _ in .edited }
        let definition = FlowDefinition<Host>("host", initial: .idle) {
            StateNode(.idle, entry: [.push(.profile)]) { On(.edit, to: .editing) }
            StateNode(.editing, runs: child) { On(.edited, to: .idle) }
        }
        let navigator = HeadlessNavigator<Profile.Screen>()
        let coordinator = Coordinator(navigator: navigator)
        let host = try coordinator.start(definition, effects: { $0 })
        try coordinator.send(.edit, to: host)
        let sheetFlow = try #require(coordinator.supervisor.declaredChild(of: host, in: .editing, as: Sheet.self))
        #expect(coordinator.owner(of: .edit) == sheetFlow.id)
        try coordinator.send(.close, to: sheetFlow)
        #expect(navigator.stacks.count == 2 && navigator.stacks[1].first == .edit, "the sheet is left on screen")
        #expect(coordinator.owner(of: .edit) == nil)
        #expect(coordinator.owner(of: .profile) == host.id)
    }
}
