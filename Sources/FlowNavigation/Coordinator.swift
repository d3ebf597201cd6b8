import Flowstate

/// Runs coordinator flows: their navigation effects drive a ``Navigator``, the user's own navigation
/// comes back to them as events, and a child flow bound to a screen lives exactly as long as it.
///
/// The flows run under a `Supervisor`. A child started with
/// ``start(_:under:effects:perform:userNavigation:dismissed:output:)`` is bound, through the
/// supervisor's owner binding, to the first screen it shows: when the user dismisses that screen (back
/// gesture, swipe down), the child and everything under it are torn down, its parent receives the
/// `dismissed` event, and nothing else changes. No delegate, no bookkeeping, no zombie.
///
/// A coordinator is used from one isolation domain (on iOS, the main actor); it is not `Sendable`.
public final class Coordinator<Screen: Hashable & Sendable> {
    /// The supervisor the flows run under.
    public let supervisor: Supervisor
    /// The screens.
    public let navigator: any Navigator<Screen>

    /// A screen's lifetime object: retained by the navigator while the screen is shown, held weakly
    /// by the supervisor as the owner of the flows bound to it.
    typealias ScreenLifetime = FlowLifetime

    /// A machine's hold on the lifetime of the first screen it shows.
    final class Binding {
        var pending: ScreenLifetime?
        weak var shown: ScreenLifetime?
        var screen: Screen?
        /// Whether the machine's screen was shown and is gone: its navigation is moot.
        var screenGone: Bool { screen != nil && shown == nil }
        init(_ lifetime: ScreenLifetime?) { pending = lifetime }
    }

    private var routes: [MachineID: (UserNavigation<Screen>) -> Void] = [:]
    private var shownBy: [Screen: MachineID] = [:]
    private var bindings: [MachineID: Binding] = [:]
    private var alertActions: (machine: MachineID, actions: [() -> Void])?

    /// Creates a coordinator over a navigator.
    /// - Parameters:
    ///   - navigator: The screens.
    ///   - isolation: The actor the coordinator is used on (the caller's, by default).
    public init(navigator: any Navigator<Screen>, isolation: isolated (any Actor)? = #isolation) {
        self.navigator = navigator
        supervisor = Supervisor()
        navigator.onUserNavigation = { [weak self] navigation in self?.userNavigated(navigation) }
    }

    // MARK: Starting flows

    /// Starts a root flow.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - effects: The navigation an effect asks for, if any.
    ///   - perform: Performs the effects that are not navigation (saving, loading...).
    ///   - userNavigation: The event that reports the user's own navigation from a screen this flow
    ///     showed (`nil`: none).
    @discardableResult
    public func start<F: Flow>(
        _ definition: FlowDefinition<F>,
        effects: @escaping (F.Effect) -> Navigation<Screen, F.Event>?,
        perform: @escaping (F.Effect) -> Void = { _ in },
        userNavigation: @escaping (UserNavigation<Screen>) -> F.Event? = { _ in nil }
    ) throws(SupervisorError) -> MachineHandle<F> {
        let binding = Binding(nil)
        let machine = try supervisor.start(definition, handler: handler(binding, effects, perform))
        adopt(machine, binding: binding, userNavigation: userNavigation)
        return machine
    }

