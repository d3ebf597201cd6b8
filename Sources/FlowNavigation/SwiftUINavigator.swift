// Compiled on Apple platforms (SwiftUI); not on Linux, where it is type-checked against stubs by
// Platforms/AppleAdapterCheck (docs/ADAPTERS.md). Every decision is in NavigationModel, which is tested
// on Linux: this file only turns the model into bindings and the bindings' writes into reports.
#if canImport(SwiftUI)
import Combine
import SwiftUI

/// A ``Navigator`` for SwiftUI: an observable object whose ``model`` a ``FlowNavigationView``
/// renders as a `NavigationStack` per stack (in a `TabView` when tabs are shown), one `sheet` per
/// modal stack (each presented from the one below), and an `alert`. Compiled on Apple platforms only.
///
/// An `ObservableObject` rather than `@Observable`, so that it runs on every platform the package
/// supports (iOS 16, macOS 13); `@Observable` needs iOS 17.
///
/// The bindings it hands to the views are the reports of what the user did, after SwiftUI shows it:
/// a `NavigationStack` path set shorter (back button, swipe back, long press on back) is
/// `UserNavigation.wentBack(from:)` for each screen gone, the top one first; a sheet's `item` set to
/// `nil` (swipe down) is `UserNavigation.dismissed(_:)` for it and each sheet over it, the top one
/// first; a `TabView` selection is `UserNavigation.selectedTab(_:)`; an alert button is
/// `UserNavigation.choseAlert(index:)`. A path that is not a shorter prefix of the model's (a
/// `NavigationLink(value:)` of the app's own) is not adopted: the flows decide every screen.
///
/// Lifetimes are retained by its ``NavigationStore`` for as long as the model shows their screen.
@MainActor
public final class SwiftUINavigator<Screen: Hashable & Sendable>: ObservableObject, @MainActor Navigator {
    /// What is shown; the views render it.
    @Published public private(set) var model = NavigationModel<Screen>()
    /// The model, for the coordinator (``Navigator/shownModel``).
    public var shownModel: NavigationModel<Screen>? { store.model }
    /// Set by the coordinator; called after each of the user's own navigations, once SwiftUI no longer
    /// shows the screen.
    public var onUserNavigation: ((UserNavigation<Screen>) -> Void)?
    /// Called with each command that made no sense; the command was not performed.
    public var onProblem: ((String) -> Void)?

    private let store = NavigationStore<Screen>()

    /// Creates a navigator with an empty root stack.
    public init() {}

    /// Performs a command: the model changes and the views follow.
    /// - Parameters:
    ///   - command: What a flow asked for.
    ///   - lifetime: For `push` and `present`, retained while the new screen is shown; for `tabs`,
    ///     while the tab bar is.
    public func perform(_ command: NavigatorCommand<Screen>, retaining lifetime: AnyObject?) {
        changed(store.perform(command, retaining: lifetime))
    }

    /// Shows an alert; the choice at `cancelIndex` gets the `.cancel` role.
    public func performAlert(title: String, choices: [String], cancelIndex: Int?) {
        changed(store.perform(.alert(title: title, choices: choices), retaining: nil, cancelIndex: cancelIndex))
    }

    private func changed(_ update: NavigationUpdate<Screen>) {
        if let problem = update.problem { onProblem?(problem) }
        publish()
    }

    private func publish() {
        if model != store.model { model = store.model }
    }

    /// The model catches up with what SwiftUI shows, then each event is delivered.
    private func report(_ report: NavigationReport<Screen>) {
        let events = store.reconcile(report)
        publish()
        for event in events { onUserNavigation?(event) }
    }

    // MARK: Bindings

    /// The path of a stack's `NavigationStack`: the screens over its root. Setting it shorter is the
    /// user going back.
    public func path(_ position: StackPosition) -> Binding<[NavigationItem<Screen>]> {
        Binding(get: { @MainActor in Array(self.model.items(in: position).dropFirst()) },
                set: { @MainActor path in self.report(.path(path, of: position)) })
    }

    /// The root item of the modal stack at `level` (`nil` when there is none), for `sheet(item:)`.
    /// Setting it to `nil` is the user dismissing that sheet (and those over it).
    public func sheet(level: Int) -> Binding<NavigationItem<Screen>?> {
        let root = model.modals.indices.contains(level) ? model.modals[level].first : nil
        return Binding(get: { @MainActor in
            self.model.modals.indices.contains(level) ? self.model.modals[level].first : nil
        }, set: { @MainActor item in
            if item == nil, let root { self.report(.dismissed(level: level, root: root.id)) }
        })
    }

    /// The selected tab's index, for `TabView(selection:)`. Setting it is the user selecting a tab.
    public var tabSelection: Binding<Int> {
        Binding(get: { @MainActor in self.model.selectedTab },
                set: { @MainActor tab in self.report(.selectedTab(tab)) })
    }

