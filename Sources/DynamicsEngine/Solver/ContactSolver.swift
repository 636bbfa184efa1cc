/// One solver point of a contact constraint.
@usableFromInline
struct ConstraintPoint {
    /// Anchors from the centres of mass at the start of the step (world frame).
    var anchorA = Vec2.zero
    var anchorB = Vec2.zero
    /// Separation at the start of the step minus the anchors' normal offset.
    var adjustedSeparation: Float = 0
    var relativeVelocity: Float = 0
    var normalImpulse: Float = 0
    var tangentImpulse: Float = 0
    var maxNormalImpulse: Float = 0
    var normalMass: Float = 0
    var tangentMass: Float = 0
}

/// A contact prepared for the solver. Bodies are slots; only dynamic bodies are written.
@usableFromInline
struct ContactConstraint {
    var bodyA: Int32 = 0
    var bodyB: Int32 = 0
    var contact: Int32 = 0
    var pointCount: Int32 = 0
    var writeA = false
    var writeB = false
    var normal = Vec2.zero
    var friction: Float = 0
    var restitution: Float = 0
    var invMassA: Float = 0
    var invIA: Float = 0
    var invMassB: Float = 0
    var invIB: Float = 0
    var softness = Softness.rigid
    /// 2-point manifolds: the normal rows' 2×2 effective-mass matrix K and its inverse,
    /// for the block solve (both points at once). `useBlock` is false when K is ill-conditioned.
    var useBlock = false
    var k11: Float = 0
    var k12: Float = 0
    var k22: Float = 0
    var invK = SIMD4<Float>()
    var p0 = ConstraintPoint()
    var p1 = ConstraintPoint()
}

/// Contact solving over a list of constraints, following the soft-step scheme: per sub-step
/// warm start → solve with bias → integrate positions → relax without bias; restitution and
/// impulse storage once per step. All functions take raw buffers: no ARC, no bounds checks
/// in the inner loops, no allocation.
enum ContactSolver {
    @inline(__always)
    static func prepare(_ c: inout ContactConstraint, contact: Contact, sims: UnsafePointer<BodySim>,
                        states: UnsafePointer<BodyState>, metas: UnsafePointer<BodyMeta>,
                        soft: Softness, staticSoft: Softness) {
        let a = Int(contact.bodyA), b = Int(contact.bodyB)
        let simA = sims[a], simB = sims[b]
        c.bodyA = contact.bodyA
        c.bodyB = contact.bodyB
        c.writeA = metas[a].type == .dynamic
        c.writeB = metas[b].type == .dynamic
        c.invMassA = simA.invMass; c.invIA = simA.invInertia
        c.invMassB = simB.invMass; c.invIB = simB.invInertia
        c.softness = (c.writeA && c.writeB) ? soft : staticSoft
        let m = contact.manifold
        let n = m.normal
        c.normal = n
        c.friction = contact.friction
        c.restitution = contact.restitution
        c.pointCount = Int32(m.pointCount)
        let t = rightPerp(n)
        let vA = states[a].v, wA = states[a].w, vB = states[b].v, wB = states[b].w
        for k in 0..<m.pointCount {
            let mp = m[k]
            var cp = ConstraintPoint()
            cp.normalImpulse = mp.normalImpulse
            cp.tangentImpulse = mp.tangentImpulse
            let rA = mp.point - simA.center
            let rB = mp.point - simB.center
            cp.anchorA = rA
            cp.anchorB = rB
            cp.adjustedSeparation = mp.separation - dot(rB - rA, n)
            let rnA = cross(rA, n), rnB = cross(rB, n)
            let kN = c.invMassA + c.invMassB + c.invIA * rnA * rnA + c.invIB * rnB * rnB
            cp.normalMass = kN > 0 ? 1 / kN : 0
            let rtA = cross(rA, t), rtB = cross(rB, t)
            let kT = c.invMassA + c.invMassB + c.invIA * rtA * rtA + c.invIB * rtB * rtB
            cp.tangentMass = kT > 0 ? 1 / kT : 0
            let dv = vB + cross(wB, rB) - vA - cross(wA, rA)
            cp.relativeVelocity = dot(n, dv)
            if k == 0 { c.p0 = cp } else { c.p1 = cp }
        }
        c.useBlock = false
        if m.pointCount == 2 {
            let rn1A = cross(c.p0.anchorA, n), rn1B = cross(c.p0.anchorB, n)
            let rn2A = cross(c.p1.anchorA, n), rn2B = cross(c.p1.anchorB, n)
            let mAB = c.invMassA + c.invMassB
            let k11 = mAB + c.invIA * rn1A * rn1A + c.invIB * rn1B * rn1B
            let k22 = mAB + c.invIA * rn2A * rn2A + c.invIB * rn2B * rn2B
            let k12 = mAB + c.invIA * rn1A * rn2A + c.invIB * rn1B * rn2B
            let det = k11 * k22 - k12 * k12
            // Block-solve only when K is well conditioned (the points are not redundant).
            if k11 * k11 < 1000 * det {
                c.useBlock = true
                c.k11 = k11; c.k12 = k12; c.k22 = k22
                let inv = 1 / det
                c.invK = SIMD4(inv * k22, -inv * k12, -inv * k12, inv * k11)
            }
        }
    }

