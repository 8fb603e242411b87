/*
 * perf sched: what the scheduler did, from a file with sched:* events.
 * timehist: one line per context switch, the task switched out with how
 * long it waited, how late it ran after its wakeup and how long it ran
 * (the accounting is util/sched), then optionally a summary per task.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include "builtin.h"
#include "util/callchain.h"
#include "util/cpumap.h"
#include "util/debug.h"
#include "util/hash.h"
#include "util/hashtab.h"
#include "util/evsel.h"
#include "util/parse-options.h"
#include "util/sample-filter.h"
#include "util/sched-latency.h"
#include "util/sched-timehist.h"
#include "util/session.h"
#include "util/tracepoint.h"

void perf_session__report_open_error(const char *cmd, const char *path, int err,
				     const char *msg);

static const char * const sched_usage[] = {
	"perf sched [<options>] {record|latency|map|replay|script|timehist}",
	NULL
};

static const char * const timehist_usage[] = {
	"perf sched timehist [<options>]",
	NULL
};

static const char * const latency_usage[] = {
	"perf sched latency [<options>]",
	NULL
};

static const char * const map_usage[] = {
	"perf sched map [<options>]",
	NULL
};

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
};

/* ---- tracepoint fields ------------------------------------------------------- */

static u64 tp_num(struct evsel *e, struct perf_sample *sample, const char *name)
{
	struct tep_format_field *f = e->tp_format ? tep_find_field(e->tp_format, name) : NULL;
	unsigned long long v = 0;

	if (!f || f->offset + f->size > (int)sample->raw_size)
		return 0;
	tep_read_number_field(f, sample->raw_data, &v);
	return v;
}

static enum sched_tp sched_tp__of(struct sched_cmd *sc, struct evsel *e)
{
	const char *name = evsel__name(e);

	if (!evsel__is_tracepoint(e) || strncmp(name, "sched:", 6))
		return SCHED_TP_OTHER;
	name += 6;
	if (!strcmp(name, "sched_switch"))
		return SCHED_TP_SWITCH;
	if ((!strcmp(name, "sched_wakeup") && !sc->ignore_wakeup) ||
	    !strcmp(name, "sched_waking") || !strcmp(name, "sched_wakeup_new"))
		return SCHED_TP_WAKEUP;
	if (!strcmp(name, "sched_migrate_task"))
		return SCHED_TP_MIGRATE;
	if (!strcmp(name, "sched_stat_runtime"))
		return SCHED_TP_RUNTIME;
	return SCHED_TP_OTHER;
}

/* The event named @name ("sched:sched_switch"), or NULL. */
static struct evsel *sched__find_tp(struct evlist *evlist, const char *name)
{
	struct evsel *e;

	evlist__for_each_entry(evlist, e)
		if (evsel__is_tracepoint(e) && !strcmp(evsel__name(e), name))
			return e;
	return NULL;
}

/* ---- what is printed ------------------------------------------------------- */

/* "comm[tid]", "comm[tid/pid]" for a thread, or the comm alone for pid 0. */
static const char *sched__task_name(struct sched_cmd *sc, struct thread *t)
{
	const char *comm;
	int n;

	if (!t) {
		comm = "<idle>";
		n = snprintf(sc->comm, sizeof(sc->comm), "%s", comm);
		goto out;
	}
	comm = thread__comm(t);
	if (t->pid == 0)
		n = snprintf(sc->comm, sizeof(sc->comm), "%s", comm);
	else if (t->tid != t->pid)
		n = snprintf(sc->comm, sizeof(sc->comm), "%s[%d/%d]", comm, t->tid, t->pid);
	else
		n = snprintf(sc->comm, sizeof(sc->comm), "%s[%d]", comm, t->tid);
out:
	if (n > (int)sizeof(sc->comm) - 1)
		n = sizeof(sc->comm) - 1;
	if (n > sc->comm_width)
		sc->comm_width = n;
	return sc->comm;
}

/* Milliseconds with three decimals, truncated: "%*lu.%03lu ". */
static void print_sched_time(u64 ns, int width)
{
	printf("%*llu.%03llu ", width, (unsigned long long)(ns / 1000000),
	       (unsigned long long)(ns % 1000000 / 1000));
}

static void print_timestamp(u64 t, int cpu)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%llu.%06llu", (unsigned long long)(t / 1000000000),
		 (unsigned long long)(t % 1000000000 / 1000));
	printf("%15s [%04d] ", buf, cpu);
}

static const char dashes[] =
	"-----------------------------------------------------------------------------------"
	"-----------------------------------------------------------------------------------";

static void timehist__header(struct sched_cmd *sc)
{
	int ncpus = sc->max_cpu + 1;

	printf("%15s %6s ", "time", "cpu");
	if (sc->cpu_visual) {
		printf(" ");
		for (int i = 0; i < ncpus; i++)
			printf("%x", i % 16);
		printf(" ");
	}
	printf(" %-*s  %9s  %9s  %9s", sc->comm_width, "task name", "wait time", "sch delay",
	       "run time");
	if (sc->state)
		printf("  %s", "state");
	printf("\n%15s %-6s ", "", "");
	if (sc->cpu_visual)
		printf(" %*s ", ncpus, "");
	printf(" %-*s  %9s  %9s  %9s", sc->comm_width, "[tid/pid]", "(msec)", "(msec)", "(msec)");
	if (sc->state)
		printf("  %5s", "");
	printf("\n%.15s %.6s ", dashes, dashes);
	if (sc->cpu_visual)
		printf(" %.*s ", ncpus, dashes);
	printf(" %.*s  %.9s  %.9s  %.9s", sc->comm_width, dashes, dashes, dashes, dashes);
	if (sc->state)
		printf("  %.5s", dashes);
	printf("\n");
}

/* The letter of a prev_state, as the distro's table has them; 'I' for the idle task. */
static char sched__state_char(bool idle, int state)
{
	static const char letters[] = "RSDTtZXxKWP";
	int bit = state ? __builtin_ffs(state) : 0;

	if (idle)
		return 'I';
	return bit < (int)sizeof(letters) - 1 ? letters[bit] : '?';
}

/*
 * "  f <- g <- h": the frames of the switch, callee first, without the
 * scheduler's own (the distro reads two frames more than --max-stack for
 * them), "[unknown]" where no symbol is known.
 */
