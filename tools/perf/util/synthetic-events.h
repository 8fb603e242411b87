#ifndef PERF_UTIL_SYNTHETIC_EVENTS_H
#define PERF_UTIL_SYNTHETIC_EVENTS_H
/*
 * Records describing what already exists (kernel, modules, processes and
 * their executable maps), built from /proc and handed to a callback, so the
 * recorder can write them at the head or at the tail of a file.
 */
#include <sys/types.h>
#include "types.h"
#include "event.h"

struct thread_map;

/* The most a sample-id trailer takes (see perf_event__synthesize_sample_id()). */
#define MAX_SAMPLE_ID_SIZE	(6 * sizeof(u64))

/*
 * Each record is built in a buffer owned by the synthesizer and is valid
 * only during the process() call; its size is 8-aligned, the name padded
 * with NULs.  A non-zero return from process() stops the walk and is returned.
 */
struct synth_ctx {
	perf_event__handler_t process;
	void *arg;			/* passed to process() */
	bool sample_id_all;		/* append a sample-id trailer ... */
	u64 sample_type;		/* ... laid out for this sample_type */
	u64 id;				/* the id to put in the trailer */
	u64 time;			/* the time to put in the trailer (0 is fine) */
	bool data_maps;			/* processes' data maps too, not only code (-d) */
	/* Optional: true for a process (its pid) that is not to be read nor written. */
	bool (*skip)(void *arg, pid_t pid);
};

/*
 * The kernel as one MMAP (pid -1, misc KERNEL, "[kernel.kallsyms]_text",
 * start = pgoff = _text, up to the highest core-kernel symbol).  Without the
 * privilege to see kallsyms addresses start is 0.
 */
int perf_event__synthesize_kernel_mmap(struct synth_ctx *ctx);
/* One MMAP per /proc/modules entry, named "[name]"; none without modules. */
int perf_event__synthesize_modules(struct synth_ctx *ctx);
/*
 * For the process containing thread @pid: FORK + COMM for each thread (the
 * leader first, forked from its parent; other threads from the leader), then
 * MMAP2 (misc USER) for each executable mapping in /proc/PID/maps (each
 * mapping with ctx->data_maps).
 * -ESRCH if the process is gone; a thread that exits meanwhile is skipped.
 */
int perf_event__synthesize_process(struct synth_ctx *ctx, pid_t pid);
/* A COMM of @comm for process @pid (its leader), without looking at /proc. */
int perf_event__synthesize_comm(struct synth_ctx *ctx, pid_t pid, const char *comm);
/* Each process of @threads once; a map of just -1 means every process. */
int perf_event__synthesize_thread_map(struct synth_ctx *ctx, struct thread_map *threads);
/* Every process in /proc; those that vanish during the walk are skipped. */
int perf_event__synthesize_threads(struct synth_ctx *ctx);
/*
 * Finishes a record at @ev whose fixed part and name occupy @len bytes: pads
 * to 8, appends the trailer if asked (@ev needs room for it), sets the size
 * and hands it to ctx->process().
 */
int synth_ctx__emit(struct synth_ctx *ctx, union perf_event *ev, size_t len, pid_t pid,
		    pid_t tid);
/*
 * Writes the sample_id_all trailer for @sample_type at @buf (TID, TIME, ID,
 * STREAM_ID, CPU, IDENTIFIER, those present, in that order; at most 48
 * bytes); returns its size.
 */
size_t perf_event__synthesize_sample_id(void *buf, u64 sample_type, pid_t pid, pid_t tid,
					u64 time, u64 id, u32 cpu);

#endif
