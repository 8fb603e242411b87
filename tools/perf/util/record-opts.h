#ifndef PERF_UTIL_RECORD_OPTS_H
#define PERF_UTIL_RECORD_OPTS_H
#include "perf.h"

/* The forward ring buffers' size without -m, and the process table's without --sideband-max. */
#define RECORD_MMAP_BYTES	(512 * 1024)
#define RECORD_SIDEBAND_MAX	(32 * 1024 * 1024)
/* The event when none is given (the kernel may have it fall back to cpu-clock). */
#define RECORD_DEFAULT_EVENT	"cycles"

/* Set by perf daemon for its sessions: its pid, whose tracepoint events they leave out. */
#define PERF_DAEMON_PID_ENV	"PERF_DAEMON_PID"

/* What perf record does when not told otherwise. */
#define RECORD_OPTS_INIT { .freq = 4000, .stack_size = 8192, .sideband_max = RECORD_SIDEBAND_MAX }

/* A positive decimal number, nothing after it. */
int record_opts__parse_positive(const char *s, u64 *val);
/* --switch-output[=signal|SIZE|TIME]; prints what was wrong. */
int record_opts__parse_switch_output(struct record_opts *opts, const char *arg);
/* -m: pages (rounded up to a power of two, with a notice) or a size with a unit. */
int record_opts__parse_mmap_pages(struct record_opts *opts, const char *arg);
/* A --switch-output size below one ring buffer is raised to it, with a notice. */
void record_opts__check_switch_size(struct record_opts *opts);
/* Whether @nr_buffers ring buffers of -m fit in memory and the locking limits. */
int record_opts__check_mmap_size(const struct record_opts *opts, int nr_buffers);

struct evlist;
/*
 * perf record's options into @opts, events (-e) onto @evlist, up to the
 * first word that is not an option (the workload's own options are its
 * own).  Returns how many words the workload has, moved to argv[0..], or
 * -1 when the command ends here, with what to say said and its exit
 * status in *status: 0 after --list-opts, 129 for -h and a command line
 * to fix (the distro's), an -errno's status for the values the distro
 * refuses so (--switch-output, -F, -z).
 */
int record_opts__parse(struct record_opts *opts, struct evlist *evlist, int argc,
		       const char **argv, int *status);

/*
 * The options that only make sense together (said, and 255 returned, the
 * distro's -1), the target that wins (-C over -a, ...), and the defaults
 * that depend on others: the output name, -m.  0 when they are good.
 */
int record_opts__check(struct record_opts *opts);

/*
 * The events follow the forked workload (and its children) alone: no
 * -a, -C, -p or -t, which make the workload a timer for what they name.
 */
static inline bool record_opts__follows_workload(const struct record_opts *opts)
{
	return opts->workload && !opts->system_wide && !opts->cpu_list && !opts->target_pid &&
	       !opts->target_tid;
}

#endif
