#ifndef PERF_UTIL_SCHED_MAP_H
#define PERF_UTIL_SCHED_MAP_H
/* The state of perf sched map: who each CPU runs and the tasks' two-character names. */
#include "sched-cmd.h"
#include "hashtab.h"

#define SCHED_MAP_MAX_CPUS 4096

/* A task as the map shows it: two characters, given at its first switch in. */
struct sched_map_task {
	int tid;
	char shortname[3];
	bool comm_changed;	/* a COMM since it was last named */
};

struct sched_map {
	struct perf_tool tool;
	struct sched_cmd *sc;
	struct hashtab tasks;		/* struct sched_map_task, in place */
	char next[2];			/* the next short name: letter, digit */
	int nr_cpus;			/* columns without --compact */
	int curr[SCHED_MAP_MAX_CPUS];	/* per CPU: the tid switched in last; -1: none */
	int comp[SCHED_MAP_MAX_CPUS];	/* --compact: the CPUs in the order seen */
	int nr_comp;
	struct cpu_map *cpus;		/* --cpus; NULL: all */
	u64 nr_lost;
};

/* The task of @tid (a new one unnamed); the pointer is good until the next call. */
struct sched_map_task *sched_map__task(struct sched_map *ms, int tid);
/* The line of a sched_switch: each CPU's task, and the one switched in named. */
int sched_map__switch(struct sched_map *ms, struct evsel *e, struct perf_sample *sample,
		      struct machine *m);

#endif
