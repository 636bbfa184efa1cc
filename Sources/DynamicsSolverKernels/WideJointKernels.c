// The revolute, weld, distance and prismatic joint passes of the engine's joint colours (see
// DynamicsSolverKernels.h).
//
// Each lane repeats the scalar solver's operations (`JointSolver.warmStart`, `solveRevolute`,
// `solveWeld`, `solveDistance` and `solvePrismatic`) in the same order, with the same rounding: products and sums are never
// fused (Lanes.h turns contraction off), a row that is off in a lane is computed and then
// thrown away by a select, and Swift's `max(x, 0)` and `clamp` pick as Swift does (which
// matters for -0 and NaN). So a joint gives the same bits solved here, by the scalar solver,
// four lanes or eight wide.

#include "Lanes.h"

/// Every lane's bodies of a batch lie in `0 ..< bodyCount` (debug builds).
AI void check_joint_bodies(const DKWideJoint *c, intptr_t bodyCount) { check_lane_bodies(c->bodyA, c->bodyB, bodyCount, "joint"); }

// Swift's Float.pi is π rounded toward zero (0x1.921fb4p1), not to nearest.
#define PI_F 0x1.921fb4p1f
#define HALF_PI_F 0x1.921fb4p0f
#define TWO_PI_F 0x1.921fb4p2f

/// Swift's `max(x, 0)`: `0 >= x ? 0 : x` (so max(-0, 0) is +0 and a NaN stays).
#define MAX0(x) SEL(zero >= (x), (x), zero)
/// The engine's `clamp(x, lo, hi)`: `x < lo ? lo : (x > hi ? hi : x)`.
#define CLAMP(x, lo, hi) SEL((x) < (lo), SEL((x) > (hi), (x), (hi)), (lo))
/// Lanes whose sign bit is set (-0 and negative NaNs included).
#define SIGNBIT(x) ((i8)(x) < (i8){0, 0, 0, 0, 0, 0, 0, 0})

/// The engine's `solverAtan2(y, x)`, lane by lane.
AI f8 atan2_lanes(f8 y, f8 x) {
    const i8 magnitude = {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff,
                          0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff};
    const f8 zero = SPLAT(0.0f);
    f8 ax = (f8)((i8)x & magnitude), ay = (f8)((i8)y & magnitude);
    i8 steep = ay > ax;
    f8 big = SEL(steep, ax, ay), small = SEL(steep, ay, ax);
    f8 t = SEL(big == zero, small / big, zero);
    f8 t2 = t * t;
    f8 p = SPLAT(0.00292068999260664f);
    p = p * t2 - SPLAT(0.016367919743061066f);
    p = p * t2 + SPLAT(0.04321184754371643f);
    p = p * t2 - SPLAT(0.07552213221788406f);
    p = p * t2 + SPLAT(0.10666004568338394f);
    p = p * t2 - SPLAT(0.14211055636405945f);
    p = p * t2 + SPLAT(0.19993773102760315f);
    p = p * t2 - SPLAT(0.33333152532577515f);
    f8 r = t + (t * t2) * p;
    r = SEL(steep, r, SPLAT(HALF_PI_F) - r);
    r = SEL(SIGNBIT(x), r, SPLAT(PI_F) - r);
    return SEL(SIGNBIT(y), r, -r);
}

/// The joint angle: `wrapAngle(deltaAngle + relativeAngle(dqB, dqA))`. The sum lies within
/// ±2π (both terms within ±π), so two turns each way are the scalar loops' whole work.
AI f8 joint_angle(f8 deltaAngle, const D8 *da, const D8 *db) {
    f8 s = db->s * da->c - db->c * da->s;
    f8 c = db->c * da->c + db->s * da->s;
    f8 a = deltaAngle + atan2_lanes(s, c);
    const f8 pi = SPLAT(PI_F), twoPi = SPLAT(TWO_PI_F);
    a = SEL(a > pi, a, a - twoPi);
    a = SEL(a > pi, a, a - twoPi);
    a = SEL(a < -pi, a, a + twoPi);
    a = SEL(a < -pi, a, a + twoPi);
    return a;
}

/// Two batches of a colour (or the last one alone, its lanes doubled and not written back):
/// their bodies' indices and whole states.
typedef struct {
    DKWideJoint *c0, *c1;
    int two;
    int32_t ia[8], ib[8];
    V8 a, b;
    D8 da, db;
} JointPair;

/// The kind of joint batch `c` holds: point rows (revolute, weld), `DK_JOINT_DISTANCE` or
/// `DK_JOINT_PRISMATIC` (a batch holds one kind; its padding lanes too).
AI int32_t batch_kind(const DKWideJoint *c) { return c->rows[0] & (DK_JOINT_DISTANCE | DK_JOINT_PRISMATIC); }

