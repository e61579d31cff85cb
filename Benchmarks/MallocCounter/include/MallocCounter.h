#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H
#include <stdint.h>

/// The number of heap allocations (malloc, calloc, realloc of NULL, posix_memalign,
/// aligned_alloc, memalign) made by the whole process since it started.
/// Always 0 where allocations are not counted (anything but Linux with glibc).
uint64_t malloc_counter_allocations(void);

/// 1 where the allocator is interposed and counts are real (Linux with glibc), 0 elsewhere.
int malloc_counter_is_counting(void);

#endif
