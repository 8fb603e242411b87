/*
 * The values of perf record's options: sizes, times, -m, --switch-output,
 * and the checks that need the whole set.  Messages are the command's.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include "perf.h"
#include "debug.h"
#include "page-size.h"
#include "evlist.h"
#include "parse-events.h"
#include "record-opts.h"
#include "clockid.h"
#include "control.h"

/* "4096", "16K", "2M", "1G" -> bytes; a bare number is returned as is with *had_unit false. */
int record_opts__parse_size(const char *s, u64 *val, bool *had_unit)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	*had_unit = true;
	switch (*end) {
	case 'b': case 'B': break;
	case 'k': case 'K': v <<= 10; break;
	case 'm': case 'M': v <<= 20; break;
	case 'g': case 'G': v <<= 30; break;
	case '\0': *had_unit = false; break;
	default: return -EINVAL;
	}
	if (*end && end[1] != '\0')
		return -EINVAL;
	*val = v;
	return 0;
}

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
	if (record_opts__parse_size(arg, &v, &unit) == 0 && unit && v) {
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

	if (record_opts__parse_size(arg, &v, &unit) < 0 || v == 0) {
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

enum {
	OPT_CALL_GRAPH = 256,
	OPT_NO_INHERIT,
	OPT_OVERWRITE,
	OPT_NO_OVERWRITE,
	OPT_SWITCH_OUTPUT,
	OPT_SWITCH_MAX_FILES,
	OPT_TAIL_SYNTH,
	OPT_NO_TAIL_SYNTH,
	OPT_SIDEBAND_MAX,
	OPT_PER_THREAD,
	OPT_BUILDID_ALL,
	OPT_CONTROL,
	OPT_SWITCH_OUTPUT_EVENT,
	OPT_SWITCH_OUTPUT_DELAY,
	OPT_FILTER,
	OPT_EXCLUDE_PERF,
	OPT_SWITCH_EVENTS,
	OPT_SAMPLE_CPU,
};

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
 * The events the last -e or --switch-output-event added, which --filter
 * and --exclude-perf apply to.
 */
struct last_events {
	struct evlist *list;
	int from;		/* idx of the first of them */
};

static int add_filter(struct last_events *last, const char *opt, const char *expr)
{
	struct evsel *evsel;
	bool any = false;

	if (last->list) {
		evlist__for_each_entry(last->list, evsel) {
			if (evsel->idx < last->from)
				continue;
			if (!evsel__is_tracepoint(evsel)) {
				pr_err("%s applies to tracepoints only, and %s is not one: put it "
				       "right after the -e that selects the tracepoint.\n", opt,
				       evsel__name(evsel));
				return -129;
			}
			any = true;
		}
	}
	if (!any) {
		pr_err("%s must follow a -e (or --switch-output-event) that selects tracepoints.\n",
		       opt);
		return -129;
	}
	evlist__for_each_entry(last->list, evsel)
		if (evsel->idx >= last->from && evsel__append_filter(evsel, expr))
			return -ENOMEM;
	return 0;
}

/* -e and --switch-output-event: the events onto @evlist, or what was wrong. */
static int parse_event_option(struct evlist *evlist, const char *arg)
{
	struct parse_events_error perr;
	int err;

	memset(&perr, 0, sizeof(perr));
	err = parse_events(evlist, arg, &perr);
	if (err) {
		parse_events_error__print(&perr, arg);
		fprintf(stderr, "Run 'perf list' for a list of valid events\n");
	}
	parse_events_error__exit(&perr);
	return err;
}

/*
 * An option value refused (message printed): the caller shows that
 * option's usage, the line of record_usage beginning with @usage.  The
 * distro exits 129 for most; @err says which status.
 */
static int bad_value(struct record_opts *opts, const char *usage, int err)
{
	opts->bad_option = usage;
	return err;
}

int record_opts__parse(struct record_opts *opts, struct evlist *evlist, int argc,
		       const char **argv)
{
	static const struct option longopts[] = {
		{ "event",		required_argument, NULL, 'e' },
		{ "output",		required_argument, NULL, 'o' },
		{ "mmap-pages",		required_argument, NULL, 'm' },
		{ "freq",		required_argument, NULL, 'F' },
		{ "count",		required_argument, NULL, 'c' },
		{ "call-graph",		required_argument, NULL, OPT_CALL_GRAPH },
		{ "all-cpus",		no_argument,	   NULL, 'a' },
		{ "cpu",		required_argument, NULL, 'C' },
		{ "pid",		required_argument, NULL, 'p' },
		{ "tid",		required_argument, NULL, 't' },
		{ "no-inherit",		no_argument,	   NULL, OPT_NO_INHERIT },
		{ "per-thread",		no_argument,	   NULL, OPT_PER_THREAD },
		{ "overwrite",		no_argument,	   NULL, OPT_OVERWRITE },
		{ "no-overwrite",	no_argument,	   NULL, OPT_NO_OVERWRITE },
		{ "switch-output",	optional_argument, NULL, OPT_SWITCH_OUTPUT },
		{ "switch-max-files",	required_argument, NULL, OPT_SWITCH_MAX_FILES },
		{ "tail-synthesize",	no_argument,	   NULL, OPT_TAIL_SYNTH },
		{ "no-tail-synthesize",	no_argument,	   NULL, OPT_NO_TAIL_SYNTH },
		{ "sideband-max",	required_argument, NULL, OPT_SIDEBAND_MAX },
		{ "no-buildid",		no_argument,	   NULL, 'B' },
		{ "data",		no_argument,	   NULL, 'd' },
		{ "timestamp",		no_argument,	   NULL, 'T' },
		{ "sample-cpu",		no_argument,	   NULL, OPT_SAMPLE_CPU },
		{ "no-buildid-cache",	no_argument,	   NULL, 'N' },
		{ "buildid-all",	no_argument,	   NULL, OPT_BUILDID_ALL },
		{ "clockid",		required_argument, NULL, 'k' },
		{ "control",		required_argument, NULL, OPT_CONTROL },
		{ "switch-output-event", required_argument, NULL, OPT_SWITCH_OUTPUT_EVENT },
		{ "switch-output-delay", required_argument, NULL, OPT_SWITCH_OUTPUT_DELAY },
		{ "filter",		required_argument, NULL, OPT_FILTER },
		{ "exclude-perf",	no_argument,	   NULL, OPT_EXCLUDE_PERF },
		{ "switch-events",	no_argument,	   NULL, OPT_SWITCH_EVENTS },
		{ "delay",		required_argument, NULL, 'D' },
		{ "compression-level",	optional_argument, NULL, 'z' },
		{ "quiet",		no_argument,	   NULL, 'q' },
		{ "verbose",		no_argument,	   NULL, 'v' },
		{ "help",		no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct last_events last = { NULL, 0 };
	int tail = -1, c, err;
	char *end;
	u64 v64;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, (char **)argv, "+:e:o:m:F:c:gaC:p:t:BNdTk:qvhD:z::", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'e':
			last.list = evlist;
			last.from = evlist->nr_entries;
			if (parse_event_option(evlist, optarg))
				return RECORD_OPTS__BAD_EVENT;
			break;
		case OPT_SWITCH_OUTPUT_EVENT: {
			struct evsel *evsel;

			if (!opts->trigger_evlist) {
				opts->trigger_evlist = perf_evlist__new_sideband(evlist);
				if (!opts->trigger_evlist)
					return -ENOMEM;
			}
			last.list = opts->trigger_evlist;
			last.from = last.list->nr_entries;
			if (parse_event_option(last.list, optarg))
				return RECORD_OPTS__BAD_TRIGGER;
			evlist__for_each_entry(last.list, evsel)
				evsel->trigger = true;
			/* Each occurrence asks for a dump, as SIGUSR2 does. */
			opts->switch_output = true;
			opts->switch_output_signal = true;
			break;
		}
		case OPT_SWITCH_OUTPUT_DELAY:
			if (parse_msecs(optarg, &opts->switch_output_delay_ms)) {
				pr_err("Invalid --switch-output-delay value '%s': give a time such as "
				       "200ms, 2s or 1m (at most a day).\n", optarg);
				return bad_value(opts, "    --switch-output-delay", -129);
			}
			break;
		case OPT_FILTER:
			err = add_filter(&last, "--filter", optarg);
			if (err)
				return err;
			break;
		case OPT_EXCLUDE_PERF: {
			char expr[48];

			snprintf(expr, sizeof(expr), "common_pid != %d", (int)getpid());
			err = add_filter(&last, "--exclude-perf", expr);
			if (err)
				return err;
			break;
		}
		case OPT_CONTROL:
			if (control__check_spec(optarg))
				return bad_value(opts, "    --control", -129);
			opts->control = optarg;
			break;
		case 'D':
			errno = 0;
			opts->delay_ms = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || opts->delay_ms < -1) {
				pr_err("Invalid -D/--delay value '%s': give milliseconds, or -1 to start "
				       "disabled until 'enable' arrives on the control channel.\n",
				       optarg);
				return bad_value(opts, "-D,", -129);
			}
			break;
		case 'o':
			opts->output = optarg;
			break;
		case 'm':
			if (record_opts__parse_mmap_pages(opts, optarg))
				return bad_value(opts, "-m,", -129);
			break;
		case 'F':
			if (record_opts__parse_positive(optarg, &opts->freq)) {
				pr_err("Invalid -F/--freq value '%s': give a frequency in Hz, e.g. 999.\n",
				       optarg);
				return -EINVAL;
			}
			opts->user_freq = true;
			break;
		case 'c':
			if (record_opts__parse_positive(optarg, &opts->period)) {
				pr_err("Invalid -c/--count value '%s': give a positive event count.\n",
				       optarg);
				return bad_value(opts, "-c,", -129);
			}
			opts->user_period = true;
			break;
		case 'g':
			opts->callgraph = CALLCHAIN_FP;
			break;
		case OPT_CALL_GRAPH:
			if (callchain__parse(optarg, &opts->callgraph, &opts->stack_size)) {
				pr_err("Invalid --call-graph value '%s': use fp, dwarf[,size] or no.\n",
				       optarg);
				return bad_value(opts, "    --call-graph", -129);
			}
			break;
		case 'a':
			opts->system_wide = true;
			break;
		case 'C':
			opts->cpu_list = optarg;
			break;
		case 'p':
			opts->target_pid = optarg;
			break;
		case 't':
			opts->target_tid = optarg;
			break;
		case OPT_NO_INHERIT:
			opts->no_inherit = true;
			break;
		case OPT_PER_THREAD:
			opts->per_thread = true;
			break;
		case OPT_OVERWRITE:
			opts->overwrite = true;
			break;
		case OPT_NO_OVERWRITE:
			opts->overwrite = false;
			break;
		case OPT_SWITCH_OUTPUT:
			if (record_opts__parse_switch_output(opts, optarg))
				return bad_value(opts, "    --switch-output", -EINVAL);
			break;
		case OPT_SWITCH_MAX_FILES:
			opts->switch_max_files = strtol(optarg, &end, 10);
			if (*end || opts->switch_max_files <= 0) {
				pr_err("Invalid --switch-max-files value '%s': give a positive number.\n",
				       optarg);
				return bad_value(opts, "    --switch-max-files", -129);
			}
			break;
		case OPT_TAIL_SYNTH:
			tail = 1;
			break;
		case OPT_NO_TAIL_SYNTH:
			tail = 0;
			break;
		case OPT_SIDEBAND_MAX: {
			bool unit;
			u64 v;

			/* Below a megabyte it could not hold one busy process's maps. */
			if (record_opts__parse_size(optarg, &v, &unit) || v < (1 << 20)) {
				pr_err("Invalid --sideband-max value '%s': give a size of at least 1M, "
				       "e.g. 64M.\n", optarg);
				return bad_value(opts, "    --sideband-max", -129);
			}
			opts->sideband_max = v;
			break;
		}
		case 'B':
			opts->no_buildid = true;
			break;
		case 'd':
			opts->sample_address = true;
			break;
		case 'T':
		case OPT_SAMPLE_CPU:
			/* Every sample has its time and CPU already (see evsel__config). */
			break;
		case 'N':
			opts->no_buildid_cache = true;
			break;
		case OPT_BUILDID_ALL:
			opts->buildid_all = true;
			break;
		case OPT_SWITCH_EVENTS:
			opts->switch_events = true;
			break;
		case 'k':
			if (clockid__parse(optarg, &opts->clockid)) {
				pr_err("Invalid -k/--clockid value '%s': use monotonic, monotonic_raw, "
				       "realtime, boottime, tai, or a clock's number.\n", optarg);
				return bad_value(opts, "-k,", -129);
			}
			opts->use_clockid = true;
			break;
		case 'z':
			/*
			 * zstd's levels; -z alone is the distro's default, 1.  A number
			 * past them is taken as the nearest, as the distro takes it.
			 */
			opts->comp_level = 1;
			if (optarg && (strspn(optarg, "0123456789") != strlen(optarg) || !*optarg)) {
				pr_err("Invalid compression level '%s': give 1 to 22.\n", optarg);
				return -EINVAL;
			}
			if (optarg) {
				v64 = strtoull(optarg, NULL, 10);
				opts->comp_level = v64 < 1 ? 1 : v64 > 22 ? 22 : (int)v64;
			}
			break;
		case 'q':
			opts->quiet = true;
			quiet = 1;
			break;
		case 'v':
			verbose++;
			break;
		case 'h':
			return 0;
		case ':':
			pr_err("Option '%s' requires a value.\n", argv[optind - 1]);
			return -129;
		default:
			if (optopt)
				pr_err("Unknown option: -%c\n", optopt);
			else
				pr_err("Unknown option: %s\n", argv[optind - 1]);
			return -129;
		}
	}
	/* --overwrite wants the system described when each dump is taken. */
	opts->tail_synthesize = tail >= 0 ? tail : opts->overwrite;
	opts->workload = optind < argc;
	return optind;
}
