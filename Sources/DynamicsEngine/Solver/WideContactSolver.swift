import DynamicsSolverKernels

/// The contact passes on colour batches (see `WideContact`): soft normal rows, the 2×2 block
/// LCP where well conditioned, Coulomb friction, branches as lane selects. They run in C
/// (`DynamicsSolverKernels`), two batches of a colour side by side as eight lanes — one AVX2
/// instruction where the processor has it, two SSE ones where not, the same results bit for
/// bit (tested). The math is the scalar solver's (`ContactSolve.swift`).
///
/// Velocities along the normal use precomputed cross products: for an anchor r,
/// (w × r)·n = w·(r × n), so a point's relative normal velocity is
/// (vB − vA)·n + wB·rnB − wA·rnA, and an impulse λn changes wA by −iA·λ·rnA.
enum WideContactSolver {
    /// The soft-constraint coefficients of the batches: the world's contact softness for lanes
    /// where the solver writes both bodies, the stiffer static softness where one body is only
    /// read (as `ContactSolver.prepare` chooses).
    struct LaneSoftness {
        var soft: Softness
        var staticSoft: Softness
    }

    /// Whether `WideContact` and `ContactConstraint` have the C kernels' `DKWideContact` and
    /// `DKConstraint` layouts, field by field (asserted in debug builds before every solve; a
    /// test checks it in release).
    static let layoutMatches: Bool = {
        typealias W = WideContact
        typealias D = DKWideContact
        let pairs: [(Int?, Int?)] = [
            (MemoryLayout<W>.offset(of: \W.bodyA), MemoryLayout<D>.offset(of: \D.bodyA)),
            (MemoryLayout<W>.offset(of: \W.bodyB), MemoryLayout<D>.offset(of: \D.bodyB)),
            (MemoryLayout<W>.offset(of: \W.writeA), MemoryLayout<D>.offset(of: \D.writeA)),
            (MemoryLayout<W>.offset(of: \W.writeB), MemoryLayout<D>.offset(of: \D.writeB)),
            (MemoryLayout<W>.offset(of: \W.nx), MemoryLayout<D>.offset(of: \D.nx)),
            (MemoryLayout<W>.offset(of: \W.friction), MemoryLayout<D>.offset(of: \D.friction)),
            (MemoryLayout<W>.offset(of: \W.iB), MemoryLayout<D>.offset(of: \D.iB)),
            (MemoryLayout<W>.offset(of: \W.k12), MemoryLayout<D>.offset(of: \D.k12)),
            (MemoryLayout<W>.offset(of: \W.i22), MemoryLayout<D>.offset(of: \D.i22)),
            (MemoryLayout<W>.offset(of: \W.rn1A), MemoryLayout<D>.offset(of: \D.rn1A)),
            (MemoryLayout<W>.offset(of: \W.adj1), MemoryLayout<D>.offset(of: \D.adj1)),
            (MemoryLayout<W>.offset(of: \W.mx1), MemoryLayout<D>.offset(of: \D.mx1)),
            (MemoryLayout<W>.offset(of: \W.rn2A), MemoryLayout<D>.offset(of: \D.rn2A)),
            (MemoryLayout<W>.offset(of: \W.ln2), MemoryLayout<D>.offset(of: \D.ln2)),
            (MemoryLayout<W>.offset(of: \W.mx2), MemoryLayout<D>.offset(of: \D.mx2)),
        ]
        return MemoryLayout<W>.size == MemoryLayout<D>.size && MemoryLayout<W>.stride == MemoryLayout<D>.stride
            && pairs.allSatisfy { $0.0 != nil && $0.0 == $0.1 }
            && constraintLayoutMatches
            && MemoryLayout<BodyState>.stride == 32 && MemoryLayout<BodyState>.offset(of: \BodyState.dp) == 16
            && MemoryLayout<BodyState>.offset(of: \BodyState.dq) == 24
    }()

