#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H
#include <stdint.h>

/// The number of heap allocations (malloc, calloc, realloc of NULL, posix_memalign,
/// aligned_alloc, memalign) made by the whole process since it started.
uint64_t malloc_counter_allocations(void);

#endif
