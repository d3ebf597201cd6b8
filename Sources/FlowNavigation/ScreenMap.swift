import Flowstate

/// What a state shows while it is active, in a ``ScreenMap``.
///
/// The presentations of a machine's active states are applied in document order (a state before its
/// descendants, earlier regions before later ones), after its parent machine's, so the navigation
/// stacks of any configuration of a coordinator tree follow from its states alone (``NavigationLayout``).
public enum ScreenPresentation<Screen: Hashable & Sendable>: Hashable, Sendable {
    /// Pushed on the top navigation stack (the first screen of an empty stack is its root); inside a
    /// ``tab(_:)`` state, on that tab's stack, even under a modal stack; inside a ``presented(_:)``
    /// state, on that modal stack. The nearer of the two decides, and a declared child's pushes go
    /// where its parent's state's would.
    case pushed(Screen)
    /// Presented as the root of a new modal navigation stack, over everything shown.
    case presented(Screen)
    /// A tab bar replacing the root stack, one tab per screen, each the root of its tab's stack; the
    /// first tab is selected unless an active state ``selectsTab(_:)`` another. Typically a parallel
    /// state, whose regions are the tabs.
    case tabs([Screen])
    /// The screens this state's descendants push go on the stack of the tab rooted at `screen`
    /// (typically a region of the parallel state that shows the tabs). Shows nothing itself.
    case tab(Screen)
    /// While this state is active, the tab rooted at `screen` is the selected one.
    case selectsTab(Screen)
}

/// Which screen each state of a flow shows: the flow's navigation as a function of its states.
///
/// A flow whose screens are declared performs no navigation effects for its stacks: the
/// ``Coordinator`` works out the stacks of the whole tree from every machine's configuration after each
/// call (``NavigationLayout``), and changes the navigator's stacks to match, in one batch. Restoring a
/// snapshot then shows every screen again, a deep link shows only the final stacks, and the user's
/// gestures reach the flow whose state shows the screen. Register a map with
/// ``Coordinator/declare(_:userNavigation:)``; alerts stay effects (`Navigation.alert`).
///
/// ```swift
/// let screens = ScreenMap<Login, Login.Screen>(Login.definition, [
///     .signingIn: .pushed(.email),
///     .password: .pushed(.password),
/// ])
/// ```
public struct ScreenMap<F: Flow, Screen: Hashable & Sendable>: Sendable {
    /// Each state's presentation.
    public let presentations: [F.State: ScreenPresentation<Screen>]
    /// For each state, its parent (`nil` for a top-level state), from the definition.
    private let parents: [F.State: F.State]
    /// The definition's states in document order (its declaration order).
    private let order: [F.State]

    /// A map for the flow `definition` declares: `presentations[state]` is what `state` shows while it
    /// is active; states not in it show nothing.
    /// - Parameters:
    ///   - definition: The flow.
    ///   - presentations: What each state shows.
    public init(_ definition: FlowDefinition<F>, _ presentations: [F.State: ScreenPresentation<Screen>]) {
        self.presentations = presentations
        var parents: [F.State: F.State] = [:]
        for declaration in definition.states {
            if let parent = declaration.parent { parents[declaration.state] = parent }
        }
        self.parents = parents
        order = definition.states.map(\.state)
    }

    /// What `state` shows, if anything.
    public subscript(state: F.State) -> ScreenPresentation<Screen>? { presentations[state] }

    /// The stacks a machine in `configuration` shows on its own (on an empty navigator).
    /// - Parameter configuration: The machine's active states, in any order; its active leaves are
    ///   enough (their ancestors are active too).
    public func layout(of configuration: some Sequence<F.State>) -> NavigationLayout<Screen> {
        var layout = NavigationLayout<Screen>()
        var owners: [Screen: MachineID] = [:]
        apply(configuration, to: &layout, owner: MachineID(rawValue: 0), owners: &owners)
        return layout
    }

    /// The labels (`String(describing:)`) of the active states: `configuration` and their ancestors.
    func activeLabels(_ configuration: some Sequence<F.State>) -> Set<String> {
        var labels = Set<String>()
        for state in configuration {
            var current: F.State? = state
            while let candidate = current, labels.insert(String(describing: candidate)).inserted { current = parents[candidate] }
        }
        return labels
    }

    /// Applies the presentations of the active states (`configuration` and their ancestors), in
    /// document order, to `layout`.
    func apply(_ configuration: some Sequence<F.State>, to layout: inout NavigationLayout<Screen>,
               owner: MachineID, owners: inout [Screen: MachineID], inTab inherited: Screen? = nil) {
        var active = Set<F.State>()
        for state in configuration {
            var current: F.State? = state
            while let candidate = current, active.insert(candidate).inserted { current = parents[candidate] }
        }
        for state in order where active.contains(state) {
            guard let presentation = presentations[state] else { continue }
            let tab: Screen? = switch scope(enclosing: state) {
            case .tab(let screen): screen
            case .modal: nil
            case .inherited: inherited
            }
            layout.apply(presentation, inTab: tab, owner: owner, owners: &owners)
        }
    }

