#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small world at an exact rest point: a step that took the world from one state to the
/// same state, bit for bit, will do so again while nothing changes it — the step is a
/// function of that state, the step length, the settings and gravity. A resting menu spends
/// a good part of its awake ticks there (its body pressed against a line, the solve
/// reproducing its own output) before it falls asleep.
///
/// After a step of a small world (at most `restBodyLimit` bodies, no joints) that left every
/// awake body standing still (zero velocities), the world keeps a copy of what the next step
/// reads: the bodies' placements, velocities and records, the contacts with their manifolds
/// and warm-start impulses, the fat boxes. When a step ends where the copy says the step
/// before ended, and the next step starts from the same state (compared again when a call
/// changed the world between the steps — `stateGeneration` counts them — so the change is
/// seen; with no call since, the world still holds that state and is not compared), with the
/// same step length, settings and gravity, the next step only advances what a step at rest
/// still changes — the sleep timers, the islands falling asleep, the step and hit counts —
/// and the world is exactly where the full step would have left it.
///
/// Debug builds take the full step instead (unless a test sets `takesStepsInDebug`) and
/// assert that it ended exactly where the copy said, so the whole test suite checks that the
/// copy holds everything a step reads. (A settled world — `World.settleDistance` — is not at
/// an exact rest point, so debug builds take its steps at rest too.) Sleep timers are not
/// part of the state compared (they advance every step at rest); a body record is compared
/// without its timer.
final class RestState {
    // (The counts and flags first, in the object's first line: a step at rest reads them and
    // not the copy's columns, which only a full step that records or compares reads.)
    /// Counts changes to `World.settings` (a step at rest compares it instead of the whole
    /// settings).
    @exclusivity(unchecked) var settingsGeneration = 0
    /// Counts the calls from outside a step that may have changed what a step reads: every
    /// public method or property that changes the world calls `World.stateChanged()`. A small
    /// world at an exact rest point that no call changed since its last step skips comparing
    /// itself with its rest copy (debug builds compare anyway and check they agree).
    @exclusivity(unchecked) var stateGeneration: UInt64 = 0
    /// The columns hold the state the last step ended in (taken only when every awake body
    /// stood still).
    @exclusivity(unchecked) var full = false
    /// ... and the step before ended in the same state (or, `settled`, within the world's
    /// settle distance of it).
    @exclusivity(unchecked) var atRest = false
    /// The copy is a settled state (`World.settleDistance`), not an exact rest point: a full
    /// step from it would still creep, so debug builds take the step at rest too.
    @exclusivity(unchecked) var settled = false
    /// Lets a debug build take steps at rest too (tests compare such a world with one that
    /// takes every step in full).
    @exclusivity(unchecked) var takesStepsInDebug = false
    /// The last step's length, settings generation and gravity.
    @exclusivity(unchecked) var dt: Float = 0
    @exclusivity(unchecked) var copiedSettingsGeneration = -1
    @exclusivity(unchecked) var gravity = Vec2.zero
    /// Continuous-step hits of the last step (a step at rest makes the same ones).
    @exclusivity(unchecked) var hits = 0
    /// `World.settleDistance`.
    @exclusivity(unchecked) var settleDistance: Float = 0
    /// `stateGeneration` when the last step ended: while it is the same, no call has changed
    /// the world since, and the world still holds the state that step ended in.
    @exclusivity(unchecked) var copiedStateGeneration: UInt64 = .max
    /// Steps at rest whose sleep-timer advance is not yet written into the body records. From
    /// an exact rest point each step adds the step length to the timer of every body that
    /// rests (and leaves the others' at zero), so a step at rest in which nothing can fall
    /// asleep only counts itself; the timers are written when something reads them — the next
    /// step at rest that may put something to sleep, a full step, a snapshot, a call that
    /// changes the world (`World.writeRestTimers`, `World.endQuietRestSteps`).
    @exclusivity(unchecked) var pendingTimerSteps = 0
    /// How many of the coming steps at rest may only count: none of them can put an island or
    /// a kinematic body to sleep (`World.planQuietRestSteps`).
    @exclusivity(unchecked) var quietSteps = 0
    /// The body slots whose timers the counted steps advance (bit i: slot i).
    @exclusivity(unchecked) var restingSlots: UInt64 = 0
    /// `stateGeneration` when the last step ended with every body asleep and nothing pending
    /// (no structural change, no event to report), else `.max`. While it equals
    /// `stateGeneration`, no call has changed the world since: a step would change nothing
    /// (the broad phase, the narrow phase, the solver and the sleep timers only look at awake
    /// bodies and their contacts), so it does nothing (`World.stepAsleep`).
    @exclusivity(unchecked) var asleepGeneration: UInt64 = .max
    // The copy of the state the last step ended in.
    let sims = Column<BodySim>()
    let states = Column<BodyState>()
    let metas = Column<BodyMeta>()
    let contacts = Column<Contact>()
    let data = Column<ContactData>()
    let fatBoxes = Column<AABB>()
}