static void timehist__print_chain(struct sched_cmd *sc, struct perf_sample *sample,
				  struct machine *m)
{
	static const char * const hidden[] = { "schedule", "__schedule", "preempt_schedule" };
	ssize_t nr = callchain_frames__resolve(&sc->frames, m, sample, sc->kernel, &sc->cc,
					       sc->max_stack + 2);
	bool first = true;

	printf("  ");
	for (ssize_t i = 0; i < nr; i++) {
		const struct symbol *sym = sc->frames.frames[i].sym;
		size_t k;

		/*
		 * The distro's timehist reads MMAP records but not MMAP2, which
		 * every user-space mapping of a current kernel's file is: its user
		 * frames are all unknown.
		 */
		if (!sc->frames.frames[i].kernel)
			sym = NULL;
		for (k = 0; sym && k < ARRAY_SIZE(hidden) && strcmp(sym->name, hidden[k]); k++)
			;
		if (sym && k < ARRAY_SIZE(hidden))
			continue;
		printf("%s %s", first ? "" : " <-", sym ? sym->name : "[unknown]");
		first = false;
	}
}

static void timehist__print_switch(struct sched_cmd *sc, struct perf_sample *sample,
				   struct machine *m, struct thread *t, struct sched_task *rt,
				   u64 time, int state)
{
	const char *name;

	if (!sample_filter__match_cpu(&sc->filter, sample->cpu))
		return;
	print_timestamp(time, sample->cpu);
	if (sc->cpu_visual) {
		printf(" ");
		for (int i = 0; i < sc->max_cpu + 1; i++)
			putchar(i == (int)sample->cpu ? (t ? 's' : 'i') : ' ');
		printf(" ");
	}
	name = sched__task_name(sc, t);
	printf(" %-*s ", sc->comm_width, name);
	print_sched_time(rt->dt_sleep + rt->dt_iowait + rt->dt_preempt, 6);
	print_sched_time(rt->dt_delay, 6);
	print_sched_time(rt->dt_run, 6);
	if (sc->state)
		printf(" %5c ", sched__state_char(!t, state));
	if (sc->wakeups)
		printf("  %-*s", sc->comm_width, "");
	if (t && sc->callchain)
		timehist__print_chain(sc, sample, m);
	printf("\n");
}

/* A wakeup or migration line: who did it, and to whom. */
static void timehist__print_event(struct sched_cmd *sc, struct perf_sample *sample,
				  struct thread *by, struct thread *to, char mark, const char *what)
{
	print_timestamp(sample->time, sample->cpu);
	/* The distro pads a migration's CPU column one wider on each side than a wakeup's. */
	if (sc->cpu_visual && !mark) {
		printf(" %*s ", sc->max_cpu + 1, "");
	} else if (sc->cpu_visual) {
		printf("  ");
		for (int i = 0; i < sc->max_cpu + 1; i++)
			putchar(i == (int)sample->cpu ? mark : ' ');
		printf("  ");
	}
	printf(" %-*s ", sc->comm_width, sched__task_name(sc, by));
	printf("  %9s  %9s  %9s ", "", "", "");
	printf("%s: %s", what, sched__task_name(sc, to));
}

/* ---- the events ------------------------------------------------------------- */

static bool sched__filtered(struct sched_cmd *sc, struct thread *t)
{
	struct sample_filter *f = &sc->filter;
	int pid = t ? t->pid : 0, tid = t ? t->tid : 0;
	bool ok = true;

	if (f->nr_pids) {
		ok = false;
		for (int i = 0; i < f->nr_pids; i++)
			ok |= f->pids[i] == pid;
	}
	if (ok && f->nr_tids) {
		ok = false;
		for (int i = 0; i < f->nr_tids; i++)
			ok |= f->tids[i] == tid;
	}
	return !ok;
}

static bool sched__in_window(struct sched_cmd *sc, u64 time)
{
	return (!sc->start || time >= sc->start) && (!sc->end || time <= sc->end);
}

/*
 * The task a wakeup or migration is about (its "pid" field), as a thread
 * of the machine (a new one has pid 0, as the distro makes it) and a task
 * of the accounting.  -ENOMEM or 0.
 */
static int timehist__subject(struct sched_cmd *sc, struct evsel *e, struct perf_sample *sample,
			     struct machine *m, struct thread **thr, struct sched_task **rt)
{
	int tid = (int)tp_num(e, sample, "pid");

	*thr = machine__findnew_thread(m, 0, tid);
	*rt = sched_timehist__task(&sc->th, tid);
	return *thr && *rt ? 0 : -ENOMEM;
}

/*
 * The line of a wakeup or migration of @to, unless -p/-t leave out both
 * @to and the task that did it: 1 when begun (the caller ends it), 0 when
 * left out, -ENOMEM.
 */
static int timehist__event_line(struct sched_cmd *sc, struct perf_sample *sample,
				struct machine *m, struct thread *to, char mark, const char *what)
{
	struct thread *by = machine__findnew_thread(m, sample->pid, sample->tid);

	if (!by)
		return -ENOMEM;
	if (sched__filtered(sc, by) && sched__filtered(sc, to))
		return 0;
	timehist__print_event(sc, sample, by, to, mark, what);
	return 1;
}

static int timehist__wakeup(struct sched_cmd *sc, struct evsel *e, struct perf_sample *sample,
			    struct machine *m)
{
	struct sched_task *rt;
	struct thread *woken;
	int ret = timehist__subject(sc, e, sample, m, &woken, &rt);

	if (ret)
		return ret;
	sched_task__woken(rt, sample->time);
	if (!sc->wakeups || !sched__in_window(sc, sample->time))
		return 0;
	ret = timehist__event_line(sc, sample, m, woken, 0, "awakened");
	if (ret > 0)
		printf("\n");
	return ret < 0 ? ret : 0;
}

static int timehist__migrate(struct sched_cmd *sc, struct evsel *e, struct perf_sample *sample,
			     struct machine *m)
{
	struct sched_task *rt;
	struct thread *moved;
	int ret = timehist__subject(sc, e, sample, m, &moved, &rt);

