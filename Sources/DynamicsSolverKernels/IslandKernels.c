// The island build's union pass (`dk_union_links`): a lock-free union–find, so that the
// links of a big world can be joined by several workers at once.

#include "DynamicsSolverKernels.h"
#include "Check.h"

// Every slot's parent is read and written atomically (relaxed: only each slot's own sequence
// of values matters, and the workers' join orders everything before the next pass).
static inline int32_t load_parent(int32_t *parent, int32_t slot) {
    return __atomic_load_n(&parent[slot], __ATOMIC_RELAXED);
}

// The root of `x`'s set, hanging each slot on the way under its grandparent (path halving).
// A slot that is not a root never becomes one again, and its ancestors stay its ancestors, so
// a grandparent read here is still an ancestor when written, whatever another thread did.
static inline int32_t find_root(int32_t *parent, int32_t x, intptr_t slotCount) {
    int32_t y = x;
    for (;;) {
        DK_CHECK(y >= 0 && y < slotCount, "dk_union_links: slot %d outside 0..<%ld", (int)y, (long)slotCount);
        int32_t p = load_parent(parent, y);
        if (p == y) return y;
        int32_t g = load_parent(parent, p);
        if (g != p) __atomic_store_n(&parent[y], g, __ATOMIC_RELAXED);
        y = g;
    }
}

static inline void join(int32_t *parent, int32_t a, int32_t b, intptr_t slotCount, int shared) {
    for (;;) {
        int32_t ra = find_root(parent, a, slotCount), rb = find_root(parent, b, slotCount);
        if (ra == rb) return;
        int32_t low = ra < rb ? ra : rb, high = ra < rb ? rb : ra;
        if (!shared) {
            parent[high] = low;
            return;
        }
        int32_t expected = high;
        // The higher root goes under the lower, unless another thread hung it first: then
        // look for the roots again.
        if (__atomic_compare_exchange_n(&parent[high], &expected, low, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
        a = low;
        b = high;
    }
}

intptr_t dk_union_links(const int32_t *links, intptr_t begin, intptr_t end, const int32_t *marks, int32_t *parent,
                        intptr_t slotCount, int32_t *touching, int shared) {
    intptr_t count = 0;
    for (intptr_t k = begin; k < end; k++) {
        int32_t a = links[2 * k], b = links[2 * k + 1];
        if (touching) touching[count] = (int32_t)k;
        if (a < 0) continue;
        count++;
        DK_CHECK(a < slotCount && b >= 0 && b < slotCount, "dk_union_links: link %ld joins %d and %d, outside 0..<%ld",
                     (long)k, (int)a, (int)b, (long)slotCount);
        if (marks[a] >= 0 && marks[b] >= 0) join(parent, a, b, slotCount, shared);
    }
    return touching ? count : 0;
}
