import FlowNavigation
import Flowstate
import Testing

/// A flow that asks before discarding: its alert's second choice cancels.
enum Discarding: Flow {
    enum State: Hashable, Sendable { case editing, asking, discarded }
    enum Event: FlowEvent, Hashable { case cancel, discard, keep }
    typealias Effect = Navigation<String, Event>
    typealias Output = Void

    static let alert = Alert<Event>("Discard?", choices: [
        .init("Discard", sends: .discard),
        .init("Keep", sends: .keep, isCancel: true),
    ])
    static let definition = FlowDefinition<Discarding>("discarding", initial: .editing) {
        StateNode(.editing) { On(.cancel, to: .asking, effects: [.alert(alert)]) }
        StateNode(.asking) {
            On(.discard, to: .discarded)
            On(.keep, to: .editing)
        }
        StateNode(.discarded) {}
    }
}

/// A navigator that records the cancel index the coordinator gives for each alert, and forwards to
/// a headless one.
final class CancelRecordingNavigator: Navigator {
    let inner = HeadlessNavigator<String>()
    private(set) var cancelIndexes: [Int?] = []
    var onUserNavigation: ((UserNavigation<String>) -> Void)? {
        get { inner.onUserNavigation }
        set { inner.onUserNavigation = newValue }
    }
    func perform(_ command: NavigatorCommand<String>, retaining lifetime: AnyObject?) {
        inner.perform(command, retaining: lifetime)
    }
    func performAlert(title: String, choices: [String], cancelIndex: Int?) {
        cancelIndexes.append(cancelIndex)
        inner.performAlert(title: title, choices: choices, cancelIndex: cancelIndex)
    }
}

@Suite("Coordinator: an alert's cancel choice reaches the navigator")
struct AlertCancelStyleTests {
    @Test("The coordinator says which choice cancels; a navigator without cancel styles still shows the alert")
    func cancelIndex() throws {
        let navigator = CancelRecordingNavigator()
        let coordinator = Coordinator(navigator: navigator)
        navigator.perform(.push("editor"), retaining: nil)
        let flow = try coordinator.start(Discarding.definition, effects: { $0 })
        try coordinator.send(.cancel, to: flow)
        #expect(navigator.cancelIndexes == [1])
        #expect(navigator.inner.log.last == .alert(title: "Discard?", choices: ["Discard", "Keep"]))
        #expect(navigator.inner.choose("Keep"))
        #expect(coordinator.supervisor.state(of: flow) == .editing)

        let plain = HeadlessNavigator<String>()
        let other = Coordinator(navigator: plain)
        plain.perform(.push("editor"), retaining: nil)
        let second = try other.start(Discarding.definition, effects: { $0 })
        try other.send(.cancel, to: second)
        #expect(plain.log.last == .alert(title: "Discard?", choices: ["Discard", "Keep"]))
    }
}
