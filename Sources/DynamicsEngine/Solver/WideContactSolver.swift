/// The contact passes on four constraints at once (see `WideContact`). The math is the
/// scalar solver's (`ContactSolve.swift`): soft normal rows, the 2×2 block LCP where
/// well conditioned, Coulomb friction; branches become lane selects.
///
/// Velocities along the normal use precomputed cross products: for an anchor r,
/// (w × r)·n = w·(r × n), so a point's relative normal velocity is
/// (vB − vA)·n + wB·rnB − wA·rnA, and an impulse λn changes wA by −iA·λ·rnA.
enum WideContactSolver {
    typealias F = SIMD4<Float>

    /// Lane-wise max / min as selects (the generic `pointwiseMax` is not inlined).
    @inline(__always) static func vmax(_ a: F, _ b: F) -> F { a.replacing(with: b, where: a .< b) }
    @inline(__always) static func vmin(_ a: F, _ b: F) -> F { a.replacing(with: b, where: b .< a) }

    /// (vx, vy, w) of four bodies, from one 16-byte load each.
    struct Velocities {
        var vx: F, vy: F, w: F

        @inline(__always)
        init(_ states: UnsafeMutablePointer<BodyState>, _ idx: SIMD4<Int32>) {
            let r0 = UnsafeRawPointer(states + Int(idx[0])).loadUnaligned(as: F.self)
            let r1 = UnsafeRawPointer(states + Int(idx[1])).loadUnaligned(as: F.self)
            let r2 = UnsafeRawPointer(states + Int(idx[2])).loadUnaligned(as: F.self)
            let r3 = UnsafeRawPointer(states + Int(idx[3])).loadUnaligned(as: F.self)
            vx = F(r0.x, r1.x, r2.x, r3.x)
            vy = F(r0.y, r1.y, r2.y, r3.y)
            w = F(r0.z, r1.z, r2.z, r3.z)
        }

        @inline(__always)
        func store(_ states: UnsafeMutablePointer<BodyState>, _ idx: SIMD4<Int32>, _ mask: SIMDMask<SIMD4<Int32>>) {
            if mask[0] { UnsafeMutableRawPointer(states + Int(idx[0])).storeBytes(of: F(vx[0], vy[0], w[0], 0), as: F.self) }
            if mask[1] { UnsafeMutableRawPointer(states + Int(idx[1])).storeBytes(of: F(vx[1], vy[1], w[1], 0), as: F.self) }
            if mask[2] { UnsafeMutableRawPointer(states + Int(idx[2])).storeBytes(of: F(vx[2], vy[2], w[2], 0), as: F.self) }
            if mask[3] { UnsafeMutableRawPointer(states + Int(idx[3])).storeBytes(of: F(vx[3], vy[3], w[3], 0), as: F.self) }
        }
    }

    /// (dp, dq) of four bodies: the second 16 bytes of `BodyState`.
    @inline(__always)
    static func deltas(_ states: UnsafeMutablePointer<BodyState>, _ idx: SIMD4<Int32>) -> (dx: F, dy: F, c: F, s: F) {
        let r0 = (UnsafeRawPointer(states + Int(idx[0])) + 16).loadUnaligned(as: F.self)
        let r1 = (UnsafeRawPointer(states + Int(idx[1])) + 16).loadUnaligned(as: F.self)
        let r2 = (UnsafeRawPointer(states + Int(idx[2])) + 16).loadUnaligned(as: F.self)
        let r3 = (UnsafeRawPointer(states + Int(idx[3])) + 16).loadUnaligned(as: F.self)
        return (F(r0.x, r1.x, r2.x, r3.x), F(r0.y, r1.y, r2.y, r3.y), F(r0.z, r1.z, r2.z, r3.z), F(r0.w, r1.w, r2.w, r3.w))
    }

    @inline(__always)
    static func warmStart(_ c: inout WideContact, _ states: UnsafeMutablePointer<BodyState>) {
        var a = Velocities(states, c.bodyA), b = Velocities(states, c.bodyB)
        // P = Σ (λn·n + λt·t), t = (ny, −nx).
        let sn = c.ln1 + c.ln2, st = c.lt1 + c.lt2
        let px = sn * c.nx + st * c.ny, py = sn * c.ny - st * c.nx
        a.vx -= c.mA * px; a.vy -= c.mA * py
        b.vx += c.mB * px; b.vy += c.mB * py
        a.w -= c.iA * (c.ln1 * c.rn1A + c.lt1 * c.rt1A + c.ln2 * c.rn2A + c.lt2 * c.rt2A)
        b.w += c.iB * (c.ln1 * c.rn1B + c.lt1 * c.rt1B + c.ln2 * c.rn2B + c.lt2 * c.rt2B)
        a.store(states, c.bodyA, c.writeA)
        b.store(states, c.bodyB, c.writeB)
    }

