/// Runs presentation changes (a presentation or a dismissal) one after another: each one starts when
/// the one before it called its `done`.
///
/// UIKit refuses to present or dismiss while another presentation or dismissal is animating (it logs
/// "Attempt to present ... while a presentation is in progress" and shows nothing), yet a flow may
/// dismiss a modal and present the next one in the same step. `UIKitNavigator` therefore queues its
/// presentations and dismissals here and calls `done` from UIKit's completion; pushes and pops are
/// not queued (a navigation controller takes them at any time and updates `viewControllers` at once,
/// which keeps the reports of the back gesture exact).
///
/// Platform-free, so tested on Linux. Used from one isolation domain (the main actor); not `Sendable`.
final class PresentationQueue {
    /// A presentation change: starts its work, and calls `done` once it is over (at once, if it did
    /// nothing).
    typealias Change = (_ done: @escaping () -> Void) -> Void

    /// The changes waiting are `pending[head...]`.
    private var pending: [Change] = []
    private var head = 0
    private var running = false

    /// Whether no change is running or waiting.
    var isIdle: Bool { !running && waiting == 0 }

    /// The number of changes waiting (the running one not counted).
    var waiting: Int { pending.count - head }

    /// Runs `change` now if the queue is idle, otherwise after the ones before it.
    func enqueue(_ change: @escaping Change) {
        pending.append(change)
        if !running { runNext() }
    }

    /// Runs the waiting changes in order; one that finishes at once lets the next start in the same
    /// loop (no recursion), one that finishes later resumes the loop from its `done`.
    private func runNext() {
        while !running, waiting > 0 {
            running = true
            var finishedAtOnce = false
            var inside = true
            var called = false
            let change = pending[head]
            head += 1
            if head == pending.count {
                pending.removeAll(keepingCapacity: true)
                head = 0
            }
            change { [weak self] in
                guard !called else { return }  // a second call is ignored
                called = true
                if inside {
                    finishedAtOnce = true
                } else if let self {
                    self.running = false
                    self.runNext()
                }
            }
            inside = false
            if finishedAtOnce { running = false }
        }
    }
}
