/// Coefficients of a soft constraint: a spring-damper of given frequency and damping ratio,
/// expressed for an implicit (stable) sub-step of length h.
///
/// With ω = 2π·hertz, ζ the damping ratio: a1 = 2ζ + hω, a2 = hω·a1, a3 = 1 / (1 + a2);
/// the velocity bias is `biasRate · C` with biasRate = ω / a1, the effective mass is scaled
/// by a2·a3 and the accumulated impulse leaks by a3. A rigid constraint (hertz = 0) has
/// no bias and full mass.
@usableFromInline
struct Softness: Sendable {
    var biasRate: Float
    var massScale: Float
    var impulseScale: Float

    static let rigid = Softness(biasRate: 0, massScale: 1, impulseScale: 0)

    init(biasRate: Float, massScale: Float, impulseScale: Float) {
        self.biasRate = biasRate; self.massScale = massScale; self.impulseScale = impulseScale
    }

    init(hertz: Float, dampingRatio zeta: Float, h: Float) {
        if hertz == 0 { self = .rigid; return }
        let omega = 2 * Float.pi * hertz
        let a1 = 2 * zeta + h * omega
        let a2 = h * omega * a1
        let a3 = 1 / (1 + a2)
        biasRate = omega / a1
        massScale = a2 * a3
        impulseScale = a3
    }
}

import DynamicsSolverKernels

extension Softness {
    /// The coefficients as the C kernels take them.
    @inline(__always) var kernel: DKSoftness { DKSoftness(biasRate: biasRate, massScale: massScale, impulseScale: impulseScale) }
}

/// The contact softness of a solve (`soft` for contacts between moving bodies, `staticSoft`
/// at twice the stiffness against static ones), kept while the sub-step length and the
/// settings it comes from stay the same: the same values a fresh computation gives, without
/// its divisions in every step of a small world.
struct ContactSoftnessCache {
    private var h: Float = .nan
    private var hertz: Float = .nan
    private var dampingRatio: Float = .nan
    private(set) var soft = Softness.rigid
    private(set) var staticSoft = Softness.rigid

    mutating func softness(hertz: Float, dampingRatio: Float, h: Float) -> (soft: Softness, staticSoft: Softness) {
        if h != self.h || hertz != self.hertz || dampingRatio != self.dampingRatio {
            soft = Softness(hertz: hertz, dampingRatio: dampingRatio, h: h)
            staticSoft = Softness(hertz: 2 * hertz, dampingRatio: dampingRatio, h: h)
            self.h = h; self.hertz = hertz; self.dampingRatio = dampingRatio
        }
        return (soft, staticSoft)
    }
}
