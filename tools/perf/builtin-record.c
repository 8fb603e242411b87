/*
 * perf record: open the events, map their ring buffers, and stream what the
 * kernel writes into a perf.data file.
 *
 * With --overwrite (or an ev/overwrite/ term) events go to backward,
 * read-only buffers that the kernel keeps overwriting and nothing reads
 * until a dump is asked for (SIGUSR2 with --switch-output, a size or time
 * threshold, or the end of recording).  Those buffers, the dump and the
 * process table that names their tasks are util/flight-recorder's; this
 * file tells the story of the command: options, open, loop, output files.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "builtin.h"
#include "perf.h"
#include "util/bpf-info.h"
#include "util/control.h"
#include "util/build-id.h"
#include "util/debug.h"
#include "util/dump-request.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/flight-recorder.h"
#include "util/header.h"
#include "util/record-events.h"
#include "util/record-opts.h"
#include "util/record-output.h"
#include "util/record-read.h"
#include "util/off-cpu.h"
#include "util/record-signals.h"
#include "util/run-command.h"
#include "util/session.h"
#include "util/synthetic-events.h"
#include "util/trigger.h"

/* The workload's name until its exec. */
#define WORKLOAD_COMM		"perf-exec"

struct record {
	struct record_opts opts;
	struct evlist *evlist;
	struct flight_recorder *fr;		/* --overwrite: the backward buffers, or NULL */
	struct off_cpu *off_cpu;		/* --off-cpu: its BPF program, or NULL */
	struct flight_recorder_dump dump;	/* what the last dump held */
	u64 failed_dumps;
	struct record_output out;		/* the current file, its header and buffers */
	struct record_read read;		/* the forward buffers into it */
	bool exiting;				/* the last file: no next one after it */
	int argc;
	const char **argv;			/* the workload */
	int cmdline_argc;
	const char **cmdline;			/* "perf record ...", for the CMDLINE feature */
	struct child_process workload;		/* held from its fork until the events are open */
	sigset_t child_dfl;			/* SIGINT and SIGTERM: its own defaults while held */
	sigset_t start_mask;			/* the mask perf was started with: the workload's */
	sigset_t loop_mask;			/* the loop's inside ppoll(): that, SIGUSR2 open */

	u64 wakeups, dump_wakeups;
	/*
	 * Dump requests (SIGUSR2, size, time, 'snapshot', --switch-output-event)
	 * set the trigger; the dump is taken at dump_at, when the post-trigger
	 * window (--switch-output-delay) has passed.  A request that comes
	 * while one waits joins it.
	 */
	struct trigger switch_trigger;
	u64 dump_at;				/* CLOCK_MONOTONIC ns, valid while hit */
	struct dump_request request;		/* the first request of the window, for the header */
	bool delay_warned;			/* --switch-output-delay outlasts the buffers */
	u64 requests, requests_served;		/* --switch-output-event samples */
	u64 triggered_dumps;			/* the dumps they asked for */
	struct control ctl;
	char *last_file;			/* the file the last dump completed, absolute */
	bool enabled;				/* the recorded events (not -D, not 'disable') */
	u64 enable_at;				/* -D MSECS: when to enable them; 0 if not waiting */
};

/* ---- synthesized records --------------------------------------------- */

/* A synthesized record into the current file. */
static int record__process_synth(void *arg, union perf_event *event)
{
	struct record *rec = arg;

	return record_output__write_event(&rec->out, event);
}

static int record__discard_synth(void *arg, union perf_event *event)
{
	return 0;
}

/*
 * A dump's tail synthesis leaves out the processes its process table
 * wrote into the file: they are described there, with the time of each
 * change.  Their state read from /proc now, at time 0 (which readers apply
 * before any timed record), would give their older samples today's name
 * and maps.  They are not even read: reading all of /proc took 11 to 36
 * ms of each dump here (some 100 processes), the rest of it 1 ms.
 */
static bool record__described(void *arg, pid_t pid)
{
	struct record *rec = arg;

	return flight_recorder__described(rec->fr, pid);
}

static struct synth_ctx record__synth_ctx(struct record *rec, perf_event__handler_t process)
{
	struct synth_ctx ctx = {
		.process = process,
		.arg = rec,
		.sample_id_all = true,
		.sample_type = evlist__first(rec->evlist)->attr.sample_type,
		.id = 0,	/* synthesized records carry id 0: readers use the first attr */
		.data_maps = rec->opts.sample_address,
	};

	return ctx;
}

