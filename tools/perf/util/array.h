#ifndef PERF_UTIL_ARRAY_H
#define PERF_UTIL_ARRAY_H
/* A growable array: its entries, how many are used and how many there is room for. */
#include <errno.h>
#include <stdlib.h>

/*
 * Room in *@p (of *@cap entries of @size bytes) for one more after @nr,
 * doubling from @first entries.  0 or -ENOMEM (*@p is then unchanged).
 */
static inline int array__room(void **p, size_t *cap, size_t nr, size_t size, size_t first)
{
	size_t n = *cap ? *cap * 2 : first;
	void *q;

	if (nr < *cap)
		return 0;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

#endif
