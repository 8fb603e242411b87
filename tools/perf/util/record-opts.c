/*
 * perf record's options: their one table, the values (sizes, times, -m,
 * --switch-output) and the checks that need the whole set.  Messages are
 * the command's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include "perf.h"
#include "data.h"
#include "debug.h"
#include "page-size.h"
#include "cgroup.h"
#include "evlist.h"
#include "parse-events.h"
#include "record-opts.h"
#include "units.h"
#include "clockid.h"
#include "control.h"
#include "parse-options.h"
#include "target.h"

/* A positive decimal number, nothing after it. */
int record_opts__parse_positive(const char *s, u64 *val)
{
	char *end;

	errno = 0;
	*val = strtoull(s, &end, 10);
	return errno || end == s || *end || !*val || *s == '-' ? -EINVAL : 0;
}

struct time_unit {
	const char *suffix;
	u64 mult;
};

/* A number and one of @units' suffixes -> number x its multiplier. */
static int parse_duration(const char *s, const struct time_unit *units, u64 *v)
{
	char *end;
	unsigned long long n;

	/* strtoull() would take "-5" as 2^64 - 5. */
	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	for (; units->suffix; units++) {
		if (!strcmp(end, units->suffix)) {
			*v = n * units->mult;
			return 0;
		}
	}
	return -EINVAL;
}

/* --switch-output=TIME: "30s", "5m", "1h", "1d" -> seconds; a unit is needed. */
static int parse_time_secs(const char *s, u64 *secs)
{
	static const struct time_unit units[] = {
		{ "s", 1 }, { "m", 60 }, { "h", 3600 }, { "d", 86400 }, { NULL, 0 },
	};

	if (parse_duration(s, units, secs))
		return -EINVAL;
	return *secs ? 0 : -EINVAL;
}

int record_opts__parse_switch_output(struct record_opts *opts, const char *arg)
{
	bool unit;
	u64 v;

	opts->switch_output = true;
	if (!arg || !strcmp(arg, "signal")) {
		opts->switch_output_signal = true;
		return 0;
	}
	if (units__parse_size(arg, &v, &unit) == 0 && unit && v) {
		opts->switch_output_size = v;
		return 0;
	}
	if (parse_time_secs(arg, &v) == 0) {
		opts->switch_output_time = v;
		return 0;
	}
	pr_err("Invalid --switch-output value '%s': use 'signal', a size such as 100M, "
	       "or a time such as 30s, 5m, 1h, 1d.\n", arg);
	return -EINVAL;
}

/*
 * A size below one ring buffer would switch on every pass of the loop: it
 * is raised to that, with the distro's notice.
 */
void record_opts__check_switch_size(struct record_opts *opts)
{
	u64 buf = opts->mmap_pages * page_size();

	if (opts->switch_output_size && opts->switch_output_size < buf) {
		fprintf(stderr, "WARNING: switch-output data size lower than wakeup kernel buffer "
			"size (%lluK) expect bigger perf.data sizes\n", (unsigned long long)(buf >> 10));
		opts->switch_output_size = buf;
	}
}

static bool is_power_of_2(u64 n)
{
	return n && !(n & (n - 1));
}

/* -m: pages (rounded up to a power of two, with a notice) or a size with a unit. */
int record_opts__parse_mmap_pages(struct record_opts *opts, const char *arg)
{
	u64 psize = page_size();
	bool unit;
	u64 v, pages;

	if (units__parse_size(arg, &v, &unit) < 0 || v == 0) {
		pr_err("Invalid -m/--mmap-pages value '%s': give a number of pages (e.g. 128) or "
		       "a size (e.g. 512K, 4M).\n", arg);
		return -EINVAL;
	}
	pages = unit ? (v + psize - 1) / psize : v;
	if (pages > (1ULL << 30) / psize * 4) {
		pr_err("-m %s is too large: at most 4G per ring buffer.\n", arg);
		return -EINVAL;
	}
	if (!is_power_of_2(pages)) {
		u64 p = 1;

		while (p < pages)
			p <<= 1;
		if (!unit)
			fprintf(stderr, "rounding mmap pages size to %llu bytes (%llu pages)\n",
				(unsigned long long)(p * psize), (unsigned long long)p);
		pages = p;
	}
	opts->mmap_pages = pages;
	return 0;
}

