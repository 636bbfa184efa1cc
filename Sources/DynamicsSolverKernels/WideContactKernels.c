// The contact passes of the engine's colour batches (see DynamicsSolverKernels.h).
//
// The same operations as four-lane SSE, in the same order: every product, sum and select of
// one lane is computed exactly as the Swift solver wrote it (`WideContactSolver` before this
// file), so a lane's result does not depend on how many lanes run beside it. Two batches of one
// colour share no dynamic body, so they are solved side by side as eight lanes; AVX2 makes that
// one instruction where SSE needs two, chosen at run time by the processor.

#include "DynamicsSolverKernels.h"
#include <stdatomic.h>
#include <string.h>

#pragma clang fp contract(off)
// The eight-lane helpers are always inlined, so no vector crosses a call in the SSE clone.
#pragma clang diagnostic ignored "-Wpsabi"

typedef float f8 __attribute__((vector_size(32)));
typedef int32_t i8 __attribute__((vector_size(32)));
typedef float f4 __attribute__((vector_size(16)));
typedef int32_t i4 __attribute__((vector_size(16)));

#if defined(__x86_64__) && defined(__clang__)
#define DK_X86_DISPATCH 1
#else
#define DK_X86_DISPATCH 0
#endif

#define AI static inline __attribute__((always_inline))

// Eight-lane values never cross a function boundary (the SSE clone's calling convention has
// no 256-bit registers): the helpers below are macros or take pointers.
#define SPLAT(x) ((f8){(x), (x), (x), (x), (x), (x), (x), (x)})
/// `b` where `m`, else `a` (Swift's `a.replacing(with: b, where: m)`).
#define SEL(m, a, b) ((f8)((((i8)(b)) & (m)) | (((i8)(a)) & ~(m))))
#define VMAX(a, b) SEL((a) < (b), (a), (b))
#define VMIN(a, b) SEL((b) < (a), (a), (b))
#define CAT(a, b) __builtin_shufflevector((a), (b), 0, 1, 2, 3, 4, 5, 6, 7)

/// One field of two batches as eight lanes.
#define LD(lo, hi) ({ f4 la_, lb_; memcpy(&la_, (lo), 16); memcpy(&lb_, (hi), 16); (f8)CAT(la_, lb_); })
#define LDI(lo, hi) ({ i4 la_, lb_; memcpy(&la_, (lo), 16); memcpy(&lb_, (hi), 16); (i8)CAT(la_, lb_); })

/// Stores eight lanes back to two batches (only the first when there is one).
AI void st(float *lo, float *hi, const f8 *v, int two) {
    f4 a = __builtin_shufflevector(*v, *v, 0, 1, 2, 3);
    memcpy(lo, &a, 16);
    if (two) {
        f4 b = __builtin_shufflevector(*v, *v, 4, 5, 6, 7);
        memcpy(hi, &b, 16);
    }
}

#define F(name) LD(c0->name, c1->name)
#define FI(name) LDI(c0->name, c1->name)
#define ST(name, v) do { f8 sv_ = (v); st(c0->name, c1->name, &sv_, two); } while (0)

typedef struct { f8 vx, vy, w; } V8;
typedef struct { f8 dx, dy, c, s; } D8;

AI f4 row(const float *states, int32_t i, int off) {
    f4 r;
    memcpy(&r, states + 8 * (intptr_t)i + off, 16);
    return r;
}

AI void transpose4(f4 r0, f4 r1, f4 r2, f4 r3, f4 *x, f4 *y, f4 *z, f4 *w) {
    f4 t0 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5);
    f4 t1 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5);
    f4 t2 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);
    f4 t3 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
    *x = __builtin_shufflevector(t0, t1, 0, 1, 4, 5);
    *y = __builtin_shufflevector(t0, t1, 2, 3, 6, 7);
    *z = __builtin_shufflevector(t2, t3, 0, 1, 4, 5);
    *w = __builtin_shufflevector(t2, t3, 2, 3, 6, 7);
}

