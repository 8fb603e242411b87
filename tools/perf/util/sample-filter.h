#ifndef PERF_UTIL_SAMPLE_FILTER_H
#define PERF_UTIL_SAMPLE_FILTER_H
/*
 * Which samples perf report and perf script take: --comm, --pid, --tid,
 * --cpu and --time.  An empty filter takes everything, and commands test
 * ->active first so that an unfiltered run pays one branch a sample.
 */
#include "types.h"

struct time_range {
	u64 start, end;		/* inclusive, ns; 0: open at that end */
};

struct sample_filter {
	bool active;		/* any of the below is set */
	char **comms;
	int nr_comms;
	int *pids, *tids;
	int nr_pids, nr_tids;
	unsigned char *cpus;	/* bitmap, nr_cpus bits */
	int nr_cpus;
	struct time_range *times;
	int nr_times;
	char *time_arg;		/* --time as given, resolved once the file's span is known */
};

/* Each 0 or -EINVAL with one line of reason in @err. */
int sample_filter__add_comms(struct sample_filter *f, const char *list, char *err, size_t len);
int sample_filter__add_pids(struct sample_filter *f, const char *list, bool tid, char *err,
			    size_t len);
int sample_filter__add_cpus(struct sample_filter *f, const char *list, char *err, size_t len);
/*
 * --time: "start,stop" in seconds ("123.456,"), or shares of the span
 * [@first, @last]: "10%/2" (the second tenth), "10%/2,10%/3", "0%-10%".
 * With @relative (perf script --reltime), seconds count from @first.
 */
int sample_filter__set_time(struct sample_filter *f, const char *arg, bool relative,
			    u64 first, u64 last,
			    char *err, size_t len);
bool sample_filter__match(const struct sample_filter *f, const char *comm, int pid, int tid,
			  int cpu, u64 time);
static inline bool sample_filter__match_cpu(const struct sample_filter *f, int cpu)
{
	return !f->cpus || (cpu >= 0 && cpu < f->nr_cpus && (f->cpus[cpu / 8] & (1 << (cpu % 8))));
}

/* The time filter alone (the span's samples are read before comms are known). */
bool sample_filter__match_time(const struct sample_filter *f, u64 time);
void sample_filter__exit(struct sample_filter *f);

/*
 * The filters as options of a util/parse-options table: @f is the
 * struct sample_filter, @cmd the command named in a bad value's message
 * ("perf CMD: why"); --pid and --tid share one callback, told apart by
 * their names.  --time is only kept here: sample_filter__set_time() reads
 * it once the file's span is known.
 */
struct perf_option;
int sample_filter__opt_comm(const struct perf_option *opt, const char *arg, int unset);
int sample_filter__opt_pid(const struct perf_option *opt, const char *arg, int unset);
int sample_filter__opt_cpu(const struct perf_option *opt, const char *arg, int unset);
int sample_filter__opt_time(const struct perf_option *opt, const char *arg, int unset);
#define OPT_SAMPLE_FILTER(s, l, f, cmd, a, h, cb) \
	{ .type = OPTION_CALLBACK, .short_name = (s), .long_name = (l), .value = (f), \
	  .argh = (a), .help = (h), .flags = PARSE_OPT_NONEG, .callback = (cb), \
	  .data = (void *)(cmd) }

/*
 * The six rows both commands list: --comm (with @comm_short, report's -c),
 * --comms, --pid, --tid, -C/--cpu and --time (its help @time_help: script
 * says more of the slices).
 */
#define OPT_SAMPLE_FILTERS(f, cmd, comm_short, time_help) \
	OPT_SAMPLE_FILTER(comm_short, "comm", f, cmd, "list", \
			  "only the samples of these comms", sample_filter__opt_comm), \
	OPT_SAMPLE_FILTER(0, "comms", f, cmd, "list", \
			  "the same as --comm (the distro's spelling)", sample_filter__opt_comm), \
	OPT_SAMPLE_FILTER(0, "pid", f, cmd, "list", \
			  "only the samples of these process ids", sample_filter__opt_pid), \
	OPT_SAMPLE_FILTER(0, "tid", f, cmd, "list", \
			  "only the samples of these thread ids", sample_filter__opt_pid), \
	OPT_SAMPLE_FILTER('C', "cpu", f, cmd, "list", \
			  "only the samples on these CPUs (e.g. 0,2-3)", sample_filter__opt_cpu), \
	OPT_SAMPLE_FILTER(0, "time", f, cmd, "range", time_help, sample_filter__opt_time)

#endif
