import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The open animation blocks of each thread. Property setters ask `mayCapture` first (one
/// relaxed atomic load) so that views pay nothing while no block is open anywhere.
enum ViewAnimationCapture {
    private static let openBlocks = Atomic<Int>(0)

    final class Stack {
        var items: [AnimationTransaction] = []
        /// Emptied `animate` blocks kept for this thread's next ones (`transaction(clock:)`).
        var spares: [AnimationTransaction] = []
    }

    /// The most emptied blocks a thread keeps (nested `animate` calls each take one).
    static let maxSpares = 4

    private static let key: pthread_key_t = {
        var k = pthread_key_t()
        let rc = pthread_key_create(&k) { p in
            guard let p else { return }
            Unmanaged<Stack>.fromOpaque(p).release()
        }
        precondition(rc == 0, "pthread_key_create failed (\(rc))")
        return k
    }()

    private static var stack: Stack {
        if let p = pthread_getspecific(key) { return Unmanaged<Stack>.fromOpaque(p).takeUnretainedValue() }
        let s = Stack()
        pthread_setspecific(key, Unmanaged.passRetained(s).toOpaque())
        return s
    }

    @inline(__always) static var mayCapture: Bool { openBlocks.load(ordering: .relaxed) > 0 }

    /// The innermost open block of this thread.
    static var current: AnimationTransaction? { mayCapture ? stack.items.last : nil }

    /// The innermost open begin/commit block of this thread.
    static var openBeginCommit: AnimationTransaction? {
        mayCapture ? stack.items.last(where: { $0.isBeginCommit }) : nil
    }

    static func push(_ t: AnimationTransaction) {
        stack.items.append(t)
        openBlocks.add(1, ordering: .relaxed)
    }

    static func pop(_ t: AnimationTransaction) {
        let s = stack
        guard let i = s.items.lastIndex(where: { $0 === t }) else { return }
        s.items.remove(at: i)
        openBlocks.subtract(1, ordering: .relaxed)
    }

    /// A block for `DynamicView.animate` on `clock`, as new: one this thread emptied before
    /// (`recycle`) or a new one. (A block object per call was an allocation for every show
    /// and hide of a component.)
    static func transaction(clock: AnimationClock) -> AnimationTransaction {
        if let t = stack.spares.popLast() {
            t.clock = clock
            return t
        }
        return AnimationTransaction(id: nil, context: nil, clock: clock)
    }

    /// Takes back a committed `animate` block that nothing else holds, emptied (its settings
    /// and callbacks let go), for this thread's next one.
    static func recycle(_ t: inout AnimationTransaction) {
        guard !t.isBeginCommit, isKnownUniquelyReferenced(&t) else { return }
        let s = stack
        guard s.spares.count < maxSpares else { return }
        t.empty()
        s.spares.append(t)
    }
}
