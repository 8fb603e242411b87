/*
 * ordered_events on its own: records queued as a round holds them (several
 * runs, each in time order, as each ring buffer is drained in turn) or in
 * any order at all come out sorted by time, ties in the order they came.
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/ordered-events.h"

struct delivered {
	u64 *time;
	u64 *order;
	size_t nr;
};

static int deliver(struct ordered_events *oe, struct oe_event *e)
{
	struct delivered *d = oe->data;
	u64 order;

	memcpy(&order, (char *)e->event + sizeof(struct perf_event_header), sizeof(order));
	d->time[d->nr] = e->time;
	d->order[d->nr++] = order;
	return 0;
}

static u64 rnd_state = 88172645463325252ULL;

static u64 rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* @nr records in @runs sorted runs (0: random times); checks what flush_all delivers. */
static int check(size_t nr, size_t runs)
{
	struct { struct perf_event_header h; u64 order; } rec = {
		{ PERF_RECORD_SAMPLE, 0, sizeof(rec) }, 0 };
	struct delivered d = { calloc(nr, sizeof(u64)), calloc(nr, sizeof(u64)), 0 };
	struct ordered_events oe;
	u64 *t = calloc(runs ? runs : 1, sizeof(u64));
	int ret = TEST_FAIL;

	if (!d.time || !d.order || !t)
		goto out;
	ordered_events__init(&oe, deliver, &d);
	for (size_t i = 0; i < nr; i++) {
		/* Runs take turns in stretches, their clocks advancing by small steps (ties too). */
		size_t r = runs ? (i * runs / nr) : 0;
		u64 time;

		if (runs && (!i || r != (i - 1) * runs / nr))
			t[r] = rnd() % 1000;	/* a new run starts somewhere back in time */
		time = runs ? (t[r] += rnd() % 3) : 1 + rnd() % 50;
		rec.order = i;
		if (ordered_events__queue(&oe, (union perf_event *)&rec, time, NULL, i))
			goto out_exit;
	}
	if (ordered_events__flush_all(&oe) || d.nr != nr)
		goto out_exit;
	for (size_t i = 1; i < nr; i++) {
		if (d.time[i] < d.time[i - 1] ||
		    (d.time[i] == d.time[i - 1] && d.order[i] < d.order[i - 1])) {
			fprintf(stderr, "%zu records in %zu runs: out of order at %zu\n", nr, runs, i);
			goto out_exit;
		}
	}
	ret = TEST_OK;
out_exit:
	ordered_events__exit(&oe);
out:
	free(d.time);
	free(d.order);
	free(t);
	return ret;
}

static int test__ordered_events_sort(void)
{
	static const size_t runs[] = { 0, 1, 2, 3, 7, 64, 1000 };

	for (size_t i = 0; i < ARRAY_SIZE(runs); i++) {
		for (size_t nr = 1; nr <= 20000; nr = nr * 3 + 1) {
			if (runs[i] > nr)
				continue;
			TEST_ASSERT_VAL("sorted, ties in arrival order", check(nr, runs[i]) == TEST_OK);
		}
	}
	return TEST_OK;
}

DEFINE_SUITE(ordered_events_sort, "Ordered events: sorted runs and random times come out in order");