	if (ret)
		return ret;
	sched_task__migrated(rt);
	if (sc->summary_only)
		return 0;
	ret = timehist__event_line(sc, sample, m, moved, 'm', "migrated");
	if (ret > 0)
		printf(" cpu %d => %d\n", (int)tp_num(e, sample, "orig_cpu"),
		       (int)tp_num(e, sample, "dest_cpu"));
	return ret < 0 ? ret : 0;
}

/*
 * A context switch on a CPU ends the run of the task it switches out (the
 * CPU's idle task when prev_pid is 0), which began at the CPU's previous
 * switch.  A --time window cuts the run to the part inside it.
 */
static int timehist__switch(struct sched_cmd *sc, struct evsel *e, struct perf_sample *sample,
			    struct machine *m)
{
	int state = (int)tp_num(e, sample, "prev_state");
	u64 t = sample->time, tprev;
	struct sched_task *rt = NULL;
	struct thread *thr = NULL;

	if (tp_num(e, sample, "prev_pid") == 0) {
		rt = sched_timehist__idle(&sc->th, sample->cpu);
	} else {
		thr = machine__findnew_thread(m, sample->pid, sample->tid ? sample->tid : sample->pid);
		if (thr)
			rt = sched_timehist__task(&sc->th, thr->tid);
	}
	if (!rt)
		return -ENOMEM;
	if (sched__filtered(sc, thr)) {
		sc->skipped++;
		rt = NULL;
		goto out;
	}
	tprev = sched_timehist__last_switch(&sc->th, sample->cpu);
	if (sc->start && sc->start > t)
		goto out;
	if (tprev && sc->start > tprev)
		tprev = sc->start;
	if (sc->end) {
		if (!tprev || tprev > sc->end)
			goto out;
		if (t > sc->end)
			t = sc->end;
	}
	if (sample_filter__match_cpu(&sc->filter, sample->cpu))
		sched_task__account(rt, t, tprev);
	if (!sc->summary_only)
		timehist__print_switch(sc, sample, m, thr, rt, t, state);
out:
	if (!sc->hist_start && t >= sc->start)
		sc->hist_start = t;
	if (!sc->end || t <= sc->end)
		sc->hist_end = t;
	if (rt)
		sched_task__switched_out(rt, sample->time, state);
	return sched_timehist__set_switch(&sc->th, sample->cpu, sample->time);
}

static int timehist__sample(struct perf_tool *tool, union perf_event *event,
			    struct perf_sample *sample, struct evsel *e, struct machine *m)
{
	struct sched_cmd *sc = container_of(tool, struct sched_cmd, tool);
	u16 mode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

	sc->kernel = mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL;
	if ((int)sample->cpu > sc->max_cpu)
		sc->max_cpu = sample->cpu;
	switch (sched_tp__of(sc, e)) {
	case SCHED_TP_SWITCH:
		return timehist__switch(sc, e, sample, m);
	case SCHED_TP_WAKEUP:
		return timehist__wakeup(sc, e, sample, m);
	case SCHED_TP_MIGRATE:
		return sc->migrations ? timehist__migrate(sc, e, sample, m) : 0;
	default:
		return 0;
	}
}

/* FORK records name parents; LOST records show where the accounting has holes. */
static int timehist__other(struct perf_tool *tool, union perf_event *event,
			   struct perf_sample *sample, struct machine *m)
{
	char buf[64];

	(void)m;
	/*
	 * The distro names as a thread's parent the thread that forked it,
	 * where the machine keeps the forking process.
	 */
	if (event->header.type == PERF_RECORD_FORK) {
		struct sched_cmd *sc = container_of(tool, struct sched_cmd, tool);
		struct sched_task *t = sched_timehist__task(&sc->th, (int)event->fork.tid);

		if (!t)
			return -ENOMEM;
		t->parent = (int)event->fork.ptid;
		return 0;
	}
	if (event->header.type != PERF_RECORD_LOST)
		return 0;
	snprintf(buf, sizeof(buf), "%llu.%06llu", (unsigned long long)(sample->time / 1000000000),
		 (unsigned long long)(sample->time % 1000000000 / 1000));
	printf("%15s lost %llu events on cpu %d\n", buf, (unsigned long long)event->lost.lost,
	       (int)sample->cpu);
	return 0;
}

/* ---- the summary ------------------------------------------------------------ */

struct summary_row {
	struct thread *thread;
	struct sched_task *task;
};

/* The distro lists threads by their hash bucket (tid modulo 256), then by tid. */
static int summary_row__cmp(const void *a, const void *b)
{
	const struct summary_row *x = a, *y = b;
	unsigned int bx = (unsigned int)x->thread->tid % 256, by = (unsigned int)y->thread->tid % 256;

	if (bx != by)
		return bx < by ? -1 : 1;
	return x->thread->tid < y->thread->tid ? -1 : x->thread->tid > y->thread->tid;
}

struct summary_totals {
	u64 tasks, switches, run;
};

static void summary__print_task(struct sched_cmd *sc, struct summary_row *r,
				struct summary_totals *tot)
{
	const struct sched_task *t = r->task;
	const char *name = sched__task_name(sc, r->thread);

	tot->tasks++;
	tot->switches += t->runs.n;
	tot->run += t->total_run;
	printf("%*s   %5d  %9llu ", sc->comm_width, name,
	       t->parent != -1 ? t->parent : r->thread->ppid,
	       (unsigned long long)t->runs.n);
	print_sched_time(t->total_run, 8);
	if (sc->state) {
		print_sched_time(t->total_sleep, 6);
		printf(" ");
		print_sched_time(t->total_iowait, 6);
		printf(" ");
		print_sched_time(t->total_preempt, 6);
		printf(" ");
		print_sched_time(t->total_delay, 6);
		printf("\n");
		return;
	}
	print_sched_time(t->runs.min, 6);
	printf(" ");
	print_sched_time((u64)t->runs.mean, 6);
	printf(" ");
	print_sched_time(t->runs.max, 6);
	printf("  %5.2f   %5llu\n", sched_stats__rel_stddev(&t->runs),
	       (unsigned long long)t->migrations);
}

/* The tasks that ran, live ones first and then those that exited. */
static int summary__print_tasks(struct sched_cmd *sc, struct machine *m,
				struct summary_totals *tot)
{
	struct summary_row *rows = calloc(sc->th.tasks.nr + 1, sizeof(*rows));
	size_t nr = 0, i, live = 0;
	struct { int tid; struct sched_task *task; } *slot;

