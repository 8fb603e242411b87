/*
 * perf record: open the events, map their ring buffers, and stream what the
 * kernel writes into a perf.data file.
 *
 * With --overwrite (or an ev/overwrite/ term) events go to backward,
 * read-only buffers in an aux evlist that the kernel keeps overwriting:
 * nothing is read from them until a dump is asked for (SIGUSR2 with
 * --switch-output, a size or time threshold, or the end of recording).
 * A dump pauses those buffers, copies their newest records to memory,
 * resumes them, and only then writes the copy: the kernel is blind only
 * for the copy.  See util/overwrite-state.h for the state machine.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/wait.h>
#include "builtin.h"
#include "perf.h"
#include "util/cpumap.h"
#include "util/data.h"
#include "util/debug.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/header.h"
#include "util/mmap.h"
#include "util/overwrite-state.h"
#include "util/parse-events.h"
#include "util/sideband.h"
#include "util/synthetic-events.h"
#include "util/thread_map.h"
#include "util/trigger.h"

#define DEFAULT_MMAP_BYTES	(512 * 1024)
#define DEFAULT_SIDEBAND_MAX	(32 * 1024 * 1024)

/*
 * How far back a backward buffer still reaches, learnt without pausing it:
 * pairs (t, w) of "by record time t, w bytes had been written".  Once the
 * kernel has written a buffer length past w, whatever was written before
 * t is gone, so t bounds the oldest record a dump of it can hold.
 */
#define RECORD_WRAP_SLOTS 64

struct record_wrap {
	u64 t[RECORD_WRAP_SLOTS];
	u64 w[RECORD_WRAP_SLOTS];
	int n;
	u64 bound;		/* nothing older than this is left in the buffer */
};

/* The newest records of one backward buffer, copied out while it was paused. */
struct record_snapshot {
	void *buf;
	size_t cap;
	size_t len;		/* bytes copied: the whole data area, or 0 */
	u64 stop;		/* where the previous dump began in this copy, or len */
	size_t end;		/* the whole records to write, found after resuming */
	size_t lost_off, lost_len;	/* ... but for this LOST record (len 0: none) */
	struct record_wrap wrap;
};

/* Small records are gathered here and written in one go. */
#define RECORD_WBUF_SIZE (256 * 1024)

struct record {
	struct record_opts opts;
	struct evlist *evlist;
	struct evlist *overwrite_evlist;	/* aux: the backward buffers, or NULL */
	enum overwrite_evt_state overwrite_evt_state;
	struct record_snapshot *snaps;		/* one per overwrite buffer */
	bool snaps_pending;			/* copied but not yet written */
	/*
	 * Overwrite mode: the process table the tracking stream is folded
	 * into, and the times that bound what it must keep (record times).
	 */
	struct sideband *sideband;
	u64 t_seen;				/* the newest record time seen */
	u64 dump_bound;				/* no later dump holds anything older */
	u64 need_from;				/* the table was pruned up to here */
	u64 fwd_first;				/* oldest forward sample in this file */
	u64 file_first, file_last;		/* the samples of this file */
	u64 dump_tasks;				/* tasks the table wrote into this file */
	bool dump_emitted;			/* ... which it did (see the tail filter) */
	u64 sideband_errors;
	char *wbuf;				/* RECORD_WBUF_SIZE */
	size_t wbuf_len;
	struct perf_data data;
	struct perf_header_info hinfo;
	bool file_open;
	int argc;
	const char **argv;			/* the workload */
	int cmdline_argc;
	const char **cmdline;			/* "perf record ...", for the CMDLINE feature */
	int exec_fail_fd;			/* reads the child's exec errno */

	u64 samples;				/* in the current file */
	u64 bytes_written;			/* in the current file */
	u64 lost_events, lost_chunks;		/* in the whole run */
	u64 lost_paused;			/* of those, in backward buffers while paused */
	u64 wakeups, dump_wakeups;
	u64 paused_at;				/* when the backward buffers were last paused */
	u64 pause_ns_total, pause_ns_max;	/* how long backward buffers stayed paused */
	int nr_dumps;
	char *last_dump_name;
	int workload_status;
	bool workload_reaped;
	struct trigger switch_trigger;
};

static volatile sig_atomic_t done;
static volatile sig_atomic_t child_exited;
static volatile sig_atomic_t switch_requested;
static volatile sig_atomic_t alarm_fired;

static void sig_done(int sig)
{
	done = 1;
}

static void sig_child(int sig)
{
	child_exited = 1;
	done = 1;
}

static void sig_switch(int sig)
{
	switch_requested = 1;
}

