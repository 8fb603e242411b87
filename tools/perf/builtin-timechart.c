/*
 * perf timechart: a file's context switches and wakeups drawn as an SVG,
 * a row per CPU of what ran there and a row per task of when it ran,
 * waited for a CPU, slept or was blocked (util/timechart); a dump's
 * trigger, its losses and its time range are drawn too.  perf timechart
 * record is our perf record with the events the picture is made from.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "builtin.h"
#include "util/debug.h"
#include "util/evsel.h"
#include "util/parse-options.h"
#include "util/sample-filter.h"
#include "util/sched-cmd.h"
#include "util/session.h"
#include "util/timechart.h"
#include "util/tracepoint.h"

static const char * const timechart_usage[] = {
	"perf timechart [<options>] {record}",
	NULL
};

static const char * const record_usage[] = {
	"perf timechart record [<options>]",
	NULL
};

enum tc_event { TC_EV_OTHER, TC_EV_SWITCH, TC_EV_WAKEUP, TC_EV_POWER };

struct tc_cmd {
	struct perf_tool tool;
	struct timechart tc;
	struct timechart_opts opts;
	const char *input, *output, *time_arg;
	const char **procs;
	size_t nr_procs;
	bool force;
	bool lost_cpu;			/* side-band records carry a CPU */
};

/* -p: one more process, by pid or name; the option may be given again. */
static int tc__opt_process(const struct perf_option *opt, const char *arg, int unset)
{
	struct tc_cmd *c = opt->value;
	const char **p;

	(void)unset;
	p = realloc(c->procs, (c->nr_procs + 1) * sizeof(*p));
	if (!p)
		return -1;
	p[c->nr_procs++] = arg;
	c->procs = p;
	return 0;
}

static enum tc_event tc__event_of(struct evsel *e)
{
	const char *name = evsel__name(e);

	if (!evsel__is_tracepoint(e))
		return TC_EV_OTHER;
	if (!strcmp(name, "sched:sched_switch"))
		return TC_EV_SWITCH;
	if (!strcmp(name, "sched:sched_wakeup") || !strcmp(name, "sched:sched_wakeup_new") ||
	    !strcmp(name, "sched:sched_waking"))
		return TC_EV_WAKEUP;
	if (!strcmp(name, "power:cpu_idle") || !strcmp(name, "power:cpu_frequency"))
		return TC_EV_POWER;
	return TC_EV_OTHER;
}

/* The char array field @name of a tracepoint sample into @buf ("" when none). */
static const char *tc__str(struct evsel *e, struct perf_sample *sample, const char *name,
			   char *buf, size_t len)
{
	struct tep_format_field *f = e->tp_format ? tep_find_field(e->tp_format, name) : NULL;
	size_t n;

	buf[0] = '\0';
	if (!f || f->offset + f->size > (int)sample->raw_size)
		return buf;
	n = (size_t)f->size < len - 1 ? (size_t)f->size : len - 1;
	memcpy(buf, (const char *)sample->raw_data + f->offset, n);
	buf[n] = '\0';
	return buf;
}

static int tc__switch(struct tc_cmd *c, struct evsel *e, struct perf_sample *sample)
{
	int prev = (int)sched_tp__num(e, sample, "prev_pid");
	char pcomm[16], ncomm[16];

	tc__str(e, sample, "prev_comm", pcomm, sizeof(pcomm));
	tc__str(e, sample, "next_comm", ncomm, sizeof(ncomm));
	return timechart__switch(&c->tc, sample->time, (int)sample->cpu, prev,
				 (int)sample->tid == prev ? (int)sample->pid : -1, pcomm,
				 sched_tp__num(e, sample, "prev_state"),
				 (int)sched_tp__num(e, sample, "next_pid"), ncomm);
}

static int tc__sample(struct perf_tool *tool, union perf_event *event,
		      struct perf_sample *sample, struct evsel *e, struct machine *m)
{
	struct tc_cmd *c = container_of(tool, struct tc_cmd, tool);
	char comm[16];

	(void)event;
	(void)m;
	switch (tc__event_of(e)) {
	case TC_EV_SWITCH:
		return tc__switch(c, e, sample);
	case TC_EV_WAKEUP:
		return timechart__wakeup(&c->tc, sample->time, (int)sample->cpu,
					 (int)sched_tp__num(e, sample, "pid"),
					 tc__str(e, sample, "comm", comm, sizeof(comm)));
	case TC_EV_POWER:
		c->tc.nr_power++;
		/* fall through */
	default:
		return timechart__seen(&c->tc, sample->time, (int)sample->cpu);
	}
}