AI void joint_pair_load(DKWideJoint *batches, intptr_t k, intptr_t count, const float *states, intptr_t bodyCount,
                        JointPair *p) {
    p->two = k + 1 < count;
    p->c0 = batches + k;
    p->c1 = p->two ? p->c0 + 1 : p->c0;
    check_joint_bodies(p->c0, bodyCount);
    check_joint_bodies(p->c1, bodyCount);
    indices(p->c0->bodyA, p->c1->bodyA, p->ia);
    indices(p->c0->bodyB, p->c1->bodyB, p->ib);
    gather_full(states, p->ia, &p->a, &p->da);
    gather_full(states, p->ib, &p->b, &p->db);
}

AI void joint_pair_store(float *states, const JointPair *p) {
    scatter_v(states, p->ia, p->c0->writeA, p->c1->writeA, &p->a, p->two);
    scatter_v(states, p->ib, p->c0->writeB, p->c1->writeB, &p->b, p->two);
}

/// The impulse (`px`, `py`) and angular impulses `LA`, `LB` applied to a pair's bodies:
/// `vA −= mA · P`, `wA −= iA · LA`, `vB += mB · P`, `wB += iB · LB`.
AI void apply_impulse(V8 *a, V8 *b, f8 mA, f8 iA, f8 mB, f8 iB, f8 px, f8 py, f8 LA, f8 LB) {
    a->vx -= mA * px;
    a->vy -= mA * py;
    a->w -= iA * LA;
    b->vx += mB * px;
    b->vy += mB * py;
    b->w += iB * LB;
}

/// `JointSolver.warmStart` of a revolute or weld joint.
AI void joint_warm(JointPair *p) {
    DKWideJoint *c0 = p->c0, *c1 = p->c1;
    V8 *a = &p->a, *b = &p->b;
    const D8 *da = &p->da, *db = &p->db;
    f8 x = F(rAx), y = F(rAy);
    f8 rAx = da->c * x - da->s * y, rAy = da->s * x + da->c * y;
    x = F(rBx);
    y = F(rBy);
    f8 rBx = db->c * x - db->s * y, rBy = db->s * x + db->c * y;
    // motor + lower − upper + the angular impulse (a weld's angle row; 0 for a revolute joint),
    // plus the spring's where it acts. Without a row in any lane every term is +0.
    f8 axial = SPLAT(0.0f);
    i8 rows = FI(rows);
    if (ANY(rows)) {
        axial = F(motorImpulse) + F(lowerImpulse) - F(upperImpulse) + F(angularImpulse);
        i8 spring = (rows & DK_JOINT_SPRING) != 0;
        axial = SEL(spring, axial, axial + F(springImpulse));
    }
    f8 px = F(px), py = F(py);
    f8 LA = (rAx * py - rAy * px) + axial, LB = (rBx * py - rBy * px) + axial;
    apply_impulse(a, b, F(mA), F(iA), F(mB), F(iB), px, py, LA, LB);
}

/// One limit row (`JointSolver.rowBias`, then the clamp to a push): `C` the room left before
/// the limit, `speed` the relative speed that uses it up, `old` the row's impulse. Sets
/// `*fresh` to the new impulse and returns the change to apply. The clamp is Swift's
/// `max(x, 0)` (`0 >= x ? 0 : x`) for angle and prismatic limits and, with `zeroFirst`, its
/// `max(0, x)` (`x >= 0 ? x : 0`) for distance limits, as the scalar solver writes them: the two
/// differ on -0 and NaN. (`(-am) · ms` is `(-ms) · am` to the bit, as the distance rows write it.)
AI f8 limit_row(f8 C, f8 speed, f8 old, f8 am, f8 invH, f8 sbr, f8 sms, f8 sisc, int useBias, int zeroFirst, f8 *fresh) {
    const f8 zero = SPLAT(0.0f), one = SPLAT(1.0f);
    i8 spec = C > zero;
    f8 bias = SEL(spec, useBias ? sbr * C : zero, C * invH);
    f8 ms = SEL(spec, sms, one), isc = SEL(spec, sisc, zero);
    f8 impulse = (-am) * ms * (speed + bias) - isc * old;
    f8 sum = old + impulse;
    *fresh = zeroFirst ? SEL(sum >= zero, zero, sum) : MAX0(sum);
    return *fresh - old;
}

