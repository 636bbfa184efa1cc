import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one thread has under way with views: the animation blocks open on it and the layout
/// passes waiting for its next clock advance — what UIKit keeps per thread in the current Core
/// Animation transaction, flushed at the end of the run loop's turn.
///
/// Per thread, not per clock or view, and legitimately so: `DynamicView.animate` captures the
/// changes its closure makes on the calling thread, to whatever views (a view has no clock of
/// its own, and blocks nest), and a layout pass made pending on a thread runs at the end of the
/// next `AnimationClock.advance(by:)` on that thread (or at `layoutIfNeeded()`), the thread's
/// turn of the run loop. Each thread's state is its own object, reached through a thread-specific
/// key and released when the thread ends.
///
/// Two process-wide counts are hints for the fast paths, never the state itself: how many
/// blocks are open and how many layout passes are pending on all threads together. While a
/// count is 0, a view setter (`DynamicView.tracksChanges`) or a clock advance knows without
/// looking up its thread's state that there is nothing to do; above 0, it looks.
final class ViewThreadState {
    /// This thread's open animation blocks, innermost last.
    private(set) var blocks: [AnimationTransaction] = []
    /// Emptied `animate` blocks kept for this thread's next ones (`ViewAnimationCapture`).
    var spareBlocks: [AnimationTransaction] = []
    /// Layout passes waiting for this thread's next clock advance, in the order they became
    /// pending.
    private var layoutPasses: [any PendingLayoutPass] = []

    /// Animation blocks open on all threads (a hint: see the type).
    private static let openBlockCount = Atomic<Int>(0)
    /// Layout passes pending on all threads (a hint: see the type).
    private static let pendingPassCount = Atomic<Int>(0)

    private static let key: pthread_key_t = {
        var k = pthread_key_t()
        let rc = pthread_key_create(&k) { p in
            guard let p else { return }
            Unmanaged<ViewThreadState>.fromOpaque(p).release()
        }
        precondition(rc == 0, "pthread_key_create failed (\(rc))")
        return k
    }()

    /// The calling thread's state (made on first use).
    static var current: ViewThreadState {
        if let p = pthread_getspecific(key) { return Unmanaged<ViewThreadState>.fromOpaque(p).takeUnretainedValue() }
        let s = ViewThreadState()
        pthread_setspecific(key, Unmanaged.passRetained(s).toOpaque())
        return s
    }

    /// A thread that ends leaves nothing open or pending in the counts.
    deinit {
        if !blocks.isEmpty { Self.openBlockCount.subtract(blocks.count, ordering: .relaxed) }
        if !layoutPasses.isEmpty { Self.pendingPassCount.subtract(layoutPasses.count, ordering: .relaxed) }
    }

    // MARK: Animation blocks

    /// False while no animation block is open on any thread (one relaxed atomic load).
    @inline(__always) static var mayHaveOpenBlocks: Bool { openBlockCount.load(ordering: .relaxed) > 0 }

    func push(_ t: AnimationTransaction) {
        blocks.append(t)
        Self.openBlockCount.add(1, ordering: .relaxed)
    }

    func pop(_ t: AnimationTransaction) {
        guard let i = blocks.lastIndex(where: { $0 === t }) else { return }
        blocks.remove(at: i)
        Self.openBlockCount.subtract(1, ordering: .relaxed)
    }

    // MARK: Layout passes

    func schedule(_ pass: any PendingLayoutPass) {
        layoutPasses.append(pass)
        Self.pendingPassCount.add(1, ordering: .relaxed)
    }

    func withdraw(_ pass: any PendingLayoutPass) {
        guard let i = layoutPasses.firstIndex(where: { $0 === pass }) else { return }
        layoutPasses.remove(at: i)
        Self.pendingPassCount.subtract(1, ordering: .relaxed)
    }

    /// Runs the pending passes in order until none is left (a pass may make others pending;
    /// at most 1000 runs, so that passes that keep making each other pending cannot hang).
    func runLayoutPasses() {
        var runs = 0
        while let pass = layoutPasses.first, runs < 1000 {
            pass.runLayoutPass()
            if layoutPasses.first === pass {
                layoutPasses.removeFirst()
                Self.pendingPassCount.subtract(1, ordering: .relaxed)
            }
            runs += 1
        }
    }

    /// Runs the calling thread's pending layout passes; one relaxed atomic load when no thread
    /// has any.
    @inline(__always) static func runPendingLayoutPasses() {
        guard pendingPassCount.load(ordering: .relaxed) > 0 else { return }
        current.runLayoutPasses()
    }
}

/// The animation blocks of the calling thread (`ViewThreadState`). Property setters ask
/// `mayCapture` first so that views pay one relaxed atomic load while no block is open anywhere.
enum ViewAnimationCapture {
    /// The most emptied blocks a thread keeps (nested `animate` calls each take one).
    static let maxSpares = 4

    @inline(__always) static var mayCapture: Bool { ViewThreadState.mayHaveOpenBlocks }

    /// The innermost open block of this thread.
    static var current: AnimationTransaction? { mayCapture ? ViewThreadState.current.blocks.last : nil }

    /// The innermost open begin/commit block of this thread.
    static var openBeginCommit: AnimationTransaction? {
        mayCapture ? ViewThreadState.current.blocks.last(where: { $0.isBeginCommit }) : nil
    }

    static func push(_ t: AnimationTransaction) { ViewThreadState.current.push(t) }

    static func pop(_ t: AnimationTransaction) { ViewThreadState.current.pop(t) }

    /// A block for `DynamicView.animate` on `clock`, as new: one this thread emptied before
    /// (`recycle`) or a new one. (A new block object per call would be an allocation for
    /// every show and hide of a component.)
    static func transaction(clock: AnimationClock) -> AnimationTransaction {
        if let t = ViewThreadState.current.spareBlocks.popLast() {
            t.clock = clock
            return t
        }
        return AnimationTransaction(id: nil, context: nil, clock: clock)
    }

    /// Takes back a committed `animate` block that nothing else holds, emptied (its settings
    /// and callbacks let go), for this thread's next one.
    static func recycle(_ t: inout AnimationTransaction) {
        guard !t.isBeginCommit, isKnownUniquelyReferenced(&t) else { return }
        let s = ViewThreadState.current
        guard s.spareBlocks.count < maxSpares else { return }
        t.empty()
        s.spareBlocks.append(t)
    }
}
