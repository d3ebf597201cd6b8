import Flowstate

extension Coordinator {
    /// A flow type's declared screens and the route of its user navigation, type-erased.
    struct Declaration {
        /// Applies the machine's presentations to a layout, inside the tab given (the one its parent's
        /// state fills); `false` when the machine is gone or runs another flow.
        let layout: (MachineID, inout NavigationLayout<Screen>, inout [Screen: MachineID], Screen?) -> Bool
        /// The labels of the machine's active states, when it runs this flow.
        let activeLabels: (MachineID) -> Set<String>?
        /// Where the pushes of a child running in the machine's state with this label go, when the
        /// machine runs this flow: `.some(tab)` a tab's stack, `.some(nil)` a modal stack the state
        /// is inside, `nil` where the machine's own pushes go (or the machine runs another flow).
        let scope: (MachineID, String) -> Screen??
        /// The route to the machine, when it runs this flow.
        let route: (MachineID) -> ((UserNavigation<Screen>) -> Bool)?
    }

    // MARK: Declaring screens

    /// Declares which screen each state of a flow shows, and the events that report the user's own
    /// navigation from them, for every machine of the flow in this coordinator's tree: the root, a
    /// declared child (`StateNode(_:runs:)`) at any depth, a child started under a flow.
    ///
    /// From then on the coordinator shows the stacks of the whole tree (``layout``): at the end of
    /// each of its calls (``start(_:context:effects:perform:userNavigation:output:)``,
    /// ``send(_:to:)``, `restore`, the navigator's reports; several at once with ``batch(_:)``), and
    /// after each step taken outside them (an async effect's result), it changes the navigator's
    /// stacks to match, each as little as it can (``NavigationLayout/commands(from:)``). A declared
    /// flow performs no navigation effect for its stacks: one it performs anyway (`push`, `present`,
    /// `pop`, `dismiss`, `tabs`, `selectTab`) is not performed and is logged as a warning. Its alerts
    /// are effects, as before. A child started under a flow is still bound to the first screen it
    /// shows.
    ///
    /// The user's gesture on a screen (going back, swiping down, switching tabs) goes to the flow
    /// whose state shows the screen, as the event its `userNavigation` gives. When it has none, the
    /// flow that runs it hears it, and so on up to the flow the coordinator started. When none has one,
    /// a warning names the flow, and the screen comes back: the flows decide what is shown (tearing a
    /// declared child down would leave its parent in a state that waits for it). A child started
    /// under a flow is torn down when the screen it is bound to goes, as before.
    ///
    /// Declare the screens before starting or restoring the flows. Do not change the screens of a
    /// tree that declares them any other way (by hand on the navigator, or by a flow of the same tree
    /// that performs navigation effects): the coordinator changes what it knows it shows.
    /// - Parameters:
    ///   - screens: What each state shows.
    ///   - userNavigation: The event that reports the user's own navigation from a screen the flow's
    ///     states show (`nil`: none).
    public func declare<F: Flow>(_ screens: ScreenMap<F, Screen>,
                                 userNavigation: @escaping (UserNavigation<Screen>) -> F.Event? = { _ in nil }) {
        declarations[ObjectIdentifier(F.self)] = Declaration(
            layout: { [unowned self] id, layout, owners, tab in
                guard let machine = supervisor.handle(of: id, as: F.self),
                      let leaves = supervisor.leaves(of: machine) else { return false }
                screens.apply(leaves, to: &layout, owner: id, owners: &owners, inTab: tab)
                return true
            },
            activeLabels: { [unowned self] id in
                guard let machine = supervisor.handle(of: id, as: F.self),
                      let leaves = supervisor.leaves(of: machine) else { return nil }
                return screens.activeLabels(leaves)
            },
            scope: { [unowned self] id, label in
                guard supervisor.handle(of: id, as: F.self) != nil else { return nil }
                return switch screens.scope(enclosingStateLabelled: label) {
                case .tab(let screen): .some(screen)
                case .modal: .some(nil)
                case .inherited: nil
                }
            },
            route: { [unowned self] id in
                supervisor.handle(of: id, as: F.self).map { route(to: $0, userNavigation) }
            })
        settle()
    }

    /// The stacks the tree's declared screens make (``declare(_:userNavigation:)``): every live
    /// machine whose flow declares its screens, depth first (a machine before its children), in its
    /// configuration. `nil` while no live machine declares its screens. Reading it changes no screen.
    public var layout: NavigationLayout<Screen>? {
        callDepth += 1  // a sweep the read makes must not settle the stacks from inside a getter
        defer { callDepth -= 1 }
        return treeLayout()?.layout
    }

