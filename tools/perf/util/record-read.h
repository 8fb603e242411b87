#ifndef PERF_UTIL_RECORD_READ_H
#define PERF_UTIL_RECORD_READ_H
/*
 * perf record's forward ring buffers read into its output: the recorded
 * events' stream (written as it lies in the buffer, with FINISHED_ROUND
 * marks), or in overwrite mode the tracking stream, which goes to the
 * flight recorder's process table; and the --switch-output-event
 * triggers' own buffers, whose samples ask for dumps.  Either stream's
 * KSYMBOL and BPF_EVENT records go on at the size the kernel meant
 * (evlist__record_size()), not the larger one it may have written.
 */
#include "types.h"

struct evlist;
struct flight_recorder;
struct record_output;
union perf_event;

struct record_read {
	struct evlist *evlist;		/* the forward buffers */
	struct evlist *triggers;	/* --switch-output-event's buffers, or NULL */
	struct flight_recorder *fr;	/* --overwrite: takes the tracking stream; or NULL */
	struct record_output *out;
	u64 dropped;			/* records met while no file was open */
	u64 cut;			/* records the kernel made too long, cut to their size */
	/* A trigger's sample asks for a dump (@event NULL: samples were lost, that too). */
	void (*trigger)(void *arg, struct evlist *triggers, const union perf_event *event);
	void *arg;
};

/*
 * One pass over the buffers, each drained, the drained ones of exited
 * threads released; the flight recorder learns how far its buffers have
 * turned over.  How many of @rd->evlist's buffers gave data, or -errno.
 */
int record_read__all(struct record_read *rd);

#endif
