#ifndef PERF_UTIL_TIMELINE_H
#define PERF_UTIL_TIMELINE_H
/*
 * The view of a dump (perf script report flamegraph --timeline): what ran
 * on each CPU and in each task over time, from the samples and from
 * sched:sched_switch when the file has it, with the dump's request and the
 * spans where events were lost, linked to a flame graph of whatever part
 * of it is selected.  All of it is one page, util/timeline.js drawing it
 * on top of util/flamegraph.js.
 *
 * The data is kept compact for big dumps: each sample is its time, CPU,
 * task and the id of its stack's leaf in the flame graph's tree, which the
 * page holds once as a table of nodes and parents.
 */
#include <stdio.h>
#include "dump-request.h"
#include "types.h"

struct flamegraph;
struct flamegraph_node;
struct hashtab;
struct tep_event;
struct tep_format_field;

struct timeline_sample {
	u64 time;
	const struct flamegraph_node *leaf;
	u32 cpu;
	u32 task;		/* index into tasks */
};

struct timeline_switch {
	u64 time;
	u32 cpu;
	u32 prev, next;		/* tasks */
	u32 prev_state;		/* 0: preempted, still runnable */
};

/* Events lost from @start (the CPU's last event before) to @end (the record saying so). */
struct timeline_lost {
	u64 start, end;
	u64 nr;
	int cpu;		/* -1: unknown */
	bool samples;		/* LOST_SAMPLES (dropped samples), else LOST (ring buffer full) */
};

struct timeline_task {
	int pid, tid;		/* pid -1: not known yet */
	char *comm;
};

struct timeline {
	struct timeline_sample *samples;
	size_t nr_samples, cap_samples;
	struct timeline_switch *switches;
	size_t nr_switches, cap_switches;
	struct timeline_lost *lost;
	size_t nr_lost, cap_lost;
	struct timeline_task *tasks;
	size_t nr_tasks, cap_tasks;
	struct hashtab *task_ids;	/* tid -> index into tasks */
	u64 *cpu_last;			/* each CPU's last event time: where a loss starts */
	size_t nr_cpu_last;
	u64 last;			/* the last event's time, of any CPU */
	u64 first_time, last_time;	/* of the samples and switches taken */
	/* sched_switch's fields, found once for its format. */
	const struct tep_event *switch_format;
	struct tep_format_field *prev_comm, *prev_pid, *prev_state, *next_comm, *next_pid;
	struct dump_request request;
	bool has_request;
};

int timeline__init(struct timeline *tl);
void timeline__exit(struct timeline *tl);

/* Whether @format is sched:sched_switch's (its samples are switches here). */
bool timeline__is_switch(struct timeline *tl, const struct tep_event *format);
/* Each 0 or -ENOMEM (-EINVAL: a switch too short for its format). */
int timeline__add_sample(struct timeline *tl, u64 time, int cpu, int pid, int tid,
			 const char *comm, const struct flamegraph_node *leaf);
int timeline__add_switch(struct timeline *tl, u64 time, int cpu, const void *raw, u32 size);
int timeline__add_lost(struct timeline *tl, u64 time, int cpu, u64 nr, bool samples);
/* Marks when @time on @cpu was seen, for a later loss's start. */
void timeline__seen(struct timeline *tl, u64 time, int cpu);

/* The page: its title names @input and the range; 0 or -EIO/-ENOMEM. */
int timeline__write_html(struct timeline *tl, struct flamegraph *fg, const char *title,
			 const char *colorscheme, FILE *fp);

#endif
