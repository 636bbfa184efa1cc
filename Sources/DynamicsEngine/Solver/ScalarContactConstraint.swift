/// One solver point of a contact constraint.
@usableFromInline
struct ConstraintPoint {
    /// Anchors from the centres of mass at the start of the step (world frame).
    var anchorA = Vec2.zero, anchorB = Vec2.zero
    /// Separation at the start of the step minus the anchors' normal offset.
    var adjustedSeparation: Float = 0
    var relativeVelocity: Float = 0
    var normalImpulse: Float = 0, tangentImpulse: Float = 0
    var maxNormalImpulse: Float = 0
    var normalMass: Float = 0, tangentMass: Float = 0
}

/// A contact prepared as a scalar constraint: the contacts that find no colour (the overflow)
/// are solved this way, and the C preparation of the colour batches (`dk_prepare_batch`)
/// gives every lane exactly these numbers (tested). Bodies are slots; only dynamic bodies
/// are written.
@usableFromInline
struct ContactConstraint {
    var bodyA: Int32 = 0, bodyB: Int32 = 0
    var contact: Int32 = 0
    var pointCount: Int32 = 0
    var writeA = false, writeB = false
    var normal = Vec2.zero
    var friction: Float = 0, restitution: Float = 0
    /// Each body's inverse mass and inverse rotational inertia.
    var invMassA: Float = 0, invIA: Float = 0
    var invMassB: Float = 0, invIB: Float = 0
    var softness = Softness.rigid
    /// 2-point manifolds: the normal rows' 2×2 effective-mass matrix K and its inverse,
    /// for the block solve (both points at once). `useBlock` is false when K is ill-conditioned.
    var useBlock = false
    var k11: Float = 0, k12: Float = 0, k22: Float = 0
    var invK = SIMD4<Float>()
    var p0 = ConstraintPoint()
    var p1 = ConstraintPoint()
    /// Rolling resistance (a lever arm, `ContactData.rollingResistance`), the relative
    /// rotation's effective mass 1 / (iA + iB) and the accumulated rolling impulse.
    var rollingResistance: Float = 0, rollingMass: Float = 0, rollingImpulse: Float = 0
}

/// Contact solving over a list of constraints, following the soft-step scheme: per sub-step
/// warm start → solve with bias → integrate positions → relax without bias; restitution and
/// impulse storage once per step. All functions take views: no ARC, no bounds checks in the
/// inner loops of release builds (debug builds check every index), no allocation.
enum ContactSolver {
    @inline(__always)
    static func prepare(_ cp: inout ContactConstraint, contact: Contact, data: View<ContactData>,
                        sims: View<BodySim>, states: View<BodyState>, metas: View<BodyMeta>,
                        soft: Softness, staticSoft: Softness) {
        // Fields written in place and the manifold read where it lies (a copy of either, 208
        // and 100 bytes, would cost more than the arithmetic).
        let a = Int(contact.bodyA), b = Int(contact.bodyB), slot = Int(contact.slot)
        let invMassA = sims[a].invMass, invIA = sims[a].invInertia
        let invMassB = sims[b].invMass, invIB = sims[b].invInertia
        let centerA = sims[a].center, centerB = sims[b].center
        let writeA = metas[a].type == .dynamic, writeB = metas[b].type == .dynamic
        cp.bodyA = contact.bodyA
        cp.bodyB = contact.bodyB
        cp.writeA = writeA
        cp.writeB = writeB
        cp.invMassA = invMassA; cp.invIA = invIA
        cp.invMassB = invMassB; cp.invIB = invIB
        cp.softness = (writeA && writeB) ? soft : staticSoft
        let n = data[slot].manifold.normal
        let count = data[slot].manifold.pointCount
        cp.normal = n
        cp.friction = contact.friction
        cp.restitution = contact.restitution
        cp.pointCount = Int32(count)
        let t = rightPerp(n)
        let vA = states[a].v, wA = states[a].w, vB = states[b].v, wB = states[b].w
        @inline(__always)
        func point(_ m: ManifoldPoint, _ out: inout ConstraintPoint) {
            let rA = m.point - centerA
            let rB = m.point - centerB
            out.normalImpulse = m.normalImpulse
            out.tangentImpulse = m.tangentImpulse
            out.maxNormalImpulse = 0
            out.anchorA = rA
            out.anchorB = rB
            out.adjustedSeparation = m.separation - dot(rB - rA, n)
            let rnA = cross(rA, n), rnB = cross(rB, n)
            let kN = invMassA + invMassB + invIA * rnA * rnA + invIB * rnB * rnB
            out.normalMass = kN > 0 ? 1 / kN : 0
            let rtA = cross(rA, t), rtB = cross(rB, t)
            let kT = invMassA + invMassB + invIA * rtA * rtA + invIB * rtB * rtB
            out.tangentMass = kT > 0 ? 1 / kT : 0
            let dv = vB + cross(wB, rB) - vA - cross(wA, rA)
            out.relativeVelocity = dot(n, dv)
        }
        if count > 0 { point(data[slot].manifold.p0, &cp.p0) }
        if count > 1 { point(data[slot].manifold.p1, &cp.p1) }
        cp.rollingResistance = data[slot].rollingResistance
        cp.rollingImpulse = data[slot].rollingImpulse
        let kR = invIA + invIB
        cp.rollingMass = kR > 0 ? 1 / kR : 0
        cp.useBlock = false
        cp.k11 = 1; cp.k12 = 0; cp.k22 = 1
        if count == 2 {
            let p0 = cp.p0, p1 = cp.p1
            let rn1A = cross(p0.anchorA, n), rn1B = cross(p0.anchorB, n)
            let rn2A = cross(p1.anchorA, n), rn2B = cross(p1.anchorB, n)
            let mAB = invMassA + invMassB
            let k11 = mAB + invIA * rn1A * rn1A + invIB * rn1B * rn1B
            let k22 = mAB + invIA * rn2A * rn2A + invIB * rn2B * rn2B
            let k12 = mAB + invIA * rn1A * rn2A + invIB * rn1B * rn2B
            // K12 is also how point 1's impulse changes point 2's normal velocity.
            cp.k12 = k12
            let det = k11 * k22 - k12 * k12
            // Block-solve only when K is well conditioned (the points are not redundant).
            if k11 * k11 < 1000 * det {
                cp.useBlock = true
                cp.k11 = k11; cp.k22 = k22
                let inv = 1 / det
                cp.invK = SIMD4(inv * k22, -inv * k12, -inv * k12, inv * k11)
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

    /// Writes impulses back to the contact's data for the next step's warm start (the rolling
    /// impulse in a step with rolling resistance, `rolling`; it is 0 otherwise).
    @inline(__always)
    static func store(_ c: ContactConstraint, rolling: Bool, into data: inout ContactData) {
        if data.manifold.pointCount > 0 { data.manifold.p0.storeImpulses(normal: c.p0.normalImpulse, tangent: c.p0.tangentImpulse, maxNormal: c.p0.maxNormalImpulse) }
        if data.manifold.pointCount > 1 { data.manifold.p1.storeImpulses(normal: c.p1.normalImpulse, tangent: c.p1.tangentImpulse, maxNormal: c.p1.maxNormalImpulse) }
        if rolling { data.storeRollingImpulse(c.rollingImpulse) }
    }
}
