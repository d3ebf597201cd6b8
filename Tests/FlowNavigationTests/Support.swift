import FlowNavigation
import Flowstate

/// A navigator that records every screen lifetime it was given, weakly: after a dismissal, the tests
/// show that the lifetime (the supervisor's owner of the bound flows) was deallocated.
final class RecordingNavigator<Screen: Hashable & Sendable>: Navigator {
    final class Weak {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    let inner = HeadlessNavigator<Screen>()
    private(set) var lifetimes: [Weak] = []

    var onUserNavigation: ((UserNavigation<Screen>) -> Void)? {
        get { inner.onUserNavigation }
        set { inner.onUserNavigation = newValue }
    }

    func perform(_ command: NavigatorCommand<Screen>, retaining lifetime: AnyObject?) {
        if let lifetime { lifetimes.append(Weak(lifetime)) }
        inner.perform(command, retaining: lifetime)
    }

    var stacks: [[Screen]] { inner.stacks }
    var liveLifetimes: Int { lifetimes.filter { $0.object != nil }.count }
}
