/// A screen on a navigation stack, with the identity the model gave it when it was shown.
///
/// The identity tells two showings of the same screen apart (a screen pushed twice, a sheet replaced
/// by another of the same screen), so that a platform's report of what it shows can be matched to
/// what the model shows. SwiftUI uses items as they are: a `NavigationStack` path is an array of
/// items, a sheet's `item` binding is an item.
public struct NavigationItem<Screen: Hashable & Sendable>: Hashable, Sendable, Identifiable {
    /// Unique among the items and tab bars a ``NavigationModel`` ever showed.
    public let id: Int
    /// The screen.
    public let screen: Screen

    /// Creates an item. Items are made by ``NavigationModel``; tests make them to compare.
    public init(id: Int, screen: Screen) {
        self.id = id
        self.screen = screen
    }
}

/// Which navigation stack of a ``NavigationModel``.
public enum StackPosition: Hashable, Sendable, CustomStringConvertible {
    /// The root stack of the tab at this index; while no tabs are shown, the root stack is tab 0.
    case root(tab: Int)
    /// The modal stack at this level: 0 is presented over the root, 1 over modal 0, and so on.
    case modal(level: Int)

    /// `root(0)`, `modal(1)`.
    public var description: String {
        switch self {
        case .root(let tab): "root(\(tab))"
        case .modal(let level): "modal(\(level))"
        }
    }
}

/// The alert a ``NavigationModel`` shows, over everything else.
public struct NavigationAlert: Hashable, Sendable {
    /// The title.
    public var title: String
    /// The buttons' titles, in order.
    public var choices: [String]
    /// The index of the choice that cancels, if any: UIKit gives it the `.cancel` style (UIKit
    /// allows one), SwiftUI the `.cancel` role.
    public var cancelIndex: Int?

    /// Creates an alert.
    public init(title: String, choices: [String], cancelIndex: Int? = nil) {
        self.title = title
        self.choices = choices
        self.cancelIndex = cancelIndex.flatMap { choices.indices.contains($0) ? $0 : nil }
    }
}

/// What an adapter does on screen so that the platform shows what the model shows, in order.
///
/// Each operation is stated in the model's positions after the command, so that an adapter keeps,
/// beside the platform's objects, nothing but one navigation controller (or path) per stack.
public enum NavigationOperation<Screen: Hashable & Sendable>: Hashable, Sendable {
    /// Push this screen on that stack (UIKit: `pushViewController`; the first push on an empty root
    /// stack makes its root).
    case push(NavigationItem<Screen>, on: StackPosition)
    /// Pop that stack down to its first `toCount` screens, at least 1 (UIKit: `popToViewController`
    /// with the screen at `toCount - 1`).
    case pop(StackPosition, toCount: Int)
    /// Present a new modal stack, whose root is this screen, at this level: over the root (level 0)
    /// or over the modal stack one level down.
    case present(NavigationItem<Screen>, level: Int)
    /// Dismiss the modal stack at this level (always the top one: nothing is above it).
    case dismiss(level: Int)
    /// Replace the root (a stack, or earlier tabs) with tabs, one per screen, each the root of its own
    /// stack; select the first. The modal stacks stay where they are, over the new tabs.
    case showTabs([NavigationItem<Screen>])
    /// Select the tab at this index.
    case selectTab(Int)
    /// Show this alert over everything.
    case showAlert(NavigationAlert)
    /// Take the alert off screen without an answer: the model still shows it and asks for it again
    /// (``showAlert(_:)``) once the presentation under it changed. UIKit cannot present or dismiss a
    /// modal under an alert, so the model takes the alert down around ``present(_:level:)`` and
    /// ``dismiss(level:)``.
    case hideAlert
}

/// What the platform reports the user did, for ``NavigationModel/reconcile(_:)``: the platform
/// already shows it, the model catches up.
public enum NavigationReport<Screen: Hashable & Sendable>: Hashable, Sendable {
    /// The stack now shows only its first `remaining` screens: the back button, the interactive back
    /// gesture, a long press on the back button (several at once), tapping the selected tab again
    /// (UIKit: to its root). UIKit: `navigationController(_:didShow:animated:)` with the navigation
    /// controller's `viewControllers.count`.
    case popped(StackPosition, remaining: Int)
    /// The stack's path (the screens over its root), as SwiftUI's `NavigationStack` set it. A path
    /// that is a prefix of the model's is the user going back; any other path is not adopted.
    case path([NavigationItem<Screen>], of: StackPosition)
    /// The modal stack at `level` is gone, and every one above it: a swipe down
    /// (UIKit: `presentationControllerDidDismiss(_:)`), a sheet's `item` binding set to `nil`. When
    /// `root` is given, the report only counts if the modal stack at that level still has that root
    /// item (SwiftUI may write a binding after the model replaced the sheet).
    case dismissed(level: Int, root: Int? = nil)
    /// The user selected the tab at this index (UIKit: `tabBarController(_:didSelect:)`; SwiftUI: the
    /// `TabView` selection).
    case selectedTab(Int)
    /// The user picked the alert's choice at this index.
    case choseAlert(index: Int)
}