static void sig_alarm(int sig)
{
	alarm_fired = 1;
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* ---- writing ---------------------------------------------------------- */

static int record__write_direct(struct record *rec, const void *buf, size_t size)
{
	int err = perf_data__write(&rec->data, buf, size);

	if (err)
		pr_err("Failed to write %s: %s\n%s", rec->data.path, strerror(-err),
		       err == -ENOSPC ? "Free some space, or record elsewhere with -o.\n" : "");
	return err;
}

static int record__flush(struct record *rec)
{
	int err = 0;

	if (rec->wbuf_len)
		err = record__write_direct(rec, rec->wbuf, rec->wbuf_len);
	rec->wbuf_len = 0;
	return err;
}

/*
 * Small records (synthesized ones, the process table's, forward samples
 * in overwrite mode) are gathered so a dump is not thousands of write(2)s;
 * large ranges go straight out.  Everything is in the file, in order, once
 * record__flush() returns.
 */
static int record__write(struct record *rec, const void *buf, size_t size)
{
	int err;

	if (!rec->wbuf || size > RECORD_WBUF_SIZE / 4) {
		err = record__flush(rec);
		if (!err)
			err = record__write_direct(rec, buf, size);
	} else {
		err = 0;
		if (rec->wbuf_len + size > RECORD_WBUF_SIZE)
			err = record__flush(rec);
		if (!err) {
			memcpy(rec->wbuf + rec->wbuf_len, buf, size);
			rec->wbuf_len += size;
		}
	}
	if (err)
		return err;
	rec->bytes_written += size;
	return 0;
}

/* Counts samples and losses; maps and samples tell BUILD_ID which files to list. */
static void record__account(struct record *rec, const union perf_event *event)
{
	switch (event->header.type) {
	case PERF_RECORD_SAMPLE:
		rec->samples++;
		perf_header_info__note_event(&rec->hinfo, event);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_FORK:
		perf_header_info__note_event(&rec->hinfo, event);
		break;
	case PERF_RECORD_LOST:
		rec->lost_events += event->lost.lost;
		rec->lost_chunks++;
		break;
	default:
		break;
	}
}

static int record__process_synth(void *arg, union perf_event *event)
{
	struct record *rec = arg;

	record__account(rec, event);
	return record__write(rec, event, event->header.size);
}

static int record__discard_synth(void *arg, union perf_event *event)
{
	return 0;
}

static int record__write_round(struct record *rec)
{
	struct perf_event_header h = {
		.type = PERF_RECORD_FINISHED_ROUND,
		.size = sizeof(h),
	};

	return record__write(rec, &h, sizeof(h));
}

/* ---- synthesized records --------------------------------------------- */

/*
 * Tail synthesis after the process table: a process the table wrote into
 * this file is described there, with the time of each change.  Its state
 * read from /proc now, at time 0 (which readers apply before any timed
 * record), would give its older samples today's name and maps: left out.
 */
static int record__process_tail_synth(void *arg, union perf_event *event)
{
	struct record *rec = arg;
	u32 type = event->header.type;

	if ((type == PERF_RECORD_COMM || type == PERF_RECORD_FORK || type == PERF_RECORD_MMAP2) &&
	    event->comm.pid != (u32)-1 && sideband__emitted(rec->sideband, event->comm.pid))
		return 0;
	return record__process_synth(arg, event);
}

static struct synth_ctx record__synth_ctx(struct record *rec, perf_event__handler_t process)
{
	struct synth_ctx ctx = {
		.process = process,
		.arg = rec,
		.sample_id_all = true,
		.sample_type = evlist__first(rec->evlist)->attr.sample_type,
		.id = 0,	/* synthesized records carry id 0: readers use the first attr */
	};

	return ctx;
}

/* The processes being recorded, as /proc has them now. */
static int record__synthesize_tasks(struct record *rec, struct synth_ctx *ctx)
{
	if (rec->opts.system_wide || rec->opts.cpu_list)
		return perf_event__synthesize_threads(ctx);
	return perf_event__synthesize_thread_map(ctx, rec->evlist->threads);
}

static int record__seed_sideband(void *arg, union perf_event *event)
{
	struct record *rec = arg;

	if (sideband__wants(event->header.type) && sideband__add(rec->sideband, event, 0) < 0)
		rec->sideband_errors++;
	return 0;
}

static int record__synthesize(struct record *rec)
{
	struct synth_ctx ctx = record__synth_ctx(rec, rec->dump_emitted ?
						 record__process_tail_synth :
						 record__process_synth);
	int err;

	err = perf_event__synthesize_kernel_mmap(&ctx);
	if (err)
		pr_debug("Could not synthesize the kernel map: %s\n", strerror(-err));
	err = perf_event__synthesize_modules(&ctx);
	if (err)
		pr_debug("Could not synthesize module maps: %s\n", strerror(-err));

	err = record__synthesize_tasks(rec, &ctx);
	/* A write error is fatal; a process that vanished is not. */
	if (err == -ENOSPC || err == -EIO || err == -EFBIG)
		return err;
	return 0;
}

/* ---- the output file ------------------------------------------------- */

static int record__open_output(struct record *rec)
{
	int err = perf_data__create(&rec->data, rec->opts.output);

	if (err) {
		pr_err("Cannot create the output file %s: %s\n%s", rec->opts.output,
		       strerror(-err),
		       err == -ENOENT ? "Its directory does not exist: create it or choose "
					"another -o.\n" :
		       err == -EACCES ? "Check the directory's permissions or choose another -o.\n" :
		       "");
		return err;
	}
	rec->file_open = true;
	rec->samples = 0;
	rec->bytes_written = 0;
	rec->fwd_first = rec->file_first = ~0ULL;
	rec->file_last = 0;
	rec->dump_tasks = 0;
	rec->dump_emitted = false;
	memset(&rec->hinfo, 0, sizeof(rec->hinfo));
	rec->hinfo.argc = rec->cmdline_argc;
	rec->hinfo.argv = rec->cmdline;
	perf_header_info__setup(&rec->hinfo, rec->evlist, &rec->opts);
	err = perf_header__write_begin(&rec->data, rec->evlist);
	if (err) {
		pr_err("Cannot write the header of %s: %s\n", rec->data.path, strerror(-err));
		return err;
	}
	if (!rec->opts.tail_synthesize) {
		err = record__synthesize(rec);
		if (err)
			return err;
	}
	return 0;
}

/* The tail records, the features and the final header of the current file. */
static int record__finish_output(struct record *rec)
{
	int err = 0;

	u64 t0 = now_ns(), t1;

	if (rec->opts.tail_synthesize)
		err = record__synthesize(rec);
	t1 = now_ns();
	if (!err)
		err = record__flush(rec);
	if (!err)
		err = perf_header__write_finish(&rec->data, rec->evlist, &rec->hinfo);
	if (!err)
		perf_header_info__cache_build_ids(&rec->hinfo);
	pr_debug2("finish: synthesizing %.1f ms, features %.1f ms\n", (t1 - t0) / 1e6,
		  (now_ns() - t1) / 1e6);
	if (err)
		pr_err("Cannot finish %s: %s\n", rec->data.path, strerror(-err));
	return err;
}

/* A file we could not finish must not look like a good one. */
static void record__abandon_output(struct record *rec)
{
	if (!rec->file_open)
		return;
	rec->wbuf_len = 0;
	perf_data__close(&rec->data);
	if (unlink(rec->opts.output) == 0)
		pr_err("Removed the incomplete %s; earlier files are untouched.\n",
		       rec->opts.output);
	rec->file_open = false;
	perf_header_info__exit(&rec->hinfo);
}

static void record__print_written(struct record *rec, const char *name)
{
	if (rec->opts.quiet)
		return;
	fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s (%llu samples) ]\n",
		(double)(rec->data.data_offset + rec->bytes_written) / 1024 / 1024, name,
		(unsigned long long)rec->samples);
}

/*
 * With the process table, a dump says what it covers: its samples, their
 * first and last record times (as perf script prints them) and the tasks
 * the table described.
 */
static void record__print_dump(struct record *rec, const char *name)
{
	u64 first = rec->file_first, last = rec->file_last;

	if (!rec->sideband) {
		fprintf(stderr, "[ perf record: Dump %s ]\n", name);
	} else if (!rec->samples || first > last) {
		fprintf(stderr, "[ perf record: Dump %s: 0 samples, %llu tasks ]\n", name,
			(unsigned long long)rec->dump_tasks);
	} else {
		fprintf(stderr, "[ perf record: Dump %s: %llu samples, %llu.%06llu..%llu.%06llu "
			"(%.3f s), %llu tasks ]\n", name, (unsigned long long)rec->samples,
			(unsigned long long)(first / 1000000000ULL),
			(unsigned long long)(first % 1000000000ULL / 1000),
			(unsigned long long)(last / 1000000000ULL),
			(unsigned long long)(last % 1000000000ULL / 1000),
			(last - first) / 1e9, (unsigned long long)rec->dump_tasks);
	}
}

/* Renames "<output>" to "<output>.<timestamp>", keeping at most --switch-max-files. */
static int record__rename_dump(struct record *rec, char **name)
{
	char ts[32];

	perf_data__timestamp(ts);
	if (asprintf(name, "%s.%s", rec->opts.output, ts) < 0)
		return -ENOMEM;
	if (rename(rec->opts.output, *name) < 0) {
		int err = -errno;

		pr_err("Cannot rename %s to %s: %s\n", rec->opts.output, *name, strerror(errno));
		free(*name);
		*name = NULL;
		return err;
	}
	return 0;
}

static void record__rotate(struct record *rec)
{
	if (rec->opts.switch_max_files > 0) {
		int n = perf_data__rotate(rec->opts.output, rec->opts.switch_max_files);

		if (n > 0)
			pr_debug("Removed %d old dump(s) (--switch-max-files=%d)\n", n,
				 rec->opts.switch_max_files);
	}
}

/*
 * Finishes the current file under a timestamped name.  @at_exit: no next
 * file; otherwise a fresh one is started at the output name.
 */
static int record__switch_output(struct record *rec, bool at_exit)
{
	char *name = NULL;
	int err;

	err = record__finish_output(rec);
	if (err)
		return err;
	perf_data__close(&rec->data);
	rec->file_open = false;
	err = record__rename_dump(rec, &name);
	if (err)
		return err;
	rec->nr_dumps++;
	if (!rec->opts.quiet) {
		if (at_exit) {
			record__print_written(rec, name);
		} else {
			fprintf(stderr, "[ perf record: dump data: Woken up %llu times ]\n",
				(unsigned long long)rec->dump_wakeups);
			record__print_dump(rec, name);
		}
	}
	free(rec->last_dump_name);
	rec->last_dump_name = name;
	rec->dump_wakeups = 0;
	perf_header_info__exit(&rec->hinfo);
	record__rotate(rec);
	if (at_exit)
		return 0;
	return record__open_output(rec);
}

/* ---- reading the ring buffers ---------------------------------------- */

static void record__note_sample(struct record *rec, u64 t, bool forward)
{
	if (!t)
		return;
	if (t < rec->file_first)
		rec->file_first = t;
	if (t > rec->file_last)
		rec->file_last = t;
	if (forward && t < rec->fwd_first)
		rec->fwd_first = t;
	if (t > rec->t_seen)
		rec->t_seen = t;
}

/*
 * Overwrite mode: the forward stream carries the tracking records, which
 * go to the process table rather than the file (each dump writes those it
 * needs), and the samples of any no-overwrite event, which are written.
 */
