#ifndef CHEAPSTATS_H
#define CHEAPSTATS_H

#include <stdint.h>

/// CPU time consumed by the calling thread, in nanoseconds (CLOCK_THREAD_CPUTIME_ID): time the
/// thread was descheduled (another process on the same cores) is not counted.
int64_t cheapstats_thread_cpu_ns(void);

/// Bytes of heap currently allocated, from glibc's mallinfo2(): in-use chunks of every arena plus
/// mmapped chunks (large allocations, such as a big dictionary's storage). 0 where unavailable.
int64_t cheapstats_heap_live_bytes(void);

#endif