/* Of the other records, the losses. */
static int tc__other(struct perf_tool *tool, union perf_event *event,
		     struct perf_sample *sample, struct machine *m)
{
	struct tc_cmd *c = container_of(tool, struct tc_cmd, tool);
	int cpu = c->lost_cpu ? (int)sample->cpu : -1;

	(void)m;
	if (event->header.type == PERF_RECORD_LOST)
		return timechart__add_lost(&c->tc, sample->time, cpu, event->lost.lost);
	if (event->header.type == PERF_RECORD_LOST_SAMPLES &&
	    event->header.size >= sizeof(event->lost_samples))
		return timechart__add_lost(&c->tc, sample->time, cpu, event->lost_samples.lost);
	return 0;
}

/* Whether the file has what the picture is made from; says what is missing. */
static bool tc__has_events(struct perf_session *s)
{
	struct evsel *e;

	evlist__for_each_entry(s->evlist, e)
		if (tc__event_of(e) != TC_EV_OTHER)
			return true;
	fprintf(stderr, "No trace sample to read. Did you call 'perf timechart record'?\n");
	return false;
}

/* --time resolved against the file's span: false when it does not parse, said why. */
static bool tc__set_time(struct tc_cmd *c, struct perf_session *s)
{
	struct sample_filter f = { 0 };
	char err[256];
	bool ok;

	if (!c->time_arg)
		return true;
	ok = !sample_filter__set_time(&f, c->time_arg, false, s->first_sample_time,
				      s->last_sample_time, err, sizeof(err)) && f.nr_times == 1;
	if (ok) {
		c->opts.start = f.times[0].start;
		c->opts.end = f.times[0].end;
	} else {
		fprintf(stderr, "perf timechart: --time '%s' is not a time span: give "
			"start,stop in seconds, as perf script takes it.\n", c->time_arg);
	}
	sample_filter__exit(&f);
	return ok;
}

/* The picture of the file read into @c written to -o. */
static int tc__write(struct tc_cmd *c)
{
	FILE *fp = fopen(c->output, "w");
	int err;

	if (!fp) {
		err = -errno;
		fprintf(stderr, "perf timechart: cannot write %s: %s\n", c->output, strerror(errno));
		return err;
	}
	err = timechart__write_svg(&c->tc, &c->opts, fp);
	if (fclose(fp) && !err)
		err = -EIO;
	if (err) {
		fprintf(stderr, "perf timechart: writing %s failed: %s\n", c->output, strerror(-err));
		return err;
	}
	fprintf(stderr, "Written %2.1f seconds of trace to %s.\n",
		(c->tc.last - c->tc.first) / 1e9, c->output);
	return 0;
}

static int tc__run(struct tc_cmd *c)
{
	struct perf_session *s;
	char msg[256];
	int err;

	s = perf_session__open(c->input, &err, msg, sizeof(msg));
	if (!s) {
		perf_session__report_open_error("timechart", c->input, err, msg);
		return PERF_EXIT_FAILURE;
	}
	err = -EINVAL;
	if (!tc__has_events(s) || !tc__set_time(c, s))
		goto out;
	err = timechart__init(&c->tc, (int)s->nr_cpus_online);
	if (err)
		goto out;
	c->lost_cpu = evlist__first(s->evlist)->attr.sample_id_all &&
		      (evlist__first(s->evlist)->attr.sample_type & PERF_SAMPLE_CPU);
	c->tc.request = s->dump_request;
	c->tc.has_request = s->has_dump_request;
	c->tool.sample = tc__sample;
	c->tool.other = tc__other;
	err = perf_session__process_events(s, &c->tool);
	if (err) {
		fprintf(stderr, "perf timechart: reading %s failed: %s\n", c->input,
			s->errmsg[0] ? s->errmsg : strerror(-err));
		goto out_tc;
	}
	err = timechart__finish(&c->tc);
	if (!err)
		err = tc__write(c);
out_tc:
	timechart__exit(&c->tc);
out:
	perf_session__delete(s);
	return cmd_exit_status(err);
}

