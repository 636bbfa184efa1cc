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
/// `advance(by:)` steps exactly the time given, in this order: each live animator registered on
/// the clock (in the order they were created) by `step(by:)`, then each running view animation
/// (in commit order); will-start, did-stop and completion callbacks run after all of them have
/// advanced; last, the advancing thread's pending Auto Layout passes (DynamicsLayout) run.
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

    // (The prefetching pipeline's fields first, in the object's first two lines: that loop
    // reads a clock's hint and plan two clocks ahead of its turn, after asking for only
    // those two lines three clocks ahead.)

    /// What the next advance touches (this clock, its animators and their worlds), for
    /// `advance(_:by:workers:)`, which prefetches it while the clock before this one advances.
    /// Remade by that loop every `planInterval` advances, when all of it is in the cache.
    @exclusivity(unchecked) private var plan = PrefetchPlan()
    /// Advances through `advance(_:by:workers:)` since `plan` was made.
    @exclusivity(unchecked) private var planAge = Int.max
    /// Advances between two makings of `plan`: 30 for a clock's first `earlyPlans` plans (its
    /// components' buffers grow to their working size in their first cycles), then 120 — once
    /// warm, buffers rarely move, and a stale address only costs a wasted prefetch. (Making a
    /// menu's plan every 30 advances was 2.6 % of its instructions.)
    static let planInterval = 30
    static let warmPlanInterval = 120
    static let earlyPlans = 6
    /// Plans made so far (up to `earlyPlans`).
    @exclusivity(unchecked) private var plansMade = 0
    /// A prefetching hint, the part of the plan (`PrefetchPlan.Part`) the next frame likely
    /// touches, from what the last one did: `.idle` when its sole animator only checked that
    /// it is paused and no view animation ran; `.motion` when that animator's world ended
    /// the frame without contacts (a body in flight); `.rest` when it ended the frame at a
    /// rest point (its next steps are steps at rest) and no view animation ran; else `.all`.
    /// Set to `.all` when the animator resumes or an animation is added; a stale hint costs a
    /// frame cold memory, never a different result.
    private let hint = Atomic<UInt8>(PrefetchPlan.Part.all.rawValue)

    private struct WeakAnimator { weak var animator: DynamicAnimator? }
    /// Guards `animators` and `runs`. (A `Mutex` lives inside the clock: an `NSLock` is two
    /// more objects to fetch and about 200 instructions a lock and unlock, a menu frame's 4 %.)
    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var animators: [WeakAnimator] = []
    /// The one animator of `animators` when it holds exactly one (else nil), read in place: a
    /// weak reference copied out of the array is a write to the animator's side table and back.
    @exclusivity(unchecked) private weak var soleAnimator: DynamicAnimator?
    @exclusivity(unchecked) private var runs: [ViewAnimationRun] = []
    /// `runs.count`, written under the lock: a frame with no view animation reads it instead
    /// of taking the lock (a run committed on another thread meanwhile starts next frame).
    private let runCount = Atomic<Int>(0)
    @exclusivity(unchecked) private var events: [(ViewAnimationRun, ViewAnimationRun.Event)] = []
    @exclusivity(unchecked) private var firing: [(ViewAnimationRun, ViewAnimationRun.Event)] = []
    @exclusivity(unchecked) private var animatorScratch: [DynamicAnimator] = []
    @exclusivity(unchecked) private var runScratch: [ViewAnimationRun] = []

    /// Seconds advanced so far.
    @exclusivity(unchecked) public private(set) var time: TimeInterval = 0

    /// A share of `advance(_:by:workers:)` below this many clocks is advanced without
    /// prefetching: a menu's frame touches about 12 KB, so a few dozen stay in a core's cache
    /// from frame to frame, and asking for lines already there only costs instructions.
    static let minClocksToPrefetch = 32

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
        // Pending Auto Layout (DynamicsLayout) runs last: one relaxed load when there is none.
        ViewLayoutHook.runIfPending()
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
    @exclusivity(unchecked) private var lastTimestamp: TimeInterval?

    private func advanceOnce(by seconds: TimeInterval) {
        time += seconds
        if let only = lock.withLock({ _ in soleAnimator }) {
            // One live animator (a component on its own clock): stepped without the snapshot
            // list, which cost more than a small world's step leaves room for. Same order.
            only.step(by: seconds)
            let quiet = runCount.load(ordering: .relaxed) == 0
            // (One expression, as `only` lives: split up, the world was retained around the read.)
            let part: PrefetchPlan.Part = only.lastTickIdled && quiet ? .idle : Self.busyPart(only.world.nextStepPart, quiet: quiet)
            hint.store(part.rawValue, ordering: .relaxed)
        } else {
            hint.store(PrefetchPlan.Part.all.rawValue, ordering: .relaxed)
            lock.withLock { _ in
                var dead = false
                for a in animators { if let x = a.animator { animatorScratch.append(x) } else { dead = true } }
                if dead { removeDeadAnimators() }
            }
            for a in animatorScratch { a.step(by: seconds) }
            animatorScratch.removeAllKeepingCapacity()
        }

        guard runCount.load(ordering: .acquiring) > 0 else { return }
        // Element by element: `append(contentsOf:)` copied through the runtime's generic
        // array copy, ~140 instructions for the one run of an alert's frame.
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
    /// go: a run object per animation was an allocation for every show and hide of a
    /// component. At most `maxSpareRuns`.
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
    /// at least 32 a worker, so that a thread slowed by another program advances fewer (a
    /// thousand alerts or menus on two workers on a shared machine: a median 1.8 % less time
    /// a step than one share a worker, less in 10 of 12 runs — a small gain, not far above the
    /// ~1 % that code placement alone gave such in-process probes;
    /// `Results/components-2026-11-28-g.md`, `-h.md`). For many independent components, each
    /// on its own clock (a screen full of menus, a server simulating many users' interfaces).
    ///
    /// Faster than calling `advance(by:)` on each: a thousand small worlds do not fit in the
    /// processor's caches, so each one is cold when its turn comes and its step waits on
    /// memory. This loop asks for the memory of the next clock (its animators, their
    /// behaviors, items and worlds) while the current one computes: the clock object two
    /// ahead, the list of what it touches one ahead. (Shares of fewer than 32 clocks, which
    /// stay in the cache, are advanced without it.)
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
    /// steps it, its memory still in that processor's cache. (A thousand alerts or menus on
    /// two workers: 5.5–9.4 % less time a step than toggled in a pass of their own —
    /// `Results/components-2026-11-28-f.md`.)
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
    /// fewer than `minClocksToPrefetch` clocks, never fewer than one a worker.
    static func shareCount(clocks n: Int, workers w: Int) -> Int {
        w <= 1 ? 1 : max(w, min(8 * w, n / minClocksToPrefetch))
    }

    /// One contiguous share of `advance(_:by:workers:)`, prepared, then advanced with
    /// prefetching.
    private struct AdvanceShares: IndexedWork, @unchecked Sendable {
        let clocks: [AnimationClock]
        let seconds: TimeInterval
        let parts: Int
        let preparation: (any ClockSharePreparation)?
        func perform(_ part: Int) {
            let n = clocks.count
            let lo = part * n / parts, hi = (part + 1) * n / parts
            preparation?.prepare(lo..<hi)
            // (The clocks as unretained references: `clocks` holds them for the whole call, and
            // a retain and release of three clocks a frame was 1.6 % of a menu's.)
            clocks.withUnsafeBufferPointer { strong in
                strong.withMemoryRebound(to: Unmanaged<AnimationClock>.self) { c in
                    // A few clocks stay in the cache from one frame to the next: no prefetching.
                    guard hi - lo >= AnimationClock.minClocksToPrefetch else {
                        for i in lo..<hi { c[i]._withUnsafeGuaranteedRef { $0.advance(by: seconds) } }
                        return
                    }
                    // A pipeline three clocks deep: while clock i advances, clock i + 1's
                    // lines are asked for, clock i + 2's plan list (which that asking reads:
                    // asked for just before, it was waited for) and clock i + 3's object
                    // (which holds the plan). A clock asks for the part of its plan its hint names.
                    // The first clocks' objects and lists first.
                    for k in lo..<(lo + 3) { PrefetchPlan.prefetch(address: c[k].toOpaque()) }
                    for k in lo..<(lo + 2) { c[k]._withUnsafeGuaranteedRef { $0.plan.prefetchList($0.prefetchPart) } }
                    c[lo]._withUnsafeGuaranteedRef { $0.plan.prefetch($0.prefetchPart) }
                    for i in lo..<hi {
                        if i + 3 < hi { PrefetchPlan.prefetch(address: c[i + 3].toOpaque()) }
                        if i + 2 < hi { c[i + 2]._withUnsafeGuaranteedRef { $0.plan.prefetchList($0.prefetchPart) } }
                        if i + 1 < hi { c[i + 1]._withUnsafeGuaranteedRef { $0.plan.prefetch($0.prefetchPart) } }
                        c[i]._withUnsafeGuaranteedRef { clock in
                            clock.advance(by: seconds)
                            let interval = clock.plansMade < AnimationClock.earlyPlans ? AnimationClock.planInterval : AnimationClock.warmPlanInterval
                            if clock.planAge >= interval { clock.makePlan() } else { clock.planAge += 1 }
                        }
                    }
                }
            }
        }
    }

    /// The part of the plan a busy frame asks for: its world's guess, but not the rest part
    /// while a view animation runs (its lines are listed with the motion part).
    @inline(__always) static func busyPart(_ next: PrefetchPlan.Part, quiet: Bool) -> PrefetchPlan.Part {
        next == .rest && !quiet ? .all : next
    }

    /// The prefetching hint (see `hint`).
    @inline(__always) var prefetchPart: PrefetchPlan.Part {
        PrefetchPlan.Part(rawValue: hint.load(ordering: .relaxed)) ?? .all
    }

    /// Lists what the next advance touches, just after an advance (when it is all cached).
    private func makePlan() {
        plan.removeAll()
        plan.add(object: self, lines: 4)
        lock.withLock { _ in
            plan.add(array: animators)
            // What an idle frame reads (each paused animator's check) first.
            for a in animators.prefix(4) { a.animator?.addIdleLines(to: &plan) }
            plan.markIdlePrefix()
            // What every stepping frame reads, then what only a frame at rest adds (and one
            // with contacts), then what a frame without contacts adds.
            for a in animators.prefix(4) { a.animator?.addSharedLines(to: &plan) }
            plan.markSharedPrefix()
            for a in animators.prefix(4) { a.animator?.addRestLines(to: &plan) }
            plan.markRestPrefix()
            for a in animators.prefix(4) { a.animator?.addMotionLines(to: &plan) }
            plan.add(array: runs)
            for r in runs.prefix(4) { plan.add(object: r, lines: 3) }
            plan.add(array: runScratch, maxLines: 1)  // (nothing while it never held a run)
            plan.add(array: events, maxLines: 1)      // (written while a run advances)
            plan.markMotionPrefix()
            for a in animators.prefix(4) { a.animator?.addContactLines(to: &plan) }
        }
        planAge = 0
        if plansMade < Self.earlyPlans { plansMade += 1 }
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

    /// True when no animator on the clock is running and no view animation is left.
    public var isIdle: Bool {
        lock.withLock { _ in runs.isEmpty && !animators.contains { $0.animator?.isRunning == true } }
    }

    /// Number of view animations committed on this clock that have not ended.
    public var runningViewAnimationCount: Int {
        lock.withLock { _ in runs.count }
    }

    func register(_ animator: DynamicAnimator) {
        lock.withLock { _ in
            animators.append(WeakAnimator(animator: animator))
            removeDeadAnimators()
        }
    }

    func unregister(_ animator: DynamicAnimator) {
        lock.withLock { _ in
            animators.removeAll { $0.animator === animator }
            removeDeadAnimators()
        }
    }

    /// Drops the animators that were freed and sets `soleAnimator` (under the lock).
    private func removeDeadAnimators() {
        animators.removeAll { $0.animator == nil }
        soleAnimator = animators.count == 1 ? animators[0].animator : nil
    }

    func add(_ run: ViewAnimationRun) {
        lock.withLock { _ in
            runs.append(run)
            runCount.store(runs.count, ordering: .releasing)
        }
        busy()
    }

    /// Something on the clock will move next frame (an animator resumed, an animation was
    /// added): the next prefetch asks for the whole plan.
    func busy() { hint.store(PrefetchPlan.Part.all.rawValue, ordering: .relaxed) }
}
