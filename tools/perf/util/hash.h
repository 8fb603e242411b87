#ifndef PERF_UTIL_HASH_H
#define PERF_UTIL_HASH_H
#include "types.h"

/*
 * The string hash of every table keyed by a name: 64-bit FNV-1a, but from
 * 1469598103934665603, FNV's offset basis a digit short, as the project's
 * copies of it always had.  It stays so: the BUILD_ID feature lists its set
 * of names in slot order, so what perf record writes depends on it.
 */
static inline u64 str__hash(const char *s)
{
	u64 h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (u8)*s++) * 1099511628211ULL;
	return h;
}

/* A number spread over all 64 bits (Fibonacci hashing): for keys and pointers. */
static inline u64 u64__hash(u64 v)
{
	return v * 0x9e3779b97f4a7c15ULL;
}

#endif