/*
 * The processes being recorded, as /proc has them now.  A workload not yet
 * released is still a copy of perf, whose maps mean nothing once it execs
 * (and mislead unwinders, which would find perf's libraries where the
 * program's are): its name alone, as the distro writes it.
 */
static int record__synthesize_tasks(struct record *rec, struct synth_ctx *ctx)
{
	if (rec->opts.system_wide || rec->opts.cpu_list)
		return perf_event__synthesize_threads(ctx);
	if (record_opts__follows_workload(&rec->opts) && child_process__held(&rec->workload))
		return perf_event__synthesize_comm(ctx, rec->workload.pid, WORKLOAD_COMM);
	return perf_event__synthesize_thread_map(ctx, rec->evlist->threads);
}

static int record__seed_table(void *arg, union perf_event *event)
{
	struct record *rec = arg;

	flight_recorder__seed(rec->fr, event);
	return 0;
}

/* The output could not take a record: unlike a process that vanished, fatal. */
static bool record__write_failed(int err)
{
	return err == -ENOSPC || err == -EIO || err == -EFBIG;
}

static int record__synthesize(struct record *rec)
{
	struct synth_ctx ctx = record__synth_ctx(rec, record__process_synth);
	int err;

	if (rec->fr)
		ctx.skip = record__described;

	err = perf_event__synthesize_kernel_mmap(&ctx);
	if (err)
		pr_debug("Could not synthesize the kernel map: %s\n", strerror(-err));
	err = perf_event__synthesize_modules(&ctx);
	if (err)
		pr_debug("Could not synthesize module maps: %s\n", strerror(-err));

	/*
	 * BPF programs loaded before us: named in the file as the kernel names
	 * them.  A flight recorder's dumps take them from its process table.
	 */
	if (!rec->fr) {
		err = perf_event__synthesize_bpf_progs(&ctx);
		if (record__write_failed(err))
			return err;
	}
	err = record__synthesize_tasks(rec, &ctx);
	return record__write_failed(err) ? err : 0;
}

/* ---- the output file ------------------------------------------------- */

static int record__open_output(struct record *rec)
{
	int err = record_output__begin(&rec->out, rec->evlist, &rec->opts, rec->cmdline_argc,
				       rec->cmdline);

	if (!err && !rec->opts.tail_synthesize)
		err = record__synthesize(rec);
	return err;
}

/* The tail records, the features and the final header of the current file. */
static int record__finish_output(struct record *rec)
{
	int err = 0;

	u64 t0 = now_ns(), t1;

	/* A dump's is at its head (record__dump_head()). */
	if (rec->opts.tail_synthesize && !rec->fr)
		err = record__synthesize(rec);
	t1 = now_ns();
	if (!err)
		err = record_output__finish(&rec->out, rec->evlist);
	pr_debug2("finish: synthesizing %.1f ms, features %.1f ms\n", (t1 - t0) / 1e6,
		  (now_ns() - t1) / 1e6);
	if (err)
		pr_err("Cannot finish %s: %s\n", rec->out.data.path, strerror(-err));
	return err;
}

/* The dump just completed, announced; and said once if it came too late to hold its cause. */
static void record__announce_dump(struct record *rec, const char *name)
{
	const struct clock_ref *tod = rec->out.hinfo.use_clockid ? &rec->out.hinfo.clock : NULL;

	dump_request__print_served(stderr, &rec->request, name, rec->fr ? &rec->dump : NULL,
				   rec->out.samples, tod);
	if (!rec->delay_warned)
		rec->delay_warned = dump_request__warn_delay(stderr, name,
							     rec->opts.switch_output_delay_ms,
							     rec->dump.held_ns);
}

/* What a 'snapshot' is answered with: the completed file, by its absolute name. */
static void record__remember_file(struct record *rec, const char *name)
{
	free(rec->last_file);
	rec->last_file = realpath(name, NULL);
	if (!rec->last_file)
		rec->last_file = strdup(name);
}

static int record__write_off_cpu_sample(void *arg, const union perf_event *event)
{
	struct record *rec = arg;

	return record_output__write_event(&rec->out, event);
}

/*
 * The off-CPU sums since the last file as samples of offcpu-time, after its
 * other records, at the time of the latest of them: the sums run up to now,
 * and a reader keeps samples of one time in the order written.
 */
static int record__write_off_cpu(struct record *rec)
{
	int nr = off_cpu__write(rec->off_cpu, rec->evlist, rec->out.hinfo.last_time,
				record__write_off_cpu_sample, rec);

	if (nr < 0 && nr != -EINVAL)
		pr_err("Cannot write the off-CPU samples: %s\n", strerror(-nr));
	pr_debug("off-cpu: %d samples\n", nr);
	return nr < 0 ? nr : 0;
}

