// SPDX-License-Identifier: GPL-2.0
/*
 * The built-in reports of perf script.  There is one, flamegraph: every
 * sample's resolved callchain folded into util/flamegraph's tree, written
 * as the distro's JSON or as a page that draws it with no template and no
 * network.  Its options are the distro's script's (-o, -f, --colorscheme)
 * and the sample filters perf script has.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "callchain.h"
#include "debug.h"
#include "evlist.h"
#include "evsel.h"
#include "flamegraph.h"
#include "machine.h"
#include "parse-options.h"
#include "sample-filter.h"
#include "script-report.h"
#include "session.h"
#include "timeline.h"

/* The distro's script resolves chains this deep (its scripting_max_stack). */
#define FLAMEGRAPH_MAX_STACK 127

struct flamegraph_report {
	struct perf_tool tool;
	struct sample_filter *filter;
	struct flamegraph fg;
	struct flamegraph base;			/* --diff: the baseline's tree */
	struct callchain_param cc;		/* callers first */
	struct callchain_frames chain;
	struct flamegraph_frame *frames;	/* the stack being added, process first */
	size_t cap;
	char *proc;				/* "comm (pid)" of the last sample */
	int proc_pid;				/* ... its pid and the length of its comm */
	size_t proc_comm_len;
	u64 first_time, last_time;		/* of the samples taken */
	bool timeline;				/* --timeline: tl is kept too */
	bool lost_cpu;				/* side-band records carry a CPU */
	struct timeline tl;
};

static const char *flamegraph__usage[] = {
	"perf script report flamegraph [<options>]", NULL
};

static int fg_report__room(struct flamegraph_report *r, size_t nr)
{
	struct flamegraph_frame *f;

	if (nr <= r->cap)
		return 0;
	f = realloc(r->frames, nr * sizeof(*f));
	if (!f)
		return -ENOMEM;
	r->frames = f;
	r->cap = nr;
	return 0;
}

/* The distro tells kernel frames by their DSO: the kernel image. */
static bool frame__kernel(const struct dso *dso, const struct symbol *sym)
{
	return dso && dso->kernel && !(sym && sym->module);
}

/* The process's node: "comm (pid)", or the comm alone for the idle task (pid 0). */
static const char *fg_report__proc(struct flamegraph_report *r, const char *comm, int pid)
{
	size_t len = strlen(comm);

	/* Runs of samples come from one process: its name is made once a run. */
	if (r->proc && r->proc_pid == pid && r->proc_comm_len == len && !strncmp(r->proc, comm, len))
		return r->proc;
	r->proc_pid = pid;
	r->proc_comm_len = len;
	free(r->proc);
	if (!pid)
		r->proc = strdup(comm);
	else if (asprintf(&r->proc, "%s (%d)", comm, pid) < 0)
		r->proc = NULL;
	return r->proc;
}

/* --timeline: a sched_switch is what ran on its CPU, not a frame of the flame graph. */
static int fg_report__switch(struct flamegraph_report *r, const struct perf_sample *sample)
{
	if (r->filter->active && (!sample_filter__match_cpu(r->filter, (int)sample->cpu) ||
				  !sample_filter__match_time(r->filter, sample->time)))
		return 0;
	/* A switch too short for its format is left out, as perf script prints none. */
	if (timeline__add_switch(&r->tl, sample->time, (int)sample->cpu, sample->raw_data,
				 sample->raw_size) == -ENOMEM)
		return -ENOMEM;
	return 0;
}

static int fg_report__sample(struct perf_tool *tool, union perf_event *event,
			     struct perf_sample *sample, struct evsel *evsel,
			     struct machine *machine)
{
	struct flamegraph_report *r = container_of(tool, struct flamegraph_report, tool);
	struct thread *thread = machine__findnew_thread(machine, (int)sample->pid,
							(int)sample->tid);
	u8 mode = sample->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel = mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL;
	struct flamegraph_node *leaf;
	const char *comm;
	ssize_t nr = 0;

