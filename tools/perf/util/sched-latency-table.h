#ifndef PERF_UTIL_SCHED_LATENCY_TABLE_H
#define PERF_UTIL_SCHED_LATENCY_TABLE_H
/* The table perf sched latency prints from util/sched-latency's tasks. */
#include "sched-cmd.h"
#include "sched-latency.h"

/* The waits of one comm's tasks added up (of one task with -p). */
struct sched_lat_group {
	const char *comm;
	int tid;		/* of the first task (the highest tid of the comm) */
	int nr_merged;		/* tasks added up; 0 with -p */
	u64 runtime, nr_waits, total_lat, max_lat, max_lat_start, max_lat_end;
	size_t order;		/* its place before sorting: equal keys keep it */
};

/* -s: "avg, max" as the sort keys; -EINVAL naming a key there is not. */
int sched_lat__parse_sort(const char *arg);
/*
 * The lines of the table in the distro's order, *@nr of them, in an array
 * the caller frees; NULL when out of memory.
 */
struct sched_lat_group *sched_lat__groups(struct sched_cmd *sc, struct sched_lat *sl, size_t *nr);
void sched_lat__print(struct sched_cmd *sc, struct sched_lat *sl, struct sched_lat_group *g,
		      size_t nr);

#endif