/*
 * Completes the current file: its tail records and header, and with
 * --switch-output its timestamped name.  The next file is the caller's.
 */
static int record__end_file(struct record *rec)
{
	char *name = NULL;
	int err = rec->off_cpu ? record__write_off_cpu(rec) : 0;

	if (!err)
		err = record__finish_output(rec);
	if (err)
		return err;
	if (!rec->opts.switch_output) {
		record_output__close(&rec->out);
		if (!rec->opts.quiet) {
			fprintf(stderr, "[ perf record: Woken up %llu times to write data ]\n",
				(unsigned long long)rec->wakeups);
			record_output__print_written(&rec->out, rec->opts.output);
		}
		record__remember_file(rec, rec->opts.output);
		record_output__trim_cache(&rec->out, rec->opts.output);
		return 0;
	}
	err = record_output__rename(&rec->out, !rec->exiting, &name);
	if (err)
		return err;
	record__remember_file(rec, name);
	if (!rec->opts.quiet) {
		if (rec->exiting) {
			record_output__print_written(&rec->out, name);
		} else {
			fprintf(stderr, "[ perf record: dump data: Woken up %llu times ]\n",
				(unsigned long long)rec->dump_wakeups);
			record__announce_dump(rec, name);
		}
	}
	rec->dump_wakeups = 0;
	perf_header_info__exit(&rec->out.hinfo);
	record_output__rotate(&rec->out, rec->opts.switch_max_files);
	/* After the rotation: a dump it removed no longer keeps its entries. */
	record_output__trim_cache(&rec->out, name);
	free(name);
	return 0;
}

static void record__request_dump(struct record *rec, enum dump_request_kind kind);

/* The flight recorder's writer: the current file. */
static int record__dump_write(void *arg, const void *buf, size_t size)
{
	struct record *rec = arg;

	return record_output__write(&rec->out, buf, size);
}

/*
 * Which files the dump's samples fell into, for BUILD_ID and the build-id
 * cache; the sample times and the latest record time.
 */
static void record__dump_note(void *arg, const union perf_event *event)
{
	struct record *rec = arg;

	perf_header_info__note_event(&rec->out.hinfo, event);
}

/*
 * The tail synthesis of a dump, of time 0: ahead of its records of real
 * times, which readers may have flushed before they would meet it.
 */
static int record__dump_head(void *arg)
{
	struct record *rec = arg;
	u64 t0 = now_ns();
	int err = rec->opts.tail_synthesize ? record__synthesize(rec) : 0;

	pr_debug2("dump head: synthesizing %.1f ms\n", (now_ns() - t0) / 1e6);
	return err;
}

static int record__dump_finish(void *arg, const struct flight_recorder_dump *d)
{
	struct record *rec = arg;

	rec->dump = *d;
	rec->out.samples += d->samples;
	return record__end_file(rec);
}

/*
 * A flight recorder outlives a dump it could not take: the disk filled,
 * the directory went, a rename was refused.  The dump's records stay in the
 * ring buffers and go into the next dump, as far as those still hold them.
 * Only the exit dump, or a plain recording, ends with the error.
 */
static int record__dump_failed(struct record *rec, int err)
{
	bool kept = rec->out.kept;

	rec->out.kept = false;
	if (!rec->fr || !rec->opts.switch_output)
		return err;
	rec->failed_dumps++;
	if (rec->exiting)
		return err;
	if (kept)
		pr_err("Earlier dumps are untouched; recording goes on.\n");
	else
		pr_err("The dump was dropped; its events stay in the ring buffers for the next "
		       "dump, as far as they still hold them. Earlier dumps are untouched; "
		       "recording goes on.\n");
	return 0;
}

/*
 * Takes a dump: the flight recorder's buffers and process table, or what
 * was streamed so far, into the current file, which is then completed; with
 * --switch-output a new one is started unless this is the end.
 */
