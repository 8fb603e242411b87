#ifndef PERF_UTIL_RECORD_EVENTS_H
#define PERF_UTIL_RECORD_EVENTS_H
/*
 * perf record's events from its options to open file descriptors: the
 * CPUs and tasks to watch, each event's buffer (forward or overwrite) and
 * the tracking event, opening them with the kernel's fallbacks, their
 * filters, and what a refused mmap means.
 */
#include <stdbool.h>
#include <sys/types.h>

struct evlist;
struct record_opts;

/* The CPU and thread maps of -a/-C/-p/-t, or of the forked @workload.  0 or -errno, said. */
int record_events__create_maps(struct evlist *evlist, const struct record_opts *opts,
			       pid_t workload);
/*
 * Decides each event's buffer and the tracking event (a dummy one where
 * needed), then configures the attributes from @opts.  With no event
 * given, "cycles".  0 or -errno.
 */
int record_events__setup(struct evlist *evlist, struct record_opts *opts);
/* Opens @evlist and the --switch-output-event triggers, with their filters.  0 or -errno, said. */
int record_events__open(struct evlist *evlist, const struct record_opts *opts);
/*
 * Maps the forward ring buffers and the --switch-output-event triggers'
 * own; *@overwrite tells whether any event wants an overwrite buffer,
 * which is the flight recorder's to map.  0, or the error to exit with,
 * said.
 */
int record_events__mmap(struct evlist *evlist, const struct record_opts *opts, bool *overwrite);
/* Says why mapping the buffers (@overwrite: the backward ones) failed; the error to exit with. */
int record_events__mmap_error(const struct record_opts *opts, int err, bool overwrite);

#endif
