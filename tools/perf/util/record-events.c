/*
 * perf record's events, from the options to open file descriptors (see
 * record-events.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "perf.h"
#include "cpumap.h"
#include "debug.h"
#include "evlist.h"
#include "evsel.h"
#include "off-cpu.h"
#include "page-size.h"
#include "parse-events.h"
#include "record-opts.h"
#include "record-events.h"
#include "thread_map.h"

int record_events__create_maps(struct evlist *evlist, const struct record_opts *opts,
			       pid_t workload)
{
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
		threads = thread_map__new_by_tid(workload);
	}
	/*
	 * Buffers are per CPU even for a task: the kernel will not mmap an
	 * inherited per-task event that is not bound to a CPU.
	 */
	if ((opts->no_inherit || opts->per_thread) && !opts->system_wide && !opts->cpu_list)
		cpus = cpu_map__dummy_new();
	else
		cpus = cpu_map__new(opts->cpu_list);
	if (cpus && opts->cpu_list && cpu_map__check_online(cpus, opts->cpu_list)) {
		cpu_map__put(cpus);
		thread_map__put(threads);
		return -ENODEV;
	}
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
	evlist__set_maps(evlist, cpus, threads);
	cpu_map__put(cpus);
	thread_map__put(threads);
	return 0;
}

/*
 * --switch-events: the kernel writes a context switch record into the
 * buffer of each event that asks for them.  As the distro does, that is
 * the tracking event; in overwrite mode ours feeds the process table and
 * never reaches a dump, so the first overwrite event carries them: a dump
 * then holds the switches of the window its samples cover.
 */
static void record_events__config_switch(struct evlist *evlist, const struct record_opts *opts,
					 struct evsel *tracking)
{
	struct evsel *evsel;

	if (!opts->switch_events)
		return;
	evlist__for_each_entry(evlist, evsel) {
		if (evsel->overwrite) {
			evsel->attr.context_switch = 1;
			return;
		}
	}
	tracking->attr.context_switch = 1;
}

/*
 * Decides each event's buffer and the tracking event.  In overwrite mode a
 * dummy event in the forward stream carries the mmap/comm/task records, so
 * they are never overwritten and every dump can name its samples' tasks.
 */
int record_events__setup(struct evlist *evlist, struct record_opts *opts)
{
	struct evsel *evsel, *tracking = NULL;
	bool any_overwrite = false;
	int err;

	if (evlist->nr_entries == 0) {
		err = parse_events(evlist, RECORD_DEFAULT_EVENT, NULL);
		if (err) {
			pr_err("Cannot set up the default event '%s': %s\n", RECORD_DEFAULT_EVENT,
			       strerror(-err));
			return err;
		}
	}
	if (opts->off_cpu) {
		err = off_cpu__add_event(evlist);
		if (err)
			return err;
	}
	evlist__for_each_entry(evlist, evsel) {
		struct evsel_config_term *t;

		t = evsel__get_config_term(evsel, EVSEL__CONFIG_TERM_OVERWRITE);
		evsel->overwrite = t ? !!t->val.val : opts->overwrite;
		any_overwrite |= evsel->overwrite;
	}
	/*
	 * The process table needs the tracking records from the start; so does
	 * a file whose events start later (-D), or may be disabled for a while
	 * (--control): then a task that started meanwhile still has a name.
	 * System-wide, the events start only after /proc has been read: a
	 * task born in between would be nameless in the file.  The distro
	 * tracks on a dummy:HG from the start then too; so do we.
	 */
	if (any_overwrite || opts->delay_ms || opts->control || opts->system_wide ||
	    opts->cpu_list) {
		struct perf_event_attr attr = {
			.type = PERF_TYPE_SOFTWARE,
			.config = PERF_COUNT_SW_DUMMY,
		};

		tracking = evsel__new(&attr);
		if (!tracking || evsel__set_name(tracking, any_overwrite ? "dummy:u" : "dummy:HG")) {
			evsel__delete(tracking);
			return -ENOMEM;
		}
		if (any_overwrite) {
			tracking->attr.exclude_kernel = 1;
			tracking->attr.exclude_hv = 1;
		}
		evlist__add(evlist, tracking);
	} else {
		tracking = evlist__first(evlist);
	}
	tracking->tracking = true;
	evlist__config(evlist, opts);
	record_events__config_switch(evlist, opts, tracking);
	/*
	 * The tracking stream keeps the kernel's wakeup at half its buffer: the
	 * loop drains it at least every half second and before every dump, and
	 * a wakeup per record would cost a fork storm several per process.
	 */
	return 0;
}