/// The body indices of two batches' lanes.
AI void indices(const int32_t *lo, const int32_t *hi, int32_t out[8]) {
    memcpy(out, lo, 16);
    memcpy(out + 4, hi, 16);
}

/// The four floats at `off` of eight bodies' states, as four columns.
AI void gather(const float *s, const int32_t idx[8], int off, f8 col[4]) {
    f4 x0, y0, z0, w0, x1, y1, z1, w1;
    transpose4(row(s, idx[0], off), row(s, idx[1], off), row(s, idx[2], off), row(s, idx[3], off), &x0, &y0, &z0, &w0);
    transpose4(row(s, idx[4], off), row(s, idx[5], off), row(s, idx[6], off), row(s, idx[7], off), &x1, &y1, &z1, &w1);
    col[0] = CAT(x0, x1);
    col[1] = CAT(y0, y1);
    col[2] = CAT(z0, z1);
    col[3] = CAT(w0, w1);
}

/// (v.x, v.y, w) of eight bodies.
AI void gather_v(const float *s, const int32_t idx[8], V8 *out) {
    f8 col[4];
    gather(s, idx, 0, col);
    out->vx = col[0];
    out->vy = col[1];
    out->w = col[2];
}

/// (dp.x, dp.y, dq.c, dq.s) of eight bodies.
AI void gather_d(const float *s, const int32_t idx[8], D8 *out) {
    f8 col[4];
    gather(s, idx, 4, col);
    out->dx = col[0];
    out->dy = col[1];
    out->c = col[2];
    out->s = col[3];
}

/// Rows (v.x, v.y, w, 0) of four lanes from their columns.
AI void rows4(f4 x, f4 y, f4 w, f4 out[4]) {
    const f4 zero = {0.0f, 0.0f, 0.0f, 0.0f};
    f4 u0 = __builtin_shufflevector(x, y, 0, 4, 1, 5);
    f4 u1 = __builtin_shufflevector(x, y, 2, 6, 3, 7);
    f4 p0 = __builtin_shufflevector(w, zero, 0, 4, 1, 5);
    f4 p1 = __builtin_shufflevector(w, zero, 2, 6, 3, 7);
    out[0] = __builtin_shufflevector(u0, p0, 0, 1, 4, 5);
    out[1] = __builtin_shufflevector(u0, p0, 2, 3, 6, 7);
    out[2] = __builtin_shufflevector(u1, p1, 0, 1, 4, 5);
    out[3] = __builtin_shufflevector(u1, p1, 2, 3, 6, 7);
}

/// Writes (v.x, v.y, w, 0) of the lanes the solver owns (`maskLo`, `maskHi`: the two
/// batches' write flags; `two`: whether the second batch exists).
AI void scatter_v(float *s, const int32_t idx[8], const int32_t *maskLo, const int32_t *maskHi, const V8 *v, int two) {
    f4 r[4];
    rows4(__builtin_shufflevector(v->vx, v->vx, 0, 1, 2, 3), __builtin_shufflevector(v->vy, v->vy, 0, 1, 2, 3),
          __builtin_shufflevector(v->w, v->w, 0, 1, 2, 3), r);
    for (int l = 0; l < 4; l++) {
        if (maskLo[l]) memcpy(s + 8 * (intptr_t)idx[l], &r[l], 16);
    }
    if (!two) return;
    rows4(__builtin_shufflevector(v->vx, v->vx, 4, 5, 6, 7), __builtin_shufflevector(v->vy, v->vy, 4, 5, 6, 7),
          __builtin_shufflevector(v->w, v->w, 4, 5, 6, 7), r);
    for (int l = 0; l < 4; l++) {
        if (maskHi[l]) memcpy(s + 8 * (intptr_t)idx[4 + l], &r[l], 16);
    }
}

