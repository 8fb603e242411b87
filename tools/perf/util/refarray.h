#ifndef PERF_UTIL_REFARRAY_H
#define PERF_UTIL_REFARRAY_H
/*
 * A refcounted, sorted array of ints: the body of struct cpu_map (CPU
 * numbers) and struct thread_map (tids).  Both are declared with
 * REFARRAY_FIELDS, so they are laid out as struct refarray and their
 * new/get/put are these functions (cpu_map__from() / thread_map__from()
 * convert, with a static_assert that the layouts agree).
 */
#include <stddef.h>

#define REFARRAY_FIELDS(type)	\
	int refcnt;		\
	int nr;			\
	type map[]

struct refarray {
	REFARRAY_FIELDS(int);
};

/* @nr entries left to the caller to fill, one reference; NULL on ENOMEM. */
struct refarray *refarray__new(int nr);
/* One entry, -1: "any CPU" / "every thread". */
struct refarray *refarray__new_dummy(void);
/*
 * @v's @n values sorted and without duplicates (@v is sorted in place), so
 * a value given twice is monitored once; NULL on ENOMEM.
 */
struct refarray *refarray__new_sorted(int *v, int n);
struct refarray *refarray__get(struct refarray *a);

/* The values of a refarray while they are gathered one by one; start it zeroed. */
struct refarray_build {
	int *v;
	int nr, alloc;
};

/* @value appended; -ENOMEM. */
int refarray_build__add(struct refarray_build *b, int value);
/*
 * What @b gathered as a refarray (refarray__new_sorted()), or NULL on
 * ENOMEM; @b is emptied either way.
 */
struct refarray *refarray_build__finish(struct refarray_build *b);
/* Drops a reference; the last one frees.  NULL is allowed. */
void refarray__put(struct refarray *a);

/* Whether struct @st is laid out as struct refarray (checked where it is converted). */
#define REFARRAY_LAYOUT_CHECK(st)							\
	_Static_assert(sizeof(struct st) == sizeof(struct refarray) &&			\
		       offsetof(struct st, refcnt) == offsetof(struct refarray, refcnt) &&	\
		       offsetof(struct st, nr) == offsetof(struct refarray, nr) &&	\
		       offsetof(struct st, map) == offsetof(struct refarray, map) &&	\
		       sizeof(((struct st *)0)->map[0]) == sizeof(int),			\
		       #st " must be laid out as struct refarray")

#endif
