extension World {
    /// Applies each solved body's position change, moves kinematic bodies, clears forces,
    /// updates sleep timers and puts resting islands to sleep. Returns the bodies it moved
    /// (the awake list as the step began it, valid until the list changes; nil: every slot).
    ///
    /// The islands' bodies were finalized by the solve, each island right after its own solve
    /// on the thread that solved it (`SolverViews.finalize`), while its bodies are in that
    /// core's cache; this pass does the others (kinematic bodies), when there are any, and
    /// every body after a solve that did not (`SolverScratch.finalizedInSolve`).
    @discardableResult
    func finalizeBodies(_ ctx: StepContext) -> View<Int32>? {
        // (A small world reads its few slots; a larger one its awake list.)
        let nb = Int(bodySlots.count)
        let awake = nb < IslandBuilder.listedFrom ? nil : awakeBodies()
        let inSolve = solver.finalizedInSolve
        islands.kinematicSlept.clear()
        if !inSolve || awake == nil || awake!.count > islands.islandBodies {
            let v = bodyFinalize(ctx, bodies: awake, skipsDynamic: inSolve)
            // Each body is written only by the worker owning its part of the awake list.
            Parallel.forRanges(workers: ctx.workers, count: awake?.count ?? nb, minPerWorker: options.parallelMin(512), v)
        }
        // (A kinematic body that fell asleep leaves the awake list when it is next cleaned.)
        if islands.kinematicSlept.isSet { islands.awakeMayShrink = true }
        sleepRestingIslands(ctx.metas.readOnly)
        return awake
    }

    /// The per-body finalize of `bodies` (nil: every slot) with this world's settings.
    /// `skipsDynamic`: dynamic bodies were finalized already (see `finalizeBodies`).
    func bodyFinalize(_ ctx: StepContext, bodies: View<Int32>?, skipsDynamic: Bool) -> BodyFinalize {
        BodyFinalize(ctx: ctx, bodies: bodies, linTol: settings.sleepLinearThreshold, angTol: settings.sleepAngularThreshold,
                     kinematicSleepTime: settings.isSleepEnabled ? settings.timeToSleep : .infinity,
                     maxLinearSpeed: settings.maxLinearSpeed,
                     continuous: settings.isContinuousEnabled, skipsDynamic: skipsDynamic, fastCount: continuous.fastCounter,
                     kinematicSlept: islands.kinematicSlept)
    }

    /// Puts to sleep the islands whose every body rested long enough (the end of
    /// `finalizeBodies`, and of a step at rest).
    @inline(__always)
    func sleepRestingIslands(_ metas: View<BodyMeta>) {
        islands.sleptThisStep = 0
        guard settings.isSleepEnabled else { return }
        // Islands whose every body rested long enough fall asleep together.
        for isl in 0..<islands.count where islands.canSleep[isl] != 0 {
            let b0 = Int(islands.bodyStart[isl]), b1 = Int(islands.bodyStart[isl + 1])
            var minTime = Float.infinity
            for k in b0..<b1 { minTime = min(minTime, metas[Int(islands.bodies[k])].sleepTime) }
            if minTime >= settings.timeToSleep {
                sleepIsland(islands.bodies.view.subview(b0..<b1))
                islands.sleptThisStep += 1
            }
        }
    }
}

/// The per-body part of `finalizeBodies` (bodies `r` of one worker), and of the solve's
/// (`SolverViews.finalize`).
struct BodyFinalize: RangeTask, @unchecked Sendable {
    /// Writes the bodies of its range (records, placements, states).
    unowned(unsafe) var ctx: StepContext
    /// The awake bodies (`World.awakeBodies()`): a range is of positions in this list (nil: of
    /// body slots).
    var bodies: View<Int32>?
    var linTol: Float
    var angTol: Float
    /// Resting kinematic bodies sleep alone after this long (infinity: sleeping is off).
    var kinematicSleepTime: Float
    /// `WorldSettings.maxLinearSpeed`: also enforced after the solve, where joints and
    /// contacts may have pushed a body past it (on the velocity and on the step's move), as
    /// is `World.maxAngularSpeed`.
    var maxLinearSpeed: Float
    /// Whether fast bodies are flagged for the continuous step, and how many were.
    var continuous: Bool
    /// Dynamic bodies are passed over (the solve finalized them).
    var skipsDynamic: Bool
    unowned(unsafe) var fastCount: FastCounter
    /// Raised when a kinematic body fell asleep.
    unowned(unsafe) var kinematicSlept: WorkFlag

    func run(_ r: Range<Int>, part: Int) { count(fastBodies: finalize(r)) }

    /// Adds `n` to the count of fast bodies. (A pass adds its count once: an atomic add per
    /// fast body made the workers fight over the counter's cache line.)
    @inline(__always)
    func count(fastBodies n: Int) { if n > 0 { fastCount.add(n) } }