/// What ``NavigationModel/apply(_:cancelIndex:)`` did.
public struct NavigationUpdate<Screen: Hashable & Sendable>: Hashable, Sendable {
    /// What the adapter performs on screen, in order (none for a command that changed nothing).
    public var operations: [NavigationOperation<Screen>] = []
    /// Why the command was not performed (it made no sense); `nil` when it was.
    public var problem: String?
    /// The id of what holds the command's lifetime object: the new screen's item (`push`, `present`)
    /// or the new tab bar (`tabs`).
    public var retainer: Int?

    /// Creates an update.
    public init(operations: [NavigationOperation<Screen>] = [], problem: String? = nil, retainer: Int? = nil) {
        self.operations = operations
        self.problem = problem
        self.retainer = retainer
    }
}

/// The navigation a host shows, as a value: the platform-free logic behind every navigator.
///
/// The model is UIKit's: a root stack, or tabs each with its own stack (one selected); over it the
/// modal stacks, each presented over the one before and each with its own navigation; over
/// everything, at most one alert. The *top stack* is the last modal stack, or the selected tab's
/// when no modal is shown: `push`, `pop` and `popToRoot` act on it.
///
/// Two entry points change it, and nothing else does:
/// - ``apply(_:cancelIndex:)`` performs what a flow asked for (a ``NavigatorCommand``) and returns
///   the ``NavigationOperation``s an adapter performs on screen, or the problem that made it refuse.
/// - ``reconcile(_:)`` takes what the platform reports the user did (a ``NavigationReport``: the
///   screens are already gone) and returns the ``UserNavigation`` events to deliver, in order.
///
/// ``HeadlessNavigator``, `UIKitNavigator` and `SwiftUINavigator` all keep a model (through a
/// ``NavigationStore``, which adds the screens' lifetimes); the Linux tests check the model's
/// commands, reports and operations, so the adapters only forward.
///
/// ## The order of the user's navigation
/// - Several screens popped at once (a long press on the back button, a SwiftUI path shortened by
///   two): one `wentBack(from:)` per screen, the top one first, as if the user had gone back one
///   screen at a time. Every one of them is already off the stack when the first is delivered.
/// - A modal stack dismissed while others are presented over it (a sheet binding set to `nil` under
///   another sheet): every modal stack from that level up is gone; one `dismissed(_:)` per modal
///   stack, with its root screen, the top one first. The screens pushed on a dismissed stack are not
///   reported one by one: the `dismissed` of its root stands for them.
/// - A tab selected: `selectedTab(_:)` with the tab's root screen, only when the selection changed.
/// - An alert answered: `choseAlert(index:)`; the alert is gone.
public struct NavigationModel<Screen: Hashable & Sendable>: Hashable, Sendable {
    /// The root stacks: one per tab, or a single one while no tabs are shown.
    public private(set) var roots: [[NavigationItem<Screen>]] = [[]]
    /// Whether ``roots`` are tabs.
    public private(set) var showsTabs = false
    /// The index of the selected tab (0 while no tabs are shown).
    public private(set) var selectedTab = 0
    /// The id of the tab bar while tabs are shown: what retains the lifetime the `tabs` command came
    /// with. A new `tabs` command makes a new tab bar.
    public private(set) var tabBarID: Int?
    /// The modal stacks, bottom first; none is ever empty.
    public private(set) var modals: [[NavigationItem<Screen>]] = []
    /// The alert on screen, if any.
    public private(set) var alert: NavigationAlert?
    private var nextID = 0

    /// An empty root stack, no tabs, no modal, no alert.
    public init() {}

    // MARK: Reading

    /// The navigation stacks, bottom first: the root stack (the selected tab's, when tabs are shown),
    /// then each modal stack presented over it.
    public var stacks: [[Screen]] { ([roots[selectedTab]] + modals).map { $0.map(\.screen) } }
    /// Every tab's navigation stack, in tab order (empty while no tabs are shown).
    public var tabStacks: [[Screen]] { showsTabs ? roots.map { $0.map(\.screen) } : [] }
    /// The root screen of the selected tab (`nil` while no tabs are shown).
    public var selectedTabRoot: Screen? { showsTabs ? roots[selectedTab].first?.screen : nil }
    /// The screen on top, if any.
    public var top: Screen? { (modals.last ?? roots[selectedTab]).last?.screen }
    /// The top stack: the last modal stack, or the selected tab's root stack.
    public var topPosition: StackPosition {
        modals.isEmpty ? .root(tab: selectedTab) : .modal(level: modals.count - 1)
    }

