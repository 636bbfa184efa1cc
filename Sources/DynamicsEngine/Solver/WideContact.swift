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
/// what only storing the impulses and restitution read lives beside the batch (`WideExtra`).
/// Batches are prepared straight from the world's contacts and bodies, four lanes at a time
/// (`dk_prepare_batch`).
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

    /// An empty batch (storage that preparation overwrites).
    init() {}
}

/// What a batch's lanes need besides the passes (the C kernels' `DKWideExtra`): each lane's
/// contact data slot (-1 for padding), where its impulses are stored after the solve, the
/// restitution and start-of-step normal velocities of its points, for the bounce pass, and the
/// rolling resistance rows (`WideContact.rolling`).
@usableFromInline
struct WideExtra {
    var slot = SIMD4<Int32>(repeating: -1)
    var restitution = SIMD4<Float>()
    var rv1 = SIMD4<Float>()
    var rv2 = SIMD4<Float>()
    /// Rolling resistance (a lever arm; 0: none), 1 / (iA + iB), the accumulated impulse.
    var rollingResistance = SIMD4<Float>()
    var rollingMass = SIMD4<Float>()
    var rollingImpulse = SIMD4<Float>()
}

extension WideContact {
    /// Writes lane `l`'s impulses to its contact's data for the next step's warm start (the
    /// rolling impulse only in a step with rolling resistance, `rolling`: otherwise the slot's
    /// rolling fields, past a one-point manifold's cache line, are not touched).
    @inline(__always)
    static func store(_ wide: View<WideContact>, _ extra: View<WideExtra>, _ k: Int, lane l: Int, rolling: Bool,
                      into data: inout ContactData) {
        if data.manifold.pointCount > 0 { data.manifold.p0.storeImpulses(normal: wide[k].ln1[l], tangent: wide[k].lt1[l], maxNormal: wide[k].mx1[l]) }
        if data.manifold.pointCount > 1 { data.manifold.p1.storeImpulses(normal: wide[k].ln2[l], tangent: wide[k].lt2[l], maxNormal: wide[k].mx2[l]) }
        if rolling && data.rollingResistance > 0 { data.storeRollingImpulse(extra[k].rollingImpulse[l]) }
    }

    /// The rolling rows of batches `r` (one colour) in the warm start or the relax pass, lane
    /// by lane where a lane has rolling resistance: the same arithmetic as the scalar
    /// constraints' (`ContactSolver.warmStart`, `solveRolling`), after the colour's other rows.
    /// Rolling resistance is a rare material, so these rows stay out of the C kernels: a world
    /// without it skips this call (`SolverViews.anyRolling`).
    @inline(never)
    static func rolling(warmStart: Bool, _ wide: View<WideContact>, _ extra: MutableView<WideExtra>, _ r: Range<Int>,
                        _ states: MutableView<BodyState>) {
        for k in r {
            let rr = extra[k].rollingResistance
            if !any(rr .> 0) { continue }
            for l in 0..<4 where rr[l] > 0 {
                let a = Int(wide[k].bodyA[l]), b = Int(wide[k].bodyB[l])
                var va = states.velocityLanes(a), vb = states.velocityLanes(b)
                let iA = wide[k].iA[l], iB = wide[k].iB[l]
                let old = extra[k].rollingImpulse[l]
                let applied: Float
                if warmStart {
                    applied = old
                } else {
                    let maxImpulse = rr[l] * (wide[k].ln1[l] + wide[k].ln2[l])
                    let new = clamp(old - extra[k].rollingMass[l] * (vb.z - va.z), -maxImpulse, maxImpulse)
                    extra[k].rollingImpulse[l] = new
                    applied = new - old
                }
                va.z -= iA * applied
                vb.z += iB * applied
                if wide[k].writeA[l] { states.setVelocityLanes(a, va) }
                if wide[k].writeB[l] { states.setVelocityLanes(b, vb) }
            }
        }
    }