    /// The soft-constraint coefficients of four lanes: the world's contact softness where the
    /// solver writes both bodies, the stiffer static softness where one body is only read (as
    /// `ContactSolver.prepare` chooses).
    struct LaneSoftness {
        var soft: Softness
        var staticSoft: Softness
        @inline(__always)
        func lanes(_ c: WideContact) -> (biasRate: F, massScale: F, impulseScale: F) {
            let both = c.writeA .& c.writeB
            // (Vector selects: `replacing(with:where:)` given a scalar is not vectorized.)
            return (F(repeating: staticSoft.biasRate).replacing(with: F(repeating: soft.biasRate), where: both),
                    F(repeating: staticSoft.massScale).replacing(with: F(repeating: soft.massScale), where: both),
                    F(repeating: staticSoft.impulseScale).replacing(with: F(repeating: soft.impulseScale), where: both))
        }
    }

    /// The biased pass: the normal rows (soft, pushing overlap apart), then friction.
    /// (Box2D v3.2 leaves friction to the relax pass. Here, without friction this function
    /// compiled to about twice the instructions per batch — 1 177 against 631, callgrind on
    /// pile 4 000: the inlined per-lane scatter (`Velocities.store`) let the optimizer turn
    /// the whole pass into lane-by-lane code. With the scatter out of line the pass is 405,
    /// but the calls cost as much as that saves, and friction once per sub-step let pyramid
    /// 100 spread — 13 992 touching contacts at the end instead of 14 950 — so friction stays
    /// in both passes; a branch-free, transposed scatter is where to start again.)
    @inline(never)
    static func solve(_ c: inout WideContact, _ states: UnsafeMutablePointer<BodyState>,
                      invH: Float, maxBiasVelocity: Float, softness: LaneSoftness) {
        var a = Velocities(states, c.bodyA), b = Velocities(states, c.bodyB)
        normalRows(&c, &a, &b, states, invH: invH, maxBiasVelocity: maxBiasVelocity, softness: softness, useBias: true)
        friction(&c, &a, &b)
        a.store(states, c.bodyA, c.writeA)
        b.store(states, c.bodyB, c.writeB)
    }

    /// The relax pass: the normal rows without bias, then friction.
    @inline(never)
    static func relax(_ c: inout WideContact, _ states: UnsafeMutablePointer<BodyState>, invH: Float) {
        var a = Velocities(states, c.bodyA), b = Velocities(states, c.bodyB)
        normalRows(&c, &a, &b, states, invH: invH, maxBiasVelocity: 0,
                   softness: LaneSoftness(soft: .rigid, staticSoft: .rigid), useBias: false)
        friction(&c, &a, &b)
        a.store(states, c.bodyA, c.writeA)
        b.store(states, c.bodyB, c.writeB)
    }