	if (!rows)
		return -ENOMEM;
	hashtab__for_each(&sc->th.tasks, i, slot) {
		struct thread *t = machine__findnew_thread(m, -1, slot->tid);

		if (!t || !slot->task->runs.n || sched__filtered(sc, t))
			continue;
		rows[nr++] = (struct summary_row){ t, slot->task };
	}
	qsort(rows, nr, sizeof(*rows), summary_row__cmp);
	for (i = 0; i < nr; i++)
		if (!rows[i].thread->exited) {
			summary__print_task(sc, &rows[i], tot);
			live++;
		}
	if (!live)
		printf("<no still running tasks>\n");
	printf("\nTerminated tasks:\n");
	for (i = 0; i < nr; i++)
		if (rows[i].thread->exited)
			summary__print_task(sc, &rows[i], tot);
	if (live == nr)
		printf("<no terminated tasks>\n");
	free(rows);
	return 0;
}

static int timehist__summary(struct sched_cmd *sc)
{
	u64 span = sc->hist_end - sc->hist_start;
	struct summary_totals tot = { 0 };
	int ncpus = sc->nr_cpus_online;

	printf("\n%s summary\n", sc->state ? "Wait-time" : "Runtime");
	printf("%*s  parent   sched-in  ", sc->comm_width, "comm");
	if (sc->state)
		printf("   run-time      sleep      iowait     preempt       delay\n");
	else
		printf("   run-time    min-run     avg-run     max-run  stddev  migrations\n");
	printf("%*s            (count)  ", sc->comm_width, "");
	printf("     (msec)     (msec)      (msec)      (msec)       %s\n",
	       sc->state ? "(msec)" : "%");
	printf("%.117s\n", dashes);
	if (summary__print_tasks(sc, &sc->session->machine, &tot))
		return -ENOMEM;
	/* Idle times are not known when switches were left out. */
	if (sc->skipped)
		return 0;
	printf("\nIdle stats:\n");
	if (sc->th.nr_cpus > ncpus)
		ncpus = sc->th.nr_cpus;
	for (int i = 0; i < ncpus; i++) {
		struct sched_task *idle = sched_timehist__idle_seen(&sc->th, i);

		if (!sample_filter__match_cpu(&sc->filter, i))
			continue;
		if (!idle && i >= sc->nr_cpus_online)
			continue;
		if (idle && idle->runs.n) {
			tot.switches += idle->runs.n;
			printf("    CPU %2d idle for ", i);
			print_sched_time(idle->total_run, 6);
			printf(" msec  (%6.2f%%)\n", 100.0 * idle->total_run / span);
		} else {
			printf("    CPU %2d idle entire time window\n", i);
		}
	}
	printf("\n    Total number of unique tasks: %llu\n"
	       "Total number of context switches: %llu\n",
	       (unsigned long long)tot.tasks, (unsigned long long)tot.switches);
	printf("           Total run time (msec): ");
	print_sched_time(tot.run, 2);
	printf("\n    Total scheduling time (msec): ");
	print_sched_time(span, 2);
	printf(" (x %d)\n", sc->max_cpu);
	return 0;
}

/* ---- timehist --------------------------------------------------------------- */

static int timehist__setup(struct sched_cmd *sc)
{
	struct evsel *sw = sched__find_tp(sc->session->evlist, "sched:sched_switch");
	struct evsel *e;
	char err[256];

	if (sc->filter.time_arg) {
		if (sample_filter__set_time(&sc->filter, sc->filter.time_arg, false, 0, 0, err,
					    sizeof(err)) || sc->filter.nr_times != 1) {
			fprintf(stderr, "Invalid time string\n");
			return -EINVAL;
		}
		sc->start = sc->filter.times[0].start;
		sc->end = sc->filter.times[0].end;
	}
	/* The distro shows call chains only when every event of the file has them. */
	evlist__for_each_entry(sc->session->evlist, e) {
		if (sc->callchain && !(e->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
			fprintf(stderr, "Samples do not have callchains.\n");
			sc->callchain = false;
		}
	}
	if (!sw) {
		fprintf(stderr, "No sched_switch events found. Have you run 'perf sched record'?\n");
		return -1;
	}
	callchain_param__init(&sc->cc);
	sc->ignore_wakeup = sched__find_tp(sc->session->evlist, "sched:sched_waking") != NULL;
	sc->nr_cpus_online = sc->session->nr_cpus_online ? (int)sc->session->nr_cpus_online : 4;
	sc->max_cpu = sc->nr_cpus_online;
	return 0;
}

/* The input file opened into sc->session; false when it cannot be, said why. */
static bool sched__open(struct sched_cmd *sc)
{
	char msg[256];
	int err;

	sc->session = perf_session__open(sc->input, &err, msg, sizeof(msg));
	if (!sc->session)
		perf_session__report_open_error("sched", sc->input, err, msg);
	return sc->session != NULL;
}

static int sched__timehist(struct sched_cmd *sc)
{
	int err;

	if (!sched__open(sc))
		return 255;
	sched_timehist__init(&sc->th);
	sc->comm_width = 30;
	err = timehist__setup(sc);
	if (err)
		goto out;
	if (!sc->summary_only)
		timehist__header(sc);
	sc->tool.sample = timehist__sample;
	sc->tool.other = timehist__other;
	err = perf_session__process_events(sc->session, &sc->tool);
	if (err) {
		fprintf(stderr, "Failed to process events, error %d\n", err);
		goto out;
	}
	if (sc->summary_only || sc->with_summary)
		err = timehist__summary(sc);
out:
	sched_timehist__exit(&sc->th);
	callchain_frames__exit(&sc->frames);
	perf_session__delete(sc->session);
	return cmd_exit_status(err);
}

/* ---- latency ---------------------------------------------------------------- */

/* The waits of one comm's tasks added up (of one task with -p). */
struct lat_group {
	const char *comm;
	int tid;		/* of the first task (the highest tid of the comm) */
	int nr_merged;		/* tasks added up; 0 with -p */
	u64 runtime, nr_waits, total_lat, max_lat, max_lat_start, max_lat_end;
	size_t order;		/* its place before sorting: equal keys keep it */
};

typedef int (*lat_key_cmp)(const struct lat_group *, const struct lat_group *);

static int lat_cmp_u64(u64 a, u64 b)
{
	return a < b ? -1 : a > b;
}

static int lat_cmp_pid(const struct lat_group *l, const struct lat_group *r)
{
	return l->tid < r->tid ? -1 : l->tid > r->tid;
}

static int lat_cmp_avg(const struct lat_group *l, const struct lat_group *r)
{
	return lat_cmp_u64(l->total_lat / l->nr_waits, r->total_lat / r->nr_waits);
}

static int lat_cmp_max(const struct lat_group *l, const struct lat_group *r)
{
	return lat_cmp_u64(l->max_lat, r->max_lat);
}

static int lat_cmp_switch(const struct lat_group *l, const struct lat_group *r)
{
	return lat_cmp_u64(l->nr_waits, r->nr_waits);
}

static int lat_cmp_runtime(const struct lat_group *l, const struct lat_group *r)
{
	return lat_cmp_u64(l->runtime, r->runtime);
}

/* The --sort keys, in the order asked; the end marked by NULL. */
static lat_key_cmp lat_keys[8];

/* Biggest first by the keys; equal ones in their order before. */
static int lat_group__cmp(const void *a, const void *b)
{
	const struct lat_group *l = a, *r = b;

	for (size_t i = 0; lat_keys[i]; i++) {
		int c = lat_keys[i](l, r);

		if (c)
			return -c;
	}
	return l->order < r->order ? -1 : l->order > r->order;
}

/* -s: "avg, max" into lat_keys; -EINVAL naming a key there is not. */
static int lat__parse_sort(const char *arg)
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
	const struct lat_group *l = a, *r = b;
	int c = strcmp(r->comm, l->comm);

	return c ? c : (l->order < r->order ? -1 : l->order > r->order);
}

