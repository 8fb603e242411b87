#ifndef PERF_UTIL_FLIGHT_RECORDER_H
#define PERF_UTIL_FLIGHT_RECORDER_H
/*
 * The dump engine of `perf record --overwrite`.
 *
 * It owns the backward (write_backward, read-only) buffers of the
 * overwrite events, in an aux evlist of the recorder's, and the process
 * table that names the tasks of their samples.  The kernel writes those
 * buffers without anyone reading them.  A dump takes them in one of two
 * modes:
 *
 * Swap mode (the default where the kernel allows it): two buffers per CPU
 * (or per thread), each owned by a dummy event that never writes; the
 * overwrite events have no mapping of their own and write into the active
 * one through SET_OUTPUT.  A dump, pair by pair:
 *
 *   write what the spare still holds -> point the events at the spare ->
 *   wait until no writer is inside the buffer they left -> write its new
 *   records straight from the mapping
 *
 * so no event is dropped and nothing is copied; the buffer left becomes
 * the spare.  The buffer states, per buffer:
 *
 *   RUNNING       the events write into it (the active one)
 *   DATA_PENDING  the events left it; its records wait to be written
 *                 (during a dump, or from a trigger's freeze to its dump)
 *   EMPTY         the spare: nobody writes it, what it held is written
 *
 * Pause mode: one buffer per CPU (or thread), taken one at a time:
 *
 *   pause it -> wait until no writer is inside a record -> copy what is
 *   new since the last dump into one staging area -> resume it -> walk the
 *   copy's whole records -> write them
 *
 * so a buffer is blind only for its own copy, and the memory it needs is
 * one buffer whatever the number of buffers.  RUNNING: written by the
 * kernel; DATA_PENDING: paused, not yet copied; EMPTY: copied, still
 * paused until RUNNING again.
 *
 * In both, each buffer goes through the RUNNING -> DATA_PENDING -> EMPTY
 * -> RUNNING machine of overwrite-state.h, and a buffer is read from its
 * newest record down to where the last good dump stopped: a buffer that
 * takes the events again still holds what the dump before wrote, and
 * never gives it twice.  Before the first buffer's records (in swap mode
 * once the buffers are swapped, unless a spare is written first), the
 * process table's records of every task alive in the time the dump can
 * hold, in time order, with the writer's head among them (its time-0
 * records, after the table's): a reader that sorts and flushes what came
 * before a FINISHED_ROUND, or what filled its buffer, never meets an older
 * record after it.  After the buffers, the writer's finish callback (the
 * recorder's tail records, header and rename).  A dump that fails anywhere
 * leaves the buffers' read positions
 * where the last good dump left them: what it held goes into the next
 * dump, as far as the buffers still hold it.
 */
#include "types.h"
#include "event.h"

struct evlist;
struct sideband_stats;
struct flight_recorder;

/* What one dump held (backward samples; forward ones are the recorder's). */
struct flight_recorder_dump {
	u64 samples;		/* backward samples written */
	u64 first, last;	/* record times of the file's samples (forward ones too) */
	u64 tasks;		/* tasks the process table described */
	u64 lost;		/* events the kernel could not write (LOST records) */
	u64 bytes;		/* backward bytes written */
	u64 span_ns;		/* first pause to last resume */
	/*
	 * How far back the buffers held everything, in record time: from the
	 * latest of the oldest samples of the buffers that turned over since
	 * the last dump to the newest sample.  0: none turned over, the dump
	 * holds all they took since the last one, or (swap mode) a freeze
	 * set the buffers holding the request's past aside.
	 */
	u64 held_ns;
};

struct flight_recorder_stats {
	u64 dumps;		/* dumps that completed */
	u64 failed;		/* dumps that failed (their data stayed in the buffers) */
	u64 lost;		/* events the kernel could not write, in the dumps */
	u64 pauses;		/* buffer pauses (pause mode) */
	u64 swaps;		/* pairs swapped (swap mode) */
	u64 swap_ns_max;	/* one pair's redirect and quiesce */
	u64 pause_ns_total, pause_ns_max;	/* one buffer's pause, pause to resume */
	u64 span_ns_max;	/* a dump's first pause to its last resume */
	u64 quiesce_global;	/* quiesces that needed a grace period (membarrier) */
	u64 table_errors;	/* process table records lost to memory */
};