    @inline(__always)
    static func normalRows(_ c: inout WideContact, _ a: inout Velocities, _ b: inout Velocities,
                           _ states: UnsafeMutablePointer<BodyState>,
                           invH: Float, maxBiasVelocity: Float, softness: LaneSoftness, useBias: Bool) {
        let nx = c.nx, ny = c.ny
        let zero = F(repeating: 0)

        // Separations now. An anchor r is (−rt, rn) in the (n, t) frame, and a body turned by
        // dq = (cos, sin) since the start of the step moves it along n by r·(dqᵀn) =
        // sin·rn − cos·rt, so s = (dpB − dpA)·n + (sinB·rnB − cosB·rtB) − (sinA·rnA − cosA·rtA) + adj.
        let r1: (bias: F, ms: F, isc: F), r2: (bias: F, ms: F, isc: F)
        do {
            let da = deltas(states, c.bodyA), db = deltas(states, c.bodyB)
            let dpn = (db.dx - da.dx) * nx + (db.dy - da.dy) * ny
            let s1 = dpn + (db.s * c.rn1B - db.c * c.rt1B) - (da.s * c.rn1A - da.c * c.rt1A) + c.adj1
            let s2 = dpn + (db.s * c.rn2B - db.c * c.rt2B) - (da.s * c.rn2A - da.c * c.rt2A) + c.adj2
            // Row parameters: speculative (s > 0), soft (biased pass) or rigid (relax pass).
            // (Written out flat, vectors only: nested helpers capturing the softness here
            // compiled to twice the instructions.)
            let one = F(repeating: 1), ih = F(repeating: invH)
            let spec1 = s1 .> zero, spec2 = s2 .> zero
            if useBias {
                let k = softness.lanes(c)
                let minBias = F(repeating: -maxBiasVelocity)
                r1 = (vmax(k.biasRate * s1, minBias).replacing(with: s1 * ih, where: spec1),
                      k.massScale.replacing(with: one, where: spec1), k.impulseScale.replacing(with: zero, where: spec1))
                r2 = (vmax(k.biasRate * s2, minBias).replacing(with: s2 * ih, where: spec2),
                      k.massScale.replacing(with: one, where: spec2), k.impulseScale.replacing(with: zero, where: spec2))
            } else {
                r1 = (zero.replacing(with: s1 * ih, where: spec1), one, zero)
                r2 = (zero.replacing(with: s2 * ih, where: spec2), one, zero)
            }
        }
        let dvn = (b.vx - a.vx) * nx + (b.vy - a.vy) * ny
        let vn1 = dvn + b.w * c.rn1B - a.w * c.rn1A
        let vn2 = dvn + b.w * c.rn2B - a.w * c.rn2A
        let l1 = c.ln1, l2 = c.ln2

        // Sequential rows: point 1, then point 2 seeing point 1's impulse through K12.
        let s1 = vmax(l1 - c.nm1 * r1.ms * (vn1 + r1.bias) - r1.isc * l1, zero)
        let s2 = vmax(l2 - c.nm2 * r2.ms * (vn2 + c.k12 * (s1 - l1) + r2.bias) - r2.isc * l2, zero)

        // Block rows: x = λ − K⁻¹ b with each row's leak as a velocity; LCP active sets.
        let b1 = r1.ms * (vn1 + r1.bias) + r1.isc * c.k11 * l1
        let b2 = r2.ms * (vn2 + r2.bias) + r2.isc * c.k22 * l2
        let xa1 = l1 - (c.i11 * b1 + c.i12 * b2), xa2 = l2 - (c.i12 * b1 + c.i22 * b2)
        let caseBoth = (xa1 .>= 0) .& (xa2 .>= 0)
        let y1 = l1 + (c.k12 * l2 - b1) / c.k11
        let case1 = (y1 .>= 0) .& (c.k12 * (y1 - l1) - c.k22 * l2 + b2 .>= 0)
        let y2 = l2 + (c.k12 * l1 - b2) / c.k22
        let case2 = (y2 .>= 0) .& (c.k12 * (y2 - l2) - c.k11 * l1 + b1 .>= 0)
        var x1 = zero.replacing(with: y1, where: case1)
        var x2 = zero.replacing(with: y2, where: case2 .& .!case1)
        x1.replace(with: xa1, where: caseBoth)
        x2.replace(with: xa2, where: caseBoth)

        let block = c.i11 .> 0
        let n1 = s1.replacing(with: x1, where: block)
        let n2 = s2.replacing(with: x2, where: block)
        let d1 = n1 - l1, d2 = n2 - l2
        c.ln1 = n1; c.ln2 = n2
        c.mx1 = vmax(c.mx1, d1)
        c.mx2 = vmax(c.mx2, d2)
        let dn = d1 + d2
        a.vx -= c.mA * dn * nx; a.vy -= c.mA * dn * ny
        b.vx += c.mB * dn * nx; b.vy += c.mB * dn * ny
        a.w -= c.iA * (d1 * c.rn1A + d2 * c.rn2A)
        b.w += c.iB * (d1 * c.rn1B + d2 * c.rn2B)
    }

    /// Coulomb friction, point 1 then point 2, tangent t = (ny, −nx).
    @inline(__always)
    static func friction(_ c: inout WideContact, _ a: inout Velocities, _ b: inout Velocities) {
        let nx = c.nx, ny = c.ny
        do {
            let vt = (b.vx - a.vx) * ny - (b.vy - a.vy) * nx + b.w * c.rt1B - a.w * c.rt1A
            let maxF = c.friction * c.ln1
            let nt = vmin(vmax(c.lt1 - c.tm1 * vt, -maxF), maxF)
            let dt = nt - c.lt1
            c.lt1 = nt
            a.vx -= c.mA * dt * ny; a.vy += c.mA * dt * nx
            b.vx += c.mB * dt * ny; b.vy -= c.mB * dt * nx
            a.w -= c.iA * dt * c.rt1A
            b.w += c.iB * dt * c.rt1B
        }
        do {
            let vt = (b.vx - a.vx) * ny - (b.vy - a.vy) * nx + b.w * c.rt2B - a.w * c.rt2A
            let maxF = c.friction * c.ln2
            let nt = vmin(vmax(c.lt2 - c.tm2 * vt, -maxF), maxF)
            let dt = nt - c.lt2
            c.lt2 = nt
            a.vx -= c.mA * dt * ny; a.vy += c.mA * dt * nx
            b.vx += c.mB * dt * ny; b.vy -= c.mB * dt * nx
            a.w -= c.iA * dt * c.rt2A
            b.w += c.iB * dt * c.rt2B
        }
    }
}
