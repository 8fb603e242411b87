/*
 * Side-band records at their own size, through perf record's forward
 * reading into a plain file and into a flight recorder's dump.
 *
 * The kernel writes a KSYMBOL or BPF_EVENT record for each side-band event
 * of a CPU from one header, to which each event adds the size of its
 * sample-id trailer: after another tool's events ours gets a header that
 * counts their trailers too, with its own trailer right after its body
 * and, in the bytes counted beyond it, what the ring held before.  Here a
 * fake forward ring takes a long MMAP2 and a COMM, then, where they lay, a
 * BPF_EVENT sized for three events (the MMAP2's path in its excess) and a
 * KSYMBOL sized for two, then a long COMM and a BPF_EVENT sized for two
 * whose excess runs over the ring's end: each must come out as its body
 * and our trailer, none of the stale bytes after.
 */
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/debug.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/flight-recorder.h"
#include "util/mmap.h"
#include "util/page-size.h"
#include "util/record-output.h"
#include "util/record-read.h"

#define RING_SIZE	256
#define TRACK_ID	42	/* the tracking event's id, in every trailer it writes */
#define OTHER_ID	7	/* the recorded event's */
#define PID		100

/* IP|TID|TIME|CPU|IDENTIFIER: the trailer's TID, TIME, CPU and IDENTIFIER. */
struct trailer {
	u32 pid, tid;
	u64 time;
	u32 cpu, res;
	u64 id;
};

#define SAMPLE_TYPE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
		     PERF_SAMPLE_IDENTIFIER)

/* A record as its writer meant it: a body, then our trailer. */
struct rec {
	u8 bytes[256];
	u16 size;
};

/* The size its header says (the bytes are written as bytes: they are no header). */
static void rec__say_size(struct rec *r, u16 size)
{
	memcpy(r->bytes + offsetof(struct perf_event_header, size), &size, sizeof(size));
}

/* The u64 at @off in its trailer. */
static void rec__set_trailer(struct rec *r, size_t off, u64 val)
{
	memcpy(r->bytes + r->size - sizeof(struct trailer) + off, &val, sizeof(val));
}

/* @body (its header's size is set here) with the tracking event's trailer at @time. */
static void rec__make(struct rec *r, const void *body, u16 body_len, u64 time)
{
	struct trailer t = { .pid = PID, .tid = PID, .time = time, .id = TRACK_ID };

	memset(r->bytes, 0, sizeof(r->bytes));
	memcpy(r->bytes, body, body_len);
	memcpy(r->bytes + body_len, &t, sizeof(t));
	r->size = body_len + sizeof(t);
	rec__say_size(r, r->size);
}

struct ring {
	void *mem;
	struct perf_mmap map;
	u64 head;
};

static int ring__init(struct ring *r)
{
	r->mem = calloc(1, page_size() + RING_SIZE);
	r->head = 0;
	if (!r->mem || perf_mmap__init_fake(&r->map, r->mem, RING_SIZE, false))
		return -1;
	r->map.refcnt = 1;	/* not released when drained: the test's memory */
	return 0;
}

static void ring__exit(struct ring *r)
{
	perf_mmap__munmap(&r->map);
	free(r->mem);
}

/*
 * Writes @r at the head as the kernel does: its bytes, under a header that
 * says @extra bytes more, which are left as they were; then publishes it.
 */
static void ring__put(struct ring *ring, const struct rec *r, u16 extra)
{
	u8 *data = perf_mmap__data(&ring->map);
	struct rec said = *r;

	rec__say_size(&said, r->size + extra);
	for (u16 i = 0; i < r->size; i++)
		data[(ring->head + i) % RING_SIZE] = said.bytes[i];
	ring->head += r->size + extra;
	((struct perf_event_mmap_page *)ring->mem)->data_head = ring->head;
}

/* The records the test writes, as they are meant. */
struct recs {
	struct rec mmap, comm, bpf, ksym, bpf2, comm2;
};