extension World {
    /// Worlds of at most this many bodies (and no joints) look for exact rest.
    static let restBodyLimit = 8

    /// Settling (0, the default: off). A small world whose awake bodies all stood still
    /// (zero velocities) at the end of two consecutive steps, and moved by at most this
    /// distance (pt, at any point of a body: its centre's move plus its turn times its
    /// extent) between them, stops where it is: it takes steps at rest from then on, as at an
    /// exact rest point — the sleep timers advance as a full step would advance them, so the
    /// world falls asleep at the same step, and any call that changes it ends the rest steps.
    ///
    /// What it saves: a body pressed against static geometry by a steady force stands still
    /// after every step (the relax pass cancels its velocity) while the soft contact still
    /// pushes it, by a shrinking amount each step, toward the overlap where push and force
    /// balance; it reaches that point, bit for bit, only after many full steps. With settling
    /// it stops short of it by about six times the last step's move (the push shrinks by
    /// ~13 % a step at the default contact stiffness) — for the animators' 0.01 pt, within
    /// about 0.07 pt. Only velocities of exactly zero count (a box pushed straight against a
    /// flat wall); one that landed turned keeps ~1e-5 pt/s and sleeps without settling.
    /// Package-internal: `DynamicAnimator` turns it on for its world (a view's
    /// frame cannot show a hundredth of a point); an engine world keeps exact physics, and
    /// snapshots do not record it (an animator's world is never snapshotted).
    package var settleDistance: Float {
        get { rest.settleDistance }
        set {
            precondition(newValue.isFinite && newValue >= 0, "World.settleDistance must be finite and not negative (got \(newValue))")
            stateChanged()
            rest.settleDistance = newValue
        }
    }

    /// Lets a debug build take the shortcut steps a release build takes — the steps of a world
    /// asleep (`World.isAsleep`) and steps at rest — instead of full steps checked against
    /// them (`RestState.takesStepsInDebug`). Package-internal: the engine fuzzer's sleep-heavy
    /// worlds turn it on so that `swift test` runs the shortcuts, and compare those worlds with
    /// a twin that takes every step in full. Changes no result, so it is not a state change.
    package var takesShortcutStepsInDebug: Bool {
        get { rest.takesStepsInDebug }
        set { rest.takesStepsInDebug = newValue }
    }

    /// Steps that did nothing because the world was asleep (`StepCounters.asleepSteps`), for
    /// the fuzzer's report of how often that shortcut ran. Package-internal, like the counter.
    /// `StepOptions.minWorkForParallel`: the engine fuzzer lowers it so that its crowd worlds
    /// of about 1 100 bodies split their steps over the workers as a big world does.
    package var minimumParallelWork: Int {
        get { options.minWorkForParallel }
        set { options.minWorkForParallel = newValue }
    }

    package var asleepStepCount: Int { counters.asleepSteps }

    /// Whether this step can be a step at rest (see `RestState`).
    @inline(__always)
    func canStepAtRest(dt: Float) -> Bool {
        rest.atRest && restStateHolds(dt: dt)
    }