/*
 * Root can lock what it likes; others are bound by perf_event_mlock_kb
 * per CPU plus RLIMIT_MEMLOCK.  Everyone is bound by the memory there is.
 */
int record_opts__check_mmap_size(const struct record_opts *opts, int nr_buffers)
{
	u64 per_buf = (opts->mmap_pages + 1) * page_size();
	u64 total = per_buf * nr_buffers;
	struct sysinfo si;

	if (sysinfo(&si) == 0 && total > (u64)si.totalram * si.mem_unit / 2) {
		pr_err("-m asks for %llu MB of ring buffers in all (%d buffers), more than half "
		       "of this machine's memory: use a smaller -m.\n",
		       (unsigned long long)(total >> 20), nr_buffers);
		return -ENOMEM;
	}
	if (geteuid() != 0) {
		FILE *fp = fopen("/proc/sys/kernel/perf_event_mlock_kb", "r");
		unsigned long mlock_kb = 516;
		struct rlimit rl = { 0, 0 };
		u64 limit;

		if (fp) {
			if (fscanf(fp, "%lu", &mlock_kb) != 1)
				mlock_kb = 516;
			fclose(fp);
		}
		getrlimit(RLIMIT_MEMLOCK, &rl);
		limit = (u64)mlock_kb * 1024 * sysconf(_SC_NPROCESSORS_ONLN) +
			(rl.rlim_cur == RLIM_INFINITY ? (u64)1 << 62 : rl.rlim_cur);
		if (total > limit) {
			pr_err("-m asks for %llu KB of locked ring buffers, more than the %llu KB "
			       "allowed: use a smaller -m, raise "
			       "/proc/sys/kernel/perf_event_mlock_kb, or run as root.\n",
			       (unsigned long long)(total >> 10), (unsigned long long)(limit >> 10));
			return -EPERM;
		}
	}
	return 0;
}


/* ---- the command line ------------------------------------------------ */

