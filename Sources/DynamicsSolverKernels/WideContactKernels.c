// The contact passes of the engine's colour batches (see DynamicsSolverKernels.h).
//
// Four-lane SSE operations in one fixed order: every product, sum and select of a lane is
// computed the same way whatever width runs it, so a lane's result does not depend on how
// many lanes run beside it. Two batches of one colour share no dynamic body, so they are
// solved side by side as eight lanes; AVX2 makes that one instruction where SSE needs two,
// chosen at run time by the processor.

#include "Lanes.h"
#include <stddef.h>

/// Where the preparation reads a body's record (`DKBodySim`): 16 bytes from its centre (the
/// centre's two floats used) and 16 from its inverse mass (inverse mass and inertia used);
/// the prefetch asks for the bytes from the centre to the inverse inertia.
#define SIM_CENTER ((intptr_t)offsetof(DKBodySim, cx))
#define SIM_INV_MASS ((intptr_t)offsetof(DKBodySim, invMass))
#define SIM_READ ((intptr_t)offsetof(DKBodySim, invInertia) + 4 - SIM_CENTER)

/// Every lane's bodies of a batch lie in `0 ..< bodyCount` (debug builds).
AI void check_bodies(const DKWideContact *c, intptr_t bodyCount) { check_lane_bodies(c->bodyA, c->bodyB, bodyCount, "contact"); }

/// Whether a block lane's soft rows are block-solved in the biased pass. Each row leaks
/// isc · K_ii · λ_i of its impulse (so a resting point overlaps as when solved alone); solved
/// together, those leaks go through K⁻¹, which multiplies them by up to 2 p, p = K11 K22 / det K
/// = K11 (K⁻¹)11 — large when the two points nearly coincide (a corner barely over a face). Past
/// isc · 2p = 1 the leak overshoots: the impulse swings from one point to the other every
/// sub-step and the bodies never rest. Such lanes take the rows one after the other (Box2D's
/// way) in the biased pass, and the block solve only in the relax pass.
#define soft_block(k11, i11, isc) ((SPLAT(2.0f) * (k11) * (i11) * (isc)) <= SPLAT(1.0f))

/// The normal rows: soft (biased pass) or rigid (relax pass), point 1 then point 2 seeing
/// point 1's impulse through K12, or the 2x2 block LCP where the lane is a block lane — in the
/// biased pass only where the soft leak cannot overshoot (`soft_block`).
AI void normal_rows(DKWideContact *c0, DKWideContact *c1, int two, V8 *a, V8 *b, const D8 *pa, const D8 *pb,
                    float invH, float maxBias, DKSoftness soft, DKSoftness stat, int useBias) {
    const f8 nx = F(nx), ny = F(ny);
    const f8 zero = SPLAT(0.0f);
    f8 bias1, ms1, isc1, bias2, ms2, isc2;
    {
        const D8 da = *pa, db = *pb;
        f8 dpn = (db.dx - da.dx) * nx + (db.dy - da.dy) * ny;
        f8 s1 = dpn + (db.s * F(rn1B) - db.c * F(rt1B)) - (da.s * F(rn1A) - da.c * F(rt1A)) + F(adj1);
        f8 s2 = dpn + (db.s * F(rn2B) - db.c * F(rt2B)) - (da.s * F(rn2A) - da.c * F(rt2A)) + F(adj2);
        const f8 one = SPLAT(1.0f), ih = SPLAT(invH);
        i8 spec1 = s1 > zero, spec2 = s2 > zero;
        if (useBias) {
            i8 both = FI(writeA) & FI(writeB);
            f8 br = SEL(both, SPLAT(stat.biasRate), SPLAT(soft.biasRate));
            f8 msk = SEL(both, SPLAT(stat.massScale), SPLAT(soft.massScale));
            f8 isk = SEL(both, SPLAT(stat.impulseScale), SPLAT(soft.impulseScale));
            f8 minBias = SPLAT(-maxBias);
            bias1 = SEL(spec1, VMAX(br * s1, minBias), s1 * ih);
            ms1 = SEL(spec1, msk, one);
            isc1 = SEL(spec1, isk, zero);
            bias2 = SEL(spec2, VMAX(br * s2, minBias), s2 * ih);
            ms2 = SEL(spec2, msk, one);
            isc2 = SEL(spec2, isk, zero);
        } else {
            bias1 = SEL(spec1, zero, s1 * ih);
            ms1 = one;
            isc1 = zero;
            bias2 = SEL(spec2, zero, s2 * ih);
            ms2 = one;
            isc2 = zero;
        }
    }
    f8 dvn = (b->vx - a->vx) * nx + (b->vy - a->vy) * ny;
    f8 vn1 = dvn + b->w * F(rn1B) - a->w * F(rn1A);
    f8 vn2 = dvn + b->w * F(rn2B) - a->w * F(rn2A);
    f8 l1 = F(ln1), l2 = F(ln2);
    f8 k12 = F(k12), k11 = F(k11), k22 = F(k22);
    f8 i11 = F(i11);
    i8 block = i11 > 0.0f;
    if (useBias) block &= soft_block(k11, i11, VMAX(isc1, isc2));
    // Each lane takes one of three results: the rows one after the other (not a block lane),
    // the block solve with both points active, or one of its fallbacks. Only the kinds some
    // lane needs are computed (a resting stack's lanes are nearly all block lanes with both
    // points active); every lane's arithmetic is the same either way.
    f8 s1 = zero, s2 = zero;
    if (!ALL(block)) {
        s1 = VMAX(l1 - F(nm1) * ms1 * (vn1 + bias1) - isc1 * l1, zero);
        s2 = VMAX(l2 - F(nm2) * ms2 * (vn2 + k12 * (s1 - l1) + bias2) - isc2 * l2, zero);
    }
    f8 x1 = zero, x2 = zero;
    if (ANY(block)) {
        f8 b1 = ms1 * (vn1 + bias1) + isc1 * k11 * l1;
        f8 b2 = ms2 * (vn2 + bias2) + isc2 * k22 * l2;
        f8 i12 = F(i12), i22 = F(i22);
        f8 xa1 = l1 - (i11 * b1 + i12 * b2), xa2 = l2 - (i12 * b1 + i22 * b2);
        i8 caseBoth = (xa1 >= 0.0f) & (xa2 >= 0.0f);
        if (ALL(caseBoth | ~block)) {
            x1 = xa1;
            x2 = xa2;
        } else {
            f8 y1 = l1 + (k12 * l2 - b1) / k11;
            i8 case1 = (y1 >= 0.0f) & (k12 * (y1 - l1) - k22 * l2 + b2 >= 0.0f);
            f8 y2 = l2 + (k12 * l1 - b2) / k22;
            i8 case2 = (y2 >= 0.0f) & (k12 * (y2 - l2) - k11 * l1 + b1 >= 0.0f);
            x1 = SEL(case1, zero, y1);
            x2 = SEL(case2 & ~case1, zero, y2);
            x1 = SEL(caseBoth, x1, xa1);
            x2 = SEL(caseBoth, x2, xa2);
        }
    }

    f8 n1 = SEL(block, s1, x1), n2 = SEL(block, s2, x2);
    f8 d1 = n1 - l1, d2 = n2 - l2;
    ST(ln1, n1);
    ST(ln2, n2);
    ST(mx1, VMAX(F(mx1), d1));
    ST(mx2, VMAX(F(mx2), d2));
    f8 dn = d1 + d2;
    f8 mA = F(mA), mB = F(mB);
    a->vx -= mA * dn * nx;
    a->vy -= mA * dn * ny;
    b->vx += mB * dn * nx;
    b->vy += mB * dn * ny;
    a->w -= F(iA) * (d1 * F(rn1A) + d2 * F(rn2A));
    b->w += F(iB) * (d1 * F(rn1B) + d2 * F(rn2B));
}