    /// The items of a stack, bottom first (empty for a position the model does not show).
    public func items(in position: StackPosition) -> [NavigationItem<Screen>] {
        switch position {
        case .root(let tab): roots.indices.contains(tab) ? roots[tab] : []
        case .modal(let level): modals.indices.contains(level) ? modals[level] : []
        }
    }

    /// Every id the model holds: its items' and its tab bar's. A lifetime retained for an id that is
    /// not here any more is released (``NavigationStore``).
    var ids: Set<Int> {
        var ids = Set((roots + modals).joined().map(\.id))
        if let tabBarID { ids.insert(tabBarID) }
        return ids
    }

    /// The index of the tab whose root is this screen, if tabs are shown and one is.
    public func tabIndex(of root: Screen) -> Int? {
        showsTabs ? roots.firstIndex { $0.first?.screen == root } : nil
    }

    // MARK: What the flows ask for

    /// Performs a command and returns what the adapter must do on screen.
    ///
    /// A command that makes no sense changes nothing and returns its ``NavigationUpdate/problem``:
    /// a `pop` of a stack's root (or of an empty stack), a `dismiss` with no modal stack, `tabs` with
    /// no screen or with repeated screens, a `selectTab` of a screen that roots no tab. A `popToRoot`
    /// of a stack at its root and a `selectTab` of the selected tab change nothing and are no problem.
    /// - Parameters:
    ///   - command: What a flow asked for.
    ///   - cancelIndex: For `alert`, the index of the choice that cancels, if any.
    /// - Returns: The operations, or the problem; for `push`, `present` and `tabs`, the id that
    ///   retains the command's lifetime.
    public mutating func apply(_ command: NavigatorCommand<Screen>, cancelIndex: Int? = nil) -> NavigationUpdate<Screen> {
        switch command {
        case .push(let screen):
            let item = makeItem(screen)
            let position = topPosition
            withTopStack { $0.append(item) }
            return NavigationUpdate(operations: [.push(item, on: position)], retainer: item.id)
        case .present(let screen):
            let item = makeItem(screen)
            modals.append([item])
            return NavigationUpdate(operations: aroundAlert(.present(item, level: modals.count - 1)), retainer: item.id)
        case .pop:
            let position = topPosition
            let count = items(in: position).count
            guard count > 1 else { return NavigationUpdate(problem: "pop on the root of a stack (\(stacks))") }
            withTopStack { _ = $0.removeLast() }
            return NavigationUpdate(operations: [.pop(position, toCount: count - 1)])
        case .popToRoot:
            let position = topPosition
            guard items(in: position).count > 1 else { return NavigationUpdate() }
            withTopStack { $0.removeSubrange(1...) }
            return NavigationUpdate(operations: [.pop(position, toCount: 1)])
        case .dismiss:
            guard !modals.isEmpty else { return NavigationUpdate(problem: "dismiss with no modal stack (\(stacks))") }
            modals.removeLast()
            return NavigationUpdate(operations: aroundAlert(.dismiss(level: modals.count)))
        case .alert(let title, let choices):
            let new = NavigationAlert(title: title, choices: choices, cancelIndex: cancelIndex)
            let shown = alert
            alert = new
            return NavigationUpdate(operations: (shown == nil ? [] : [.hideAlert]) + [.showAlert(new)])
        case .tabs(let screens):
            guard !screens.isEmpty, Set(screens).count == screens.count else {
                return NavigationUpdate(problem: "tabs need distinct root screens (\(screens))")
            }
            var items: [NavigationItem<Screen>] = []
            for screen in screens { items.append(makeItem(screen)) }
            roots = items.map { [$0] }
            selectedTab = 0
            showsTabs = true
            let bar = makeID()
            tabBarID = bar
            return NavigationUpdate(operations: [.showTabs(items)], retainer: bar)
        case .selectTab(let screen):
            guard let index = tabIndex(of: screen) else {
                return NavigationUpdate(problem: "no tab whose root is \(screen) (\(tabStacks))")
            }
            guard index != selectedTab else { return NavigationUpdate() }
            selectedTab = index
            return NavigationUpdate(operations: [.selectTab(index)])
        }
    }

    // MARK: What the user did