/* "200", "200ms", "2s", "1m" -> milliseconds (a bare number is milliseconds). */
static int parse_msecs(const char *s, u64 *ms)
{
	static const struct time_unit units[] = {
		{ "", 1 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { NULL, 0 },
	};

	if (parse_duration(s, units, ms))
		return -EINVAL;
	return *ms > 24ULL * 3600 * 1000 ? -ERANGE : 0;
}

/*
 * What the table's callbacks share while one command line is parsed: each
 * row's value points here.
 */
struct record_cmdline {
	struct record_opts *opts;
	struct evlist *evlist;
	/* The events the last -e or --switch-output-event added (--filter's). */
	struct evlist *last_list;
	int last_from;		/* idx of the first of them */
	int tail;		/* --[no-]tail-synthesize: 1 or 0; -1 neither given */
	int nr_cgroups;		/* the -G names so far, empty ones too: the next one's event */
	const char *early_cgroups;	/* a -G given before any event, applied at the end */
	/*
	 * A refusal that is not a usage error (exit 129): the -errno whose
	 * status the distro exits with, as for --switch-output, -F and -z.
	 */
	int err;
};

static struct record_cmdline *cmdline_of(const struct perf_option *opt)
{
	return opt->value;
}

/* A value refused with -EINVAL's status rather than the usage error's. */
static int cmdline__einval(struct record_cmdline *cl)
{
	cl->err = -EINVAL;
	return -1;
}

static int cmdline__add_filter(struct record_cmdline *cl, const char *opt, const char *expr)
{
	struct evsel *evsel;
	bool any = false;

	if (cl->last_list) {
		evlist__for_each_entry(cl->last_list, evsel) {
			if (evsel->idx < cl->last_from)
				continue;
			if (!evsel__is_tracepoint(evsel)) {
				pr_err("%s applies to tracepoints only, and %s is not one: put it "
				       "right after the -e that selects the tracepoint.\n", opt,
				       evsel__name(evsel));
				return -1;
			}
			any = true;
		}
	}
	if (!any) {
		pr_err("%s must follow a -e (or --switch-output-event) that selects tracepoints.\n",
		       opt);
		return -1;
	}
	evlist__for_each_entry(cl->last_list, evsel) {
		if (evsel->idx >= cl->last_from && evsel__append_filter(evsel, expr)) {
			cl->err = -ENOMEM;
			return -1;
		}
	}
	return 0;
}

/* -e and --switch-output-event: the events onto @evlist, or what was wrong. */
static int cmdline__add_events(struct record_cmdline *cl, struct evlist *evlist, const char *arg)
{
	struct parse_events_error perr;
	int err;

	cl->last_list = evlist;
	cl->last_from = evlist->nr_entries;
	memset(&perr, 0, sizeof(perr));
	err = parse_events(evlist, arg, &perr);
	if (err) {
		parse_events_error__print(&perr, arg);
		fprintf(stderr, "Run 'perf list' for a list of valid events\n");
	}
	parse_events_error__exit(&perr);
	return err ? -1 : 0;
}

static int opt_event(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_cmdline *cl = cmdline_of(opt);

	return cmdline__add_events(cl, cl->evlist, arg);
}

static int opt_trigger(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_cmdline *cl = cmdline_of(opt);
	struct record_opts *opts = cl->opts;
	struct evsel *evsel;

	if (!opts->trigger_evlist) {
		opts->trigger_evlist = perf_evlist__new_sideband(cl->evlist);
		if (!opts->trigger_evlist) {
			cl->err = -ENOMEM;
			return -1;
		}
	}
	if (cmdline__add_events(cl, opts->trigger_evlist, arg))
		return -1;
	evlist__for_each_entry(opts->trigger_evlist, evsel)
		evsel->trigger = true;
	/* Each occurrence asks for a dump, as SIGUSR2 does. */
	opts->switch_output = true;
	opts->switch_output_signal = true;
	return 0;
}

/* -G @list onto the events given so far, or the line that says what was wrong. */
static int cmdline__add_cgroups(struct record_cmdline *cl, const char *list)
{
	char path[4096] = "";
	int err = evlist__add_cgroups(cl->evlist, list, &cl->nr_cgroups, path, sizeof(path));

	if (err == -E2BIG)
		pr_err("-G %s names more cgroups than there are events before it: "
		       "each cgroup goes to the event in its place, give the -e first.\n", list);
	else if (err == -ENOMEM)
		cl->err = err;
	else if (err && path[0])
		fprintf(stderr, "no access to cgroup %s\n", path);
	else if (err)
		pr_err("No cgroup hierarchy with perf_event is mounted (see /proc/mounts): "
		       "mount cgroup2 to use -G.\n");
	return err ? -1 : 0;
}

static int opt_cgroup(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_cmdline *cl = cmdline_of(opt);

	/*
	 * The distro refuses a -G before any event.  We keep the first such
	 * one for the events of the whole command line (the default one if
	 * there are none), so that "-a -G name" can lead a command line whose
	 * events come after it, as a daemon session's do.
	 */
	if (!cl->evlist->nr_entries && !cl->early_cgroups && !cl->nr_cgroups) {
		cl->early_cgroups = arg;
		return 0;
	}
	if (!cl->evlist->nr_entries) {
		fprintf(stderr, "must define events before cgroups\n");
		return -1;
	}
	if (cl->early_cgroups) {
		pr_err("-G %s: the -G %s given before the events applies to all of them; "
		       "give each -G after its events instead.\n", arg, cl->early_cgroups);
		return -1;
	}
	return cmdline__add_cgroups(cl, arg);
}

/* The -G given before the events, once they are all known. */
static int cmdline__add_early_cgroups(struct record_cmdline *cl)
{
	int err;

	if (!cl->evlist->nr_entries) {
		err = parse_events(cl->evlist, RECORD_DEFAULT_EVENT, NULL);
		if (err) {
			pr_err("Cannot set up the default event '%s': %s\n", RECORD_DEFAULT_EVENT,
			       strerror(-err));
			cl->err = err;
			return -1;
		}
	}
	return cmdline__add_cgroups(cl, cl->early_cgroups);
}

static int opt_switch_output_delay(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_opts *opts = cmdline_of(opt)->opts;

	if (parse_msecs(arg, &opts->switch_output_delay_ms)) {
		pr_err("Invalid --switch-output-delay value '%s': give a time such as "
		       "200ms, 2s or 1m (at most a day).\n", arg);
		return -1;
	}
	return 0;
}

static int opt_dump_mode(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_opts *opts = cmdline_of(opt)->opts;

	if (!strcmp(arg, "swap") || !strcmp(arg, "pause")) {
		opts->dump_pause = arg[0] == 'p';
		return 0;
	}
	pr_err("Invalid --dump-mode value '%s': give swap or pause.\n", arg);
	return -1;
}

static int opt_filter(const struct perf_option *opt, const char *arg, int unset)
{
	return cmdline__add_filter(cmdline_of(opt), "--filter", arg);
}

static int opt_exclude_perf(const struct perf_option *opt, const char *arg, int unset)
{
	char expr[48];

	snprintf(expr, sizeof(expr), "common_pid != %d", (int)getpid());
	return cmdline__add_filter(cmdline_of(opt), "--exclude-perf", expr);
}

static int opt_control(const struct perf_option *opt, const char *arg, int unset)
{
	if (control__check_spec(arg))
		return -1;
	cmdline_of(opt)->opts->control = arg;
	return 0;
}

static int opt_delay(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_opts *opts = cmdline_of(opt)->opts;
	char *end;

	errno = 0;
	opts->delay_ms = strtol(arg, &end, 10);
	if (errno || end == arg || *end || opts->delay_ms < -1) {
		pr_err("Invalid -D/--delay value '%s': give milliseconds, or -1 to start "
		       "disabled until 'enable' arrives on the control channel.\n", arg);
		return -1;
	}
	return 0;
}

static int opt_mmap_pages(const struct perf_option *opt, const char *arg, int unset)
{
	return record_opts__parse_mmap_pages(cmdline_of(opt)->opts, arg) ? -1 : 0;
}

static int opt_freq(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_cmdline *cl = cmdline_of(opt);

	if (record_opts__parse_positive(arg, &cl->opts->freq)) {
		pr_err("Invalid -F/--freq value '%s': give a frequency in Hz, e.g. 999.\n", arg);
		return cmdline__einval(cl);
	}
	cl->opts->user_freq = true;
	return 0;
}

static int opt_count(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_opts *opts = cmdline_of(opt)->opts;

	if (record_opts__parse_positive(arg, &opts->period)) {
		pr_err("Invalid -c/--count value '%s': give a positive event count.\n", arg);
		return -1;
	}
	opts->user_period = true;
	return 0;
}

static int opt_g(const struct perf_option *opt, const char *arg, int unset)
{
	cmdline_of(opt)->opts->callgraph = CALLCHAIN_FP;
	return 0;
}

static int opt_call_graph(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_opts *opts = cmdline_of(opt)->opts;

	if (callchain__parse(arg, &opts->callgraph, &opts->stack_size)) {
		pr_err("Invalid --call-graph value '%s': use fp, dwarf[,size] or no.\n", arg);
		return -1;
	}
	return 0;
}

static int opt_switch_output(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_cmdline *cl = cmdline_of(opt);
	struct record_opts *opts = cl->opts;

	if (unset) {
		opts->switch_output = opts->switch_output_signal = false;
		opts->switch_output_size = opts->switch_output_time = 0;
		return 0;
	}
	/* The distro refuses a value it cannot use with EINVAL's status. */
	return record_opts__parse_switch_output(opts, arg) ? cmdline__einval(cl) : 0;
}

static int opt_switch_max_files(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_opts *opts = cmdline_of(opt)->opts;
	char *end;

	opts->switch_max_files = strtol(arg, &end, 10);
	if (*end || opts->switch_max_files <= 0) {
		pr_err("Invalid --switch-max-files value '%s': give a positive number.\n", arg);
		return -1;
	}
	return 0;
}

static int opt_tail_synthesize(const struct perf_option *opt, const char *arg, int unset)
{
	cmdline_of(opt)->tail = !unset;
	return 0;
}

static int opt_sideband_max(const struct perf_option *opt, const char *arg, int unset)
{
	bool unit;
	u64 v;

	/* Below a megabyte it could not hold one busy process's maps. */
	if (units__parse_size(arg, &v, &unit) || v < (1 << 20)) {
		pr_err("Invalid --sideband-max value '%s': give a size of at least 1M, e.g. 64M.\n",
		       arg);
		return -1;
	}
	cmdline_of(opt)->opts->sideband_max = v;
	return 0;
}

/* -T, --sample-cpu: every sample has its time and CPU already (see evsel__config). */
static int opt_always_recorded(const struct perf_option *opt, const char *arg, int unset)
{
	return 0;
}

static int opt_clockid(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_opts *opts = cmdline_of(opt)->opts;

	if (clockid__parse(arg, &opts->clockid)) {
		pr_err("Invalid -k/--clockid value '%s': use monotonic, monotonic_raw, "
		       "realtime, boottime, tai, or a clock's number.\n", arg);
		return -1;
	}
	opts->use_clockid = true;
	return 0;
}

/*
 * zstd's levels; -z alone is the distro's default, 1.  A number past them
 * is taken as the nearest, as the distro takes it.
 */
static int opt_compression_level(const struct perf_option *opt, const char *arg, int unset)
{
	struct record_cmdline *cl = cmdline_of(opt);
	u64 v;

	if (unset) {
		cl->opts->comp_level = 0;
		return 0;
	}
	cl->opts->comp_level = 1;
	if (!arg)
		return 0;
	if (!*arg || strspn(arg, "0123456789") != strlen(arg)) {
		pr_err("Invalid compression level '%s': give 1 to 22.\n", arg);
		return cmdline__einval(cl);
	}
	v = strtoull(arg, NULL, 10);
	cl->opts->comp_level = v < 1 ? 1 : v > 22 ? 22 : (int)v;
	return 0;
}

static int opt_quiet(const struct perf_option *opt, const char *arg, int unset)
{
	cmdline_of(opt)->opts->quiet = !unset;
	quiet = !unset;
	return 0;
}

static const char * const record_usage[] = {
	"perf record [<options>] [<command>]",
	"perf record [<options>] -- <command> [<options>]",
	NULL
};

/* A callback row whose refused value shows the option's usage, as the distro's. */
#define OPT_CB_USAGE(s, l, v, a, h, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (v), \
	  .argh = (a), .help = (h), .flags = PARSE_OPT_NONEG | PARSE_OPT_SHOW_USAGE, \
	  .callback = (cb) }