static int recs__make(struct recs *rs)
{
	union perf_event *ev = malloc(sizeof(*ev));
	size_t len;

	if (!ev)
		return -1;
	/* 72 bytes of fields, then the name: its part past 56 is stale under the BPF_EVENT. */
	memset(ev, 0, sizeof(*ev));
	ev->mmap2.header.type = PERF_RECORD_MMAP2;
	ev->mmap2.pid = ev->mmap2.tid = PID;
	ev->mmap2.start = 0x7f0000000000ULL;
	ev->mmap2.len = 0x1000;
	strcpy(ev->mmap2.filename, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	len = offsetof(struct perf_record_mmap2, filename) + strlen(ev->mmap2.filename) + 1;
	rec__make(&rs->mmap, ev, PERF_ALIGN(len, 8), 1000);

	/* Takes the ring to its end: 144 + 112 bytes. */
	memset(ev, 0, sizeof(*ev));
	ev->comm.header.type = PERF_RECORD_COMM;
	ev->comm.pid = ev->comm.tid = PID;
	strcpy(ev->comm.comm, "loader");
	rec__make(&rs->comm, ev, 112 - sizeof(struct trailer), 1100);

	memset(ev, 0, sizeof(*ev));
	ev->bpf.header.type = PERF_RECORD_BPF_EVENT;
	ev->bpf.type = 1;	/* PERF_BPF_EVENT_PROG_LOAD */
	ev->bpf.id = 1910;
	memcpy(ev->bpf.tag, "\x0a\xc5\x77\x87\x6f\xc3\x7c\xd7", 8);
	rec__make(&rs->bpf, ev, sizeof(ev->bpf), 2000);

	memset(ev, 0, sizeof(*ev));
	ev->ksymbol.header.type = PERF_RECORD_KSYMBOL;
	ev->ksymbol.addr = 0xffffffffc0000b88ULL;
	ev->ksymbol.len = 40;
	ev->ksymbol.ksym_type = 1;	/* PERF_RECORD_KSYMBOL_TYPE_BPF */
	strcpy(ev->ksymbol.name, "bpf_prog_0ac577876fc37cd7_perf_test_loop");
	len = offsetof(struct perf_record_ksymbol, name) + strlen(ev->ksymbol.name) + 1;
	rec__make(&rs->ksym, ev, PERF_ALIGN(len, 8), 2001);

	/* Takes the ring to 200 bytes past a lap, for the last BPF_EVENT. */
	memset(ev, 0, sizeof(*ev));
	ev->comm.header.type = PERF_RECORD_COMM;
	ev->comm.pid = ev->comm.tid = PID;
	strcpy(ev->comm.comm, "loader2");
	rec__make(&rs->comm2, ev, 200 - sizeof(struct trailer), 3000);
	/* Its stale bytes run over the ring's end: a record read from a copy. */
	rs->bpf2 = rs->bpf;
	rec__set_trailer(&rs->bpf2, offsetof(struct trailer, time), 3001);
	free(ev);
	return 0;
}

/* A tracking event of id TRACK_ID after a recorded one of OTHER_ID, trailers alike. */
static struct evlist *evlist__tracking(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_type = SAMPLE_TYPE,
		.sample_id_all = 1,
	};
	struct evlist *evlist = evlist__new();
	struct evsel *e;

	for (int i = 0; evlist && i < 2; i++) {
		if (i) {
			attr.config = PERF_COUNT_SW_DUMMY;
			attr.mmap = attr.mmap2 = attr.comm = attr.task = 1;
			attr.ksymbol = attr.bpf_event = 1;
		}
		e = evsel__new(&attr);
		if (!e || evlist__id_add(evlist, e, 0, 0, i ? TRACK_ID : OTHER_ID)) {
			evsel__delete(e);
			evlist__delete(evlist);
			return NULL;
		}
		e->tracking = i;
		evlist__add(evlist, e);
	}
	return evlist;
}

/* A growing byte string: what a dump wrote, or what is expected. */
struct bytes {
	char *buf;
	size_t len, cap;
};

static int bytes__add(struct bytes *b, const void *p, size_t len)
{
	if (b->len + len > b->cap) {
		size_t cap = (b->len + len) * 2;
		char *n = realloc(b->buf, cap);

		if (!n)
			return -1;
		b->buf = n;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, p, len);
	b->len += len;
	return 0;
}

static int bytes__rec(struct bytes *b, const struct rec *r)
{
	return bytes__add(b, r->bytes, r->size);
}

static int bytes__round(struct bytes *b)
{
	struct perf_event_header h = { .type = PERF_RECORD_FINISHED_ROUND, .size = sizeof(h) };

	return bytes__add(b, &h, sizeof(h));
}