static int record__mmap_read_tracking(struct record *rec, struct perf_mmap *map)
{
	union perf_event *event;
	bool any = false;
	int err;

	if (perf_mmap__read_init(map) < 0)
		return 0;
	while ((event = perf_mmap__read_event(map))) {
		u64 t = evlist__event_time(rec->evlist, event);

		any = true;
		if (sideband__wants(event->header.type)) {
			if (t > rec->t_seen)
				rec->t_seen = t;
			if (sideband__add(rec->sideband, event, t) < 0)
				rec->sideband_errors++;
			continue;
		}
		if (event->header.type == PERF_RECORD_SAMPLE)
			record__note_sample(rec, t, true);
		record__account(rec, event);
		err = record__write(rec, event, event->header.size);
		if (err)
			return err;
	}
	perf_mmap__consume(map);
	return any;
}

/* Writes the whole records of one forward buffer and hands the space back. */
static int record__mmap_read_forward(struct record *rec, struct perf_mmap *map)
{
	unsigned char *data = perf_mmap__data(map);
	union perf_event *event;
	u64 start, end;
	int err;

	if (rec->sideband)
		return record__mmap_read_tracking(rec, map);
	if (perf_mmap__read_init(map) < 0)
		return 0;
	start = map->start;
	while ((event = perf_mmap__read_event(map)))
		record__account(rec, event);
	end = map->start;
	if (end == start)
		return 0;

	/* The bytes are written as they lie: one piece, or two if they wrap. */
	if ((start & map->mask) + (end - start) > map->mask + 1) {
		size_t first = map->mask + 1 - (start & map->mask);

		err = record__write(rec, data + (start & map->mask), first);
		if (!err)
			err = record__write(rec, data, end - start - first);
	} else {
		err = record__write(rec, data + (start & map->mask), end - start);
	}
	if (err)
		return err;
	perf_mmap__consume(map);
	return 1;
}

/*
 * Below this many bytes in a pass (or an eighth of a buffer, for small
 * buffers) the loop sleeps until a buffer reaches its wakeup watermark.  Draining a trickle at once would make a
 * system-wide syscall trace feed on our own small writes.
 */
#define RECORD_BUSY_BYTES (64 * 1024)

static int record__toggle_overwrite(struct record *rec, enum overwrite_evt_state want)
{
	enum overwrite_action action;
	int err = 0;

	if (!rec->overwrite_evlist)
		return 0;
	rec->overwrite_evt_state = overwrite_state__next(rec->overwrite_evt_state, want, &action);
	if (action == OVERWRITE_ACTION_PAUSE) {
		rec->paused_at = now_ns();
		err = perf_evlist__pause(rec->overwrite_evlist);
	} else if (action == OVERWRITE_ACTION_RESUME) {
		u64 d;

		err = perf_evlist__resume(rec->overwrite_evlist);
		d = now_ns() - rec->paused_at;
		rec->pause_ns_total += d;
		if (d > rec->pause_ns_max)
			rec->pause_ns_max = d;
		pr_debug("overwrite buffers were paused for %.3f ms\n", d / 1e6);
	}
	if (err)
		pr_err("Cannot %s the overwrite ring buffers: %s\n",
		       action == OVERWRITE_ACTION_PAUSE ? "pause" : "resume", strerror(-err));
	return err;
}

/*
 * Copies every paused backward buffer to memory as raw bytes, starting at
 * its data_head, so the copy begins with the newest record and never wraps.
 * Only done in DATA_PENDING.  Finding where the whole records end is left
 * to record__write_dump_data(), after the buffers are resumed: while paused
 * we do nothing but two memcpy()s per buffer.
 */
static int record__snapshot_overwrite(struct record *rec)
{
	struct evlist *ow = rec->overwrite_evlist;
	u64 t0 = now_ns();

	for (int i = 0; i < ow->nr_mmaps; i++) {
		struct perf_mmap *map = &ow->mmap[i];
		struct record_snapshot *snap = &rec->snaps[i];
		size_t size = map->mask + 1;

		snap->len = 0;
		if (!map->base)
			continue;
		if (snap->cap < size) {
			void *buf = realloc(snap->buf, size);

			if (!buf) {
				pr_err("Cannot copy overwrite ring buffer %d: out of memory\n", i);
				return -ENOMEM;
			}
			snap->buf = buf;
			snap->cap = size;
		}
		snap->stop = perf_mmap__backward_copy(map, snap->buf);
		if (snap->stop)
			snap->len = size;
	}
	pr_debug2("copying the paused buffers %.1f ms (%.1f ms after the pause)\n",
		  (now_ns() - t0) / 1e6, (now_ns() - rec->paused_at) / 1e6);
	rec->snaps_pending = true;
	rec->overwrite_evt_state = OVERWRITE_EMPTY;
	return 0;
}

#define RECORD_SCAN_TAIL 4

struct record_scan {
	struct record *rec;
	const char *buf;
	u64 newest, oldest;	/* offsets of the first and the last sample, or ~0 */
	u64 lost_off, lost_end;	/* the last LOST record seen, or ~0 */
	u64 tail[RECORD_SCAN_TAIL];	/* offsets of the last records, a ring */
	u32 nr;			/* records seen */
};

static void record__scan_one(void *arg, const struct perf_event_header *hdr, u64 off)
{
	struct record_scan *sc = arg;
	const union perf_event *event = (const union perf_event *)(sc->buf + off);

	sc->tail[sc->nr++ % RECORD_SCAN_TAIL] = off;
	if (hdr->type == PERF_RECORD_LOST) {
		sc->rec->lost_paused += event->lost.lost;
		sc->rec->lost_events += event->lost.lost;
		sc->rec->lost_chunks++;
		sc->lost_off = off;
		sc->lost_end = off + hdr->size;
		return;
	}
	if (hdr->type == PERF_RECORD_SAMPLE) {
		if (sc->newest == ~0ULL)
			sc->newest = off;
		sc->oldest = off;
	}
	record__account(sc->rec, event);
}

/*
 * PAUSE_OUTPUT stops only the writers that start after it.  One already
 * running finishes its record just below the head we read, which is the
 * far end of a copy that took the whole lap: over the oldest bytes, maybe
 * while we copied them, and it may publish its head only after we looked
 * again (a vCPU can be preempted in there).  What the walk then finds at
 * the far end is the new record's header over old bytes: a sample newer
 * than the copy's newest, which no whole old record can be, or one whose
 * fields do not fit its size.  Such tail records are left out (and
 * uncounted); the new one comes with the next dump.  Returns the new end.
 */
static bool record__sample_whole(struct record *rec, const union perf_event *e)
{
	struct evsel *evsel = rec->evlist->nr_entries == 1 ? evlist__first(rec->evlist) :
			      evlist__id2evsel(rec->evlist, ((const u64 *)e)[1]);
	struct perf_sample sample;

	return evsel && evsel__parse_sample(&evsel->attr, e, &sample) == 0;
}

static u64 record__trim_torn(struct record *rec, struct record_scan *sc, u64 end)
{
	u64 newest = evlist__event_time(rec->evlist, (union perf_event *)(sc->buf + sc->newest));
	u64 first = sc->nr > RECORD_SCAN_TAIL ? sc->nr - RECORD_SCAN_TAIL : 0;
	bool trimmed = false;

	while (sc->nr > first + 1) {
		u64 off = sc->tail[(sc->nr - 1) % RECORD_SCAN_TAIL];
		union perf_event *e = (union perf_event *)(sc->buf + off);

		if (off == sc->newest || e->header.type != PERF_RECORD_SAMPLE ||
		    (evlist__event_time(rec->evlist, e) <= newest && record__sample_whole(rec, e)))
			break;
		pr_debug("overwrite buffer: a record torn by a write still running at the pause, "
			 "left out\n");
		rec->samples--;
		end = off;
		sc->nr--;
		trimmed = true;
	}
	if (trimmed) {
		/* The oldest sample is now an earlier one: find it again (rare). */
		for (u64 off = 0; off < end; ) {
			const struct perf_event_header *h = (const void *)(sc->buf + off);

			if (h->type == PERF_RECORD_SAMPLE)
				sc->oldest = off;
			off += h->size;
		}
	}
	return end;
}