    /// Starts a child flow under `parent`, bound to the first screen the child shows.
    /// - Parameters:
    ///   - definition: The child flow; it must be valid.
    ///   - parent: The flow that receives its output.
    ///   - effects: The navigation an effect asks for, if any.
    ///   - perform: Performs the effects that are not navigation.
    ///   - userNavigation: The event that reports the user's own navigation from its screens.
    ///   - dismissed: The parent event that reports the user dismissing the child's screen (the child
    ///     is then torn down, without performing its navigation).
    ///   - output: The parent event that reports the child's output.
    @discardableResult
    public func start<C: Flow, P: Flow>(
        _ definition: FlowDefinition<C>,
        under parent: MachineHandle<P>,
        effects: @escaping (C.Effect) -> Navigation<Screen, C.Event>?,
        perform: @escaping (C.Effect) -> Void = { _ in },
        userNavigation: @escaping (UserNavigation<Screen>) -> C.Event? = { _ in nil },
        dismissed: P.Event? = nil,
        output: @escaping @Sendable (C.Output) -> P.Event?
    ) throws(SupervisorError) -> MachineHandle<C> {
        try bound(under: parent, effects: effects, perform: perform, userNavigation: userNavigation,
                  dismissed: dismissed) { (owner, onTeardown, handler) throws(SupervisorError) in
            try supervisor.spawn(definition, under: parent, owner: owner, onTeardown: onTeardown, handler: handler,
                                 output: output)
        }.0
    }

    /// Creates a child bound to a new screen lifetime (`make` spawns or restores it with the owner,
    /// teardown hook and handler given) and routes the user's navigation to it.
    private func bound<C: Flow, P: Flow>(
        under parent: MachineHandle<P>,
        effects: @escaping (C.Effect) -> Navigation<Screen, C.Event>?,
        perform: @escaping (C.Effect) -> Void,
        userNavigation: @escaping (UserNavigation<Screen>) -> C.Event?,
        dismissed: P.Event?,
        make: (FlowLifetime, @escaping (TeardownReason) -> Void, @escaping EffectHandler<C>) throws(SupervisorError)
            -> MachineHandle<C>
    ) throws(SupervisorError) -> (MachineHandle<C>, Binding) {
        let lifetime = ScreenLifetime()
        let binding = Binding(lifetime)
        let machine = try make(lifetime, teardownHook(parent: parent, dismissed: dismissed),
                               handler(binding, effects, perform))
        adopt(machine, binding: binding, userNavigation: userNavigation)
        return (machine, binding)
    }

    // MARK: Restoring

    /// Restores a root flow from a snapshot (`Supervisor.snapshot()`) without performing any effect;
    /// the host shows its screens again.
    @discardableResult
    public func restore<F: Flow>(
        _ snapshot: MachineSnapshot,
        definition: FlowDefinition<F>,
        effects: @escaping (F.Effect) -> Navigation<Screen, F.Event>?,
        perform: @escaping (F.Effect) -> Void = { _ in },
        userNavigation: @escaping (UserNavigation<Screen>) -> F.Event? = { _ in nil }
    ) throws(SupervisorError) -> MachineHandle<F> {
        let binding = Binding(nil)
        let machine = try supervisor.restore(snapshot, definition: definition, handler: handler(binding, effects, perform))
        adopt(machine, binding: binding, userNavigation: userNavigation)
        return machine
    }

    /// Restores a child flow from its snapshot under `parent`, shows its screens again (the first
    /// presented, or pushed when `presented` is false; the others pushed) and binds it to the first.
    @discardableResult
    public func restore<C: Flow, P: Flow>(
        _ snapshot: MachineSnapshot,
        definition: FlowDefinition<C>,
        under parent: MachineHandle<P>,
        screens: [Screen],
        presented: Bool = true,
        effects: @escaping (C.Effect) -> Navigation<Screen, C.Event>?,
        perform: @escaping (C.Effect) -> Void = { _ in },
        userNavigation: @escaping (UserNavigation<Screen>) -> C.Event? = { _ in nil },
        dismissed: P.Event? = nil,
        output: @escaping @Sendable (C.Output) -> P.Event?
    ) throws(SupervisorError) -> MachineHandle<C> {
        let (machine, binding) = try bound(under: parent, effects: effects, perform: perform,
                                           userNavigation: userNavigation, dismissed: dismissed) {
            (owner, onTeardown, handler) throws(SupervisorError) in
            try supervisor.restore(snapshot, definition: definition, under: parent, owner: owner,
                                   onTeardown: onTeardown, handler: handler, output: output)
        }
        for (i, screen) in screens.enumerated() {
            navigate(i == 0 && presented ? .present(screen) : Navigation<Screen, C.Event>.push(screen),
                     machine: machine, binding: binding)
        }
        return machine
    }

