/* perf sched latency's table: its lines added up by comm, sorted by -s, printed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched-latency-table.h"
#include "machine.h"

typedef int (*lat_key_cmp)(const struct sched_lat_group *, const struct sched_lat_group *);

static int lat_cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

static int lat_cmp_pid(const struct sched_lat_group *l, const struct sched_lat_group *r)
{
	return l->tid < r->tid ? -1 : l->tid > r->tid;
}

static int lat_cmp_avg(const struct sched_lat_group *l, const struct sched_lat_group *r)
{
	return lat_cmp_u64(l->total_lat / l->nr_waits, r->total_lat / r->nr_waits);
}

static int lat_cmp_max(const struct sched_lat_group *l, const struct sched_lat_group *r)
{
	return lat_cmp_u64(l->max_lat, r->max_lat);
}

static int lat_cmp_switch(const struct sched_lat_group *l, const struct sched_lat_group *r)
{
	return lat_cmp_u64(l->nr_waits, r->nr_waits);
}

static int lat_cmp_runtime(const struct sched_lat_group *l, const struct sched_lat_group *r)
{
	return lat_cmp_u64(l->runtime, r->runtime);
}

/* The --sort keys, in the order asked; the end marked by NULL. */
static lat_key_cmp lat_keys[8];

/* Biggest first by the keys; equal ones in their order before. */
static int lat_group__cmp(const void *a, const void *b)
{
	const struct sched_lat_group *l = a, *r = b;

	for (size_t i = 0; lat_keys[i]; i++) {
		int c = lat_keys[i](l, r);

		if (c)
			return -c;
	}
	return l->order < r->order ? -1 : l->order > r->order;
}

/* -s: "avg, max" into lat_keys; -EINVAL naming a key there is not. */
int sched_lat__parse_sort(const char *arg)
{
	static const struct { const char *name; lat_key_cmp cmp; } keys[] = {
		{ "pid", lat_cmp_pid }, { "avg", lat_cmp_avg }, { "max", lat_cmp_max },
		{ "switch", lat_cmp_switch }, { "runtime", lat_cmp_runtime },
	};
	char *copy = strdup(arg), *save = NULL, *tok;
	size_t n = 0;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", ", &save); tok && !ret; tok = strtok_r(NULL, ", ", &save)) {
		size_t k;

		for (k = 0; k < ARRAY_SIZE(keys) && strcmp(keys[k].name, tok); k++)
			;
		if (k == ARRAY_SIZE(keys)) {
			fprintf(stderr, "  Error: Unknown --sort key: `%s'\n", tok);
			ret = -EINVAL;
		} else if (n < ARRAY_SIZE(lat_keys) - 1) {
			lat_keys[n++] = keys[k].cmp;
		}
	}
	lat_keys[n] = NULL;
	free(copy);
	return ret;
}

static int lat_task__cmp_tid_desc(const void *a, const void *b)
{
	const struct sched_lat_task *l = *(struct sched_lat_task * const *)a;
	const struct sched_lat_task *r = *(struct sched_lat_task * const *)b;

	return l->tid > r->tid ? -1 : l->tid < r->tid;
}

static int lat_group__cmp_comm_desc(const void *a, const void *b)
{
	const struct sched_lat_group *l = a, *r = b;
	int c = strcmp(r->comm, l->comm);

	return c ? c : (l->order < r->order ? -1 : l->order > r->order);
}

/*
 * The lines, in the distro's order: tasks by tid from the highest, added
 * up by comm unless -p (then by comm from the last in strcmp order), then
 * sorted by the keys.  *@nr of them, in an array the caller frees.
 */
struct sched_lat_group *sched_lat__groups(struct sched_cmd *sc, struct sched_lat *sl, size_t *nr)
{
	size_t nt, ng = 0, i, j;
	struct sched_lat_task **tasks = sched_lat__tasks(sl, &nt);
	struct sched_lat_group *g = tasks ? calloc(nt + 1, sizeof(*g)) : NULL;