/*
 * The lines, in the distro's order: tasks by tid from the highest, added
 * up by comm unless -p (then by comm from the last in strcmp order), then
 * sorted by the keys.  *@nr of them, in an array the caller frees.
 */
static struct lat_group *lat__groups(struct sched_cmd *sc, struct sched_lat *sl, size_t *nr)
{
	size_t nt, ng = 0, i, j;
	struct sched_lat_task **tasks = sched_lat__tasks(sl, &nt);
	struct lat_group *g = tasks ? calloc(nt + 1, sizeof(*g)) : NULL;

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
			g[ng] = (struct lat_group){ .comm = comm, .tid = t->tid, .order = ng };
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

static void lat__print_time(char *buf, size_t len, u64 t)
{
	snprintf(buf, len, "%llu.%06llu", (unsigned long long)(t / 1000000000),
		 (unsigned long long)(t % 1000000000 / 1000));
}

static void lat__print(struct sched_cmd *sc, struct sched_lat *sl, struct lat_group *g, size_t nr)
{
	u64 all_runtime = 0, all_count = 0;

	printf("\n %.139s\n", dashes);
	printf("  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    "
	       "| Max delay start           | Max delay end          |\n");
	printf(" %.139s\n", dashes);
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
		lat__print_time(start, sizeof(start), g[i].max_lat_start);
		lat__print_time(end, sizeof(end), g[i].max_lat_end);
		printf("|%11.3f ms |%9llu | avg:%8.3f ms | max:%8.3f ms | max start: %12s s "
		       "| max end: %12s s\n", (double)g[i].runtime / 1e6,
		       (unsigned long long)g[i].nr_waits,
		       (double)(g[i].total_lat / g[i].nr_waits) / 1e6, (double)g[i].max_lat / 1e6,
		       start, end);
	}
	printf(" %.113s\n", dashes);
	printf("  TOTAL:                |%11.3f ms |%9llu |\n", (double)all_runtime / 1e6,
	       (unsigned long long)all_count);
	printf(" %.51s\n", dashes);
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

struct lat_tool {
	struct perf_tool tool;
	struct sched_cmd *sc;
	struct sched_lat lat;
};

static int latency__sample(struct perf_tool *tool, union perf_event *event,
			   struct perf_sample *sample, struct evsel *e, struct machine *m)
{
	struct lat_tool *lt = container_of(tool, struct lat_tool, tool);

	(void)event;
	(void)m;
	switch (sched_tp__of(lt->sc, e)) {
	case SCHED_TP_SWITCH:
		return sched_lat__switch(&lt->lat, sample->cpu, sample->time,
					 (int)tp_num(e, sample, "prev_pid"),
					 (int)tp_num(e, sample, "prev_state"),
					 (int)tp_num(e, sample, "next_pid"));
	case SCHED_TP_WAKEUP:
		/* The distro's latency takes sched_wakeup and sched_wakeup_new, not sched_waking. */
		if (!strcmp(evsel__name(e), "sched:sched_waking"))
			return 0;
		return sched_lat__wakeup(&lt->lat, (int)tp_num(e, sample, "pid"), sample->time);
	case SCHED_TP_MIGRATE:
		return sched_lat__migrate(&lt->lat, (int)tp_num(e, sample, "pid"), sample->time);
	case SCHED_TP_RUNTIME:
		return sched_lat__runtime(&lt->lat, (int)tp_num(e, sample, "pid"),
					  tp_num(e, sample, "runtime"), sample->time);
	default:
		return 0;
	}
}

/* Whether any event of the file carries tracepoint data. */
static bool sched__has_traces(struct evlist *evlist)
{
	struct evsel *e;

	evlist__for_each_entry(evlist, e)
		if (e->attr.sample_type & PERF_SAMPLE_RAW)
			return true;
	return false;
}

static int sched__latency(struct sched_cmd *sc)
{
	struct lat_tool lt = { .tool.sample = latency__sample, .sc = sc };
	struct lat_group *g = NULL;
	size_t nr = 0;
	int err = 0;

	if (!sched__open(sc))
		return 255;
	sched_lat__init(&lt.lat, sc->profile_cpu);
	if (!sched__has_traces(sc->session->evlist)) {
		fprintf(stderr, "No trace sample to read. Did you call 'perf record -R'?\n");
	} else {
		err = perf_session__process_events(sc->session, &lt.tool);
		if (err) {
			fprintf(stderr, "Failed to process events, error %d\n", err);
			goto out;
		}
	}
	g = lat__groups(sc, &lt.lat, &nr);
	if (!g) {
		err = -ENOMEM;
		goto out;
	}
	lat__print(sc, &lt.lat, g, nr);
out:
	free(g);
	sched_lat__exit(&lt.lat);
	perf_session__delete(sc->session);
	return cmd_exit_status(err);
}

/* ---- map -------------------------------------------------------------------- */

#define MAP_MAX_CPUS 4096

/* A task as the map shows it: two characters, given at its first switch in. */
struct map_task {
	int tid;
	char shortname[3];
	bool comm_changed;	/* a COMM since it was last named */
};

struct map_state {
	struct perf_tool tool;
	struct sched_cmd *sc;
	struct hashtab tasks;		/* struct map_task, in place */
	char next[2];			/* the next short name: letter, digit */
	int nr_cpus;			/* columns without --compact */
	int curr[MAP_MAX_CPUS];		/* per CPU: the tid switched in last; -1: none */
	int comp[MAP_MAX_CPUS];		/* --compact: the CPUs in the order seen */
	int nr_comp;
	struct cpu_map *cpus;		/* --cpus; NULL: all */
	u64 nr_lost;
};

/* The task of @tid (a new one unnamed); the pointer is good until the next call. */
static struct map_task *map__task(struct map_state *ms, int tid)
{
	u64 h = u64__hash((u64)tid);
	struct map_task *t = hashtab__find(&ms->tasks, &tid, h);
	struct map_task n = { .tid = tid };