    /// Sends an event to a flow (what a screen does when the user taps).
    public func send<F: Flow>(_ event: F.Event, to machine: MachineHandle<F>) throws(SupervisorError) {
        try supervisor.send(event, to: machine)
    }

    // MARK: Internals

    private func adopt<F: Flow>(_ machine: MachineHandle<F>, binding: Binding,
                                userNavigation: @escaping (UserNavigation<Screen>) -> F.Event?) {
        bindings[machine.id] = binding
        routes[machine.id] = { [unowned self] navigation in
            if let event = userNavigation(navigation) { try? self.supervisor.send(event, to: machine) }
        }
    }

    private func teardownHook<P: Flow>(parent: MachineHandle<P>, dismissed: P.Event?) -> (TeardownReason) -> Void {
        { [weak self] reason in
            guard let self, reason == .ownerReleased, let dismissed else { return }
            try? self.supervisor.send(dismissed, to: parent)  // queued: delivered after the teardown
        }
    }

    private func handler<F: Flow>(
        _ binding: Binding, _ effects: @escaping (F.Effect) -> Navigation<Screen, F.Event>?,
        _ perform: @escaping (F.Effect) -> Void
    ) -> EffectHandler<F> {
        { [unowned self] effect, context in
            guard let navigation = effects(effect) else {
                perform(effect)
                return
            }
            self.navigate(navigation, machine: context.machine, binding: binding)
        }
    }

    private func navigate<F: Flow>(_ navigation: Navigation<Screen, F.Event>, machine: MachineHandle<F>, binding: Binding) {
        switch navigation {
        case .push(let screen), .present(let screen):
            let lifetime = binding.pending
            if let lifetime {
                binding.pending = nil
                binding.shown = lifetime
                binding.screen = screen
            } else if binding.screen == nil {
                binding.screen = screen
            }
            shownBy[screen] = machine.id
            if case .push = navigation {
                navigator.perform(.push(screen), retaining: lifetime)
            } else {
                navigator.perform(.present(screen), retaining: lifetime)
            }
        case .pop, .popToRoot, .dismiss:
            // A flow torn down because the user dismissed its screen must not pop what remains.
            guard !binding.screenGone else { return }
            let command: NavigatorCommand<Screen> = switch navigation {
            case .pop: .pop
            case .popToRoot: .popToRoot
            default: .dismiss
            }
            navigator.perform(command, retaining: nil)
        case .alert(let alert):
            alertActions = (machine.id, alert.choices.map { choice in
                { [unowned self] in try? self.supervisor.send(choice.event, to: machine) }
            })
            navigator.perform(.alert(title: alert.title, choices: alert.choices.map(\.label)), retaining: nil)
        }
    }

    private func userNavigated(_ navigation: UserNavigation<Screen>) {
        supervisor.sweep()  // the flows bound to a screen that is gone go first
        forgetTornDown()
        switch navigation {
        case .wentBack(let screen), .dismissed(let screen):
            if let id = shownBy[screen], supervisor.contains(id) { routes[id]?(navigation) }
        case .choseAlert(let index):
            guard let (id, actions) = alertActions, index < actions.count else { return }
            alertActions = nil
            if supervisor.contains(id) { actions[index]() }
        }
        forgetTornDown()
    }

    private func forgetTornDown() {
        for id in Array(routes.keys) where !supervisor.contains(id) {
            routes[id] = nil
            bindings[id] = nil
        }
        shownBy = shownBy.filter { supervisor.contains($0.value) }
    }

    /// The number of machines the coordinator still routes to (each is alive in the supervisor).
    public var routedMachines: Int { routes.count }
}
