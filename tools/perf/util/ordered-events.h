#ifndef PERF_UTIL_ORDERED_EVENTS_H
#define PERF_UTIL_ORDERED_EVENTS_H
/*
 * Puts records back in time order.  The recorder drains each ring buffer in
 * turn and then writes a FINISHED_ROUND mark: nothing written after the
 * mark can be older than what the previous round contained, so at each
 * mark everything up to the previous round's newest timestamp is sorted
 * and delivered.  Memory is thus bounded by about two rounds of records.
 */
#include "types.h"
#include "event.h"

struct oe_chunk;

struct oe_event {
	u64 time;
	u64 seq;		/* arrival order: ties keep it */
	union perf_event *event;	/* a copy, in a chunk */
	struct oe_chunk *chunk;
	void *priv;		/* what the caller passed to queue (e.g. its evsel) */
	u64 offset;		/* and where the record was in its file, for messages */
};

struct ordered_events;
typedef int (*oe_deliver_t)(struct ordered_events *oe, struct oe_event *e);

struct ordered_events {
	struct oe_event *q;	/* queued, sorted up to nr_sorted */
	size_t nr, cap;
	struct oe_event *tmp;	/* merge space for sorting, tmp_cap entries */
	size_t tmp_cap;
	struct oe_chunk *cur;	/* chunk new copies go to */
	size_t queued_bytes;
	size_t max_bytes;	/* past this, half the queue is flushed early */
	u64 seq;
	u64 max_timestamp;	/* newest time queued so far */
	u64 next_flush;		/* what the next round mark may deliver up to */
	u64 last_flush;		/* time of the newest record delivered */
	bool delivered_any;
	u64 nr_unordered;	/* arrived older than last_flush */
	oe_deliver_t deliver;
	void *data;		/* for the deliver callback */
};

void ordered_events__init(struct ordered_events *oe, oe_deliver_t deliver, void *data);
void ordered_events__exit(struct ordered_events *oe);
/* Copies @event; it is delivered once its time is flushed. 0 or -errno. */
int ordered_events__queue(struct ordered_events *oe, const union perf_event *event, u64 time,
			  void *priv, u64 offset);
/* At a FINISHED_ROUND mark. */
int ordered_events__flush_round(struct ordered_events *oe);
/* At the end: everything. */
int ordered_events__flush_all(struct ordered_events *oe);

#endif