	return t ? t : hashtab__add(&ms->tasks, &n, h);
}

/* Names @t on its first switch in: ". " for the idle task, else A0, B0, ... Z0, A1 ... */
static void map__name(struct map_state *ms, struct map_task *t, const char *comm)
{
	if (!strcmp(comm, "swapper")) {
		memcpy(t->shortname, ". ", 3);
		return;
	}
	t->shortname[0] = ms->next[0];
	t->shortname[1] = ms->next[1];
	t->shortname[2] = '\0';
	if (ms->next[0] < 'Z') {
		ms->next[0]++;
	} else {
		ms->next[0] = 'A';
		ms->next[1] = ms->next[1] < '9' ? ms->next[1] + 1 : '0';
	}
}

/* Each CPU's column: '*' marks the CPU that switched, then who runs there. */
static void map__print_columns(struct map_state *ms, int this_cpu, int nr)
{
	for (int i = 0; i < nr; i++) {
		int cpu = ms->sc->compact ? ms->comp[i] : i;
		struct map_task *t;

		if (ms->cpus && cpu_map__idx(ms->cpus, cpu) < 0)
			continue;
		putchar(cpu == this_cpu ? '*' : ' ');
		t = ms->curr[cpu] != -1 ? map__task(ms, ms->curr[cpu]) : NULL;
		if (t)
			printf("%2s ", t->shortname);
		else
			printf("   ");
	}
}

static int map__switch(struct map_state *ms, struct evsel *e, struct perf_sample *sample,
		       struct machine *m)
{
	int cpu = sample->cpu, next = (int)tp_num(e, sample, "next_pid"), nr = ms->nr_cpus;
	struct thread *in = machine__findnew_thread(m, -1, next);
	bool named = false, new_cpu = false;
	struct map_task *t;
	char ts[64];

	if (cpu < 0 || cpu >= MAP_MAX_CPUS || !in || !(t = map__task(ms, next)))
		return cpu < 0 || cpu >= MAP_MAX_CPUS ? -EINVAL : -ENOMEM;
	if (ms->sc->compact) {
		int i;

		for (i = 0; i < ms->nr_comp && ms->comp[i] != cpu; i++)
			;
		if (i == ms->nr_comp) {
			ms->comp[ms->nr_comp++] = cpu;
			new_cpu = true;
		}
		nr = ms->nr_comp;
	} else if (cpu > ms->nr_cpus) {
		/* As the distro counts: the highest CPU seen, not one more. */
		ms->nr_cpus = nr = cpu;
	}
	ms->curr[cpu] = next;
	if (!t->shortname[0]) {
		map__name(ms, t, thread__comm(in));
		named = true;
	}
	printf("  ");
	map__print_columns(ms, cpu, nr);
	if (!ms->cpus || cpu_map__idx(ms->cpus, cpu) >= 0) {
		t = map__task(ms, next);
		lat__print_time(ts, sizeof(ts), sample->time);
		printf("  %12s secs ", ts);
		if (named || t->comm_changed || (verbose > 0 && next)) {
			printf("%s => %s:%d", t->shortname, thread__comm(in), next);
			t->comm_changed = false;
		}
		if (ms->sc->compact && new_cpu)
			printf(" (CPU %d)", cpu);
	}
	printf("\n");
	return 0;
}

static int map__sample(struct perf_tool *tool, union perf_event *event,
		       struct perf_sample *sample, struct evsel *e, struct machine *m)
{
	struct map_state *ms = container_of(tool, struct map_state, tool);

	(void)event;
	if (sched_tp__of(ms->sc, e) != SCHED_TP_SWITCH)
		return 0;
	return map__switch(ms, e, sample, m);
}

/*
 * A COMM names the task anew at its next switch in.  The distro takes the
 * task from the record's sample id, not its tid field: a COMM made up at
 * the start of a recording without one marks task 0.
 */
static int map__other(struct perf_tool *tool, union perf_event *event,
		      struct perf_sample *sample, struct machine *m)
{
	struct map_state *ms = container_of(tool, struct map_state, tool);
	struct map_task *t;

