#ifndef DYNAMICS_SOLVER_KERNELS_H
#define DYNAMICS_SOLVER_KERNELS_H

#include <stdint.h>

/// Four contact constraints of one colour, lane-wise: the memory layout of the engine's
/// Swift `WideContact` (592 bytes; the engine asserts the layout in debug builds and tests).
typedef struct DKWideContact {
    int32_t bodyA[4], bodyB[4];
    /// -1 where the solver writes the body's velocity, 0 where it only reads it.
    int32_t writeA[4], writeB[4];
    float nx[4], ny[4], friction[4];
    float mA[4], iA[4], mB[4], iB[4];
    float k12[4], k11[4], k22[4], i11[4], i12[4], i22[4];
    float rn1A[4], rn1B[4], rt1A[4], rt1B[4], adj1[4], nm1[4], tm1[4], ln1[4], lt1[4], mx1[4];
    float rn2A[4], rn2B[4], rt2A[4], rt2B[4], adj2[4], nm2[4], tm2[4], ln2[4], lt2[4], mx2[4];
} DKWideContact;

/// One point of a prepared contact: the memory layout of the engine's `ConstraintPoint`
/// (44 bytes, 8-byte aligned, so 48 apart in `DKConstraint`).
typedef struct __attribute__((aligned(8))) DKConstraintPoint {
    float anchorAx, anchorAy, anchorBx, anchorBy;
    float adjustedSeparation, relativeVelocity, normalImpulse, tangentImpulse, maxNormalImpulse;
    float normalMass, tangentMass;
} DKConstraintPoint;

/// A prepared contact: the memory layout of the engine's Swift `ContactConstraint` (208 bytes
/// apart; checked like `DKWideContact`).
typedef struct __attribute__((aligned(16))) DKConstraint {
    int32_t bodyA, bodyB, contact, pointCount;
    uint8_t writeA, writeB, pad0[6];
    float nx, ny, friction, restitution;
    float invMassA, invIA, invMassB, invIB;
    float biasRate, massScale, impulseScale;
    uint8_t useBlock, pad1[3];
    float k11, k12, k22, pad2[3];
    float invK[4];
    DKConstraintPoint p0, p1;
} DKConstraint;

/// Packs four prepared constraints (`DKConstraint`; a padding lane passes a constraint with
/// a static body and no mass) into one batch, four fields at a time.
void dk_pack_batch(const void *c0, const void *c1, const void *c2, const void *c3, void *batch);

/// Soft-constraint coefficients (the engine's `Softness`).
typedef struct DKSoftness {
    float biasRate, massScale, impulseScale;
} DKSoftness;

/// The contact passes over `count` consecutive batches of ONE colour (no dynamic body twice),
/// so two batches can be solved side by side as eight lanes. `states` is the engine's
/// `BodyState` array (32 bytes a body: v.x, v.y, w, pad, dp.x, dp.y, dq.c, dq.s).
/// The results are bit for bit those of four lanes at a time on any x86-64 processor: AVX2
/// only widens the same IEEE operations (no fused multiply-add, no reassociation).
void dk_wide_warm_start(void *batches, intptr_t count, void *states);
void dk_wide_solve(void *batches, intptr_t count, void *states, float invH, float maxBiasVelocity,
                   DKSoftness soft, DKSoftness staticSoft);
void dk_wide_relax(void *batches, intptr_t count, void *states, float invH);

/// 1 when the passes run eight lanes wide with AVX2 (the processor has it and the baseline
/// is not forced).
int dk_wide_uses_avx2(void);

/// Forces the baseline (SSE2) passes when `on` is non-zero, for tests that compare the two.
/// Not to be called while a world steps.
void dk_wide_force_baseline(int on);

#endif