/*
 * Finds the whole records of one copy (the walk stops where the previous
 * dump began or where a record was partly overwritten), counts them, and
 * notes the time of its newest and oldest sample: a buffer is written by
 * one CPU, newest record first, so those are its first and last samples.
 * One pass over the copy: it is as large as the ring buffer.
 */
static void record__scan_snapshot(struct record *rec, struct record_snapshot *s)
{
	struct record_scan sc = {
		.rec = rec, .buf = s->buf, .newest = ~0ULL, .lost_end = ~0ULL,
	};
	u64 end = 0;

	s->end = 0;
	if (!s->len)
		return;
	/* The copy starts at the head, position 0; a stop of 0 lets the walk use it all. */
	if (perf_mmap__backward_walk(s->buf, s->len, 0, s->stop < s->len ? s->stop : 0, &end,
				     record__scan_one, &sc) < 0)
		return;
	/*
	 * A backward buffer never runs full, so its only losses are the events
	 * of a dump's pause, which the kernel reports with the first event
	 * after the resume (the LOST record just below it, so just before it
	 * in the walk): the oldest new records here.  They fell between the
	 * two dumps, outside this one's window: counted above, not written.
	 */
	if (sc.newest != ~0ULL && end + PERF_SAMPLE_MAX_SIZE > s->len)
		end = record__trim_torn(rec, &sc, end);
	s->lost_len = 0;
	if (sc.lost_end != ~0ULL && sc.lost_end <= end) {
		s->lost_off = sc.lost_off;
		s->lost_len = sc.lost_end - sc.lost_off;
	}
	s->end = end;
	if (sc.newest != ~0ULL) {
		record__note_sample(rec, evlist__event_time(rec->evlist,
					(union perf_event *)(sc.buf + sc.newest)), false);
		record__note_sample(rec, evlist__event_time(rec->evlist,
					(union perf_event *)(sc.buf + sc.oldest)), false);
	}
}

/*
 * The data of a dump: the process table's records of the tasks alive in
 * the time the file's samples cover, then the copies of the backward
 * buffers, then a round mark.
 */
static int record__write_dump_data(struct record *rec)
{
	u64 t0 = now_ns(), t1, t2;
	bool wrote = false;
	int err;

	if (rec->snaps_pending) {
		for (int i = 0; i < rec->overwrite_evlist->nr_mmaps; i++)
			record__scan_snapshot(rec, &rec->snaps[i]);
	}
	t1 = now_ns();
	if (rec->sideband && rec->file_first <= rec->file_last) {
		u64 n = 0;

		err = sideband__emit(rec->sideband, rec->file_first, rec->file_last,
				     record__process_synth, rec, &n);
		rec->dump_tasks += n;
		rec->dump_emitted = true;
		if (err)
			return err;
	}
	t2 = now_ns();
	if (!rec->snaps_pending)
		return 0;
	rec->snaps_pending = false;
	for (int i = 0; i < rec->overwrite_evlist->nr_mmaps; i++) {
		struct record_snapshot *s = &rec->snaps[i];

		if (!s->end)
			continue;
		if (s->lost_len) {
			err = record__write(rec, s->buf, s->lost_off);
			if (!err)
				err = record__write(rec, (char *)s->buf + s->lost_off + s->lost_len,
						    s->end - s->lost_off - s->lost_len);
		} else {
			err = record__write(rec, s->buf, s->end);
		}
		if (err)
			return err;
		wrote = true;
	}
	if (wrote) {
		err = record__write_round(rec);
		if (err)
			return err;
	}
	pr_debug2("dump data: finding records %.1f ms, process table %.1f ms, writing %.1f ms\n",
		  (t1 - t0) / 1e6, (t2 - t1) / 1e6, (now_ns() - t2) / 1e6);
	return 0;
}

/* One pair per millisecond of record time at most. */
#define RECORD_WRAP_STEP	1000000ULL
/* Per-CPU clocks may disagree a little: keep this much more than needed. */
#define RECORD_CLOCK_SKEW	100000000ULL

/* Notes (t_seen, bytes written so far) and returns how far back the buffer reaches. */
static u64 record_wrap__update(struct record_wrap *wr, u64 t_seen, u64 written, u64 size)
{
	int drop = 0;

	while (drop < wr->n && wr->w[drop] + size <= written)
		wr->bound = wr->t[drop++];
	if (drop) {
		wr->n -= drop;
		memmove(wr->t, wr->t + drop, wr->n * sizeof(u64));
		memmove(wr->w, wr->w + drop, wr->n * sizeof(u64));
	}
	if (wr->n && t_seen < wr->t[wr->n - 1] + RECORD_WRAP_STEP)
		return wr->bound;
	if (wr->n == RECORD_WRAP_SLOTS) {
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
static void record__prune_sideband(struct record *rec)
{
	struct evlist *ow = rec->overwrite_evlist;
	u64 reach = ~0ULL, need;

	if (!rec->sideband || !rec->t_seen)
		return;
	for (int i = 0; i < ow->nr_mmaps; i++) {
		struct perf_mmap *map = &ow->mmap[i];
		u64 bound;

		if (!map->base)
			continue;
		/* A backward head counts down from 0: minus it is what was written. */
		bound = record_wrap__update(&rec->snaps[i].wrap, rec->t_seen,
					    0 - perf_mmap__read_head(map), map->mask + 1);
		reach = min_t(u64, reach, bound);
	}
	need = reach == ~0ULL ? rec->dump_bound : max_t(u64, rec->dump_bound, reach);
	need = min_t(u64, need, rec->fwd_first);
	need = need > RECORD_CLOCK_SKEW ? need - RECORD_CLOCK_SKEW : 0;
	if (need >= rec->need_from + RECORD_WRAP_STEP) {
		rec->need_from = need;
		sideband__prune(rec->sideband, need);
	}
}

/* Releases forward buffers whose every fd hung up, once they are empty. */
static void record__release_dead_maps(struct record *rec)
{
	struct evlist *evlist = rec->evlist;

	for (int i = 0; i < evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &evlist->mmap[i];

		if (map->base && map->refcnt == 0 &&
		    perf_mmap__read_head(map) == map->prev)
			perf_mmap__munmap(map);
	}
}

/*
 * One pass over the buffers: every forward one is drained; the backward
 * ones are copied only when their data is pending.  Returns how many
 * buffers gave data, or -errno.
 */
static int record__mmap_read_all(struct record *rec)
{
	int nr = 0, err;

	for (int i = 0; i < rec->evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &rec->evlist->mmap[i];

		if (!map->base)
			continue;
		err = record__mmap_read_forward(rec, map);
		if (err < 0)
			return err;
		nr += err;
	}
	/*
	 * Rounds tell a reader it may sort and flush what came before.  A file
	 * that will also hold backward data gets no rounds from the forward
	 * stream, so the reader sorts the process table's records together
	 * with the (older) backward samples and every sample finds its comm
	 * and maps.
	 */
	if (nr && !rec->overwrite_evlist) {
		err = record__write_round(rec);
		if (err)
			return err;
	}
	if (rec->overwrite_evlist && rec->overwrite_evt_state == OVERWRITE_DATA_PENDING) {
		err = record__snapshot_overwrite(rec);
		if (err)
			return err;
	}
	record__prune_sideband(rec);
	record__release_dead_maps(rec);
	return nr;
}

/* ---- the workload ---------------------------------------------------- */

/* Looks the command up like execvp() would, so a typo fails before anything starts. */
static int workload__check(const char *cmd)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (strchr(cmd, '/'))
		return access(cmd, X_OK) == 0 ? 0 : -errno;
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/%s", (int)len, len ? path : ".", cmd);
		if (access(buf, X_OK) == 0)
			return 0;
		path += len;
		if (*path == ':')
			path++;
	}
	return -ENOENT;
}

/*
 * Forks the workload and holds it before exec until record__start_workload()
 * writes to the cork pipe, so its first instructions are recorded.
 */
