/*
 * Time ordering between FINISHED_ROUND marks (see ordered-events.h).
 * Record copies go into large chunks, freed once every record in them was
 * delivered, so queueing costs a memcpy and no malloc per record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "ordered-events.h"

#define OE_CHUNK_SIZE	(4u << 20)
#define OE_MAX_BYTES	(512ul << 20)

struct oe_chunk {
	size_t used, size;
	size_t live;		/* records in it not yet delivered */
	char data[];
};

void ordered_events__init(struct ordered_events *oe, oe_deliver_t deliver, void *data)
{
	memset(oe, 0, sizeof(*oe));
	oe->deliver = deliver;
	oe->data = data;
	oe->max_bytes = OE_MAX_BYTES;
}

static void oe__put_chunk(struct ordered_events *oe, struct oe_chunk *c)
{
	if (--c->live)
		return;
	if (c == oe->cur) {
		c->used = 0;	/* empty again: reuse it from the start */
		return;
	}
	oe->queued_bytes -= c->size;
	free(c);
}

void ordered_events__exit(struct ordered_events *oe)
{
	for (size_t i = 0; i < oe->nr; i++)
		oe__put_chunk(oe, oe->q[i].chunk);
	if (oe->cur && !oe->cur->live)
		free(oe->cur);
	free(oe->q);
	free(oe->tmp);
	memset(oe, 0, sizeof(*oe));
}

static int oe_event__cmp(const void *a, const void *b)
{
	const struct oe_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : 1;
}

/* The end of the run of records in order that starts at @i. */
static size_t oe__run_end(const struct oe_event *q, size_t i, size_t nr)
{
	while (++i < nr && oe_event__cmp(&q[i - 1], &q[i]) <= 0)
		;
	return i;
}

/*
 * A round holds each ring buffer's records in turn, each buffer's already
 * in time order: the queue is a few sorted runs.  Merging neighbouring runs
 * until one is left is linear per pass and needs a pass per doubling of
 * the run length, where qsort pays n log n however ordered the input is.
 */
static void oe__sort(struct ordered_events *oe)
{
	struct oe_event *src = oe->q, *dst;
	size_t nr = oe->nr;

	if (oe__run_end(src, 0, nr) >= nr)
		return;
	if (oe->tmp_cap < nr) {
		struct oe_event *t = realloc(oe->tmp, oe->cap * sizeof(*t));

		if (!t) {
			qsort(oe->q, nr, sizeof(*oe->q), oe_event__cmp);
			return;
		}
		oe->tmp = t;
		oe->tmp_cap = oe->cap;
	}
	dst = oe->tmp;
	for (;;) {
		size_t runs = 0;

		for (size_t a = 0; a < nr; runs++) {
			size_t b = oe__run_end(src, a, nr), c = b < nr ? oe__run_end(src, b, nr) : b;
			size_t i = a, j = b, k = a;

			while (i < b && j < c)
				dst[k++] = oe_event__cmp(&src[j], &src[i]) < 0 ? src[j++] : src[i++];
			memcpy(&dst[k], &src[i], (b - i) * sizeof(*src));
			k += b - i;
			memcpy(&dst[k], &src[j], (c - j) * sizeof(*src));
			a = c;
		}
		/* The merged runs are in dst: swap roles, and stop at one run. */
		src = dst;
		dst = dst == oe->tmp ? oe->q : oe->tmp;
		if (runs == 1)
			break;
	}
	if (src != oe->q) {
		/* Keep the queue in oe->q: trade the arrays rather than copy back. */
		struct oe_event *q = oe->q;
		size_t cap = oe->cap;

		oe->q = oe->tmp;
		oe->cap = oe->tmp_cap;
		oe->tmp = q;
		oe->tmp_cap = cap;
	}
}

/* Delivers, in order, the queued records no newer than @limit. */
static int oe__flush(struct ordered_events *oe, u64 limit)
{
	size_t i;
	int err = 0;

	oe__sort(oe);
	for (i = 0; i < oe->nr && oe->q[i].time <= limit; i++) {
		struct oe_event *e = &oe->q[i];

		oe->last_flush = e->time;
		oe->delivered_any = true;
		err = oe->deliver(oe, e);
		oe__put_chunk(oe, e->chunk);
		if (err) {
			i++;
			break;
		}
	}
	if (i && oe->nr > i)
		memmove(oe->q, oe->q + i, (oe->nr - i) * sizeof(*oe->q));
	oe->nr -= i;
	return err;
}

int ordered_events__queue(struct ordered_events *oe, const union perf_event *event, u64 time,
			  void *priv, u64 offset)
{
	size_t size = event->header.size;
	struct oe_event *e;
	int err;

	if (oe->delivered_any && time < oe->last_flush)
		oe->nr_unordered++;
	if (oe->nr == oe->cap) {
		size_t cap = oe->cap ? oe->cap * 2 : 4096;
		struct oe_event *q = realloc(oe->q, cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		oe->q = q;
		oe->cap = cap;
	}
	if (!oe->cur || oe->cur->size - oe->cur->used < size) {
		struct oe_chunk *c = malloc(sizeof(*c) + OE_CHUNK_SIZE);

		if (!c)
			return -ENOMEM;
		c->used = 0;
		c->size = OE_CHUNK_SIZE;
		c->live = 0;
		if (oe->cur && !oe->cur->live) {
			oe->queued_bytes -= oe->cur->size;
			free(oe->cur);
		}
		oe->cur = c;
		oe->queued_bytes += c->size;
	}
	e = &oe->q[oe->nr++];
	e->event = (union perf_event *)(oe->cur->data + oe->cur->used);
	memcpy(e->event, event, size);
	/* Keep copies 8-byte aligned: samples are read as u64 words. */
	oe->cur->used += PERF_ALIGN(size, sizeof(u64));
	oe->cur->live++;
	e->chunk = oe->cur;
	e->time = time;
	e->seq = oe->seq++;
	e->priv = priv;
	e->offset = offset;
	if (time > oe->max_timestamp)
		oe->max_timestamp = time;

	/* No round marks (or huge rounds): flush the older half to bound memory. */
	if (oe->queued_bytes > oe->max_bytes) {
		oe__sort(oe);
		err = oe__flush(oe, oe->q[oe->nr / 2].time);
		if (err)
			return err;
	}
	return 0;
}

int ordered_events__flush_round(struct ordered_events *oe)
{
	int err = oe__flush(oe, oe->next_flush);

	oe->next_flush = oe->max_timestamp;
	return err;
}

int ordered_events__flush_all(struct ordered_events *oe)
{
	return oe__flush(oe, (u64)-1);
}
