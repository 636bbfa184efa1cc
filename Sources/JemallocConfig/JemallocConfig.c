// jemalloc reads this symbol once, when it initialises. dynamics-bench counts allocation
// events with the arenas' request counters; jemalloc's per-thread caches serve small blocks
// without counting them until a cache is refilled or flushed, so with caches the count of a
// window is only approximate (a window of a few small blocks may count none). Without thread
// caches every allocation reaches an arena and is counted. The step being measured allocates
// nothing, so its speed does not depend on this.
//
// dirty_decay_ms:0 and muzzy_decay_ms:0 give freed pages back to the system at once instead
// of keeping them for ten seconds: an array that grows is copied, and the old copy would
// otherwise still count in the peak resident memory the benchmarks report
// (docs/benchmarking.md). glibc's malloc, which the peer drivers use, unmaps large blocks at
// once too. Only frees pay for it, and a warm step frees nothing — but what a step frees, it
// pays for dearly: without thread caches a free that empties a slab hands its pages back at
// once (madvise), the next allocation faults them in again, and while a second worker runs
// the kernel must also flush that worker's TLB (an interrupt to the other processor). So a
// scene that frees memory in its steps scales badly to two workers (Results/components.md).
#include "JemallocConfig.h"

const char *malloc_conf = "tcache:false,dirty_decay_ms:0,muzzy_decay_ms:0";
