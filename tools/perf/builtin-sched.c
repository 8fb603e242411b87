/*
 * perf sched: what the scheduler did, from a file with sched:* events.
 * timehist: one line per context switch, the task switched out with how
 * long it waited, how late it ran after its wakeup and how long it ran,
 * then optionally a summary per task; latency: each task's waits for a
 * CPU; map: a column per CPU of the task running there.  This file feeds
 * the events to the accounting and printers of the util/sched* units.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "util/callchain.h"
#include "util/cpumap.h"
#include "util/debug.h"
#include "util/hashtab.h"
#include "util/evsel.h"
#include "util/parse-options.h"
#include "util/sample-filter.h"
#include "util/sched-latency-table.h"
#include "util/sched-map.h"
#include "util/sched-timehist-print.h"
#include "util/session.h"
#include "util/tracepoint.h"

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

/* ---- the events ------------------------------------------------------------- */

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
	int tid = (int)sched_tp__num(e, sample, "pid");

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
		printf(" cpu %d => %d\n", (int)sched_tp__num(e, sample, "orig_cpu"),
		       (int)sched_tp__num(e, sample, "dest_cpu"));
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
	int state = (int)sched_tp__num(e, sample, "prev_state");
	u64 t = sample->time, tprev;
	struct sched_task *rt = NULL;
	struct thread *thr = NULL;

	if (sched_tp__num(e, sample, "prev_pid") == 0) {
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

/*
 * Reading the records failed: what the session found, when it named it (a
 * corrupt file), else the distro's line.
 */
static void sched__read_error(struct sched_cmd *sc, int err)
{
	if (sc->session->errmsg[0])
		fprintf(stderr, "perf sched: %s: %s\n", sc->input, sc->session->errmsg);
	else
		fprintf(stderr, "Failed to process events, error %d\n", err);
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
		return PERF_EXIT_FAILURE;
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
		sched__read_error(sc, err);
		goto out;
	}
	if (sc->summary_only || sc->with_summary)
		err = timehist__summary(sc);
out:
	sched_timehist__exit(&sc->th);
	callchain_frames__exit(&sc->frames);
	perf_session__delete(sc->session);
	sc->nr_kinds = 0;
	return cmd_exit_status(err);
}

/* ---- latency ---------------------------------------------------------------- */

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
					 (int)sched_tp__num(e, sample, "prev_pid"),
					 (int)sched_tp__num(e, sample, "prev_state"),
					 (int)sched_tp__num(e, sample, "next_pid"));
	case SCHED_TP_WAKEUP:
		/* The distro's latency takes sched_wakeup and sched_wakeup_new, not sched_waking. */
		if (!strcmp(evsel__name(e), "sched:sched_waking"))
			return 0;
		return sched_lat__wakeup(&lt->lat, (int)sched_tp__num(e, sample, "pid"),
					 sample->time);
	case SCHED_TP_MIGRATE:
		return sched_lat__migrate(&lt->lat, (int)sched_tp__num(e, sample, "pid"),
					  sample->time);
	case SCHED_TP_RUNTIME:
		return sched_lat__runtime(&lt->lat, (int)sched_tp__num(e, sample, "pid"),
					  sched_tp__num(e, sample, "runtime"), sample->time);
	default:
		return 0;
	}
}

static int sched__latency(struct sched_cmd *sc)
{
	struct lat_tool lt = { .tool.sample = latency__sample, .sc = sc };
	struct sched_lat_group *g = NULL;
	size_t nr = 0;
	int err = 0;

	if (!sched__open(sc))
		return PERF_EXIT_FAILURE;
	sched_lat__init(&lt.lat, sc->profile_cpu);
	if (!sched__has_traces(sc->session->evlist)) {
		fprintf(stderr, "No trace sample to read. Did you call 'perf record -R'?\n");
	} else {
		err = perf_session__process_events(sc->session, &lt.tool);
		if (err) {
			sched__read_error(sc, err);
			goto out;
		}
	}
	g = sched_lat__groups(sc, &lt.lat, &nr);
	if (!g) {
		err = -ENOMEM;
		goto out;
	}
	sched_lat__print(sc, &lt.lat, g, nr);
out:
	free(g);
	sched_lat__exit(&lt.lat);
	perf_session__delete(sc->session);
	sc->nr_kinds = 0;
	return cmd_exit_status(err);
}

