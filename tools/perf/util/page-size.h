#ifndef PERF_UTIL_PAGE_SIZE_H
#define PERF_UTIL_PAGE_SIZE_H
#include <stddef.h>

/*
 * The system's page size: the unit of -m, of the ring buffers' control page
 * and of mmap offsets.  Asked of the system once and kept, so every user
 * (the commands, the unit tests, the fuzzer) sees the same value without
 * any start-up call.
 */
size_t page_size(void);

#endif
