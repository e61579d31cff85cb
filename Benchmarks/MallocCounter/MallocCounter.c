// Counts heap allocations by interposing glibc's allocator entry points in the benchmark
// executable and forwarding to glibc's own implementations (__libc_malloc & co.).
// mallinfo2() only reports bytes in use, not how many allocations were made; counting the
// calls is exact and costs one relaxed atomic increment per allocation.
//
// Linux with glibc only: __libc_malloc & co. exist nowhere else, and replacing malloc in an
// executable is how glibc supports interposition (Darwin uses malloc zones instead). Elsewhere
// (a Darwin build of the package) nothing is interposed and malloc_counter_is_counting() says so.
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include "MallocCounter.h"

#if defined(__linux__) && defined(__GLIBC__)

int malloc_counter_is_counting(void) { return 1; }

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static uint64_t allocations;

static inline void count(void) { __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED); }

uint64_t malloc_counter_allocations(void) { return __atomic_load_n(&allocations, __ATOMIC_RELAXED); }

void *malloc(size_t size) { count(); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { count(); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { if (p == NULL) count(); return __libc_realloc(p, size); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    count();
    void *p = __libc_memalign(alignment, size);
    if (p == NULL && size != 0) return ENOMEM;
    *out = p;
    return 0;
}

#else

int malloc_counter_is_counting(void) { return 0; }
uint64_t malloc_counter_allocations(void) { return 0; }

#endif
