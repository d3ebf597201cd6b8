import Flowstate

extension Coordinator {
    // MARK: Restoring

    /// Restores a root flow from a snapshot (`Supervisor.snapshot()`) without performing any effect;
    /// the host shows its screens again.
    /// - Parameters:
    ///   - snapshot: The root machine's snapshot.
    ///   - definition: The flow the snapshot was taken of.
    ///   - effects: The navigation an effect asks for, if any.
    ///   - perform: Performs the effects that are not navigation.
    ///   - userNavigation: The event that reports the user's own navigation from its screens.
    /// - Returns: The restored flow's handle.
    /// - Throws: `SupervisorError` with code `snapshotMismatch` if the snapshot does not fit the
    ///   definition (nothing is restored then); `reentrantCall` when called from inside a step.
    @discardableResult
    public func restore<F: Flow>(
        _ snapshot: MachineSnapshot,
        definition: FlowDefinition<F>,
        effects: @escaping (F.Effect) -> Navigation<Screen, F.Event>?,
        perform: @escaping (F.Effect) -> Void = { _ in },
        userNavigation: @escaping (UserNavigation<Screen>) -> F.Event? = { _ in nil }
    ) throws(SupervisorError) -> MachineHandle<F> {
        try restore(snapshot, definition: definition, effects: effects, handler: { effect, _ in perform(effect) },
                    userNavigation: userNavigation)
    }

    /// ``restore(_:definition:effects:perform:userNavigation:)``, with effects that are not navigation
    /// performed by a `handler` that gets the supervisor's `EffectContext`, as
    /// ``start(_:context:effects:handler:userNavigation:output:)`` started the flow.
    /// - Parameters:
    ///   - snapshot: The root machine's snapshot.
    ///   - definition: The flow the snapshot was taken of.
    ///   - effects: The navigation an effect asks for, if any.
    ///   - handler: Performs the effects that are not navigation, with the effect's context.
    ///   - userNavigation: The event that reports the user's own navigation from its screens.
    /// - Returns: The restored flow's handle.
    /// - Throws: What ``restore(_:definition:effects:perform:userNavigation:)`` throws.
    @discardableResult
    public func restore<F: Flow>(
        _ snapshot: MachineSnapshot,
        definition: FlowDefinition<F>,
        effects: @escaping (F.Effect) -> Navigation<Screen, F.Event>?,
        handler: @escaping EffectHandler<F>,
        userNavigation: @escaping (UserNavigation<Screen>) -> F.Event? = { _ in nil }
    ) throws(SupervisorError) -> MachineHandle<F> {
        try batch { () throws(SupervisorError) in
            let binding = Binding(nil)
            let machine = try supervisor.restore(snapshot, definition: definition,
                                                 handler: self.handler(binding, effects, handler))
            adopt(machine, binding: binding, userNavigation: userNavigation)
            return machine
        }
    }

    /// Restores a child flow from its snapshot under `parent`, shows its screens again (the first
    /// presented, or pushed when `presented` is false; the others pushed) and binds it to the first.
    /// - Parameters:
    ///   - snapshot: The child machine's snapshot.
    ///   - definition: The flow the snapshot was taken of.
    ///   - parent: The flow that receives its output.
    ///   - screens: The screens the child showed, in order; the first is the one it is bound to. None
    ///     for a flow whose screens are declared (``declare(_:userNavigation:)``): its states show them.
    ///   - presented: Whether the first screen is presented (`true`) or pushed.
    ///   - effects: The navigation an effect asks for, if any.
    ///   - perform: Performs the effects that are not navigation.
    ///   - userNavigation: The event that reports the user's own navigation from its screens.
    ///   - dismissed: The parent event that reports the user dismissing the child's first screen.
    ///   - output: The parent event that reports the child's output.
    /// - Returns: The restored child's handle.
    /// - Throws: `SupervisorError` with code `machineGone` if `parent` is gone, `snapshotMismatch` if
    ///   the snapshot does not fit the definition; `reentrantCall` when called from inside a step.
    @discardableResult
    public func restore<C: Flow, P: Flow>(
        _ snapshot: MachineSnapshot,
        definition: FlowDefinition<C>,
        under parent: MachineHandle<P>,
        screens: [Screen] = [],
        presented: Bool = true,
        effects: @escaping (C.Effect) -> Navigation<Screen, C.Event>?,
        perform: @escaping (C.Effect) -> Void = { _ in },
        userNavigation: @escaping (UserNavigation<Screen>) -> C.Event? = { _ in nil },
        dismissed: P.Event? = nil,
        output: @escaping @Sendable (C.Output) -> P.Event?
    ) throws(SupervisorError) -> MachineHandle<C> {
        try restore(snapshot, definition: definition, under: parent, screens: screens, presented: presented,
                    effects: effects, handler: { effect, _ in perform(effect) }, userNavigation: userNavigation,
                    dismissed: dismissed, output: output)
    }

    /// ``restore(_:definition:under:screens:presented:effects:perform:userNavigation:dismissed:output:)``,
    /// with effects that are not navigation performed by a `handler` that gets the supervisor's
    /// `EffectContext`, as ``start(_:under:context:effects:handler:userNavigation:dismissed:output:)``
    /// started the child.
    /// - Parameters:
    ///   - snapshot: The child machine's snapshot.
    ///   - definition: The flow the snapshot was taken of.
    ///   - parent: The flow that receives its output.
    ///   - screens: The screens the child showed, in order; the first is the one it is bound to. None
    ///     for a flow whose screens are declared (``declare(_:userNavigation:)``): its states show them.
    ///   - presented: Whether the first screen is presented (`true`) or pushed.
    ///   - effects: The navigation an effect asks for, if any.
    ///   - handler: Performs the effects that are not navigation, with the effect's context.
    ///   - userNavigation: The event that reports the user's own navigation from its screens.
    ///   - dismissed: The parent event that reports the user dismissing the child's first screen.
    ///   - output: The parent event that reports the child's output.
    /// - Returns: The restored child's handle.
    /// - Throws: What ``restore(_:definition:under:screens:presented:effects:perform:userNavigation:dismissed:output:)`` throws.
    @discardableResult
    public func restore<C: Flow, P: Flow>(
        _ snapshot: MachineSnapshot,
        definition: FlowDefinition<C>,
        under parent: MachineHandle<P>,
        screens: [Screen] = [],
        presented: Bool = true,
        effects: @escaping (C.Effect) -> Navigation<Screen, C.Event>?,
        handler: @escaping EffectHandler<C>,
        userNavigation: @escaping (UserNavigation<Screen>) -> C.Event? = { _ in nil },
        dismissed: P.Event? = nil,
        output: @escaping @Sendable (C.Output) -> P.Event?
    ) throws(SupervisorError) -> MachineHandle<C> {
        try batch { () throws(SupervisorError) in
            let (machine, binding) = try bound(under: parent, effects: effects, perform: handler,
                                               userNavigation: userNavigation, dismissed: dismissed) {
                (owner, onTeardown, handler) throws(SupervisorError) in
                try supervisor.restore(snapshot, definition: definition, under: parent, owner: owner,
                                       onTeardown: onTeardown, handler: handler, output: output)
            }
            for (i, screen) in screens.enumerated() {
                navigate(i == 0 && presented ? .present(screen) : Navigation<Screen, C.Event>.push(screen),
                         machine: machine, origin: machine.id, binding: binding)
            }
            return machine
        }
    }
}
