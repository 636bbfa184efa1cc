import DynamicsSolverKernels

/// A sub-step's body stages — velocities from gravity, forces and damping, then positions —
/// over entries of a body list: the only encoding of them, run by `SolverViews` inside an
/// island's sub-steps and by the lean solve of a world without constraints.
struct BodyIntegration {
    var sims: MutableView<BodySim>
    var states: MutableView<BodyState>
    /// Body slots; the stages take ranges of this list.
    var bodies: View<Int32>
    var h, invH: Float
    var maxLinearSpeed: Float

    /// The most a body turns in a sub-step: a quarter turn, so the linearised contacts stay valid.
    @inline(__always)
    var maxAngularSpeed: Float { 0.25 * Float.pi * invH }

    /// What a sub-step's velocity stage does to body `b` (the same every sub-step of a step):
    /// v ← linDamp · (v + dv), w ← angDamp · (w + dw). Also what `dk_lone_island` is given.
    @inline(__always)
    func velocityStage(_ b: Int) -> DKLoneBody {
        let sim = sims[b]
        let dv = h * (sim.invMass * sim.force + sim.gravity)
        return DKLoneBody(index: Int32(b), linDamp: 1 / (1 + h * sim.linearDamping), angDamp: 1 / (1 + h * sim.angularDamping),
                          dvx: dv.x, dvy: dv.y, dw: h * sim.invInertia * sim.torque)
    }

    /// The most bodies `solveInOneCall` takes (a lone batch's island has one to four; more
    /// take the stages one by one, with the same results).
    static let oneCallBodies = 4

    /// A whole step of entries `r` (at most `oneCallBodies`) and their lone batch in one call
    /// of `dk_lone_island`: `subSteps` sub-steps of the velocity stage, the batch's warm start
    /// and biased pass, the position stage and the relax pass. The bodies' stages are given as
    /// `velocityStage` computes them, so the arithmetic is that of `velocities` and
    /// `positions`, bit for bit. (For a lone body in flight the call saves nothing over
    /// `World.solveUnconstrained`'s two stages, so that stays in Swift.)
    @inline(__always)
    func solveInOneCall(_ r: Range<Int>, subSteps: Int, batch: UnsafeMutableRawPointer, lanes: Int32, maxBiasVelocity: Float,
                        soft: DKSoftness, staticSoft: DKSoftness) {
        precondition(r.count <= Self.oneCallBodies, "BodyIntegration.solveInOneCall: more than \(Self.oneCallBodies) bodies")
        var st = DKLoneStep(h: h, invH: invH, maxLinearSpeed: maxLinearSpeed, maxAngularSpeed: maxAngularSpeed,
                            maxBiasVelocity: maxBiasVelocity, soft: soft, staticSoft: staticSoft)
        let s = UnsafeMutableRawPointer(states.pointer(at: 0, count: states.count))
        withUnsafeTemporaryAllocation(of: DKLoneBody.self, capacity: Self.oneCallBodies) { list in
            var n = 0
            for k in r { list[n] = velocityStage(Int(bodies[k])); n += 1 }
            dk_lone_island(batch, lanes, s, states.count, list.baseAddress, n, subSteps, &st)
        }
    }

    /// Gravity, forces and damping for body list entries `r`.
    @inline(__always)
    func velocities(_ r: Range<Int>) {
        let states = self.states, bodies = self.bodies
        for k in r {
            let b = Int(bodies[k])
            applyVelocityStage(velocityStage(b), to: &states[b])
        }
    }

    /// One body's velocity stage (`velocityStage`), then the speed limits.
    @inline(__always)
    func applyVelocityStage(_ g: DKLoneBody, to st: inout BodyState) {
        let maxSpeedSq = maxLinearSpeed * maxLinearSpeed
        let maxAngularSpeed = self.maxAngularSpeed
        st.v = g.linDamp * (st.v + Vec2(g.dvx, g.dvy))
        st.w = g.angDamp * (st.w + g.dw)
        let sp = lengthSquared(st.v)
        if sp > maxSpeedSq { st.v *= maxLinearSpeed / sp.squareRoot() }
        if abs(st.w) > maxAngularSpeed { st.w = st.w > 0 ? maxAngularSpeed : -maxAngularSpeed }
    }

    /// Position and rotation change (as deltas from the start of the step) for entries `r`.
    @inline(__always)
    func positions(_ r: Range<Int>) {
        let states = self.states, bodies = self.bodies
        for k in r { applyPositionStage(to: &states[Int(bodies[k])]) }
    }

    /// A whole step of `subSteps` sub-steps for entries `r` of bodies that nothing couples (no
    /// contact, no joint): body by body, its velocity stage (the same every sub-step) taken
    /// once and its state held in a local — the arithmetic of `velocities` and `positions`
    /// alternated, bit for bit, without re-reading the body's record every sub-step.
    @inline(__always)
    func unconstrainedSteps(_ r: Range<Int>, subSteps: Int) {
        let states = self.states, bodies = self.bodies
        for k in r {
            let b = Int(bodies[k])
            let stage = velocityStage(b)
            var st = states[b]
            for _ in 0..<subSteps {
                applyVelocityStage(stage, to: &st)
                applyPositionStage(to: &st)
            }
            states[b] = st
        }
    }

    /// One body's position stage.
    @inline(__always)
    func applyPositionStage(to st: inout BodyState) {
        st.dq = st.dq.integrated(h * st.w)
        st.dp += h * st.v
    }
}
