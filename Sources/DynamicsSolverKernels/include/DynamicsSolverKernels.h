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

/// Per batch, beside it: each lane's contact data slot (-1 for padding), for storing the
/// impulses, what restitution needs and the rolling resistance rows (the engine's Swift
/// `WideExtra`, 112 bytes).
typedef struct DKWideExtra {
    int32_t slot[4];
    float restitution[4];
    /// Each point's normal velocity at the start of the step.
    float rv1[4], rv2[4];
    /// Rolling resistance (a lever arm; 0: none), 1 / (iA + iB), the accumulated impulse.
    float rollingResistance[4], rollingMass[4], rollingImpulse[4];
} DKWideExtra;

/// The engine's structures that preparation reads, field for field (the engine checks the
/// layouts in debug builds and tests): `Contact` (40 bytes apart), `ManifoldPoint`, `Manifold`
/// (the first field of `ContactData`) and `BodySim`.
typedef struct DKContact {
    uint64_t key;
    int32_t shapeA, shapeB, bodyA, bodyB;
    float friction, restitution;
    int32_t slot;
    uint8_t flags, pad[3];
} DKContact;

typedef struct DKManifoldPoint {
    float px, py, anchorAx, anchorAy, separation;
    uint32_t id;
    float normalImpulse, tangentImpulse, maxNormalImpulse, baseSeparation;
} DKManifoldPoint;

typedef struct DKManifold {
    float nx, ny;
    int64_t pointCount;
    DKManifoldPoint p0, p1;
} DKManifold;

/// The start of the engine's `ContactData`: the manifold, then the rolling resistance and
/// the rolling impulse kept for the warm start.
typedef struct DKContactData {
    DKManifold manifold;
    float rollingResistance, rollingImpulse;
} DKContactData;

typedef struct DKBodySim {
    float px, py, qc, qs;
    float cx, cy, maxExtent, invMass, invInertia, coreRadius;
    float c0x, c0y, lcx, lcy, fx, fy;
    float torque, mass, inertia, linearDamping, angularDamping;
    float pad; /* gravity, a SIMD2, is 8-byte aligned */
    float gx, gy;
} DKBodySim;

/// Where `dk_prepare_batch` reads: the world's contacts (`DKContact`), contact data (a
/// `DKContactData` at the start of each `dataStride` bytes), bodies (`DKBodySim`, and the
/// 32-byte states the passes use) and each body's type byte (`metaType + metaStride * body`).
typedef struct DKPrepareSource {
    const void *contacts;
    const void *data;
    intptr_t dataStride;
    const void *sims;
    const void *states;
    const uint8_t *metaType;
    intptr_t metaStride;
    /// The type byte of a dynamic body (the solver writes only those).
    uint8_t dynamicType;
    /// The body padding lanes name (a static body; its velocity is zero and never written).
    int32_t padBody;
    /// How many contacts, contact data slots and bodies the arrays hold: debug builds check
    /// every index read against them (and stop with a message naming it), release builds
    /// do not look.
    intptr_t contactCount, dataCount, bodyCount;
} DKPrepareSource;

/// Prepares one batch straight from the world: lanes `0 ..< lanes` are the contacts
/// `contacts[0 ..< lanes]` (indices into `src->contacts`, 1 to 4 of them), the rest padding.
/// Writes the batch (`DKWideContact`) and its `DKWideExtra`; returns bit 0 (`DK_BATCH_BOUNCES`)
/// when a lane can bounce (restitution above zero) and bit 1 (`DK_BATCH_ROLLS`) when a lane has
/// rolling resistance.
enum { DK_BATCH_BOUNCES = 1, DK_BATCH_ROLLS = 2 };
int dk_prepare_batch(const DKPrepareSource *src, const int32_t *contacts, intptr_t lanes, void *batch, void *extra);

/// Asks the processor for the contact records of `contacts[0 ..< lanes]` (a batch
/// `dk_prepare_batch` will prepare a few batches later). Only hints: nothing is read but the
/// indices, and a prefetch never faults.
void dk_prefetch_contacts(const DKPrepareSource *src, const int32_t *contacts, intptr_t lanes);

/// Asks for what `dk_prepare_batch` will read for `contacts[0 ..< lanes]` beyond their
/// contact records: each lane's manifold, its bodies' records, velocities and type bytes. It
/// reads the contact records (ask for them first with `dk_prefetch_contacts`); debug builds
/// check every index as `dk_prepare_batch` does.
void dk_prefetch_batch(const DKPrepareSource *src, const int32_t *contacts, intptr_t lanes);

/// Soft-constraint coefficients (the engine's `Softness`).
typedef struct DKSoftness {
    float biasRate, massScale, impulseScale;
} DKSoftness;

