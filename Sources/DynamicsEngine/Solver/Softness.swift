/// Coefficients of a soft constraint: a spring-damper of given frequency and damping ratio,
/// expressed for an implicit (stable) sub-step of length h.
///
/// With ω = 2π·hertz, ζ the damping ratio: a1 = 2ζ + hω, a2 = hω·a1, a3 = 1 / (1 + a2);
/// the velocity bias is `biasRate · C` with biasRate = ω / a1, the effective mass is scaled
/// by a2·a3 and the accumulated impulse leaks by a3. A rigid constraint (hertz = 0) has
/// no bias and full mass.
@usableFromInline
struct Softness: Sendable, Equatable {
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
