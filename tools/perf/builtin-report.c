/*
 * perf report --stdio (lean): per event, the samples grouped by the sort
 * keys (comm, dso, sym by default), by share of the event's period.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "util/session.h"
#include "util/raw-dump.h"
#include "util/debug.h"
#include "util/callchain.h"
#include "util/hist.h"
#include "util/hist-print.h"
#include "util/sort.h"
#include "util/srcline.h"
#include "util/tasks.h"
#include "util/unwind.h"
#include "util/sample-filter.h"
#include "util/parse-options.h"
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

/* What the options ask for besides the report's own settings. */
struct report_opts {
	const char *input, *sort_arg, *fields_arg;
	bool header, header_only, stats, tasks, stdio, quiet, dump_raw;
	struct raw_dump dump;	/* -D */
};

struct report {
	struct perf_tool tool;
	struct perf_session *session;
	struct report_opts opts;
	struct sort_keys sort;	/* -s and -F */
	struct hists *hists;	/* one per evsel, by idx */
	struct strset strs;	/* comms, trace outputs, source lines */
	/* Call graphs: -g, --children. */
	struct callchain_param cc;
	bool callchain;		/* the file has callchains: children can be added up */
	bool trees;		/* ... and call graphs are built and printed */
	int children;		/* -1: as the file allows (the default) */
	bool want_callchain;	/* -g was given */
	int max_stack;
	struct callchain_frames chain;	/* the chain of the sample at hand */
	/* Columns and filters. */
	bool show_nr;
	bool show_period;	/* --show-total-period */
	int group;		/* groups in one view (-1: when the file has groups) */
	double percent_limit;
	const char *field_sep;	/* -t */
	struct sample_filter filter;
	struct trace_seq seq;	/* for the trace key */
	struct dso_canon canon;	/* the dso key: objects by short name */
	struct srcline_cache srclines;	/* --sort srcline */
	struct hist_key hk;	/* a sample's key, made with the above */
};

static bool report__has(const struct report *r, enum sort_key k)
{
	return sort_keys__has(&r->sort, k);
}

/*
 * As in the distro: samples outside --cpu and --time are not there at
 * all; those of other comms or threads still count in the totals, so
 * shares stay those of the whole file.  True for a sample filtered out.
 */
static bool report__filtered(struct report *r, struct hists *h, const struct perf_sample *sample,
			     const char *comm)
{
	if (!r->filter.active ||
	    sample_filter__match(&r->filter, comm, (int)sample->pid, (int)sample->tid,
				 (int)sample->cpu, sample->time))
		return false;
	if (sample_filter__match_cpu(&r->filter, (int)sample->cpu) &&
	    sample_filter__match_time(&r->filter, sample->time)) {
		h->total_period += sample->period;
		h->nr_samples++;
	}
	return true;
}

/*
 * --children: every entry on the sample's chain (@he, its own, first) gets
 * the sample once, with the chain from there on.
 */
static int report__credit_chain(struct report *r, struct hists *h, struct hist_entry *key,
				struct thread *t, struct hist_entry *he, ssize_t nr, u64 period)
{
	size_t nr_seen = 0;

	/* A sample of an event without call graphs has no frames but needs its slot. */
	if (callchain_frames__room(&r->chain, (size_t)nr))
		return -ENOMEM;
	he->period_acc += period;
	r->chain.seen[nr_seen++] = he;
	for (ssize_t i = 0; i < nr; i++) {
		const struct callchain_frame *f = &r->chain.frames[i];
		size_t j;

		/* An address in no map keeps the sample's own space, as the distro has it. */
		if (f->mapped)
			key->kernel = f->kernel;
		hist_key__set_location(&r->hk, key, f->dso, f->sym, f->ip, f->sym_addr);
		if (report__has(r, SORT_SRCLINE)) {
			key->srcline = srcline_cache__get(&r->srclines, f);
			if (!key->srcline)
				return -ENOMEM;
		}
		he = hists__findnew(h, key, t);
		he->last_comm = key->last_comm;
		for (j = 0; j < nr_seen && r->chain.seen[j] != he; j++)
			;
		if (j < nr_seen)
			continue;
		r->chain.seen[nr_seen++] = he;
		he->period_acc += period;
		if (hist_entry__append(he, f, (size_t)(nr - i), period, r->trees))
			return -ENOMEM;
	}
	return 0;
}