/// Coulomb friction of one point (fields `rtA`, `rtB`, `lt`, `ln`, `tm` of the batch),
/// tangent t = (ny, -nx).
#define FRICTION_POINT(rtAf, rtBf, ltf, lnf, tmf)                                                   \
    do {                                                                                          \
        f8 rtA = F(rtAf), rtB = F(rtBf), lt = F(ltf);                                             \
        f8 vt = (b->vx - a->vx) * ny - (b->vy - a->vy) * nx + b->w * rtB - a->w * rtA;            \
        f8 maxF = mu * F(lnf);                                                                    \
        f8 nt = VMIN(VMAX(lt - F(tmf) * vt, -maxF), maxF);                                        \
        f8 dt = nt - lt;                                                                          \
        ST(ltf, nt);                                                                              \
        a->vx -= mA * dt * ny;                                                                    \
        a->vy += mA * dt * nx;                                                                    \
        b->vx += mB * dt * ny;                                                                    \
        b->vy -= mB * dt * nx;                                                                    \
        a->w -= iA * dt * rtA;                                                                    \
        b->w += iB * dt * rtB;                                                                    \
    } while (0)

/// Coulomb friction, point 1 then point 2.
AI void friction(DKWideContact *c0, DKWideContact *c1, int two, V8 *a, V8 *b) {
    const f8 nx = F(nx), ny = F(ny), mA = F(mA), mB = F(mB), iA = F(iA), iB = F(iB), mu = F(friction);
    FRICTION_POINT(rt1A, rt1B, lt1, ln1, tm1);
    FRICTION_POINT(rt2A, rt2B, lt2, ln2, tm2);
}

/// Two batches of a colour (or the last one alone, its lanes doubled and not written back):
/// their bodies' indices and velocities.
typedef struct {
    DKWideContact *c0, *c1;
    int two;
    int32_t ia[8], ib[8];
    V8 a, b;
} Pair;

AI void pair_bodies(DKWideContact *batches, intptr_t k, intptr_t count, intptr_t bodyCount, Pair *p) {
    p->two = k + 1 < count;
    p->c0 = batches + k;
    p->c1 = p->two ? p->c0 + 1 : p->c0;
    check_bodies(p->c0, bodyCount);
    check_bodies(p->c1, bodyCount);
    indices(p->c0->bodyA, p->c1->bodyA, p->ia);
    indices(p->c0->bodyB, p->c1->bodyB, p->ib);
}

/// Velocities only (the warm start).
AI void pair_load(DKWideContact *batches, intptr_t k, intptr_t count, const float *states, intptr_t bodyCount, Pair *p) {
    pair_bodies(batches, k, count, bodyCount, p);
    gather_v(states, p->ia, &p->a);
    gather_v(states, p->ib, &p->b);
}

AI void pair_store(float *states, const Pair *p) {
    scatter_v(states, p->ia, p->c0->writeA, p->c1->writeA, &p->a, p->two);
    scatter_v(states, p->ib, p->c0->writeB, p->c1->writeB, &p->b, p->two);
}

// MARK: One lane at a time

// A colour of one batch with one or two contacts (a small world's usual case) is solved lane
// by lane with scalar floats: the same operations as the eight-lane passes above, in the same
// order, so every lane's result is bit for bit the same either way (tested), without the
// work of eight lanes of which six are padding or doubled.

/// 1: never take the one-lane path (tests compare the two).
static _Atomic int forcedLanes = 0;

void dk_wide_force_lanes(int on) { atomic_store_explicit(&forcedLanes, on ? 1 : 0, memory_order_relaxed); }

/// The lanes of a lone batch that write a body (padding lanes write none), or 0 when the
/// eight-lane passes should run: several batches, or more than two contacts.
AI int lone_lanes(const DKWideContact *c, intptr_t count) {
    if (count != 1 || atomic_load_explicit(&forcedLanes, memory_order_relaxed)) return 0;
    int lanes = 0;
    for (int l = 0; l < 4; l++) lanes += (c->writeA[l] | c->writeB[l]) != 0;
    return lanes <= 2 ? 1 : 0;
}

