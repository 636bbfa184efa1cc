#ifndef DYNAMICSKIT_JEMALLOC_CONFIG_H
#define DYNAMICSKIT_JEMALLOC_CONFIG_H
/// jemalloc's compile-time options for dynamics-bench (see JemallocConfig.c).
extern const char *malloc_conf;
#endif
