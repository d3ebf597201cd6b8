import Foundation

/// Lets other tasks run until `condition` holds (at most `limit` turns): what a test awaits after
/// scheduling work on another task, without a real clock.
@MainActor
public func eventually(_ limit: Int = 100_000, _ condition: () -> Bool) async -> Bool {
    for _ in 0..<limit {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}
