/*
 * The flight recorder's dump engine: see flight-recorder.h for the story.
 */
#include <errno.h>
#include <stdio.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include "flight-recorder.h"
#include "clockid.h"
#include "cpumap.h"
#include "debug.h"
#include "evlist.h"
#include "mmap.h"
#include "overwrite-state.h"
#include "sideband.h"

/*
 * How far back a backward buffer still reaches, learnt without pausing it:
 * pairs (t, w) of "by record time t, w bytes had been written".  Once the
 * kernel has written a buffer length past w, whatever was written before
 * t is gone, so t bounds the oldest record a dump of it can hold.
 */
#define FR_WRAP_SLOTS 64
/* One pair per millisecond of record time at most. */
#define FR_WRAP_STEP	1000000ULL
/* Per-CPU clocks may disagree a little: keep this much more than needed. */
#define FR_CLOCK_SKEW	100000000ULL
/* The niceness a dump is written at, where allowed. */
#define FR_DUMP_NICE	-10

struct fr_wrap {
	u64 t[FR_WRAP_SLOTS];
	u64 w[FR_WRAP_SLOTS];
	int n;
	u64 bound;		/* nothing older than this is left in the buffer */
};

/* One backward buffer's own state. */
struct fr_buffer {
	enum overwrite_evt_state state;
	u64 dumped;		/* its read position after the last dump that completed */
	struct fr_wrap wrap;
};

struct flight_recorder {
	struct evlist *parent;
	struct evlist *evlist;		/* aux: the backward buffers */
	struct fr_buffer *bufs;		/* one per buffer of evlist */
	void *staging;			/* one buffer's copy, reused for each */
	size_t staging_size;
	struct sideband *table;		/* the process table, or NULL */
	bool described;			/* the last dump's table wrote something */
	/* Record times. */
	u64 t_seen;			/* the newest seen */
	u64 dump_bound;			/* no later dump holds anything older */
	u64 need_from;			/* the table was pruned up to here */
	u64 fwd_first;			/* the oldest forward sample in the file */
	u64 file_first, file_last;	/* the file's samples */
	/* Where this thread may run; a dump moves it to buffers' CPUs and back. */
	cpu_set_t *home;
	size_t set_size;
	int nr_cpus;
	struct cpu_map *online;		/* where a per-thread buffer's writer may run */
	bool away;
	bool warned;
	bool no_boost;			/* SCHED_FIFO refused, or we were real-time already */
	int policy;			/* ours when not boosted */
	struct flight_recorder_stats stats;
};

struct flight_recorder *flight_recorder__new(struct evlist *parent, u64 table_max)
{
	struct flight_recorder *fr = calloc(1, sizeof(*fr));

	if (!fr)
		return NULL;
	fr->parent = parent;
	/* The kernel's affinity masks are as wide as the possible CPUs. */
	fr->nr_cpus = cpu__max_cpu();
	fr->set_size = CPU_ALLOC_SIZE(fr->nr_cpus);
	fr->home = CPU_ALLOC(fr->nr_cpus);
	fr->evlist = perf_evlist__new_aux(parent);
	fr->online = cpu_map__new(NULL);
	if (table_max)
		fr->table = sideband__new(table_max);
	if (!fr->home || !fr->evlist || !fr->online || (table_max && !fr->table)) {
		flight_recorder__delete(fr);
		return NULL;
	}
	if (sched_getaffinity(0, fr->set_size, fr->home) < 0) {
		/* Then we never move: every quiesce takes a grace period. */
		CPU_FREE(fr->home);
		fr->home = NULL;
	}
	fr->fwd_first = fr->file_first = ~0ULL;
	fr->policy = sched_getscheduler(0);
	/* Only a normal thread is boosted and put back: anything else stays as it is. */
	fr->no_boost = fr->policy != SCHED_OTHER;
	return fr;
}

