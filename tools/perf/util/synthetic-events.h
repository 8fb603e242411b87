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

struct synth_ctx {
	perf_event__handler_t process;
	void *arg;			/* passed to process() */
	bool sample_id_all;		/* append a sample-id trailer ... */
	u64 sample_type;		/* ... laid out for this sample_type */
	u64 id;				/* the id to put in the trailer */
	u64 time;			/* the time to put in the trailer (0: none) */
};

int perf_event__synthesize_kernel_mmap(struct synth_ctx *ctx);
int perf_event__synthesize_modules(struct synth_ctx *ctx);
/* COMM for each thread of @pid, FORK for threads other than the leader, MMAP2 for exec maps. */
int perf_event__synthesize_process(struct synth_ctx *ctx, pid_t pid);
int perf_event__synthesize_thread_map(struct synth_ctx *ctx, struct thread_map *threads);
/* Every process in /proc. */
int perf_event__synthesize_threads(struct synth_ctx *ctx);
/* Writes the trailer for @sample_type at @buf; returns its size. */
size_t perf_event__synthesize_sample_id(void *buf, u64 sample_type, pid_t pid, pid_t tid,
					u64 time, u64 id, u32 cpu);

#endif
