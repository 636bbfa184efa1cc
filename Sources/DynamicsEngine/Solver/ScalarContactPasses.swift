/// The per-iteration contact passes (warm start, solve / relax, restitution), written as
/// straight-line scalar code: `SIMD2<Float>` arithmetic compiles to shuffles on x86, and
/// these passes run eight times per step for every contact, so they use plain `Float`s held
/// in registers and touch each manifold point in place.
extension ContactSolver {
    /// Velocities of the two bodies of one constraint, as scalars.
    @usableFromInline
    struct PairVelocity {
        var vAx: Float, vAy: Float, wA: Float
        var vBx: Float, vBy: Float, wB: Float

        /// Loads (v, w) of bodies `a` and `b` as one 16-byte read each — the same width as
        /// `store`, so a read right after the previous constraint's write is forwarded from
        /// the store buffer instead of stalling.
        @inline(__always)
        init(_ states: MutableView<BodyState>, _ a: Int32, _ b: Int32) {
            let va = states.velocityLanes(Int(a)), vb = states.velocityLanes(Int(b))
            vAx = va.x; vAy = va.y; wA = va.z
            vBx = vb.x; vBy = vb.y; wB = vb.z
        }

        /// Relative velocity of B's anchor with respect to A's along (dx, dy).
        @inline(__always)
        func relative(_ p: ConstraintPoint, _ dx: Float, _ dy: Float) -> Float {
            let rvx = vBx - wB * p.anchorB.y - vAx + wA * p.anchorA.y
            let rvy = vBy + wB * p.anchorB.x - vAy - wA * p.anchorA.x
            return rvx * dx + rvy * dy
        }

        /// Applies impulse (px, py) to B at its anchor and the opposite to A.
        @inline(__always)
        mutating func apply(_ m: Masses, _ p: ConstraintPoint, _ px: Float, _ py: Float) {
            vAx -= m.mA * px; vAy -= m.mA * py
            wA -= m.iA * (p.anchorA.x * py - p.anchorA.y * px)
            vBx += m.mB * px; vBy += m.mB * py
            wB += m.iB * (p.anchorB.x * py - p.anchorB.y * px)
        }

        @inline(__always)
        func store(_ c: ContactConstraint, _ states: MutableView<BodyState>) {
            if c.writeA { states.setVelocityLanes(Int(c.bodyA), SIMD4(vAx, vAy, wA, 0)) }
            if c.writeB { states.setVelocityLanes(Int(c.bodyB), SIMD4(vBx, vBy, wB, 0)) }
        }
    }

    /// The inverse masses of a constraint's bodies, copied out so the per-point helpers can
    /// read them while a point of the constraint is being modified.
    @usableFromInline
    struct Masses {
        var mA: Float, iA: Float, mB: Float, iB: Float
        @inline(__always) init(_ c: ContactConstraint) { mA = c.invMassA; iA = c.invIA; mB = c.invMassB; iB = c.invIB }
    }

    @inline(__always)
    static func warmStart(_ c: inout ContactConstraint, _ states: MutableView<BodyState>) {
        var vel = PairVelocity(states, c.bodyA, c.bodyB)
        let ms = Masses(c)
        let nx = c.normal.x, ny = c.normal.y
        // Tangent = rightPerp(normal) = (ny, −nx).
        if c.pointCount > 0 {
            let p = c.p0
            vel.apply(ms, p, p.normalImpulse * nx + p.tangentImpulse * ny, p.normalImpulse * ny - p.tangentImpulse * nx)
        }
        if c.pointCount > 1 {
            let p = c.p1
            vel.apply(ms, p, p.normalImpulse * nx + p.tangentImpulse * ny, p.normalImpulse * ny - p.tangentImpulse * nx)
        }
        if c.rollingImpulse != 0 {
            vel.wA -= ms.iA * c.rollingImpulse
            vel.wB += ms.iB * c.rollingImpulse
        }
        vel.store(c, states)
    }

    /// A normal row's bias, mass scale and impulse scale.
    typealias Row = (bias: Float, massScale: Float, impulseScale: Float)

    /// Bias, mass scale and impulse scale of one normal row at separation `s`: speculative
    /// when apart, soft when overlapping in the biased pass, rigid in the relax pass.
    @inline(__always)
    static func normalRow(_ s: Float, _ soft: Softness, invH: Float, maxBiasVelocity: Float, useBias: Bool) -> Row {
        if s > 0 { return (s * invH, 1, 0) }
        if useBias { return (max(soft.biasRate * s, -maxBiasVelocity), soft.massScale, soft.impulseScale) }
        return (0, 1, 0)
    }

