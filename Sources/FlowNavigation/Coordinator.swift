import Flowstate
import Logging

/// Runs coordinator flows: their navigation effects drive a ``Navigator``, the user's own navigation
/// comes back to them as events, and a child flow bound to a screen lives exactly as long as it.
///
/// The flows run under a `Supervisor`. A child started with
/// ``start(_:under:context:effects:perform:userNavigation:dismissed:output:)`` is bound, through the
/// supervisor's owner binding, to the first screen it shows: when the user dismisses that screen (back
/// gesture, swipe down), the child and everything under it are torn down, its parent receives the
/// `dismissed` event, and nothing else changes. No delegate, no bookkeeping, no zombie: when the
/// supervisor tears a machine down (for any reason), the coordinator forgets its route, its screens
/// and its alert at once, and with them the closures it was started with. A root flow is bound to no
/// screen: it performs all of its navigation.
///
/// A coordinator is used from one isolation domain (on iOS, the main actor); it is not `Sendable`.
///
/// ## Re-entrancy
/// Every call goes through the supervisor, so its run-to-completion rules hold: a flow's navigation
/// is performed by the coordinator's handler inside the step that asked for it, and a call made from
/// inside a step (from a `perform` closure, an `output` closure, a navigator reacting to a command, or
/// a tree observer) is queued or refused as `Supervisor` documents: ``send(_:to:)`` is delivered
/// after the step; `start` returns the handle at once and starts the machine after the step; `restore`
/// is refused with `SupervisorError.Code.reentrantCall`. The navigator's reports of the user's own
/// navigation (`onUserNavigation`) are expected outside a step, after the screen is gone, as UIKit
/// reports them; they are delivered to the flow that showed the screen as ordinary events.
///
/// ```swift
/// let navigator = HeadlessNavigator<FirstLaunchAccount.Screen>()
/// let coordinator = Coordinator(navigator: navigator)
/// let launch = try coordinator.start(FirstLaunchAccount.launch, effects: { $0 })
/// try coordinator.send(.createAccount, to: launch)
/// ```
public final class Coordinator<Screen: Hashable & Sendable> {
    /// The supervisor the flows run under.
    public let supervisor: Supervisor
    /// The screens.
    public let navigator: any Navigator<Screen>

    /// A screen's lifetime object: retained by the navigator while the screen is shown, held weakly
    /// by the supervisor as the owner of the flows bound to it.
    typealias ScreenLifetime = FlowLifetime

    /// A machine's hold on the lifetime of the first screen it shows, and the screens it showed.
    ///
    /// A root flow has no lifetime: it is bound to no screen, so its screens are never "gone" for it
    /// and it performs all of its navigation.
    final class Binding {
        /// The lifetime of the screen the machine will show first, until it shows it (`nil` for a root).
        var pending: ScreenLifetime?
        /// That lifetime once its screen is shown: the navigator retains it, this does not.
        weak var shown: ScreenLifetime?
        /// Whether the machine showed the screen its lifetime is bound to.
        var showedBoundScreen = false
        /// The screens the machine showed itself (the `shownBy` entries it may own); a declared child's,
        /// performed by this machine's handler, are not among them.
        var screens: Set<Screen> = []
        /// The screen its lifetime is bound to, once shown.
        var boundScreen: Screen?
        /// Whether the screen the machine is bound to was shown and is gone: its navigation is moot.
        var screenGone: Bool { showedBoundScreen && shown == nil }
        init(_ lifetime: ScreenLifetime?) { pending = lifetime }
    }

