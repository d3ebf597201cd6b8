@testable import FlowNavigation
import Testing

/// The queue the UIKit adapter runs its presentations and dismissals through (UIKit refuses a
/// presentation while another one animates). Platform-free, so tested here.
@Suite("Presentation queue: one presentation at a time")
struct PresentationQueueTests {
    @Test("A change that finishes at once lets the next run at once, in order")
    func immediate() {
        let queue = PresentationQueue()
        var log: [Int] = []
        for i in 0..<3 { queue.enqueue { done in log.append(i); done() } }
        #expect(log == [0, 1, 2])
        #expect(queue.isIdle)
    }

    @Test("A change that finishes later holds the next ones until its done")
    func deferred() {
        let queue = PresentationQueue()
        var log: [String] = []
        var finish: [() -> Void] = []
        queue.enqueue { done in log.append("present"); finish.append(done) }
        queue.enqueue { done in log.append("dismiss"); finish.append(done) }
        queue.enqueue { done in log.append("alert"); done() }
        #expect(log == ["present"] && queue.waiting == 2 && !queue.isIdle)
        finish[0]()
        #expect(log == ["present", "dismiss"] && queue.waiting == 1)
        finish[0]()   // a second call is ignored
        #expect(log == ["present", "dismiss"])
        finish[1]()
        #expect(log == ["present", "dismiss", "alert"])
        #expect(queue.isIdle)
    }

    @Test("A change enqueued from inside a running one runs after it")
    func reentrant() {
        let queue = PresentationQueue()
        var log: [String] = []
        queue.enqueue { done in
            log.append("outer start")
            queue.enqueue { done in log.append("inner"); done() }
            log.append("outer end")
            done()
        }
        #expect(log == ["outer start", "outer end", "inner"])
        #expect(queue.isIdle)
    }

    @Test("Changes released by one done run in a loop, not nested (no recursion)")
    func long() {
        let queue = PresentationQueue()
        var finish: (() -> Void)?
        var count = 0
        queue.enqueue { done in finish = done }
        for _ in 0..<20_000 { queue.enqueue { done in count += 1; done() } }
        #expect(count == 0 && queue.waiting == 20_000)
        finish?()
        #expect(count == 20_000 && queue.isIdle)
    }
}
