#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Frees objects one at a time, on the thread that releases them, instead of letting a chain of
/// deinitializers recurse once per link: a long chain of nested definitions (a child flow's definition
/// held by its parent's table) is freed in constant stack.
///
/// An object handed here while another is being freed on the same thread waits in a per-thread list;
/// the outermost call frees them all, in a loop.
enum IterativeRelease {
    /// The objects waiting on one thread, and whether that thread is freeing them now.
    private final class Pending {
        var items: [AnyObject] = []
        var draining = false
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<Pending>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<Pending>.fromOpaque(pointer).release() }
            #endif
        }
        return key
    }()

    private static var pending: Pending {
        if let pointer = pthread_getspecific(key) { return Unmanaged<Pending>.fromOpaque(pointer).takeUnretainedValue() }
        let made = Pending()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    /// Releases `object` now, or after the release in progress on this thread if there is one. The
    /// caller gives up its reference (`consuming`): the object is freed here, in the loop, not in the
    /// caller's frame once this returns (which would recurse again).
    static func hand(_ object: consuming AnyObject) {
        let pending = pending
        pending.items.append(object)
        guard !pending.draining else { return }
        pending.draining = true
        while let next = pending.items.popLast() {
            withExtendedLifetime(next) {}  // freed here; what it frees in turn is queued above
        }
        pending.draining = false
    }
}

/// A value held by an object, so that ``IterativeRelease`` can free it later.
final class ReleaseBox<Value> {
    let value: Value
    init(_ value: Value) { self.value = value }
}
