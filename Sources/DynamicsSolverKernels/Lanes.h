// Lane helpers shared by the solver kernels (contacts and joints): vector types, selects,
// and the gathers and scatters of body states, eight lanes (two four-lane batches) at a time.
// Private to this target; every helper is always inlined, so each kernel file instantiates
// them in its baseline and AVX2 clones.

#ifndef DK_LANES_H
#define DK_LANES_H

#include "DynamicsSolverKernels.h"
#include "Check.h"
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


/// Every lane's bodies (`bodyA[4]`, `bodyB[4]` of a batch of `what`) lie in `0 ..< bodyCount`
/// (debug builds).
AI void check_lane_bodies(const int32_t *bodyA, const int32_t *bodyB, intptr_t bodyCount, const char *what) {
#if DEBUG
    for (int l = 0; l < 4; l++) {
        DK_CHECK(bodyA[l] >= 0 && bodyA[l] < bodyCount, "%s batch lane %d: body A %d outside 0..<%ld", what, l, (int)bodyA[l],
                 (long)bodyCount);
        DK_CHECK(bodyB[l] >= 0 && bodyB[l] < bodyCount, "%s batch lane %d: body B %d outside 0..<%ld", what, l, (int)bodyB[l],
                 (long)bodyCount);
    }
#else
    (void)bodyA;
    (void)bodyB;
    (void)bodyCount;
    (void)what;
#endif
}


// Eight-lane values never cross a function boundary (the SSE clone's calling convention has
// no 256-bit registers): the helpers below are macros or take pointers.
#define SPLAT(x) ((f8){(x), (x), (x), (x), (x), (x), (x), (x)})
/// `b` where `m`, else `a` (Swift's `a.replacing(with: b, where: m)`).
#define SEL(m, a, b) ((f8)((((i8)(b)) & (m)) | (((i8)(a)) & ~(m))))
#define VMAX(a, b) SEL((a) < (b), (a), (b))
#define VMIN(a, b) SEL((b) < (a), (a), (b))
/// Whether every / any of eight lane masks is set.
#define ALL(m) (__builtin_reduce_and((i8)(m)) != 0)
#define ANY(m) (__builtin_reduce_or((i8)(m)) != 0)
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

/// The whole state (velocity and position change) of eight bodies, one 32-byte row each,
/// transposed eight by eight: what the biased and relax passes read.
AI void gather_full(const float *s, const int32_t idx[8], V8 *v, D8 *d) {
    f8 b0, b1, b2, b3, b4, b5, b6, b7;
    memcpy(&b0, s + 8 * (intptr_t)idx[0], 32);
    memcpy(&b1, s + 8 * (intptr_t)idx[1], 32);
    memcpy(&b2, s + 8 * (intptr_t)idx[2], 32);
    memcpy(&b3, s + 8 * (intptr_t)idx[3], 32);
    memcpy(&b4, s + 8 * (intptr_t)idx[4], 32);
    memcpy(&b5, s + 8 * (intptr_t)idx[5], 32);
    memcpy(&b6, s + 8 * (intptr_t)idx[6], 32);
    memcpy(&b7, s + 8 * (intptr_t)idx[7], 32);
    // Within each 128-bit half: pairs of rows interleaved, then pairs of pairs.
    f8 t0 = __builtin_shufflevector(b0, b1, 0, 8, 1, 9, 4, 12, 5, 13);
    f8 t1 = __builtin_shufflevector(b0, b1, 2, 10, 3, 11, 6, 14, 7, 15);
    f8 t2 = __builtin_shufflevector(b2, b3, 0, 8, 1, 9, 4, 12, 5, 13);
    f8 t3 = __builtin_shufflevector(b2, b3, 2, 10, 3, 11, 6, 14, 7, 15);
    f8 t4 = __builtin_shufflevector(b4, b5, 0, 8, 1, 9, 4, 12, 5, 13);
    f8 t5 = __builtin_shufflevector(b4, b5, 2, 10, 3, 11, 6, 14, 7, 15);
    f8 t6 = __builtin_shufflevector(b6, b7, 0, 8, 1, 9, 4, 12, 5, 13);
    f8 t7 = __builtin_shufflevector(b6, b7, 2, 10, 3, 11, 6, 14, 7, 15);
    f8 u0 = __builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);   // vx 0-3 | dx 0-3
    f8 u1 = __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15); // vy | dy
    f8 u2 = __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);   // w | dq.c
    f8 u3 = __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15); // pad | dq.s
    f8 u4 = __builtin_shufflevector(t4, t6, 0, 1, 8, 9, 4, 5, 12, 13);
    f8 u5 = __builtin_shufflevector(t4, t6, 2, 3, 10, 11, 6, 7, 14, 15);
    f8 u6 = __builtin_shufflevector(t5, t7, 0, 1, 8, 9, 4, 5, 12, 13);
    f8 u7 = __builtin_shufflevector(t5, t7, 2, 3, 10, 11, 6, 7, 14, 15);
    v->vx = __builtin_shufflevector(u0, u4, 0, 1, 2, 3, 8, 9, 10, 11);
    v->vy = __builtin_shufflevector(u1, u5, 0, 1, 2, 3, 8, 9, 10, 11);
    v->w = __builtin_shufflevector(u2, u6, 0, 1, 2, 3, 8, 9, 10, 11);
    d->dx = __builtin_shufflevector(u0, u4, 4, 5, 6, 7, 12, 13, 14, 15);
    d->dy = __builtin_shufflevector(u1, u5, 4, 5, 6, 7, 12, 13, 14, 15);
    d->c = __builtin_shufflevector(u2, u6, 4, 5, 6, 7, 12, 13, 14, 15);
    d->s = __builtin_shufflevector(u3, u7, 4, 5, 6, 7, 12, 13, 14, 15);
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

#endif