static int record__dump(struct record *rec)
{
	struct flight_recorder_writer w = {
		.write = record__dump_write,
		.event = record__process_synth,
		.head = record__dump_head,
		.note = record__dump_note,
		.finish = record__dump_finish,
		.arg = rec,
	};
	int err = 0;

	if (rec->fr) {
		rec->wakeups++;
		rec->dump_wakeups++;
	}
	/* A failed dump left no file; the next one needs a file again. */
	if (!rec->out.open)
		err = record__open_output(rec);
	if (rec->opts.switch_output) {
		/* A request still waiting is the one the exit dump serves. */
		if (rec->exiting && !trigger_is_hit(&rec->switch_trigger))
			record__request_dump(rec, DUMP_REQUEST_EXIT);
		rec->out.hinfo.request = &rec->request;
	}
	if (!err)
		err = rec->fr ? flight_recorder__dump(rec->fr, &w) : record__end_file(rec);
	if (!err && !rec->exiting && rec->opts.switch_output)
		err = record__open_output(rec);
	memset(&rec->request, 0, sizeof(rec->request));
	if (err) {
		record_output__abandon(&rec->out);
		control__answer_snapshots(&rec->ctl, NULL);
		return record__dump_failed(rec, err);
	}
	control__answer_snapshots(&rec->ctl, rec->last_file);
	return 0;
}

/* ---- requests, the control channel, -D --------------------------------- */

/*
 * A request for a dump.  Without --switch-output there is no next file to
 * go on with, so there is nothing to do.  The first request opens the
 * post-trigger window; those that come before it closes join its dump.
 */
static void record__request_dump(struct record *rec, enum dump_request_kind kind)
{
	if (!trigger_is_ready(&rec->switch_trigger)) {
		/* A size reached is seen again at every pass until the dump: not a new request. */
		if (trigger_is_hit(&rec->switch_trigger) && kind != DUMP_REQUEST_SIZE)
			rec->request.joined++;
		return;
	}
	trigger_hit(&rec->switch_trigger);
	/* Swap mode: the window fills the spares, the past is kept as it is now. */
	if (rec->fr && rec->opts.switch_output_delay_ms && flight_recorder__freeze(rec->fr))
		pr_debug("some overwrite buffers go on through the window: their past may be lost\n");
	rec->dump_at = now_ns() + rec->opts.switch_output_delay_ms * 1000000ULL;
	memset(&rec->request, 0, sizeof(rec->request));
	rec->request.kind = kind;
	if (kind == DUMP_REQUEST_SIZE)
		rec->request.threshold = rec->opts.switch_output_size;
	else if (kind == DUMP_REQUEST_TIME)
		rec->request.threshold = rec->opts.switch_output_time;
}

/*
 * 'enable', 'disable' and -D act on the recorded events only: the tracking
 * dummy of the process table and the --switch-output-event triggers keep
 * running, so a dump after 'enable' still names its tasks.
 */
static void record__enable(struct record *rec, bool on)
{
	struct evsel *evsel;

	evlist__for_each_entry(rec->evlist, evsel) {
		if (evsel->tracking && evsel__is_dummy(evsel))
			continue;
		evsel__enable(evsel, on);
	}
	if (on && rec->fr)
		flight_recorder__events_enabled(rec->fr);
	rec->enabled = on;
	rec->enable_at = 0;
	if (!rec->opts.quiet)
		fprintf(stderr, on ? "Events enabled\n" : "Events disabled\n");
}

static void record__control_enable(void *arg, bool on)
{
	struct record *rec = arg;

	if (rec->enabled != on)
		record__enable(rec, on);
}

/* Without --switch-output there is no dump to take. */
static bool record__control_snapshot(void *arg)
{
	struct record *rec = arg;

	if (!rec->opts.switch_output)
		return false;
	record__request_dump(rec, DUMP_REQUEST_CONTROL);
	return true;
}

static void record__control_stop(void *arg)
{
	record_signals.done = 1;
}

static void record__control_evlist(void *arg, bool verbose)
{
	struct record *rec = arg;

	evlist__fprintf_events(stdout, rec->evlist, verbose);
	fflush(stdout);
}

/* Every command that has arrived, each answered (a snapshot once its file is complete). */
static void record__serve_control(struct record *rec)
{
	const struct control_ops ops = {
		.enable = record__control_enable,
		.snapshot = record__control_snapshot,
		.stop = record__control_stop,
		.evlist = record__control_evlist,
		.arg = rec,
	};

	control__serve(&rec->ctl, &ops);
}

/* ---- reading the ring buffers ---------------------------------------- */

/*
 * Below this many bytes in a pass (or an eighth of a buffer, for small
 * buffers) the loop sleeps until a buffer reaches its wakeup watermark.
 * Draining a trickle at once would make a system-wide syscall trace feed
 * on our own small writes.
 */
#define RECORD_BUSY_BYTES (64 * 1024)

