#ifndef PERF_UTIL_TARGET_H
#define PERF_UTIL_TARGET_H
/*
 * What perf record monitors: -p/-t tasks, -a, -C CPUs, a workload, and
 * whether buffers are per thread.  Some of these exclude others; the
 * distro resolves that by letting one win and warning, and so do we.
 */
struct record_opts;

/* An option that lost to another one. */
enum target_override {
	TARGET_OVERRIDE_CPU		= 1 << 0,	/* -p/-t beat -C */
	TARGET_OVERRIDE_SYSTEM		= 1 << 1,	/* -p/-t beat -a */
	TARGET_OVERRIDE_PER_THREAD	= 1 << 2,	/* -a/-C beat --per-thread */
};

/*
 * Clears the options that lose (-C and -a when tasks are given, then
 * --per-thread when -a or -C is left) and returns which lost, a mask of
 * enum target_override, in the order the distro checks them (it warns about
 * the first only).
 */
unsigned int target__resolve(struct record_opts *opts);
/* The distro's one-line warning for one override. */
const char *target__override_str(enum target_override override);

#endif