/// The normal rows: soft (biased pass) or rigid (relax pass), point 1 then point 2 seeing
/// point 1's impulse through K12, or the 2x2 block LCP where the lane is a block lane.
AI void normal_rows(DKWideContact *c0, DKWideContact *c1, int two, V8 *a, V8 *b, const float *states,
                    const int32_t *ia, const int32_t *ib, float invH, float maxBias, DKSoftness soft, DKSoftness stat,
                    int useBias) {
    const f8 nx = F(nx), ny = F(ny);
    const f8 zero = SPLAT(0.0f);
    f8 bias1, ms1, isc1, bias2, ms2, isc2;
    {
        D8 da, db;
        gather_d(states, ia, &da);
        gather_d(states, ib, &db);
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

    f8 s1 = VMAX(l1 - F(nm1) * ms1 * (vn1 + bias1) - isc1 * l1, zero);
    f8 s2 = VMAX(l2 - F(nm2) * ms2 * (vn2 + k12 * (s1 - l1) + bias2) - isc2 * l2, zero);

    f8 b1 = ms1 * (vn1 + bias1) + isc1 * k11 * l1;
    f8 b2 = ms2 * (vn2 + bias2) + isc2 * k22 * l2;
    f8 i11 = F(i11), i12 = F(i12), i22 = F(i22);
    f8 xa1 = l1 - (i11 * b1 + i12 * b2), xa2 = l2 - (i12 * b1 + i22 * b2);
    i8 caseBoth = (xa1 >= 0.0f) & (xa2 >= 0.0f);
    f8 y1 = l1 + (k12 * l2 - b1) / k11;
    i8 case1 = (y1 >= 0.0f) & (k12 * (y1 - l1) - k22 * l2 + b2 >= 0.0f);
    f8 y2 = l2 + (k12 * l1 - b2) / k22;
    i8 case2 = (y2 >= 0.0f) & (k12 * (y2 - l2) - k11 * l1 + b1 >= 0.0f);
    f8 x1 = SEL(case1, zero, y1);
    f8 x2 = SEL(case2 & ~case1, zero, y2);
    x1 = SEL(caseBoth, x1, xa1);
    x2 = SEL(caseBoth, x2, xa2);

    i8 block = i11 > 0.0f;
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

AI void pair_load(DKWideContact *batches, intptr_t k, intptr_t count, const float *states, Pair *p) {
    p->two = k + 1 < count;
    p->c0 = batches + k;
    p->c1 = p->two ? p->c0 + 1 : p->c0;
    indices(p->c0->bodyA, p->c1->bodyA, p->ia);
    indices(p->c0->bodyB, p->c1->bodyB, p->ib);
    gather_v(states, p->ia, &p->a);
    gather_v(states, p->ib, &p->b);
}

AI void pair_store(float *states, const Pair *p) {
    scatter_v(states, p->ia, p->c0->writeA, p->c1->writeA, &p->a, p->two);
    scatter_v(states, p->ib, p->c0->writeB, p->c1->writeB, &p->b, p->two);
}

AI void warm_start_impl(DKWideContact *batches, intptr_t count, float *states) {
    for (intptr_t k = 0; k < count; k += 2) {
        Pair p;
        pair_load(batches, k, count, states, &p);
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

/// The biased pass (soft normal rows, then friction) or the relax pass (rigid rows, then
/// friction).
AI void solve_impl(DKWideContact *batches, intptr_t count, float *states, float invH, float maxBiasVelocity,
                   DKSoftness soft, DKSoftness staticSoft, int useBias) {
    for (intptr_t k = 0; k < count; k += 2) {
        Pair p;
        pair_load(batches, k, count, states, &p);
        DKWideContact *c0 = p.c0, *c1 = p.c1;
        int two = p.two;
        normal_rows(c0, c1, two, &p.a, &p.b, states, p.ia, p.ib, invH, maxBiasVelocity, soft, staticSoft, useBias);
        friction(c0, c1, two, &p.a, &p.b);
        pair_store(states, &p);
    }
}

static const DKSoftness rigid = {0.0f, 1.0f, 0.0f};

// Baseline x86-64 (SSE2): the eight lanes as two four-lane halves.
static void warm_start_base(DKWideContact *c, intptr_t n, float *s) { warm_start_impl(c, n, s); }
static void solve_base(DKWideContact *c, intptr_t n, float *s, float invH, float maxBias, DKSoftness soft,
                       DKSoftness stat) {
    solve_impl(c, n, s, invH, maxBias, soft, stat, 1);
}
static void relax_base(DKWideContact *c, intptr_t n, float *s, float invH) {
    solve_impl(c, n, s, invH, 0.0f, rigid, rigid, 0);
}

#if DK_X86_DISPATCH
// AVX2 (not FMA: the products and sums stay separate IEEE operations).
__attribute__((target("avx2"))) static void warm_start_avx2(DKWideContact *c, intptr_t n, float *s) {
    warm_start_impl(c, n, s);
}
__attribute__((target("avx2"))) static void solve_avx2(DKWideContact *c, intptr_t n, float *s, float invH,
                                                       float maxBias, DKSoftness soft, DKSoftness stat) {
    solve_impl(c, n, s, invH, maxBias, soft, stat, 1);
}
__attribute__((target("avx2"))) static void relax_avx2(DKWideContact *c, intptr_t n, float *s, float invH) {
    solve_impl(c, n, s, invH, 0.0f, rigid, rigid, 0);
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

void dk_wide_warm_start(void *batches, intptr_t count, void *states) {
#if DK_X86_DISPATCH
    if (dk_wide_uses_avx2()) { warm_start_avx2(batches, count, states); return; }
#endif
    warm_start_base(batches, count, states);
}

void dk_wide_solve(void *batches, intptr_t count, void *states, float invH, float maxBiasVelocity,
                   DKSoftness soft, DKSoftness staticSoft) {
#if DK_X86_DISPATCH
    if (dk_wide_uses_avx2()) { solve_avx2(batches, count, states, invH, maxBiasVelocity, soft, staticSoft); return; }
#endif
    solve_base(batches, count, states, invH, maxBiasVelocity, soft, staticSoft);
}

void dk_wide_relax(void *batches, intptr_t count, void *states, float invH) {
#if DK_X86_DISPATCH
    if (dk_wide_uses_avx2()) { relax_avx2(batches, count, states, invH); return; }
#endif
    relax_base(batches, count, states, invH);
}

// MARK: Packing

AI f4 load4(const void *p, int offset) {
    f4 r;
    memcpy(&r, (const char *)p + offset, 16);
    return r;
}
/// Three floats at `offset` (the fourth lane zero): the last three fields of a point, which
/// end 4 bytes before the constraint's stride (a padding constraint on the stack has no more).
AI f4 load3(const void *p, int offset) {
    f4 r = {0.0f, 0.0f, 0.0f, 0.0f};
    memcpy(&r, (const char *)p + offset, 12);
    return r;
}
AI void store4(float *dst, f4 v) { memcpy(dst, &v, 16); }
AI void store4i(int32_t *dst, i4 v) { memcpy(dst, &v, 16); }
/// `b` where `m`, else `a`, four lanes.
AI f4 sel4(i4 m, f4 a, f4 b) { return (f4)(((i4)b & m) | ((i4)a & ~m)); }

/// One manifold point of the four lanes: anchors as cross products with the normal and the
/// tangent, lanes not in `keep` zero (as the Swift packing wrote it).
AI void pack_point(const DKConstraint *const c[4], int offset, i4 keep, f4 nx, f4 ny, float *rnA, float *rnB,
                   float *rtA, float *rtB, float *adj, float *nm, float *tm, float *ln, float *lt, float *mx) {
    const f4 zero = {0.0f, 0.0f, 0.0f, 0.0f};
    f4 ax, ay, bx, by, sep, rv, ni, ti, mxi, nmi, tmi, unused;
    transpose4(load4(c[0], offset), load4(c[1], offset), load4(c[2], offset), load4(c[3], offset), &ax, &ay, &bx, &by);
    transpose4(load4(c[0], offset + 16), load4(c[1], offset + 16), load4(c[2], offset + 16), load4(c[3], offset + 16),
               &sep, &rv, &ni, &ti);
    transpose4(load3(c[0], offset + 32), load3(c[1], offset + 32), load3(c[2], offset + 32), load3(c[3], offset + 32),
               &mxi, &nmi, &tmi, &unused);
    (void)rv;
    (void)unused;
    ax = sel4(keep, zero, ax);
    ay = sel4(keep, zero, ay);
    bx = sel4(keep, zero, bx);
    by = sel4(keep, zero, by);
    store4(rnA, ax * ny - ay * nx);
    store4(rnB, bx * ny - by * nx);
    store4(rtA, -(ax * nx + ay * ny));
    store4(rtB, -(bx * nx + by * ny));
    store4(adj, sel4(keep, zero, sep));
    store4(nm, sel4(keep, zero, nmi));
    store4(tm, sel4(keep, zero, tmi));
    store4(ln, sel4(keep, zero, ni));
    store4(lt, sel4(keep, zero, ti));
    store4(mx, sel4(keep, zero, mxi));
}

void dk_pack_batch(const void *k0, const void *k1, const void *k2, const void *k3, void *batch) {
    const DKConstraint *const c[4] = {k0, k1, k2, k3};
    DKWideContact *w = batch;
    const f4 one = {1.0f, 1.0f, 1.0f, 1.0f}, zero = {0.0f, 0.0f, 0.0f, 0.0f};
    f4 a, b, d, e;
    // bodyA, bodyB, contact, pointCount (as bits).
    transpose4(load4(c[0], 0), load4(c[1], 0), load4(c[2], 0), load4(c[3], 0), &a, &b, &d, &e);
    store4i(w->bodyA, (i4)a);
    store4i(w->bodyB, (i4)b);
    i4 pointCount = (i4)e;
    store4i(w->writeA, (i4){c[0]->writeA ? -1 : 0, c[1]->writeA ? -1 : 0, c[2]->writeA ? -1 : 0, c[3]->writeA ? -1 : 0});
    store4i(w->writeB, (i4){c[0]->writeB ? -1 : 0, c[1]->writeB ? -1 : 0, c[2]->writeB ? -1 : 0, c[3]->writeB ? -1 : 0});
    f4 nx, ny;
    transpose4(load4(c[0], 24), load4(c[1], 24), load4(c[2], 24), load4(c[3], 24), &nx, &ny, &a, &b);
    store4(w->nx, nx);
    store4(w->ny, ny);
    store4(w->friction, a);
    transpose4(load4(c[0], 40), load4(c[1], 40), load4(c[2], 40), load4(c[3], 40), &a, &b, &d, &e);
    store4(w->mA, a);
    store4(w->iA, b);
    store4(w->mB, d);
    store4(w->iB, e);
    i4 block = {c[0]->useBlock ? -1 : 0, c[1]->useBlock ? -1 : 0, c[2]->useBlock ? -1 : 0, c[3]->useBlock ? -1 : 0};
    transpose4(load4(c[0], 72), load4(c[1], 72), load4(c[2], 72), load4(c[3], 72), &a, &b, &d, &e);
    store4(w->k12, b);
    store4(w->k11, sel4(block, one, a));
    store4(w->k22, sel4(block, one, d));
    transpose4(load4(c[0], 96), load4(c[1], 96), load4(c[2], 96), load4(c[3], 96), &a, &b, &d, &e);
    store4(w->i11, sel4(block, zero, a));
    store4(w->i12, sel4(block, zero, b));
    store4(w->i22, sel4(block, zero, e));
    const i4 all = {-1, -1, -1, -1};
    pack_point(c, 112, all, nx, ny, w->rn1A, w->rn1B, w->rt1A, w->rt1B, w->adj1, w->nm1, w->tm1, w->ln1, w->lt1, w->mx1);
    pack_point(c, 160, pointCount > 1, nx, ny, w->rn2A, w->rn2B, w->rt2A, w->rt2B, w->adj2, w->nm2, w->tm2, w->ln2,
               w->lt2, w->mx2);
}
