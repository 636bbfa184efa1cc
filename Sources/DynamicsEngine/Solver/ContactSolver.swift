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
    static func prepare(_ c: inout ContactConstraint, contact: Contact, manifold m: Manifold, sims: UnsafePointer<BodySim>,
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
        c.k11 = 1; c.k12 = 0; c.k22 = 1
        if m.pointCount == 2 {
            let rn1A = cross(c.p0.anchorA, n), rn1B = cross(c.p0.anchorB, n)
            let rn2A = cross(c.p1.anchorA, n), rn2B = cross(c.p1.anchorB, n)
            let mAB = c.invMassA + c.invMassB
            let k11 = mAB + c.invIA * rn1A * rn1A + c.invIB * rn1B * rn1B
            let k22 = mAB + c.invIA * rn2A * rn2A + c.invIB * rn2B * rn2B
            let k12 = mAB + c.invIA * rn1A * rn2A + c.invIB * rn1B * rn2B
            // K12 is also how point 1's impulse changes point 2's normal velocity.
            c.k12 = k12
            let det = k11 * k22 - k12 * k12
            // Block-solve only when K is well conditioned (the points are not redundant).
            if k11 * k11 < 1000 * det {
                c.useBlock = true
                c.k11 = k11; c.k22 = k22
                let inv = 1 / det
                c.invK = SIMD4(inv * k22, -inv * k12, -inv * k12, inv * k11)
            }
        }
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

    /// Writes impulses back to the contact's manifold for the next step's warm start.
    @inline(__always)
    static func store(_ c: ContactConstraint, into manifold: inout Manifold) {
        if manifold.pointCount > 0 {
            manifold.p0.normalImpulse = c.p0.normalImpulse
            manifold.p0.tangentImpulse = c.p0.tangentImpulse
            manifold.p0.maxNormalImpulse = c.p0.maxNormalImpulse
        }
        if manifold.pointCount > 1 {
            manifold.p1.normalImpulse = c.p1.normalImpulse
            manifold.p1.tangentImpulse = c.p1.tangentImpulse
            manifold.p1.maxNormalImpulse = c.p1.maxNormalImpulse
        }
    }
}