struct flight_recorder_writer {
	/* @size bytes of whole records, in bulk. */
	int (*write)(void *arg, const void *buf, size_t size);
	/* One record of the process table. */
	perf_event__handler_t event;
	/*
	 * Optional: the writer's own records of time 0 (the recorder's
	 * synthesized ones), once the process table has chosen the dump's
	 * tasks (flight_recorder__described() knows them), after its time-0
	 * records and before any record of a real time.  Non-zero: the dump
	 * failed.
	 */
	int (*head)(void *arg);
	/* Optional: each backward record, before it is written in bulk. */
	void (*note)(void *arg, const union perf_event *event);
	/* Everything is written: complete the file.  Non-zero: the dump failed. */
	int (*finish)(void *arg, const struct flight_recorder_dump *dump);
	void *arg;
};

/*
 * The engine for the overwrite evsels of @parent (evsel->overwrite), which
 * must be open.  @table_max: the process table's cap in bytes; 0 for no
 * process table.  NULL on out of memory.
 */
struct flight_recorder *flight_recorder__new(struct evlist *parent, u64 table_max);
void flight_recorder__delete(struct flight_recorder *fr);

/*
 * Maps the backward buffers, @pages data pages each: in swap mode if @swap
 * and the kernel lets it, else (saying why, if @swap) in pause mode with
 * its staging area.
 */
int flight_recorder__mmap(struct flight_recorder *fr, size_t pages, bool swap);
/*
 * Swap mode: the recorded events were just enabled (at the start, after
 * -D or a control 'enable'): the buffer they write into starts taking
 * them.  Nothing in pause mode.
 */
void flight_recorder__events_enabled(struct flight_recorder *fr);
int flight_recorder__nr_buffers(const struct flight_recorder *fr);
/*
 * For tests: @nr buffers over caller memory laid out as perf_mmap__init_fake()
 * wants (a control page, then @sizes[i] bytes of data), written by hand.
 * @swap: swap mode, buffers 2p and 2p + 1 a pair, whose events the test
 * writes into the active one.
 */
int flight_recorder__mmap_fake(struct flight_recorder *fr, void **bases, const size_t *sizes,
			       int nr, bool swap);
/* Swap mode: the buffer pair @pair's events write into; -1 in pause mode. */
int flight_recorder__active(const struct flight_recorder *fr, int pair);
/*
 * For tests, swap mode: @fn is called when a fake pair's events are moved
 * to buffer @k, between the spare's enable and the other's disable, where
 * a hit of the kernel's goes into both buffers.
 */
void flight_recorder__fake_toggle(struct flight_recorder *fr,
				  void (*fn)(void *arg, int pair, int k), void *arg);

/* Seeds the process table with a record synthesized from /proc (time 0). */
void flight_recorder__seed(struct flight_recorder *fr, const union perf_event *event);
/*
 * A record of the forward stream.  The process table takes the tracking
 * records (false: nothing to write); anything else belongs in the file as
 * it comes (true), and a sample's time is noted for the dump's range.
 */
bool flight_recorder__track(struct flight_recorder *fr, const union perf_event *event);
/*
 * True if the dump being written (inside the writer's head or finish
 * callback) had the process table describe process @pid.
 */
bool flight_recorder__described(const struct flight_recorder *fr, u32 pid);
/* The name of task @tid at record time @time, from the process table; false if unknown. */
bool flight_recorder__comm(const struct flight_recorder *fr, u32 tid, u64 time, char *buf,
			   size_t size);

/*
 * Each dump describes every task alive since the dump before, not only
 * those its samples name: --off-cpu's samples, written with the dump, sum
 * up the waits of that whole time.
 */
void flight_recorder__describe_since_dump(struct flight_recorder *fr);

/*
 * Between dumps, once per pass of the recorder's loop: learns how far back
 * each buffer still reaches (without pausing it) and prunes the process
 * table of what no dump can need.
 */
void flight_recorder__tick(struct flight_recorder *fr);
/* Bytes the kernel wrote into the buffers since the last dump. */
u64 flight_recorder__pending_bytes(const struct flight_recorder *fr);

/*
 * Swap mode, at a request that opens a post-trigger window: each pair's
 * events go to its spare now, so the buffers they leave keep everything
 * before the request however long the window; the dump writes them, then
 * the window.  Nothing in pause mode.
 */
int flight_recorder__freeze(struct flight_recorder *fr);
/*
 * Takes a dump through @w (see above).  Returns 0, or the first error of
 * the engine or of @w; the dump is then dropped and the buffers keep its
 * data for the next one.
 */
int flight_recorder__dump(struct flight_recorder *fr, const struct flight_recorder_writer *w);

const struct flight_recorder_stats *flight_recorder__stats(const struct flight_recorder *fr);
const struct sideband_stats *flight_recorder__table_stats(const struct flight_recorder *fr);
/*
 * At exit, on stderr: the events the dumps lost (LOST records), and with -v
 * the pauses or swaps and the process table (@table_max: its cap, for the
 * message).
 */
void flight_recorder__print_summary(const struct flight_recorder *fr, u64 table_max);

#endif