static int record_opts__parse_table(struct record_cmdline *cl, int argc, const char **argv)
{
	struct record_opts *o = cl->opts;
	const struct perf_option options[] = {
	OPT_CB_USAGE('e', "event", cl, "event",
		     "event selector (see 'perf list'); may be repeated", opt_event),
	OPT_STRING('o', "output", &o->output, "file", "output file name (default perf.data)"),
	OPT_CB_USAGE('m', "mmap-pages", cl, "pages",
		     "ring buffer size per CPU: pages, or a size with B/K/M/G", opt_mmap_pages),
	OPT_CALLBACK('F', "freq", cl, "n", "sample at this frequency (Hz)", opt_freq),
	OPT_CB_USAGE('c', "count", cl, "n", "sample every n events", opt_count),
	OPT_CALLBACK_NOOPT('g', NULL, cl, "record call chains (frame pointers)", opt_g),
	OPT_CB_USAGE(0, "call-graph", cl, "mode", "fp, dwarf[,size] or no", opt_call_graph),
	OPT_BOOLEAN('a', "all-cpus", &o->system_wide, "system-wide collection from all CPUs"),
	OPT_STRING('C', "cpu", &o->cpu_list, "cpus", "only these CPUs, e.g. 0-3,7"),
	OPT_CB_USAGE('G', "cgroup", cl, "name",
		     "with -a: the events before it only in cgroup name (a list: one per event)",
		     opt_cgroup),
	OPT_STRING('p', "pid", &o->target_pid, "pids", "record existing processes"),
	OPT_STRING('t', "tid", &o->target_tid, "tids", "record existing threads"),
	OPT_BOOLEAN(0, "no-inherit", &o->no_inherit, "child tasks do not inherit counters"),
	OPT_BOOLEAN(0, "per-thread", &o->per_thread,
		    "one ring buffer per thread (no inheritance); not with -a/-C"),
	OPT_BOOLEAN(0, "overwrite", &o->overwrite,
		    "keep events in overwritable backward ring buffers (flight recorder)"),
	{ .type = OPTION_CALLBACK, .long_name = "switch-output", .value = cl,
	  .argh = "signal|size|time", .flags = PARSE_OPT_OPTARG | PARSE_OPT_SHOW_USAGE,
	  .help = "a new file on SIGUSR2 (default), after SIZE (B/K/M/G) or every TIME (s/m/h/d)",
	  .callback = opt_switch_output },
	OPT_CB_USAGE(0, "switch-max-files", cl, "n", "keep only the newest n switched files",
		     opt_switch_max_files),
	OPT_CALLBACK_NOOPT(0, "tail-synthesize", cl,
			   "describe processes and maps at the end of each file", opt_tail_synthesize),
	OPT_CB_USAGE(0, "sideband-max", cl, "size",
		     "with --overwrite: memory for the table of tasks (default 32M)",
		     opt_sideband_max),
	OPT_CB_USAGE(0, "switch-output-event", cl, "event", "take a dump each time this event fires",
		     opt_trigger),
	OPT_CB_USAGE(0, "switch-output-delay", cl, "time",
		     "after a dump is asked for, record TIME more (ms, s, m)",
		     opt_switch_output_delay),
	OPT_CB_USAGE(0, "dump-mode", cl, "swap|pause",
		     "with --overwrite: swap buffers at a dump (default) or pause them",
		     opt_dump_mode),
	OPT_CB_USAGE(0, "filter", cl, "filter", "tracepoint filter for the preceding event(s)",
		     opt_filter),
	{ .type = OPTION_CALLBACK, .long_name = "exclude-perf", .value = cl,
	  .help = "leave out this recorder's own tracepoint events",
	  .flags = PARSE_OPT_NOARG | PARSE_OPT_NONEG | PARSE_OPT_SHOW_USAGE,
	  .callback = opt_exclude_perf },
	OPT_BOOLEAN(0, "include-perf", &o->include_perf,
		    "keep perf's own tracepoint events (--overwrite and triggers leave them out)"),
	OPT_CB_USAGE(0, "control", cl, "fifo:ctl-fifo[,ack-fifo] | fd:ctl-fd[,ack-fd]",
		     "take commands: enable, disable, snapshot, ping, stop, evlist", opt_control),
	OPT_CB_USAGE('D', "delay", cl, "msecs",
		     "start the events MSECS after the start (-1: on 'enable')", opt_delay),
	OPT_BOOLEAN('d', "data", &o->sample_address,
		    "record each sample's data address, and the data maps"),
	OPT_BOOLEAN('B', "no-buildid", &o->no_buildid,
		    "do not record build ids (nor fill the build-id cache)"),
	OPT_BOOLEAN('N', "no-buildid-cache", &o->no_buildid_cache,
		    "do not add the DSOs to the build-id cache"),
	OPT_BOOLEAN(0, "buildid-all", &o->buildid_all, "record the build ids of all DSOs, hit or not"),
	OPT_BOOLEAN(0, "switch-events", &o->switch_events, "record context switch events"),
	OPT_BOOLEAN(0, "off-cpu", &o->off_cpu,
		    "record where tasks wait off the CPU, and how long (BPF; the offcpu-time event)"),
	OPT_CALLBACK_NOOPT('T', "timestamp", cl, "record each sample's time (always recorded)",
			   opt_always_recorded),
	OPT_CALLBACK_NOOPT(0, "sample-cpu", cl, "record each sample's CPU (always recorded)",
			   opt_always_recorded),
	OPT_CB_USAGE('k', "clockid", cl, "clock",
		     "sample times in this clock: monotonic, monotonic_raw, realtime, boottime, tai, or a number",
		     opt_clockid),
	OPT_CALLBACK_OPTARG('z', "compression-level", cl, "n",
			    "compress the records with zstd, level n (1-22, default 1)",
			    opt_compression_level),
	OPT_CALLBACK_NOOPT('q', "quiet", cl, "only print errors", opt_quiet),
	OPT_INCR('v', "verbose", &verbose, "be more verbose (show debug messages)"),
	OPT_END()
	};
	int left = parse_options(argc, argv, options, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);

	/* Nothing to record is a command line to fix, as a bad option is. */
	if (left == 0 && !o->system_wide && !o->cpu_list && !o->target_pid && !o->target_tid) {
		pr_err("Nothing to record: give a command to run, or -a, -C, -p or -t.\n");
		parse_options__usage(stderr, record_usage, options);
		return PARSE_OPT_ERROR;
	}
	/* The kernel follows a cgroup per CPU only, and the distro asks for -a. */
	if (left >= 0 && (cl->nr_cgroups || cl->early_cgroups) &&
	    (!o->system_wide || o->target_pid || o->target_tid)) {
		fprintf(stderr, "  Error: cgroup monitoring only available in system-wide mode\n");
		parse_options__usage(stderr, record_usage, options);
		return PARSE_OPT_ERROR;
	}
	if (left >= 0 && cl->early_cgroups && cmdline__add_early_cgroups(cl))
		return PARSE_OPT_ERROR;
	return left;
}