    @inline(__always)
    static func warmStart(_ c: inout ContactConstraint, _ states: UnsafeMutablePointer<BodyState>) {
        let a = Int(c.bodyA), b = Int(c.bodyB)
        var sA = states[a], sB = states[b]
        let n = c.normal, t = rightPerp(n)
        for k in 0..<Int(c.pointCount) {
            let cp = k == 0 ? c.p0 : c.p1
            let P = cp.normalImpulse * n + cp.tangentImpulse * t
            sA.w -= c.invIA * cross(cp.anchorA, P)
            sA.v -= c.invMassA * P
            sB.w += c.invIB * cross(cp.anchorB, P)
            sB.v += c.invMassB * P
        }
        if c.writeA { states[a] = sA }
        if c.writeB { states[b] = sB }
    }

    @inline(__always)
    static func solve(_ c: inout ContactConstraint, _ states: UnsafeMutablePointer<BodyState>,
                      invH: Float, maxBiasVelocity: Float, useBias: Bool) {
        let a = Int(c.bodyA), b = Int(c.bodyB)
        var sA = states[a], sB = states[b]
        let mA = c.invMassA, iA = c.invIA, mB = c.invMassB, iB = c.invIB
        let n = c.normal
        let dp = sB.dp - sA.dp
        if c.useBlock {
            solveNormalBlock(&c, &sA, &sB, invH: invH, maxBiasVelocity: maxBiasVelocity, useBias: useBias)
        } else {
            var totalNormal: Float = 0
            for k in 0..<Int(c.pointCount) {
                var cp = k == 0 ? c.p0 : c.p1
                // Current separation from the position change within the step.
                let prA = sA.dq.rotate(cp.anchorA), prB = sB.dq.rotate(cp.anchorB)
                let s = dot(dp + prB - prA, n) + cp.adjustedSeparation
                var bias: Float = 0, massScale: Float = 1, impulseScale: Float = 0
                if s > 0 {
                    bias = s * invH  // speculative: allow closing the gap this sub-step
                } else if useBias {
                    bias = max(c.softness.biasRate * s, -maxBiasVelocity)
                    massScale = c.softness.massScale
                    impulseScale = c.softness.impulseScale
                }
                let rA = cp.anchorA, rB = cp.anchorB
                let dv = sB.v + cross(sB.w, rB) - sA.v - cross(sA.w, rA)
                let vn = dot(dv, n)
                var impulse = -cp.normalMass * massScale * (vn + bias) - impulseScale * cp.normalImpulse
                let newImpulse = max(cp.normalImpulse + impulse, 0)
                impulse = newImpulse - cp.normalImpulse
                cp.normalImpulse = newImpulse
                cp.maxNormalImpulse = max(cp.maxNormalImpulse, impulse)
                totalNormal += newImpulse
                let P = impulse * n
                sA.v -= mA * P; sA.w -= iA * cross(rA, P)
                sB.v += mB * P; sB.w += iB * cross(rB, P)
                if k == 0 { c.p0 = cp } else { c.p1 = cp }
            }
        }
        // Friction (Coulomb, per point).
        let t = rightPerp(n)
        let friction = c.friction
        for k in 0..<Int(c.pointCount) {
            var cp = k == 0 ? c.p0 : c.p1
            let rA = cp.anchorA, rB = cp.anchorB
            let dv = sB.v + cross(sB.w, rB) - sA.v - cross(sA.w, rA)
            let vt = dot(dv, t)
            var impulse = -cp.tangentMass * vt
            let maxF = friction * cp.normalImpulse
            let newImpulse = clamp(cp.tangentImpulse + impulse, -maxF, maxF)
            impulse = newImpulse - cp.tangentImpulse
            cp.tangentImpulse = newImpulse
            let P = impulse * t
            sA.v -= mA * P; sA.w -= iA * cross(rA, P)
            sB.v += mB * P; sB.w += iB * cross(rB, P)
            if k == 0 { c.p0 = cp } else { c.p1 = cp }
        }
        if c.writeA { states[a] = sA }
        if c.writeB { states[b] = sB }
    }