    private func restStateHolds(dt: Float) -> Bool {
        guard restEligible, dt == rest.dt, gravity == rest.gravity,
              rest.settingsGeneration == rest.copiedSettingsGeneration else { return false }
        // Nothing changed the world since the last step, which ended at this rest point (it
        // compared or copied): the world holds the copy's state without comparing it.
        if rest.stateGeneration == rest.copiedStateGeneration {
            assert(restSnapshotMatches(bitwise: false),
                   "a call changed a world at rest without stateChanged(): the step at rest would miss the change")
            return true
        }
        counters.restComparisons += 1
        return restSnapshotMatches(bitwise: true)
    }

    /// Small, no joints, nothing structural pending (a structural change always takes a full step).
    private var restEligible: Bool {
        bodyCount <= Self.restBodyLimit && jointCount == 0 && !broadPhase.dirty && !broadPhase.shapesChanged && !broadPhase.staticDirty && !islands.dirty
            && !contacts.hasPendingEvents
    }

    /// A step at rest: what a full step would change from an exact rest point — the sleep
    /// timers (as `BodyFinalize` advances them), the islands that fall asleep, the hit count.
    /// A step in which nothing can fall asleep only counts itself: its timer advance is
    /// written later (`RestState.pendingTimerSteps`), so it reads no body record.
    func stepAtRest(dt: Float) {
        counters.continuousHits += rest.hits
        counters.restSteps += 1
        if rest.quietSteps > 0 {
            rest.quietSteps -= 1
            rest.pendingTimerSteps += 1
            return
        }
        writeRestTimers()
        let linTol = settings.sleepLinearThreshold, angTol = settings.sleepAngularThreshold
        let kinematicSleepTime = settings.isSleepEnabled ? settings.timeToSleep : .infinity
        let me = metas.mutableView, st = states.view, si = sims.view
        var kinematicSlept = false
        for i in 0..<Int(bodySlots.count) where me[i].alive && me[i].type != .static && me[i].awake {
            BodyFinalize.advanceSleepTimer(&me[i], body: i, v: st[i].v, w: st[i].w, maxExtent: si[i].maxExtent,
                                           dt: dt, linTol: linTol, angTol: angTol, kinematicSleepTime: kinematicSleepTime)
            // (Only a kinematic body falls asleep alone, there.)
            if !me[i].awake { kinematicSlept = true }
        }
        if kinematicSlept { islands.awakeMayShrink = true }
        sleepRestingIslands(metas.view)
        if islands.setsPending || islands.sleptThisStep > 0 { settleSleepingSets(retiring: islands.sleptThisStep > 0) }
        // Whatever fell asleep — an island, or a kinematic body alone — changed the state: the
        // next step compares afresh (or, when every body now sleeps, does nothing).
        if islands.dirty || kinematicSlept {
            rest.atRest = false; rest.full = false; rest.settled = false
        } else {
            planQuietRestSteps(dt: dt)
        }
        recordAsleep()
    }

    /// The most steps at rest counted before the timers are written (a bound on what writing
    /// them costs, and on how far ahead `planQuietRestSteps` looks).
    static let quietStepLimit = 64

    /// After a step at rest in which nothing fell asleep: how many of the next steps at rest
    /// only advance the timers. At the rest point each body's velocities stay what they are,
    /// so each body either rests every step (its timer grows by `dt`) or none (its timer stays
    /// zero); the first step that can put something to sleep is the first in which every body
    /// of a sleepy island has reached `timeToSleep`, or a kinematic body its sleep time —
    /// found by adding `dt` as the steps would, so the count is exact. A world of more than 64
    /// body slots plans none; with nothing that can fall asleep, the plan is the limit.
    func planQuietRestSteps(dt: Float) {
        rest.quietSteps = 0
        let n = Int(bodySlots.count)
        guard n <= 64 else { return }
        let linTol = settings.sleepLinearThreshold, angTol = settings.sleepAngularThreshold
        let sleeps = settings.isSleepEnabled, timeToSleep = settings.timeToSleep
        let limit = Self.quietStepLimit
        let me = metas.view, st = states.view, si = sims.view
        var resting: UInt64 = 0
        for i in 0..<n where me[i].alive && me[i].type != .static && me[i].awake
            && BodyFinalize.rests(me[i], v: st[i].v, w: st[i].w, maxExtent: si[i].maxExtent, linTol: linTol, angTol: angTol) {
            resting |= 1 << UInt64(i)
        }
        /// The first coming step (1, 2, …) after which body `i`'s timer is at least `time`;
        /// `limit` + 1 when none within the limit.
        func firstStep(_ i: Int, reaching time: Float) -> Int {
            var t = me[i].sleepTime
            if resting & (1 << UInt64(i)) == 0 { return 0 >= time ? 1 : limit + 1 }
            for k in 1...limit {
                t += dt
                if t >= time { return k }
            }
            return limit + 1
        }
        var first = limit + 1
        if sleeps {
            for isl in 0..<islands.count where islands.canSleep[isl] != 0 {
                var islandFirst = 1
                for k in Int(islands.bodyStart[isl])..<Int(islands.bodyStart[isl + 1]) {
                    islandFirst = max(islandFirst, firstStep(Int(islands.bodies[k]), reaching: timeToSleep))
                }
                first = min(first, islandFirst)
            }
            for i in 0..<n where me[i].alive && me[i].type == .kinematic && me[i].awake {
                first = min(first, firstStep(i, reaching: timeToSleep))
            }
        }
        rest.restingSlots = resting
        rest.quietSteps = first - 1
    }

