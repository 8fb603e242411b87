/* perf report --tasks: a machine's threads as a process tree (see tasks.h). */
#include <errno.h>
#include <stdlib.h>
#include "tasks.h"

static int task__cmp(const void *a, const void *b)
{
	const struct thread *x = *(struct thread * const *)a, *y = *(struct thread * const *)b;

	/* The distro walks its threads by tid modulo 256, then by tid. */
	if ((x->tid & 255) != (y->tid & 255))
		return (x->tid & 255) < (y->tid & 255) ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static struct thread *task__parent(struct thread **v, size_t n, const struct thread *t)
{
	if (t->ppid < 0)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (v[i]->tid == t->ppid && v[i] != t)
			return v[i];
	return NULL;
}

static void task__print(FILE *fp, struct thread **v, struct thread **parent, size_t n,
			size_t i, int depth)
{
	fprintf(fp, "%10d %8d %8d |%*s%s\n", v[i]->pid, v[i]->tid, v[i]->ppid, depth, "",
		thread__comm(v[i]));
	/* Deeper than any real process tree: a loop in a damaged file. */
	if (depth > 1000)
		return;
	for (size_t j = 0; j < n; j++)
		if (parent[j] == v[i])
			task__print(fp, v, parent, n, j, depth + 1);
}

int machine__fprintf_tasks(struct machine *m, FILE *fp)
{
	struct thread **v, **parent, **t;
	size_t n = 0, i;

	if (!machine__findnew_thread(m, 0, 0))
		return -ENOMEM;
	v = calloc(m->threads.nr, sizeof(*v));
	parent = calloc(m->threads.nr, sizeof(*parent));
	if (!v || !parent) {
		free(v);
		free(parent);
		return -ENOMEM;
	}
	hashtab__for_each(&m->threads, i, t)
		v[n++] = *t;
	qsort(v, n, sizeof(*v), task__cmp);
	for (i = 0; i < n; i++)
		parent[i] = task__parent(v, n, v[i]);
	fprintf(fp, "#      pid      tid     ppid  comm\n");
	for (i = 0; i < n; i++)
		if (!parent[i])
			task__print(fp, v, parent, n, i, 0);
	free(v);
	free(parent);
	return 0;
}
