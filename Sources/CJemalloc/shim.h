// jemalloc for dynamics-bench only: linking it makes jemalloc the CLI's malloc, and `mallctl`
// reads its statistics (allocated/resident bytes, per-thread allocation counters).
// Debian's libjemalloc-dev is built without a symbol prefix, so `mallctl` is the name.
#ifndef DYNAMICSKIT_CJEMALLOC_SHIM_H
#define DYNAMICSKIT_CJEMALLOC_SHIM_H
#include <jemalloc/jemalloc.h>
#endif