    /// Each adopted machine's route for the user's navigation, which says whether an event reported
    /// it. An entry lives exactly as long as its machine: it is removed when the supervisor reports the
    /// machine torn down.
    var routes: [MachineID: (UserNavigation<Screen>) -> Bool] = [:]
    /// Where the coordinator warns of the user's navigation that no flow hears.
    let logger: Logger
    /// The machine that last showed each screen: the one whose state or effect showed it (a declared
    /// child, whose effects its parent's handler performs, included), and the coordinator-started
    /// machine whose handler performed it (where the screen's route falls back to once the first is gone).
    var shownBy: [Screen: (origin: MachineID, machine: MachineID)] = [:]
    var bindings: [MachineID: Binding] = [:]
    private var alertActions: (machine: MachineID, actions: [() -> Void])?
    /// The coordinator's observation of the tree (teardowns, and steps taken outside its calls).
    private var teardowns: FlowObservation?
    /// The screen maps and user-navigation routes declared per flow type (``declare(_:userNavigation:)``).
    var declarations: [ObjectIdentifier: Declaration] = [:]
    /// What the navigator shows, as the coordinator changed it and the user's reports did.
    var shown = NavigationModel<Screen>()
    /// How many of the coordinator's calls are running: the stacks are matched to the layout when the
    /// outermost returns (``batch(_:)``).
    var callDepth = 0
    /// Whether a flow that performs its navigation by hand was warned that its tree declares screens.
    var warnedMixing = false
    /// The problems of the layout last shown: warned about once, not at every settle.
    var layoutProblems: [String] = []
    /// Navigation a flow performed on screens it did not show, in order (``problems``).
    var removalProblems: [String] = []

    /// Creates a coordinator over a navigator, with a new ``supervisor``.
    ///
    /// The coordinator sets the navigator's `onUserNavigation` (replacing any earlier one) and holds
    /// the navigator strongly; the navigator's callback holds the coordinator weakly.
    ///
    /// When the user goes back from or dismisses a screen that a running flow showed, and the flow
    /// has no event for it (its `userNavigation` returns `nil`), the flow no longer matches the
    /// screens: the coordinator logs a warning naming the flow, its state and the screen.
    /// - Parameters:
    ///   - navigator: The screens.
    ///   - logger: Where warnings go (swift-log's default handler prints them, so an app needs no setup).
    ///   - isolation: The actor the coordinator is used on (the caller's, by default).
    public init(navigator: any Navigator<Screen>, logger: Logger = Logger(label: "Flowstate.Coordinator"),
                isolation: isolated (any Actor)? = #isolation) {
        self.navigator = navigator
        self.logger = logger
        supervisor = Supervisor()
        navigator.onUserNavigation = { [weak self] navigation in self?.userNavigated(navigation) }
        // Forget a machine as soon as it is torn down (completed, cancelled, stopped, its screen
        // released, failed...), whatever the path: its route and binding hold what its closures captured.
        teardowns = supervisor.observe { [weak self] event in
            guard let self else { return }
            switch event {
            case .tornDown(let id, _):
                forget(id)
                settle()
            case .transitioned, .spawned, .restarted:
                settle()
            default:
                break
            }
        }
    }

    // MARK: Starting flows

    /// Starts a root flow.
    ///
    /// The flow's start effects are performed before this returns: its navigation on the navigator,
    /// the rest by `perform`. A root flow is bound to no screen; it lives until it finishes or the
    /// supervisor stops it. To wait for its output, use ``run(_:context:effects:perform:userNavigation:started:isolation:)``.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - context: The flow's context; `nil` for the definition's initial context.
    ///   - effects: The navigation an effect asks for, if any (`nil`: the effect is given to `perform`).
    ///   - perform: Performs the effects that are not navigation (saving, loading...).
    ///   - userNavigation: The event that reports the user's own navigation from a screen this flow
    ///     showed: going back from it, swiping it down, switching to a tab whose root it showed, or
    ///     answering its alert (`nil`: none; the coordinator logs a warning when the user changes a
    ///     screen the flow showed and no event reports it).
    ///   - output: Receives the flow's typed output when it reaches a final state (inside that step,
    ///     after its teardown).
    /// - Returns: The flow's handle, for ``send(_:to:)`` and for starting children under it.
    /// - Throws: `SupervisorError` with code `invalidDefinition` if the definition has validation
    ///   errors, `stepFailed` if the flow cannot start (an eventless loop). Called from inside a step,
    ///   the handle is returned at once and the flow starts after the step.
    @discardableResult
    public func start<F: Flow>(
        _ definition: FlowDefinition<F>,
        context: F.Context? = nil,
        effects: @escaping (F.Effect) -> Navigation<Screen, F.Event>?,
        perform: @escaping (F.Effect) -> Void = { _ in },
        userNavigation: @escaping (UserNavigation<Screen>) -> F.Event? = { _ in nil },
        output: ((F.Output) -> Void)? = nil
    ) throws(SupervisorError) -> MachineHandle<F> {
        try start(definition, context: context, effects: effects, handler: { effect, _ in perform(effect) },
                  userNavigation: userNavigation, output: output)
    }