/*
 * A flight recorder's tracepoints, and any recorder's triggers, leave out
 * perf's own tasks unless --include-perf: this process and the perf
 * daemon that runs it (PERF_DAEMON_PID in its environment).  Their
 * syscalls, the writes of each dump among them, would fill the very
 * buffers a dump takes, and fire the triggers.  The kernel's filter does
 * it: nothing of theirs is written.
 */
static int record_opts__exclude_own(struct record_opts *opts, struct evlist *evlist)
{
	const char *env = getenv(PERF_DAEMON_PID_ENV);
	struct evlist *lists[] = { evlist, opts->trigger_evlist };
	int daemon = 0, len;
	char expr[64];

	/* The daemon's word is for the recorder, not for its workload. */
	if (env && *env && strspn(env, "0123456789") == strlen(env) && strlen(env) < 10)
		daemon = atoi(env);
	unsetenv(PERF_DAEMON_PID_ENV);
	if (opts->include_perf)
		return 0;
	len = snprintf(expr, sizeof(expr), "common_pid != %d", (int)getpid());
	if (daemon > 1 && daemon != getpid())
		snprintf(expr + len, sizeof(expr) - len, " && common_pid != %d", daemon);
	/* Without --overwrite the recorded events are as the distro's; the triggers still. */
	for (size_t i = !opts->overwrite; i < ARRAY_SIZE(lists); i++) {
		struct evsel *evsel;

		if (!lists[i])
			continue;
		evlist__for_each_entry(lists[i], evsel)
			if (evsel__is_tracepoint(evsel) && evsel__append_filter(evsel, expr))
				return -ENOMEM;
	}
	return 0;
}