void flight_recorder__delete(struct flight_recorder *fr)
{
	if (!fr)
		return;
	evlist__delete(fr->evlist);
	sideband__delete(fr->table);
	cpu_map__put(fr->online);
	free(fr->bufs);
	free(fr->staging);
	if (fr->home)
		CPU_FREE(fr->home);
	free(fr);
}

static int fr__setup_buffers(struct flight_recorder *fr);

int flight_recorder__mmap(struct flight_recorder *fr, size_t pages)
{
	int err = perf_evlist__mmap(fr->evlist, pages);

	return err ? err : fr__setup_buffers(fr);
}

int flight_recorder__mmap_fake(struct flight_recorder *fr, void **bases, const size_t *sizes,
			       int nr)
{
	fr->evlist->mmap = calloc(nr, sizeof(*fr->evlist->mmap));
	if (!fr->evlist->mmap)
		return -ENOMEM;
	fr->evlist->nr_mmaps = nr;
	for (int i = 0; i < nr; i++) {
		int err = perf_mmap__init_fake(&fr->evlist->mmap[i], bases[i], sizes[i], true);

		if (err)
			return err;
	}
	return fr__setup_buffers(fr);
}

/* Per-buffer state, the staging area, and the ring pages faulted in. */
static int fr__setup_buffers(struct flight_recorder *fr)
{
	fr->bufs = calloc(fr->evlist->nr_mmaps, sizeof(*fr->bufs));
	if (!fr->bufs)
		return -ENOMEM;
	for (int i = 0; i < fr->evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &fr->evlist->mmap[i];

		fr->bufs[i].state = OVERWRITE_RUNNING;
		if (!map->base)
			continue;
		fr->bufs[i].dumped = map->prev;
		fr->staging_size = max_t(size_t, fr->staging_size, map->mask + 1);
	}
	if (!fr->staging_size)
		return 0;
	/* Touched now, so a copy made while a buffer is paused takes no page faults. */
	fr->staging = malloc(fr->staging_size);
	if (!fr->staging)
		return -ENOMEM;
	memset(fr->staging, 0, fr->staging_size);
	/*
	 * And one copy of each ring now: the first copy of an 8 MiB ring took
	 * 7.8 ms here, later ones 1.1-1.6 ms, with the ring's pages already
	 * touched once each.  That first one must not be a dump's.
	 */
	for (int i = 0; i < fr->evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &fr->evlist->mmap[i];

		if (map->base)
			memcpy(fr->staging, perf_mmap__data(map), map->mask + 1);
	}
	return 0;
}

int flight_recorder__nr_buffers(const struct flight_recorder *fr)
{
	return fr->evlist->nr_mmaps;
}

/* ---- the forward stream and the process table ----------------------- */

static void fr__note_sample(struct flight_recorder *fr, u64 t, bool forward)
{
	if (!t)
		return;
	if (t < fr->file_first)
		fr->file_first = t;
	if (t > fr->file_last)
		fr->file_last = t;
	if (forward && t < fr->fwd_first)
		fr->fwd_first = t;
	if (t > fr->t_seen)
		fr->t_seen = t;
}

void flight_recorder__seed(struct flight_recorder *fr, const union perf_event *event)
{
	if (fr->table && sideband__wants(event->header.type) &&
	    sideband__add(fr->table, event, 0) < 0)
		fr->stats.table_errors++;
}

bool flight_recorder__track(struct flight_recorder *fr, const union perf_event *event)
{
	u64 t = evlist__event_time(fr->parent, event);

	if (fr->table && sideband__wants(event->header.type)) {
		if (t > fr->t_seen)
			fr->t_seen = t;
		if (sideband__add(fr->table, event, t) < 0)
			fr->stats.table_errors++;
		return false;
	}
	if (event->header.type == PERF_RECORD_SAMPLE)
		fr__note_sample(fr, t, true);
	return true;
}

bool flight_recorder__described(const struct flight_recorder *fr, u32 pid)
{
	return fr->table && fr->described && sideband__emitted(fr->table, pid);
}