/*
 * perf timechart record [-P|-T|-g] [<command>]: perf record, system wide
 * with a period of 1, of the distro's events for the picture (those this
 * kernel has): the switches and wakeups (not with -P), the CPUs' idle
 * states and frequencies (not with -T).
 */
static int cmd_timechart_record(int argc, const char **argv)
{
	static const char * const tasks[] = { "sched:sched_wakeup", "sched:sched_switch" };
	static const char * const power[] = { "power:cpu_frequency", "power:cpu_idle" };
	bool tasks_only = false, power_only = false, callchain = false, io = false;
	const struct perf_option table[] = {
		OPT_BOOLEAN('P', "power-only", &power_only, "record only power-related events"),
		OPT_BOOLEAN('T', "tasks-only", &tasks_only, "record only tasks-related events"),
		OPT_BOOLEAN('I', "io-only", &io, "record only IO data"),
		OPT_BOOLEAN('g', "callchain", &callchain, "record callchain"),
		OPT_END()
	};
	const char **rec;
	size_t n = 0;
	int ret;

	argc = parse_options(argc, argv, table, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (io || (tasks_only && power_only)) {
		fprintf(stderr, "perf timechart record: %s\n", io ?
			"-I is not done here: record the tasks (-T) or the power events (-P)." :
			"-P and -T leave nothing to record: give one of them, or neither.");
		return PERF_EXIT_USAGE;
	}
	rec = calloc(8 + 2 * 4 + (size_t)argc + 1, sizeof(*rec));
	if (!rec)
		return PERF_EXIT_FAILURE;
	rec[n++] = "record";
	rec[n++] = "-a";
	rec[n++] = "-c";
	rec[n++] = "1";
	if (callchain)
		rec[n++] = "-g";
	for (size_t i = 0; i < 2; i++) {
		const char *ev[2] = { power_only ? NULL : tasks[i], tasks_only ? NULL : power[i] };

		for (size_t k = 0; k < 2; k++) {
			char sys[16];
			const char *colon = ev[k] ? strchr(ev[k], ':') : NULL;

			if (!colon)
				continue;
			snprintf(sys, sizeof(sys), "%.*s", (int)(colon - ev[k]), ev[k]);
			if (tracepoint__id(sys, colon + 1) < 0)
				continue;
			rec[n++] = "-e";
			rec[n++] = ev[k];
		}
	}
	for (int i = 0; i < argc; i++)
		rec[n++] = argv[i];
	rec[n] = NULL;
	ret = cmd_record((int)n, rec);
	free(rec);
	return ret;
}

int cmd_timechart(int argc, const char **argv)
{
	struct tc_cmd c = {
		.input = perf_session__default_input(), .output = "output.svg",
		.opts.width = 1000,
	};
	const struct perf_option table[] = {
		OPT_BOOLEAN('f', "force", &c.force, "don't complain, do it"),
		OPT_STRING('i', "input", &c.input, "file", "input file name"),
		OPT_STRING('o', "output", &c.output, "file", "output file name"),
		OPT_INTEGER('w', "width", &c.opts.width, "n", "page width"),
		OPT_CALLBACK('p', "process", &c, "process",
			     "process selector. Pass a pid or process name.", tc__opt_process),
		OPT_BOOLEAN('P', "power-only", &c.opts.power_only, "output power data only"),
		OPT_BOOLEAN('T', "tasks-only", &c.opts.tasks_only, "output processes data only"),
		OPT_STRING(0, "time", &c.time_arg, "str", "Time span for analysis (start,stop)"),
		OPT_END()
	};
	int ret = PERF_EXIT_USAGE;

	argc = parse_options(argc, argv, table, timechart_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (argc && !strncmp(argv[0], "record", strlen(argv[0])) && strlen(argv[0]) > 2) {
		ret = cmd_timechart_record(argc, argv);
	} else if (argc) {
		parse_options__usage(stderr, timechart_usage, table);
	} else if (c.opts.width <= 0) {
		fprintf(stderr, "perf timechart: -w %d is not a width: give the picture's width "
			"in pixels, more than 0.\n", c.opts.width);
	} else if (c.opts.power_only && c.opts.tasks_only) {
		fprintf(stderr, "perf timechart: -P and -T leave nothing to draw: give one of "
			"them, or neither.\n");
	} else {
		c.opts.procs = c.procs;
		c.opts.nr_procs = c.nr_procs;
		c.opts.title = c.input;
		ret = tc__run(&c);
	}
	free(c.procs);
	return ret;
}
