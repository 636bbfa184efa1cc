import DynamicsEngine
import Foundation
import Synchronization

/// A frame's changes to many independent components, made by
/// `AnimationClock.advance(_:by:workers:preparing:)` for each share of the clocks, on the
/// worker that takes the share, just before it advances them (see there).
public protocol ClockSharePreparation: AnyObject {
    /// Makes this frame's changes to what the clocks at indices `share` of the advanced list
    /// drive (toggles, pushes, new animations). Called concurrently for disjoint shares: touch
    /// only what belongs to them.
    func prepare(_ share: Range<Int>)
}

/// The headless display link: one clock drives every dynamic animator and every view
/// animation registered on it, in a fixed order, so a run is deterministic.
///
/// `advance(by:)` steps exactly the time given, in this order: the collection views scrolling
/// on their own on the clock (decelerating, springing back, animating an offset), each live
/// animator registered on the clock (in the order they were created) by `step(by:)`, then each
/// running view animation (in commit order); will-start, did-stop and completion callbacks run
/// after all of them have advanced; last, the advancing thread's pending layout passes (Auto
/// Layout's, collection views') run.
/// `DynamicAnimator.run(for:)` and `runUntilPaused(timeout:)` advance the animator's
/// clock, so everything on it moves together, as on a device; `DynamicAnimator.step(by:)`
/// still steps one animator alone. An app's frame loop calls `tick(timestamp:)`, which applies
/// the display link's rule for stalls (a gap above 0.5 s counts as 1/60 s).
/// Animators register when created (`DynamicAnimator(referenceBounds:clock:)`, default
/// `.main`) and leave when freed.
///
/// Thread safety: registering and committing animations may happen on any thread (a lock
/// guards the lists, touched only then and once per advance), but one clock is advanced from
/// one thread at a time, and the views and animators on it are used from that thread. Give
/// each thread its own clock to step independent components in parallel.
public final class AnimationClock: @unchecked Sendable {
    /// The clock every animator and animation uses unless told otherwise.
    public static let main = AnimationClock()

    /// Guards `animators` and `runs`. (A `Mutex` lives inside the clock: an `NSLock` is two
    /// more objects to fetch and costs more per lock and unlock than a small frame can spare.)
    private let lock = Mutex<Void>(())
    // The lists and the advance state are `@exclusivity(unchecked)`: every advance touches
    // them, and the dynamic checks measurably slowed many small clocks (docs/architecture.md).
    /// The cores of the animators on this clock, in the order they were created. Held
    /// strongly: an animator takes its core off when it is freed (`AnimatorCore`).
    @exclusivity(unchecked) private var animators: [AnimatorCore] = []
    /// The one core of `animators` when it holds exactly one (else nil).
    @exclusivity(unchecked) private var soleAnimator: AnimatorCore?
    @exclusivity(unchecked) private var runs: [ViewAnimationRun] = []
    /// `runs.count`, written under the lock: a frame with no view animation reads it instead
    /// of taking the lock (a run committed on another thread meanwhile starts next frame).
    private let runCount = Atomic<Int>(0)
    @exclusivity(unchecked) private var events: [(ViewAnimationRun, ViewAnimationRun.Event)] = []
    @exclusivity(unchecked) private var firing: [(ViewAnimationRun, ViewAnimationRun.Event)] = []
    @exclusivity(unchecked) private var animatorScratch: [AnimatorCore] = []
    @exclusivity(unchecked) private var runScratch: [ViewAnimationRun] = []
    /// Stepped at the start of every advance, before the animators (collection views
    /// decelerating); used from the clock's thread.
    @exclusivity(unchecked) var frameDrivers: [ClockFrameDriver] = []

    /// Seconds advanced so far.
    @exclusivity(unchecked) public private(set) var time: TimeInterval = 0

    /// The fewest clocks in a share of `advance(_:by:workers:)` when there are enough: a
    /// share must be worth the claim that hands it to a worker.
    static let minClocksPerShare = 32

    /// A clock of its own, at time 0, with nothing on it (independent of `main`).
    public init() {}

    /// Steps every animator and view animation on this clock by exactly `seconds` (finite,
    /// ≥ 0): each animator in fixed sub-steps, then the view animations, then their callbacks.
    /// Called again from inside one of those callbacks (a delegate, an action, a completion),
    /// the time is added to the advance under way and stepped once its callbacks return,
    /// so nothing is stepped twice at once.
    public func advance(by seconds: TimeInterval) {
        precondition(seconds.isFinite && seconds >= 0, "AnimationClock.advance(by:): time must be finite and not negative (got \(seconds))")
        if advancing { owed += seconds; return }
        advancing = true
        defer { advancing = false }
        advanceOnce(by: seconds)
        while owed > 0 {
            let s = owed
            owed = 0
            advanceOnce(by: s)
        }
        // This thread's pending layout passes (Auto Layout, DynamicsLayout) run last: one
        // relaxed load when no thread has any.
        ViewThreadState.runPendingLayoutPasses()
    }