	if (!thread)
		return -ENOMEM;
	if (r->timeline && timeline__is_switch(&r->tl, evsel->tp_format))
		return fg_report__switch(r, sample);
	comm = thread__comm_at(thread, sample->time);
	if (r->filter->active &&
	    !sample_filter__match(r->filter, comm, (int)sample->pid, (int)sample->tid,
				  (int)sample->cpu, sample->time))
		return 0;
	if (!r->first_time || sample->time < r->first_time)
		r->first_time = sample->time;
	if (sample->time > r->last_time)
		r->last_time = sample->time;
	if (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN) {
		nr = callchain_frames__resolve(&r->chain, machine, sample, kernel, &r->cc,
					       FLAMEGRAPH_MAX_STACK);
		if (nr < 0)
			return (int)nr;
	}
	if (fg_report__room(r, (size_t)nr + 2))
		return -ENOMEM;
	r->frames[0] = (struct flamegraph_frame){
		.name = fg_report__proc(r, comm, (int)sample->pid), .kernel = !sample->pid,
	};
	if (!r->frames[0].name)
		return -ENOMEM;
	for (ssize_t i = 0; i < nr; i++) {
		const struct callchain_frame *f = &r->chain.frames[i];

		r->frames[i + 1] = (struct flamegraph_frame){
			.name = f->sym ? f->sym->name : "[unknown]",
			.kernel = frame__kernel(f->dso, f->sym),
		};
	}
	/* Without a chain, the sample's own symbol is its only frame. */
	if (!nr) {
		struct addr_location al;

		machine__resolve(machine, (int)sample->pid, sample->ip, kernel, &al);
		r->frames[1] = (struct flamegraph_frame){
			.name = al.sym ? al.sym->name : "[unknown]",
			.kernel = frame__kernel(al.dso, al.sym),
		};
		nr = 1;
	}
	if (!r->timeline)
		return flamegraph__add(&r->fg, r->frames, (size_t)nr + 1);
	leaf = flamegraph__add_leaf(&r->fg, r->frames, (size_t)nr + 1);
	if (!leaf)
		return -ENOMEM;
	return timeline__add_sample(&r->tl, sample->time, (int)sample->cpu, (int)sample->pid,
				    (int)sample->tid, comm, leaf);
}

/* Records other than samples: of the timeline's, the losses. */
static int fg_report__other(struct perf_tool *tool, union perf_event *event,
			    struct perf_sample *sample, struct machine *machine)
{
	struct flamegraph_report *r = container_of(tool, struct flamegraph_report, tool);
	int cpu = r->lost_cpu ? (int)sample->cpu : -1;

	(void)machine;
	if (event->header.type == PERF_RECORD_LOST)
		return timeline__add_lost(&r->tl, sample->time, cpu, event->lost.lost, false);
	if (event->header.type == PERF_RECORD_LOST_SAMPLES &&
	    event->header.size >= sizeof(event->lost_samples))
		return timeline__add_lost(&r->tl, sample->time, cpu, event->lost_samples.lost,
					  true);
	return 0;
}

/*
 * "Flame graph of perf.data, 1234.567890 to 1236.567890 s (2.000000 s, N
 * samples)": the page's title; of a diff, "Differential flame graph of
 * NEW against BASE, ...".
 */
static char *fg_report__title(const struct flamegraph_report *r, const char *input,
			      const char *base)
{
	u64 first = r->timeline ? r->tl.first_time : r->first_time;
	u64 last = r->timeline ? r->tl.last_time : r->last_time;
	char *title, *head;
	int n;

	if (r->timeline)
		n = asprintf(&head, "Timeline of %s", input);
	else if (base)
		n = asprintf(&head, "Differential flame graph of %s against %s", input, base);
	else
		n = asprintf(&head, "Flame graph of %s", input);
	if (n < 0)
		return NULL;
	if (last)
		n = asprintf(&title, "%s, %.6f to %.6f s (%.6f s, %llu samples)",
			     head, first / 1e9, last / 1e9, (last - first) / 1e9,
			     (unsigned long long)r->fg.nr_samples);
	else
		n = asprintf(&title, "%s (%llu samples)", head,
			     (unsigned long long)r->fg.nr_samples);
	free(head);
	return n < 0 ? NULL : title;
}

