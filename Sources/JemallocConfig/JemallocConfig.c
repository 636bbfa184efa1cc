// jemalloc reads this symbol once, when it initialises. dynamics-bench counts allocation
// events with the arenas' request counters; jemalloc's per-thread caches serve small blocks
// without counting them until a cache is refilled or flushed, so with caches the count of a
// window is only approximate (and was zero for 64 small blocks). Without thread caches every
// allocation reaches an arena and is counted. The step being measured allocates nothing, so
// its speed does not depend on this.
#include "JemallocConfig.h"

const char *malloc_conf = "tcache:false";