    /// The real-time entry point, for an app's frame loop (UIKit's display link): `timestamp`
    /// is the frame's time in seconds on any monotonic clock. The first call only records it;
    /// each later call advances by the gap since the previous timestamp, except that a gap
    /// above 0.5 s (a stall, a breakpoint, an app back from the background) counts as 1/60 s,
    /// and a timestamp earlier than the previous one advances nothing.
    public func tick(timestamp: TimeInterval) {
        precondition(timestamp.isFinite, "AnimationClock.tick(timestamp:): the timestamp must be finite (got \(timestamp))")
        let last = lastTimestamp
        lastTimestamp = timestamp
        guard let last else { return }
        let gap = timestamp - last
        guard gap > 0 else { return }
        advance(by: gap > Self.maximumFrameGap ? 1.0 / 60.0 : gap)
    }

    /// A `tick(timestamp:)` gap above this (seconds) counts as one 1/60 s frame.
    public static let maximumFrameGap: TimeInterval = 0.5

    @exclusivity(unchecked) private var advancing = false
    @exclusivity(unchecked) private var owed: TimeInterval = 0
    private var lastTimestamp: TimeInterval?

    private func advanceOnce(by seconds: TimeInterval) {
        time += seconds
        if !frameDrivers.isEmpty { driveFrames(by: seconds) }
        // Property animators advance before the view animations; the completions of those
        // that ended run after every callback of the frame.
        let animatorsEnded = propertyAnimatorCount.load(ordering: .acquiring) > 0 && advancePropertyAnimators(by: seconds)
        defer { if animatorsEnded { completePropertyAnimators() } }
        if let only = lock.withLock({ _ in soleAnimator }) {
            // One live animator (a component on its own clock): stepped without the snapshot
            // list, which costs more than a small world's step can spare. Same order.
            only.step(by: seconds)
        } else {
            // (A copy: an animator freed or made by a call-out changes the list.)
            lock.withLock { _ in for i in animators.indices { animatorScratch.append(animators[i]) } }
            for a in animatorScratch { a.step(by: seconds) }
            animatorScratch.removeAllKeepingCapacity()
        }

        guard runCount.load(ordering: .acquiring) > 0 else { return }
        // Element by element: `append(contentsOf:)` copies through the runtime's generic
        // array copy, costly for the one run of an alert's frame.
        lock.withLock { _ in for i in runs.indices { runScratch.append(runs[i]) } }
        guard !runScratch.isEmpty else { return }
        events.removeAllKeepingCapacity()
        for r in runScratch { r.advance(by: seconds, events: &events) }
        // (Most frames end no animation: the list is rewritten only when one ended.)
        let someEnded = runScratch.contains(where: { $0.ended })
        if someEnded {
            lock.withLock { _ in
                runs.removeAll { $0.ended }
                runCount.store(runs.count, ordering: .releasing)
            }
        }
        if !events.isEmpty {
            // Swap buffers so callbacks that commit animations start from an empty list.
            swap(&events, &firing)
            // By index: a `for … in` iterator could still hold the buffer when it is emptied,
            // and the emptying would then allocate a new one.
            var k = 0
            while k < firing.count {
                let (run, event) = firing[k]
                k += 1
                run.fire(event)
            }
            firing.removeAllKeepingCapacity()
        }
        // The runs that ended, their callbacks done, are kept for the next commits.
        if someEnded { keepEndedRuns() }
        runScratch.removeAllKeepingCapacity()
    }

    /// Ended runs kept for the next commits on this clock (`makeRun`), their callbacks let
    /// go: a new run object per animation would be an allocation for every show and hide of
    /// a component. At most `maxSpareRuns`.
    @exclusivity(unchecked) private var spareRuns: [ViewAnimationRun] = []
    static let maxSpareRuns = 4

    /// Moves the ended runs of `runScratch` that nothing else holds to `spareRuns`.
    private func keepEndedRuns() {
        for i in runScratch.indices where runScratch[i].ended && isKnownUniquelyReferenced(&runScratch[i]) {
            runScratch[i].releaseCallbacks()
            let run = runScratch[i]
            lock.withLock { _ in if spareRuns.count < Self.maxSpareRuns { spareRuns.append(run) } }
        }
    }