/* A sample of a --switch-output-event (NULL: some were lost) asks for a dump. */
static void record__trigger(void *arg, struct evlist *triggers, const union perf_event *event)
{
	struct record *rec = arg;
	bool opens = trigger_is_ready(&rec->switch_trigger);

	rec->requests++;
	record__request_dump(rec, DUMP_REQUEST_TRIGGER);
	if (event && opens)
		dump_request__describe(&rec->request, triggers, event, rec->fr);
}

/*
 * One pass over the forward buffers.  The tracking stream wakes a flight
 * recorder often, for its process table: "Woken up N times" counts only
 * the passes that wrote into the file, and the dumps.  Returns how many
 * buffers gave data, or -errno.
 */
static int record__mmap_read_all(struct record *rec)
{
	u64 before = rec->out.bytes_written;
	int nr = record_read__all(&rec->read);

	if (nr >= 0 && rec->fr && rec->out.bytes_written != before) {
		rec->wakeups++;
		rec->dump_wakeups++;
	}
	return nr;
}

/* ---- options --------------------------------------------------------- */

/*
 * The options, from record_opts__parse()'s table.  1: the command ends
 * here with *status (its usage or what was wrong said).
 */
static int record__parse_options(struct record *rec, int argc, const char **argv, int *status)
{
	int left;

	/* The header writer puts this binary's path in front of "record ...". */
	rec->cmdline = calloc(argc + 1, sizeof(*rec->cmdline));
	if (!rec->cmdline) {
		*status = cmd_exit_status(-ENOMEM);
		return 1;
	}
	/* Before parsing, which moves the workload's words to the front. */
	for (int i = 0; i < argc; i++)
		rec->cmdline[i] = argv[i];
	rec->cmdline_argc = argc;
	left = record_opts__parse(&rec->opts, rec->evlist, argc, argv, status);
	if (left < 0)
		return 1;
	rec->argc = left;
	rec->argv = argv;
	return 0;
}

/* ---- setting up ------------------------------------------------------ */

/*
 * Overwrite mode: the process table starts from what /proc says now.  The
 * tracking event is already on, so a task born meanwhile is seen twice;
 * its entry from /proc then ends where the one from its FORK begins.
 */
static void record__seed_process_table(struct record *rec)
{
	struct synth_ctx ctx = record__synth_ctx(rec, record__seed_table);

	perf_event__synthesize_bpf_progs(&ctx);
	record__synthesize_tasks(rec, &ctx);
}

/* The ring buffers; with --overwrite the flight recorder's, and its process table seeded. */
static int record__mmap(struct record *rec)
{
	bool any_overwrite;
	int err;

	err = record_events__mmap(rec->evlist, &rec->opts, &any_overwrite);
	if (err)
		return err;
	if (!any_overwrite)
		return 0;
	rec->fr = flight_recorder__new(rec->evlist, rec->opts.sideband_max);
	if (!rec->fr)
		return record_events__mmap_error(&rec->opts, -ENOMEM, true);
	if (rec->off_cpu)
		flight_recorder__describe_since_dump(rec->fr);
	err = flight_recorder__mmap(rec->fr, rec->opts.mmap_pages, !rec->opts.dump_pause);
	if (err)
		return record_events__mmap_error(&rec->opts, err, true);
	record__seed_process_table(rec);
	return 0;
}

/* ---- the main loop --------------------------------------------------- */

/* --switch-output=SIZE: what the current file holds, or in overwrite mode will hold. */
static bool record__size_reached(struct record *rec)
{
	u64 size = rec->opts.switch_output_size, bytes = rec->out.bytes_written;

	if (!size)
		return false;
	if (rec->fr)
		bytes += flight_recorder__pending_bytes(rec->fr);
	return bytes >= size;
}

/*
 * The buffer entries left in the pollfd array that poll() watches (the
 * control channel is not one, nor an overwrite buffer's fd -1 entry).
 */
static int record__buffers_polled(struct record *rec)
{
	struct fdarray *fda = &rec->evlist->pollfd;
	int n = 0;

	for (int i = 0; i < fda->nr; i++)
		n += fda->priv[i].ptr != NULL && fda->entries[i].fd >= 0;
	return n;
}

/* Nanoseconds until the next thing the loop must do on time, at most half a second. */
static u64 record__timeout(struct record *rec, bool busy)
{
	u64 t = busy ? 0 : 500 * 1000000ULL, now;

	if (!trigger_is_hit(&rec->switch_trigger) && !rec->enable_at)
		return t;
	now = now_ns();
	if (trigger_is_hit(&rec->switch_trigger))
		t = min_t(u64, t, rec->dump_at > now ? rec->dump_at - now : 0);
	if (rec->enable_at)
		t = min_t(u64, t, rec->enable_at > now ? rec->enable_at - now : 0);
	return t;
}