/* Says where @got and @want part, and whether they do. */
static bool bytes__differ(const char *what, const void *got, size_t got_len,
			  const struct bytes *want)
{
	size_t n = 0;

	if (got_len == want->len && (!got_len || !memcmp(got, want->buf, got_len)))
		return false;
	while (n < got_len && n < want->len && ((const char *)got)[n] == want->buf[n])
		n++;
	pr_debug("%s: %zu bytes written, %zu due; they part at byte %zu\n", what, got_len,
		 want->len, n);
	return true;
}

static int sink__write(void *arg, const void *buf, size_t size)
{
	return bytes__add(arg, buf, size);
}

static int sink__event(void *arg, union perf_event *event)
{
	return bytes__add(arg, event, event->header.size);
}

static int sink__finish(void *arg, const struct flight_recorder_dump *d)
{
	return 0;
}

/*
 * Pass 1: MMAP2 and COMM, the ring full.  Pass 2: where they lay, a
 * BPF_EVENT whose header counts two other events' trailers, a KSYMBOL's
 * one.  Pass 3: a long COMM.  Pass 4: a BPF_EVENT with one more trailer
 * counted, over the ring's end.
 */
static int feed(struct record_read *rd, struct ring *ring, const struct recs *rs, int pass)
{
	switch (pass) {
	case 1:
		ring__put(ring, &rs->mmap, 0);
		ring__put(ring, &rs->comm, 0);
		break;
	case 2:
		ring__put(ring, &rs->bpf, 2 * sizeof(struct trailer));
		ring__put(ring, &rs->ksym, sizeof(struct trailer));
		break;
	case 3:
		ring__put(ring, &rs->comm2, 0);
		break;
	default:
		ring__put(ring, &rs->bpf2, sizeof(struct trailer));
		break;
	}
	return record_read__all(rd);
}

/* A plain recording: each record in the file as it lies, the oversized ones cut. */
static int test__plain(const struct recs *rs)
{
	struct evlist *evlist = evlist__tracking();
	struct record_output out = { 0 };
	struct record_read rd = { .evlist = evlist, .out = &out };
	struct bytes want = { NULL };
	struct ring ring;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("setup", evlist && !record_output__init(&out, "x", 0) &&
			!ring__init(&ring));
	evlist->mmap = &ring.map;
	evlist->nr_mmaps = 1;
	out.open = true;	/* as if begun: what is written stays in the write buffer */
	for (int pass = 1; pass <= 4; pass++) {
		if (feed(&rd, &ring, rs, pass) != 1) {
			pr_debug("plain: pass %d found no data\n", pass);
			goto out;
		}
	}
	if (bytes__rec(&want, &rs->mmap) || bytes__rec(&want, &rs->comm) || bytes__round(&want) ||
	    bytes__rec(&want, &rs->bpf) || bytes__rec(&want, &rs->ksym) || bytes__round(&want) ||
	    bytes__rec(&want, &rs->comm2) || bytes__round(&want) || bytes__rec(&want, &rs->bpf2) ||
	    bytes__round(&want))
		goto out;
	if (bytes__differ("plain", out.wbuf, out.wbuf_len, &want))
		goto out;
	if (rd.cut != 3) {
		pr_debug("plain: %llu records cut, 3 due\n", (unsigned long long)rd.cut);
		goto out;
	}
	ret = TEST_OK;
out:
	out.open = false;
	evlist->mmap = NULL;
	evlist->nr_mmaps = 0;
	ring__exit(&ring);
	record_output__exit(&out);
	evlist__delete(evlist);
	free(want.buf);
	return ret;
}

/*
 * A flight recorder: every tracking record, BPF_EVENTs too, goes into
 * the process table, which writes them into the dump in time order.
 */