bool flight_recorder__comm(const struct flight_recorder *fr, u32 tid, u64 time, char *buf,
			   size_t size)
{
	return fr->table && sideband__comm(fr->table, tid, time, buf, size);
}

/* Notes (t_seen, bytes written so far) and returns how far back the buffer reaches. */
static u64 fr_wrap__update(struct fr_wrap *wr, u64 t_seen, u64 written, u64 size)
{
	int drop = 0;

	while (drop < wr->n && wr->w[drop] + size <= written)
		wr->bound = wr->t[drop++];
	if (drop) {
		wr->n -= drop;
		memmove(wr->t, wr->t + drop, wr->n * sizeof(u64));
		memmove(wr->w, wr->w + drop, wr->n * sizeof(u64));
	}
	if (wr->n && t_seen < wr->t[wr->n - 1] + FR_WRAP_STEP)
		return wr->bound;
	if (wr->n == FR_WRAP_SLOTS) {
		/* Coarser steps: any subset of the pairs is just as true. */
		for (int j = 0; j < wr->n / 2; j++) {
			wr->t[j] = wr->t[2 * j + 1];
			wr->w[j] = wr->w[2 * j + 1];
		}
		wr->n /= 2;
	}
	wr->t[wr->n] = t_seen;
	wr->w[wr->n] = written;
	wr->n++;
	return wr->bound;
}

/*
 * Drops from the process table what no dump can need any more.  A later
 * dump holds backward records no older than what each buffer still
 * reaches, and none from before the last dump; the file may also hold
 * forward samples from its start.
 */
void flight_recorder__tick(struct flight_recorder *fr)
{
	u64 reach = ~0ULL, need;

	if (!fr->table || !fr->t_seen)
		return;
	for (int i = 0; i < fr->evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &fr->evlist->mmap[i];
		u64 bound;

		if (!map->base)
			continue;
		/* A backward head counts down from 0: minus it is what was written. */
		bound = fr_wrap__update(&fr->bufs[i].wrap, fr->t_seen,
					0 - perf_mmap__read_head(map), map->mask + 1);
		reach = min_t(u64, reach, bound);
	}
	need = reach == ~0ULL ? fr->dump_bound : max_t(u64, fr->dump_bound, reach);
	need = min_t(u64, need, fr->fwd_first);
	need = need > FR_CLOCK_SKEW ? need - FR_CLOCK_SKEW : 0;
	if (need >= fr->need_from + FR_WRAP_STEP) {
		fr->need_from = need;
		sideband__prune(fr->table, need);
	}
}

u64 flight_recorder__pending_bytes(const struct flight_recorder *fr)
{
	u64 sum = 0;

	for (int i = 0; i < fr->evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &fr->evlist->mmap[i];

		if (map->base)
			sum += map->prev - perf_mmap__read_head(map);
	}
	return sum;
}

/* ---- a dump ---------------------------------------------------------- */

/* Moves buffer @i's state machine towards @want, with the ioctl the move needs. */
static int fr__move(struct flight_recorder *fr, int i, enum overwrite_evt_state want)
{
	struct fr_buffer *b = &fr->bufs[i];
	enum overwrite_evt_state next;
	enum overwrite_action action;
	int err = 0;

	next = overwrite_state__next(b->state, want, &action);
	if (action != OVERWRITE_ACTION_NONE)
		err = perf_mmap__pause(&fr->evlist->mmap[i], action == OVERWRITE_ACTION_PAUSE);
	/* The buffer is as it was when the ioctl fails: so is its state. */
	if (!err)
		b->state = next;
	else
		pr_err("Cannot %s overwrite ring buffer %d: %s\n",
		       action == OVERWRITE_ACTION_PAUSE ? "pause" : "resume", i, strerror(-err));
	return err;
}