    /// Where the screens a state pushes go: the stack of the tab that the nearest `tab` state around
    /// it fills, the modal stack that a nearer `presented` state shows, or, with neither, where its
    /// machine's own pushes go (the tab its parent's state fills, if any).
    enum Scope: Equatable {
        case tab(Screen), modal, inherited
    }

    /// The scope of the state labelled `label` (`String(describing:)` of it, as the supervisor names the
    /// state a declared child runs in): where the child's pushes go; `inherited` for no such state.
    func scope(enclosingStateLabelled label: String) -> Scope {
        guard let state = order.first(where: { String(describing: $0) == label }) else { return .inherited }
        return scope(enclosing: state)
    }

    /// The scope of `state`'s pushes: its own presentation and its ancestors', nearest first.
    /// Iterative: flows nest deeply.
    private func scope(enclosing state: F.State) -> Scope {
        var current: F.State? = state
        while let candidate = current {
            switch presentations[candidate] {
            case .tab(let screen): return .tab(screen)
            case .presented where candidate != state: return .modal
            default: current = parents[candidate]
            }
        }
        return .inherited
    }
}

/// The navigation stacks a coordinator tree shows, worked out from its states (``ScreenMap``): what the
/// ``Coordinator`` makes the navigator show.
public struct NavigationLayout<Screen: Hashable & Sendable>: Hashable, Sendable {
    /// The root stacks: one per tab, or a single one while no tabs are shown.
    public internal(set) var roots: [[Screen]] = [[]]
    /// Whether ``roots`` are tabs.
    public internal(set) var showsTabs = false
    /// The index of the selected tab (0 while no tabs are shown).
    public internal(set) var selectedTab = 0
    /// The modal stacks, bottom first.
    public internal(set) var modals: [[Screen]] = []
    /// Presentations that could not be applied (a tab that no tab bar shows), in order.
    public internal(set) var problems: [String] = []

    /// An empty root stack.
    public init() {}

    /// A layout with these stacks (what a test expects, or a host shows).
    /// - Parameters:
    ///   - roots: The root stacks: one per tab, or a single one.
    ///   - showsTabs: Whether `roots` are tabs (each tab's stack then starts with its root screen).
    ///   - selectedTab: The index of the selected tab.
    ///   - modals: The modal stacks, bottom first, none empty.
    public init(roots: [[Screen]], showsTabs: Bool = false, selectedTab: Int = 0, modals: [[Screen]] = []) {
        // A tab is named by its root screen: a tab without one is left out.
        let roots = showsTabs ? roots.filter { !$0.isEmpty } : roots
        self.roots = roots.isEmpty ? [[]] : roots
        self.showsTabs = showsTabs && !roots.isEmpty
        self.selectedTab = self.roots.indices.contains(selectedTab) ? selectedTab : 0
        self.modals = modals.filter { !$0.isEmpty }
    }

    /// The navigation stacks, bottom first: the selected root stack, then each modal stack, as
    /// ``NavigationModel/stacks`` lists them.
    public var stacks: [[Screen]] { [roots[selectedTab]] + modals }
    /// Every tab's stack, in tab order (empty while no tabs are shown).
    public var tabStacks: [[Screen]] { showsTabs ? roots : [] }

    mutating func apply(_ presentation: ScreenPresentation<Screen>, inTab tab: Screen?, owner: MachineID,
                        owners: inout [Screen: MachineID]) {
        switch presentation {
        case .pushed(let screen):
            owners[screen] = owner
            if let tab {
                guard let index = tabIndex(of: tab) else {
                    problems.append("\(screen) is pushed on tab \(tab), which no tab bar shows")
                    return
                }
                roots[index].append(screen)
            } else if modals.isEmpty {
                roots[selectedTab].append(screen)
            } else {
                modals[modals.count - 1].append(screen)
            }
        case .presented(let screen):
            owners[screen] = owner
            modals.append([screen])
        case .tabs(let screens):
            for screen in screens { owners[screen] = owner }
            roots = screens.map { [$0] }
            showsTabs = !screens.isEmpty
            if roots.isEmpty { roots = [[]] }
            selectedTab = 0
        case .tab:
            break
        case .selectsTab(let screen):
            guard let index = tabIndex(of: screen) else {
                problems.append("tab \(screen) is selected, and no tab bar shows it")
                return
            }
            selectedTab = index
        }
    }