int record_opts__parse(struct record_opts *opts, struct evlist *evlist, int argc,
		       const char **argv, int *status)
{
	struct record_cmdline cl = { .opts = opts, .evlist = evlist, .tail = -1 };
	int left = record_opts__parse_table(&cl, argc, argv);

	if (left < 0) {
		/* An -errno's status as cmd_exit_status() gives it; else the layer's. */
		*status = cl.err ? cl.err & 0xff : parse_options__exit_status(left);
		return -1;
	}
	/* --overwrite wants the system described when each dump is taken. */
	opts->tail_synthesize = cl.tail >= 0 ? cl.tail : opts->overwrite;
	opts->workload = left > 0;
	if (record_opts__exclude_own(opts, evlist)) {
		*status = PERF_EXIT_FAILURE;
		return -1;
	}
	return left;
}

int record_opts__check(struct record_opts *opts)
{
	unsigned int lost;

	lost = target__resolve(opts);
	/* The distro tells only the first override (-C before -a). */
	if (lost)
		ui__warning("%s\n", target__override_str(lost & -lost));
	/* Without -o, a pipe on standard output takes the stream, as the distro's does. */
	if (!opts->output) {
		struct stat st;

		opts->output = !fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode) ? "-" : "perf.data";
	}
	if (!strcmp(opts->output, "-") && opts->switch_output) {
		pr_err("--switch-output makes a file per dump: give a file name with -o, not -.\n");
		return PERF_EXIT_FAILURE;
	}
	/* A device is written in place (perf_data__create): no dump can be renamed from it. */
	if (opts->switch_output && perf_data__is_device(opts->output)) {
		pr_err("--switch-output renames the output to make each dump: give a regular "
		       "file with -o, not the device %s.\n", opts->output);
		return PERF_EXIT_FAILURE;
	}
	if (opts->switch_max_files && !opts->switch_output) {
		pr_err("--switch-max-files needs --switch-output.\n");
		return PERF_EXIT_FAILURE;
	}
	if (opts->switch_output_delay_ms && !opts->switch_output) {
		pr_err("--switch-output-delay needs --switch-output or --switch-output-event.\n");
		return PERF_EXIT_FAILURE;
	}
	if (opts->delay_ms < 0 && !opts->control) {
		pr_err("-D -1 starts with the events disabled until 'enable' arrives on the control "
		       "channel: give --control too.\n");
		return PERF_EXIT_FAILURE;
	}
	if (!opts->mmap_pages)
		opts->mmap_pages = RECORD_MMAP_BYTES / page_size();
	record_opts__check_switch_size(opts);
	return 0;
}