static int test__dump(const struct recs *rs)
{
	struct evlist *evlist = evlist__tracking();
	struct record_output out = { 0 };
	struct record_read rd = { .evlist = evlist, .out = &out };
	struct bytes want = { NULL }, dumped = { NULL };
	struct flight_recorder_writer w = {
		.write = sink__write, .event = sink__event, .finish = sink__finish, .arg = &dumped,
	};
	struct flight_recorder *fr;
	struct ring ring;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("setup", evlist && !record_output__init(&out, "x", 0) &&
			!ring__init(&ring));
	fr = flight_recorder__new(evlist, 1 << 20);
	TEST_ASSERT_VAL("engine", fr);
	rd.fr = fr;
	evlist->mmap = &ring.map;
	evlist->nr_mmaps = 1;
	out.open = true;
	for (int pass = 1; pass <= 4; pass++) {
		if (feed(&rd, &ring, rs, pass) != 1) {
			pr_debug("dump: pass %d found no data\n", pass);
			goto out;
		}
	}
	if (bytes__differ("dump: nothing into the file", out.wbuf, out.wbuf_len, &want))
		goto out;

	/* The table's records of the time since the last dump (none: since the start). */
	flight_recorder__describe_since_dump(fr);
	if (flight_recorder__dump(fr, &w)) {
		pr_debug("dump: failed\n");
		goto out;
	}
	want.len = 0;
	if (bytes__rec(&want, &rs->mmap) || bytes__rec(&want, &rs->comm) ||
	    bytes__rec(&want, &rs->bpf) || bytes__rec(&want, &rs->ksym) ||
	    bytes__rec(&want, &rs->comm2) || bytes__rec(&want, &rs->bpf2))
		goto out;
	if (bytes__differ("dump: the process table", dumped.buf, dumped.len, &want))
		goto out;
	ret = TEST_OK;
out:
	out.open = false;
	evlist->mmap = NULL;
	evlist->nr_mmaps = 0;
	flight_recorder__delete(fr);
	ring__exit(&ring);
	record_output__exit(&out);
	evlist__delete(evlist);
	free(want.buf);
	free(dumped.buf);
	return ret;
}

/* evlist__record_size() of @r said to be @extra bytes longer. */
static u16 size_of(struct evlist *evlist, const struct rec *r, u16 extra)
{
	struct rec said = *r;

	rec__say_size(&said, r->size + extra);
	return evlist__record_size(evlist, (const union perf_event *)said.bytes);
}

/* What is cut, and what is left as it is. */
static int test__record_size(const struct recs *rs)
{
	struct evlist *evlist = evlist__tracking();
	struct evsel *track;
	struct rec r;

	TEST_ASSERT_VAL("evlist", evlist);
	track = evlist__id2evsel(evlist, TRACK_ID);
	TEST_ASSERT_VAL("the tracking event", track && track->tracking);
	TEST_ASSERT_EQUAL("at its size", size_of(evlist, &rs->ksym, 0), 104);
	TEST_ASSERT_EQUAL("KSYMBOL cut", size_of(evlist, &rs->ksym, 64), 104);
	TEST_ASSERT_EQUAL("BPF_EVENT cut", size_of(evlist, &rs->bpf, 32), 56);
	TEST_ASSERT_EQUAL("other records as they are", size_of(evlist, &rs->comm, 32), 144);
	/* Not the tracking event's id where its trailer would end: not ours to cut. */
	r = rs->bpf;
	rec__set_trailer(&r, offsetof(struct trailer, id), OTHER_ID);
	TEST_ASSERT_EQUAL("another's id", size_of(evlist, &r, 32), 88);
	/* A name without its NUL: no size to tell. */
	r = rs->ksym;
	memset(r.bytes + offsetof(struct perf_record_ksymbol, name), 'x', r.size - 24);
	TEST_ASSERT_EQUAL("no NUL", size_of(evlist, &r, 32), 136);
	/* Without sample_id_all the kernel gives ours no trailer: the body alone. */
	track->attr.sample_id_all = 0;
	TEST_ASSERT_EQUAL("no trailer", size_of(evlist, &rs->ksym, 32), 72);
	/* Nobody asked for the records: left as they are. */
	track->attr.sample_id_all = 1;
	track->attr.ksymbol = 0;
	TEST_ASSERT_EQUAL("not asked for", size_of(evlist, &rs->ksym, 32), 136);
	evlist__delete(evlist);
	return TEST_OK;
}

static int test__sideband_sizes(void)
{
	struct recs rs;

	TEST_ASSERT_VAL("records", !recs__make(&rs) && rs.mmap.size == 144 && rs.comm.size == 112 &&
			rs.bpf.size == 56 && rs.ksym.size == 104);
	TEST_ASSERT_EQUAL("what is cut", test__record_size(&rs), TEST_OK);
	TEST_ASSERT_EQUAL("a plain recording", test__plain(&rs), TEST_OK);
	TEST_ASSERT_EQUAL("a flight recorder's dump", test__dump(&rs), TEST_OK);
	return TEST_OK;
}

DEFINE_SUITE(sideband_sizes, "perf record's forward reading: KSYMBOL and BPF_EVENT records the kernel sized for other tools' events too go out at their own size, into a file and a dump");
