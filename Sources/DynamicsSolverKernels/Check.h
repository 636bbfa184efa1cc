// The kernels' index checks, shared by every kernel file. Private to this target.

#ifndef DK_CHECK_H
#define DK_CHECK_H

// Debug builds (SwiftPM defines DEBUG=1 for them) check every index the kernels follow and
// stop with a message naming it; release builds compile the checks away.
#if DEBUG
#include <stdio.h>
#include <stdlib.h>
#define DK_CHECK(cond, ...)                                                                        \
    do {                                                                                          \
        if (!(cond)) {                                                                            \
            fprintf(stderr, "DynamicsSolverKernels: " __VA_ARGS__);                               \
            fputc('\n', stderr);                                                                  \
            abort();                                                                              \
        }                                                                                         \
    } while (0)
#else
#define DK_CHECK(cond, ...) ((void)0)
#endif

#endif
