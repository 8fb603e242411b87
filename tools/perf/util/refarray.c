#include <errno.h>
#include <stdlib.h>
#include "refarray.h"

struct refarray *refarray__new(int nr)
{
	struct refarray *a = malloc(sizeof(*a) + (size_t)nr * sizeof(int));

	if (!a)
		return NULL;
	a->refcnt = 1;
	a->nr = nr;
	return a;
}

struct refarray *refarray__new_dummy(void)
{
	struct refarray *a = refarray__new(1);

	if (a)
		a->map[0] = -1;
	return a;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

struct refarray *refarray__new_sorted(int *v, int n)
{
	struct refarray *a;

	qsort(v, n, sizeof(int), cmp_int);
	a = refarray__new(n);
	if (!a)
		return NULL;
	a->nr = 0;
	for (int i = 0; i < n; i++) {
		if (i && v[i] == v[i - 1])
			continue;
		a->map[a->nr++] = v[i];
	}
	return a;
}

int refarray_build__add(struct refarray_build *b, int value)
{
	if (b->nr == b->alloc) {
		int n = b->alloc ? b->alloc * 2 : 16;
		int *v = realloc(b->v, (size_t)n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		b->v = v;
		b->alloc = n;
	}
	b->v[b->nr++] = value;
	return 0;
}

struct refarray *refarray_build__finish(struct refarray_build *b)
{
	struct refarray *a = refarray__new_sorted(b->v, b->nr);

	free(b->v);
	*b = (struct refarray_build){ NULL, 0, 0 };
	return a;
}

struct refarray *refarray__get(struct refarray *a)
{
	if (a)
		a->refcnt++;
	return a;
}

void refarray__put(struct refarray *a)
{
	if (a && --a->refcnt == 0)
		free(a);
}