static int report__sample(struct perf_tool *tool, union perf_event *event,
			  struct perf_sample *sample, struct evsel *evsel,
			  struct machine *machine)
{
	struct report *r = container_of(tool, struct report, tool);
	struct thread *t = machine__findnew_thread(machine, (int)sample->pid, (int)sample->tid);
	struct hists *h = &r->hists[evsel->idx];
	struct hist_entry key = { 0 }, *he;
	ssize_t nr = 0;
	u64 period = sample->period;
	const char *comm;

	if (!t)
		return -ENOMEM;
	comm = thread__comm_at(t, sample->time);
	if (report__filtered(r, h, sample, comm))
		return 0;
	if (hist_key__sample(&r->hk, &key, evsel, sample, machine, t, comm))
		return -ENOMEM;
	if (r->callchain && (r->trees || r->children) &&
	    (evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
		nr = callchain_frames__resolve(&r->chain, machine, sample, key.kernel, &r->cc,
					       r->max_stack);
		if (nr < 0)
			return (int)nr;
	}
	if (hists__reserve(h, (size_t)nr + 1))
		return -ENOMEM;
	he = hists__findnew(h, &key, t);
	he->last_comm = key.last_comm;
	he->nr++;
	he->period += period;
	h->total_period += period;
	h->nr_samples++;
	if (r->callchain && hist_entry__append(he, r->chain.frames, (size_t)nr, period, r->trees))
		return -ENOMEM;
	if (!r->children)
		return 0;
	return report__credit_chain(r, h, &key, t, he, nr, period);
}

/*
 * --group on a file that recorded no group shows all its events as one,
 * led by the first, as the distro does.
 */
static void report__force_group(struct evlist *evlist)
{
	struct evsel *e, *first = NULL;
	int nr = 0;

	evlist__for_each_entry(evlist, e) {
		if (e->nr_members > 1)
			return;
		if (!first)
			first = e;
		nr++;
	}
	if (nr < 2)
		return;
	evlist__for_each_entry(evlist, e)
		e->leader = first;
	first->nr_members = nr;
	first->forced_leader = true;
}

static void report__exit(struct report *r)
{
	if (r->hists) {
		for (int i = 0; i < r->session->evlist->nr_entries; i++)
			hists__exit(&r->hists[i]);
	}
	free(r->hists);
	strset__exit(&r->strs);
	callchain_frames__exit(&r->chain);
	dso_canon__exit(&r->canon);
	sample_filter__exit(&r->filter);
	if (r->seq.buffer)
		trace_seq_destroy(&r->seq);
	perf_session__delete(r->session);
}

static int report__count_sample(struct perf_tool *tool, union perf_event *event,
				struct perf_sample *sample, struct evsel *evsel,
				struct machine *machine)
{
	struct report *r = container_of(tool, struct report, tool);

	r->hists[evsel->idx].nr_samples++;
	return 0;
}

/* --stats: LOST_SAMPLES records count for the event their sample id names. */
static int report__count_other(struct perf_tool *tool, union perf_event *event,
			       struct perf_sample *sample, struct machine *machine)
{
	struct report *r = container_of(tool, struct report, tool);
	struct evsel *e;