    /// Catches up with what the platform reports the user did, and returns the events that report it,
    /// in the order they are delivered (see "The order of the user's navigation" above).
    ///
    /// A report that does not change what the model shows returns no event: a stack that still has
    /// as many screens as the model (UIKit reports every transition, including the flows' own), a
    /// dismissal of a level that is not shown, the selected tab selected again, an alert choice with
    /// no alert or out of range, a path that is not a prefix of the model's.
    public mutating func reconcile(_ report: NavigationReport<Screen>) -> [UserNavigation<Screen>] {
        switch report {
        case .popped(let position, let remaining):
            let shown = items(in: position)
            guard remaining >= 1, remaining < shown.count else { return [] }
            setItems(Array(shown[..<remaining]), in: position)
            return shown[remaining...].reversed().map { .wentBack(from: $0.screen) }
        case .path(let path, let position):
            let shown = items(in: position)
            guard let root = shown.first, path.count + 1 < shown.count,
                  Array(shown.prefix(path.count + 1)) == [root] + path else { return [] }
            return reconcile(.popped(position, remaining: path.count + 1))
        case .dismissed(let level, let root):
            guard modals.indices.contains(level), root == nil || modals[level].first?.id == root else { return [] }
            let gone = modals[level...]
            modals.removeSubrange(level...)
            return gone.reversed().compactMap { $0.first.map { .dismissed($0.screen) } }
        case .selectedTab(let index):
            guard showsTabs, roots.indices.contains(index), index != selectedTab,
                  let root = roots[index].first?.screen else { return [] }
            selectedTab = index
            return [.selectedTab(root)]
        case .choseAlert(let index):
            guard let alert, alert.choices.indices.contains(index) else { return [] }
            self.alert = nil
            return [.choseAlert(index: index)]
        }
    }

    // MARK: Internals

    private mutating func makeID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    private mutating func makeItem(_ screen: Screen) -> NavigationItem<Screen> {
        NavigationItem(id: makeID(), screen: screen)
    }

    private mutating func withTopStack<R>(_ body: (inout [NavigationItem<Screen>]) -> R) -> R {
        if modals.isEmpty { body(&roots[selectedTab]) } else { body(&modals[modals.count - 1]) }
    }

    private mutating func setItems(_ items: [NavigationItem<Screen>], in position: StackPosition) {
        switch position {
        case .root(let tab): roots[tab] = items
        case .modal(let level): modals[level] = items
        }
    }

    /// A presentation change, with the alert taken down before it and shown again after it.
    private func aroundAlert(_ operation: NavigationOperation<Screen>) -> [NavigationOperation<Screen>] {
        guard let alert else { return [operation] }
        return [.hideAlert, operation, .showAlert(alert)]
    }
}

/// A ``NavigationModel`` and the lifetime objects its screens retain: what every navigator keeps.
///
/// The coordinator hands a lifetime object with `push`, `present` and `tabs`; the store retains it,
/// keyed by the id of the new item (or tab bar), for exactly as long as the model holds that id, and
/// releases it as soon as the model lets it go: when a command takes the screen away, or when a report
/// of the user's navigation does, before the events that report it are delivered. That is the
/// "retain it from the view controller" of the ``Navigator`` protocol, done once for every platform:
/// it needs no Objective-C runtime and it is tested on Linux.
///
/// A store is used from one isolation domain (the navigator's); it is not `Sendable`.
public final class NavigationStore<Screen: Hashable & Sendable> {
    /// What is shown.
    public private(set) var model = NavigationModel<Screen>()
    private var lifetimes: [Int: AnyObject] = [:]

    /// An empty store.
    public init() {}

    /// The number of lifetime objects retained.
    var retainedCount: Int { lifetimes.count }

    /// Applies a command to the model, retains its lifetime, releases what left.
    /// - Parameters:
    ///   - command: What a flow asked for.
    ///   - lifetime: Retained while the new screen (`push`, `present`) or tab bar (`tabs`) is shown.
    ///   - cancelIndex: For `alert`, the index of the choice that cancels.
    /// - Returns: What ``NavigationModel/apply(_:cancelIndex:)`` returned.
    @discardableResult
    public func perform(_ command: NavigatorCommand<Screen>, retaining lifetime: AnyObject?,
                        cancelIndex: Int? = nil) -> NavigationUpdate<Screen> {
        let update = model.apply(command, cancelIndex: cancelIndex)
        if let lifetime, let retainer = update.retainer { lifetimes[retainer] = lifetime }
        release()
        return update
    }

    /// Reconciles the model with what the platform reports, releases what left, and returns the events
    /// to deliver (the caller delivers them, after this returns: the screens are gone by then).
    public func reconcile(_ report: NavigationReport<Screen>) -> [UserNavigation<Screen>] {
        let events = model.reconcile(report)
        release()
        return events
    }

    /// Releases the lifetimes of the ids the model no longer holds.
    private func release() {
        guard !lifetimes.isEmpty else { return }
        let live = model.ids
        let gone = lifetimes.keys.filter { !live.contains($0) }
        // Removed one by one: a lifetime's deinit runs with the store already consistent.
        for id in gone { lifetimes[id] = nil }
    }
}
