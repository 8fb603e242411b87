#ifndef PERF_UTIL_SCHED_TIMEHIST_H
#define PERF_UTIL_SCHED_TIMEHIST_H
/*
 * The time accounting of perf sched timehist: what each task did between
 * two of its context switches, from sched_switch, sched_wakeup (or
 * sched_waking) and sched_migrate_task records fed in time order.
 *
 * A sched_switch on a CPU ends the run of the task it switches out: that
 * run began at the CPU's previous sched_switch.  Before the run the task
 * waited since it was last switched out (as sleep, iowait or preemption by
 * the state it was left in), and of that wait the part after its wakeup is
 * its scheduling delay.  The idle task of each CPU is a task of its own.
 */
#include "types.h"
#include "hashtab.h"

/* Running count, mean and spread (Welford's method), min and max of the runs. */
struct sched_stats {
	u64 n;
	double mean, m2;
	u64 min, max;
};

struct sched_task {
	int tid;
	int parent;		/* the thread that forked it (a FORK's ptid); -1: not seen */
	/* Of the last run accounted, ns. */
	u64 dt_run, dt_delay, dt_sleep, dt_iowait, dt_preempt;
	u64 total_run, total_delay, total_sleep, total_iowait, total_preempt;
	struct sched_stats runs;
	u64 migrations;
	u64 last_time;		/* when it was last switched out; 0: not seen */
	int last_state;		/* the prev_state it was switched out in */
	u64 ready_to_run;	/* woken (or preempted) at; 0: not runnable */
};

struct sched_timehist {
	struct hashtab tasks;		/* { tid, struct sched_task * } */
	struct sched_task **idle;	/* per CPU */
	u64 *last_switch;		/* per CPU: time of its last sched_switch; 0: none */
	int nr_cpus;
};

/* prev_state values the accounting tells apart. */
#define SCHED_TASK_RUNNING		0
#define SCHED_TASK_UNINTERRUPTIBLE	2

/*
 * hash() and equal() of a util/hashtab whose entries begin with an int tid,
 * the key: the tables of perf sched's tasks.
 */
u64 sched_tid__hash(const void *entry, void *ctx);
bool sched_tid__equal(const void *entry, const void *key, void *ctx);

void sched_timehist__init(struct sched_timehist *th);
void sched_timehist__exit(struct sched_timehist *th);
/* The task of @tid, new (all zero) on first sight; NULL when out of memory. */
struct sched_task *sched_timehist__task(struct sched_timehist *th, int tid);
/* The idle task of @cpu (tid 0); NULL when out of memory or @cpu < 0. */
struct sched_task *sched_timehist__idle(struct sched_timehist *th, int cpu);
/* The idle task of @cpu if it was ever made, else NULL. */
struct sched_task *sched_timehist__idle_seen(const struct sched_timehist *th, int cpu);
/* When @cpu last switched (0: never), and a new switch at @time. */
u64 sched_timehist__last_switch(const struct sched_timehist *th, int cpu);
int sched_timehist__set_switch(struct sched_timehist *th, int cpu, u64 time);

/* A wakeup of @t at @time: it is ready to run from its first wakeup on. */
void sched_task__woken(struct sched_task *t, u64 time);
/* Moved to another CPU (counted for the summary). */
void sched_task__migrated(struct sched_task *t);
/*
 * The run of @t that ends at @t_end and began at @tprev (0: its start was
 * not seen, so only the count of runs grows), with the wait before it, as
 * the dt_* fields and added to the totals.
 */
void sched_task__account(struct sched_task *t, u64 t_end, u64 tprev);
/* @t switched out at @time in @state (prev_state): the start of its next wait. */
void sched_task__switched_out(struct sched_task *t, u64 time, int state);

void sched_stats__add(struct sched_stats *s, u64 val);
/* The standard deviation of the mean, as a percentage of the mean (0 for a mean of 0). */
double sched_stats__rel_stddev(const struct sched_stats *s);

#endif