    /// ``start(_:context:effects:perform:userNavigation:output:)``, with effects that are not
    /// navigation performed by a `handler` that gets the supervisor's `EffectContext`: the flow's
    /// handle, async work tied to the flow's life (`context.task`), events sent back to it. A handler
    /// that throws fails the flow, as the supervisor's handlers do (the root's policy: escalate).
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - context: The flow's context; `nil` for the definition's initial context.
    ///   - effects: The navigation an effect asks for, if any (`nil`: the effect is given to `perform`).
    ///   - handler: Performs the effects that are not navigation, with the effect's context (the
    ///     supervisor's `EffectHandler`).
    ///   - userNavigation: The event that reports the user's own navigation from a screen this flow
    ///     showed.
    ///   - output: Receives the flow's typed output when it reaches a final state.
    /// - Returns: The flow's handle.
    /// - Throws: What ``start(_:context:effects:perform:userNavigation:output:)`` throws.
    @discardableResult
    public func start<F: Flow>(
        _ definition: FlowDefinition<F>,
        context: F.Context? = nil,
        effects: @escaping (F.Effect) -> Navigation<Screen, F.Event>?,
        handler: @escaping EffectHandler<F>,
        userNavigation: @escaping (UserNavigation<Screen>) -> F.Event? = { _ in nil },
        output: ((F.Output) -> Void)? = nil
    ) throws(SupervisorError) -> MachineHandle<F> {
        try batch { () throws(SupervisorError) in
            let binding = Binding(nil)
            let machine = try supervisor.start(definition, context: context, output: output,
                                               handler: self.handler(binding, effects, handler))
            adopt(machine, binding: binding, userNavigation: userNavigation)
            return machine
        }
    }