    /// A run of the committed block `t`: an ended one kept by `keepEndedRuns`, or a new one.
    func makeRun(_ t: AnimationTransaction) -> ViewAnimationRun {
        if let run = lock.withLock({ _ in spareRuns.popLast() }) {
            run.reuse(t)
            return run
        }
        return ViewAnimationRun(t)
    }

    /// Advances every clock of `clocks` by `seconds`, as each one's `advance(by:)` would,
    /// cut into contiguous shares that `workers` threads of the engine's worker pool take one
    /// by one (the calling thread takes part; see `ParallelWork.forEachClaimed`): one share
    /// with one worker; with more, up to eight a worker, none under 32 clocks when there are
    /// at least 32 a worker, so that a thread slowed by another program advances fewer. For
    /// many independent components, each on its own clock (a screen full of menus, a server
    /// simulating many users' interfaces). The results are bit for bit those of calling each
    /// clock's `advance(by:)` in turn.
    ///
    /// Each clock must be advanced from one thread at a time (`AnimationClock`), and the
    /// clocks in one call must be distinct and share no animator, view or behavior: they run
    /// at once on different threads (debug builds stop on a clock given twice). Nothing is
    /// allocated once warm while the worker pool is free.
    /// - Precondition: `seconds` finite and ≥ 0, `workers` ≥ 1.
    public static func advance(_ clocks: [AnimationClock], by seconds: TimeInterval, workers: Int = 1) {
        advance(clocks, by: seconds, workers: workers, preparing: nil)
    }

    /// `advance(_:by:workers:)`, with a frame's changes made in the same pass: for each share
    /// of `clocks` (a range of indices into `clocks`), the worker that takes it first calls
    /// `preparation.prepare(share)`, then advances those clocks. Every clock's changes are
    /// made before it advances, as with the changes made first and the clocks advanced after,
    /// so the results are the same — but with two workers one pass instead of two: no second
    /// wait for the slower worker, and each component is changed on the thread that then
    /// steps it, its memory still in that processor's cache.
    ///
    /// The shares are disjoint and cover `clocks`; `prepare` runs concurrently for different
    /// shares, so it may touch only what the clocks of its share drive. With one worker it is
    /// called once, for every clock; with more, several times a worker (see
    /// `advance(_:by:workers:)`), so it should cost little when a share holds nothing to change.
    /// - Precondition: `seconds` finite and ≥ 0, `workers` ≥ 1.
    public static func advance(_ clocks: [AnimationClock], by seconds: TimeInterval, workers: Int,
                               preparing preparation: (any ClockSharePreparation)?) {
        precondition(seconds.isFinite && seconds >= 0, "AnimationClock.advance(_:by:workers:): time must be finite and not negative (got \(seconds))")
        precondition(workers >= 1, "AnimationClock.advance(_:by:workers:): workers must be at least 1")
        // (Checked in debug builds only: the check allocates.)
        assert(Set(clocks.map(ObjectIdentifier.init)).count == clocks.count,
               "AnimationClock.advance(_:by:workers:): a clock appears more than once")
        let w = min(workers, clocks.count)
        guard w > 0 else { return }
        let parts = shareCount(clocks: clocks.count, workers: w)
        ParallelWork.forEachClaimed(parts, workers: w, AdvanceShares(clocks: clocks, seconds: seconds, parts: parts, preparation: preparation))
    }

    /// How many shares `advance(_:by:workers:preparing:)` cuts `n` clocks into for `w` ≤ `n`
    /// workers: one for one worker; else eight a worker, fewer where a share would hold
    /// fewer than `minClocksPerShare` clocks, never fewer than one a worker.
    static func shareCount(clocks n: Int, workers w: Int) -> Int {
        w <= 1 ? 1 : max(w, min(8 * w, n / minClocksPerShare))
    }

    /// One contiguous share of `advance(_:by:workers:)`, prepared, then advanced.
    private struct AdvanceShares: IndexedWork, @unchecked Sendable {
        let clocks: [AnimationClock]
        let seconds: TimeInterval
        let parts: Int
        let preparation: (any ClockSharePreparation)?
        func perform(_ part: Int) {
            let n = clocks.count
            let lo = part * n / parts, hi = (part + 1) * n / parts
            preparation?.prepare(lo..<hi)
            // (The clocks as unretained references: `clocks` holds them for the whole call, so
            // no clock is retained and released around its advance.)
            clocks.withUnsafeBufferPointer { strong in
                strong.withMemoryRebound(to: Unmanaged<AnimationClock>.self) { c in
                    for i in lo..<hi { c[i]._withUnsafeGuaranteedRef { $0.advance(by: seconds) } }
                }
            }
        }
    }