    /// The bias, mass scale and impulse scale of one normal row at separation `s`.
    @inline(__always)
    static func normalRow(_ s: Float, _ soft: Softness, invH: Float, maxBiasVelocity: Float, useBias: Bool)
        -> (bias: Float, massScale: Float, impulseScale: Float) {
        if s > 0 { return (s * invH, 1, 0) }
        if useBias { return (max(soft.biasRate * s, -maxBiasVelocity), soft.massScale, soft.impulseScale) }
        return (0, 1, 0)
    }

    /// Solves both normal rows of a 2-point manifold together (a 2×2 LCP by enumeration of
    /// the four active sets), so neither point is favoured: a flat face landing on a surface
    /// gets no spurious torque, and stacks do not sway. The soft-constraint terms enter as
    /// in the single-row update, with each row's leak measured against its own mass.
    @inline(__always)
    static func solveNormalBlock(_ c: inout ContactConstraint, _ sA: inout BodyState, _ sB: inout BodyState,
                                 invH: Float, maxBiasVelocity: Float, useBias: Bool) {
        let n = c.normal
        let dp = sB.dp - sA.dp
        let r1A = c.p0.anchorA, r1B = c.p0.anchorB, r2A = c.p1.anchorA, r2B = c.p1.anchorB
        let s1 = dot(dp + sB.dq.rotate(r1B) - sA.dq.rotate(r1A), n) + c.p0.adjustedSeparation
        let s2 = dot(dp + sB.dq.rotate(r2B) - sA.dq.rotate(r2A), n) + c.p1.adjustedSeparation
        let row1 = normalRow(s1, c.softness, invH: invH, maxBiasVelocity: maxBiasVelocity, useBias: useBias)
        let row2 = normalRow(s2, c.softness, invH: invH, maxBiasVelocity: maxBiasVelocity, useBias: useBias)
        let vn1 = dot(sB.v + cross(sB.w, r1B) - sA.v - cross(sA.w, r1A), n)
        let vn2 = dot(sB.v + cross(sB.w, r2B) - sA.v - cross(sA.w, r2A), n)
        let l1 = c.p0.normalImpulse, l2 = c.p1.normalImpulse
        // Velocity targets of each row. The soft leak of each row is expressed as a velocity
        // (impulseScale · Kᵢᵢ · λᵢ) so that, at rest, each point overlaps exactly as much as it
        // would when solved alone: x = λ − K⁻¹(massScale·(vn + bias) + impulseScale·diag(K)·λ).
        let b1 = row1.massScale * (vn1 + row1.bias) + row1.impulseScale * c.k11 * l1
        let b2 = row2.massScale * (vn2 + row2.bias) + row2.impulseScale * c.k22 * l2
        let (x1, x2) = blockLCP(c, l1, l2, b1, b2)
        let d1 = x1 - l1, d2 = x2 - l2
        c.p0.normalImpulse = x1
        c.p1.normalImpulse = x2
        c.p0.maxNormalImpulse = max(c.p0.maxNormalImpulse, d1)
        c.p1.maxNormalImpulse = max(c.p1.maxNormalImpulse, d2)
        let P1 = d1 * n, P2 = d2 * n
        sA.v -= c.invMassA * (P1 + P2)
        sA.w -= c.invIA * (cross(r1A, P1) + cross(r2A, P2))
        sB.v += c.invMassB * (P1 + P2)
        sB.w += c.invIB * (cross(r1B, P1) + cross(r2B, P2))
    }

    /// Solves the 2×2 LCP: find x ≥ 0 with w = K(x − a) + b ≥ 0 and xᵢ·wᵢ = 0, by trying the
    /// active sets {1, 2}, {1}, {2}, {} in turn.
    @inline(__always)
    static func blockLCP(_ c: ContactConstraint, _ a1: Float, _ a2: Float, _ b1: Float, _ b2: Float) -> (Float, Float) {
        let inv = c.invK
        let f1 = -(inv.x * b1 + inv.z * b2), f2 = -(inv.y * b1 + inv.w * b2)
        if a1 + f1 >= 0 && a2 + f2 >= 0 { return (a1 + f1, a2 + f2) }
        let y1 = a1 + (-b1 + c.k12 * a2) / c.k11
        if y1 >= 0 && c.k12 * (y1 - a1) - c.k22 * a2 + b2 >= 0 { return (y1, 0) }
        let y2 = a2 + (-b2 + c.k12 * a1) / c.k22
        if y2 >= 0 && c.k12 * (y2 - a2) - c.k11 * a1 + b1 >= 0 { return (0, y2) }
        return (0, 0)
    }