	if (!g) {
		free(tasks);
		return NULL;
	}
	qsort(tasks, nt, sizeof(*tasks), lat_task__cmp_tid_desc);
	for (i = 0; i < nt; i++) {
		const struct sched_lat_task *t = tasks[i];
		struct thread *thr = machine__findnew_thread(&sc->session->machine, -1, t->tid);
		const char *comm = thr ? thread__comm(thr) : "";

		for (j = 0; !sc->per_pid && j < ng && strcmp(g[j].comm, comm); j++)
			;
		if (sc->per_pid || j == ng) {
			g[ng] = (struct sched_lat_group){ .comm = comm, .tid = t->tid,
							   .order = ng };
			j = ng++;
		}
		if (!sc->per_pid)
			g[j].nr_merged++;
		g[j].runtime += t->total_runtime;
		g[j].nr_waits += t->nr_waits;
		g[j].total_lat += t->total_lat;
		if (t->max_lat > g[j].max_lat) {
			g[j].max_lat = t->max_lat;
			g[j].max_lat_start = t->max_lat_start;
			g[j].max_lat_end = t->max_lat_end;
		}
	}
	free(tasks);
	if (!sc->per_pid) {
		qsort(g, ng, sizeof(*g), lat_group__cmp_comm_desc);
		for (i = 0; i < ng; i++)
			g[i].order = i;
	}
	/* Tasks that never waited are not shown, nor the idle tasks. */
	for (i = j = 0; i < ng; i++)
		if (g[i].nr_waits && strcmp(g[i].comm, "swapper"))
			g[j++] = g[i];
	qsort(g, j, sizeof(*g), lat_group__cmp);
	*nr = j;
	return g;
}

void sched_lat__print(struct sched_cmd *sc, struct sched_lat *sl, struct sched_lat_group *g,
		      size_t nr)
{
	u64 all_runtime = 0, all_count = 0;

	printf("\n %.139s\n", sched__dashes);
	printf("  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    "
	       "| Max delay start           | Max delay end          |\n");
	printf(" %.139s\n", sched__dashes);
	for (size_t i = 0; i < nr; i++) {
		char start[32], end[32];
		int n;

		all_runtime += g[i].runtime;
		all_count += g[i].nr_waits;
		if (g[i].nr_merged > 1)
			n = printf("  %s:(%d) ", g[i].comm, g[i].nr_merged);
		else
			n = printf("  %s:%d ", g[i].comm, g[i].tid);
		printf("%*s", n < 24 ? 24 - n : 0, "");
		sched__format_time(start, sizeof(start), g[i].max_lat_start);
		sched__format_time(end, sizeof(end), g[i].max_lat_end);
		printf("|%11.3f ms |%9llu | avg:%8.3f ms | max:%8.3f ms | max start: %12s s "
		       "| max end: %12s s\n", (double)g[i].runtime / 1e6,
		       (unsigned long long)g[i].nr_waits,
		       (double)(g[i].total_lat / g[i].nr_waits) / 1e6, (double)g[i].max_lat / 1e6,
		       start, end);
	}
	printf(" %.113s\n", sched__dashes);
	printf("  TOTAL:                |%11.3f ms |%9llu |\n", (double)all_runtime / 1e6,
	       (unsigned long long)all_count);
	printf(" %.51s\n", sched__dashes);
	if (sl->nr_unordered_timestamps && sl->nr_timestamps)
		printf("  INFO: %.3f%% unordered timestamps (%llu out of %llu)\n",
		       100.0 * sl->nr_unordered_timestamps / sl->nr_timestamps,
		       (unsigned long long)sl->nr_unordered_timestamps,
		       (unsigned long long)sl->nr_timestamps);
	if (sc->session->nr_lost && sc->session->nr_events)
		printf("  INFO: %.3f%% lost events (%llu out of %llu, in %llu chunks)\n",
		       100.0 * sc->session->nr_lost / sc->session->nr_events,
		       (unsigned long long)sc->session->nr_lost,
		       (unsigned long long)sc->session->nr_events,
		       (unsigned long long)sc->session->nr_lost_chunks);
	if (sl->nr_context_switch_bugs && sl->nr_timestamps) {
		printf("  INFO: %.3f%% context switch bugs (%llu out of %llu)",
		       100.0 * sl->nr_context_switch_bugs / sl->nr_timestamps,
		       (unsigned long long)sl->nr_context_switch_bugs,
		       (unsigned long long)sl->nr_timestamps);
		if (sc->session->nr_lost)
			printf(" (due to lost events?)");
		printf("\n");
	}
	printf("\n");
}