    /// Starts a root flow and waits for its typed output: the app's whole run of a flow in one call.
    ///
    /// ```swift
    /// let coordinator = Coordinator(navigator: navigator)
    /// let account = try await coordinator.run(FirstLaunchAccount.launch, effects: { $0 })
    /// ```
    ///
    /// The flow runs as ``start(_:context:effects:perform:userNavigation:output:)`` starts it; while
    /// it runs, find it in ``supervisor`` (`Supervisor.machines`) and send it events as usual. Its
    /// declared children run under it, bound to the screens they show.
    ///
    /// **Cancellation.** When the awaiting task is cancelled, the flow is stopped with its normal
    /// teardown (children first, exit effects once, so its screens are dismissed by its own
    /// navigation), and `CancellationError` is thrown.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - context: The flow's context; `nil` for the definition's initial context.
    ///   - effects: The navigation an effect asks for, if any (`nil`: the effect is given to `perform`).
    ///   - perform: Performs the effects that are not navigation.
    ///   - userNavigation: The event that reports the user's own navigation from a screen this flow showed.
    ///   - started: Called with the flow's handle as soon as it is in the tree (after its start effects,
    ///     before the wait): keep it where the screens send the user's events to the flow.
    ///   - isolation: The actor the coordinator is used on (the caller's, by default).
    /// - Returns: The output of the final state the flow reached.
    /// - Throws: What ``start(_:context:effects:perform:userNavigation:output:)`` throws;
    ///   `SupervisorError` with code `machineGone` when the flow is torn down before it finishes
    ///   (stopped, failed); `CancellationError`. It cannot be called from inside a step.
    public func run<F: Flow>(
        _ definition: FlowDefinition<F>,
        context: F.Context? = nil,
        effects: @escaping (F.Effect) -> Navigation<Screen, F.Event>?,
        perform: @escaping (F.Effect) -> Void = { _ in },
        userNavigation: @escaping (UserNavigation<Screen>) -> F.Event? = { _ in nil },
        started: (MachineHandle<F>) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> F.Output {
        try await run(definition, context: context, effects: effects, handler: { effect, _ in perform(effect) },
                      userNavigation: userNavigation, started: started, isolation: isolation)
    }

    /// ``run(_:context:effects:perform:userNavigation:started:isolation:)``, with effects that are not
    /// navigation performed by a handler that gets the supervisor's `EffectContext` (the flow's
    /// handle, async work tied to its life); a handler that throws fails the flow, and the wait ends
    /// with `machineGone`.
    /// - Parameters:
    ///   - definition: The flow; it must be valid.
    ///   - context: The flow's context; `nil` for the definition's initial context.
    ///   - effects: The navigation an effect asks for, if any (`nil`: the effect is given to `perform`).
    ///   - handler: Performs the effects that are not navigation, with the effect's context (the
    ///     supervisor's `EffectHandler`).
    ///   - userNavigation: The event that reports the user's own navigation from a screen this flow showed.
    ///   - started: Called with the flow's handle as soon as it is in the tree.
    ///   - isolation: The actor the coordinator is used on (the caller's, by default).
    /// - Returns: The output of the final state the flow reached.
    /// - Throws: What ``run(_:context:effects:perform:userNavigation:started:isolation:)`` throws.
    public func run<F: Flow>(
        _ definition: FlowDefinition<F>,
        context: F.Context? = nil,
        effects: @escaping (F.Effect) -> Navigation<Screen, F.Event>?,
        handler: @escaping EffectHandler<F>,
        userNavigation: @escaping (UserNavigation<Screen>) -> F.Event? = { _ in nil },
        started: (MachineHandle<F>) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> F.Output {
        let binding = Binding(nil)
        return try await supervisor.run(definition, context: context, policy: .escalate, isolation: isolation,
                                        handler: self.handler(binding, effects, handler)) { machine in
            adopt(machine, binding: binding, userNavigation: userNavigation)
            settle()
            started(machine)
        }
    }

    /// Starts a child flow under `parent`, bound to the first screen the child shows.
    ///
    /// The child's first `push`, `present` or `tabs` hands the navigator a lifetime object that owns
    /// the child: when the navigator releases that screen (the user went back past it or swiped it
    /// down), the child and its subtree are torn down at the supervisor's next call, without
    /// performing their navigation, and `parent` receives `dismissed`. When the child finishes, its
    /// output is mapped to a parent event by `output`; the coordinator forgets the child (its route,
    /// screens and closures) as soon as it is torn down, for any reason.
    /// - Parameters:
    ///   - definition: The child flow; it must be valid.
    ///   - parent: The flow that receives its output.
    ///   - context: The child's context; `nil` for the definition's initial context.
    ///   - effects: The navigation an effect asks for, if any.
    ///   - perform: Performs the effects that are not navigation.
    ///   - userNavigation: The event that reports the user's own navigation from its screens (going
    ///     back, swiping down, switching to a tab whose root it showed).
    ///   - dismissed: The parent event that reports the user dismissing the child's screen (the child
    ///     is then torn down, without performing its navigation).
    ///   - output: The parent event that reports the child's output (`nil`: none). Called inside the
    ///     step that finished the child, after its teardown.
    /// - Returns: The child's handle.
    /// - Throws: `SupervisorError` with code `machineGone` if `parent` is gone or being torn down,
    ///   `invalidDefinition` if the definition has validation errors, `stepFailed` if the child cannot
    ///   start. Called from inside a step, the handle is returned at once and the child starts after
    ///   the step.
    @discardableResult
    public func start<C: Flow, P: Flow>(
        _ definition: FlowDefinition<C>,
        under parent: MachineHandle<P>,
        context: C.Context? = nil,
        effects: @escaping (C.Effect) -> Navigation<Screen, C.Event>?,
        perform: @escaping (C.Effect) -> Void = { _ in },
        userNavigation: @escaping (UserNavigation<Screen>) -> C.Event? = { _ in nil },
        dismissed: P.Event? = nil,
        output: @escaping @Sendable (C.Output) -> P.Event?
    ) throws(SupervisorError) -> MachineHandle<C> {
        try start(definition, under: parent, context: context, effects: effects,
                  handler: { effect, _ in perform(effect) }, userNavigation: userNavigation, dismissed: dismissed,
                  output: output)
    }

    /// ``start(_:under:context:effects:perform:userNavigation:dismissed:output:)``, with effects that
    /// are not navigation performed by a handler that gets the supervisor's `EffectContext`: the
    /// child's handle, async work tied to the child's life (cancelled when the user dismisses its
    /// screen), events sent back to it. A handler that throws fails the child (escalated to `parent`).
    /// - Parameters:
    ///   - definition: The child flow; it must be valid.
    ///   - parent: The flow that receives its output.
    ///   - context: The child's context; `nil` for the definition's initial context.
    ///   - effects: The navigation an effect asks for, if any.
    ///   - handler: Performs the effects that are not navigation, with the effect's context (the
    ///     supervisor's `EffectHandler`).
    ///   - userNavigation: The event that reports the user's own navigation from its screens.
    ///   - dismissed: The parent event that reports the user dismissing the child's screen.
    ///   - output: The parent event that reports the child's output (`nil`: none).
    /// - Returns: The child's handle.
    /// - Throws: What ``start(_:under:context:effects:perform:userNavigation:dismissed:output:)`` throws.
    @discardableResult
    public func start<C: Flow, P: Flow>(
        _ definition: FlowDefinition<C>,
        under parent: MachineHandle<P>,
        context: C.Context? = nil,
        effects: @escaping (C.Effect) -> Navigation<Screen, C.Event>?,
        handler: @escaping EffectHandler<C>,
        userNavigation: @escaping (UserNavigation<Screen>) -> C.Event? = { _ in nil },
        dismissed: P.Event? = nil,
        output: @escaping @Sendable (C.Output) -> P.Event?
    ) throws(SupervisorError) -> MachineHandle<C> {
        try batch { () throws(SupervisorError) in
            try bound(under: parent, effects: effects, perform: handler, userNavigation: userNavigation,
                      dismissed: dismissed) { (owner, onTeardown, handler) throws(SupervisorError) in
                try supervisor.spawn(definition, under: parent, context: context, owner: owner,
                                     onTeardown: onTeardown, handler: handler, output: output)
            }.0
        }
    }

    /// Creates a child bound to a new screen lifetime (`make` spawns or restores it with the owner,
    /// teardown hook and handler given) and routes the user's navigation to it.
    func bound<C: Flow, P: Flow>(
        under parent: MachineHandle<P>,
        effects: @escaping (C.Effect) -> Navigation<Screen, C.Event>?,
        perform: @escaping EffectHandler<C>,
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

    /// Sends an event to a flow (what a screen does when the user taps).
    ///
    /// The step, its navigation and everything it causes (children torn down or spawned, outputs
    /// delivered to parents) are processed before this returns. From inside a step, the event is
    /// queued and delivered after it.
    /// - Parameters:
    ///   - event: The event.
    ///   - machine: The flow that receives it.
    /// - Throws: `SupervisorError` with code `machineGone` if the flow is gone (finished, cancelled, or
    ///   torn down with its screen), `stepFailed` if it refused the event (for example, one it does not
    ///   handle under the `fail` policy). A queued event refused later is reported to tree observers.
    public func send<F: Flow>(_ event: F.Event, to machine: MachineHandle<F>) throws(SupervisorError) {
        try batch { () throws(SupervisorError) in try supervisor.send(event, to: machine) }
    }

    // MARK: Internals

    func adopt<F: Flow>(_ machine: MachineHandle<F>, binding: Binding,
                        userNavigation: @escaping (UserNavigation<Screen>) -> F.Event?) {
        bindings[machine.id] = binding
        routes[machine.id] = route(to: machine, userNavigation)
        // A machine that finished while starting was torn down before it was adopted.
        if !supervisor.contains(machine.id) { forget(machine.id) }
    }

    /// A route that sends `machine` the event `userNavigation` gives for the user's navigation, and
    /// says whether there was one.
    func route<F: Flow>(to machine: MachineHandle<F>, _ userNavigation: @escaping (UserNavigation<Screen>) -> F.Event?)
        -> (UserNavigation<Screen>) -> Bool {
        { [unowned self] navigation in
            guard let event = userNavigation(navigation) else { return false }
            do {
                try self.supervisor.send(event, to: machine)
            } catch {
                // The flow heard the user but refused the event (for example, unhandled under
                // `UnhandledEventPolicy.fail`): it no longer matches the screens either.
                self.logger.warning("the user's \(navigation) reached flow \(machine.id) as \(event), which it refused: \(error)",
                                    metadata: ["machine": "\(machine.id)", "navigation": "\(navigation)"])
            }
            return true
        }
    }

    /// Drops everything the coordinator keeps for a machine that was torn down.
    func forget(_ id: MachineID) {
        routes[id] = nil
        bindings[id] = nil
        let left = shownBy.filter { $0.value.origin == id || $0.value.machine == id }.keys
        for screen in left {
            // Another live flow may show the same screen value: it owns it again.
            if let other = bindings.first(where: { $0.value.screens.contains(screen) })?.key {
                shownBy[screen] = (other, other)
            } else {
                shownBy[screen] = nil
            }
        }
        if alertActions?.machine == id { alertActions = nil }
    }

    func teardownHook<P: Flow>(parent: MachineHandle<P>, dismissed: P.Event?) -> (TeardownReason) -> Void {
        { [weak self] reason in
            guard let self, reason == .ownerReleased, let dismissed else { return }
            try? self.supervisor.send(dismissed, to: parent)  // queued: delivered after the teardown
        }
    }

    func handler<F: Flow>(
        _ binding: Binding, _ effects: @escaping (F.Effect) -> Navigation<Screen, F.Event>?,
        _ perform: @escaping EffectHandler<F>
    ) -> EffectHandler<F> {
        { [unowned self] effect, context in
            guard let navigation = effects(effect) else {
                try perform(effect, context)
                return
            }
            self.navigate(navigation, machine: context.machine, origin: context.origin, binding: binding)
        }
    }

    func navigate<F: Flow>(_ navigation: Navigation<Screen, F.Event>, machine: MachineHandle<F>,
                                   origin: MachineID, binding: Binding) {
        if case .alert = navigation {} else if handsOverStacks(navigation, origin: origin) { return }
        switch navigation {
        case .push(let screen), .present(let screen):
            let lifetime = show([screen], origin: origin, machine: machine.id, binding: binding)
            if case .push = navigation {
                perform(.push(screen), retaining: lifetime)
            } else {
                perform(.present(screen), retaining: lifetime)
            }
        case .tabs(let screens):
            // The tab bar is the screen the machine is bound to (when it is the first it shows).
            let lifetime = show(screens, origin: origin, machine: machine.id, binding: binding)
            perform(.tabs(screens), retaining: lifetime)
        case .selectTab(let screen):
            guard !binding.screenGone else { return }
            perform(.selectTab(screen), retaining: nil)
        case .pop, .popToRoot, .dismiss:
            // A flow torn down because the user dismissed its screen must not pop what remains.
            guard !binding.screenGone else { return }
            let command: NavigatorCommand<Screen> = switch navigation {
            case .pop: .pop
            case .popToRoot: .popToRoot
            default: .dismiss
            }
            checkRemoval(command, by: origin, through: machine.id)
            perform(command, retaining: nil)
        case .alert(let alert):
            alertActions = (machine.id, alert.choices.map { choice in
                { [unowned self] in try? self.supervisor.send(choice.event, to: machine) }
            })
            let choices = alert.choices.map(\.label), cancelIndex = alert.choices.firstIndex(where: \.isCancel)
            _ = shown.apply(.alert(title: alert.title, choices: choices), cancelIndex: cancelIndex)
            navigator.performAlert(title: alert.title, choices: choices, cancelIndex: cancelIndex)
        }
    }

    /// Performs a command on the navigator, and on ``shown``.
    func perform(_ command: NavigatorCommand<Screen>, retaining lifetime: AnyObject?) {
        _ = shown.apply(command)
        navigator.perform(command, retaining: lifetime)
    }

    /// Records that `origin` shows `screens` (through `machine`'s handler, or its state); returns the
    /// lifetime to hand to the navigator, if these are the first screens `machine` shows.
    func show(_ screens: [Screen], origin: MachineID, machine: MachineID, binding: Binding?) -> ScreenLifetime? {
        let lifetime = binding?.pending
        if let lifetime, let binding {
            binding.pending = nil
            binding.shown = lifetime
            binding.showedBoundScreen = true
            binding.boundScreen = screens.first
        }
        for screen in screens {
            if origin == machine { binding?.screens.insert(screen) }
            shownBy[screen] = (origin, machine)
        }
        return lifetime
    }

    private func userNavigated(_ navigation: UserNavigation<Screen>) {
        catchUp(with: navigation)
        // A report of several screens gone at once comes as several events, each after the navigator
        // already shows the whole report: the stacks are settled after the last, not in between.
        let more = navigator.shownModel.map { $0.stacks != shown.stacks || $0.tabStacks != shown.tabStacks } ?? false
        if more { callDepth += 1 }
        defer { if more { callDepth -= 1 } }
        batch {
            supervisor.sweep()  // the flows bound to a screen that is gone go first (and are forgotten)
            switch navigation {
            case .wentBack(let screen), .dismissed(let screen), .selectedTab(let screen):
                guard let shower = shownBy[screen] else { return }
                let heard = deliver(navigation, from: shower)
                if case .selectedTab = navigation { return }  // a flow may not care which tab is shown
                if !heard { unheard(navigation, screen: screen, shower: shower) }
            case .choseAlert(let index):
                guard let (_, actions) = alertActions, index < actions.count else { return }
                alertActions = nil
                actions[index]()
            }
        }
    }

    /// Logs that the user changed a screen a flow showed, and no event told the flow.
    func warnUnheard(_ navigation: UserNavigation<Screen>, screen: Screen, machine id: MachineID) {
        let info = supervisor.machines.first { $0.id == id }
        let what = if case .dismissed = navigation { "dismissed" } else { "went back from" }
        logger.warning(
            "the user \(what) screen \(screen), shown by flow '\(info?.flow ?? "?")' (\(id)) in state '\(info?.state ?? "?")', and no event reports it: the flow no longer matches the screens; give the flow a userNavigation event for it",
            metadata: ["machine": "\(id)", "screen": "\(screen)", "navigation": "\(navigation)"])
    }

    /// The number of machines the coordinator still routes to. Each is alive in the supervisor: a
    /// machine is forgotten, with the closures it was started with, as soon as the supervisor tears it
    /// down (one bound to a screen that is gone: at the supervisor's next call, or the next user
    /// navigation).
    public var routedMachines: Int { routes.count }
}