/* Runs this thread on @cpu; 0 once it does. */
static int fr__run_on(struct flight_recorder *fr, int cpu)
{
	cpu_set_t *set;
	int err = 0;

	if (sched_getcpu() == cpu)
		return 0;
	if (!fr->home || cpu >= fr->nr_cpus)
		return -EINVAL;
	set = CPU_ALLOC(fr->nr_cpus);
	if (!set)
		return -ENOMEM;
	CPU_ZERO_S(fr->set_size, set);
	CPU_SET_S(cpu, fr->set_size, set);
	if (sched_setaffinity(0, fr->set_size, set) < 0)
		err = -errno;
	else
		fr->away = true;
	CPU_FREE(set);
	/* sched_setaffinity() returns on a CPU of the new set: this one. */
	if (!err && sched_getcpu() != cpu)
		err = -EAGAIN;
	return err;
}

static void fr__go_home(struct flight_recorder *fr)
{
	if (fr->away && sched_setaffinity(0, fr->set_size, fr->home) == 0)
		fr->away = false;
}

/*
 * Makes sure that no writer is still inside a record in a buffer that was
 * just paused.  PAUSE_OUTPUT only turns away the writers that start after
 * it; one already between perf_output_begin() and perf_output_end() goes on
 * writing below data_head and publishes a lower head when it is done.
 * Every such writer runs with preemption disabled (perf_output_get_handle()
 * to perf_output_put_handle(), and its callers: tracepoint probes, software
 * events, side-band iteration, interrupts) on the CPU where its event fired.
 * So once this thread has run on a CPU after the pause, every writer that
 * was inside a record there has left it, and later ones see the pause.
 *
 * A per-CPU buffer is written only by events bound to its CPU: running on
 * that CPU once is enough (a migration: 13 us measured here).  A per-thread
 * buffer (cpu -1) may be written on any CPU: we run on each in turn.  Where
 * the scheduler will not let us, membarrier(MEMBARRIER_CMD_GLOBAL) waits
 * for an RCU grace period, which every preemption-disabled section that
 * started before it has ended by (9 ms measured here, so not the default).
 */
static int fr__quiesce(struct flight_recorder *fr, int cpu)
{
	int err = 0;

	if (cpu >= 0) {
		err = fr__run_on(fr, cpu);
	} else {
		/* Starting where we are: that CPU is visited already. */
		int here = cpu_map__idx(fr->online, sched_getcpu()), n = fr->online->nr;

		if (here < 0)
			here = 0;
		for (int k = 0; k < n && !err; k++)
			err = fr__run_on(fr, fr->online->map[(here + k) % n]);
	}
	if (!err)
		return 0;
	fr->stats.quiesce_global++;
	if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) == 0)
		return 0;
	if (!fr->warned) {
		pr_warning("Warning: cannot make sure no event is half written in a paused buffer "
			   "(membarrier: %s); a dump may end in a torn record.\n", strerror(errno));
		fr->warned = true;
	}
	return 0;
}

/*
 * For the blind window only, this thread runs SCHED_FIFO where it may (root):
 * a busy machine would otherwise keep it waiting for the buffer's CPU, or
 * preempt it in the middle of the copy, while the buffer misses events (a
 * window of one 8 MiB buffer grew from 2 ms to 39 ms with 16 threads
 * spinning on 2 CPUs).  The writes that follow run at the usual priority.
 */
static void fr__boost(struct flight_recorder *fr, bool on)
{
	struct sched_param rt = { .sched_priority = 1 }, normal = { .sched_priority = 0 };

	if (fr->no_boost)
		return;
	if (on && sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &rt) < 0) {
		pr_debug("flight recorder: copies at normal priority (SCHED_FIFO: %s)\n",
			 strerror(errno));
		fr->no_boost = true;
	} else if (!on) {
		sched_setscheduler(0, fr->policy, &normal);
	}
}