    /// Whether the two soft rows of block constraint `c` (leaking at `impulseScale`) are
    /// block-solved in the biased pass: only where the leaks, multiplied by K⁻¹, cannot
    /// overshoot — 2 · K11 · (K⁻¹)11 · impulseScale ≤ 1 (the C kernels' `soft_block`, which
    /// explains it); else the rows are solved one after the other.
    @inline(__always)
    static func softBlock(_ c: ContactConstraint, _ impulseScale: Float) -> Bool {
        2 * c.k11 * c.invK.x * impulseScale <= 1
    }

    /// One iteration: normal rows (block-solved for well-conditioned 2-point manifolds; in the
    /// biased pass only where the soft leak cannot overshoot, see `softBlock`), then — in the
    /// relax pass only, as in Box2D v3.2 — Coulomb friction per point and rolling resistance.
    @inline(__always)
    static func solve(_ c: inout ContactConstraint, _ states: MutableView<BodyState>,
                      invH: Float, maxBiasVelocity: Float, useBias: Bool) {
        var vel = PairVelocity(states, c.bodyA, c.bodyB)
        // Position deltas are written only between passes: wide reads are fine here.
        let dpA = states[Int(c.bodyA)].dp, dpB = states[Int(c.bodyB)].dp
        let dqA = states[Int(c.bodyA)].dq, dqB = states[Int(c.bodyB)].dq
        let ms = Masses(c)
        let soft = c.softness
        let nx = c.normal.x, ny = c.normal.y
        let dpx = dpB.x - dpA.x, dpy = dpB.y - dpA.y
        let qAc = dqA.c, qAs = dqA.s, qBc = dqB.c, qBs = dqB.s

        /// Current separation of a point from the bodies' motion within the step.
        @inline(__always) func separation(_ p: ConstraintPoint) -> Float {
            let dx = dpx + (qBc * p.anchorB.x - qBs * p.anchorB.y) - (qAc * p.anchorA.x - qAs * p.anchorA.y)
            let dy = dpy + (qBs * p.anchorB.x + qBc * p.anchorB.y) - (qAs * p.anchorA.x + qAc * p.anchorA.y)
            return dx * nx + dy * ny + p.adjustedSeparation
        }

        @inline(__always) func solveNormal(_ p: inout ConstraintPoint) {
            let row = normalRow(separation(p), soft, invH: invH, maxBiasVelocity: maxBiasVelocity, useBias: useBias)
            let vn = vel.relative(p, nx, ny)
            let impulse = -p.normalMass * row.massScale * (vn + row.bias) - row.impulseScale * p.normalImpulse
            let newImpulse = max(p.normalImpulse + impulse, 0)
            let applied = newImpulse - p.normalImpulse
            p.normalImpulse = newImpulse
            p.maxNormalImpulse = max(p.maxNormalImpulse, applied)
            vel.apply(ms, p, applied * nx, applied * ny)
        }

        var blockRows: (Row, Row)?
        if c.useBlock {
            let row1 = normalRow(separation(c.p0), c.softness, invH: invH, maxBiasVelocity: maxBiasVelocity, useBias: useBias)
            let row2 = normalRow(separation(c.p1), c.softness, invH: invH, maxBiasVelocity: maxBiasVelocity, useBias: useBias)
            if !useBias || softBlock(c, max(row1.impulseScale, row2.impulseScale)) { blockRows = (row1, row2) }
        }
        if let (row1, row2) = blockRows {
            // Both rows together (see `blockLCP`); each row's soft leak is a velocity
            // impulseScale · Kᵢᵢ · λᵢ so a resting point overlaps as much as when solved alone.
            let l1 = c.p0.normalImpulse, l2 = c.p1.normalImpulse
            let b1 = row1.massScale * (vel.relative(c.p0, nx, ny) + row1.bias) + row1.impulseScale * c.k11 * l1
            let b2 = row2.massScale * (vel.relative(c.p1, nx, ny) + row2.bias) + row2.impulseScale * c.k22 * l2
            let (x1, x2) = blockLCP(c, l1, l2, b1, b2)
            let d1 = x1 - l1, d2 = x2 - l2
            c.p0.normalImpulse = x1
            c.p1.normalImpulse = x2
            c.p0.maxNormalImpulse = max(c.p0.maxNormalImpulse, d1)
            c.p1.maxNormalImpulse = max(c.p1.maxNormalImpulse, d2)
            vel.apply(ms, c.p0, d1 * nx, d1 * ny)
            vel.apply(ms, c.p1, d2 * nx, d2 * ny)
        } else {
            if c.pointCount > 0 { solveNormal(&c.p0) }
            if c.pointCount > 1 { solveNormal(&c.p1) }
        }

        // Friction along the tangent (ny, −nx), bounded by μ · normal impulse.
        let tx = ny, ty = -nx
        let friction = c.friction
        @inline(__always) func solveFriction(_ p: inout ConstraintPoint) {
            let vt = vel.relative(p, tx, ty)
            let maxF = friction * p.normalImpulse
            let newImpulse = clamp(p.tangentImpulse - p.tangentMass * vt, -maxF, maxF)
            let applied = newImpulse - p.tangentImpulse
            p.tangentImpulse = newImpulse
            vel.apply(ms, p, applied * tx, applied * ty)
        }
        if !useBias {
            if c.pointCount > 0 { solveFriction(&c.p0) }
            if c.pointCount > 1 { solveFriction(&c.p1) }
            if c.rollingResistance > 0 { solveRolling(&c, &vel, ms) }
        }
        vel.store(c, states)
    }