static int record_events__open_list(struct evlist *evlist, const struct record_opts *opts)
{
	struct evsel *failed = NULL;
	bool said_user_only = false;
	char msg[512];
	int err;

	for (;;) {
		enum evsel_fallback fb;

		err = evlist__open(evlist, &failed);
		if (!err)
			return 0;
		evlist__close(evlist);
		fb = failed ? evsel__fallback(failed, err, msg, sizeof(msg)) : EVSEL_FALLBACK_NONE;
		if (fb == EVSEL_FALLBACK_NONE)
			break;
		if (fb == EVSEL_FALLBACK_ATTR) {
			pr_debug("%s\n", msg);
			continue;
		}
		/* Like the distro, only -v tells that kernel samples are left out; once. */
		if (fb == EVSEL_FALLBACK_USER_ONLY) {
			if (verbose > 0 && !said_user_only)
				ui__warning("%s\n", msg);
			said_user_only = true;
		} else if (!opts->quiet) {
			/* The sampling rate a hardware event had suits cpu-clock as well. */
			fprintf(stderr, "%s\n", msg);
		}
	}
	if (failed) {
		evsel__open_strerror(failed, err, msg, sizeof(msg));
		pr_err("%s\n", msg);
	} else {
		pr_err("Cannot open the events: %s\n", strerror(-err));
	}
	return err;
}

/* --filter, --exclude-perf: the kernel checks the expression only now. */
static int record_events__apply_filters(struct evlist *evlist)
{
	struct evsel *evsel;

	evlist__for_each_entry(evlist, evsel) {
		int err = evsel__apply_filter(evsel);

		if (err) {
			pr_err("Cannot set the filter \"%s\" on event %s: %s (see the fields in "
			       "/sys/kernel/tracing/events/%s/%s/format).\n", evsel->filter,
			       evsel__name(evsel), strerror(-err),
			       evsel->tp_sys ? evsel->tp_sys : "*", evsel->tp_name ? evsel->tp_name : "*");
			return err;
		}
	}
	return 0;
}

int record_events__open(struct evlist *evlist, const struct record_opts *opts)
{
	struct evlist *tl = opts->trigger_evlist;
	int err;

	err = record_events__open_list(evlist, opts);
	if (!err && tl)
		err = record_events__open_list(tl, opts);
	if (!err)
		err = record_events__apply_filters(evlist);
	if (!err && tl)
		err = record_events__apply_filters(tl);
	return err;
}

int record_events__mmap_error(const struct record_opts *opts, int err, bool overwrite)
{
	if (err == -EPERM) {
		pr_err("Permission error mapping pages.\n"
		       "Consider increasing /proc/sys/kernel/perf_event_mlock_kb,\n"
		       "or try again with a smaller value of -m/--mmap_pages.\n"
		       "(current value: %zu)\n", opts->mmap_pages);
	} else if (overwrite && (err == -EINVAL || err == -ENOSYS)) {
		pr_err("Unable to read from overwrite ring buffer: %s\n"
		       "The kernel must support write_backward (Linux 4.7 or later).\n",
		       strerror(-err));
		err = -ENOSYS;
	} else if (err == -ENOMEM) {
		pr_err("Out of memory\n");
	} else {
		pr_err("Failed to mmap with %d (%s)\n", -err, strerror(-err));
	}
	return err;
}

int record_events__mmap(struct evlist *evlist, const struct record_opts *opts, bool *overwrite)
{
	size_t fwd_pages = opts->mmap_pages;
	bool only_tracking = true;
	struct evsel *evsel;
	int nr, err;

	*overwrite = false;
	evlist__for_each_entry(evlist, evsel) {
		*overwrite |= evsel->overwrite;
		only_tracking &= evsel->overwrite || evsel->tracking;
	}
	nr = evlist->per_cpu ? evlist->cpus->nr : evlist->threads->nr;
	err = record_opts__check_mmap_size(opts, nr * (*overwrite ? 2 : 1));
	if (err)
		return err;
	/*
	 * A small -m is meant for the overwrite buffers.  The forward one then
	 * carries only the tracking stream, which a burst of forks or mmaps
	 * would overflow (the lost records are then in every dump): it gets the
	 * default size at least, where locked memory is not limited (root).
	 */
	if (*overwrite && only_tracking && geteuid() == 0)
		fwd_pages = max_t(size_t, fwd_pages, RECORD_MMAP_BYTES / page_size());
	err = perf_evlist__mmap(evlist, fwd_pages);
	if (err)
		return record_events__mmap_error(opts, err, false);
	/*
	 * The triggers' own small buffers: read as soon as a sample lands, and
	 * never overwritten; a storm that fills one still asks for the dump.
	 */
	if (opts->trigger_evlist) {
		err = perf_evlist__mmap(opts->trigger_evlist,
					min_t(size_t, opts->mmap_pages, 16));
		if (err)
			return record_events__mmap_error(opts, err, false);
	}
	return 0;
}
