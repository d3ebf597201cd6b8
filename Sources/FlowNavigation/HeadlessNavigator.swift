/// A ``Navigator`` without screens: navigation stacks in memory, and methods that play the user
/// (``goBack()``, ``swipeDown()``, ``choose(_:)``). This is how coordinator flows are tested on Linux:
/// drive the flows, then assert ``stacks`` after every event.
public final class HeadlessNavigator<Screen: Hashable & Sendable>: Navigator {
    /// A screen on a stack; it retains the lifetimes of the flows bound to it.
    private final class Entry {
        let screen: Screen
        let lifetime: AnyObject?
        init(_ screen: Screen, _ lifetime: AnyObject?) {
            self.screen = screen
            self.lifetime = lifetime
        }
    }

    private var entries: [[Entry]] = [[]]

    /// The navigation stacks, bottom first: the root stack, then each modal stack presented on it.
    public var stacks: [[Screen]] { entries.map { $0.map(\.screen) } }
    /// The screen on top, if any.
    public var top: Screen? { entries.last?.last?.screen }
    /// The alert on screen, if any.
    public private(set) var alert: (title: String, choices: [String])?
    /// Commands that made no sense (a pop of a stack's root, a dismiss with no modal), in order.
    /// Tests assert that it stays empty.
    public private(set) var problems: [String] = []
    /// Every command performed, in order.
    public private(set) var log: [NavigatorCommand<Screen>] = []
    /// Set by the coordinator.
    public var onUserNavigation: ((UserNavigation<Screen>) -> Void)?

    /// Creates a navigator with an empty root stack.
    public init() {}

    /// Performs a command on the in-memory stacks.
    public func perform(_ command: NavigatorCommand<Screen>, retaining lifetime: AnyObject?) {
        log.append(command)
        switch command {
        case .push(let screen):
            entries[entries.count - 1].append(Entry(screen, lifetime))
        case .present(let screen):
            entries.append([Entry(screen, lifetime)])
        case .pop:
            if entries[entries.count - 1].count > 1 {
                entries[entries.count - 1].removeLast()
            } else {
                problems.append("pop on the root of a stack (\(stacks))")
            }
        case .popToRoot:
            entries[entries.count - 1] = Array(entries[entries.count - 1].prefix(1))
        case .dismiss:
            if entries.count > 1 {
                entries.removeLast()
            } else {
                problems.append("dismiss with no modal stack (\(stacks))")
            }
        case .alert(let title, let choices):
            alert = (title, choices)
        }
    }

    /// The user goes back (back button or gesture) on the top stack. Returns false if there is
    /// nothing to go back to (the stack's root).
    @discardableResult
    public func goBack() -> Bool {
        guard entries[entries.count - 1].count > 1 else { return false }
        // Only the screen is kept: the entry, and the lifetimes it retains, are released before the
        // coordinator hears of it, as UIKit releases a popped view controller.
        let screen = entries[entries.count - 1].removeLast().screen
        onUserNavigation?(.wentBack(from: screen))
        return true
    }

    /// The user swipes the top modal stack down. Returns false if no modal stack is shown.
    @discardableResult
    public func swipeDown() -> Bool {
        guard entries.count > 1, let screen = entries[entries.count - 1].first?.screen else { return false }
        entries.removeLast()
        onUserNavigation?(.dismissed(screen))
        return true
    }

    /// The user picks the alert's choice with this title. Returns false if no alert shows it.
    @discardableResult
    public func choose(_ label: String) -> Bool {
        guard let alert, let index = alert.choices.firstIndex(of: label) else { return false }
        self.alert = nil
        onUserNavigation?(.choseAlert(index: index))
        return true
    }
}