    /// Before a change or a full step: the counted timers written, and the plan of quiet steps
    /// dropped (the next step at rest looks afresh).
    func endQuietRestSteps() {
        writeRestTimers()
        rest.quietSteps = 0
    }

    /// Writes the timer advance of the steps at rest that only counted themselves
    /// (`RestState.pendingTimerSteps`) into the body records, as those steps would have. (The
    /// plan of quiet steps still holds: writing the timers changes nothing a step reads.)
    func writeRestTimers() {
        let steps = rest.pendingTimerSteps
        guard steps > 0 else { return }
        rest.pendingTimerSteps = 0
        let dt = rest.dt
        let me = metas.mutableView
        var slots = rest.restingSlots
        while slots != 0 {
            let i = slots.trailingZeroBitCount
            slots &= slots - 1
            var t = me[i].sleepTime
            for _ in 0..<steps { t += dt }
            me[i].sleepTime = t
        }
    }

    /// Whether a kinematic body fell asleep (alone, as `BodyFinalize.advanceSleepTimer` puts
    /// it to sleep) since the rest copy was taken: a change a step at rest makes too, like an
    /// island falling asleep (the debug check after a full step from a rest point).
    func kinematicSleptSinceRestCopy() -> Bool {
        let m = metas.view, rm = rest.metas.view
        guard m.count == rm.count else { return true }
        for i in 0..<m.count where m[i].alive && m[i].type == .kinematic && !m[i].awake && rm[i].awake { return true }
        return false
    }

    /// After a full step: whether it ended where the last one did, and the copy for the next.
    /// (Cheap while anything moves: only a world whose awake bodies all stand still — zero
    /// velocities — is compared and copied.)
    @inline(__always)
    func recordRest(_ ctx: StepContext, hits: Int) {
        let dt = ctx.dt
        if bodyCount <= Self.restBodyLimit && jointCount == 0 && Self.standsStill(ctx.states.readOnly, ctx.metas.readOnly) {
            recordStillState(dt: dt, hits: hits)
        } else if rest.full {
            rest.full = false; rest.atRest = false; rest.settled = false
        }
    }

    private func recordStillState(dt: Float, hits: Int) {
        let sameStep = rest.full && dt == rest.dt && gravity == rest.gravity
            && rest.settingsGeneration == rest.copiedSettingsGeneration && hits == rest.hits
        let same = sameStep && restSnapshotMatches(bitwise: true)
        // Not the same state, but settled: the copy below becomes the rest point.
        let settles = !same && sameStep && rest.settleDistance > 0 && movedWithinSettleDistance()
        rest.atRest = same || settles
        rest.settled = settles || (same && rest.settled)
        if !same {
            // (From views, and into the copy's columns through one local reference: a column
            // passed as an argument is retained and released, six pairs a call.)
            let r = rest
            r.states.assign(from: states.view); r.sims.assign(from: sims.view); r.metas.assign(from: metas.view)
            r.contacts.assign(from: contacts.view); r.data.assign(from: contacts.data.view); r.fatBoxes.assign(from: broadPhase.fatBoxes.view)
            rest.full = true
            rest.dt = dt; rest.gravity = gravity; rest.copiedSettingsGeneration = rest.settingsGeneration; rest.hits = hits
        }
        // (The last thing a step does: the world now holds the copy's state.)
        rest.copiedStateGeneration = rest.stateGeneration
    }