    /// The live flow that shows `screen`: the one whose state or effect showed it last (a declared
    /// child included) or, once that one is gone, the flow the coordinator started that performed it;
    /// `nil` when neither is alive or no flow showed it. A screen on a stack with no owner was left
    /// behind (`NavigationCheck`, in FlowTesting, looks for one on every path).
    public func owner(of screen: Screen) -> MachineID? {
        guard let shower = shownBy[screen] else { return nil }
        if supervisor.contains(shower.origin) { return shower.origin }
        return supervisor.contains(shower.machine) ? shower.machine : nil
    }

    /// What flows did to screens they did not show, in order, each also logged as a warning: a `pop`,
    /// `popToRoot` or `dismiss` that removed a screen that neither the flow nor a flow running under
    /// it showed (one the host showed, or another flow's). `NavigationCheck` (FlowTesting) fails on
    /// the first. Tests assert that it stays empty.
    public var problems: [String] { removalProblems }

    /// Records, before a hand-driven flow's `pop`, `popToRoot` or `dismiss` is performed, each screen it
    /// removes that it did not show (itself, or a flow under it).
    func checkRemoval(_ command: NavigatorCommand<Screen>, by origin: MachineID, through machine: MachineID) {
        if let model = navigator.shownModel { shown = model }
        let top = shown.items(in: shown.topPosition).map(\.screen)
        let removed: [Screen] = switch command {
        case .pop: top.count > 1 ? [top[top.count - 1]] : []
        case .popToRoot: Array(top.dropFirst())
        case .dismiss: shown.modals.last?.map(\.screen) ?? []
        default: []
        }
        guard !removed.isEmpty else { return }
        let machines = supervisor.machines
        let parents = Dictionary(machines.map { ($0.id, $0.parent) }, uniquingKeysWith: { first, _ in first })
        func showedIt(_ screen: Screen) -> Bool {
            guard let shower = shownBy[screen] else { return false }
            var candidate: MachineID? = shower.origin
            while let id = candidate {  // the shower itself, or a flow it runs under
                if id == origin || id == machine { return true }
                candidate = parents[id] ?? nil
            }
            return shower.machine == machine
        }
        for screen in removed where !showedIt(screen) {
            let flow = machines.first { $0.id == origin }?.flow ?? "?"
            let by = shownBy[screen].map { "flow \($0.origin)" } ?? "no flow (the host)"
            let problem = "flow '\(flow)' (\(origin)) removed screen \(screen) with \(command), and \(by) showed it"
            removalProblems.append(problem)
            logger.warning("\(problem)", metadata: ["machine": "\(origin)", "screen": "\(screen)"])
        }
    }

