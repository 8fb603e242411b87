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