    /// Rolling resistance, in the relax pass after friction (where the colour batches take it
    /// too, `WideContact.rolling`): the impulse that stops the bodies' relative turning, its
    /// accumulated total kept within ± resistance × the contact's normal impulse (the
    /// resistance is a lever arm, so that bound is a torque).
    @inline(__always)
    static func solveRolling(_ c: inout ContactConstraint, _ vel: inout PairVelocity, _ ms: Masses) {
        let normal = c.p0.normalImpulse + (c.pointCount > 1 ? c.p1.normalImpulse : 0)
        let maxImpulse = c.rollingResistance * normal
        let old = c.rollingImpulse
        c.rollingImpulse = clamp(old - c.rollingMass * (vel.wB - vel.wA), -maxImpulse, maxImpulse)
        let applied = c.rollingImpulse - old
        vel.wA -= ms.iA * applied
        vel.wB += ms.iB * applied
    }

    /// Bounces: applied once after the sub-steps to points that were approaching faster
    /// than the threshold and received an impulse. Two bouncing points are block-solved so a
    /// flat impact adds no spin.
    @inline(__always)
    static func applyRestitution(_ c: inout ContactConstraint, _ states: MutableView<BodyState>, threshold: Float) {
        if c.restitution == 0 || c.pointCount == 0 { return }
        @inline(__always) func bounces(_ p: ConstraintPoint) -> Bool {
            p.relativeVelocity <= -threshold && p.maxNormalImpulse > 0
        }
        let b0 = bounces(c.p0), b1 = c.pointCount > 1 && bounces(c.p1)
        if !b0 && !b1 { return }
        var vel = PairVelocity(states, c.bodyA, c.bodyB)
        let ms = Masses(c)
        let nx = c.normal.x, ny = c.normal.y
        let e = c.restitution
        if c.useBlock && b0 && b1 {
            let l1 = c.p0.normalImpulse, l2 = c.p1.normalImpulse
            let (x1, x2) = blockLCP(c, l1, l2, vel.relative(c.p0, nx, ny) + e * c.p0.relativeVelocity,
                                    vel.relative(c.p1, nx, ny) + e * c.p1.relativeVelocity)
            let d1 = x1 - l1, d2 = x2 - l2
            c.p0.normalImpulse = x1; c.p1.normalImpulse = x2
            c.p0.maxNormalImpulse = max(c.p0.maxNormalImpulse, d1)
            c.p1.maxNormalImpulse = max(c.p1.maxNormalImpulse, d2)
            vel.apply(ms, c.p0, d1 * nx, d1 * ny)
            vel.apply(ms, c.p1, d2 * nx, d2 * ny)
        } else {
            @inline(__always) func bounce(_ p: inout ConstraintPoint) {
                let vn = vel.relative(p, nx, ny)
                let newImpulse = max(p.normalImpulse - p.normalMass * (vn + e * p.relativeVelocity), 0)
                let applied = newImpulse - p.normalImpulse
                p.normalImpulse = newImpulse
                p.maxNormalImpulse = max(p.maxNormalImpulse, applied)
                vel.apply(ms, p, applied * nx, applied * ny)
            }
            if b0 { bounce(&c.p0) }
            if b1 { bounce(&c.p1) }
        }
        vel.store(c, states)
    }
}