	if (event->header.type != PERF_RECORD_LOST_SAMPLES ||
	    event->header.size < sizeof(event->lost_samples))
		return 0;
	e = sample->id ? perf_session__evsel_by_id(r->session, sample->id) :
			 evlist__first(r->session->evlist);
	if (e)
		r->hists[e->idx].lost_samples += event->lost_samples.lost;
	return 0;
}

static int report__task_sample(struct perf_tool *tool, union perf_event *event,
			       struct perf_sample *sample, struct evsel *evsel,
			       struct machine *machine)
{
	return machine__findnew_thread(machine, (int)sample->pid, (int)sample->tid) ? 0 : -ENOMEM;
}

static bool report__all_tracepoints(struct report *r)
{
	struct evsel *e;

	evlist__for_each_entry(r->session->evlist, e)
		if (!evsel__is_tracepoint(e))
			return false;
	return true;
}

/* Whether any event of the file recorded callchains. */
static bool report__file_has_callchains(struct report *r)
{
	struct evsel *e;

	evlist__for_each_entry(r->session->evlist, e)
		if (e->attr.sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
	return false;
}

static int report__opt_sort(const struct perf_option *opt, const char *arg, int unset)
{
	struct report *r = opt->value;

	r->opts.sort_arg = arg;
	return sort_keys__parse(&r->sort, arg) ? -1 : 0;
}

static int report__opt_call_graph(const struct perf_option *opt, const char *arg, int unset)
{
	struct report *r = opt->value;
	char msg[256] = "";

	r->want_callchain = true;
	if (arg && callchain_param__parse(&r->cc, arg, msg, sizeof(msg))) {
		fprintf(stderr, "perf report: %s\n", msg);
		return -1;
	}
	return 0;
}

static int report__opt_inverted(const struct perf_option *opt, const char *arg, int unset)
{
	struct report *r = opt->value;

	r->cc.order = ORDER_CALLER;
	r->cc.order_set = true;
	return 0;
}

/* --children and --group: -1 until given, so the file can decide. */
static int report__opt_tristate(const struct perf_option *opt, const char *arg, int unset)
{
	*(int *)opt->value = !unset;
	return 0;
}

static int report__opt_max_stack(const struct perf_option *opt, const char *arg, int unset)
{
	struct report *r = opt->value;
	char *end;

	r->max_stack = (int)strtol(arg, &end, 10);
	if (end == arg || *end || r->max_stack < 0) {
		fprintf(stderr, "perf report: --max-stack takes a number of frames, not '%s'.\n",
			arg);
		return -1;
	}
	return 0;
}

static int report__opt_percent_limit(const struct perf_option *opt, const char *arg, int unset)
{
	struct report *r = opt->value;
	char *end;

	r->percent_limit = strtod(arg, &end);
	if (end == arg || *end) {
		fprintf(stderr, "perf report: --percent-limit takes a percentage, not '%s'.\n",
			arg);
		return -1;
	}
	return 0;
}

static const char * const report_usage[] = { "perf report [<options>]", NULL };

/* -D: each record the session hands over goes into report's dump. */
static void report__dump(struct perf_tool *tool, struct perf_session *s, const union perf_event *ev,
			 const struct perf_sample *sample, u64 offset)
{
	raw_dump__record(&container_of(tool, struct report, tool)->opts.dump, s, ev, sample, offset);
}

/* What the options mean together, once all are read: -1 to go on, or the exit status. */
static int report__options_done(struct report *r, int argc, const char **argv)
{
	struct report_opts *o = &r->opts;

	if (o->quiet)
		quiet = 1;
	/* The dump, then the --stats summary, as the distro prints them. */
	if (o->dump_raw) {
		r->tool.dump = report__dump;
		o->stats = true;
	}
	/*
	 * The distro takes one word after the options as a symbol filter, and
	 * shows its usage for more; there is no symbol filter here.
	 */
	if (argc > 0) {
		fprintf(stderr, "perf report: unexpected argument '%s': filtering by a symbol "
			"name is not supported; the file goes after -i.\n", argv[0]);
		return PERF_EXIT_USAGE;
	}
	if (o->fields_arg && sort_keys__parse_fields(&r->sort, o->fields_arg, o->sort_arg != NULL))
		return PERF_EXIT_USAGE;
	return -1;
}

/* The options into @r: -1 to go on, or the exit status. */
static int report__parse_options(struct report *r, int argc, const char **argv)
{
	struct report_opts *o = &r->opts;
	const struct perf_option options[] = {
		OPT_STRING('i', "input", &o->input, "file", "input file name (default perf.data)"),
		OPT_BOOLEAN(0, "stdio", &o->stdio, "use the stdio interface (the only one)"),
		OPT_CALLBACK('s', "sort", r, "keys",
			     "sort by key(s): comm,pid,tid,cpu,dso,sym,srcline,trace"
			     HELP_MORE "(default comm,dso,sym)", report__opt_sort),
		OPT_STRING('F', "fields", &o->fields_arg, "cols",
			   "the columns, in order: overhead,overhead_children,sample,"
			   HELP_MORE "period and sort keys"),
		{ .type = OPTION_CALLBACK, .short_name = 'g', .long_name = "call-graph",
		  .value = r, .argh = "print_type,threshold[,print_limit],order,sort_key,value",
		  .help = "call graphs: graph|flat|fractal|folded|none, a threshold in"
			  HELP_MORE "percent (0.5), caller|callee, percent|period|count",
		  .flags = PARSE_OPT_OPTARG | PARSE_OPT_OPTARG_WORD | PARSE_OPT_NONEG,
		  .callback = report__opt_call_graph },
		OPT_CALLBACK_NOOPT(0, "children", &r->children,
				   "add the callchains' callees to each entry (default with -g"
				   HELP_MORE "data; --no-children: each entry's own samples only)",
				   report__opt_tristate),
		{ .type = OPTION_CALLBACK, .short_name = 'G', .long_name = "inverted", .value = r,
		  .help = "caller-based call graphs (the same as -g caller)",
		  .flags = PARSE_OPT_NOARG | PARSE_OPT_NONEG, .callback = report__opt_inverted },
		OPT_CALLBACK(0, "max-stack", r, "n", "use at most n frames of each callchain",
			     report__opt_max_stack),
		OPT_STRING('t', "field-separator", &r->field_sep, "separator",
			   "separate the columns by this string, for scripts"),
		OPT_BOOLEAN('n', "show-nr-samples", &r->show_nr,
			    "show the number of samples of each entry"),
		OPT_BOOLEAN(0, "show-total-period", &r->show_period,
			    "add a Period column: the period of the line itself"),
		OPT_CALLBACK_NOOPT(0, "group", &r->group,
				   "show the events of a group together (default when the file"
				   HELP_MORE "has groups; --no-group: each event on its own)",
				   report__opt_tristate),
		OPT_CALLBACK(0, "percent-limit", r, "n", "hide entries below n percent",
			     report__opt_percent_limit),
		OPT_SAMPLE_FILTERS(&r->filter, "report", 'c',
				   "only the samples in start,stop (seconds) or percent slices"),
		OPT_BOOLEAN(0, "header", &o->header, "show the data header first"),
		OPT_BOOLEAN(0, "header-only", &o->header_only, "show the data header and stop"),
		OPT_BOOLEAN(0, "stats", &o->stats,
			    "show the number of records of each type, and samples per event"),
		OPT_BOOLEAN('D', "dump-raw-trace", &o->dump_raw,
			    "dump every record (offset, bytes, fields), then the --stats summary"),
		OPT_BOOLEAN(0, "tasks", &o->tasks,
			    "show the threads as a process tree (pid, tid, ppid, comm)"),
		{ .type = OPTION_BOOLEAN, .long_name = "task", .value = &o->tasks,
		  .help = "the same as --tasks (the distro's spelling)", .flags = PARSE_OPT_HIDDEN },
		OPT_BOOLEAN('q', "quiet", &o->quiet, "do not show warnings or the comment lines"),
		OPT_INCR('v', "verbose", &verbose,
			 "be more verbose (show why symbols were not found, ...)"),
		OPT_SYMBOL_CONF(),
		OPT_END()
	};

	callchain_param__init(&r->cc);
	argc = parse_options(argc, argv, options, report_usage, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc < 0)
		return parse_options__exit_status(argc);
	return report__options_done(r, argc, argv);
}

/* The file, and the options that need to know it: -1 to go on, or the exit status. */
static int report__open(struct report *r, const struct report_opts *o)
{
	char msg[256];
	int err;

	r->session = perf_session__open(o->input, &err, msg, sizeof(msg));
	if (!r->session) {
		perf_session__report_open_error("report", o->input, err, msg);
		return cmd_exit_status(-1);
	}
	if (r->filter.cpus &&
	    !(evlist__first(r->session->evlist)->attr.sample_type & PERF_SAMPLE_CPU)) {
		fprintf(stderr, "perf report: %s has no CPU in its samples; remove -C/--cpu.\n",
			o->input);
		return cmd_exit_status(-1);
	}
	if (r->filter.time_arg &&
	    sample_filter__set_time(&r->filter, r->filter.time_arg, false,
				    r->session->first_sample_time, r->session->last_sample_time,
				    msg, sizeof(msg))) {
		fprintf(stderr, "perf report: %s\n", msg);
		return cmd_exit_status(-EINVAL);
	}
	/* Call graphs when the file has callchains, as the distro does; children with them. */
	if (report__file_has_callchains(r)) {
		r->callchain = true;
		r->trees = r->cc.mode != CHAIN_NONE;
	} else if (r->want_callchain && r->cc.mode != CHAIN_NONE) {
		/* "-g none" asks for no call graph: nothing to refuse, as in the distro. */
		fprintf(stderr, "perf report: -g was given but %s has no callchains; "
			"record with -g to get them.\n", o->input);
		return cmd_exit_status(-1);
	}
	return -1;
}

/* What the file and the options decide together: children, groups, call-graph order, keys. */
static void report__setup(struct report *r, const struct report_opts *o)
{
	struct evsel *e;

	if (r->children < 0)
		r->children = r->callchain;
	/* The groups a file recorded are shown as such unless --no-group, as the distro does. */
	if (r->group < 0) {
		r->group = 0;
		evlist__for_each_entry(r->session->evlist, e)
			if (e->nr_members > 1)
				r->group = 1;
	} else if (r->group) {
		report__force_group(r->session->evlist);
	}
	if (!r->callchain)
		r->children = 0;
	/* With children the distro shows callers first unless told otherwise. */
	if (r->children && !r->cc.order_set)
		r->cc.order = ORDER_CALLER;
	/*
	 * A stream: the distro's reader sets up before it knows the stream has
	 * call graphs, so it adds no callees up (no Children column), though
	 * its graphs keep the callers-first order that children asked for.
	 */
	if (r->session->pipe)
		r->children = 0;
	r->cc.skip_first = o->sort_arg && !strncmp(o->sort_arg, "sym", 3);
	/* A line hidden under --percent-limit hides call-graph branches as small too. */
	if (r->percent_limit > r->cc.min_percent)
		r->cc.min_percent = r->percent_limit;
	/*
	 * A file of tracepoints only is sorted by what they say, as the
	 * distro does; a stream keeps the default keys, as the distro's
	 * reader picks them before a stream's events are known.
	 */
	if (!o->sort_arg && !o->fields_arg && !r->session->pipe && report__all_tracepoints(r))
		sort_keys__parse(&r->sort, "trace");
}

/*
 * The lines before the tables: the header (--header), or the hint about
 * it, and the one comm asked for.  True when that comm's column is elided.
 */
static bool report__preamble(struct report *r, const struct report_opts *o)
{
	if (o->header || o->header_only) {
		perf_session__print_header(r->session, stdout);
		if (o->header_only)
			return false;
	} else if (!quiet && (!o->stats || r->tool.dump) && !o->tasks) {
		printf("# To display the perf.data header info, please use "
		       "--header/--header-only options.\n#\n");
	}
	/* One comm asked for: the column would say it on every line; the distro says it once. */
	if (r->filter.nr_comms != 1 || r->sort.nr_keys <= 1 || !report__has(r, SORT_COMM))
		return false;
	if (!quiet && !o->stats && !o->tasks)
		printf("# comm: %s\n#\n", r->filter.comms[0]);
	sort_keys__remove(&r->sort, SORT_COMM);
	return true;
}

static void report__read_error(struct report *r, const struct report_opts *o, int err)
{
	fprintf(stderr, "perf report: %s: %s\n", o->input,
		r->session->errmsg[0] ? r->session->errmsg : strerror(-err));
}

/* --tasks: the threads as a process tree. */
static int report__run_tasks(struct report *r, const struct report_opts *o)
{
	int err;

	r->tool.sample = report__task_sample;
	err = perf_session__process_events(r->session, &r->tool);
	if (!err)
		err = machine__fprintf_tasks(&r->session->machine, stdout);
	if (err)
		report__read_error(r, o, err);
	return cmd_exit_status(err);
}

/* --stats (and -D): the records of the file by type, and each event's samples. */
static int report__run_stats(struct report *r, struct report_opts *o)
{
	int err;

	r->tool.sample = report__count_sample;
	/* The distro's summary after -D counts no LOST_SAMPLES by event. */
	r->tool.other = r->tool.dump ? NULL : report__count_other;
	err = r->tool.dump ? raw_dump__init_stdout(&o->dump) : 0;
	if (!err)
		err = perf_session__process_events(r->session, &r->tool);
	if (raw_dump__exit(&o->dump) && !err)
		err = -EIO;
	if (!err)
		hists__print_stats(r->hists, r->session);
	else
		report__read_error(r, o, err);
	/* A cut or damaged file's counts are shown, and the exit status says so. */
	return err ? cmd_exit_status(err) : perf_session__damaged(r->session);
}

/* The tables: each event's (or group's) entries. */
static int report__run(struct report *r, const struct report_opts *o, bool elided)
{
	u64 nr_samples = 0, lost = 0;
	bool truncated = false;	/* shown, but the exit status must say the file is cut */
	struct evsel *e;
	int err;

	struct hists_print print = {
		.sort = &r->sort, .cc = &r->cc, .children = r->children, .trees = r->trees,
		.show_nr = r->show_nr, .show_period = r->show_period, .group = r->group,
		.percent_limit = r->percent_limit, .field_sep = r->field_sep,
		.time_arg = r->filter.time_arg,
		.hists = r->hists, .evlist = r->session->evlist, .strs = &r->strs,
	};

	/* "Total Lost Samples" adds up the LOST_SAMPLES records, as the distro's. */
	r->tool.other = report__count_other;
	err = perf_session__process_events(r->session, &r->tool);
	if (err) {
		report__read_error(r, o, err);
		return cmd_exit_status(err);
	}
	if (perf_session__warn_stats(r->session))
		truncated = true;
	evlist__for_each_entry(r->session->evlist, e) {
		nr_samples += r->hists[e->idx].nr_samples;
		lost += r->hists[e->idx].lost_samples;
	}
	/*
	 * No sample at all (none in the file, or none in --time or --cpu), as
	 * the distro says it; samples only filtered by --comm, --pid or --tid
	 * still give their tables.
	 */
	if (!nr_samples)
		fprintf(stderr, "Error:\nThe %s data has no samples!\n", o->input);
	else if (!quiet)
		printf("%s# Total Lost Samples: %llu\n#\n", elided ? "" : "#\n",
		       (unsigned long long)lost);
	evlist__for_each_entry(r->session->evlist, e) {
		/* A group's members are shown with their leader. */
		if (r->group && !evsel__is_group_leader(e))
			continue;
		if (r->hists[e->idx].nr_samples)
			hists__print(&print, e);
	}
	/* A cut file: what it holds is shown, and it exits 1, as gzip -d does on a cut stream. */
	return truncated;
}

int cmd_report(int argc, const char **argv)
{
	struct report r = {
		.tool = { .sample = report__sample },
		.children = -1, .max_stack = -1, .group = -1,
		.opts = { .input = perf_session__default_input(), .dump = { .script = false } },
	};
	struct report_opts *o = &r.opts;
	bool elided;
	int err;

	sort_keys__init(&r.sort);
	strset__init(&r.strs, 256);
	r.srclines.strs = &r.strs;
	dso_canon__init(&r.canon);
	err = report__parse_options(&r, argc, argv);
	if (err < 0)
		err = report__open(&r, o);
	if (err >= 0)
		goto out;
	report__setup(&r, o);
	trace_seq_init(&r.seq);
	r.hk = (struct hist_key){ .sort = &r.sort, .strs = &r.strs, .canon = &r.canon,
				  .srclines = &r.srclines, .tep = r.session->tep, .seq = &r.seq };
	elided = report__preamble(&r, o);
	err = 0;
	if (o->header_only)
		goto out;
	r.hists = calloc(r.session->evlist->nr_entries, sizeof(*r.hists));
	if (!r.hists) {
		err = cmd_exit_status(-ENOMEM);
		goto out;
	}
	for (int i = 0; i < r.session->evlist->nr_entries; i++)
		hists__init(&r.hists[i]);
	if (o->tasks)
		err = report__run_tasks(&r, o);
	else if (o->stats)
		err = report__run_stats(&r, o);
	else
		err = report__run(&r, o, elided);
out:
	report__exit(&r);
	return err;
}