/// The spring, the motor and the limits of `JointSolver.solveRevolute`, and the angle row of
/// `solveWeld`, each where its lane has it and the bodies can turn.
AI void joint_axial_rows(DKWideJoint *c0, DKWideJoint *c1, int two, V8 *a, V8 *b, const D8 *da, const D8 *db,
                         i8 rows, f8 iA, f8 iB, const DKJointStep *k, int useBias) {
    const f8 zero = SPLAT(0.0f);
    i8 turns = (iA + iB) > zero;
    i8 spring = ((rows & DK_JOINT_SPRING) != 0) & turns;
    i8 motor = ((rows & DK_JOINT_MOTOR) != 0) & turns;
    i8 limit = ((rows & DK_JOINT_LIMIT) != 0) & turns;
    i8 weld = ((rows & DK_JOINT_WELD) != 0) & turns;
    if (!ANY(spring | motor | limit | weld)) return;
    const f8 am = F(axialMass);
    f8 angle = zero;
    // (A weld's angle row reads the angle in the biased pass only.)
    if (ANY(spring | limit) || (useBias && ANY(weld))) angle = joint_angle(F(deltaAngle), da, db);
    if (ANY(spring)) {
        f8 old = F(springImpulse);
        f8 impulse = (-F(springMassScale)) * am * ((b->w - a->w) + F(springBiasRate) * angle) - F(springImpulseScale) * old;
        ST(springImpulse, SEL(spring, old, old + impulse));
        a->w = SEL(spring, a->w, a->w - iA * impulse);
        b->w = SEL(spring, b->w, b->w + iB * impulse);
    }
    if (ANY(motor)) {
        f8 cdot = (b->w - a->w) - F(motorSpeed);
        f8 maxImpulse = F(maxMotorImpulse);
        f8 old = F(motorImpulse);
        f8 x = old - am * cdot;
        f8 fresh = CLAMP(x, -maxImpulse, maxImpulse);
        f8 impulse = fresh - old;
        ST(motorImpulse, SEL(motor, old, fresh));
        a->w = SEL(motor, a->w, a->w - iA * impulse);
        b->w = SEL(motor, b->w, b->w + iB * impulse);
    }
    if (ANY(limit)) {
        // `JointSolver.rowBias`: speculative where the limit is not reached, soft where it is
        // violated in the biased pass, rigid otherwise.
        const f8 invH = SPLAT(k->invH);
        const f8 sbr = SPLAT(useBias ? k->soft.biasRate : 0.0f), sms = SPLAT(useBias ? k->soft.massScale : 1.0f),
                 sisc = SPLAT(useBias ? k->soft.impulseScale : 0.0f);
        f8 old = F(lowerImpulse), fresh;
        f8 applied = limit_row(angle - F(lower), b->w - a->w, old, am, invH, sbr, sms, sisc, useBias, 0, &fresh);
        ST(lowerImpulse, SEL(limit, old, fresh));
        a->w = SEL(limit, a->w, a->w - iA * applied);
        b->w = SEL(limit, b->w, b->w + iB * applied);
        old = F(upperImpulse);
        applied = limit_row(F(upper) - angle, a->w - b->w, old, am, invH, sbr, sms, sisc, useBias, 0, &fresh);
        ST(upperImpulse, SEL(limit, old, fresh));
        a->w = SEL(limit, a->w, a->w + iA * applied);
        b->w = SEL(limit, b->w, b->w - iB * applied);
    }
    if (ANY(weld)) {
        // `solveWeld`'s angle row: soft toward the reference angle in the biased pass, rigid
        // in the relax pass.
        f8 bias = zero, ms = SPLAT(1.0f), isc = zero;
        if (useBias) {
            bias = SPLAT(k->soft.biasRate) * angle;
            ms = SPLAT(k->soft.massScale);
            isc = SPLAT(k->soft.impulseScale);
        }
        f8 old = F(angularImpulse);
        f8 impulse = ((-am) * ms) * ((b->w - a->w) + bias) - isc * old;
        ST(angularImpulse, SEL(weld, old, old + impulse));
        a->w = SEL(weld, a->w, a->w - iA * impulse);
        b->w = SEL(weld, b->w, b->w + iB * impulse);
    }
}