    /// Whether `ContactConstraint` has the C packer's `DKConstraint` layout.
    static var constraintLayoutMatches: Bool {
        typealias C = ContactConstraint
        typealias D = DKConstraint
        typealias P = ConstraintPoint
        typealias Q = DKConstraintPoint
        let pairs: [(Int?, Int?)] = [
            (MemoryLayout<C>.offset(of: \C.bodyA), MemoryLayout<D>.offset(of: \D.bodyA)),
            (MemoryLayout<C>.offset(of: \C.pointCount), MemoryLayout<D>.offset(of: \D.pointCount)),
            (MemoryLayout<C>.offset(of: \C.writeA), MemoryLayout<D>.offset(of: \D.writeA)),
            (MemoryLayout<C>.offset(of: \C.writeB), MemoryLayout<D>.offset(of: \D.writeB)),
            (MemoryLayout<C>.offset(of: \C.normal), MemoryLayout<D>.offset(of: \D.nx)),
            (MemoryLayout<C>.offset(of: \C.friction), MemoryLayout<D>.offset(of: \D.friction)),
            (MemoryLayout<C>.offset(of: \C.invMassA), MemoryLayout<D>.offset(of: \D.invMassA)),
            (MemoryLayout<C>.offset(of: \C.invIB), MemoryLayout<D>.offset(of: \D.invIB)),
            (MemoryLayout<C>.offset(of: \C.useBlock), MemoryLayout<D>.offset(of: \D.useBlock)),
            (MemoryLayout<C>.offset(of: \C.k11), MemoryLayout<D>.offset(of: \D.k11)),
            (MemoryLayout<C>.offset(of: \C.k22), MemoryLayout<D>.offset(of: \D.k22)),
            (MemoryLayout<C>.offset(of: \C.invK), MemoryLayout<D>.offset(of: \D.invK)),
            (MemoryLayout<C>.offset(of: \C.p0), MemoryLayout<D>.offset(of: \D.p0)),
            (MemoryLayout<C>.offset(of: \C.p1), MemoryLayout<D>.offset(of: \D.p1)),
            (MemoryLayout<P>.offset(of: \P.anchorB), MemoryLayout<Q>.offset(of: \Q.anchorBx)),
            (MemoryLayout<P>.offset(of: \P.adjustedSeparation), MemoryLayout<Q>.offset(of: \Q.adjustedSeparation)),
            (MemoryLayout<P>.offset(of: \P.normalImpulse), MemoryLayout<Q>.offset(of: \Q.normalImpulse)),
            (MemoryLayout<P>.offset(of: \P.tangentImpulse), MemoryLayout<Q>.offset(of: \Q.tangentImpulse)),
            (MemoryLayout<P>.offset(of: \P.maxNormalImpulse), MemoryLayout<Q>.offset(of: \Q.maxNormalImpulse)),
            (MemoryLayout<P>.offset(of: \P.normalMass), MemoryLayout<Q>.offset(of: \Q.normalMass)),
            (MemoryLayout<P>.offset(of: \P.tangentMass), MemoryLayout<Q>.offset(of: \Q.tangentMass)),
        ]
        return MemoryLayout<C>.stride == MemoryLayout<D>.stride && MemoryLayout<P>.alignment == MemoryLayout<Q>.alignment
            && MemoryLayout<ConstraintPoint>.size <= 48 && pairs.allSatisfy { $0.0 != nil && $0.0 == $0.1 }
            && MemoryLayout<Softness>.size == 12 && MemoryLayout<Bool>.size == 1
    }

    /// Whether the passes run eight lanes wide with AVX2 on this processor.
    static var usesAVX2: Bool { dk_wide_uses_avx2() != 0 }

    /// Forces the baseline (SSE2) passes, for tests comparing them with AVX2. Not while a
    /// world steps.
    static func forceBaseline(_ on: Bool) { dk_wide_force_baseline(on ? 1 : 0) }
}