    /// Whether every awake body moved by at most `settleDistance` since the copy (which holds
    /// the last step's end, when every awake body stood still too), with the same bodies and
    /// the same number of contacts.
    private func movedWithinSettleDistance() -> Bool {
        let r = rest
        let me = metas.view, rm = r.metas.view, sv = sims.view, rs = r.sims.view
        guard me.count == rm.count, sv.count == rs.count, contacts.count == r.contacts.count else { return false }
        let limit = r.settleDistance
        for i in 0..<me.count {
            let m = me[i], old = rm[i]
            guard m.alive == old.alive, m.type == old.type, m.awake == old.awake else { return false }
            guard m.alive && m.awake && m.type != .static else { continue }
            let a = sv[i], b = rs[i]
            let d = a.center - b.center
            // |sin| of the turn between the two rotations, times the body's reach.
            let turn = abs(a.xf.q.s * b.xf.q.c - a.xf.q.c * b.xf.q.s)
            let moved = (d.x * d.x + d.y * d.y).squareRoot() + turn * a.maxExtent
            if !(moved <= limit) { return false }
        }
        return true
    }

    /// Every awake body has zero velocity. (The step context's views: the column objects are
    /// more cache lines for a small world's step to fetch.)
    @inline(__always)
    private static func standsStill(_ st: View<BodyState>, _ me: View<BodyMeta>) -> Bool {
        for i in 0..<st.count where me[i].awake && me[i].alive && me[i].type != .static {
            if st[i].v != .zero || st[i].w != 0 { return false }
        }
        return true
    }

    /// Whether the world holds the copied state: byte for byte (`bitwise`, the test a skip
    /// relies on: equal bytes are equal values; padding that differs only costs a skip), or
    /// value for value (the debug check after a full step, where rewritten padding may differ).
    /// Body records are compared without their sleep timers.
    func restSnapshotMatches(bitwise: Bool) -> Bool {
        guard rest.full else { return false }
        // (Views, not the columns: passing a column to a function retains and releases it.)
        @inline(__always) func same<T: Equatable>(_ a: View<T>, _ b: View<T>) -> Bool {
            bitwise ? Self.sameBytes(a, b) : a.elementsEqual(b)
        }
        let r = rest
        guard same(states.view, r.states.view), same(sims.view, r.sims.view), same(contacts.view, r.contacts.view),
              same(contacts.data.view, r.data.view), same(broadPhase.fatBoxes.view, r.fatBoxes.view),
              metas.count == r.metas.count else { return false }
        let m = metas.view, rm = r.metas.view
        if bitwise {
            // The records' bytes before and after the sleep timer.
            let timer = MemoryLayout<BodyMeta>.offset(of: \BodyMeta.sleepTime)!, after = timer + MemoryLayout<Float>.size
            let stride = MemoryLayout<BodyMeta>.stride
            for i in 0..<m.count {
                let a = UnsafeRawPointer(m.pointer(at: i)), b = UnsafeRawPointer(rm.pointer(at: i))
                if memcmp(a, b, timer) != 0 || memcmp(a + after, b + after, stride - after) != 0 { return false }
            }
            return true
        }
        for i in 0..<m.count {
            var a = m[i], b = rm[i]
            a.sleepTime = 0; b.sleepTime = 0
            if a != b { return false }
        }
        return true
    }

    @inline(__always)
    private static func sameBytes<T>(_ a: View<T>, _ b: View<T>) -> Bool {
        guard a.count == b.count else { return false }
        return a.count == 0 || memcmp(a.pointer(at: 0, count: a.count), b.pointer(at: 0, count: b.count),
                                      a.count * MemoryLayout<T>.stride) == 0
    }
}