/*
 * Sleeps until a forward buffer wakes us, a signal comes or half a second
 * has passed; when the buffers are busy, only opens the signal mask for an
 * instant.  Either way every pass of the loop takes SIGINT, SIGTERM,
 * SIGCHLD and SIGUSR2 (a system-wide syscall trace of our own writes never
 * runs dry).
 */
static int record__wait(struct record *rec, const sigset_t *loop_mask, bool busy)
{
	u64 timeout = record__timeout(rec, busy);
	struct timespec ts = { .tv_sec = timeout / 1000000000ULL,
			       .tv_nsec = timeout % 1000000000ULL };
	struct fdarray *fda = &rec->evlist->pollfd;
	int n = ppoll(fda->entries, fda->nr, &ts, loop_mask);

	if (n < 0 && errno != EINTR) {
		pr_err("poll failed: %s\n", strerror(errno));
		return -errno;
	}
	if (n > 0)
		record_signals__take(loop_mask);
	/* A flight recorder's wakeups are counted where they write data (record__mmap_read_all). */
	if (!busy && n >= 0 && !rec->fr) {
		rec->wakeups++;
		rec->dump_wakeups++;
	}
	/* Threads that exited: their buffers go once drained. */
	if (n > 0) {
		perf_evlist__filter_pollfd(rec->evlist, POLLERR | POLLHUP);
		if (!record__buffers_polled(rec) && !rec->opts.system_wide && !rec->opts.cpu_list)
			record_signals.done = 1;
	}
	if (record_signals.child_exited) {
		child_process__wait(&rec->workload, false);
		record_signals.done = 1;
	}
	return 0;
}

/* One pass: drain, at most one dump, then wait.  Ends when asked to. */
static int record__loop(struct record *rec, const sigset_t *loop_mask)
{
	struct record_opts *opts = &rec->opts;
	int err;

	for (;;) {
		u64 before = rec->out.bytes_written;
		u64 busy = min_t(u64, RECORD_BUSY_BYTES, rec->evlist->mmap_len / 8);
		int nr;

		if (record_signals__test_and_clear(&record_signals.switch_requested))
			record__request_dump(rec, DUMP_REQUEST_SIGNAL);
		if (record_signals__test_and_clear(&record_signals.alarm_fired))
			record__request_dump(rec, DUMP_REQUEST_TIME);
		nr = record__mmap_read_all(rec);
		if (nr < 0)
			return nr;
		record__serve_control(rec);
		if (rec->enable_at && now_ns() >= rec->enable_at)
			record__enable(rec, true);
		if (record__size_reached(rec))
			record__request_dump(rec, DUMP_REQUEST_SIZE);
		if (trigger_is_hit(&rec->switch_trigger) && !record_signals.done &&
		    now_ns() >= rec->dump_at) {
			bool by_event = rec->requests != rec->requests_served;

			rec->requests_served = rec->requests;
			err = record__dump(rec);
			if (err)
				return err;
			if (opts->switch_output_time)
				alarm(opts->switch_output_time);
			trigger_ready(&rec->switch_trigger);
			rec->triggered_dumps += by_event;
		}
		if (record_signals.done)
			break;
		err = record__wait(rec, loop_mask, rec->out.bytes_written - before >= busy);
		if (err)
			return err;
	}
	return 0;
}

static void record__print_summary(struct record *rec)
{
	if (rec->opts.quiet)
		return;
	if (rec->out.lost_events)
		fprintf(stderr, "Warning:\nThe kernel lost %llu events in %llu chunks: the ring "
			"buffers filled up. Try a bigger -m or a lower -F.\n",
			(unsigned long long)rec->out.lost_events, (unsigned long long)rec->out.lost_chunks);
	if (rec->read.dropped)
		fprintf(stderr, "Warning:\n%llu records were dropped while no output file could be "
			"created.\n", (unsigned long long)rec->read.dropped);
	/* The kernel's doing, and mended: not worth a warning. */
	if (rec->read.cut)
		pr_debug("%llu KSYMBOL or BPF_EVENT records that the kernel sized for more "
			 "events than ours were written at their own size\n",
			 (unsigned long long)rec->read.cut);
	if (rec->triggered_dumps)
		fprintf(stderr, "[ perf record: %llu dumps asked for by --switch-output-event ]\n",
			(unsigned long long)rec->triggered_dumps);
	if (rec->failed_dumps)
		fprintf(stderr, "Warning:\n%llu dump%s failed (see above).\n",
			(unsigned long long)rec->failed_dumps, rec->failed_dumps == 1 ? "" : "s");
	if (rec->fr)
		flight_recorder__print_summary(rec->fr, rec->opts.sideband_max);
}