    /// Whether the alert shows over exactly `modalCount` modal stacks (0: over the root), so that only
    /// the top level presents it. SwiftUI sets it to `false` when a button is tapped; the button, not
    /// the binding, reports the choice.
    public func alertIsPresented(over modalCount: Int) -> Binding<Bool> {
        Binding(get: { @MainActor in self.model.alert != nil && self.model.modals.count == modalCount },
                set: { @MainActor _ in })
    }

    /// The user picked the alert's choice at `index` (an alert button's action).
    public func chooseAlert(_ index: Int) {
        report(.choseAlert(index: index))
    }
}

/// Renders a ``SwiftUINavigator``: the root stack (or the tabs, each with its stack), the modal stacks
/// as nested sheets, and the alert over the top one. Compiled on Apple platforms only.
///
/// Each screen is drawn by `content`; a tab's label by `tabLabel` (by default, the root screen's
/// description).
public struct FlowNavigationView<Screen: Hashable & Sendable, Content: View, TabLabel: View>: View {
    @ObservedObject private var navigator: SwiftUINavigator<Screen>
    private let content: (Screen) -> Content
    private let tabLabel: (Screen) -> TabLabel

    /// Creates the view of a navigator.
    /// - Parameters:
    ///   - navigator: What to show.
    ///   - content: The view of a screen.
    ///   - tabLabel: The tab item of a tab, given its root screen.
    public init(_ navigator: SwiftUINavigator<Screen>, @ViewBuilder content: @escaping (Screen) -> Content,
                @ViewBuilder tabLabel: @escaping (Screen) -> TabLabel) {
        self.navigator = navigator
        self.content = content
        self.tabLabel = tabLabel
    }

    /// The root, the first sheet, and the alert while no sheet is shown.
    public var body: some View {
        root
            .sheet(item: navigator.sheet(level: 0)) { _ in
                FlowModalStack(navigator: navigator, level: 0, content: content)
            }
            .alert(Text(verbatim: navigator.model.alert?.title ?? ""), isPresented: navigator.alertIsPresented(over: 0)) {
                FlowAlertButtons(navigator: navigator)
            }
    }

    @ViewBuilder private var root: some View {
        if navigator.model.showsTabs {
            TabView(selection: navigator.tabSelection) {
                ForEach(Array(navigator.model.roots.indices), id: \.self) { tab in
                    FlowStack(navigator: navigator, position: .root(tab: tab), content: content)
                        .tabItem { tabItem(tab) }
                        .tag(tab)
                }
            }
        } else {
            FlowStack(navigator: navigator, position: .root(tab: 0), content: content)
        }
    }

    @ViewBuilder private func tabItem(_ tab: Int) -> some View {
        if let root = navigator.model.roots[tab].first { tabLabel(root.screen) }
    }
}

extension FlowNavigationView where TabLabel == Text {
    /// Creates the view of a navigator whose tabs are labelled with their root screen's description.
    /// - Parameters:
    ///   - navigator: What to show.
    ///   - content: The view of a screen.
    public init(_ navigator: SwiftUINavigator<Screen>, @ViewBuilder content: @escaping (Screen) -> Content) {
        self.init(navigator, content: content, tabLabel: { Text(verbatim: String(describing: $0)) })
    }
}

/// One stack: a `NavigationStack` whose root is the stack's first screen and whose path is the rest.
struct FlowStack<Screen: Hashable & Sendable, Content: View>: View {
    @ObservedObject var navigator: SwiftUINavigator<Screen>
    let position: StackPosition
    let content: (Screen) -> Content

    var body: some View {
        NavigationStack(path: navigator.path(position)) {
            root.navigationDestination(for: NavigationItem<Screen>.self) { item in content(item.screen) }
        }
    }

    @ViewBuilder private var root: some View {
        if let first = navigator.model.items(in: position).first { content(first.screen) }
    }
}

/// The modal stack at `level`, which presents the one above it and, when it is the top one, the alert.
struct FlowModalStack<Screen: Hashable & Sendable, Content: View>: View {
    @ObservedObject var navigator: SwiftUINavigator<Screen>
    let level: Int
    let content: (Screen) -> Content

    var body: some View {
        FlowStack(navigator: navigator, position: .modal(level: level), content: content)
            .sheet(item: navigator.sheet(level: level + 1)) { _ in
                FlowModalStack(navigator: navigator, level: level + 1, content: content)
            }
            .alert(Text(verbatim: navigator.model.alert?.title ?? ""),
                   isPresented: navigator.alertIsPresented(over: level + 1)) {
                FlowAlertButtons(navigator: navigator)
            }
    }
}

/// The alert's buttons; the cancel choice has the `.cancel` role.
struct FlowAlertButtons<Screen: Hashable & Sendable>: View {
    @ObservedObject var navigator: SwiftUINavigator<Screen>

    var body: some View {
        let alert = navigator.model.alert
        ForEach(Array((alert?.choices ?? []).enumerated()), id: \.offset) { choice in
            Button(role: choice.offset == alert?.cancelIndex ? .cancel : nil) {
                navigator.chooseAlert(choice.offset)
            } label: {
                Text(verbatim: choice.element)
            }
        }
    }
}
#endif
