/*
 * perf record's forward reading (util/record-read) over hand-built ring
 * buffers: the records go out as they lie, a wrapped one in two pieces,
 * with a FINISHED_ROUND after a pass that found data; samples and losses
 * are counted; a trigger's sample and its losses each ask for a dump.
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/debug.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/mmap.h"
#include "util/page-size.h"
#include "util/record-output.h"
#include "util/record-read.h"

#define DATA_SIZE	64

/* A fake ring buffer of DATA_SIZE bytes whose tail is at @tail. */
struct ring {
	void *mem;
	struct perf_mmap map;
	u64 head;
};

static int ring__init(struct ring *r, u64 tail)
{
	struct perf_event_mmap_page *pc;

	r->mem = calloc(1, page_size() + DATA_SIZE);
	if (!r->mem)
		return -1;
	pc = r->mem;
	pc->data_tail = pc->data_head = r->head = tail;
	if (perf_mmap__init_fake(&r->map, r->mem, DATA_SIZE, false))
		return -1;
	r->map.refcnt = 1;	/* not released when drained: the test's memory */
	return 0;
}

/* A record of @type and @size at the head, filled with @fill after its header; then published. */
static void ring__put(struct ring *r, u32 type, u16 size, u64 lost)
{
	u8 rec[64];
	struct perf_event_header h = { .type = type, .size = size };
	u8 *data = perf_mmap__data(&r->map);

	memset(rec, 0xa5, sizeof(rec));
	memcpy(rec, &h, sizeof(h));
	if (type == PERF_RECORD_LOST)
		memcpy(rec + 16, &lost, sizeof(lost));	/* after the id */
	for (u16 i = 0; i < size; i++)
		data[(r->head + i) & (DATA_SIZE - 1)] = rec[i];
	r->head += size;
	((struct perf_event_mmap_page *)r->mem)->data_head = r->head;
}

static void ring__exit(struct ring *r)
{
	perf_mmap__munmap(&r->map);
	free(r->mem);
}

struct triggered {
	int samples, losses;
};

static void on_trigger(void *arg, struct evlist *triggers, const union perf_event *event)
{
	struct triggered *t = arg;

	*(event ? &t->samples : &t->losses) += 1;
}

/* The types of the records in @out's write buffer: "9 2 68 " for SAMPLE, LOST, FINISHED_ROUND. */
static const char *written(const struct record_output *out, char *buf, size_t size)
{
	size_t off = 0, n = 0;

	buf[0] = '\0';
	while (off + sizeof(struct perf_event_header) <= out->wbuf_len) {
		struct perf_event_header h;

		memcpy(&h, out->wbuf + off, sizeof(h));
		if (!h.size)
			break;
		n += snprintf(buf + n, size - n, "%u ", h.type);
		off += h.size;
	}
	return buf;
}

static int test__record_read(void)
{
	struct evlist *evlist = evlist__new(), *triggers = evlist__new();
	struct record_output out = { 0 };
	struct ring fwd, trig;
	struct triggered t = { 0 };
	struct record_read rd = {
		.evlist = evlist, .triggers = triggers, .out = &out,
		.trigger = on_trigger, .arg = &t,
	};
	char buf[128];
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("setup", evlist && triggers && !record_output__init(&out, "x", 0));
	if (ring__init(&fwd, 40) || ring__init(&trig, 0))
		goto out;
	evlist->mmap = &fwd.map;
	evlist->nr_mmaps = 1;
	out.open = true;	/* as if begun: what is written stays in the write buffer */

	/* The LOST record runs from 56 over the end to 80. */
	ring__put(&fwd, PERF_RECORD_SAMPLE, 16, 0);
	ring__put(&fwd, PERF_RECORD_LOST, 24, 7);
	ring__put(&fwd, PERF_RECORD_COMM, 16, 0);
	if (record_read__all(&rd) != 1 || strcmp(written(&out, buf, sizeof(buf)), "9 2 3 68 ") ||
	    out.wbuf_len != 56 + 8 || out.samples != 1 || out.lost_events != 7 ||
	    out.lost_chunks != 1) {
		pr_debug("pass 1: wrote '%s', %zu bytes, %llu samples\n", buf, out.wbuf_len,
			 (unsigned long long)out.samples);
		goto out;
	}
	if (memcmp(out.wbuf + 16, perf_mmap__data(&fwd.map) + 56, 8) ||
	    memcmp(out.wbuf + 24, perf_mmap__data(&fwd.map), 16)) {
		pr_debug("the wrapped record was not written whole, in order\n");
		goto out;
	}
	/* Nothing new: no data, no round. */
	if (record_read__all(&rd) != 0 || out.wbuf_len != 64) {
		pr_debug("an empty pass wrote %zu bytes\n", out.wbuf_len - 64);
		goto out;
	}

	/* Triggers: every sample asks, so does a loss; only samples go into the file. */
	triggers->mmap = &trig.map;
	triggers->nr_mmaps = 1;
	ring__put(&trig, PERF_RECORD_SAMPLE, 16, 0);
	ring__put(&trig, PERF_RECORD_LOST, 24, 3);
	ring__put(&trig, PERF_RECORD_COMM, 16, 0);
	ring__put(&trig, PERF_RECORD_SAMPLE, 8, 0);
	if (record_read__all(&rd) != 0 || t.samples != 2 || t.losses != 1 ||
	    strcmp(written(&out, buf, sizeof(buf)), "9 2 3 68 9 9 ")) {
		pr_debug("triggers: %d samples, %d losses asked; wrote '%s'\n", t.samples,
			 t.losses, buf);
		goto out;
	}
	/* No file open (a failed dump): records are counted as dropped. */
	ring__put(&trig, PERF_RECORD_SAMPLE, 8, 0);
	out.open = false;
	if (record_read__all(&rd) != 0 || t.samples != 3 || rd.dropped != 1) {
		pr_debug("no file: %llu dropped\n", (unsigned long long)rd.dropped);
		goto out;
	}
	ret = TEST_OK;
out:
	out.open = false;
	evlist->mmap = triggers->mmap = NULL;
	evlist->nr_mmaps = triggers->nr_mmaps = 0;
	ring__exit(&fwd);
	ring__exit(&trig);
	record_output__exit(&out);
	evlist__delete(evlist);
	evlist__delete(triggers);
	return ret;
}

DEFINE_SUITE(record_read, "perf record's forward reading: records as they lie, rounds, losses, triggers");