/// `b` if `m`, else `a` (the eight-lane `SEL`); the larger / smaller as `VMAX` / `VMIN` pick.
#define SEL1(m, a, b) ((m) ? (b) : (a))
#define MAX1(a, b) SEL1((a) < (b), (a), (b))
#define MIN1(a, b) SEL1((b) < (a), (a), (b))

typedef struct { float vx, vy, w; } V1;

AI V1 load_v(const float *s, int32_t i) {
    const float *r = s + 8 * (intptr_t)i;
    V1 v = {r[0], r[1], r[2]};
    return v;
}

AI void store_v(float *s, int32_t i, V1 v) {
    float *r = s + 8 * (intptr_t)i;
    r[0] = v.vx;
    r[1] = v.vy;
    r[2] = v.w;
    r[3] = 0.0f;
}

AI void lane_warm_start(DKWideContact *c, int l, float *states) {
    V1 a = load_v(states, c->bodyA[l]), b = load_v(states, c->bodyB[l]);
    float nx = c->nx[l], ny = c->ny[l];
    float l1 = c->ln1[l], l2 = c->ln2[l], t1 = c->lt1[l], t2 = c->lt2[l];
    float sn = l1 + l2, stt = t1 + t2;
    float px = sn * nx + stt * ny, py = sn * ny - stt * nx;
    float mA = c->mA[l], mB = c->mB[l];
    a.vx -= mA * px;
    a.vy -= mA * py;
    b.vx += mB * px;
    b.vy += mB * py;
    a.w -= c->iA[l] * (l1 * c->rn1A[l] + t1 * c->rt1A[l] + l2 * c->rn2A[l] + t2 * c->rt2A[l]);
    b.w += c->iB[l] * (l1 * c->rn1B[l] + t1 * c->rt1B[l] + l2 * c->rn2B[l] + t2 * c->rt2B[l]);
    if (c->writeA[l]) store_v(states, c->bodyA[l], a);
    if (c->writeB[l]) store_v(states, c->bodyB[l], b);
}

/// One point's friction (the eight-lane `FRICTION_POINT`).
#define LANE_FRICTION(rtAf, rtBf, ltf, lnf, tmf)                                                    \
    do {                                                                                          \
        float rtA = c->rtAf[l], rtB = c->rtBf[l], lt = c->ltf[l];                                 \
        float vt = (b.vx - a.vx) * ny - (b.vy - a.vy) * nx + b.w * rtB - a.w * rtA;               \
        float maxF = mu * c->lnf[l];                                                              \
        float nt = MIN1(MAX1(lt - c->tmf[l] * vt, -maxF), maxF);                                  \
        float dt = nt - lt;                                                                       \
        c->ltf[l] = nt;                                                                           \
        a.vx -= mA * dt * ny;                                                                     \
        a.vy += mA * dt * nx;                                                                     \
        b.vx += mB * dt * ny;                                                                     \
        b.vy -= mB * dt * nx;                                                                     \
        a.w -= iA * dt * rtA;                                                                     \
        b.w += iB * dt * rtB;                                                                     \
    } while (0)

AI void lane_solve(DKWideContact *c, int l, float *states, float invH, float maxBias, DKSoftness soft,
                   DKSoftness stat, int useBias) {
    int32_t ia = c->bodyA[l], ib = c->bodyB[l];
    V1 a = load_v(states, ia), b = load_v(states, ib);
    const float *ra = states + 8 * (intptr_t)ia + 4, *rb = states + 8 * (intptr_t)ib + 4;
    float nx = c->nx[l], ny = c->ny[l];
    float bias1, ms1, isc1, bias2, ms2, isc2;
    {
        float dpn = (rb[0] - ra[0]) * nx + (rb[1] - ra[1]) * ny;
        float s1 = dpn + (rb[3] * c->rn1B[l] - rb[2] * c->rt1B[l]) - (ra[3] * c->rn1A[l] - ra[2] * c->rt1A[l]) + c->adj1[l];
        float s2 = dpn + (rb[3] * c->rn2B[l] - rb[2] * c->rt2B[l]) - (ra[3] * c->rn2A[l] - ra[2] * c->rt2A[l]) + c->adj2[l];
        int spec1 = s1 > 0.0f, spec2 = s2 > 0.0f;
        if (useBias) {
            int both = c->writeA[l] && c->writeB[l];
            float br = SEL1(both, stat.biasRate, soft.biasRate);
            float msk = SEL1(both, stat.massScale, soft.massScale);
            float isk = SEL1(both, stat.impulseScale, soft.impulseScale);
            float minBias = -maxBias;
            bias1 = SEL1(spec1, MAX1(br * s1, minBias), s1 * invH);
            ms1 = SEL1(spec1, msk, 1.0f);
            isc1 = SEL1(spec1, isk, 0.0f);
            bias2 = SEL1(spec2, MAX1(br * s2, minBias), s2 * invH);
            ms2 = SEL1(spec2, msk, 1.0f);
            isc2 = SEL1(spec2, isk, 0.0f);
        } else {
            bias1 = SEL1(spec1, 0.0f, s1 * invH);
            ms1 = 1.0f;
            isc1 = 0.0f;
            bias2 = SEL1(spec2, 0.0f, s2 * invH);
            ms2 = 1.0f;
            isc2 = 0.0f;
        }
    }
    float dvn = (b.vx - a.vx) * nx + (b.vy - a.vy) * ny;
    float vn1 = dvn + b.w * c->rn1B[l] - a.w * c->rn1A[l];
    float vn2 = dvn + b.w * c->rn2B[l] - a.w * c->rn2A[l];
    float l1 = c->ln1[l], l2 = c->ln2[l];
    float k12 = c->k12[l], k11 = c->k11[l], k22 = c->k22[l], i11 = c->i11[l];
    float n1, n2;
    if (!(i11 > 0.0f) || (useBias && !(2.0f * k11 * i11 * MAX1(isc1, isc2) <= 1.0f))) {
        n1 = MAX1(l1 - c->nm1[l] * ms1 * (vn1 + bias1) - isc1 * l1, 0.0f);
        n2 = MAX1(l2 - c->nm2[l] * ms2 * (vn2 + k12 * (n1 - l1) + bias2) - isc2 * l2, 0.0f);
    } else {
        float b1 = ms1 * (vn1 + bias1) + isc1 * k11 * l1;
        float b2 = ms2 * (vn2 + bias2) + isc2 * k22 * l2;
        float i12 = c->i12[l], i22 = c->i22[l];
        float xa1 = l1 - (i11 * b1 + i12 * b2), xa2 = l2 - (i12 * b1 + i22 * b2);
        if (xa1 >= 0.0f && xa2 >= 0.0f) {
            n1 = xa1;
            n2 = xa2;
        } else {
            float y1 = l1 + (k12 * l2 - b1) / k11;
            int case1 = (y1 >= 0.0f) && (k12 * (y1 - l1) - k22 * l2 + b2 >= 0.0f);
            float y2 = l2 + (k12 * l1 - b2) / k22;
            int case2 = (y2 >= 0.0f) && (k12 * (y2 - l2) - k11 * l1 + b1 >= 0.0f);
            n1 = SEL1(case1, 0.0f, y1);
            n2 = SEL1(case2 && !case1, 0.0f, y2);
        }
    }
    float d1 = n1 - l1, d2 = n2 - l2;
    c->ln1[l] = n1;
    c->ln2[l] = n2;
    c->mx1[l] = MAX1(c->mx1[l], d1);
    c->mx2[l] = MAX1(c->mx2[l], d2);
    float dn = d1 + d2;
    float mA = c->mA[l], mB = c->mB[l], iA = c->iA[l], iB = c->iB[l], mu = c->friction[l];
    a.vx -= mA * dn * nx;
    a.vy -= mA * dn * ny;
    b.vx += mB * dn * nx;
    b.vy += mB * dn * ny;
    a.w -= iA * (d1 * c->rn1A[l] + d2 * c->rn2A[l]);
    b.w += iB * (d1 * c->rn1B[l] + d2 * c->rn2B[l]);
    if (!useBias) {
        LANE_FRICTION(rt1A, rt1B, lt1, ln1, tm1);
        LANE_FRICTION(rt2A, rt2B, lt2, ln2, tm2);
    }
    if (c->writeA[l]) store_v(states, ia, a);
    if (c->writeB[l]) store_v(states, ib, b);
}

