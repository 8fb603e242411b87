#ifndef PERF_PERF_H
#define PERF_PERF_H
#include "util/types.h"

/*
 * `perf version` and the VERSION feature of every file, in upstream's form
 * (the kernel's VERSION.PATCHLEVEL.SUBLEVEL, then an EXTRAVERSION).  6.1 is
 * the release whose perf.data format, options and output we match (the
 * distro's linux-perf 6.1); the sublevel is 0 because we follow none of its
 * stable updates, and "-flight" says the binary is this flight recorder,
 * not upstream's perf.
 */
#define PERF_VERSION "6.1.0-flight"

enum callchain_mode {
	CALLCHAIN_NONE,
	CALLCHAIN_FP,
	CALLCHAIN_DWARF,
};

struct evlist;

/* Everything `perf record` was asked to do. */
struct record_opts {
	const char *output;		/* -o, default "perf.data" */
	const char *cpu_list;		/* -C */
	const char *target_pid;		/* -p */
	const char *target_tid;		/* -t */
	bool system_wide;		/* -a */
	bool no_inherit;		/* --no-inherit */
	bool per_thread;		/* --per-thread: cpu -1, one buffer per thread, no inherit */
	bool overwrite;			/* --overwrite: every event backward */
	bool tail_synthesize;		/* --tail-synthesize (implied by --overwrite) */
	bool dump_pause;		/* --dump-mode=pause: pause, do not swap, the buffers */
	bool include_perf;		/* --include-perf: a flight recorder's tracepoints see perf too */
	bool quiet;
	u64 freq;			/* -F */
	u64 period;			/* -c */
	bool user_freq, user_period;	/* given on the command line */
	enum callchain_mode callgraph;	/* -g / --call-graph */
	u32 stack_size;			/* dwarf: bytes of user stack, default 8192 */
	u32 max_stack;
	size_t mmap_pages;		/* -m, data pages per buffer (power of two) */
	bool workload;			/* a command was given */
	/* --switch-output */
	bool no_buildid;		/* -B: no BUILD_ID feature, no build-id cache */
	bool sample_address;		/* -d: each sample's data address, and the data maps */
	bool no_buildid_cache;		/* -N: no build-id cache */
	bool buildid_all;		/* --buildid-all: every mapped DSO, hit or not */
	bool switch_events;		/* --switch-events: PERF_RECORD_SWITCH(_CPU_WIDE) records */
	bool off_cpu;			/* --off-cpu: the offcpu-time event, from BPF (util/off-cpu) */
	bool use_clockid;		/* -k: sample times in clockid, not the perf clock */
	int clockid;
	bool switch_output;
	bool switch_output_signal;
	u64 switch_output_size;		/* bytes, 0 if not by size */
	u64 switch_output_time;		/* seconds, 0 if not by time */
	int switch_max_files;		/* 0: unlimited */
	size_t sideband_max;		/* --sideband-max (bytes) */
	const char *control;		/* --control=fifo:CTL[,ACK] or fd:CTL[,ACK] */
	int delay_ms;			/* -D: 0 none, -1 until 'enable' on the control channel */
	u64 switch_output_delay_ms;	/* --switch-output-delay: the post-trigger window */
	struct evlist *trigger_evlist;	/* --switch-output-event: its events, or NULL */
	int comp_level;			/* -z: zstd level of COMPRESSED records; 0: none */
};

#endif