/// `JointSolver.solveRevolute` and `solveWeld`: the axial rows, then the point rows
/// (`solvePoint`).
AI void joint_solve_pair(JointPair *p, const DKJointStep *k, int useBias) {
    DKWideJoint *c0 = p->c0, *c1 = p->c1;
    const int two = p->two;
    V8 *a = &p->a, *b = &p->b;
    const D8 *da = &p->da, *db = &p->db;
    const f8 zero = SPLAT(0.0f);
    const f8 mA = F(mA), mB = F(mB), iA = F(iA), iB = F(iB);
    i8 rows = FI(rows);
    if (ANY(rows)) joint_axial_rows(c0, c1, two, a, b, da, db, rows, iA, iB, k, useBias);

    f8 x = F(rAx), y = F(rAy);
    f8 rAx = da->c * x - da->s * y, rAy = da->s * x + da->c * y;
    x = F(rBx);
    y = F(rBy);
    f8 rBx = db->c * x - db->s * y, rBy = db->s * x + db->c * y;
    f8 cx = ((b->vx + (-b->w) * rBy) - a->vx) - (-a->w) * rAy;
    f8 cy = ((b->vy + b->w * rBx) - a->vy) - a->w * rAx;
    f8 bx = zero, by = zero, ms = SPLAT(1.0f), isc = zero;
    if (useBias) {
        f8 sx = ((F(dcx) + (db->dx - da->dx)) + rBx) - rAx;
        f8 sy = ((F(dcy) + (db->dy - da->dy)) + rBy) - rAy;
        f8 br = SPLAT(k->soft.biasRate);
        bx = br * sx;
        by = br * sy;
        ms = SPLAT(k->soft.massScale);
        isc = SPLAT(k->soft.impulseScale);
    }
    f8 k11 = ((mA + mB) + (rAy * rAy) * iA) + (rBy * rBy) * iB;
    f8 k12 = ((-rAy) * rAx) * iA - (rBy * rBx) * iB;
    f8 k22 = ((mA + mB) + (rAx * rAx) * iA) + (rBx * rBx) * iB;
    f8 rx = cx + bx, ry = cy + by;
    f8 det = k11 * k22 - k12 * k12;
    f8 inv = SEL(det != zero, zero, SPLAT(1.0f) / det);
    f8 solx = inv * (k22 * rx - k12 * ry), soly = inv * (k11 * ry - k12 * rx);
    f8 px = F(px), py = F(py);
    f8 ix = (-ms) * solx - isc * px, iy = (-ms) * soly - isc * py;
    ST(px, px + ix);
    ST(py, py + iy);
    apply_impulse(a, b, mA, iA, mB, iB, ix, iy, rAx * iy - rAy * ix, rBx * iy - rBy * ix);
}

/// The anchors of the pair's joints turned by the step's rotation so far (`dq.rotate(r)`).
AI void turned_anchors(DKWideJoint *c0, DKWideJoint *c1, const D8 *da, const D8 *db, f8 *rAx, f8 *rAy, f8 *rBx,
                       f8 *rBy) {
    f8 x = F(rAx), y = F(rAy);
    *rAx = da->c * x - da->s * y;
    *rAy = da->s * x + da->c * y;
    x = F(rBx);
    y = F(rBy);
    *rBx = db->c * x - db->s * y;
    *rBy = db->s * x + db->c * y;
}

/// `JointSolver.applyAxial`: `impulse` along the axis, in the lanes of `m`.
AI void distance_apply(V8 *a, V8 *b, i8 m, f8 impulse, f8 axx, f8 axy, f8 rAx, f8 rAy, f8 rBx, f8 rBy, f8 mA, f8 iA,
                       f8 mB, f8 iB) {
    f8 px = impulse * axx, py = impulse * axy;
    a->vx = SEL(m, a->vx, a->vx - mA * px);
    a->vy = SEL(m, a->vy, a->vy - mA * py);
    a->w = SEL(m, a->w, a->w - iA * (rAx * py - rAy * px));
    b->vx = SEL(m, b->vx, b->vx + mB * px);
    b->vy = SEL(m, b->vy, b->vy + mB * py);
    b->w = SEL(m, b->w, b->w + iB * (rBx * py - rBy * px));
}

/// A distance joint's length and axis in the step so far (`d`, `length(d)` and `d / len`, or
/// the axis of the start of the step where the anchors meet), as `JointSolver` finds them.
AI void distance_axis(DKWideJoint *c0, DKWideJoint *c1, const D8 *da, const D8 *db, f8 rAx, f8 rAy, f8 rBx, f8 rBy,
                      f8 *len, f8 *axx, f8 *axy) {
    f8 dx = ((F(dcx) + (db->dx - da->dx)) + rBx) - rAx;
    f8 dy = ((F(dcy) + (db->dy - da->dy)) + rBy) - rAy;
    f8 lenSq = dx * dx + dy * dy, l;
    for (int i = 0; i < 8; i++) l[i] = __builtin_sqrtf(lenSq[i]);
    i8 apart = l > SPLAT(1.0e-6f);
    *len = l;
    *axx = SEL(apart, F(axisX), dx / l);
    *axy = SEL(apart, F(axisY), dy / l);
}

/// `JointSolver.warmStart` of a distance joint: spring + lower − upper + the rod's impulse,
/// along the axis as the sub-step finds it.
AI void distance_warm(JointPair *p) {
    DKWideJoint *c0 = p->c0, *c1 = p->c1;
    f8 rAx, rAy, rBx, rBy, len, axx, axy;
    turned_anchors(c0, c1, &p->da, &p->db, &rAx, &rAy, &rBx, &rBy);
    distance_axis(c0, c1, &p->da, &p->db, rAx, rAy, rBx, rBy, &len, &axx, &axy);
    f8 axial = ((F(springImpulse) + F(lowerImpulse)) - F(upperImpulse)) + F(angularImpulse);
    f8 px = axial * axx, py = axial * axy;
    f8 LA = rAx * py - rAy * px, LB = rBx * py - rBy * px;
    apply_impulse(&p->a, &p->b, F(mA), F(iA), F(mB), F(iB), px, py, LA, LB);
}