    func tabIndex(of root: Screen) -> Int? { showsTabs ? roots.firstIndex { $0.first == root } : nil }

    /// The commands that make a navigator showing `model` show this layout, each stack changed as
    /// little as it can be: the screens two stacks share at their bottom stay where they are (so do
    /// the lifetimes they retain), the rest is popped, dismissed, pushed and presented. Alerts are
    /// left as they are.
    ///
    /// Some changes cannot be made with ``NavigatorCommand``s: the root stack's own root replaced by
    /// another screen, and tabs replaced by a single root stack. Those are returned as problems, and
    /// the commands then show as much of the layout as they can.
    public func commands(from model: NavigationModel<Screen>) -> (commands: [NavigatorCommand<Screen>], problems: [String]) {
        var commands: [NavigatorCommand<Screen>] = []
        var problems: [String] = []
        let shownRoots = model.roots.map { $0.map(\.screen) }
        let shownModals = model.modals.map { $0.map(\.screen) }
        let sameRoots = model.showsTabs == showsTabs && (showsTabs ? shownRoots == roots : shownRoots[0] == roots[0])
        var level = 0
        if sameRoots {
            // Only the selection changed, if anything: a tab is selected under the modals, which stay.
            if showsTabs, model.selectedTab != selectedTab { commands.append(.selectTab(roots[selectedTab][0])) }
            while level < min(shownModals.count, modals.count), shownModals[level] == modals[level] { level += 1 }
            if level < shownModals.count, level < modals.count, shownModals[level].first == modals[level].first {
                // The same modal with another stack: dismiss what covers it, then change it in place.
                commands += Array(repeating: .dismiss, count: shownModals.count - level - 1)
                Self.change(shownModals[level], to: modals[level], into: &commands, problems: &problems)
                level += 1
            } else {
                commands += Array(repeating: .dismiss, count: shownModals.count - level)
            }
        } else {
            commands += Array(repeating: .dismiss, count: shownModals.count)
            changeRoots(from: model, shownRoots: shownRoots, into: &commands, problems: &problems)
        }
        for modal in modals[level...] {
            guard let root = modal.first else { continue }
            commands.append(.present(root))
            commands += modal.dropFirst().map { .push($0) }
        }
        return (commands, problems)
    }

    private func changeRoots(from model: NavigationModel<Screen>, shownRoots: [[Screen]],
                             into commands: inout [NavigatorCommand<Screen>], problems: inout [String]) {
        guard showsTabs else {
            if model.showsTabs {
                problems.append("tabs cannot be replaced by a single navigation stack")
                return
            }
            Self.change(shownRoots[0], to: roots[0], into: &commands, problems: &problems)
            return
        }
        var current = shownRoots
        var selected = model.selectedTab
        let tabRoots = roots.compactMap(\.first)
        guard tabRoots.count == roots.count else {
            problems.append("a tab without a root screen cannot be shown")
            return
        }
        if !model.showsTabs || current.map(\.first) != tabRoots.map(Optional.some) {
            commands.append(.tabs(tabRoots))
            current = tabRoots.map { [$0] }
            selected = 0
        }
        for index in roots.indices where current[index] != roots[index] {
            if selected != index {
                commands.append(.selectTab(tabRoots[index]))
                selected = index
            }
            Self.change(current[index], to: roots[index], into: &commands, problems: &problems)
        }
        if selected != selectedTab { commands.append(.selectTab(tabRoots[selectedTab])) }
    }

    /// Pops `shown` to the screens it shares with `target` at its bottom, then pushes the rest.
    private static func change(_ shown: [Screen], to target: [Screen], into commands: inout [NavigatorCommand<Screen>],
                               problems: inout [String]) {
        var common = 0
        while common < min(shown.count, target.count), shown[common] == target[common] { common += 1 }
        if common == 0, let root = shown.first {
            if let wanted = target.first {
                problems.append("the stack's root \(root) cannot be replaced by \(wanted)")
            } else {
                problems.append("the stack's root \(root) cannot be removed")
            }
            return
        }
        let pops = shown.count - common
        if pops >= 2, common == 1 {
            commands.append(.popToRoot)
        } else {
            commands += Array(repeating: .pop, count: pops)
        }
        commands += target[common...].map { .push($0) }
    }
}

extension NavigationLayout: CustomStringConvertible {
    /// The stacks as `[[a, b], [c]]`, with the tabs when shown.
    public var description: String {
        func list(_ stacks: [[Screen]]) -> String {
            "[" + stacks.map { "[" + $0.map { "\($0)" }.joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
        }
        return showsTabs ? "tabs \(list(roots)) selected \(selectedTab), modals \(list(modals))" : list(stacks)
    }
}