/* Pauses buffer @i, copies what is new in it, resumes it: its blind window. */
static int fr__copy(struct flight_recorder *fr, int i, u64 *len)
{
	struct perf_mmap *map = &fr->evlist->mmap[i];
	u64 t0 = now_ns(), t1, t2, t3, d;
	int err, err2;

	*len = 0;
	fr__boost(fr, true);
	err = fr__move(fr, i, OVERWRITE_DATA_PENDING);
	if (err) {
		fr__boost(fr, false);
		return err;
	}
	t1 = now_ns();
	fr__quiesce(fr, map->cpu);
	t2 = now_ns();
	*len = perf_mmap__backward_copy(map, fr->staging);
	t3 = now_ns();
	fr__move(fr, i, OVERWRITE_EMPTY);
	err2 = fr__move(fr, i, OVERWRITE_RUNNING);
	d = now_ns() - t0;
	fr__boost(fr, false);
	pr_debug2("buffer %d: paused in %.3f ms, quiet in %.3f ms, %llu bytes copied in %.3f ms, "
		  "resumed in %.3f ms\n", i, (t1 - t0) / 1e6, (t2 - t1) / 1e6,
		  (unsigned long long)*len, (t3 - t2) / 1e6, (t0 + d - t3) / 1e6);
	fr->stats.pauses++;
	fr->stats.pause_ns_total += d;
	fr->stats.pause_ns_max = max_t(u64, fr->stats.pause_ns_max, d);
	return err2;
}

struct fr_note {
	const struct flight_recorder_writer *w;
	const char *copy;
};

static void fr__note(void *arg, const struct perf_event_header *hdr, u64 off)
{
	struct fr_note *nt = arg;

	nt->w->note(nt->w->arg, (const union perf_event *)(nt->copy + off));
}

/* One buffer of a dump: its blind window, then its whole records written. */
static int fr__take(struct flight_recorder *fr, int i, const struct flight_recorder_writer *w,
		    struct flight_recorder_dump *d, u64 *held_from, u64 *held_to)
{
	struct perf_mmap *map = &fr->evlist->mmap[i];
	struct fr_note nt = { .w = w, .copy = fr->staging };
	struct perf_mmap_records r;
	u64 len;
	int err;

	if (!map->base)
		return 0;
	err = fr__copy(fr, i, &len);
	if (err || !len)
		return err;
	err = perf_mmap__backward_records(fr->staging, map->mask + 1, len, &r,
					  w->note ? fr__note : NULL, &nt);
	if (err)
		return err;
	d->lost += r.lost;
	if (!r.len)
		return 0;
	if (r.nr_samples) {
		/* A buffer is written newest record first: its first and last samples. */
		u64 newest = evlist__event_time(fr->parent, (union perf_event *)
						((char *)fr->staging + r.newest));
		u64 oldest = evlist__event_time(fr->parent, (union perf_event *)
						((char *)fr->staging + r.oldest));

		fr__note_sample(fr, newest, false);
		fr__note_sample(fr, oldest, false);
		*held_to = max_t(u64, *held_to, newest);
		/* A full copy: the buffer turned over, what came before its oldest sample is gone. */
		if (len == map->mask + 1)
			*held_from = max_t(u64, *held_from, oldest);
	}
	d->samples += r.nr_samples;
	d->bytes += r.len;
	return w->write(w->arg, fr->staging, r.len);
}

static void fr__end_file(struct flight_recorder *fr)
{
	fr->fwd_first = fr->file_first = ~0ULL;
	fr->file_last = 0;
}