    /// Runs `body` (calls to this coordinator, such as restoring a root and its children, or sending
    /// several events), then shows the declared screens' stacks once: the user sees one change of the
    /// stacks, not each step's.
    /// - Parameter body: The calls.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (the stacks are shown either way).
    public func batch<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        callDepth += 1
        defer {
            callDepth -= 1
            settle()
        }
        return try body()
    }

    // MARK: Internals

    /// Shows the declared screens' stacks, unless a call of the coordinator is running (it will).
    func settle() {
        guard callDepth == 0 else { return }
        // Reading the tree may run a supervisor turn (a sweep of released owners), whose teardowns
        // call this again: they must find it running.
        callDepth += 1
        defer { callDepth -= 1 }
        guard let (layout, owners) = treeLayout() else { return }
        if let model = navigator.shownModel { shown = model }  // a whole report, seen from its first event
        let (commands, problems) = layout.commands(from: shown)
        if layout.problems + problems != layoutProblems {
            layoutProblems = layout.problems + problems
            for problem in layoutProblems {
                logger.warning("the declared screens cannot be shown as they are: \(problem)", metadata: ["layout": "\(layout)"])
            }
        }
        for (screen, owner) in owners where shownBy[screen]?.origin != owner { shownBy[screen] = (owner, owner) }
        // The lifetimes of the screens children are bound to, held while the stacks change: a bound
        // screen popped and pushed again (something inserted below it) carries its lifetime over.
        let held = bindings.compactMapValues { $0.shown }
        for command in commands {
            switch command {
            case .push(let screen), .present(let screen):
                perform(command, retaining: lifetime(showing: [screen], owners: owners, held: held))
            case .tabs(let screens):
                perform(command, retaining: lifetime(showing: screens, owners: owners, held: held))
            default:
                perform(command, retaining: nil)
            }
        }
    }

    /// The lifetime a declared machine's screen carries: its binding's, when it is the screen a child
    /// started under a flow is bound to (the first it shows).
    private func lifetime(showing screens: [Screen], owners: [Screen: MachineID], held: [MachineID: ScreenLifetime])
        -> AnyObject? {
        guard let first = screens.first, let owner = owners[first] else { return nil }
        let binding = bindings[owner]
        if let binding, binding.pending == nil, binding.boundScreen == first, let lifetime = held[owner] {
            binding.shown = lifetime
            return lifetime
        }
        return show(screens, origin: owner, machine: owner, binding: binding)
    }

    func treeLayout() -> (layout: NavigationLayout<Screen>, owners: [Screen: MachineID])? {
        guard !declarations.isEmpty else { return nil }
        var layout = NavigationLayout<Screen>()
        var owners: [Screen: MachineID] = [:]
        var declared = false
        var tabs: [MachineID: Screen] = [:]  // the tab each machine's pushes go in, from its parent's state
        var leaving = Set<MachineID>()  // declared children whose state their parent has left
        for info in supervisor.machines {
            var tab: Screen?
            if let parent = info.parent {
                // Observers hear a step before the children of the states it left are torn down: a
                // child whose parent's state is no longer active shows nothing (it is about to go).
                if leaving.contains(parent) {
                    leaving.insert(info.id)
                    continue
                }
                if let state = info.parentState,
                   let active = declarations.values.lazy.compactMap({ $0.activeLabels(parent) }).first,
                   !active.contains(state) {
                    leaving.insert(info.id)
                    continue
                }
                let scope = info.parentState.flatMap { state in
                    declarations.values.lazy.compactMap { $0.scope(parent, state) }.first
                }
                tab = scope ?? tabs[parent]  // a scope found decides, a modal one (`.some(nil)`) included
            }
            if let tab { tabs[info.id] = tab }
            for declaration in declarations.values where declaration.layout(info.id, &layout, &owners, tab) {
                declared = true
                break
            }
        }
        return declared ? (layout, owners) : nil
    }

    /// Whether the machine's flow declares its screens.
    func declaresScreens(_ machine: MachineID) -> Bool {
        declarations.values.contains { $0.route(machine) != nil }
    }

    /// Whether a stack navigation effect of `origin` is left out because its flow declares its screens
    /// (warned about once).
    func handsOverStacks<Event>(_ navigation: Navigation<Screen, Event>, origin: MachineID) -> Bool {
        guard !declarations.isEmpty, declaresScreens(origin) else { return false }
        if !warnedMixing {
            warnedMixing = true
            let flow = supervisor.machines.first { $0.id == origin }?.flow ?? "?"
            logger.warning("flow '\(flow)' (\(origin)) declares its screens, and performed \(navigation) as an effect: the coordinator shows a declared flow's stacks from its states, so the effect is not performed; remove it from the flow",
                           metadata: ["machine": "\(origin)"])
        }
        return true
    }

    /// Brings ``shown`` up to what the user did: the navigator already shows it.
    func catchUp(with navigation: UserNavigation<Screen>) {
        switch navigation {
        case .wentBack(let screen):
            let positions = [shown.topPosition] + shown.roots.indices.map { StackPosition.root(tab: $0) }
                + shown.modals.indices.map { StackPosition.modal(level: $0) }
            if let position = positions.first(where: { shown.items(in: $0).last?.screen == screen }) {
                _ = shown.reconcile(.popped(position, remaining: shown.items(in: position).count - 1))
            }
        case .dismissed(let screen):
            if let level = shown.modals.lastIndex(where: { $0.first?.screen == screen }) {
                _ = shown.reconcile(.dismissed(level: level))
            }
        case .selectedTab(let screen):
            if let index = shown.tabIndex(of: screen) { _ = shown.reconcile(.selectedTab(index)) }
        case .choseAlert(let index):
            _ = shown.reconcile(.choseAlert(index: index))
        }
    }

    /// Delivers the user's navigation to the flow that showed the screen, or, when it has no event
    /// for it, to the flows it runs under, up to the one the coordinator started. Returns whether one
    /// heard it.
    func deliver(_ navigation: UserNavigation<Screen>, from shower: (origin: MachineID, machine: MachineID)) -> Bool {
        let parents = Dictionary(supervisor.machines.map { ($0.id, $0.parent) }, uniquingKeysWith: { first, _ in first })
        var candidate: MachineID? = parents[shower.origin] != nil ? shower.origin : shower.machine
        while let id = candidate {
            if let route = routes[id], route(navigation) { return true }
            if let route = declaredRoute(id), route(navigation) { return true }
            if routes[id] != nil { return false }  // the flow the coordinator started: the last to ask
            candidate = parents[id] ?? nil
        }
        return false
    }

    private func declaredRoute(_ machine: MachineID) -> ((UserNavigation<Screen>) -> Bool)? {
        for declaration in declarations.values {
            if let route = declaration.route(machine) { return route }
        }
        return nil
    }

    /// No flow heard the user change a screen: the flow no longer matches the screens, and a warning
    /// says so. A declared flow's screen comes back when the coordinator settles: its states decide.
    func unheard(_ navigation: UserNavigation<Screen>, screen: Screen, shower: (origin: MachineID, machine: MachineID)) {
        let owner = supervisor.contains(shower.origin) ? shower.origin : shower.machine
        warnUnheard(navigation, screen: screen, machine: owner)
    }
}