/// The relative speed of B's anchor against A's along the axis (`dot(axis, vr)`); `flip`
/// measures A's against B's (the upper limit's row).
AI f8 distance_speed(const V8 *a, const V8 *b, f8 axx, f8 axy, f8 rAx, f8 rAy, f8 rBx, f8 rBy, int flip) {
    f8 vx, vy;
    if (flip) {
        vx = ((a->vx + (-a->w) * rAy) - b->vx) - (-b->w) * rBy;
        vy = ((a->vy + a->w * rAx) - b->vy) - b->w * rBx;
    } else {
        vx = ((b->vx + (-b->w) * rBy) - a->vx) - (-a->w) * rAy;
        vy = ((b->vy + b->w * rBx) - a->vy) - a->w * rAx;
    }
    return axx * vx + axy * vy;
}

/// `JointSolver.solveDistance`: the spring, the lower and the upper length limit where the
/// lane has them, or the rod's row.
AI void distance_solve_pair(JointPair *p, const DKJointStep *k, int useBias) {
    DKWideJoint *c0 = p->c0, *c1 = p->c1;
    const int two = p->two;
    V8 *a = &p->a, *b = &p->b;
    const D8 *da = &p->da, *db = &p->db;
    const f8 zero = SPLAT(0.0f);
    const f8 mA = F(mA), mB = F(mB), iA = F(iA), iB = F(iB), am = F(axialMass);
    f8 rAx, rAy, rBx, rBy, len, axx, axy;
    turned_anchors(c0, c1, da, db, &rAx, &rAy, &rBx, &rBy);
    distance_axis(c0, c1, da, db, rAx, rAy, rBx, rBy, &len, &axx, &axy);
    i8 rows = FI(rows);
    i8 spring = (rows & DK_JOINT_SPRING) != 0, lower = (rows & DK_DISTANCE_LOWER) != 0;
    i8 upper = (rows & DK_DISTANCE_UPPER) != 0, rod = (rows & DK_DISTANCE_RIGID) != 0;
    if (ANY(spring)) {
        f8 speed = distance_speed(a, b, axx, axy, rAx, rAy, rBx, rBy, 0);
        f8 C = len - F(restLength);
        f8 old = F(springImpulse);
        f8 impulse = (-F(springMassScale)) * am * (speed + F(springBiasRate) * C) - F(springImpulseScale) * old;
        ST(springImpulse, SEL(spring, old, old + impulse));
        distance_apply(a, b, spring, impulse, axx, axy, rAx, rAy, rBx, rBy, mA, iA, mB, iB);
    }
    const f8 invH = SPLAT(k->invH);
    const f8 sbr = SPLAT(useBias ? k->soft.biasRate : 0.0f), sms = SPLAT(useBias ? k->soft.massScale : 1.0f),
             sisc = SPLAT(useBias ? k->soft.impulseScale : 0.0f);
    if (ANY(lower)) {
        f8 speed = distance_speed(a, b, axx, axy, rAx, rAy, rBx, rBy, 0);
        f8 old = F(lowerImpulse), fresh;
        f8 applied = limit_row(len - F(lower), speed, old, am, invH, sbr, sms, sisc, useBias, 1, &fresh);
        ST(lowerImpulse, SEL(lower, old, fresh));
        distance_apply(a, b, lower, applied, axx, axy, rAx, rAy, rBx, rBy, mA, iA, mB, iB);
    }
    if (ANY(upper)) {
        f8 speed = distance_speed(a, b, axx, axy, rAx, rAy, rBx, rBy, 1);
        f8 old = F(upperImpulse), fresh;
        f8 applied = limit_row(F(upper) - len, speed, old, am, invH, sbr, sms, sisc, useBias, 1, &fresh);
        ST(upperImpulse, SEL(upper, old, fresh));
        distance_apply(a, b, upper, -applied, axx, axy, rAx, rAy, rBx, rBy, mA, iA, mB, iB);
    }
    if (ANY(rod)) {
        // The rod: soft toward the rest length in the biased pass, rigid in the relax pass.
        f8 speed = distance_speed(a, b, axx, axy, rAx, rAy, rBx, rBy, 0);
        f8 bias = zero, ms = SPLAT(1.0f), isc = zero;
        if (useBias) {
            bias = SPLAT(k->soft.biasRate) * (len - F(restLength));
            ms = SPLAT(k->soft.massScale);
            isc = SPLAT(k->soft.impulseScale);
        }
        f8 old = F(angularImpulse);
        f8 impulse = (-ms) * am * (speed + bias) - isc * old;
        ST(angularImpulse, SEL(rod, old, old + impulse));
        distance_apply(a, b, rod, impulse, axx, axy, rAx, rAy, rBx, rBy, mA, iA, mB, iB);
    }
}

