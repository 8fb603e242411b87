#ifndef PERF_UTIL_STRSET_H
#define PERF_UTIL_STRSET_H
#include "hashtab.h"

/*
 * A set of strings, each kept once (a copy): equal strings at equal
 * pointers.  Walk it with hashtab__for_each over strs (entries: char *).
 */
struct strset {
	struct hashtab strs;	/* of char * */
};

/* @min_cap: the slots of the first allocation (a power of two). */
void strset__init(struct strset *s, size_t min_cap);
void strset__exit(struct strset *s);
/* @str's copy in @s (made if new), or NULL when out of memory. */
const char *strset__intern(struct strset *s, const char *str);

#endif
