#ifndef PERF_UTIL_SCHED_CMD_H
#define PERF_UTIL_SCHED_CMD_H
/*
 * What perf sched was asked and the state its subcommands share while
 * reading a file, with the pieces all of them print with: the fields of
 * the sched tracepoints, task names and times in the distro's forms.
 */
#include <stdbool.h>
#include "types.h"
#include "callchain.h"
#include "sample-filter.h"
#include "sched-timehist.h"
#include "session.h"

/* The tracepoints timehist reads. */
enum sched_tp {
	SCHED_TP_OTHER,
	SCHED_TP_SWITCH,
	SCHED_TP_WAKEUP,	/* sched_wakeup, sched_waking, sched_wakeup_new */
	SCHED_TP_MIGRATE,
	SCHED_TP_RUNTIME,	/* sched_stat_runtime */
};

struct sched_cmd {
	const char *input;
	bool force, dump;
	/* timehist's options */
	bool summary_only, with_summary, wakeups, cpu_visual, state, callchain, migrations;
	struct sample_filter filter;	/* -p, -t, -C; --time in .time_arg */
	u64 start, end;			/* --time, ns; 0: open */
	/* latency's options */
	int profile_cpu;		/* -C; -1: all */
	bool per_pid;			/* -p: a line per task, not per comm */
	const char *sort;		/* -s */
	/* map's options */
	bool compact;			/* --compact: a column per CPU seen, in order seen */
	const char *map_cpus;		/* --cpus */
	const char *color_pids, *color_cpus;	/* colours only a terminal would show */

	struct perf_tool tool;
	struct perf_session *session;
	struct sched_timehist th;
	bool ignore_wakeup;		/* sched_waking is there: sched_wakeup would count twice */
	int comm_width;			/* grows with the widest task name printed */
	int max_cpu;			/* the CPUs online, or the highest CPU seen if more */
	int nr_cpus_online;
	u64 skipped;			/* switches of tasks -p/-t left out */
	u64 hist_start, hist_end;	/* the span of the switches accounted */
	char comm[32];			/* the name of the last task formatted */
	struct callchain_frames frames;	/* -g: the chain of the switch at hand */
	struct callchain_param cc;
	int max_stack;			/* --max-stack: frames shown, schedule() and friends aside */
	bool kernel;			/* the sample at hand is the kernel's */
	struct {			/* sched_tp__of's answers so far */
		struct evsel *evsel;
		enum sched_tp kind;
	} kinds[16];
	unsigned int nr_kinds;
};

/* The numeric field @name of a tracepoint sample; 0 when it has none. */
u64 sched_tp__num(struct evsel *e, struct perf_sample *sample, const char *name);
enum sched_tp sched_tp__of(struct sched_cmd *sc, struct evsel *e);
/* The event named @name ("sched:sched_switch"), or NULL. */
struct evsel *sched__find_tp(struct evlist *evlist, const char *name);
/* Whether any event of the file carries tracepoint data. */
bool sched__has_traces(struct evlist *evlist);
/* "comm[tid]" of @t (NULL: the idle task) in sc->comm; widens sc->comm_width. */
const char *sched__task_name(struct sched_cmd *sc, struct thread *t);
/* Milliseconds with three decimals, truncated, and a space. */
/* " %-*s ": @s left-aligned in @width columns, a blank each side. */
void sched__print_left(const char *s, int width);
void sched__print_msec(u64 ns, int width);
/* "seconds.micros [cpu] " as timehist's lines begin. */
void sched__print_timestamp(u64 t, int cpu);
/* "seconds.micros" of @t into @buf. */
void sched__format_time(char *buf, size_t len, u64 t);
/* Whether -p/-t leave @t out (NULL: the idle task). */
bool sched__filtered(struct sched_cmd *sc, struct thread *t);
extern const char sched__dashes[];

#endif