/// The contact passes over `count` consecutive batches of ONE colour (no dynamic body twice),
/// so two batches can be solved side by side as eight lanes. `states` is the engine's
/// `BodyState` array (32 bytes a body: v.x, v.y, w, pad, dp.x, dp.y, dq.c, dq.s) of
/// `bodyCount` bodies (debug builds check every lane's bodies against it).
/// The results are bit for bit those of four lanes at a time on any x86-64 processor: AVX2
/// only widens the same IEEE operations (no fused multiply-add, no reassociation).
void dk_wide_warm_start(void *batches, intptr_t count, void *states, intptr_t bodyCount);
void dk_wide_solve(void *batches, intptr_t count, void *states, intptr_t bodyCount, float invH, float maxBiasVelocity,
                   DKSoftness soft, DKSoftness staticSoft);
void dk_wide_relax(void *batches, intptr_t count, void *states, intptr_t bodyCount, float invH);

/// The live lanes of `count` batches when they are a lone batch (one batch with one or two
/// contacts) that the one-lane passes below may solve, as a bit mask (bit l: lane l writes a
/// body): the same results as the passes above, bit for bit. 0 when they are not, or when
/// the one-lane path is turned off (`dk_wide_force_lanes`).
int dk_lone_batch(const void *batches, intptr_t count);

/// One body of an island solved by `dk_lone_island`: its state's index and what a sub-step's
/// velocity stage adds, as the engine's `BodyIntegration` computes it once a step:
/// v ← linDamp · (v + dv), w ← angDamp · (w + dw).
typedef struct DKLoneBody {
    int32_t index;
    float linDamp, angDamp;
    float dvx, dvy, dw;
} DKLoneBody;

/// A step's constants for `dk_lone_island`: the sub-step `h` and its inverse, the speed
/// limits a sub-step's velocity stage applies, the biased pass's limit and softness.
typedef struct DKLoneStep {
    float h, invH;
    float maxLinearSpeed, maxAngularSpeed;
    float maxBiasVelocity;
    DKSoftness soft, staticSoft;
} DKLoneStep;

/// A whole island's solve for the step when its only constraint is a lone batch: for each of
/// `subSteps` sub-steps, the velocity stage of `bodies[0 ..< bodyN]`, the batch's warm start
/// and biased pass, the position stage, the relax pass (`lanes`: `dk_lone_batch`'s mask). The
/// same operations in the same order as the engine's sub-step (`SubStep`), bit for bit.
void dk_lone_island(void *batch, int lanes, void *states, intptr_t bodyCount, const DKLoneBody *bodies, intptr_t bodyN,
                    intptr_t subSteps, const DKLoneStep *step);

/// Four revolute or weld joints, four distance joints or four prismatic joints of one joint
/// colour, lane-wise: the memory layout of the engine's Swift `WideJoint` (560 bytes; checked
/// as `DKWideContact` is). The point rows read the fields up to `rows`; the spring, motor and
/// limit rows and a weld's angle row (the axial rows) read the rest, and only when some lane of
/// the batch has one. Distance and prismatic joints have rows of their own
/// (`DK_JOINT_DISTANCE`, `DK_JOINT_PRISMATIC`). Anchors are relative to the body centres at the
/// start of the step, in the world frame.
typedef struct DKWideJoint {
    int32_t bodyA[4], bodyB[4];
    /// -1 where the solver writes the body's velocity, 0 where it only reads it.
    int32_t writeA[4], writeB[4];
    float mA[4], iA[4], mB[4], iB[4];
    float rAx[4], rAy[4], rBx[4], rBy[4];
    /// Centre of B less centre of A at the start of the step.
    float dcx[4], dcy[4];
    /// The point rows' accumulated impulse.
    float px[4], py[4];
    /// Per lane: bit 0 (`DK_JOINT_SPRING`) the spring acts, bit 1 (`DK_JOINT_MOTOR`) the motor
    /// and bit 2 (`DK_JOINT_LIMIT`) the limits are on, bit 3 (`DK_JOINT_WELD`) the lane is a
    /// weld joint, whose angle row holds the relative rotation; a row runs only where the
    /// bodies can turn (iA + iB > 0). A distance joint's lane has `DK_JOINT_DISTANCE` and either
    /// `DK_DISTANCE_RIGID` (a rod) or its spring (`DK_JOINT_SPRING`) and length limits
    /// (`DK_DISTANCE_LOWER`, `DK_DISTANCE_UPPER`); its batch's padding lanes have
    /// `DK_JOINT_DISTANCE` alone. A prismatic joint's lane has `DK_JOINT_PRISMATIC` and the
    /// spring, motor and limit bits of its rows along the axis.
    int32_t rows[4];
    /// The joint angle at the start of the step (less the reference angle), 1 / (iA + iB).
    float deltaAngle[4], axialMass[4];
    float springImpulse[4], motorImpulse[4], lowerImpulse[4], upperImpulse[4];
    /// A weld joint's angle row impulse (0 for a revolute joint).
    float angularImpulse[4];
    /// The spring's soft-constraint coefficients for this step's sub-step.
    float springBiasRate[4], springMassScale[4], springImpulseScale[4];
    /// The motor's speed and its largest impulse in a sub-step (h · maximum torque).
    float motorSpeed[4], maxMotorImpulse[4];
    /// The limits: angles (revolute) or lengths (distance: the minimum and maximum length).
    float lower[4], upper[4];
    /// A distance joint's rest length and its axis at the start of the step (used where the
    /// anchors meet); a prismatic joint's axis at the start of the step (it turns with A).
    float restLength[4], axisX[4], axisY[4];
    /// Each lane's joint slot (-1: padding); the kernels do not read it.
    int32_t joint[4];
} DKWideJoint;