/* ---- map -------------------------------------------------------------------- */
static int map__sample(struct perf_tool *tool, union perf_event *event,
		       struct perf_sample *sample, struct evsel *e, struct machine *m)
{
	struct sched_map *ms = container_of(tool, struct sched_map, tool);

	(void)event;
	if (sched_tp__of(ms->sc, e) != SCHED_TP_SWITCH)
		return 0;
	return sched_map__switch(ms, e, sample, m);
}

/*
 * A COMM names the task anew at its next switch in.  The distro takes the
 * task from the record's sample id, not its tid field: a COMM made up at
 * the start of a recording without one marks task 0.
 */
static int map__other(struct perf_tool *tool, union perf_event *event,
		      struct perf_sample *sample, struct machine *m)
{
	struct sched_map *ms = container_of(tool, struct sched_map, tool);
	struct sched_map_task *t;

	(void)m;
	if (event->header.type != PERF_RECORD_COMM)
		return 0;
	t = sched_map__task(ms, (int)sample->tid);
	if (!t)
		return -ENOMEM;
	t->comm_changed = true;
	return 0;
}

static int sched__map(struct sched_cmd *sc)
{
	struct sched_map ms = {
		.tool = { .sample = map__sample, .other = map__other }, .sc = sc,
		.next = { 'A', '0' },
	};
	int err = 0;

	ms.nr_cpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	for (int i = 0; i < SCHED_MAP_MAX_CPUS; i++)
		ms.curr[i] = -1;
	if (sc->map_cpus) {
		ms.cpus = cpu_map__new(sc->map_cpus);
		if (!ms.cpus) {
			fprintf(stderr, "failed to get cpus map from %s\n", sc->map_cpus);
			return PERF_EXIT_FAILURE;
		}
	}
	if (!sched__open(sc)) {
		cpu_map__put(ms.cpus);
		return PERF_EXIT_FAILURE;
	}
	hashtab__init(&ms.tasks, sizeof(struct sched_map_task), 256, sched_tid__hash,
		      sched_tid__equal, NULL);
	if (!sched__has_traces(sc->session->evlist)) {
		fprintf(stderr, "No trace sample to read. Did you call 'perf record -R'?\n");
	} else {
		err = perf_session__process_events(sc->session, &ms.tool);
		if (err)
			sched__read_error(sc, err);
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
	sc->nr_kinds = 0;
	return cmd_exit_status(err);
}

/* Which part of perf sched takes an option. */
enum {
	SCHED_OPT_TOP = 1 << 0,		/* the command's own: every subcommand takes them too */
	SCHED_OPT_TIMEHIST = 1 << 1,
	SCHED_OPT_LATENCY = 1 << 2,
	SCHED_OPT_MAP = 1 << 3,
};

/* The rows of the option table of sched__options(), and its end, at most. */
#define SCHED_TABLE_LEN 48

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

	/* Every row fits, with the end: a row more than the table holds fails the build. */
	_Static_assert(ARRAY_SIZE(rows) < SCHED_TABLE_LEN, "perf sched: SCHED_TABLE_LEN is too small");
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
		return PERF_EXIT_FAILURE;
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
		return PERF_EXIT_USAGE;
	}
	if (sc->dump) {
		fprintf(stderr, "perf sched: -D is not done here yet: use perf script -D.\n");
		return PERF_EXIT_USAGE;
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
	if (sched_lat__parse_sort(sc->sort)) {
		parse_options__usage(stderr, latency_usage, table);
		return PERF_EXIT_USAGE;
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
		return PERF_EXIT_EINVAL;	/* the distro's -EINVAL */
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
	struct perf_option table[SCHED_TABLE_LEN];
	int ret;

	sched__options(&sc, table, ARRAY_SIZE(table), SCHED_OPT_TOP);
	argc = parse_options(argc, argv, table, sched_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (argc == 0) {
		parse_options__usage(stderr, sched_usage, table);
		return PERF_EXIT_USAGE;
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
		ret = PERF_EXIT_USAGE;
	}
	sample_filter__exit(&sc.filter);
	return ret;
}