/* The output as asked for: "-" is stdout; else it says where, as the distro does. */
static int fg_report__write(struct flamegraph_report *r, const char *input, const char *base,
			    const char *output, bool html, const char *colorscheme)
{
	FILE *fp = stdout;
	char *title = NULL;
	int err;

	if (!output)
		output = r->timeline ? "timeline.html" : html ? "flamegraph.html" : "stacks.json";
	if (strcmp(output, "-")) {
		printf("dumping data to %s\n", output);
		fflush(stdout);
		fp = fopen(output, "w");
		if (!fp) {
			fprintf(stderr, "perf script report flamegraph: cannot write %s: %s; "
				"choose another -o.\n", output, strerror(errno));
			return PERF_EXIT_FAILURE;
		}
	}
	if (html) {
		title = fg_report__title(r, input, base);
		if (!title)
			err = -ENOMEM;
		else if (r->timeline)
			err = timeline__write_html(&r->tl, &r->fg, title, colorscheme, fp);
		else
			err = flamegraph__write_html(&r->fg, &(struct flamegraph_page){
				.title = title, .colorscheme = colorscheme }, fp);
	} else {
		err = flamegraph__write_json(&r->fg, fp);
	}
	free(title);
	if (fp != stdout ? fclose(fp) : fflush(fp))
		err = -EIO;
	if (err)
		fprintf(stderr, "perf script report flamegraph: writing %s failed: %s\n", output,
			strerror(-err));
	return err ? 255 : 0;
}

/* The file's samples into the tree; 0 or the exit status, said. */
static int fg_report__read(struct flamegraph_report *r, const char *input)
{
	struct perf_session *session;
	char msg[256];
	int err;

	session = perf_session__open(input, &err, msg, sizeof(msg));
	if (!session) {
		perf_session__report_open_error("script", input, err, msg);
		return cmd_exit_status(-1);
	}
	if (r->filter->cpus &&
	    !(evlist__first(session->evlist)->attr.sample_type & PERF_SAMPLE_CPU)) {
		fprintf(stderr, "perf script: %s has no CPU in its samples; remove --cpu.\n", input);
		err = -EINVAL;
		goto out;
	}
	if (r->filter->time_arg &&
	    sample_filter__set_time(r->filter, r->filter->time_arg, false,
				    session->first_sample_time, session->last_sample_time,
				    msg, sizeof(msg))) {
		fprintf(stderr, "perf script: %s\n", msg);
		err = -EINVAL;
		goto out;
	}
	if (r->timeline) {
		const struct perf_event_attr *attr = &evlist__first(session->evlist)->attr;

		r->lost_cpu = attr->sample_id_all && (attr->sample_type & PERF_SAMPLE_CPU);
		r->tl.request = session->dump_request;
		r->tl.has_request = session->has_dump_request;
	}
	err = perf_session__process_events(session, &r->tool);
	if (err) {
		if (session->errmsg[0])
			fprintf(stderr, "perf script: %s: %s\n", input, session->errmsg);
		else
			fprintf(stderr, "perf script: reading %s failed: %s\n", input,
				strerror(-err));
	} else {
		/* A cut file: its samples are drawn, with the warning. */
		perf_session__warn_stats(session);
	}
out:
	perf_session__delete(session);
	return err ? cmd_exit_status(err) : 0;
}

/*
 * --diff: the baseline's tree into r->base, read with the same comm, pid
 * and CPU filters; --time picks a range of the new file only, since a
 * time of one recording names nothing in another.
 */
static int fg_report__read_baseline(struct flamegraph_report *r, const char *base)
{
	struct sample_filter *f = r->filter;
	struct time_range *times = f->times;
	char *time_arg = f->time_arg;
	int nr_times = f->nr_times, status;

	f->times = NULL;
	f->nr_times = 0;
	f->time_arg = NULL;
	status = fg_report__read(r, base);
	f->times = times;
	f->nr_times = nr_times;
	f->time_arg = time_arg;
	r->base = r->fg;
	flamegraph__init(&r->fg);
	r->first_time = r->last_time = 0;
	return status;
}

static int flamegraph__opt_format(const struct perf_option *opt, const char *arg, int unset)
{
	if (strcmp(arg, "html") && strcmp(arg, "json")) {
		fprintf(stderr, "perf script report flamegraph: unknown format '%s'; "
			"use html or json.\n", arg);
		return -1;
	}
	*(const char **)opt->value = arg;
	return 0;
}

static int flamegraph__opt_colorscheme(const struct perf_option *opt, const char *arg,
				       int unset)
{
	if (strcmp(arg, "blue-green") && strcmp(arg, "orange")) {
		fprintf(stderr, "perf script report flamegraph: unknown colour scheme '%s'; "
			"use blue-green or orange.\n", arg);
		return -1;
	}
	*(const char **)opt->value = arg;
	return 0;
}