	(void)m;
	if (event->header.type != PERF_RECORD_COMM)
		return 0;
	t = map__task(ms, (int)sample->tid);
	if (!t)
		return -ENOMEM;
	t->comm_changed = true;
	return 0;
}

static int sched__map(struct sched_cmd *sc)
{
	struct map_state ms = {
		.tool = { .sample = map__sample, .other = map__other }, .sc = sc,
		.next = { 'A', '0' },
	};
	int err = 0;

	ms.nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	for (int i = 0; i < MAP_MAX_CPUS; i++)
		ms.curr[i] = -1;
	if (sc->map_cpus) {
		ms.cpus = cpu_map__new(sc->map_cpus);
		if (!ms.cpus) {
			fprintf(stderr, "failed to get cpus map from %s\n", sc->map_cpus);
			return 255;
		}
	}
	if (!sched__open(sc)) {
		cpu_map__put(ms.cpus);
		return 255;
	}
	hashtab__init(&ms.tasks, sizeof(struct map_task), 256, sched_tid__hash, sched_tid__equal,
		      NULL);
	if (!sched__has_traces(sc->session->evlist)) {
		fprintf(stderr, "No trace sample to read. Did you call 'perf record -R'?\n");
	} else {
		err = perf_session__process_events(sc->session, &ms.tool);
		if (err)
			fprintf(stderr, "Failed to process events, error %d\n", err);
	}
	if (!err && sc->session->nr_lost && sc->session->nr_events)
		printf("  INFO: %.3f%% lost events (%llu out of %llu, in %llu chunks)\n",
		       100.0 * sc->session->nr_lost / sc->session->nr_events,
		       (unsigned long long)sc->session->nr_lost,
		       (unsigned long long)sc->session->nr_events,
		       (unsigned long long)sc->session->nr_lost_chunks);
	hashtab__exit(&ms.tasks);
	cpu_map__put(ms.cpus);
	perf_session__delete(sc->session);
	return cmd_exit_status(err);
}

/* Which part of perf sched takes an option. */
enum {
	SCHED_OPT_TOP = 1 << 0,		/* the command's own: every subcommand takes them too */
	SCHED_OPT_TIMEHIST = 1 << 1,
	SCHED_OPT_LATENCY = 1 << 2,
	SCHED_OPT_MAP = 1 << 3,
};

/*
 * The table of @part (SCHED_OPT_TOP: the command's, before the word).  A
 * subcommand takes the command's options, unlisted, as the distro's do.
 * The command's own table holds every option, the subcommands' unlisted
 * and without short names (theirs overlap), so that --list-opts names all.
 */
static void sched__options(struct sched_cmd *sc, struct perf_option *table, size_t len,
			   unsigned int part)
{
	static const char *unused;
	const unsigned int top = SCHED_OPT_TOP, th = SCHED_OPT_TIMEHIST, lat = SCHED_OPT_LATENCY;
	const unsigned int map = SCHED_OPT_MAP;
	const struct { unsigned int parts; struct perf_option opt; } rows[] = {
		{ top, OPT_BOOLEAN('D', "dump-raw-trace", &sc->dump, "dump raw trace in ASCII") },
		{ top, OPT_BOOLEAN('f', "force", &sc->force, "don't complain, do it") },
		{ top, OPT_STRING('i', "input", &sc->input, "file", "input file name") },
		{ top, OPT_INCR('v', "verbose", &verbose,
				"be more verbose (show symbol address, etc)") },
		{ th, OPT_BOOLEAN('g', "call-graph", &sc->callchain,
				  "Display call chains if present (default on)") },
		{ th, OPT_BOOLEAN('s', "summary", &sc->summary_only,
				  "Show only syscall summary with statistics") },
		{ th, OPT_BOOLEAN('S', "with-summary", &sc->with_summary,
				  "Show all syscalls and summary with statistics") },
		{ th, OPT_BOOLEAN('w', "wakeups", &sc->wakeups, "Show wakeup events") },
		{ th, OPT_BOOLEAN('M', "migrations", &sc->migrations, "Show migration events") },
		{ th, OPT_BOOLEAN('V', "cpu-visual", &sc->cpu_visual, "Add CPU visual") },
		{ th, OPT_BOOLEAN(0, "state", &sc->state, "Show task state when sched-out") },
		{ th, OPT_SAMPLE_FILTER('p', "pid", &sc->filter, "sched", "pid[,pid...]",
					"analyze events only for given process id(s)",
					sample_filter__opt_pid) },
		{ th, OPT_SAMPLE_FILTER('t', "tid", &sc->filter, "sched", "tid[,tid...]",
					"analyze events only for given thread id(s)",
					sample_filter__opt_pid) },
		{ th, OPT_SAMPLE_FILTER('C', "cpu", &sc->filter, "sched", "cpu",
					"list of cpus to profile", sample_filter__opt_cpu) },
		{ th, OPT_SAMPLE_FILTER(0, "time", &sc->filter, "sched", "str",
					"Time span for analysis (start,stop)", sample_filter__opt_time) },
		/* Taken, as the distro takes them; symbols come from where perf report finds them. */
		{ th, OPT_STRING('k', "vmlinux", &unused, "file", "vmlinux pathname") },
		{ th, OPT_STRING(0, "kallsyms", &unused, "file", "kallsyms pathname") },
		{ th, OPT_STRING(0, "symfs", &unused, "directory",
				 "Look for files with symbols relative to this directory") },
		{ th, OPT_INTEGER(0, "max-stack", &sc->max_stack, "n",
				  "Maximum number of functions to display backtrace.") },
		{ lat, OPT_INTEGER('C', "CPU", &sc->profile_cpu, "n", "CPU to profile on") },
		{ lat, OPT_BOOLEAN('p', "pids", &sc->per_pid,
				   "latency stats per pid instead of per comm") },
		{ lat, OPT_STRING('s', "sort", &sc->sort, "key[,key2...]",
				  "sort by key(s): runtime, switch, avg, max") },
		{ map, OPT_BOOLEAN(0, "compact", &sc->compact, "map output in compact mode") },
		{ map, OPT_STRING(0, "color-pids", &sc->color_pids, "pids",
				  "highlight given pids in map") },
		{ map, OPT_STRING(0, "color-cpus", &sc->color_cpus, "cpus",
				  "highlight given CPUs in map") },
		{ map, OPT_STRING(0, "cpus", &sc->map_cpus, "cpus", "display given CPUs in map") },
	};
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(rows) && n < len - 1; i++) {
		if (part != top && !(rows[i].parts & (part | top)))
			continue;
		table[n] = rows[i].opt;
		if (rows[i].parts != part)
			table[n].flags |= PARSE_OPT_HIDDEN;
		if (part == top && rows[i].parts != top)
			table[n].short_name = 0;
		n++;
	}
	table[n] = (struct perf_option)OPT_END();
}