/// A prismatic joint's frame in the step so far: the anchors' offset `d`, the axis turned
/// with A, its left perpendicular, and the lever arms of both (`JointSolver.solvePrismatic`).
typedef struct {
    f8 dx, dy, axx, axy, pxx, pxy, a1, a2, s1, s2;
} PrismaticFrame;

AI PrismaticFrame prismatic_frame(DKWideJoint *c0, DKWideJoint *c1, const D8 *da, const D8 *db) {
    PrismaticFrame f;
    f8 rAx, rAy, rBx, rBy;
    turned_anchors(c0, c1, da, db, &rAx, &rAy, &rBx, &rBy);
    f.dx = ((F(dcx) + (db->dx - da->dx)) + rBx) - rAx;
    f.dy = ((F(dcy) + (db->dy - da->dy)) + rBy) - rAy;
    f8 x = F(axisX), y = F(axisY);
    f.axx = da->c * x - da->s * y;
    f.axy = da->s * x + da->c * y;
    f.pxx = -f.axy;
    f.pxy = f.axx;
    f8 ex = f.dx + rAx, ey = f.dy + rAy;
    f.a1 = ex * f.axy - ey * f.axx;
    f.a2 = rBx * f.axy - rBy * f.axx;
    f.s1 = ex * f.pxy - ey * f.pxx;
    f.s2 = rBx * f.pxy - rBy * f.pxx;
    return f;
}

/// `JointSolver.warmStart` of a prismatic joint.
AI void prismatic_warm(JointPair *p) {
    DKWideJoint *c0 = p->c0, *c1 = p->c1;
    PrismaticFrame f = prismatic_frame(c0, c1, &p->da, &p->db);
    f8 axial = (F(motorImpulse) + F(lowerImpulse)) - F(upperImpulse);
    i8 spring = (FI(rows) & DK_JOINT_SPRING) != 0;
    axial = SEL(spring, axial, axial + F(springImpulse));
    f8 lx = F(px), ly = F(py);
    f8 Px = axial * f.axx + lx * f.pxx, Py = axial * f.axy + lx * f.pxy;
    f8 LA = (axial * f.a1 + lx * f.s1) + ly, LB = (axial * f.a2 + lx * f.s2) + ly;
    apply_impulse(&p->a, &p->b, F(mA), F(iA), F(mB), F(iB), Px, Py, LA, LB);
}

/// The relative speed along the axis (`dot(axis, vB − vA) + a2 · wB − a1 · wA`); `flip`:
/// A's against B's (`dot(axis, vA − vB) + a1 · wA − a2 · wB`).
AI f8 prismatic_speed(const V8 *a, const V8 *b, const PrismaticFrame *f, int flip) {
    if (flip) return ((f->axx * (a->vx - b->vx) + f->axy * (a->vy - b->vy)) + f->a1 * a->w) - f->a2 * b->w;
    return ((f->axx * (b->vx - a->vx) + f->axy * (b->vy - a->vy)) + f->a2 * b->w) - f->a1 * a->w;
}

/// `applyAxis` of `JointSolver.solvePrismatic`: `impulse` along the axis, in the lanes of `m`.
AI void prismatic_apply(V8 *a, V8 *b, i8 m, f8 impulse, const PrismaticFrame *f, f8 mA, f8 iA, f8 mB, f8 iB) {
    f8 px = impulse * f->axx, py = impulse * f->axy;
    a->vx = SEL(m, a->vx, a->vx - mA * px);
    a->vy = SEL(m, a->vy, a->vy - mA * py);
    a->w = SEL(m, a->w, a->w - (iA * impulse) * f->a1);
    b->vx = SEL(m, b->vx, b->vx + mB * px);
    b->vy = SEL(m, b->vy, b->vy + mB * py);
    b->w = SEL(m, b->w, b->w + (iB * impulse) * f->a2);
}