static int flamegraph__run(int argc, const char **argv, const char *input,
			   struct sample_filter *filter)
{
	struct flamegraph_report r = {
		.tool = { .sample = fg_report__sample }, .filter = filter,
	};
	const char *output = NULL, *format = "html", *colorscheme = "blue-green", *base = NULL;
	const struct perf_option options[] = {
		OPT_STRING('i', "input", &input, "file", "input file name (default perf.data)"),
		OPT_STRING('o', "output", &output, "file",
			   "output file name (default flamegraph.html, or stacks.json; - for stdout)"),
		OPT_CALLBACK('f', "format", &format, "html|json", "output file format (default html)",
			     flamegraph__opt_format),
		OPT_CALLBACK(0, "colorscheme", &colorscheme, "blue-green|orange",
			     "flame graph colour scheme (default blue-green)",
			     flamegraph__opt_colorscheme),
		OPT_STRING(0, "diff", &base, "file",
			   "a differential flame graph: colours from the change since this baseline"),
		OPT_BOOLEAN(0, "timeline", &r.timeline,
			    "a view of the file: CPUs and tasks over time, the flame graph of a selection"),
		OPT_SAMPLE_FILTER(0, "comm", filter, "script", "list",
				  "only the samples of these comms", sample_filter__opt_comm),
		OPT_SAMPLE_FILTER(0, "pid", filter, "script", "list",
				  "only the samples of these process ids", sample_filter__opt_pid),
		OPT_SAMPLE_FILTER(0, "tid", filter, "script", "list",
				  "only the samples of these thread ids", sample_filter__opt_pid),
		OPT_SAMPLE_FILTER('C', "cpu", filter, "script", "list",
				  "only the samples on these CPUs (e.g. 0,2-3)",
				  sample_filter__opt_cpu),
		OPT_SAMPLE_FILTER(0, "time", filter, "script", "range",
				  "only the samples in start,stop (seconds), or in slices: 10%/2",
				  sample_filter__opt_time),
		OPT_END()
	};
	int status;

	argc = parse_options(argc, argv, options, flamegraph__usage, 0);
	if (argc < 0)
		return parse_options__exit_status(argc);
	if (argc > 0) {
		fprintf(stderr, "perf script report flamegraph: unexpected '%s'; "
			"see 'perf script report flamegraph -h'.\n", argv[0]);
		return PERF_EXIT_USAGE;
	}
	if (r.timeline && (base || strcmp(format, "html"))) {
		fprintf(stderr, "perf script report flamegraph: --timeline draws a page of one "
			"file; drop %s.\n", base ? "--diff" : "-f json");
		return PERF_EXIT_USAGE;
	}
	if (r.timeline) {
		if (timeline__init(&r.tl))
			return PERF_EXIT_FAILURE;
		r.tool.other = fg_report__other;
	}
	flamegraph__init(&r.fg);
	callchain_param__init(&r.cc);
	r.cc.order = ORDER_CALLER;
	status = base ? fg_report__read_baseline(&r, base) : 0;
	if (!status)
		status = fg_report__read(&r, input);
	if (!status && base)
		flamegraph__set_baseline(&r.fg, &r.base);
	if (!status)
		status = fg_report__write(&r, input, base, output, !strcmp(format, "html"),
					  colorscheme);
	flamegraph__exit(&r.fg);
	flamegraph__exit(&r.base);
	timeline__exit(&r.tl);
	callchain_frames__exit(&r.chain);
	free(r.frames);
	free(r.proc);
	return status;
}

static const struct script_report_desc {
	const char *name;
	const char *args;
	const char *description;
	int (*run)(int argc, const char **argv, const char *input, struct sample_filter *filter);
} script_reports[] = {
	{ "flamegraph", "", "create flame graphs", flamegraph__run },
};

void script_report__list(FILE *fp)
{
	fprintf(fp, "List of available trace scripts:\n");
	for (size_t i = 0; i < ARRAY_SIZE(script_reports); i++) {
		const struct script_report_desc *d = &script_reports[i];
		char head[256];

		snprintf(head, sizeof(head), "%s%s%s", d->name, *d->args ? " " : "", d->args);
		fprintf(fp, "  %-36s %s\n", head, d->description);
	}
}

int script_report__run(int argc, const char **argv, const char *input,
		       struct sample_filter *filter)
{
	for (size_t i = 0; i < ARRAY_SIZE(script_reports); i++) {
		if (!strcmp(argv[0], script_reports[i].name))
			return script_reports[i].run(argc, argv, input, filter);
	}
	fprintf(stderr, "perf script: unknown report script '%s'; "
		"'perf script -l' lists the reports.\n", argv[0]);
	return PERF_EXIT_FAILURE;
}