/*
 * The workload forked and held before its exec until the events are open,
 * so that its first instructions are recorded.  Until then it is a copy of
 * perf, named apart from it as the distro names it.  If perf gives up or
 * dies first it exits 127 without running.
 */
static int record__fork_workload(struct record *rec)
{
	struct child_process *cp = &rec->workload;

	cp->argv = rec->argv;
	cp->hold = true;
	cp->comm = WORKLOAD_COMM;
	cp->mask = &rec->start_mask;
	sigemptyset(&rec->child_dfl);
	sigaddset(&rec->child_dfl, SIGINT);
	sigaddset(&rec->child_dfl, SIGTERM);
	cp->dfl = &rec->child_dfl;
	/* Text a workload prints would land inside perf's data stream. */
	if (!strcmp(rec->opts.output, "-"))
		cp->out = STDERR_FILENO;
	return child_process__start(cp);
}

/*
 * --off-cpu needs BPF.  Without it the option is ignored with a warning,
 * as the distro's perf ignores it (its build has no BPF program), and
 * the rest is recorded.
 */
static void record__load_off_cpu(struct record *rec)
{
	char why[256];

	rec->off_cpu = off_cpu__load(why, sizeof(why));
	if (rec->off_cpu)
		return;
	fprintf(stderr, " Warning: option `off-cpu' is being ignored because %s\n", why);
	rec->opts.off_cpu = false;
}

/* The events set up and the workload forked, corked until the start.  0 or -errno. */
static int record__setup(struct record *rec)
{
	struct record_opts *opts = &rec->opts;
	int err;

	if (opts->workload) {
		err = run_command__find(rec->argv[0]);
		if (err) {
			pr_err("Cannot run '%s': %s\nCheck the command name and your PATH.\n",
			       rec->argv[0], strerror(-err));
			return err;
		}
	}
	if (opts->off_cpu)
		record__load_off_cpu(rec);
	err = record_events__setup(rec->evlist, &rec->opts);
	if (err || !opts->workload)
		return err;
	err = record__fork_workload(rec);
	if (err)
		pr_err("Cannot start the workload: %s\n", strerror(-err));
	return err;
}

/*
 * The events opened and mapped, the control channel, the writer and the
 * first file.  0 or -errno; a file begun is abandoned on failure.
 */