enum {
    DK_JOINT_SPRING = 1, DK_JOINT_MOTOR = 2, DK_JOINT_LIMIT = 4, DK_JOINT_WELD = 8,
    DK_JOINT_DISTANCE = 16, DK_DISTANCE_RIGID = 32, DK_DISTANCE_LOWER = 64, DK_DISTANCE_UPPER = 128,
    DK_JOINT_PRISMATIC = 256
};

/// The step's constants the joint passes use: 1 / h and the joints' soft-constraint
/// coefficients (the engine's `jointSoftness`).
typedef struct DKJointStep {
    float invH;
    DKSoftness soft;
} DKJointStep;

/// The revolute, weld, distance and prismatic joint passes over `count` consecutive batches of
/// ONE joint colour (no dynamic body twice), two of a kind side by side: the warm start, and
/// the biased (`useBias` 1) or relax (0) pass — spring, motor, lower and upper limit (revolute)
/// or the angle row (weld), then the point rows; a distance joint's spring and length limits,
/// or its rod row; a prismatic joint's spring, motor and limits along its axis, then its
/// perpendicular and angle rows — as the engine's scalar `JointSolver` solves those joints,
/// operation for operation, so a lane's result is bit for bit the scalar one. `states` as for the contact passes.
void dk_joint_warm_start(void *batches, intptr_t count, void *states, intptr_t bodyCount);
void dk_joint_solve(void *batches, intptr_t count, void *states, intptr_t bodyCount, const DKJointStep *step, int useBias);

/// 1 when the passes run eight lanes wide with AVX2 (the processor has it and the baseline
/// is not forced).
int dk_wide_uses_avx2(void);

/// Forces the baseline (SSE2) passes when `on` is non-zero, for tests that compare the two.
/// Not to be called while a world steps.
void dk_wide_force_baseline(int on);

/// Turns off, when `on` is non-zero, the one-lane path (a colour of a single batch with one or
/// two contacts solved lane by lane, with the same results), for tests that compare the two.
void dk_wide_force_lanes(int on);

/// Joins, in the union–find forest `parent` over body slots (every slot's parent a slot no
/// higher, each root the lowest slot of its set), the two bodies of every link
/// `links[2k], links[2k + 1]` for k in `begin ..< end` whose bodies are both marked
/// (`marks[body] >= 0`); a link whose first body is negative joins nothing. When `touching`
/// is not NULL, writes the index k of every link with a first body >= 0 to `touching[0...]`,
/// in order, and returns how many it wrote (0 otherwise).
///
/// With `shared` non-zero, several threads may run it at once over disjoint link ranges of
/// the same forest: a root is hung under the other root with a compare-and-swap, higher under
/// lower, and the path halving only ever moves a slot's parent up to one of its ancestors, so
/// the sets at the end (and each set's root, its lowest slot) are those of running the ranges
/// one after the other. With `shared` 0 (one thread) a root is hung with a plain store.
/// `slotCount` bounds every slot (debug builds check each one followed).
intptr_t dk_union_links(const int32_t *links, intptr_t begin, intptr_t end, const int32_t *marks, int32_t *parent,
                        intptr_t slotCount, int32_t *touching, int shared);

/// Asks the processor to bring the cache line at `address` toward its cache, for writing.
/// Only a hint: it never faults, whatever the address (freed or never mapped memory
/// included), and changes no memory.
static inline void dk_prefetch_line(uintptr_t address) {
    __builtin_prefetch((const void *)address, 1, 3);
}



#endif
