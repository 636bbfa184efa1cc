import DynamicsSolverKernels

/// The contact passes on colour batches (see `WideContact`): soft normal rows, the 2×2 block
/// LCP where well conditioned, Coulomb friction, branches as lane selects. They run in C
/// (`DynamicsSolverKernels`), two batches of a colour side by side as eight lanes — one AVX2
/// instruction where the processor has it, two SSE ones where not, the same results bit for
/// bit (tested). The math is the scalar solver's (`ScalarContactPasses.swift`).
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

    /// Whether the engine's structures the C kernels read have the kernels' layouts, field by
    /// field: `WideContact` (`DKWideContact`), `WideExtra` (`DKWideExtra`), and what batch
    /// preparation reads — `Contact`, `ContactData`'s manifold and rolling fields, `ManifoldPoint`,
    /// `BodySim` and `BodyState` (asserted in debug builds before every solve; a test checks it
    /// in release).
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
            && preparationLayoutMatches
            && BodyState.lanesLayoutHolds && MemoryLayout<BodyState>.offset(of: \BodyState.dp) == 16
            && MemoryLayout<BodyState>.offset(of: \BodyState.dq) == 24
    }()

    /// Whether the structures `dk_prepare_batch` reads and writes have its layouts.
    static var preparationLayoutMatches: Bool {
        typealias X = WideExtra
        typealias DX = DKWideExtra
        typealias C = Contact
        typealias DC = DKContact
        typealias M = Manifold
        typealias DM = DKManifold
        typealias P = ManifoldPoint
        typealias DP = DKManifoldPoint
        typealias S = BodySim
        typealias DS = DKBodySim
        let pairs: [(Int?, Int?)] = [
            (MemoryLayout<X>.offset(of: \X.slot), MemoryLayout<DX>.offset(of: \DX.slot)),
            (MemoryLayout<X>.offset(of: \X.restitution), MemoryLayout<DX>.offset(of: \DX.restitution)),
            (MemoryLayout<X>.offset(of: \X.rv1), MemoryLayout<DX>.offset(of: \DX.rv1)),
            (MemoryLayout<X>.offset(of: \X.rv2), MemoryLayout<DX>.offset(of: \DX.rv2)),
            (MemoryLayout<X>.offset(of: \X.rollingResistance), MemoryLayout<DX>.offset(of: \DX.rollingResistance)),
            (MemoryLayout<X>.offset(of: \X.rollingMass), MemoryLayout<DX>.offset(of: \DX.rollingMass)),
            (MemoryLayout<X>.offset(of: \X.rollingImpulse), MemoryLayout<DX>.offset(of: \DX.rollingImpulse)),
            (MemoryLayout<C>.offset(of: \C.bodyA), MemoryLayout<DC>.offset(of: \DC.bodyA)),
            (MemoryLayout<C>.offset(of: \C.bodyB), MemoryLayout<DC>.offset(of: \DC.bodyB)),
            (MemoryLayout<C>.offset(of: \C.friction), MemoryLayout<DC>.offset(of: \DC.friction)),
            (MemoryLayout<C>.offset(of: \C.restitution), MemoryLayout<DC>.offset(of: \DC.restitution)),
            (MemoryLayout<C>.offset(of: \C.slot), MemoryLayout<DC>.offset(of: \DC.slot)),
            (MemoryLayout<ContactData>.offset(of: \ContactData.manifold), 0),
            (MemoryLayout<ContactData>.offset(of: \ContactData.rollingResistance), MemoryLayout<DKContactData>.offset(of: \DKContactData.rollingResistance)),
            (MemoryLayout<ContactData>.offset(of: \ContactData.rollingImpulse), MemoryLayout<DKContactData>.offset(of: \DKContactData.rollingImpulse)),
            (MemoryLayout<M>.offset(of: \M.normal), MemoryLayout<DM>.offset(of: \DM.nx)),
            (MemoryLayout<M>.offset(of: \M.pointCount), MemoryLayout<DM>.offset(of: \DM.pointCount)),
            (MemoryLayout<M>.offset(of: \M.p0), MemoryLayout<DM>.offset(of: \DM.p0)),
            (MemoryLayout<M>.offset(of: \M.p1), MemoryLayout<DM>.offset(of: \DM.p1)),
            (MemoryLayout<P>.offset(of: \P.point), MemoryLayout<DP>.offset(of: \DP.px)),
            (MemoryLayout<P>.offset(of: \P.separation), MemoryLayout<DP>.offset(of: \DP.separation)),
            (MemoryLayout<P>.offset(of: \P.normalImpulse), MemoryLayout<DP>.offset(of: \DP.normalImpulse)),
            (MemoryLayout<P>.offset(of: \P.tangentImpulse), MemoryLayout<DP>.offset(of: \DP.tangentImpulse)),
            (MemoryLayout<S>.offset(of: \S.center), MemoryLayout<DS>.offset(of: \DS.cx)),
            (MemoryLayout<S>.offset(of: \S.invMass), MemoryLayout<DS>.offset(of: \DS.invMass)),
            (MemoryLayout<S>.offset(of: \S.invInertia), MemoryLayout<DS>.offset(of: \DS.invInertia)),
        ]
        return MemoryLayout<X>.stride == MemoryLayout<DX>.stride && MemoryLayout<C>.stride == MemoryLayout<DC>.stride
            && MemoryLayout<P>.stride == MemoryLayout<DP>.stride && MemoryLayout<M>.stride == MemoryLayout<DM>.stride
            && MemoryLayout<S>.stride == MemoryLayout<DS>.stride && MemoryLayout<BodyType>.size == 1
            && pairs.allSatisfy { $0.0 != nil && $0.0 == $0.1 }
    }

    /// What `dk_prepare_batch` reads: the world's contacts, contact data and bodies (valid
    /// while those buffers are; debug builds check every index against the counts), padding
    /// lanes naming `padBody`.
    /// (The views' addresses are handed to C here, with their counts.)
    static func source(contacts: View<Contact>, data: View<ContactData>, sims: View<BodySim>,
                       states: View<BodyState>, metas: View<BodyMeta>, padBody: Int32) -> DKPrepareSource {
        DKPrepareSource(
            contacts: UnsafeRawPointer(contacts.base), data: UnsafeRawPointer(data.base),
            dataStride: MemoryLayout<ContactData>.stride,
            sims: UnsafeRawPointer(sims.base), states: UnsafeRawPointer(states.base),
            metaType: UnsafeRawPointer(metas.base).advanced(by: metaTypeOffset).assumingMemoryBound(to: UInt8.self),
            metaStride: MemoryLayout<BodyMeta>.stride, dynamicType: BodyType.dynamic.rawValue, padBody: padBody,
            contactCount: contacts.count, dataCount: data.count, bodyCount: states.count)
    }

    /// Where a `BodyMeta`'s type byte lies (`dk_prepare_batch` reads it to tell which bodies
    /// the solver writes).
    static let metaTypeOffset: Int = MemoryLayout<BodyMeta>.offset(of: \BodyMeta.type)!

    /// Whether the passes run eight lanes wide with AVX2 on this processor.
    static var usesAVX2: Bool { dk_wide_uses_avx2() != 0 }

    /// Forces the baseline (SSE2) passes, for tests comparing them with AVX2. Not while a
    /// world steps.
    static func forceBaseline(_ on: Bool) { dk_wide_force_baseline(on ? 1 : 0) }

    /// Turns off the one-lane path (a colour of one batch with one or two contacts, solved lane
    /// by lane with the same results), for tests comparing the two. Not while a world steps.
    static func forceLanes(_ on: Bool) { dk_wide_force_lanes(on ? 1 : 0) }
}