/* A refused combination: the message, then the usage of just the options in it. */
static void sched__usage_of(const struct perf_option *table, const char *msg, int a, int b)
{
	struct perf_option two[3];
	char *text = NULL;
	size_t len = 0;
	int n = 0;
	FILE *fp;

	for (; table->type != OPTION_END && n < 2; table++)
		if (table->short_name == a || table->short_name == b)
			two[n++] = *table;
	two[n] = (struct perf_option)OPT_END();

	fprintf(stderr, " Error: %s\n", msg);
	fp = open_memstream(&text, &len);
	if (!fp)
		return;
	parse_options__usage(fp, timehist_usage, two);
	fclose(fp);
	/* Without the blank line that ends a whole -h. */
	if (len >= 2 && text[len - 1] == '\n' && text[len - 2] == '\n')
		len--;
	fwrite(text, 1, len, stderr);
	free(text);
}

/*
 * perf sched record [<record options>] [<command>]: perf record, system
 * wide, a period of 1 and 1024 pages a CPU, with the scheduler's events the
 * distro's records (those this kernel has), then the words given.  The
 * distro also passes -R, which our record does not need: a tracepoint's
 * samples always carry its raw data.
 */
static int cmd_sched_record(int argc, const char **argv)
{
	static const char * const events[] = {
		"sched_switch", "sched_stat_wait", "sched_stat_sleep", "sched_stat_iowait",
		"sched_stat_runtime", "sched_process_fork", "sched_wakeup_new",
		"sched_migrate_task",
	};
	static const char * const head[] = { "record", "-a", "-m", "1024", "-c", "1" };
	size_t n = 0, cap = ARRAY_SIZE(head) + 2 * (ARRAY_SIZE(events) + 1) + argc + 1;
	const char **rec = calloc(cap, sizeof(*rec));
	char names[ARRAY_SIZE(events) + 1][48];
	size_t nr_names = 0;
	int ret;

	if (!rec)
		return 255;
	for (size_t i = 0; i < ARRAY_SIZE(head); i++)
		rec[n++] = head[i];
	for (size_t i = 0; i <= ARRAY_SIZE(events); i++) {
		/* Last: sched_waking where the kernel has it, else sched_wakeup. */
		const char *name = i < ARRAY_SIZE(events) ? events[i] :
				   tracepoint__id("sched", "sched_waking") >= 0 ? "sched_waking" :
				   "sched_wakeup";

		if (tracepoint__id("sched", name) < 0)
			continue;
		snprintf(names[nr_names], sizeof(names[0]), "sched:%s", name);
		rec[n++] = "-e";
		rec[n++] = names[nr_names++];
	}
	for (int i = 1; i < argc; i++)
		rec[n++] = argv[i];
	rec[n] = NULL;
	ret = cmd_record((int)n, rec);
	free(rec);
	return ret;
}

/*
 * The options after the subcommand's word, for @part: -1 to go on, else
 * the exit status of a command line that ends here.
 */
static int sched__parse_sub(struct sched_cmd *sc, struct perf_option *table, size_t len,
			    unsigned int part, const char * const *usage, int argc, const char **argv)
{
	sched__options(sc, table, len, part);
	argc = parse_options(argc, argv, table, usage, 0);
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (argc > 0) {
		parse_options__usage(stderr, usage, table);
		return 129;
	}
	if (sc->dump) {
		fprintf(stderr, "perf sched: -D is not done here yet: use perf script -D.\n");
		return 129;
	}
	return -1;
}

/* perf sched map [<options>] */
static int cmd_sched_map(struct sched_cmd *sc, struct perf_option *table, size_t len,
			 int argc, const char **argv)
{
	int ret = sched__parse_sub(sc, table, len, SCHED_OPT_MAP, map_usage, argc, argv);

	return ret >= 0 ? ret : sched__map(sc);
}

/* perf sched latency [<options>] */
static int cmd_sched_latency(struct sched_cmd *sc, struct perf_option *table, size_t len,
			     int argc, const char **argv)
{
	int ret = sched__parse_sub(sc, table, len, SCHED_OPT_LATENCY, latency_usage, argc, argv);

	if (ret >= 0)
		return ret;
	if (lat__parse_sort(sc->sort)) {
		parse_options__usage(stderr, latency_usage, table);
		return 129;
	}
	return sched__latency(sc);
}

/* perf sched timehist [<options>] */
static int cmd_sched_timehist(struct sched_cmd *sc, struct perf_option *table, size_t len,
			      int argc, const char **argv)
{
	int ret = sched__parse_sub(sc, table, len, SCHED_OPT_TIMEHIST, timehist_usage, argc, argv);

	if (ret >= 0)
		return ret;
	if (sc->summary_only && sc->wakeups) {
		sched__usage_of(table, "-s and -[n|w] are mutually exclusive.", 's', 'w');
		return 234;	/* the distro's -EINVAL */
	}
	return sched__timehist(sc);
}

/* As the distro takes them: "record" and "latency" also by a start of three letters or more. */
static bool sched__is_word(const char *word, const char *cmd)
{
	size_t len = strlen(word);

	return len > 2 && !strncmp(cmd, word, len);
}

int cmd_sched(int argc, const char **argv)
{
	struct sched_cmd sc = {
		.input = perf_session__default_input(), .callchain = true, .profile_cpu = -1, .max_stack = 5,
		.sort = "avg, max, switch, runtime",
	};
	struct perf_option table[48];
	int ret;

	sched__options(&sc, table, ARRAY_SIZE(table), SCHED_OPT_TOP);
	argc = parse_options(argc, argv, table, sched_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (argc == 0) {
		parse_options__usage(stderr, sched_usage, table);
		return 129;
	}
	if (sched__is_word(argv[0], "record")) {
		ret = cmd_sched_record(argc, argv);
	} else if (!strcmp(argv[0], "timehist")) {
		ret = cmd_sched_timehist(&sc, table, ARRAY_SIZE(table), argc, argv);
	} else if (sched__is_word(argv[0], "latency")) {
		ret = cmd_sched_latency(&sc, table, ARRAY_SIZE(table), argc, argv);
	} else if (!strcmp(argv[0], "map")) {
		ret = cmd_sched_map(&sc, table, ARRAY_SIZE(table), argc, argv);
	} else {
		fprintf(stderr, "perf sched: '%s' is not done here yet: record, timehist, latency "
			"and map are.\n", argv[0]);
		ret = 129;
	}
	sample_filter__exit(&sc.filter);
	return ret;
}