    /// Bounces of lane `l` (see `ContactSolver.applyRestitution`, the same rule for the
    /// scalar constraints): points that approached faster than `threshold` and received an
    /// impulse get −restitution × that approach speed back; two bouncing points of a block
    /// lane are solved together.
    @inline(__always)
    static func applyRestitution(_ w: inout WideContact, _ extra: View<WideExtra>, _ k: Int, lane l: Int,
                                 _ states: MutableView<BodyState>, threshold: Float) {
        let e = extra[k].restitution[l]
        if e == 0 { return }
        let rv1 = extra[k].rv1[l], rv2 = extra[k].rv2[l]
        let b0 = rv1 <= -threshold && w.mx1[l] > 0
        let b1 = rv2 <= -threshold && w.mx2[l] > 0
        if !b0 && !b1 { return }
        let a = Int(w.bodyA[l]), b = Int(w.bodyB[l])
        var va = states.velocityLanes(a), vb = states.velocityLanes(b)
        let nx = w.nx[l], ny = w.ny[l]
        let mA = w.mA[l], iA = w.iA[l], mB = w.mB[l], iB = w.iB[l]
        let rn1A = w.rn1A[l], rn1B = w.rn1B[l], rn2A = w.rn2A[l], rn2B = w.rn2B[l]
        @inline(__always) func normalVelocity(_ rnA: Float, _ rnB: Float) -> Float {
            (vb.x - va.x) * nx + (vb.y - va.y) * ny + vb.z * rnB - va.z * rnA
        }
        @inline(__always) func apply(_ d: Float, _ rnA: Float, _ rnB: Float) {
            va.x -= mA * d * nx; va.y -= mA * d * ny; va.z -= iA * d * rnA
            vb.x += mB * d * nx; vb.y += mB * d * ny; vb.z += iB * d * rnB
        }
        let l1 = w.ln1[l], l2 = w.ln2[l]
        if w.i11[l] > 0 && b0 && b1 {
            // The block lane's 2×2 LCP, as `ContactSolver.blockLCP`.
            let k11 = w.k11[l], k12 = w.k12[l], k22 = w.k22[l]
            let i11 = w.i11[l], i12 = w.i12[l], i22 = w.i22[l]
            let c1 = normalVelocity(rn1A, rn1B) + e * rv1, c2 = normalVelocity(rn2A, rn2B) + e * rv2
            var x1: Float = 0, x2: Float = 0
            let f1 = -(i11 * c1 + i12 * c2), f2 = -(i12 * c1 + i22 * c2)
            if l1 + f1 >= 0 && l2 + f2 >= 0 {
                x1 = l1 + f1; x2 = l2 + f2
            } else {
                let y1 = l1 + (-c1 + k12 * l2) / k11
                let y2 = l2 + (-c2 + k12 * l1) / k22
                if y1 >= 0 && k12 * (y1 - l1) - k22 * l2 + c2 >= 0 {
                    x1 = y1
                } else if y2 >= 0 && k12 * (y2 - l2) - k11 * l1 + c1 >= 0 {
                    x2 = y2
                }
            }
            let d1 = x1 - l1, d2 = x2 - l2
            w.ln1[l] = x1; w.ln2[l] = x2
            w.mx1[l] = max(w.mx1[l], d1); w.mx2[l] = max(w.mx2[l], d2)
            apply(d1, rn1A, rn1B)
            apply(d2, rn2A, rn2B)
        } else {
            if b0 {
                let n = max(l1 - w.nm1[l] * (normalVelocity(rn1A, rn1B) + e * rv1), 0)
                w.ln1[l] = n; w.mx1[l] = max(w.mx1[l], n - l1)
                apply(n - l1, rn1A, rn1B)
            }
            if b1 {
                let n = max(l2 - w.nm2[l] * (normalVelocity(rn2A, rn2B) + e * rv2), 0)
                w.ln2[l] = n; w.mx2[l] = max(w.mx2[l], n - l2)
                apply(n - l2, rn2A, rn2B)
            }
        }
        if w.writeA[l] { states.setVelocityLanes(a, SIMD4(va.x, va.y, va.z, 0)) }
        if w.writeB[l] { states.setVelocityLanes(b, SIMD4(vb.x, vb.y, vb.z, 0)) }
    }
}