    /// Finalizes bodies `r`; returns how many it flagged as fast.
    func finalize(_ r: Range<Int>) -> Int {
        let sims = ctx.sims, states = ctx.states, metas = ctx.metas, dt = ctx.dt
        var fastBodies = 0
        for k in r {
            let i = bodies.map { Int($0[k]) } ?? k
            guard metas[i].alive && metas[i].type != .static && metas[i].awake else { continue }
            if skipsDynamic && metas[i].type == .dynamic { continue }
            var sim = sims[i]
            var st = states[i]
            if metas[i].type == .kinematic {
                st.dp = dt * st.v
                st.dq = Rot.identity.integrated(dt * st.w)
            }
            // No body moves farther in a step than the speed limit allows: the solve's
            // sub-steps may run faster than the limit (contacts and joints act after the
            // limit is applied), and a move of 10¹⁷ pt loses the body's placement to rounding.
            let maxMove = maxLinearSpeed * dt
            let moveSq = lengthSquared(st.dp)
            if moveSq > maxMove * maxMove { st.dp *= maxMove / moveSq.squareRoot() }
            let center = sim.center + st.dp
            let qn = st.dq.mul(sim.xf.q).normalized
            // The step's start stays in center0 for the continuous step.
            sim.center0 = sim.center
            if center.isFinite && qn.c.isFinite && qn.s.isFinite && st.v.isFinite && st.w.isFinite {
                sim.center = center
                sim.xf.q = qn
                sim.xf.p = center - qn.rotate(sim.localCenter)
            } else {
                // Never let a NaN enter the world: keep the last good placement, stop the body.
                st.v = .zero; st.w = 0
            }
            // The speed limit holds after the solve too (a stiff joint can exceed it).
            let speedSq = lengthSquared(st.v)
            if speedSq > maxLinearSpeed * maxLinearSpeed { st.v *= maxLinearSpeed / speedSq.squareRoot() }
            // And so does `World.maxAngularSpeed`: a contact can spin a body of tiny inertia up
            // to 10²⁰ rad/s, where its rotation's integration loses all precision.
            if abs(st.w) > World.maxAngularSpeed { st.w = st.w > 0 ? World.maxAngularSpeed : -World.maxAngularSpeed }
            let fast = continuous && metas[i].type == .dynamic && lengthSquared(st.dp) > 0.25 * sim.coreRadius * sim.coreRadius
            if fast { fastBodies += 1 }
            metas[i].isFast = fast
            sim.force = .zero
            sim.torque = 0
            st.dp = .zero
            st.dq = .identity
            Self.advanceSleepTimer(&metas[i], body: i, v: st.v, w: st.w, maxExtent: sim.maxExtent,
                                   dt: dt, linTol: linTol, angTol: angTol, kinematicSleepTime: kinematicSleepTime)
            if !metas[i].awake { kinematicSlept.set() }
            sims[i] = sim
            states[i] = st
        }
        return fastBodies
    }

    /// A body's sleep timer after a step that left it moving at (`v`, `w`): advanced by `dt`
    /// when it rests (`rests`), else reset. A kinematic body that rested long enough falls
    /// asleep on its own (it is in no island). Shared by `finalize` and the step at rest.
    @inline(__always)
    static func advanceSleepTimer(_ meta: inout BodyMeta, body i: Int, v: Vec2, w: Float, maxExtent: Float,
                                  dt: Float, linTol: Float, angTol: Float, kinematicSleepTime: Float) {
        if rests(meta, v: v, w: w, maxExtent: maxExtent, linTol: linTol, angTol: angTol) {
            meta.sleepTime += dt
        } else {
            meta.sleepTime = 0
        }
        if meta.type == .kinematic && meta.sleepTime >= kinematicSleepTime {
            meta.awake = false
            meta.sleepNext = Int32(i)
        }
    }

    /// Whether a body moving at (`v`, `w`) rests this step: it may sleep, and moves no faster
    /// than the world's limits (`linTol`, `angTol`) and its own threshold
    /// (`BodyDef.sleepThreshold`) — the speed of its fastest point, |v| + |w| · `maxExtent`
    /// (velocities only, as Box2D v3 decides; counting the step's move as well left the
    /// pyramids' times to rest alone, made pile 4 000's 0.5 s shorter and mix 10 000's
    /// 15 s → 25 s).
    @inline(__always)
    static func rests(_ meta: BodyMeta, v: Vec2, w: Float, maxExtent: Float, linTol: Float, angTol: Float) -> Bool {
        let speedSq = lengthSquared(v), threshold = meta.sleepThreshold
        // The cheap tests first (a moving body fails one): the square roots only for a body
        // slow enough to be resting.
        var rests = meta.allowSleep && speedSq <= linTol * linTol && abs(w) <= angTol && speedSq <= threshold * threshold
        if rests && threshold.isFinite {
            rests = speedSq.squareRoot() + abs(w) * maxExtent <= threshold
        }
        return rests
    }
}

extension Rot {
    /// The rotation scaled back to unit length.
    @inlinable var normalized: Rot {
        let m = (c * c + s * s).squareRoot()
        return m > 0 ? Rot(c: c / m, s: s / m) : .identity
    }
}