int flight_recorder__dump(struct flight_recorder *fr, const struct flight_recorder_writer *w)
{
	struct flight_recorder_dump d = { .samples = 0 };
	struct perf_event_header round = {
		.type = PERF_RECORD_FINISHED_ROUND,
		.size = sizeof(round),
	};
	/* Whatever the buffers take from the first pause on is newer than this. */
	u64 bound = fr->t_seen, t0 = now_ns(), held_from = 0, held_to = 0;
	int nr = fr->evlist->nr_mmaps, err = 0;
	int nice0 = getpriority(PRIO_PROCESS, 0);

	/*
	 * The dump's writes get a larger share of a busy machine, where that is
	 * allowed (root): 64 threads spinning on 2 CPUs left a recorder at nice
	 * 0 about 3% of a CPU, and its dump 25 s.  Undone when it is written.
	 */
	if (nice0 > FR_DUMP_NICE)
		setpriority(PRIO_PROCESS, 0, FR_DUMP_NICE);

	for (int i = 0; i < nr && !err; i++)
		err = fr__take(fr, i, w, &d, &held_from, &held_to);
	fr__go_home(fr);
	d.span_ns = now_ns() - t0;
	if (held_from)
		d.held_ns = max_t(u64, held_to - held_from, 1);
	d.first = fr->file_first;
	d.last = fr->file_last;
	if (!err && fr->table && d.first <= d.last) {
		err = sideband__emit(fr->table, d.first, d.last, w->event, w->arg, &d.tasks);
		fr->described = true;
	}
	if (!err && d.bytes)
		err = w->write(w->arg, &round, sizeof(round));
	if (!err)
		err = w->finish(w->arg, &d);
	/* What the table described is the finished file's business only. */
	fr->described = false;
	for (int i = 0; i < nr; i++) {
		struct perf_mmap *map = &fr->evlist->mmap[i];

		/* A failed dump's records stay in the buffers for the next one. */
		if (err)
			map->prev = fr->bufs[i].dumped;
		else
			fr->bufs[i].dumped = map->prev;
	}
	fr__end_file(fr);
	if (nice0 > FR_DUMP_NICE)
		setpriority(PRIO_PROCESS, 0, nice0);
	if (err) {
		fr->stats.failed++;
		return err;
	}
	fr->stats.dumps++;
	fr->stats.lost_paused += d.lost;
	fr->stats.span_ns_max = max_t(u64, fr->stats.span_ns_max, d.span_ns);
	fr->dump_bound = max_t(u64, fr->dump_bound, bound);
	flight_recorder__tick(fr);
	return 0;
}

const struct flight_recorder_stats *flight_recorder__stats(const struct flight_recorder *fr)
{
	return &fr->stats;
}

const struct sideband_stats *flight_recorder__table_stats(const struct flight_recorder *fr)
{
	return fr->table ? sideband__stats(fr->table) : NULL;
}

void flight_recorder__print_summary(const struct flight_recorder *fr, u64 table_max)
{
	const struct flight_recorder_stats *fs = &fr->stats;
	const struct sideband_stats *st = flight_recorder__table_stats(fr);

	if (fs->lost_paused)
		fprintf(stderr, "[ perf record: %llu events were not recorded while the overwrite "
			"buffers were paused for dumps ]\n", (unsigned long long)fs->lost_paused);
	if (fs->pauses)
		pr_debug("overwrite buffers: %llu dumps, %llu pauses of one buffer, %.3f ms at most, "
			 "%.3f ms on average; a dump's first pause to its last resume %.3f ms at "
			 "most%s\n", (unsigned long long)fs->dumps, (unsigned long long)fs->pauses,
			 fs->pause_ns_max / 1e6, fs->pause_ns_total / 1e6 / fs->pauses,
			 fs->span_ns_max / 1e6,
			 fs->quiesce_global ? "; some pauses waited for a grace period" : "");
	if (!st)
		return;
	pr_debug("process table: %llu records, %llu tasks held, %llu KB (peak %llu KB of %llu KB), "
		 "%llu tasks pruned, %llu superseded records trimmed\n",
		 (unsigned long long)st->records, (unsigned long long)st->tasks,
		 (unsigned long long)(st->bytes >> 10), (unsigned long long)(st->peak_bytes >> 10),
		 (unsigned long long)(table_max >> 10), (unsigned long long)st->pruned,
		 (unsigned long long)st->trimmed);
	if (st->evicted || st->dropped || fs->table_errors)
		fprintf(stderr, "Warning:\nThe process table reached --sideband-max=%lluK: %llu exited "
			"tasks evicted, %llu records dropped%s; some samples may lack their task's "
			"name or maps. Give a larger --sideband-max.\n",
			(unsigned long long)(table_max >> 10), (unsigned long long)st->evicted,
			(unsigned long long)st->dropped,
			fs->table_errors ? " (and some out of memory)" : "");
}
