/// A navigation effect: what a flow asks of the screens, as a value.
///
/// A flow whose effects are `Navigation<Screen, Event>` (or contain them) decides every screen change;
/// a ``Navigator`` performs them. The flow's logic stays out of the screens, and each screen is an
/// island that only reports what the user did.
public enum Navigation<Screen: Hashable & Sendable, Event: Sendable>: Sendable {
    /// Push a screen on the current navigation stack (the first push on an empty stack sets its root).
    case push(Screen)
    /// Pop the top screen of the current navigation stack.
    case pop
    /// Pop to the current navigation stack's root.
    case popToRoot
    /// Present a screen modally, as the root of a new navigation stack, over everything shown (the
    /// tabs, or the modal stack on top: modals stack, each with its own navigation).
    case present(Screen)
    /// Dismiss the top modal navigation stack (the one presented last); the ones under it stay.
    case dismiss
    /// Show an alert whose choices come back to the flow as its own events. The flow, not a screen,
    /// decides who presents the alert and what each answer means.
    case alert(Alert<Event>)
    /// Replace the root navigation stack with tabs, one per screen (in order), each with its own
    /// navigation stack whose root is that screen; the first tab is selected. A tab is named by its
    /// root screen, so the screens must be distinct. `push`, `pop` and `popToRoot` act on the selected
    /// tab's stack while no modal is shown; modals are presented over the tabs.
    case tabs([Screen])
    /// Select the tab whose root is this screen.
    case selectTab(Screen)
}

extension Navigation {
    /// The same navigation with its events mapped: an alert's choices send `transform(event)`; every
    /// other case carries no event and is kept as it is.
    ///
    /// A parent whose state runs a declared child (`StateNode(_:runs:)`) performs the child's
    /// effects with its own handler, mapped by the `ChildFlow`'s `effects` closure; when both flows'
    /// effects are navigation, this maps the child's to the parent's in one call (an alert's answers
    /// then reach the parent, as the events `transform` gives):
    ///
    /// ```swift
    /// let verify = ChildFlow<Login>(TwoFactor.definition, effects: { $0.mapEvents(Login.Event.twoFactor) }) { output in
    ///     output == .verified ? .verified : .cancelled
    /// }
    /// ```
    public func mapEvents<Mapped: Sendable>(_ transform: (Event) -> Mapped) -> Navigation<Screen, Mapped> {
        switch self {
        case .push(let screen): .push(screen)
        case .pop: .pop
        case .popToRoot: .popToRoot
        case .present(let screen): .present(screen)
        case .dismiss: .dismiss
        case .alert(let alert): .alert(alert.mapEvents(transform))
        case .tabs(let screens): .tabs(screens)
        case .selectTab(let screen): .selectTab(screen)
        }
    }
}

extension Navigation: Equatable where Event: Equatable {}
extension Navigation: Hashable where Event: Hashable {}

extension Navigation: CustomStringConvertible {
    /// `push(email)`, `alert(Discard?: Keep, Discard)`...
    public var description: String {
        switch self {
        case .push(let screen): "push(\(screen))"
        case .pop: "pop"
        case .popToRoot: "popToRoot"
        case .present(let screen): "present(\(screen))"
        case .dismiss: "dismiss"
        case .alert(let alert): "alert(\(alert.title): \(alert.choices.map(\.label).joined(separator: ", ")))"
        case .tabs(let screens): "tabs(\(screens.map { "\($0)" }.joined(separator: ", ")))"
        case .selectTab(let screen): "selectTab(\(screen))"
        }
    }
}

/// An alert with typed choices: each choice is an event of the flow that showed it.
public struct Alert<Event: Sendable>: Sendable {
    /// One button.
    public struct Choice: Sendable {
        /// The button's title.
        public var label: String
        /// The event the flow receives when the user picks it.
        public var event: Event
        /// Whether it cancels (a UIKit adapter gives it the `.cancel` style).
        public var isCancel: Bool

        /// Creates a choice.
        public init(_ label: String, sends event: Event, isCancel: Bool = false) {
            self.label = label
            self.event = event
            self.isCancel = isCancel
        }
    }

    /// The alert's title.
    public var title: String
    /// Its buttons, in order.
    public var choices: [Choice]

    /// Creates an alert.
    public init(_ title: String, choices: [Choice]) {
        self.title = title
        self.choices = choices
    }
}

extension Alert {
    /// The same alert whose choices send `transform(event)`; titles, labels and cancel roles are kept.
    public func mapEvents<Mapped: Sendable>(_ transform: (Event) -> Mapped) -> Alert<Mapped> {
        Alert<Mapped>(title, choices: choices.map { .init($0.label, sends: transform($0.event), isCancel: $0.isCancel) })
    }
}

extension Alert.Choice: Equatable where Event: Equatable {}
extension Alert.Choice: Hashable where Event: Hashable {}
extension Alert: Equatable where Event: Equatable {}
extension Alert: Hashable where Event: Hashable {}