/// `JointSolver.solvePrismatic`: the spring, the motor and the limits along the axis where the
/// lane has them, then the perpendicular and angular rows as one 2 × 2 block.
AI void prismatic_solve_pair(JointPair *p, const DKJointStep *k, int useBias) {
    DKWideJoint *c0 = p->c0, *c1 = p->c1;
    const int two = p->two;
    V8 *a = &p->a, *b = &p->b;
    const D8 *da = &p->da, *db = &p->db;
    const f8 zero = SPLAT(0.0f), one = SPLAT(1.0f);
    const f8 mA = F(mA), mB = F(mB), iA = F(iA), iB = F(iB), am = F(axialMass);
    PrismaticFrame f = prismatic_frame(c0, c1, da, db);
    const f8 translation = f.axx * f.dx + f.axy * f.dy;
    i8 rows = FI(rows);
    i8 spring = (rows & DK_JOINT_SPRING) != 0, motor = (rows & DK_JOINT_MOTOR) != 0;
    i8 limit = (rows & DK_JOINT_LIMIT) != 0;
    if (ANY(spring)) {
        f8 speed = prismatic_speed(a, b, &f, 0);
        f8 old = F(springImpulse);
        f8 impulse = (-F(springMassScale)) * am * (speed + F(springBiasRate) * translation) - F(springImpulseScale) * old;
        ST(springImpulse, SEL(spring, old, old + impulse));
        prismatic_apply(a, b, spring, impulse, &f, mA, iA, mB, iB);
    }
    if (ANY(motor)) {
        f8 speed = prismatic_speed(a, b, &f, 0);
        f8 maxImpulse = F(maxMotorImpulse);
        f8 old = F(motorImpulse);
        f8 x = old + am * (F(motorSpeed) - speed);
        f8 fresh = CLAMP(x, -maxImpulse, maxImpulse);
        ST(motorImpulse, SEL(motor, old, fresh));
        prismatic_apply(a, b, motor, fresh - old, &f, mA, iA, mB, iB);
    }
    if (ANY(limit)) {
        const f8 invH = SPLAT(k->invH);
        const f8 sbr = SPLAT(useBias ? k->soft.biasRate : 0.0f), sms = SPLAT(useBias ? k->soft.massScale : 1.0f),
                 sisc = SPLAT(useBias ? k->soft.impulseScale : 0.0f);
        f8 old = F(lowerImpulse), fresh;
        f8 applied = limit_row(translation - F(lower), prismatic_speed(a, b, &f, 0), old, am, invH, sbr, sms, sisc,
                               useBias, 0, &fresh);
        ST(lowerImpulse, SEL(limit, old, fresh));
        prismatic_apply(a, b, limit, applied, &f, mA, iA, mB, iB);
        old = F(upperImpulse);
        applied = limit_row(F(upper) - translation, prismatic_speed(a, b, &f, 1), old, am, invH, sbr, sms, sisc, useBias,
                            0, &fresh);
        ST(upperImpulse, SEL(limit, old, fresh));
        prismatic_apply(a, b, limit, -applied, &f, mA, iA, mB, iB);
    }
    // The perpendicular and angular rows, one 2 × 2 block.
    f8 cx = ((f.pxx * (b->vx - a->vx) + f.pxy * (b->vy - a->vy)) + f.s2 * b->w) - f.s1 * a->w;
    f8 cy = b->w - a->w;
    f8 bx = zero, by = zero, ms = one, isc = zero;
    if (useBias) {
        f8 Cx = f.pxx * f.dx + f.pxy * f.dy;
        f8 Cy = joint_angle(F(deltaAngle), da, db);
        f8 br = SPLAT(k->soft.biasRate);
        bx = br * Cx;
        by = br * Cy;
        ms = SPLAT(k->soft.massScale);
        isc = SPLAT(k->soft.impulseScale);
    }
    f8 k11 = ((mA + mB) + (iA * f.s1) * f.s1) + (iB * f.s2) * f.s2;
    f8 k12 = iA * f.s1 + iB * f.s2;
    f8 k22 = iA + iB;
    k22 = SEL(k22 == zero, k22, one);
    f8 rx = cx + bx, ry = cy + by;
    f8 det = k11 * k22 - k12 * k12;
    f8 inv = SEL(det != zero, zero, one / det);
    f8 solx = inv * (k22 * rx - k12 * ry), soly = inv * (k11 * ry - k12 * rx);
    f8 lx = F(px), ly = F(py);
    f8 ix = (-ms) * solx - isc * lx, iy = (-ms) * soly - isc * ly;
    ST(px, lx + ix);
    ST(py, ly + iy);
    f8 Px = ix * f.pxx, Py = ix * f.pxy;
    f8 LA = ix * f.s1 + iy, LB = ix * f.s2 + iy;
    apply_impulse(a, b, mA, iA, mB, iB, Px, Py, LA, LB);
}