    /// Advances `seconds` in frames of `frameDuration` (default 1/60 s).
    public func run(for seconds: TimeInterval, frameDuration: TimeInterval = 1.0 / 60.0) {
        precondition(seconds.isFinite && seconds >= 0, "AnimationClock.run(for:): time must be finite and not negative")
        precondition(frameDuration.isFinite && frameDuration > 0, "AnimationClock.run(for:): the frame duration must be positive")
        var left = seconds
        while left > 1e-12 { let d = min(left, frameDuration); advance(by: d); left -= d }
    }

    /// Advances in 1/60 s frames until nothing on the clock moves (no animator running, no view
    /// animation left) or `timeout` seconds have passed; true when it went idle.
    @discardableResult
    public func runUntilIdle(timeout: TimeInterval) -> Bool {
        precondition(timeout.isFinite && timeout >= 0, "AnimationClock.runUntilIdle(timeout:): the timeout must be finite and not negative")
        var t: TimeInterval = 0
        while !isIdle && t < timeout { advance(by: 1.0 / 60.0); t += 1.0 / 60.0 }
        return isIdle
    }

    /// True when no animator on the clock is running, no view animation is left (a paused
    /// property animator does not count) and no collection view is decelerating.
    public var isIdle: Bool {
        frameDrivers.isEmpty && lock.withLock { _ in runs.isEmpty && propertyAnimators.isEmpty && !animators.contains { $0.isRunning } }
    }

    /// Number of view animations committed on this clock that have not ended.
    public var runningViewAnimationCount: Int {
        lock.withLock { _ in runs.count }
    }

    func register(_ animator: AnimatorCore) {
        lock.withLock { _ in
            animators.append(animator)
            soleAnimator = animators.count == 1 ? animators[0] : nil
        }
    }

    func unregister(_ animator: AnimatorCore) {
        lock.withLock { _ in
            animators.removeAll { $0 === animator }
            soleAnimator = animators.count == 1 ? animators[0] : nil
        }
    }

    /// Whether a live animator on this clock other than `animator` holds the item with this
    /// identity (for items that do not carry their animator).
    func hasAnimator(holding item: ObjectIdentifier, besides animator: AnimatorCore) -> Bool {
        lock.withLock { _ in
            animators.contains { $0 !== animator && $0.holds(item) }
        }
    }

    // MARK: Property animators

    /// The running property animators, in the order they started running; one that pauses,
    /// stops or ends leaves the list at the next advance.
    @exclusivity(unchecked) private var propertyAnimators: [ViewPropertyAnimator] = []
    /// `propertyAnimators.count`, written under the lock (read without it, as `runCount`).
    private let propertyAnimatorCount = Atomic<Int>(0)
    /// Property animators that reached their end this frame, and the same being completed.
    @exclusivity(unchecked) private var endedAnimators: [ViewPropertyAnimator] = []
    @exclusivity(unchecked) private var completingAnimators: [ViewPropertyAnimator] = []

    /// Puts a running property animator on the list (once).
    func schedule(_ animator: ViewPropertyAnimator) {
        lock.withLock { _ in
            guard !animator.isScheduled else { return }
            animator.isScheduled = true
            propertyAnimators.append(animator)
            propertyAnimatorCount.store(propertyAnimators.count, ordering: .releasing)
        }
    }

    /// Advances the running property animators in place (no user code runs) and drops those
    /// no longer running; true when one reached its end.
    private func advancePropertyAnimators(by seconds: TimeInterval) -> Bool {
        lock.withLock { _ in
            let n = propertyAnimators.count
            var kept = 0
            // (Unretained: the list holds them for the whole pass.)
            propertyAnimators.withUnsafeMutableBufferPointer { list in
                for i in 0..<n {
                    let keep = Unmanaged.passUnretained(list[i])._withUnsafeGuaranteedRef { a -> Bool in
                        if a.advanceFrame(seconds) { endedAnimators.append(a) }
                        if a.isRunning { return true }
                        a.isScheduled = false
                        return false
                    }
                    if keep {
                        if kept != i { list.swapAt(kept, i) }
                        kept += 1
                    }
                }
            }
            if kept != n {
                propertyAnimators.removeLast(n - kept)
                propertyAnimatorCount.store(kept, ordering: .releasing)
            }
        }
        return !endedAnimators.isEmpty
    }

    /// Runs the completions of the property animators that ended this frame.
    private func completePropertyAnimators() {
        swap(&endedAnimators, &completingAnimators)
        var k = 0
        while k < completingAnimators.count {
            let a = completingAnimators[k]
            k += 1
            a.completeRun()
        }
        completingAnimators.removeAll(keepingCapacity: true)
    }

    func add(_ run: ViewAnimationRun) {
        lock.withLock { _ in
            runs.append(run)
            runCount.store(runs.count, ordering: .releasing)
        }
    }
}
