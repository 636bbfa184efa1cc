/// Four contact constraints of one graph colour, stored lane-wise (structure of arrays) so one
/// SSE instruction works on all four — or, two batches side by side, one AVX2 instruction on
/// eight (the C kernels, `WideContactSolver`; the layout is `DKWideContact`'s, checked by
/// `WideContactSolver.layoutMatches`). Within a colour no dynamic body appears twice, so the
/// lanes can be gathered, solved and scattered independently.
///
/// 592 bytes, read (and partly written) 12 times a step, so every field
/// earns its place: each anchor is kept only as its two cross products with the normal and the
/// tangent (`rn` = r × n, `rt` = r × t — together they are the anchor in the (n, t) frame, which
/// is all the separation update needs); the soft-constraint coefficients are not stored (a lane
/// uses the world's contact softness when both bodies are written, else the static one);
/// the index of each lane's scalar constraint lives beside the batch
/// (`ColoredBatches.wideIndex`), since only unloading reads it.
///
/// Point 2 of a one-point constraint has zero masses and impulses, so it contributes nothing;
/// padding lanes use a static body and zero masses.
@usableFromInline
struct WideContact {
    typealias F = SIMD4<Float>
    typealias Mask = SIMDMask<SIMD4<Int32>>

    var bodyA = SIMD4<Int32>(repeating: 0)
    var bodyB = SIMD4<Int32>(repeating: 0)
    var writeA = Mask(repeating: false)
    var writeB = Mask(repeating: false)
    var nx = F(), ny = F()
    var friction = F()
    var mA = F(), iA = F(), mB = F(), iB = F()
    /// How point 1's normal impulse changes point 2's normal velocity (K₁₂ of the 2×2 normal
    /// mass matrix), so both normal velocities are read once and point 2 still sees point 1's
    /// impulse: the rows are solved one after the other.
    var k12 = F()
    /// Lanes whose two normal rows are block-solved (a well-conditioned two-point manifold)
    /// hold K's diagonal and K⁻¹ (`i11`, `i12`, `i22`); other lanes have K₁₁ = K₂₂ = 1 and
    /// K⁻¹ = 0, so `i11 > 0` marks the block lanes.
    var k11 = F(repeating: 1), k22 = F(repeating: 1)
    var i11 = F(), i12 = F(), i22 = F()
    // Point 1: anchors as cross products with the normal and the tangent, separation at the
    // start of the step less the anchors' offset, effective masses, accumulated impulses.
    var rn1A = F(), rn1B = F(), rt1A = F(), rt1B = F()
    var adj1 = F(), nm1 = F(), tm1 = F()
    var ln1 = F(), lt1 = F(), mx1 = F()
    // Point 2.
    var rn2A = F(), rn2B = F(), rt2A = F(), rt2B = F()
    var adj2 = F(), nm2 = F(), tm2 = F()
    var ln2 = F(), lt2 = F(), mx2 = F()

    /// An empty batch (storage that packing overwrites).
    init() {}

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