/// One pass (`pass(&p, ...)`) over `count` batches of one kind, two at a time: each kind has
/// a loop of its own, so each loop keeps its own registers.
#define PAIR_LOOP(pass, ...)                                                                        \
    for (intptr_t k = 0; k < count; k += 2) {                                                      \
        JointPair p;                                                                               \
        joint_pair_load(batches, k, count, states, bodyCount, &p);                                 \
        pass(&p, ##__VA_ARGS__);                                                                   \
        joint_pair_store(states, &p);                                                              \
    }

AI void point_warm_run(DKWideJoint *batches, intptr_t count, float *states, intptr_t bodyCount) { PAIR_LOOP(joint_warm) }
AI void distance_warm_run(DKWideJoint *batches, intptr_t count, float *states, intptr_t bodyCount) {
    PAIR_LOOP(distance_warm)
}
AI void prismatic_warm_run(DKWideJoint *batches, intptr_t count, float *states, intptr_t bodyCount) {
    PAIR_LOOP(prismatic_warm)
}
AI void point_solve_run(DKWideJoint *batches, intptr_t count, float *states, intptr_t bodyCount, const DKJointStep *step,
                        int useBias) {
    PAIR_LOOP(joint_solve_pair, step, useBias)
}
AI void distance_solve_run(DKWideJoint *batches, intptr_t count, float *states, intptr_t bodyCount,
                           const DKJointStep *step, int useBias) {
    PAIR_LOOP(distance_solve_pair, step, useBias)
}
AI void prismatic_solve_run(DKWideJoint *batches, intptr_t count, float *states, intptr_t bodyCount,
                            const DKJointStep *step, int useBias) {
    PAIR_LOOP(prismatic_solve_pair, step, useBias)
}

/// The end of the run of batches of `batches[k]`'s kind (a colour's batches come kind by kind,
/// revolute and weld first: when the last batch is of that kind, so are all).
AI intptr_t kind_run_end(const DKWideJoint *batches, intptr_t k, intptr_t count) {
    const int32_t kind = batch_kind(batches + k);
    if (batch_kind(batches + count - 1) == kind) return count;
    intptr_t e = k + 1;
    while (e < count && batch_kind(batches + e) == kind) e++;
    return e;
}

AI void joint_warm_start_impl(DKWideJoint *batches, intptr_t count, float *states, intptr_t bodyCount) {
    for (intptr_t k = 0; k < count;) {
        const intptr_t e = kind_run_end(batches, k, count);
        const int32_t kind = batch_kind(batches + k);
        if (kind == DK_JOINT_DISTANCE) distance_warm_run(batches + k, e - k, states, bodyCount);
        else if (kind == DK_JOINT_PRISMATIC) prismatic_warm_run(batches + k, e - k, states, bodyCount);
        else point_warm_run(batches + k, e - k, states, bodyCount);
        k = e;
    }
}

AI void joint_solve_impl(DKWideJoint *batches, intptr_t count, float *states, intptr_t bodyCount, const DKJointStep *step,
                         int useBias) {
    for (intptr_t k = 0; k < count;) {
        const intptr_t e = kind_run_end(batches, k, count);
        const int32_t kind = batch_kind(batches + k);
        if (kind == DK_JOINT_DISTANCE) distance_solve_run(batches + k, e - k, states, bodyCount, step, useBias);
        else if (kind == DK_JOINT_PRISMATIC) prismatic_solve_run(batches + k, e - k, states, bodyCount, step, useBias);
        else point_solve_run(batches + k, e - k, states, bodyCount, step, useBias);
        k = e;
    }
}

static void joint_warm_start_base(DKWideJoint *c, intptr_t n, float *s, intptr_t nb) { joint_warm_start_impl(c, n, s, nb); }
static void joint_solve_base(DKWideJoint *c, intptr_t n, float *s, intptr_t nb, const DKJointStep *k, int useBias) {
    if (useBias) joint_solve_impl(c, n, s, nb, k, 1); else joint_solve_impl(c, n, s, nb, k, 0);
}

#if DK_X86_DISPATCH
__attribute__((target("avx2"))) static void joint_warm_start_avx2(DKWideJoint *c, intptr_t n, float *s, intptr_t nb) {
    joint_warm_start_impl(c, n, s, nb);
}
__attribute__((target("avx2"))) static void joint_solve_avx2(DKWideJoint *c, intptr_t n, float *s, intptr_t nb,
                                                             const DKJointStep *k, int useBias) {
    if (useBias) joint_solve_impl(c, n, s, nb, k, 1); else joint_solve_impl(c, n, s, nb, k, 0);
}
#endif

void dk_joint_warm_start(void *batches, intptr_t count, void *states, intptr_t bodyCount) {
#if DK_X86_DISPATCH
    if (dk_wide_uses_avx2()) { joint_warm_start_avx2(batches, count, states, bodyCount); return; }
#endif
    joint_warm_start_base(batches, count, states, bodyCount);
}

void dk_joint_solve(void *batches, intptr_t count, void *states, intptr_t bodyCount, const DKJointStep *step, int useBias) {
#if DK_X86_DISPATCH
    if (dk_wide_uses_avx2()) { joint_solve_avx2(batches, count, states, bodyCount, step, useBias); return; }
#endif
    joint_solve_base(batches, count, states, bodyCount, step, useBias);
}