static int record__prepare_workload(struct record *rec)
{
	int cork[2], fail[2];
	pid_t pid;

	if (pipe2(cork, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(fail, O_CLOEXEC) < 0) {
		close(cork[0]);
		close(cork[1]);
		return -errno;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(cork[0]);
		close(cork[1]);
		close(fail[0]);
		close(fail[1]);
		return err;
	}
	if (pid == 0) {
		char c;
		int err;

		close(cork[1]);
		close(fail[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* The parent died or gave up: never run the workload unrecorded. */
		if (read(cork[0], &c, 1) != 1)
			_exit(127);
		execvp(rec->argv[0], (char * const *)rec->argv);
		err = errno;
		if (write(fail[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(cork[0]);
	close(fail[1]);
	rec->evlist->workload_pid = pid;
	rec->evlist->workload_cork_fd = cork[1];
	rec->exec_fail_fd = fail[0];
	return 0;
}

static int record__start_workload(struct record *rec)
{
	int err = 0;
	ssize_t n;

	if (write(rec->evlist->workload_cork_fd, "x", 1) != 1)
		err = -errno;
	close(rec->evlist->workload_cork_fd);
	rec->evlist->workload_cork_fd = -1;
	if (err)
		return err;
	/* EOF: exec succeeded (the pipe is close-on-exec). */
	do {
		n = read(rec->exec_fail_fd, &err, sizeof(err));
	} while (n < 0 && errno == EINTR);
	close(rec->exec_fail_fd);
	rec->exec_fail_fd = -1;
	if (n == sizeof(err)) {
		pr_err("Workload failed: cannot run '%s': %s\n", rec->argv[0], strerror(err));
		return -err;
	}
	return 0;
}

static void record__kill_workload(struct record *rec)
{
	pid_t pid = rec->evlist ? rec->evlist->workload_pid : -1;

	if (pid <= 0 || rec->workload_reaped)
		return;
	if (rec->evlist->workload_cork_fd >= 0) {
		/* Never started: closing the cork makes it exit. */
		close(rec->evlist->workload_cork_fd);
		rec->evlist->workload_cork_fd = -1;
	} else {
		kill(pid, SIGTERM);
	}
	waitpid(pid, NULL, 0);
	rec->workload_reaped = true;
}

static void record__reap_workload(struct record *rec, bool block)
{
	pid_t pid = rec->evlist->workload_pid;
	int status;

	if (pid <= 0 || rec->workload_reaped)
		return;
	if (waitpid(pid, &status, block ? 0 : WNOHANG) == pid) {
		rec->workload_reaped = true;
		if (WIFEXITED(status))
			rec->workload_status = WEXITSTATUS(status);
		else if (WIFSIGNALED(status) && !rec->opts.quiet)
			pr_debug("Workload terminated by signal %d\n", WTERMSIG(status));
	}
}

/* ---- options --------------------------------------------------------- */

static const char * const record_usage[] = {
	"-e, --event <event>       event selector (see 'perf list'); may be repeated",
	"-o, --output <file>       output file name (default perf.data)",
	"-m, --mmap-pages <pages>  ring buffer size per CPU: pages, or a size with B/K/M/G",
	"-F, --freq <n>            sample at this frequency (Hz)",
	"-c, --count <n>           sample every n events",
	"-g                        record call chains (frame pointers)",
	"    --call-graph <mode>   fp, dwarf[,size] or no",
	"-a, --all-cpus            system-wide collection from all CPUs",
	"-C, --cpu <cpus>          only these CPUs, e.g. 0-3,7",
	"-p, --pid <pids>          record existing processes",
	"-t, --tid <tids>          record existing threads",
	"    --no-inherit          child tasks do not inherit counters",
	"    --overwrite           keep events in overwritable backward ring buffers",
	"                          (flight recorder: dump them with --switch-output)",
	"    --switch-output[=signal|SIZE|TIME]",
	"                          start a new timestamped file on SIGUSR2 (default),",
	"                          after SIZE bytes (B/K/M/G) or every TIME (s/m/h/d)",
	"    --switch-max-files <n> keep only the newest n switched files",
	"    --tail-synthesize     describe processes and maps at the end of each file",
	"    --no-tail-synthesize  ... at the start (the default without --overwrite)",
	"    --sideband-max <size> with --overwrite: memory for the process table that",
	"                          names the tasks of each dump (default 32M)",
	"-B, --no-buildid          do not record build ids (nor fill the build-id cache)",
	"-N, --no-buildid-cache    do not add the DSOs to the build-id cache",
	"    --buildid-all         record the build ids of all DSOs, hit or not",
	"-q, --quiet               only print errors",
	"-v, --verbose             be more verbose (show debug messages)",
	NULL
};

#define RECORD_USAGE "perf record [<options>] [<command>]\n    or: perf record [<options>] -- <command> [<options>]"

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
	OPT_BUILDID_ALL,
};

/* "4096", "16K", "2M", "1G" -> bytes; a bare number is returned as is with *had_unit false. */
static int parse_size(const char *s, u64 *val, bool *had_unit)
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
static int parse_positive(const char *s, u64 *val)
{
	char *end;

	errno = 0;
	*val = strtoull(s, &end, 10);
	return errno || end == s || *end || !*val || *s == '-' ? -EINVAL : 0;
}

static int parse_time_secs(const char *s, u64 *secs)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || !end[0] || end[1])
		return -EINVAL;
	switch (*end) {
	case 's': break;
	case 'm': v *= 60; break;
	case 'h': v *= 3600; break;
	case 'd': v *= 86400; break;
	default: return -EINVAL;
	}
	*secs = v;
	return v ? 0 : -EINVAL;
}

static int parse_switch_output(struct record_opts *opts, const char *arg)
{
	bool unit;
	u64 v;

	opts->switch_output = true;
	if (!arg || !strcmp(arg, "signal")) {
		opts->switch_output_signal = true;
		return 0;
	}
	if (parse_size(arg, &v, &unit) == 0 && unit && v) {
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

static bool is_power_of_2(u64 n)
{
	return n && !(n & (n - 1));
}

/* -m: pages (rounded up to a power of two, with a notice) or a size with a unit. */
static int parse_mmap_pages(struct record_opts *opts, const char *arg)
{
	long page_size = sysconf(_SC_PAGESIZE);
	bool unit;
	u64 v, pages;

	if (parse_size(arg, &v, &unit) < 0 || v == 0) {
		pr_err("Invalid -m/--mmap-pages value '%s': give a number of pages (e.g. 128) or "
		       "a size (e.g. 512K, 4M).\n", arg);
		return -EINVAL;
	}
	pages = unit ? (v + page_size - 1) / page_size : v;
	if (pages > (1ULL << 30) / page_size * 4) {
		pr_err("-m %s is too large: at most 4G per ring buffer.\n", arg);
		return -EINVAL;
	}
	if (!is_power_of_2(pages)) {
		u64 p = 1;

		while (p < pages)
			p <<= 1;
		if (!unit)
			fprintf(stderr, "rounding mmap pages size to %llu bytes (%llu pages)\n",
				(unsigned long long)(p * page_size), (unsigned long long)p);
		pages = p;
	}
	opts->mmap_pages = pages;
	return 0;
}

/*
 * Root can lock what it likes; others are bound by perf_event_mlock_kb
 * per CPU plus RLIMIT_MEMLOCK.  Everyone is bound by the memory there is.
 */
static int record__check_mmap_size(struct record *rec, int nr_buffers)
{
	long page_size = sysconf(_SC_PAGESIZE);
	u64 per_buf = (rec->opts.mmap_pages + 1) * page_size;
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

static int record__parse_options(struct record *rec, int argc, const char **argv)
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
		{ "overwrite",		no_argument,	   NULL, OPT_OVERWRITE },
		{ "no-overwrite",	no_argument,	   NULL, OPT_NO_OVERWRITE },
		{ "switch-output",	optional_argument, NULL, OPT_SWITCH_OUTPUT },
		{ "switch-max-files",	required_argument, NULL, OPT_SWITCH_MAX_FILES },
		{ "tail-synthesize",	no_argument,	   NULL, OPT_TAIL_SYNTH },
		{ "no-tail-synthesize",	no_argument,	   NULL, OPT_NO_TAIL_SYNTH },
		{ "sideband-max",	required_argument, NULL, OPT_SIDEBAND_MAX },
		{ "no-buildid",		no_argument,	   NULL, 'B' },
		{ "no-buildid-cache",	no_argument,	   NULL, 'N' },
		{ "buildid-all",	no_argument,	   NULL, OPT_BUILDID_ALL },
		{ "quiet",		no_argument,	   NULL, 'q' },
		{ "verbose",		no_argument,	   NULL, 'v' },
		{ "help",		no_argument,	   NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct record_opts *opts = &rec->opts;
	struct parse_events_error perr;
	int tail = -1, c, err;
	char *end;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, (char **)argv, "+:e:o:m:F:c:gaC:p:t:BNqvh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'e':
			memset(&perr, 0, sizeof(perr));
			err = parse_events(rec->evlist, optarg, &perr);
			if (err) {
				parse_events_error__print(&perr, optarg);
				parse_events_error__exit(&perr);
				fprintf(stderr, "Run 'perf list' for a list of valid events\n");
				return -EINVAL;
			}
			parse_events_error__exit(&perr);
			break;
		case 'o':
			opts->output = optarg;
			break;
		case 'm':
			if (parse_mmap_pages(opts, optarg))
				return -EINVAL;
			break;
		case 'F':
			if (parse_positive(optarg, &opts->freq)) {
				pr_err("Invalid -F/--freq value '%s': give a frequency in Hz, e.g. 999.\n",
				       optarg);
				return -EINVAL;
			}
			opts->user_freq = true;
			break;
		case 'c':
			if (parse_positive(optarg, &opts->period)) {
				pr_err("Invalid -c/--count value '%s': give a positive event count.\n",
				       optarg);
				return -EINVAL;
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
				return -EINVAL;
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
		case OPT_OVERWRITE:
			opts->overwrite = true;
			break;
		case OPT_NO_OVERWRITE:
			opts->overwrite = false;
			break;
		case OPT_SWITCH_OUTPUT:
			if (parse_switch_output(opts, optarg))
				return -EINVAL;
			break;
		case OPT_SWITCH_MAX_FILES:
			opts->switch_max_files = strtol(optarg, &end, 10);
			if (*end || opts->switch_max_files <= 0) {
				pr_err("Invalid --switch-max-files value '%s': give a positive number.\n",
				       optarg);
				return -EINVAL;
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
			if (parse_size(optarg, &v, &unit) || v < (1 << 20)) {
				pr_err("Invalid --sideband-max value '%s': give a size of at least 1M, "
				       "e.g. 64M.\n", optarg);
				return -EINVAL;
			}
			opts->sideband_max = v;
			break;
		}
		case 'B':
			opts->no_buildid = true;
			break;
		case 'N':
			opts->no_buildid_cache = true;
			break;
		case OPT_BUILDID_ALL:
			opts->buildid_all = true;
			break;
		case 'q':
			opts->quiet = true;
			quiet = 1;
			break;
		case 'v':
			verbose++;
			break;
		case 'h':
			usage_with_options(RECORD_USAGE, record_usage);
			return 1;
		case ':':
			pr_err("Option '%s' requires a value.\n", argv[optind - 1]);
			usage_with_options(RECORD_USAGE, record_usage);
			return -129;
		default:
			if (optopt)
				pr_err("Unknown option: -%c\n", optopt);
			else
				pr_err("Unknown option: %s\n", argv[optind - 1]);
			usage_with_options(RECORD_USAGE, record_usage);
			return -129;
		}
	}
	rec->argc = argc - optind;
	rec->argv = argv + optind;
	/* The header writer puts this binary's path in front of "record ...". */
	rec->cmdline = calloc(argc + 1, sizeof(*rec->cmdline));
	if (!rec->cmdline)
		return -ENOMEM;
	for (int i = 0; i < argc; i++)
		rec->cmdline[i] = argv[i];
	rec->cmdline_argc = argc;
	opts->workload = optind < argc;
	/* --overwrite wants the system described when each dump is taken. */
	opts->tail_synthesize = tail >= 0 ? tail : opts->overwrite;
	return 0;
}

/* ---- setting up ------------------------------------------------------ */

static int record__create_maps(struct record *rec)
{
	struct record_opts *opts = &rec->opts;
	struct cpu_map *cpus;
	struct thread_map *threads;

	if (opts->target_pid || opts->target_tid) {
		threads = thread_map__new_str(opts->target_pid, opts->target_tid);
		if (!threads) {
			pr_err("Cannot monitor %s %s: %s\n", opts->target_pid ? "process" : "thread",
			       opts->target_pid ? opts->target_pid : opts->target_tid,
			       errno == ESRCH ? "no such process (check the id with 'ps')" :
			       errno == EINVAL ? "not a comma-separated list of ids" :
			       strerror(errno));
			return -ESRCH;
		}
	} else if (opts->system_wide || opts->cpu_list) {
		threads = thread_map__new_dummy();
	} else {
		/* A forked workload, inherited by its children. */
		threads = thread_map__new_by_tid(rec->evlist->workload_pid);
	}
	/*
	 * Buffers are per CPU even for a task: the kernel will not mmap an
	 * inherited per-task event that is not bound to a CPU.
	 */
	if (opts->no_inherit && !opts->system_wide && !opts->cpu_list)
		cpus = cpu_map__dummy_new();
	else
		cpus = cpu_map__new(opts->cpu_list);
	if (!cpus || !threads) {
		if (!cpus && opts->cpu_list)
			pr_err("Invalid -C/--cpu list '%s': use a list like 0-3,7 of online CPUs.\n",
			       opts->cpu_list);
		else
			pr_err("Cannot build the CPU or thread map: %s\n", strerror(errno));
		cpu_map__put(cpus);
		thread_map__put(threads);
		return -EINVAL;
	}
	evlist__set_maps(rec->evlist, cpus, threads);
	cpu_map__put(cpus);
	thread_map__put(threads);
	return 0;
}

/*
 * Decides each event's buffer and the tracking event.  In overwrite mode a
 * dummy event in the forward stream carries the mmap/comm/task records, so
 * they are never overwritten and every dump can name its samples' tasks.
 */
static int record__setup_events(struct record *rec)
{
	struct record_opts *opts = &rec->opts;
	struct evsel *evsel, *tracking = NULL;
	bool any_overwrite = false;
	int err;

	if (rec->evlist->nr_entries == 0) {
		err = parse_events(rec->evlist, "cycles", NULL);
		if (err) {
			pr_err("Cannot set up the default event 'cycles': %s\n", strerror(-err));
			return err;
		}
	}
	evlist__for_each_entry(rec->evlist, evsel) {
		struct evsel_config_term *t;

		t = evsel__get_config_term(evsel, EVSEL__CONFIG_TERM_OVERWRITE);
		evsel->overwrite = t ? !!t->val.val : opts->overwrite;
		any_overwrite |= evsel->overwrite;
	}
	if (any_overwrite) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_SOFTWARE,
			.config = PERF_COUNT_SW_DUMMY,
		};

		tracking = evsel__new(&attr);
		if (!tracking || evsel__set_name(tracking, "dummy:u")) {
			evsel__delete(tracking);
			return -ENOMEM;
		}
		tracking->attr.exclude_kernel = 1;
		tracking->attr.exclude_hv = 1;
		evlist__add(rec->evlist, tracking);
	} else {
		tracking = evlist__first(rec->evlist);
	}
	tracking->tracking = true;
	evlist__for_each_entry(rec->evlist, evsel)
		evsel__config(evsel, opts);
	return 0;
}

static int record__open(struct record *rec)
{
	struct evsel *failed = NULL;
	char msg[512];
	int err;

	for (;;) {
		err = evlist__open(rec->evlist, &failed);
		if (!err)
			return 0;
		evlist__close(rec->evlist);
		if (failed && evsel__fallback(failed, err, msg, sizeof(msg))) {
			if (!rec->opts.quiet)
				fprintf(stderr, "%s\n", msg);
			/* The sampling rate a hardware event had suits cpu-clock as well. */
			continue;
		}
		break;
	}
	if (failed) {
		evsel__open_strerror(failed, err, msg, sizeof(msg));
		pr_err("%s\n", msg);
	} else {
		pr_err("Cannot open the events: %s\n", strerror(-err));
	}
	return err;
}

static int record__mmap_evlist(struct record *rec, struct evlist *evlist, size_t pages)
{
	int err = perf_evlist__mmap(evlist, pages);

	if (!err)
		return 0;
	if (err == -EPERM) {
		pr_err("Permission error mapping pages.\n"
		       "Consider increasing /proc/sys/kernel/perf_event_mlock_kb,\n"
		       "or try again with a smaller value of -m/--mmap_pages.\n"
		       "(current value: %zu)\n", rec->opts.mmap_pages);
	} else if (evlist->overwrite && (err == -EINVAL || err == -ENOSYS)) {
		pr_err("Unable to read from overwrite ring buffer: %s\n"
		       "The kernel must support write_backward (Linux 4.7 or later).\n",
		       strerror(-err));
		err = -ENOSYS;
	} else {
		pr_err("Failed to mmap with %d (%s)\n", -err, strerror(-err));
	}
	return err;
}

static int record__mmap(struct record *rec)
{
	size_t fwd_pages = rec->opts.mmap_pages;
	bool any_overwrite = false, only_tracking = true;
	struct evsel *evsel;
	int nr, err;

	evlist__for_each_entry(rec->evlist, evsel) {
		any_overwrite |= evsel->overwrite;
		only_tracking &= evsel->overwrite || evsel->tracking;
	}
	nr = rec->evlist->per_cpu ? rec->evlist->cpus->nr : rec->evlist->threads->nr;
	err = record__check_mmap_size(rec, nr * (any_overwrite ? 2 : 1));
	if (err)
		return err;
	/*
	 * A small -m is meant for the overwrite buffers.  The forward one then
	 * carries only the tracking stream, which a burst of forks or mmaps
	 * would overflow (the lost records are then in every dump): it gets the
	 * default size at least, where locked memory is not limited (root).
	 */
	if (any_overwrite && only_tracking && geteuid() == 0)
		fwd_pages = max_t(size_t, fwd_pages, DEFAULT_MMAP_BYTES / sysconf(_SC_PAGESIZE));
	err = record__mmap_evlist(rec, rec->evlist, fwd_pages);
	if (err)
		return err;
	if (!any_overwrite)
		return 0;
	rec->overwrite_evlist = perf_evlist__new_aux(rec->evlist);
	if (!rec->overwrite_evlist)
		return -ENOMEM;
	err = record__mmap_evlist(rec, rec->overwrite_evlist, rec->opts.mmap_pages);
	if (err)
		return err;
	rec->snaps = calloc(rec->overwrite_evlist->nr_mmaps, sizeof(*rec->snaps));
	if (!rec->snaps)
		return -ENOMEM;
	/* The copies' pages are touched now so a dump's copy takes no page faults. */
	for (int i = 0; i < rec->overwrite_evlist->nr_mmaps; i++) {
		struct perf_mmap *map = &rec->overwrite_evlist->mmap[i];

		if (!map->base)
			continue;
		rec->snaps[i].buf = malloc(map->mask + 1);
		if (!rec->snaps[i].buf)
			return -ENOMEM;
		memset(rec->snaps[i].buf, 0, map->mask + 1);
		rec->snaps[i].cap = map->mask + 1;
		/* And the ring buffer's own pages (MAP_POPULATE does not reach them all). */
		for (size_t off = 0; off <= map->mask; off += 4096)
			(void)*(volatile unsigned char *)((char *)perf_mmap__data(map) + off);
	}
	rec->overwrite_evt_state = OVERWRITE_RUNNING;
	return 0;
}

/*
 * Overwrite mode: the process table starts from what /proc says now.  The
 * tracking event is already on, so a task born meanwhile is seen twice;
 * its entry from /proc then ends where the one from its FORK begins.
 */
static int record__setup_sideband(struct record *rec)
{
	struct synth_ctx ctx = record__synth_ctx(rec, record__seed_sideband);

	rec->sideband = sideband__new(rec->opts.sideband_max);
	if (!rec->sideband)
		return -ENOMEM;
	record__synthesize_tasks(rec, &ctx);
	return 0;
}

static void record__install_signals(struct record *rec, sigset_t *loop_mask)
{
	struct sigaction sa = { .sa_flags = 0 };
	sigset_t block;

	sigemptyset(&sa.sa_mask);
	sa.sa_handler = sig_done;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = sig_child;
	sigaction(SIGCHLD, &sa, NULL);
	if (rec->opts.switch_output_signal) {
		sa.sa_handler = sig_switch;
		sigaction(SIGUSR2, &sa, NULL);
	}
	if (rec->opts.switch_output_time) {
		sa.sa_handler = sig_alarm;
		sigaction(SIGALRM, &sa, NULL);
	}
	/* Signals are taken only inside ppoll(), so none is missed before it sleeps. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGUSR2);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, loop_mask);
}

/* ---- the main loop --------------------------------------------------- */

static int record__serve_switch(struct record *rec)
{
	u64 t0, t1;
	int err;

	/* The paused buffers were copied: let the kernel go on before the disk write. */
	err = record__toggle_overwrite(rec, OVERWRITE_RUNNING);
	if (err)
		return err;
	t0 = now_ns();
	err = record__write_dump_data(rec);
	if (err)
		return err;
	/* Whatever the buffers hold from now on is newer than all we have seen. */
	rec->dump_bound = rec->t_seen;
	t1 = now_ns();
	err = record__switch_output(rec, false);
	if (err)
		return err;
	pr_debug2("dump: writing the copies %.1f ms, finishing and switching the file %.1f ms\n",
		  (t1 - t0) / 1e6, (now_ns() - t1) / 1e6);
	if (rec->opts.switch_output_time)
		alarm(rec->opts.switch_output_time);
	trigger_ready(&rec->switch_trigger);
	return 0;
}

static int record__loop(struct record *rec, const sigset_t *loop_mask)
{
	struct record_opts *opts = &rec->opts;
	int err;

	for (;;) {
		int nr;

		if (switch_requested) {
			switch_requested = 0;
			trigger_hit(&rec->switch_trigger);
		}
		if (alarm_fired) {
			alarm_fired = 0;
			trigger_hit(&rec->switch_trigger);
		}
		if (opts->switch_output_size && rec->bytes_written >= opts->switch_output_size)
			trigger_hit(&rec->switch_trigger);

		if (trigger_is_hit(&rec->switch_trigger) || done) {
			err = record__toggle_overwrite(rec, OVERWRITE_DATA_PENDING);
			if (err)
				return err;
		}
		{
			u64 before = rec->bytes_written;
			u64 busy = min_t(u64, RECORD_BUSY_BYTES, rec->evlist->mmap_len / 8);

			nr = record__mmap_read_all(rec);
			if (nr < 0)
				return nr;
			if (rec->bytes_written - before < busy)
				nr = 0;
		}

		if (trigger_is_hit(&rec->switch_trigger)) {
			/* The request came after this pass paused nothing: read again. */
			if (rec->overwrite_evlist &&
			    rec->overwrite_evt_state == OVERWRITE_RUNNING)
				continue;
			err = record__serve_switch(rec);
			if (err)
				return err;
			continue;
		}
		if (done)
			break;
		if (nr > 0) {
			/*
			 * Busy buffers keep us from sleeping in ppoll(): open the
			 * signal mask for an instant so SIGINT, SIGCHLD and SIGUSR2
			 * are still taken (a system-wide syscall trace of our own
			 * writes never runs dry).
			 */
			struct timespec zero = { 0, 0 };

			ppoll(NULL, 0, &zero, loop_mask);
			if (child_exited) {
				record__reap_workload(rec, false);
				done = 1;
			}
			continue;
		}

		{
			struct timespec ts = { .tv_sec = 0, .tv_nsec = 500 * 1000000 };
			struct fdarray *fda = &rec->evlist->pollfd;
			int n = ppoll(fda->entries, fda->nr, &ts, loop_mask);

			if (n >= 0) {
				rec->wakeups++;
				rec->dump_wakeups++;
			}
			if (n > 0) {
				/* Threads that exited: their buffers go once drained. */
				if (perf_evlist__filter_pollfd(rec->evlist, POLLERR | POLLHUP) == 0 &&
				    !opts->system_wide && !opts->cpu_list)
					done = 1;
			} else if (n < 0 && errno != EINTR) {
				pr_err("poll failed: %s\n", strerror(errno));
				return -errno;
			}
		}
		if (child_exited) {
			record__reap_workload(rec, false);
			done = 1;
		}
	}
	return 0;
}

static void record__print_summary(struct record *rec)
{
	if (rec->opts.quiet)
		return;
	if (rec->lost_events > rec->lost_paused)
		fprintf(stderr, "Warning:\nThe kernel lost %llu events in %llu chunks: the ring "
			"buffers filled up. Try a bigger -m or a lower -F.\n",
			(unsigned long long)(rec->lost_events - rec->lost_paused),
			(unsigned long long)rec->lost_chunks);
	if (rec->lost_paused)
		fprintf(stderr, "[ perf record: %llu events were not recorded while the overwrite "
			"buffers were paused for dumps ]\n", (unsigned long long)rec->lost_paused);
	if (rec->overwrite_evlist && rec->pause_ns_max)
		pr_debug("overwrite buffers paused %.3f ms at most, %.3f ms in all\n",
			 rec->pause_ns_max / 1e6, rec->pause_ns_total / 1e6);
	if (rec->sideband) {
		const struct sideband_stats *st = sideband__stats(rec->sideband);

		pr_debug("process table: %llu records, %llu tasks held, %llu KB (peak %llu KB of "
			 "%llu KB), %llu tasks pruned, %llu superseded records trimmed\n",
			 (unsigned long long)st->records,
			 (unsigned long long)st->tasks, (unsigned long long)(st->bytes >> 10),
			 (unsigned long long)(st->peak_bytes >> 10),
			 (unsigned long long)(rec->opts.sideband_max >> 10),
			 (unsigned long long)st->pruned, (unsigned long long)st->trimmed);
		if (st->evicted || st->dropped || rec->sideband_errors)
			fprintf(stderr, "Warning:\nThe process table reached --sideband-max=%lluK: "
				"%llu exited tasks evicted, %llu records dropped%s; some samples "
				"may lack their task's name or maps. Give a larger --sideband-max.\n",
				(unsigned long long)(rec->opts.sideband_max >> 10),
				(unsigned long long)st->evicted, (unsigned long long)st->dropped,
				rec->sideband_errors ? " (and some out of memory)" : "");
	}
}

int cmd_record(int argc, const char **argv)
{
	struct record rec = {
		.opts = {
			.output = "perf.data",
			.freq = 4000,
			.stack_size = 8192,
			.sideband_max = DEFAULT_SIDEBAND_MAX,
		},
		.exec_fail_fd = -1,
	};
	struct record_opts *opts = &rec.opts;
	sigset_t loop_mask;
	int err, status = 1;

	rec.evlist = evlist__new();
	if (!rec.evlist) {
		pr_err("Out of memory\n");
		return 1;
	}
	err = record__parse_options(&rec, argc, argv);
	if (err) {
		status = err == 1 ? 0 : err == -129 ? 129 : 1;
		goto out_delete;
	}
	if (!opts->workload && !opts->system_wide && !opts->cpu_list && !opts->target_pid &&
	    !opts->target_tid) {
		pr_err("Nothing to record: give a command to run, or -a, -C, -p or -t.\n");
		usage_with_options(RECORD_USAGE, record_usage);
		status = 129;
		goto out_delete;
	}
	if (!strcmp(opts->output, "-")) {
		pr_err("Writing to a pipe (-o -) is not supported yet: give a file name.\n");
		goto out_delete;
	}
	if (opts->switch_max_files && !opts->switch_output) {
		pr_err("--switch-max-files needs --switch-output.\n");
		goto out_delete;
	}
	if (!opts->mmap_pages) {
		long ps = sysconf(_SC_PAGESIZE);

		opts->mmap_pages = DEFAULT_MMAP_BYTES / ps;
	}
	if (opts->workload) {
		err = workload__check(rec.argv[0]);
		if (err) {
			pr_err("Cannot run '%s': %s\nCheck the command name and your PATH.\n",
			       rec.argv[0], strerror(-err));
			goto out_delete;
		}
	}

	err = record__setup_events(&rec);
	if (err)
		goto out_delete;
	if (opts->workload) {
		err = record__prepare_workload(&rec);
		if (err) {
			pr_err("Cannot start the workload: %s\n", strerror(-err));
			goto out_delete;
		}
	}
	err = record__create_maps(&rec);
	if (err)
		goto out_kill;
	err = record__open(&rec);
	if (err)
		goto out_kill;
	err = record__mmap(&rec);
	if (err)
		goto out_kill;
	rec.wbuf = malloc(RECORD_WBUF_SIZE);
	if (!rec.wbuf || (rec.overwrite_evlist && record__setup_sideband(&rec))) {
		pr_err("Out of memory\n");
		goto out_kill;
	}

	/* Only now, with everything working, is an existing file moved aside. */
	err = record__open_output(&rec);
	if (err) {
		record__abandon_output(&rec);
		goto out_kill;
	}

	/* Tail synthesis runs in every dump: read kallsyms now, not then. */
	if (opts->tail_synthesize) {
		struct synth_ctx prime = { .process = record__discard_synth };

		perf_event__synthesize_kernel_mmap(&prime);
	}
	if (opts->switch_output)
		trigger_on(&rec.switch_trigger);
	record__install_signals(&rec, &loop_mask);
	if (opts->switch_output_time)
		alarm(opts->switch_output_time);

	/* Per-task counters of a workload start at its exec; others start now. */
	if (!opts->workload || opts->system_wide || opts->cpu_list)
		evlist__enable(rec.evlist);
	if (opts->workload) {
		err = record__start_workload(&rec);
		if (err) {
			record__abandon_output(&rec);
			goto out_kill;
		}
	}

	err = record__loop(&rec, &loop_mask);
	if (!err) {
		/* Last pass: stop the counters, read everything, backward buffers too. */
		evlist__disable(rec.evlist);
		err = record__toggle_overwrite(&rec, OVERWRITE_DATA_PENDING);
		if (!err)
			err = record__mmap_read_all(&rec) < 0 ? -EIO : 0;
		if (!err)
			err = record__write_dump_data(&rec);
	}
	if (!err) {
		if (opts->switch_output) {
			err = record__switch_output(&rec, true);
		} else {
			err = record__finish_output(&rec);
			if (!err) {
				perf_data__close(&rec.data);
				rec.file_open = false;
				if (!opts->quiet)
					fprintf(stderr, "[ perf record: Woken up %llu times to write data ]\n",
						(unsigned long long)rec.wakeups);
				record__print_written(&rec, opts->output);
			}
		}
	}
	if (err) {
		record__abandon_output(&rec);
		goto out_kill;
	}
	record__print_summary(&rec);
	perf_header_info__exit(&rec.hinfo);
	record__reap_workload(&rec, true);
	status = opts->workload ? rec.workload_status : 0;
	goto out_delete;

out_kill:
	record__kill_workload(&rec);
out_delete:
	if (rec.snaps) {
		for (int i = 0; i < rec.overwrite_evlist->nr_mmaps; i++)
			free(rec.snaps[i].buf);
		free(rec.snaps);
	}
	evlist__delete(rec.overwrite_evlist);
	evlist__delete(rec.evlist);
	sideband__delete(rec.sideband);
	free(rec.wbuf);
	free(rec.last_dump_name);
	free(rec.cmdline);
	return status;
}