AI void warm_start_impl(DKWideContact *batches, intptr_t count, float *states, intptr_t bodyCount) {
    if (count > 0 && lone_lanes(batches, count)) {
        check_bodies(batches, bodyCount);
        for (int l = 0; l < 4; l++) {
            if (batches->writeA[l] | batches->writeB[l]) lane_warm_start(batches, l, states);
        }
        return;
    }
    for (intptr_t k = 0; k < count; k += 2) {
        Pair p;
        pair_load(batches, k, count, states, bodyCount, &p);
        DKWideContact *c0 = p.c0, *c1 = p.c1;
        f8 nx = F(nx), ny = F(ny);
        f8 l1 = F(ln1), l2 = F(ln2), t1 = F(lt1), t2 = F(lt2);
        f8 sn = l1 + l2, stt = t1 + t2;
        f8 px = sn * nx + stt * ny, py = sn * ny - stt * nx;
        f8 mA = F(mA), mB = F(mB);
        p.a.vx -= mA * px;
        p.a.vy -= mA * py;
        p.b.vx += mB * px;
        p.b.vy += mB * py;
        p.a.w -= F(iA) * (l1 * F(rn1A) + t1 * F(rt1A) + l2 * F(rn2A) + t2 * F(rt2A));
        p.b.w += F(iB) * (l1 * F(rn1B) + t1 * F(rt1B) + l2 * F(rn2B) + t2 * F(rt2B));
        pair_store(states, &p);
    }
}

/// The biased pass (soft normal rows) or the relax pass (rigid normal rows, then friction):
/// as in Box2D v3.2, friction is solved in the relax pass only. Solved in the biased pass as
/// well, against impulses that include the soft push-out, it kept a tall pile vibrating at
/// about 5 Hz (pile 10000 never came to rest).
AI void solve_impl(DKWideContact *batches, intptr_t count, float *states, intptr_t bodyCount, float invH,
                   float maxBiasVelocity, DKSoftness soft, DKSoftness staticSoft, int useBias) {
    if (count > 0 && lone_lanes(batches, count)) {
        check_bodies(batches, bodyCount);
        for (int l = 0; l < 4; l++) {
            if (batches->writeA[l] | batches->writeB[l]) {
                lane_solve(batches, l, states, invH, maxBiasVelocity, soft, staticSoft, useBias);
            }
        }
        return;
    }
    for (intptr_t k = 0; k < count; k += 2) {
        Pair p;
        D8 da, db;
        pair_bodies(batches, k, count, bodyCount, &p);
        gather_full(states, p.ia, &p.a, &da);
        gather_full(states, p.ib, &p.b, &db);
        DKWideContact *c0 = p.c0, *c1 = p.c1;
        int two = p.two;
        normal_rows(c0, c1, two, &p.a, &p.b, &da, &db, invH, maxBiasVelocity, soft, staticSoft, useBias);
        if (!useBias) friction(c0, c1, two, &p.a, &p.b);
        pair_store(states, &p);
    }
}

static const DKSoftness rigid = {0.0f, 1.0f, 0.0f};

// Baseline x86-64 (SSE2): the eight lanes as two four-lane halves.
static void warm_start_base(DKWideContact *c, intptr_t n, float *s, intptr_t nb) { warm_start_impl(c, n, s, nb); }
static void solve_base(DKWideContact *c, intptr_t n, float *s, intptr_t nb, float invH, float maxBias, DKSoftness soft,
                       DKSoftness stat) {
    solve_impl(c, n, s, nb, invH, maxBias, soft, stat, 1);
}
static void relax_base(DKWideContact *c, intptr_t n, float *s, intptr_t nb, float invH) {
    solve_impl(c, n, s, nb, invH, 0.0f, rigid, rigid, 0);
}

