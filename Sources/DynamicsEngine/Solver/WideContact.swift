/// Four contact constraints of one graph colour, stored lane-wise (structure of arrays) so one
/// SSE instruction works on all four. Within a colour no dynamic body appears twice, so the
/// four lanes can be gathered, solved and scattered independently.
///
/// Point 2 of a one-point constraint has zero masses and impulses, so it contributes nothing;
/// padding lanes use a static body and zero masses.
@usableFromInline
struct WideContact {
    typealias F = SIMD4<Float>
    typealias Mask = SIMDMask<SIMD4<Int32>>

    var bodyA = SIMD4<Int32>(repeating: 0)
    var bodyB = SIMD4<Int32>(repeating: 0)
    /// Index of each lane's scalar constraint, or -1 for padding.
    var index = SIMD4<Int32>(repeating: -1)
    var writeA = Mask(repeating: false)
    var writeB = Mask(repeating: false)
    /// Lanes whose two normal rows are block-solved.
    var block = Mask(repeating: false)
    var nx = F(), ny = F()
    var friction = F()
    var mA = F(), iA = F(), mB = F(), iB = F()
    var biasRate = F(), massScale = F(), impulseScale = F()
    var k11 = F(repeating: 1), k12 = F(), k22 = F(repeating: 1)
    var i11 = F(), i12 = F(), i22 = F()
    // Point 1: anchors (for the separation), their cross products with the normal and the
    // tangent (for velocities and impulses), soft-constraint data and accumulated impulses.
    var rA1x = F(), rA1y = F(), rB1x = F(), rB1y = F()
    var rn1A = F(), rn1B = F(), rt1A = F(), rt1B = F()
    var adj1 = F(), nm1 = F(), tm1 = F()
    var ln1 = F(), lt1 = F(), mx1 = F()
    // Point 2.
    var rA2x = F(), rA2y = F(), rB2x = F(), rB2y = F()
    var rn2A = F(), rn2B = F(), rt2A = F(), rt2B = F()
    var adj2 = F(), nm2 = F(), tm2 = F()
    var ln2 = F(), lt2 = F(), mx2 = F()

    /// Sets lane `l` from a prepared scalar constraint.
    /// (`c` is passed `inout` only to avoid copying the 200-byte constraint; it is not changed.)
    mutating func load(lane l: Int, from c: inout ContactConstraint, index: Int32) {
        bodyA[l] = c.bodyA; bodyB[l] = c.bodyB; self.index[l] = index
        writeA[l] = c.writeA; writeB[l] = c.writeB
        block[l] = c.useBlock
        nx[l] = c.normal.x; ny[l] = c.normal.y
        friction[l] = c.friction
        mA[l] = c.invMassA; iA[l] = c.invIA; mB[l] = c.invMassB; iB[l] = c.invIB
        biasRate[l] = c.softness.biasRate; massScale[l] = c.softness.massScale; impulseScale[l] = c.softness.impulseScale
        k11[l] = c.useBlock ? c.k11 : 1; k12[l] = c.k12; k22[l] = c.useBlock ? c.k22 : 1
        i11[l] = c.invK.x; i12[l] = c.invK.y; i22[l] = c.invK.w
        let n = c.normal, t = rightPerp(c.normal)
        let p = c.p0
        rA1x[l] = p.anchorA.x; rA1y[l] = p.anchorA.y; rB1x[l] = p.anchorB.x; rB1y[l] = p.anchorB.y
        rn1A[l] = cross(p.anchorA, n); rn1B[l] = cross(p.anchorB, n)
        rt1A[l] = cross(p.anchorA, t); rt1B[l] = cross(p.anchorB, t)
        adj1[l] = p.adjustedSeparation; nm1[l] = p.normalMass; tm1[l] = p.tangentMass
        ln1[l] = p.normalImpulse; lt1[l] = p.tangentImpulse; mx1[l] = p.maxNormalImpulse
        if c.pointCount > 1 {
            let q = c.p1
            rA2x[l] = q.anchorA.x; rA2y[l] = q.anchorA.y; rB2x[l] = q.anchorB.x; rB2y[l] = q.anchorB.y
            rn2A[l] = cross(q.anchorA, n); rn2B[l] = cross(q.anchorB, n)
            rt2A[l] = cross(q.anchorA, t); rt2B[l] = cross(q.anchorB, t)
            adj2[l] = q.adjustedSeparation; nm2[l] = q.normalMass; tm2[l] = q.tangentMass
            ln2[l] = q.normalImpulse; lt2[l] = q.tangentImpulse; mx2[l] = q.maxNormalImpulse
        }
    }

    /// Writes lane `l`'s impulses back to its scalar constraint.
    func unload(lane l: Int, into c: inout ContactConstraint) {
        c.p0.normalImpulse = ln1[l]; c.p0.tangentImpulse = lt1[l]; c.p0.maxNormalImpulse = mx1[l]
        if c.pointCount > 1 {
            c.p1.normalImpulse = ln2[l]; c.p1.tangentImpulse = lt2[l]; c.p1.maxNormalImpulse = mx2[l]
        }
    }

    /// A padding lane's constraint: a static body on both sides, no mass, no effect.
    static func padding(body: Int32) -> ContactConstraint {
        var c = ContactConstraint()
        c.bodyA = body; c.bodyB = body
        c.pointCount = 1
        return c
    }
}
