#ifndef PERF_UTIL_TIMECHART_H
#define PERF_UTIL_TIMECHART_H
/*
 * perf timechart's picture: from context switches and wakeups, what ran
 * on each CPU and, per task, when it ran, waited for a CPU, slept or was
 * blocked, drawn as an SVG in the distro's kind of layout (a legend, a row
 * per CPU, a row per task).  A flight-recorder dump also shows what asked
 * for it (a marked vertical line), the spans where events were lost
 * (shaded) and its time range (the title line).
 */
#include <stdbool.h>
#include <stdio.h>
#include "dump-request.h"
#include "hashtab.h"
#include "types.h"

enum timechart_state {
	TC_UNKNOWN,		/* not seen switched out or woken yet */
	TC_RUNNING,
	TC_WAITING,		/* runnable: preempted or woken, waiting for a CPU */
	TC_SLEEPING,		/* switched out interruptible (S) or otherwise stopped */
	TC_BLOCKED,		/* switched out uninterruptible (D): on I/O as a rule */
	TC_GONE,		/* switched out dead */
};

struct timechart_task {
	int tid, pid;		/* pid -1: not known */
	char comm[16];
	enum timechart_state state;
	u64 since;		/* when it entered state */
	int cpu;		/* RUNNING: where */
	u64 total[TC_GONE];	/* ns in each state, of the spans that ended */
	int row;		/* its row in the picture, -1: not drawn */
};

/* A stretch of one task in one state; a RUNNING one is also its CPU's. */
struct timechart_span {
	u64 start, end;
	u32 task;		/* index into tasks */
	int cpu;		/* RUNNING: where, else -1 */
	u8 state;		/* enum timechart_state */
	bool open;		/* still so at the end of the trace: end is the trace's end */
};

/* Events lost from @start (the CPU's last event before) to @end (the record saying so). */
struct timechart_lost {
	u64 start, end, nr;
	int cpu;		/* -1: unknown */
};

struct timechart {
	struct timechart_task *tasks;
	size_t nr_tasks, cap_tasks;
	struct hashtab ids;		/* tid -> index into tasks */
	struct timechart_span *spans;
	size_t nr_spans, cap_spans;
	struct timechart_lost *lost;
	size_t nr_lost, cap_lost;
	u64 *cpu_last;			/* each CPU's last event: where a loss starts */
	int nr_cpus;			/* rows: the CPUs online, or the highest seen + 1 */
	u64 first, last;		/* the trace's first and last event */
	u64 nr_power;			/* power:cpu_idle and cpu_frequency events seen */
	struct dump_request request;
	bool has_request;
};

/* What the picture shows. */
struct timechart_opts {
	int width;			/* -w: of the picture, in px */
	bool tasks_only;		/* -T: no CPU rows */
	bool power_only;		/* -P: only the CPU rows */
	const char *const *procs;	/* -p: pids or names of the tasks drawn; NULL: all */
	size_t nr_procs;
	u64 start, end;			/* --time: 0 open */
	const char *title;		/* the file's name */
};

int timechart__init(struct timechart *tc, int nr_cpus);
void timechart__exit(struct timechart *tc);
/*
 * A context switch on @cpu at @time from @prev_tid (of process @prev_pid,
 * -1 unknown) left in @prev_state (the kernel's task state bits) to
 * @next_tid; the tid 0 is the idle task, not drawn.  0 or -ENOMEM.
 */
int timechart__switch(struct timechart *tc, u64 time, int cpu, int prev_tid, int prev_pid,
		      const char *prev_comm, u64 prev_state, int next_tid, const char *next_comm);
/* @tid woken at @time (on @cpu, where the event was): runnable from then. */
int timechart__wakeup(struct timechart *tc, u64 time, int cpu, int tid, const char *comm);
/* Any other event of @cpu at @time: the trace's span and where a loss starts. */
int timechart__seen(struct timechart *tc, u64 time, int cpu);
/* A PERF_RECORD_LOST or LOST_SAMPLES of @nr events, @cpu -1 when unknown. */
int timechart__add_lost(struct timechart *tc, u64 time, int cpu, u64 nr);
/* Closes what is still open at the trace's end. */
int timechart__finish(struct timechart *tc);
/* The picture on @fp: 0 or -errno. */
int timechart__write_svg(struct timechart *tc, const struct timechart_opts *o, FILE *fp);

#endif
