/*
 * perf record --off-cpu: where tasks waited and for how long, from a BPF
 * program on sched_switch (util/bpf_skel/off_cpu.bpf.c), written at the
 * end of recording as samples of the "offcpu-time" event: one per (task,
 * user stack, state), its period the nanoseconds spent off the CPU.
 */
#ifndef PERF_UTIL_OFF_CPU_H
#define PERF_UTIL_OFF_CPU_H

#include <stddef.h>
#include <sys/types.h>
#include "types.h"

#define OFF_CPU_EVENT		"offcpu-time"

struct cpu_map;
struct evlist;
struct thread_map;
union perf_event;

struct off_cpu;

/*
 * The BPF program opened, loaded and attached, counting nothing yet; NULL
 * with the reason in @why (no BPF, no BTF, no permission).
 */
struct off_cpu *off_cpu__load(char *why, size_t len);
void off_cpu__delete(struct off_cpu *oc);
/* The offcpu-time event, added to @evlist (a software event that never fires itself). */
int off_cpu__add_event(struct evlist *evlist);
/*
 * Counting starts: only the processes of @threads (@by_tid: only those
 * threads), or every task when @threads is NULL; with @cpus (-C), only the
 * waits that begin on those CPUs; with cgroups on @evlist's events (-G),
 * only the waits of their tasks.  0 or -errno.
 */
int off_cpu__start(struct off_cpu *oc, const struct thread_map *threads, bool by_tid,
		   const struct cpu_map *cpus, struct evlist *evlist);

/* Counting stops: the end of recording. */
void off_cpu__stop(struct off_cpu *oc);

typedef int (*off_cpu__write_fn)(void *arg, const union perf_event *event);
/*
 * Each sum counted since the last call is taken out and written through
 * @write as a sample of @evlist's offcpu-time event, so that each file
 * (each dump) holds the waits since the one before.  The sums have no one
 * time of their own: every sample gets @time, a real time of the file's
 * (the distro gives them times near 2^64, which made a file's last sample
 * time one of those).  The number of samples, or -errno.
 */
int off_cpu__write(struct off_cpu *oc, struct evlist *evlist, u64 time, off_cpu__write_fn write,
		   void *arg);

#endif
