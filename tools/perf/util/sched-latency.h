#ifndef PERF_UTIL_SCHED_LATENCY_H
#define PERF_UTIL_SCHED_LATENCY_H
/*
 * The accounting of perf sched latency: per task, how long it waited for a
 * CPU between becoming runnable (a wakeup, or being preempted) and being
 * switched in, and how long it ran (sched_stat_runtime).  Only the task's
 * latest stretch off the CPU is kept; its waits are added up as they end.
 */
#include "types.h"
#include "hashtab.h"

enum sched_lat_state {
	SCHED_LAT_SLEEPING,	/* off the CPU, not runnable */
	SCHED_LAT_WAIT_CPU,	/* runnable since wake_up_time */
	SCHED_LAT_SCHED_IN,	/* the wait ended */
	SCHED_LAT_IGNORE,	/* switched in before its wakeup: out of order */
};

struct sched_lat_task {
	int tid;
	enum sched_lat_state state;
	u64 sched_out_time, wake_up_time;
	u64 total_runtime, total_lat, nr_waits;
	u64 max_lat, max_lat_start, max_lat_end;
};

struct sched_lat {
	struct hashtab tasks;		/* { tid, struct sched_lat_task * } */
	int profile_cpu;		/* -C; -1: all */
	/* What the distro reports as bad events. */
	u64 nr_timestamps, nr_unordered_timestamps, nr_context_switch_bugs;
	int *curr_pid;			/* per CPU: the task its last switch switched in; -1 */
	u64 *last_switch;		/* per CPU */
	int nr_cpus;
};

void sched_lat__init(struct sched_lat *sl, int profile_cpu);
void sched_lat__exit(struct sched_lat *sl);
/* Each 0 or -ENOMEM; @prev_state as the tracepoint gives it (0: preempted, still runnable). */
int sched_lat__switch(struct sched_lat *sl, int cpu, u64 time, int prev_pid, int prev_state,
		      int next_pid);
int sched_lat__runtime(struct sched_lat *sl, int pid, u64 runtime, u64 time);
int sched_lat__wakeup(struct sched_lat *sl, int pid, u64 time);
int sched_lat__migrate(struct sched_lat *sl, int pid, u64 time);
/* The tasks, in an array of @*nr the caller frees; NULL when out of memory. */
struct sched_lat_task **sched_lat__tasks(const struct sched_lat *sl, size_t *nr);

#endif