static int record__open_all(struct record *rec)
{
	struct record_opts *opts = &rec->opts;
	int err;

	err = record_events__create_maps(rec->evlist, opts, rec->workload.pid);
	if (err)
		return err;
	if (opts->control && control__open(&rec->ctl, opts->control))
		return -EINVAL;
	err = record_events__open(rec->evlist, opts);
	if (!err)
		err = record__mmap(rec);
	if (err)
		return err;
	rec->read = (struct record_read){
		.evlist = rec->evlist,
		.triggers = opts->trigger_evlist,
		.fr = rec->fr,
		.out = &rec->out,
		.trigger = record__trigger,
		.arg = rec,
	};
	if (record_output__init(&rec->out, opts->output, opts->comp_level)) {
		pr_err("Out of memory\n");
		return -ENOMEM;
	}
	err = build_id_cache__config_max_size(&rec->out.cache_max);
	if (err)
		return err;
	/* Only now, with everything working, is an existing file moved aside. */
	err = record__open_output(rec);
	if (err) {
		record_output__abandon(&rec->out);
		return err;
	}
	/* Tail synthesis runs in every dump: read kallsyms now, not then. */
	if (opts->tail_synthesize) {
		struct synth_ctx prime = { .process = record__discard_synth };

		perf_event__synthesize_kernel_mmap(&prime);
	}
	if (control__active(&rec->ctl) &&
	    fdarray__add(&rec->evlist->pollfd, rec->ctl.ctl_fd, POLLIN) < 0) {
		pr_err("Out of memory\n");
		record_output__abandon(&rec->out);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Per-task counters of a workload start at its exec; others start now.
 * With -D the recorded events wait; the tracking dummy (there is one
 * with -D) runs from its open, and the triggers start as usual.  0 or
 * -errno, the file abandoned.
 */
static int record__start(struct record *rec)
{
	struct record_opts *opts = &rec->opts;
	int err;

	if (opts->switch_output)
		trigger_on(&rec->switch_trigger);
	if (opts->switch_output_time)
		alarm(opts->switch_output_time);
	if (!record_opts__follows_workload(opts)) {
		if (!opts->delay_ms && !evlist__enable(rec->evlist) && rec->fr)
			flight_recorder__events_enabled(rec->fr);
		if (opts->trigger_evlist)
			evlist__enable(opts->trigger_evlist);
	}
	rec->enabled = !opts->delay_ms;
	if (opts->delay_ms && !opts->quiet)
		fprintf(stderr, "Events disabled\n");
	if (rec->off_cpu) {
		bool all = opts->system_wide || opts->cpu_list;

		err = off_cpu__start(rec->off_cpu, all ? NULL : rec->evlist->threads,
				     opts->target_tid && !opts->target_pid,
				     opts->cpu_list ? rec->evlist->cpus : NULL, rec->evlist);
		if (err) {
			pr_err("Cannot start counting off-CPU time: %s\n", strerror(-err));
			record_output__abandon(&rec->out);
			return err;
		}
	}
	if (opts->workload) {
		err = child_process__release(&rec->workload);
		if (err) {
			pr_err("Workload failed: cannot run '%s': %s\n", rec->argv[0],
			       strerror(-err));
			record_output__abandon(&rec->out);
			return err;
		}
	}
	if (opts->delay_ms > 0)
		rec->enable_at = now_ns() + opts->delay_ms * 1000000ULL;
	return 0;
}

/* Recording until done, then the last pass: counters stopped, everything read, the last dump. */
static int record__run(struct record *rec, const sigset_t *loop_mask)
{
	int err = record__loop(rec, loop_mask);

	if (err)
		return err;
	rec->exiting = true;
	evlist__disable(rec->evlist);
	if (rec->off_cpu)
		off_cpu__stop(rec->off_cpu);
	err = record__mmap_read_all(rec) < 0 ? -EIO : 0;
	if (!err)
		err = record__dump(rec);
	return err;
}

int cmd_record(int argc, const char **argv)
{
	struct record rec = {
		.opts = RECORD_OPTS_INIT,
		.workload = CHILD_PROCESS_INIT,
		.ctl = CONTROL_INIT,
	};
	struct record_opts *opts = &rec.opts;
	int err, status = PERF_EXIT_FAILURE;	/* a failure, as the distro's -1 */

	record_signals__block_dump(&rec.start_mask);
	record_signals__loop_mask(&rec.loop_mask, &rec.start_mask);
	rec.evlist = evlist__new();
	if (!rec.evlist) {
		pr_err("Out of memory\n");
		return 1;
	}
	if (record__parse_options(&rec, argc, argv, &status))
		goto out_delete;
	status = record_opts__check(opts);
	if (status)
		goto out_delete;
	status = PERF_EXIT_FAILURE;
	/*
	 * Handlers go in as soon as the options are known, so a signal sent
	 * right after start (a daemon, a script) is served, not fatal.
	 */
	record_signals__install(opts->switch_output_time, opts->control);
	if (record__setup(&rec))
		goto out_delete;
	if (record__open_all(&rec) || record__start(&rec))
		goto out_kill;

	err = record__run(&rec, &rec.loop_mask);
	record__print_summary(&rec);
	/* Recording ran: a failure now is its errno's low byte, as with the distro. */
	if (err) {
		status = cmd_exit_status(err);
		goto out_kill;
	}
	perf_header_info__exit(&rec.out.hinfo);
	/* Stopped by a signal: the workload goes too, as with the distro's perf. */
	if (!record_signals.child_exited)
		child_process__kill(&rec.workload, SIGTERM);
	child_process__wait(&rec.workload, true);
	status = opts->workload && WIFEXITED(rec.workload.status) ?
		 WEXITSTATUS(rec.workload.status) : 0;
	goto out_delete;

out_kill:
	child_process__kill(&rec.workload, SIGTERM);
	child_process__wait(&rec.workload, true);
out_delete:
	off_cpu__delete(rec.off_cpu);
	flight_recorder__delete(rec.fr);
	control__close(&rec.ctl);
	free(rec.last_file);
	evlist__delete(opts->trigger_evlist);
	evlist__delete(rec.evlist);
	record_output__exit(&rec.out);
	free(rec.cmdline);
	return status;
}