#if DK_X86_DISPATCH
// AVX2 (not FMA: the products and sums stay separate IEEE operations).
__attribute__((target("avx2"))) static void warm_start_avx2(DKWideContact *c, intptr_t n, float *s, intptr_t nb) {
    warm_start_impl(c, n, s, nb);
}
__attribute__((target("avx2"))) static void solve_avx2(DKWideContact *c, intptr_t n, float *s, intptr_t nb, float invH,
                                                       float maxBias, DKSoftness soft, DKSoftness stat) {
    solve_impl(c, n, s, nb, invH, maxBias, soft, stat, 1);
}
__attribute__((target("avx2"))) static void relax_avx2(DKWideContact *c, intptr_t n, float *s, intptr_t nb, float invH) {
    solve_impl(c, n, s, nb, invH, 0.0f, rigid, rigid, 0);
}
#endif

/// 0: choose by processor; 1: baseline only (tests compare the two).
static _Atomic int forcedBaseline = 0;

void dk_wide_force_baseline(int on) { atomic_store_explicit(&forcedBaseline, on ? 1 : 0, memory_order_relaxed); }

int dk_wide_uses_avx2(void) {
#if DK_X86_DISPATCH
    return !atomic_load_explicit(&forcedBaseline, memory_order_relaxed) && __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

void dk_wide_warm_start(void *batches, intptr_t count, void *states, intptr_t bodyCount) {
#if DK_X86_DISPATCH
    if (dk_wide_uses_avx2()) { warm_start_avx2(batches, count, states, bodyCount); return; }
#endif
    warm_start_base(batches, count, states, bodyCount);
}

void dk_wide_solve(void *batches, intptr_t count, void *states, intptr_t bodyCount, float invH, float maxBiasVelocity,
                   DKSoftness soft, DKSoftness staticSoft) {
#if DK_X86_DISPATCH
    if (dk_wide_uses_avx2()) {
        solve_avx2(batches, count, states, bodyCount, invH, maxBiasVelocity, soft, staticSoft);
        return;
    }
#endif
    solve_base(batches, count, states, bodyCount, invH, maxBiasVelocity, soft, staticSoft);
}

void dk_wide_relax(void *batches, intptr_t count, void *states, intptr_t bodyCount, float invH) {
#if DK_X86_DISPATCH
    if (dk_wide_uses_avx2()) { relax_avx2(batches, count, states, bodyCount, invH); return; }
#endif
    relax_base(batches, count, states, bodyCount, invH);
}

// MARK: A lone batch

// A small island's usual case, a colour of one batch with one or two contacts and nothing
// else to solve: the engine asks once per step (`dk_lone_batch`, which names the live lanes)
// and then hands the whole island's sub-steps to `dk_lone_island` — its bodies' velocity and
// position stages too, so a menu resting on its boundary makes one call a step instead of
// two a sub-step, and no lane is looked for again. The lane passes are plain scalar
// arithmetic, the same on every x86-64 processor.

int dk_lone_batch(const void *batches, intptr_t count) {
    const DKWideContact *c = batches;
    if (!lone_lanes(c, count)) return 0;
    int mask = 0;
    for (int l = 0; l < 4; l++) mask |= ((c->writeA[l] | c->writeB[l]) != 0) << l;
    return mask;
}

/// A sub-step's velocity stage for the island's bodies (the engine's `BodyIntegration.velocities`).
AI void lone_velocities(float *s, const DKLoneBody *bodies, intptr_t n, const DKLoneStep *st) {
    const float maxSpeed = st->maxLinearSpeed, maxSpeedSq = maxSpeed * maxSpeed, maxAng = st->maxAngularSpeed;
    for (intptr_t k = 0; k < n; k++) {
        const DKLoneBody *b = bodies + k;
        float *r = s + 8 * (intptr_t)b->index;
        float vx = b->linDamp * (r[0] + b->dvx), vy = b->linDamp * (r[1] + b->dvy);
        float w = b->angDamp * (r[2] + b->dw);
        float sp = vx * vx + vy * vy;
        if (sp > maxSpeedSq) {
            float f = maxSpeed / __builtin_sqrtf(sp);
            vx *= f;
            vy *= f;
        }
        if (__builtin_fabsf(w) > maxAng) w = w > 0.0f ? maxAng : -maxAng;
        r[0] = vx;
        r[1] = vy;
        r[2] = w;
    }
}

/// A sub-step's position stage (the engine's `BodyIntegration.positions`): the rotation
/// change turned by h·w and renormalised, the move advanced by h·v.
AI void lone_positions(float *s, const DKLoneBody *bodies, intptr_t n, float h) {
    for (intptr_t k = 0; k < n; k++) {
        float *r = s + 8 * (intptr_t)bodies[k].index;
        float da = h * r[2];
        float c = r[6], sn = r[7];
        float c2 = c - da * sn, s2 = sn + da * c;
        float mag = __builtin_sqrtf(c2 * c2 + s2 * s2);
        float inv = mag > 0.0f ? 1.0f / mag : 0.0f;
        r[6] = c2 * inv;
        r[7] = s2 * inv;
        r[4] = r[4] + h * r[0];
        r[5] = r[5] + h * r[1];
    }
}

void dk_lone_island(void *batch, int lanes, void *states, intptr_t bodyCount, const DKLoneBody *bodies, intptr_t bodyN,
                    intptr_t subSteps, const DKLoneStep *step) {
    DKWideContact *c = batch;
    float *s = states;
    check_bodies(c, bodyCount);
#if DEBUG
    DK_CHECK(lanes > 0 && lanes < 16, "lone island: lane mask %d", lanes);
    for (intptr_t k = 0; k < bodyN; k++) {
        DK_CHECK(bodies[k].index >= 0 && bodies[k].index < bodyCount, "lone island: body %d outside 0..<%ld",
                 (int)bodies[k].index, (long)bodyCount);
    }
#endif
    const float h = step->h, invH = step->invH, maxBias = step->maxBiasVelocity;
    const DKSoftness soft = step->soft, staticSoft = step->staticSoft;
    for (intptr_t sub = 0; sub < subSteps; sub++) {
        lone_velocities(s, bodies, bodyN, step);
        for (int m = lanes; m; m &= m - 1) lane_warm_start(c, __builtin_ctz(m), s);
        for (int m = lanes; m; m &= m - 1) lane_solve(c, __builtin_ctz(m), s, invH, maxBias, soft, staticSoft, 1);
        lone_positions(s, bodies, bodyN, h);
        for (int m = lanes; m; m &= m - 1) lane_solve(c, __builtin_ctz(m), s, invH, 0.0f, rigid, rigid, 0);
    }
}

// MARK: Preparation

AI void store4(float *dst, f4 v) { memcpy(dst, &v, 16); }
AI void store4i(int32_t *dst, i4 v) { memcpy(dst, &v, 16); }
AI f4 ld4(const float *p) {
    f4 r;
    memcpy(&r, p, 16);
    return r;
}
AI i4 ld4i(const int32_t *p) {
    i4 r;
    memcpy(&r, p, 16);
    return r;
}
/// `b` where `m`, else `a`, four lanes.
AI f4 sel4(i4 m, f4 a, f4 b) { return (f4)(((i4)b & m) | ((i4)a & ~m)); }

/// Four floats at `offset` bytes into `p`.
AI f4 at4(const void *p, intptr_t offset) {
    f4 r;
    memcpy(&r, (const char *)p + offset, 16);
    return r;
}

/// One point of the four lanes: anchors from the centres (zero where `keep` is clear, as for
/// a missing second point or a padding lane), their cross products with the normal and the
/// tangent, the separation less the anchors' offset, the effective masses, the normal
/// velocity. The operations are those of the engine's scalar `ContactSolver.prepare`, in
/// its order, so every lane is bit for bit the scalar constraint.
AI void prepare_point(f4 px, f4 py, f4 sep, f4 ni, f4 ti, i4 keep, f4 nx, f4 ny, f4 cAx, f4 cAy, f4 cBx, f4 cBy, f4 mA,
                      f4 iA, f4 mB, f4 iB, f4 vAx, f4 vAy, f4 wA, f4 vBx, f4 vBy, f4 wB, float *rnAo, float *rnBo,
                      float *rtAo, float *rtBo, float *adjo, float *nmo, float *tmo, float *lno, float *lto, float *mxo,
                      float *rvo, f4 *rnAv, f4 *rnBv) {
    const f4 zero = {0.0f, 0.0f, 0.0f, 0.0f}, one = {1.0f, 1.0f, 1.0f, 1.0f};
    f4 rAx = sel4(keep, zero, px - cAx), rAy = sel4(keep, zero, py - cAy);
    f4 rBx = sel4(keep, zero, px - cBx), rBy = sel4(keep, zero, py - cBy);
    f4 adj = sep - ((rBx - rAx) * nx + (rBy - rAy) * ny);
    f4 rnA = rAx * ny - rAy * nx, rnB = rBx * ny - rBy * nx;
    f4 rtA = -(rAx * nx + rAy * ny), rtB = -(rBx * nx + rBy * ny);
    f4 mAB = mA + mB;
    f4 kN = mAB + iA * rnA * rnA + iB * rnB * rnB;
    f4 kT = mAB + iA * rtA * rtA + iB * rtB * rtB;
    f4 nm = sel4(kN > zero, zero, one / kN);
    f4 tm = sel4(kT > zero, zero, one / kT);
    // dv = vB + wB × rB − vA − wA × rA, with w × r = (−w·r.y, w·r.x).
    f4 dvx = vBx + -wB * rBy - vAx - -wA * rAy;
    f4 dvy = vBy + wB * rBx - vAy - wA * rAx;
    store4(rnAo, rnA);
    store4(rnBo, rnB);
    store4(rtAo, rtA);
    store4(rtBo, rtB);
    store4(adjo, sel4(keep, zero, adj));
    store4(nmo, sel4(keep, zero, nm));
    store4(tmo, sel4(keep, zero, tm));
    store4(lno, sel4(keep, zero, ni));
    store4(lto, sel4(keep, zero, ti));
    store4(mxo, zero);
    store4(rvo, sel4(keep, zero, nx * dvx + ny * dvy));
    *rnAv = rnA;
    *rnBv = rnB;
}

/// What a padding lane reads: zeros (no normal, no mass, no points).
static const float padding[32] __attribute__((aligned(16)));

AI int prepare_batch(const DKPrepareSource *src, const int32_t *contacts, intptr_t lanes, void *batch, void *extraOut) {
    DKWideContact *w = batch;
    DKWideExtra *x = extraOut;
    const DKContact *cs = src->contacts;
    const DKBodySim *sims = src->sims;
    const float *states = src->states;
    // Each lane's contact, manifold, bodies and velocities (padding lanes read zeros).
    const void *c[4], *m[4], *sa[4], *sb[4], *va[4], *vb[4];
    int32_t writeA[4], writeB[4], valid[4];
    DK_CHECK(lanes >= 1 && lanes <= 4, "a batch holds 1 to 4 contacts, not %ld", (long)lanes);
    DK_CHECK(src->padBody >= 0 && src->padBody < src->bodyCount, "padding body %d outside 0..<%ld", (int)src->padBody,
             (long)src->bodyCount);
    for (int l = 0; l < 4; l++) {
        if (l < lanes) {
            DK_CHECK(contacts[l] >= 0 && contacts[l] < src->contactCount, "lane %d: contact %d outside 0..<%ld", l,
                     (int)contacts[l], (long)src->contactCount);
            const DKContact *k = cs + contacts[l];
            int32_t a = k->bodyA, b = k->bodyB;
            DK_CHECK(k->slot >= 0 && k->slot < src->dataCount, "lane %d: contact data slot %d outside 0..<%ld", l,
                     (int)k->slot, (long)src->dataCount);
            DK_CHECK(a >= 0 && a < src->bodyCount && b >= 0 && b < src->bodyCount,
                     "lane %d: bodies %d, %d outside 0..<%ld", l, (int)a, (int)b, (long)src->bodyCount);
            c[l] = k;
            m[l] = (const char *)src->data + src->dataStride * (intptr_t)k->slot;
            sa[l] = sims + a;
            sb[l] = sims + b;
            va[l] = states + 8 * (intptr_t)a;
            vb[l] = states + 8 * (intptr_t)b;
            x->slot[l] = k->slot;
            writeA[l] = src->metaType[src->metaStride * (intptr_t)a] == src->dynamicType ? -1 : 0;
            writeB[l] = src->metaType[src->metaStride * (intptr_t)b] == src->dynamicType ? -1 : 0;
            valid[l] = -1;
        } else {
            c[l] = m[l] = sa[l] = sb[l] = va[l] = vb[l] = padding;
            x->slot[l] = -1;
            writeA[l] = writeB[l] = valid[l] = 0;
        }
    }
    const f4 zero = {0.0f, 0.0f, 0.0f, 0.0f}, one = {1.0f, 1.0f, 1.0f, 1.0f}, thousand = {1000.0f, 1000.0f, 1000.0f, 1000.0f};
    const i4 isValid = ld4i(valid);
    f4 bA, bB, fr, e, nx, ny, pcLo, pcHi, unused;
    // Contact: bodyA, bodyB, friction, restitution (offset 16).
    transpose4(at4(c[0], 16), at4(c[1], 16), at4(c[2], 16), at4(c[3], 16), &bA, &bB, &fr, &e);
    const i4 pad = {src->padBody, src->padBody, src->padBody, src->padBody};
    store4i(w->bodyA, (i4)sel4(isValid, (f4)pad, bA));
    store4i(w->bodyB, (i4)sel4(isValid, (f4)pad, bB));
    store4i(w->writeA, ld4i(writeA));
    store4i(w->writeB, ld4i(writeB));
    store4(w->friction, fr);
    store4(x->restitution, e);
    // Manifold: normal and point count (its low half), then the points' (x, y, anchor) and
    // (separation, id, normal impulse, tangent impulse).
    transpose4(at4(m[0], 0), at4(m[1], 0), at4(m[2], 0), at4(m[3], 0), &nx, &ny, &pcLo, &pcHi);
    store4(w->nx, nx);
    store4(w->ny, ny);
    f4 p1x, p1y, s1, n1, t1, p2x, p2y, s2, n2, t2;
    transpose4(at4(m[0], 16), at4(m[1], 16), at4(m[2], 16), at4(m[3], 16), &p1x, &p1y, &unused, &unused);
    transpose4(at4(m[0], 32), at4(m[1], 32), at4(m[2], 32), at4(m[3], 32), &s1, &unused, &n1, &t1);
    transpose4(at4(m[0], 56), at4(m[1], 56), at4(m[2], 56), at4(m[3], 56), &p2x, &p2y, &unused, &unused);
    transpose4(at4(m[0], 72), at4(m[1], 72), at4(m[2], 72), at4(m[3], 72), &s2, &unused, &n2, &t2);
    (void)pcHi;
    // Bodies: centres, inverse mass and inertia (`SIM_CENTER`, `SIM_INV_MASS`), velocities.
    f4 cAx, cAy, cBx, cBy, mA, iA, mB, iB, vAx, vAy, wA, vBx, vBy, wB;
    transpose4(at4(sa[0], SIM_CENTER), at4(sa[1], SIM_CENTER), at4(sa[2], SIM_CENTER), at4(sa[3], SIM_CENTER), &cAx, &cAy, &unused, &unused);
    transpose4(at4(sb[0], SIM_CENTER), at4(sb[1], SIM_CENTER), at4(sb[2], SIM_CENTER), at4(sb[3], SIM_CENTER), &cBx, &cBy, &unused, &unused);
    transpose4(at4(sa[0], SIM_INV_MASS), at4(sa[1], SIM_INV_MASS), at4(sa[2], SIM_INV_MASS), at4(sa[3], SIM_INV_MASS), &mA, &iA, &unused, &unused);
    transpose4(at4(sb[0], SIM_INV_MASS), at4(sb[1], SIM_INV_MASS), at4(sb[2], SIM_INV_MASS), at4(sb[3], SIM_INV_MASS), &mB, &iB, &unused, &unused);
    transpose4(at4(va[0], 0), at4(va[1], 0), at4(va[2], 0), at4(va[3], 0), &vAx, &vAy, &wA, &unused);
    transpose4(at4(vb[0], 0), at4(vb[1], 0), at4(vb[2], 0), at4(vb[3], 0), &vBx, &vBy, &wB, &unused);
    store4(w->mA, mA);
    store4(w->iA, iA);
    store4(w->mB, mB);
    store4(w->iB, iB);
    f4 rn1A, rn1B, rn2A, rn2B;
    prepare_point(p1x, p1y, s1, n1, t1, isValid, nx, ny, cAx, cAy, cBx, cBy, mA, iA, mB, iB, vAx, vAy, wA, vBx, vBy, wB,
                  w->rn1A, w->rn1B, w->rt1A, w->rt1B, w->adj1, w->nm1, w->tm1, w->ln1, w->lt1, w->mx1, x->rv1, &rn1A, &rn1B);
    const i4 oneCount = {1, 1, 1, 1};
    i4 second = (i4)pcLo > oneCount;
    prepare_point(p2x, p2y, s2, n2, t2, second, nx, ny, cAx, cAy, cBx, cBy, mA, iA, mB, iB, vAx, vAy, wA, vBx, vBy, wB,
                  w->rn2A, w->rn2B, w->rt2A, w->rt2B, w->adj2, w->nm2, w->tm2, w->ln2, w->lt2, w->mx2, x->rv2, &rn2A, &rn2B);
    // Two-point lanes: the 2x2 normal mass K; block-solved where well conditioned (K⁻¹ kept),
    // else K11 = K22 = 1 and K⁻¹ = 0. K12 stays for every two-point lane (point 2 sees point 1's
    // impulse through it); one-point and padding lanes have K12 = 0.
    f4 mAB = mA + mB;
    f4 k11 = mAB + iA * rn1A * rn1A + iB * rn1B * rn1B;
    f4 k22 = mAB + iA * rn2A * rn2A + iB * rn2B * rn2B;
    f4 k12 = mAB + iA * rn1A * rn2A + iB * rn1B * rn2B;
    f4 det = k11 * k22 - k12 * k12;
    i4 block = second & (k11 * k11 < thousand * det);
    f4 inv = one / det;
    store4(w->k12, sel4(second, zero, k12));
    store4(w->k11, sel4(block, one, k11));
    store4(w->k22, sel4(block, one, k22));
    store4(w->i11, sel4(block, zero, inv * k22));
    store4(w->i12, sel4(block, zero, -inv * k12));
    store4(w->i22, sel4(block, zero, inv * k11));
    // Rolling resistance and its impulse (beside the manifold; zeros for padding lanes), and
    // the relative rotation's effective mass 1 / (iA + iB).
    f4 rr, ri;
    transpose4(at4(m[0], 96), at4(m[1], 96), at4(m[2], 96), at4(m[3], 96), &rr, &ri, &unused, &unused);
    f4 kR = iA + iB;
    store4(x->rollingResistance, rr);
    store4(x->rollingMass, sel4(kR > zero, zero, one / kR));
    store4(x->rollingImpulse, ri);
    int flags = __builtin_reduce_or((i4)(e > zero) & isValid) != 0 ? DK_BATCH_BOUNCES : 0;
    if (__builtin_reduce_or((i4)(rr > zero) & isValid) != 0) flags |= DK_BATCH_ROLLS;
    return flags;
}

static int prepare_base(const DKPrepareSource *src, const int32_t *contacts, intptr_t lanes, void *batch, void *extra) {
    return prepare_batch(src, contacts, lanes, batch, extra);
}

#if DK_X86_DISPATCH
// The same four-lane operations with AVX2's three-operand encoding (fewer register copies).
__attribute__((target("avx2"))) static int prepare_avx2(const DKPrepareSource *src, const int32_t *contacts,
                                                        intptr_t lanes, void *batch, void *extra) {
    return prepare_batch(src, contacts, lanes, batch, extra);
}
#endif

/// Every 64-byte line of `[address, address + size)`, for 1 ≤ `size` ≤ 128 (a constant here):
/// the first byte, the byte 64 after it and the last byte lie in every line of the span, and
/// no branch depends on where the span starts.
AI void prefetch_span(const void *address, intptr_t size) {
    const char *a = address;
    __builtin_prefetch(a, 0, 3);
    if (size > 64) __builtin_prefetch(a + 64, 0, 3);
    __builtin_prefetch(a + size - 1, 0, 3);
}

void dk_prefetch_contacts(const DKPrepareSource *src, const int32_t *contacts, intptr_t lanes) {
    const DKContact *cs = src->contacts;
    for (intptr_t l = 0; l < lanes; l++) {
        DK_CHECK(contacts[l] >= 0 && contacts[l] < src->contactCount, "prefetch lane %ld: contact %d outside 0..<%ld",
                 (long)l, (int)contacts[l], (long)src->contactCount);
        prefetch_span(cs + contacts[l], (intptr_t)sizeof(DKContact));
    }
}

void dk_prefetch_batch(const DKPrepareSource *src, const int32_t *contacts, intptr_t lanes) {
    const DKContact *cs = src->contacts;
    const DKBodySim *sims = src->sims;
    const float *states = src->states;
    for (intptr_t l = 0; l < lanes; l++) {
        DK_CHECK(contacts[l] >= 0 && contacts[l] < src->contactCount, "prefetch lane %ld: contact %d outside 0..<%ld",
                 (long)l, (int)contacts[l], (long)src->contactCount);
        const DKContact *k = cs + contacts[l];
        int32_t a = k->bodyA, b = k->bodyB;
        DK_CHECK(k->slot >= 0 && k->slot < src->dataCount, "prefetch lane %ld: contact data slot %d outside 0..<%ld",
                 (long)l, (int)k->slot, (long)src->dataCount);
        DK_CHECK(a >= 0 && a < src->bodyCount && b >= 0 && b < src->bodyCount,
                 "prefetch lane %ld: bodies %d, %d outside 0..<%ld", (long)l, (int)a, (int)b, (long)src->bodyCount);
        // What `prepare_batch` reads: the manifold and the rolling fields after it, the
        // bodies' centres through their inverse inertia, their velocities, their type bytes.
        prefetch_span((const char *)src->data + src->dataStride * (intptr_t)k->slot, 112);
        prefetch_span((const char *)(sims + a) + SIM_CENTER, SIM_READ);
        prefetch_span((const char *)(sims + b) + SIM_CENTER, SIM_READ);
        prefetch_span(states + 8 * (intptr_t)a, 32);
        prefetch_span(states + 8 * (intptr_t)b, 32);
        __builtin_prefetch(src->metaType + src->metaStride * (intptr_t)a, 0, 3);
        __builtin_prefetch(src->metaType + src->metaStride * (intptr_t)b, 0, 3);
    }
}

int dk_prepare_batch(const DKPrepareSource *src, const int32_t *contacts, intptr_t lanes, void *batch, void *extra) {
#if DK_X86_DISPATCH
    if (dk_wide_uses_avx2()) return prepare_avx2(src, contacts, lanes, batch, extra);
#endif
    return prepare_base(src, contacts, lanes, batch, extra);
}