    /// Bounces: applied once after the sub-steps to points that were approaching faster
    /// than the threshold and received an impulse.
    @inline(__always)
    static func applyRestitution(_ c: inout ContactConstraint, _ states: UnsafeMutablePointer<BodyState>, threshold: Float) {
        if c.restitution == 0 { return }
        let a = Int(c.bodyA), b = Int(c.bodyB)
        var sA = states[a], sB = states[b]
        let n = c.normal
        @inline(__always) func bounces(_ cp: ConstraintPoint) -> Bool {
            cp.relativeVelocity <= -threshold && cp.maxNormalImpulse > 0
        }
        if c.useBlock && bounces(c.p0) && bounces(c.p1) {
            // Both points bounce: solve them together so a flat impact adds no spin.
            let r1A = c.p0.anchorA, r1B = c.p0.anchorB, r2A = c.p1.anchorA, r2B = c.p1.anchorB
            let vn1 = dot(sB.v + cross(sB.w, r1B) - sA.v - cross(sA.w, r1A), n)
            let vn2 = dot(sB.v + cross(sB.w, r2B) - sA.v - cross(sA.w, r2A), n)
            let l1 = c.p0.normalImpulse, l2 = c.p1.normalImpulse
            let (x1, x2) = blockLCP(c, l1, l2, vn1 + c.restitution * c.p0.relativeVelocity,
                                    vn2 + c.restitution * c.p1.relativeVelocity)
            let d1 = x1 - l1, d2 = x2 - l2
            c.p0.normalImpulse = x1; c.p1.normalImpulse = x2
            c.p0.maxNormalImpulse = max(c.p0.maxNormalImpulse, d1)
            c.p1.maxNormalImpulse = max(c.p1.maxNormalImpulse, d2)
            let P1 = d1 * n, P2 = d2 * n
            sA.v -= c.invMassA * (P1 + P2); sA.w -= c.invIA * (cross(r1A, P1) + cross(r2A, P2))
            sB.v += c.invMassB * (P1 + P2); sB.w += c.invIB * (cross(r1B, P1) + cross(r2B, P2))
            if c.writeA { states[a] = sA }
            if c.writeB { states[b] = sB }
            return
        }
        for k in 0..<Int(c.pointCount) {
            var cp = k == 0 ? c.p0 : c.p1
            if !bounces(cp) { continue }
            let rA = cp.anchorA, rB = cp.anchorB
            let dv = sB.v + cross(sB.w, rB) - sA.v - cross(sA.w, rA)
            let vn = dot(dv, n)
            var impulse = -cp.normalMass * (vn + c.restitution * cp.relativeVelocity)
            let newImpulse = max(cp.normalImpulse + impulse, 0)
            impulse = newImpulse - cp.normalImpulse
            cp.normalImpulse = newImpulse
            cp.maxNormalImpulse = max(cp.maxNormalImpulse, impulse)
            let P = impulse * n
            sA.v -= c.invMassA * P; sA.w -= c.invIA * cross(rA, P)
            sB.v += c.invMassB * P; sB.w += c.invIB * cross(rB, P)
            if k == 0 { c.p0 = cp } else { c.p1 = cp }
        }
        if c.writeA { states[a] = sA }
        if c.writeB { states[b] = sB }
    }

    /// Writes impulses back to the contact's manifold for the next step's warm start.
    @inline(__always)
    static func store(_ c: ContactConstraint, into contact: inout Contact) {
        if contact.manifold.pointCount > 0 {
            contact.manifold.p0.normalImpulse = c.p0.normalImpulse
            contact.manifold.p0.tangentImpulse = c.p0.tangentImpulse
            contact.manifold.p0.maxNormalImpulse = c.p0.maxNormalImpulse
        }
        if contact.manifold.pointCount > 1 {
            contact.manifold.p1.normalImpulse = c.p1.normalImpulse
            contact.manifold.p1.tangentImpulse = c.p1.tangentImpulse
            contact.manifold.p1.maxNormalImpulse = c.p1.maxNormalImpulse
        }
    }
}
