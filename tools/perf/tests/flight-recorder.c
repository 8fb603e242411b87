/*
 * The dump engine with fake backward buffers that the test writes as the
 * kernel would: records placed below data_head, newest lowest.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "tests.h"
#include "util/evlist.h"
#include "util/flight-recorder.h"
#include "util/page-size.h"

#define NR_FAKE 3
#define NR_SWAP 4	/* two pairs */

struct fake {
	void *mem[NR_SWAP];
	size_t size[NR_SWAP];
	u64 head[NR_SWAP];	/* the kernel's head, published or not */
	u64 seq;		/* the next record's number */
};

/* What a dump wrote, and how its finish went. */
struct sink {
	char *buf;
	size_t len, cap;
	struct flight_recorder_dump dump;
	int finishes;
	int fail_finish;	/* the finish callback's answer */
	int fail_write;		/* > 0: the write callback fails at that call from now */
};

static struct perf_event_mmap_page *fake__page(struct fake *f, int i)
{
	return f->mem[i];
}

static char *fake__data(struct fake *f, int i)
{
	return (char *)f->mem[i] + page_size();
}

/*
 * Writes a record of @size bytes below the head of buffer @i: a header,
 * its sequence number, then that number repeated.  @publish: move
 * data_head as perf_output_end() does; without it the write is still in
 * progress.
 */
static void fake__write(struct fake *f, int i, u32 type, u16 size, bool publish)
{
	u64 mask = f->size[i] - 1, pos;
	u64 words[64];
	struct perf_event_header *h = (void *)words;

	f->head[i] -= size;
	h->type = type;
	h->misc = 0;
	h->size = size;
	for (unsigned int w = 1; w < size / 8u; w++)
		words[w] = f->seq;
	f->seq++;
	pos = f->head[i];
	for (unsigned int b = 0; b < size; b++)
		fake__data(f, i)[(pos + b) & mask] = ((char *)words)[b];
	if (publish)
		__atomic_store_n(&fake__page(f, i)->data_head, f->head[i], __ATOMIC_RELEASE);
}

/* A LOST record below the head of buffer @i: id, then the count of events lost. */
static void fake__lost(struct fake *f, int i, u64 nr)
{
	u64 mask = f->size[i] - 1, pos;
	u64 lost[3] = { 0, 0, nr };
	struct perf_event_header *h = (void *)lost;

	h->type = PERF_RECORD_LOST;
	h->size = sizeof(lost);
	f->head[i] -= sizeof(lost);
	pos = f->head[i];
	for (unsigned int b = 0; b < sizeof(lost); b++)
		fake__data(f, i)[(pos + b) & mask] = ((char *)lost)[b];
}

static void fake__publish(struct fake *f, int i)
{
	__atomic_store_n(&fake__page(f, i)->data_head, f->head[i], __ATOMIC_RELEASE);
}

static int sink__write(void *arg, const void *buf, size_t size)
{
	struct sink *s = arg;

	if (s->fail_write > 0 && --s->fail_write == 0) {
		s->fail_write = 1;
		return -EIO;
	}
	if (s->len + size > s->cap) {
		size_t cap = (s->len + size) * 2;
		char *b = realloc(s->buf, cap);

		if (!b)
			return -ENOMEM;
		s->buf = b;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, buf, size);
	s->len += size;
	return 0;
}

static int sink__event(void *arg, union perf_event *event)
{
	return sink__write(arg, event, event->header.size);
}

static int sink__finish(void *arg, const struct flight_recorder_dump *d)
{
	struct sink *s = arg;

	s->dump = *d;
	s->finishes++;
	return s->fail_finish;
}

/*
 * Checks what a dump wrote: whole records of the fake's pattern, their
 * numbers falling by one from @newest (LOST records must not be there),
 * then a round mark if anything was written.  Returns how many records.
 */
static int sink__check(struct sink *s, u64 newest)
{
	size_t off = 0;
	int n = 0;

	while (off < s->len) {
		const struct perf_event_header *h = (const void *)(s->buf + off);
		const u64 *w = (const u64 *)h;

		if (h->size < sizeof(*h) || off + h->size > s->len)
			return -1;
		if (h->type == PERF_RECORD_FINISHED_ROUND) {
			off += h->size;
			continue;
		}
		if (h->type == PERF_RECORD_LOST || h->size < 16)
			return -1;
		for (unsigned int i = 1; i < h->size / 8u; i++)
			if (w[i] != w[1])
				return -1;
		/* Newest first within a buffer; a new buffer may start anywhere. */
		if (n == 0 && w[1] != newest)
			return -1;
		n++;
		off += h->size;
	}
	return n;
}

static void sink__reset(struct sink *s)
{
	s->len = 0;
	memset(&s->dump, 0, sizeof(s->dump));
}

static struct flight_recorder_writer writer_of(struct sink *s)
{
	struct flight_recorder_writer w = {
		.write = sink__write,
		.event = sink__event,
		.finish = sink__finish,
		.arg = s,
	};

	return w;
}

/* The engine, the parent, the fake buffers and the sink of a test, freed. */
static void rig__free(struct flight_recorder *fr, struct evlist *parent, struct fake *f, int nr,
		      struct sink *s)
{
	flight_recorder__delete(fr);
	evlist__delete(parent);
	for (int i = 0; i < nr; i++)
		free(f->mem[i]);
	free(s->buf);
}

static int test__flight_recorder_fake(void)
{
	long page = page_size();
	struct fake f = { .size = { 4096, 16384, 65536 } };
	struct sink s = { .buf = NULL };
	struct flight_recorder_writer w = writer_of(&s);
	const struct flight_recorder_stats *st;
	struct evlist *parent = evlist__new();
	struct flight_recorder *fr;
	int ret = TEST_FAIL, n;
	u64 seq0;

	TEST_ASSERT_VAL("parent", parent);
	for (int i = 0; i < NR_FAKE; i++) {
		f.mem[i] = calloc(1, page + f.size[i]);
		TEST_ASSERT_VAL("memory", f.mem[i]);
	}
	fr = flight_recorder__new(parent, 0);
	TEST_ASSERT_VAL("engine", fr);
	TEST_ASSERT_EQUAL("fake buffers", flight_recorder__mmap_fake(fr, f.mem, f.size, NR_FAKE, false), 0);
	TEST_ASSERT_EQUAL("three buffers", flight_recorder__nr_buffers(fr), NR_FAKE);
	st = flight_recorder__stats(fr);

	/* Empty buffers: a dump with no records, but a dump. */
	TEST_ASSERT_EQUAL("empty dump", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("empty: nothing written", s.len, 0);
	TEST_ASSERT_EQUAL("empty: finished", s.finishes, 1);
	TEST_ASSERT_EQUAL("pending of nothing", flight_recorder__pending_bytes(fr), 0);

	/* A quiet buffer: three records, then again only what is new. */
	seq0 = f.seq;
	fake__write(&f, 1, PERF_RECORD_SAMPLE, 40, true);
	fake__write(&f, 1, PERF_RECORD_SAMPLE, 24, true);
	fake__write(&f, 1, PERF_RECORD_SAMPLE, 64, true);
	TEST_ASSERT_EQUAL("pending bytes", flight_recorder__pending_bytes(fr), 128);
	sink__reset(&s);
	TEST_ASSERT_EQUAL("quiet dump", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("quiet: three records, newest first", sink__check(&s, seq0 + 2), 3);
	TEST_ASSERT_EQUAL("quiet: samples", s.dump.samples, 3);
	TEST_ASSERT_EQUAL("quiet: bytes", s.dump.bytes, 128);
	fake__write(&f, 1, PERF_RECORD_SAMPLE, 32, true);
	sink__reset(&s);
	TEST_ASSERT_EQUAL("only the new", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("only the new: one record", sink__check(&s, seq0 + 3), 1);

	/* A lap and a half of the 4 KiB buffer: only whole records, the newest. */
	seq0 = f.seq;
	for (int i = 0; i < 150; i++)
		fake__write(&f, 0, PERF_RECORD_SAMPLE, 40 + 8 * (i % 3), true);
	sink__reset(&s);
	TEST_ASSERT_EQUAL("lap dump", flight_recorder__dump(fr, &w), 0);
	n = sink__check(&s, f.seq - 1);
	TEST_ASSERT_VAL("lap: whole records, newest first", n > 0);
	TEST_ASSERT_VAL("lap: no more than one buffer", s.dump.bytes <= 4096);
	TEST_ASSERT_VAL("lap: all but the partly overwritten", s.dump.bytes > 4096 - 56);
	TEST_ASSERT_VAL("lap: fewer than written", n < 150);

	/* A writer still inside its record at the pause: not in this dump, whole in the next. */
	fake__write(&f, 2, PERF_RECORD_SAMPLE, 48, true);
	seq0 = f.seq;
	fake__write(&f, 2, PERF_RECORD_SAMPLE, 56, false);
	sink__reset(&s);
	TEST_ASSERT_EQUAL("in-progress dump", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("in progress: only the finished one", sink__check(&s, seq0 - 1), 1);
	fake__publish(&f, 2);
	sink__reset(&s);
	TEST_ASSERT_EQUAL("after it finished", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("finished: the record, whole", sink__check(&s, seq0), 1);

	/* The LOST record of a pause comes just below the first event after it. */
	fake__write(&f, 1, PERF_RECORD_SAMPLE, 32, true);
	fake__lost(&f, 1, 7);
	seq0 = f.seq;
	fake__write(&f, 1, PERF_RECORD_SAMPLE, 32, true);
	sink__reset(&s);
	TEST_ASSERT_EQUAL("lost dump", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("lost: taken out, the samples around it kept", sink__check(&s, seq0), 2);
	TEST_ASSERT_EQUAL("lost: counted in the dump", s.dump.lost, 7);
	TEST_ASSERT_EQUAL("lost: counted in the stats", st->lost, 7);

	/* Many buffers at once, of three sizes: each buffer's records, in order. */
	for (int i = 0; i < NR_FAKE; i++)
		for (int k = 0; k < 5; k++)
			fake__write(&f, i, PERF_RECORD_SAMPLE, 16 + 8 * k, true);
	sink__reset(&s);
	TEST_ASSERT_EQUAL("three buffers", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("three buffers: all records", s.dump.samples, 15);
	TEST_ASSERT_EQUAL("three buffers: 5 x 3 records", sink__check(&s, f.seq - 11), 15);

	/* A dump that fails at its end: its records come with the next one. */
	seq0 = f.seq;
	fake__write(&f, 0, PERF_RECORD_SAMPLE, 24, true);
	fake__write(&f, 2, PERF_RECORD_SAMPLE, 24, true);
	s.fail_finish = -ENOSPC;
	sink__reset(&s);
	TEST_ASSERT_EQUAL("failed dump", flight_recorder__dump(fr, &w), -ENOSPC);
	TEST_ASSERT_EQUAL("failed: counted", st->failed, 1);
	s.fail_finish = 0;
	sink__reset(&s);
	TEST_ASSERT_EQUAL("dump after the failure", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("after the failure: both records again", s.dump.samples, 2);
	TEST_ASSERT_EQUAL("after the failure: whole", sink__check(&s, seq0), 2);

	/* Every pause went through the state machine and ended resumed. */
	TEST_ASSERT_VAL("pauses counted", st->pauses >= 7 * NR_FAKE);
	TEST_ASSERT_EQUAL("dumps counted", st->dumps, 9);
	ret = TEST_OK;
	rig__free(fr, parent, &f, NR_FAKE, &s);
	return ret;
}
DEFINE_SUITE(flight_recorder_fake, "Flight recorder: dumps of fake buffers (empty, lap, in progress, LOST, failure)");

/*
 * Counts the sink's records, which must all be numbered in [@lo, @hi),
 * none twice (round marks aside); -1 otherwise.  sink__holds() wants every
 * number there, sink__has() the one number @seq.
 */
static int sink__count(struct sink *s, u64 lo, u64 hi, u64 seq, bool *has)
{
	unsigned char seen[1024] = { 0 };
	size_t off = 0;
	int n = 0;

	if (hi - lo > sizeof(seen))
		return -1;
	while (off < s->len) {
		const struct perf_event_header *h = (const void *)(s->buf + off);
		const u64 *w = (const u64 *)h;

		if (h->size < sizeof(*h) || off + h->size > s->len)
			return -1;
		off += h->size;
		if (h->type == PERF_RECORD_FINISHED_ROUND)
			continue;
		if (h->type != PERF_RECORD_SAMPLE || h->size < 16 || w[1] < lo || w[1] >= hi ||
		    seen[w[1] - lo]++)
			return -1;
		*has |= w[1] == seq;
		n++;
	}
	return n;
}

static int sink__holds(struct sink *s, u64 lo, u64 hi)
{
	bool has = false;

	return sink__count(s, lo, hi, lo, &has) == (int)(hi - lo) ? (int)(hi - lo) : -1;
}

static bool sink__has(struct sink *s, u64 lo, u64 hi, u64 seq)
{
	bool has = false;

	return sink__count(s, lo, hi, seq, &has) > 0 && has;
}

/* Writes @n samples into the buffer pair @p's events write into now. */
static void fake__write_pair(struct fake *f, struct flight_recorder *fr, int p, int n)
{
	for (int k = 0; k < n; k++)
		fake__write(f, flight_recorder__active(fr, p), PERF_RECORD_SAMPLE, 24 + 8 * (k % 4),
			    true);
}

static int test__flight_recorder_swap(void)
{
	long page = page_size();
	struct fake f = { .size = { 4096, 4096, 8192, 8192 } };
	struct sink s = { .buf = NULL };
	struct flight_recorder_writer w = writer_of(&s);
	const struct flight_recorder_stats *st;
	struct evlist *parent = evlist__new();
	struct flight_recorder *fr;
	int ret = TEST_FAIL, a, n;
	bool has = false;
	u64 seq0;

	TEST_ASSERT_VAL("parent", parent);
	for (int i = 0; i < NR_SWAP; i++) {
		f.mem[i] = calloc(1, page + f.size[i]);
		TEST_ASSERT_VAL("memory", f.mem[i]);
	}
	fr = flight_recorder__new(parent, 0);
	TEST_ASSERT_VAL("engine", fr);
	TEST_ASSERT_EQUAL("odd buffers refused", flight_recorder__mmap_fake(fr, f.mem, f.size, 3, true),
			  -EINVAL);
	flight_recorder__delete(fr);
	fr = flight_recorder__new(parent, 0);
	TEST_ASSERT_VAL("engine", fr);
	TEST_ASSERT_EQUAL("fake pairs", flight_recorder__mmap_fake(fr, f.mem, f.size, NR_SWAP, true), 0);
	st = flight_recorder__stats(fr);
	TEST_ASSERT_EQUAL("pair 0 starts on buffer 0", flight_recorder__active(fr, 0), 0);
	TEST_ASSERT_EQUAL("pair 1 starts on buffer 2", flight_recorder__active(fr, 1), 2);

	/* A dump swaps each pair and writes the buffer left. */
	seq0 = f.seq;
	fake__write_pair(&f, fr, 0, 3);
	fake__write_pair(&f, fr, 1, 2);
	TEST_ASSERT_EQUAL("first dump", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("first: all five", sink__holds(&s, seq0, f.seq), 5);
	TEST_ASSERT_EQUAL("pair 0 swapped", flight_recorder__active(fr, 0), 1);
	TEST_ASSERT_EQUAL("pair 1 swapped", flight_recorder__active(fr, 1), 3);

	/* The spares take over; the next dump swaps back to buffers that still hold the first. */
	seq0 = f.seq;
	fake__write_pair(&f, fr, 0, 4);
	sink__reset(&s);
	TEST_ASSERT_EQUAL("second dump", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("second: only the new four", sink__holds(&s, seq0, f.seq), 4);
	TEST_ASSERT_EQUAL("pair 0 back on buffer 0", flight_recorder__active(fr, 0), 0);
	seq0 = f.seq;
	fake__write_pair(&f, fr, 0, 2);
	sink__reset(&s);
	TEST_ASSERT_EQUAL("third dump", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("third: a reused buffer's old records not again", sink__holds(&s, seq0, f.seq),
			  2);

	/* A dump whose second write fails: it swapped pair 0 and wrote part of it. */
	seq0 = f.seq;
	fake__write_pair(&f, fr, 0, 3);
	fake__write(&f, flight_recorder__active(fr, 0), PERF_RECORD_SAMPLE, 24, true);
	fake__lost(&f, flight_recorder__active(fr, 0), 5);
	fake__write_pair(&f, fr, 0, 1);
	fake__write_pair(&f, fr, 1, 3);
	s.fail_write = 2;
	sink__reset(&s);
	TEST_ASSERT_EQUAL("failing dump", flight_recorder__dump(fr, &w), -EIO);
	TEST_ASSERT_EQUAL("failed: counted", st->failed, 1);
	/* The events went on into the other buffers meanwhile. */
	fake__write_pair(&f, fr, 0, 2);
	fake__write_pair(&f, fr, 1, 2);
	s.fail_write = 0;
	sink__reset(&s);
	TEST_ASSERT_EQUAL("dump after the failure", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("after it: each record once, none lost", sink__holds(&s, seq0, f.seq), 12);
	TEST_ASSERT_EQUAL("after it: the LOST record counted", s.dump.lost, 5);
	sink__reset(&s);
	TEST_ASSERT_EQUAL("a quiet dump", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("quiet: nothing again", s.len, 0);

	/* A finish that fails, twice: the records wait in both buffers of each pair. */
	seq0 = f.seq;
	for (int k = 0; k < 3; k++) {
		fake__write_pair(&f, fr, 0, 2);
		fake__write_pair(&f, fr, 1, 1);
		s.fail_finish = k < 2 ? -ENOSPC : 0;
		sink__reset(&s);
		TEST_ASSERT_EQUAL("finish", flight_recorder__dump(fr, &w), s.fail_finish);
	}
	TEST_ASSERT_EQUAL("after two failed finishes: all nine once", sink__holds(&s, seq0, f.seq), 9);

	/* A trigger's freeze: the past stays in the buffers left, the window goes to the spares. */
	seq0 = f.seq;
	fake__write_pair(&f, fr, 0, 3);
	a = flight_recorder__active(fr, 0);
	TEST_ASSERT_EQUAL("freeze", flight_recorder__freeze(fr), 0);
	TEST_ASSERT_EQUAL("frozen: pair 0 on its spare", flight_recorder__active(fr, 0), a ^ 1);
	/* A window of six laps of the spare: it laps the spare, not the past. */
	fake__write(&f, a ^ 1, PERF_RECORD_SAMPLE, 32, true);
	for (int k = 0; k < 6 * 4096 / 32; k++)
		fake__write(&f, a ^ 1, PERF_RECORD_SAMPLE, 32, true);
	sink__reset(&s);
	TEST_ASSERT_EQUAL("window's dump", flight_recorder__dump(fr, &w), 0);
	n = sink__count(&s, seq0, f.seq, 0, &has);
	TEST_ASSERT_VAL("window: records of the past and a lap of the window", n >= 3 + 4096 / 32 - 1);
	for (u64 q = seq0; q < seq0 + 3; q++)
		TEST_ASSERT_VAL("window: every record of the past", sink__has(&s, seq0, f.seq, q));
	TEST_ASSERT_VAL("window: its newest record", sink__has(&s, seq0, f.seq, f.seq - 1));
	TEST_ASSERT_VAL("window: its first record lapped", !sink__has(&s, seq0, f.seq, seq0 + 3));
	TEST_ASSERT_EQUAL("the frozen pair back on its buffer", flight_recorder__active(fr, 0), a);

	TEST_ASSERT_EQUAL("no pause in swap mode", st->pauses, 0);
	TEST_ASSERT_VAL("swaps counted", st->swaps >= 16);
	ret = TEST_OK;
	rig__free(fr, parent, &f, NR_SWAP, &s);
	return ret;
}
DEFINE_SUITE(flight_recorder_swap, "Flight recorder: swapped fake buffer pairs (reuse, a failed write and finish, a trigger's freeze)");

/* A sample of sample_type TIME below the head of buffer @i: its time, then @payload. */
static void fake__timed(struct fake *f, int i, u64 time, u64 payload)
{
	u64 mask = f->size[i] - 1, words[3];
	struct perf_event_header *h = (void *)words;

	h->type = PERF_RECORD_SAMPLE;
	h->misc = 0;
	h->size = sizeof(words);
	words[1] = time;
	words[2] = payload;
	f->head[i] -= sizeof(words);
	for (unsigned int b = 0; b < sizeof(words); b++)
		fake__data(f, i)[(f->head[i] + b) & mask] = ((char *)words)[b];
	fake__publish(f, i);
}

/* The samples of the sink, and how many fall in [@lo, @hi] ns. */
static int sink__timed(struct sink *s, u64 lo, u64 hi)
{
	int n = 0;

	for (size_t off = 0; off + sizeof(struct perf_event_header) <= s->len;) {
		const struct perf_event_header *h = (const void *)(s->buf + off);
		const u64 *w = (const u64 *)h;

		if (h->size < sizeof(*h))
			return -1;
		off += h->size;
		n += h->type == PERF_RECORD_SAMPLE && h->size == 24 && w[1] >= lo && w[1] <= hi;
	}
	return n;
}

/* The move of a fake pair: a hit while both buffers of pair 0 are on. */
static void twin_hit(void *arg, int pair, int k)
{
	if (pair == 0 && k == 1)
		fake__timed(arg, 1, 1000000 + 10000 + 200, 0x5eed);
}

/*
 * A swap enables the spare before it disables the buffer left, so a hit
 * between the two calls is in both, a little later in the spare.  The
 * dump of the buffer left drops such a record once, for the one twin the
 * spare holds: a loop of like samples (the same syscall again and again)
 * around the move loses none of its others.
 */
static int test__flight_recorder_twins(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.size = sizeof(attr),
		.sample_type = PERF_SAMPLE_TIME,
		.sample_id_all = 1,
	};
	struct fake f = { .size = { 4096, 4096, 4096, 4096 } };
	struct sink s = { .buf = NULL };
	struct flight_recorder_writer w = writer_of(&s);
	struct evlist *parent = evlist__new();
	struct flight_recorder *fr;
	int ret = TEST_FAIL;

	TEST_ASSERT_VAL("parent", parent);
	evlist__add(parent, evsel__new(&attr));
	TEST_ASSERT_VAL("an event", evlist__first(parent));
	for (int i = 0; i < NR_SWAP; i++) {
		f.mem[i] = calloc(1, page_size() + f.size[i]);
		TEST_ASSERT_VAL("memory", f.mem[i]);
	}
	fr = flight_recorder__new(parent, 0);
	TEST_ASSERT_VAL("engine", fr);
	TEST_ASSERT_EQUAL("fake pairs", flight_recorder__mmap_fake(fr, f.mem, f.size, NR_SWAP, true), 0);

	/* Ten like samples 1 us apart in buffer 0; ten unlike ones in buffer 2. */
	for (u64 t = 1; t <= 10; t++) {
		fake__timed(&f, 0, 1000000 + 1000 * t, 0x5eed);
		fake__timed(&f, 2, 1000000 + 1000 * t, t);
	}
	/* The move of pair 0: the last like sample in its spare too, 200 ns later. */
	flight_recorder__fake_toggle(fr, twin_hit, &f);
	TEST_ASSERT_EQUAL("first dump", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("first: the twin dropped, its nine like samples kept",
			  sink__timed(&s, 1000000, 1000000 + 9000), 18);
	TEST_ASSERT_EQUAL("first: nineteen samples", sink__timed(&s, 0, ~0ULL), 19);
	sink__reset(&s);
	TEST_ASSERT_EQUAL("second dump", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("second: the twin, once", sink__timed(&s, 0, ~0ULL), 1);
	TEST_ASSERT_EQUAL("second: at its own time", sink__timed(&s, 1010200, 1010200), 1);
	ret = TEST_OK;
	rig__free(fr, parent, &f, NR_SWAP, &s);
	return ret;
}
DEFINE_SUITE(flight_recorder_twins, "Flight recorder: a record both buffers of a swap took is dropped once from the one left, a run of like ones kept");

/*
 * A tracking record into @buf: @len bytes of fields (set by the caller),
 * then the trailer of sample_type TID | TIME, then @junk stale bytes.
 */
static void track_rec(union perf_event *ev, u32 type, size_t len, u32 pid, u64 time,
		      size_t junk)
{
	u64 *trailer = (u64 *)((char *)ev + len);

	ev->header.type = type;
	ev->header.size = len + 2 * sizeof(u64) + junk;
	trailer[0] = (u64)pid << 32 | pid;
	trailer[1] = time;
	memset(&trailer[2], 0x7f, junk);
}

/* The first record of @type the sink holds, or NULL. */
static const union perf_event *sink__find(struct sink *s, u32 type)
{
	for (size_t off = 0; off + sizeof(struct perf_event_header) <= s->len;) {
		const union perf_event *ev = (const void *)(s->buf + off);

		if (ev->header.size < sizeof(ev->header))
			return NULL;
		if (ev->header.type == type)
			return ev;
		off += ev->header.size;
	}
	return NULL;
}

/* A record's trailer time, at its end. */
static u64 rec_time(const union perf_event *ev)
{
	return *(const u64 *)((const char *)ev + ev->header.size - sizeof(u64));
}

/* The writer's head: a mark of its own (type 99) where it goes. */
#define HEAD_MARK	99

static int sink__head(void *arg)
{
	struct perf_event_header h = { .type = HEAD_MARK, .size = sizeof(h) };

	return sink__write(arg, &h, sizeof(h));
}

/* Where the first record of @type is in the sink, counted in records; -1 if nowhere. */
static int sink__index(struct sink *s, u32 type)
{
	int n = 0;

	for (size_t off = 0; off + sizeof(struct perf_event_header) <= s->len; n++) {
		const struct perf_event_header *h = (const void *)(s->buf + off);

		if (h->size < sizeof(*h))
			return -1;
		if (h->type == type)
			return n;
		off += h->size;
	}
	return -1;
}

/*
 * The process table of a dump, fed by a tracking event of sample_type TID
 * | TIME.  The kernel writes a KSYMBOL record for every event that wants
 * it, adding each one's trailer size to the one header: on a CPU where
 * another session's event took it first, ours comes longer than meant,
 * stale bytes where readers look for its time.  The dump has it cut.
 *
 * And the table goes before the buffers' records, its time-0 ones first,
 * then the writer's head, then the rest: a reader that flushed the
 * samples it sorted would not apply an older record after them.
 */
static int test__flight_recorder_table(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.size = sizeof(attr),
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
		.sample_id_all = 1,
		.comm = 1, .task = 1, .mmap = 1, .ksymbol = 1, .bpf_event = 1,
	};
	union perf_event rec;
	struct fake f = { .size = { 4096 } };
	struct sink s = { .buf = NULL };
	struct flight_recorder_writer w = writer_of(&s);
	struct evlist *parent = evlist__new();
	const union perf_event *ev;
	struct flight_recorder *fr;
	size_t len;

	TEST_ASSERT_VAL("parent", parent);
	evlist__add(parent, evsel__new(&attr));
	TEST_ASSERT_VAL("tracking event", evlist__first(parent));
	fr = flight_recorder__new(parent, 1 << 20);
	TEST_ASSERT_VAL("engine", fr);
	flight_recorder__describe_since_dump(fr);

	memset(&rec, 0, sizeof(rec));
	rec.ksymbol.addr = 0xffffffffc0001000ULL;
	rec.ksymbol.len = 64;
	strcpy(rec.ksymbol.name, "bpf_prog_x");
	len = offsetof(struct perf_record_ksymbol, name) + 16;
	track_rec(&rec, PERF_RECORD_KSYMBOL, len, 0, 150, 16);
	TEST_ASSERT_VAL("kept by the table", !flight_recorder__track(fr, &rec));

	TEST_ASSERT_EQUAL("dump", flight_recorder__dump(fr, &w), 0);
	ev = sink__find(&s, PERF_RECORD_KSYMBOL);
	TEST_ASSERT_VAL("the KSYMBOL record is in the dump", ev);
	TEST_ASSERT_EQUAL("cut to its size", ev->header.size, len + 16);
	TEST_ASSERT_EQUAL("its time at its end", rec_time(ev), 150);

	flight_recorder__delete(fr);

	/* A task from /proc (time 0), one forked at 120, a sample at 130 in a buffer. */
	f.mem[0] = calloc(1, page_size() + f.size[0]);
	TEST_ASSERT_VAL("memory", f.mem[0]);
	fr = flight_recorder__new(parent, 1 << 20);
	TEST_ASSERT_VAL("engine", fr);
	TEST_ASSERT_EQUAL("a fake buffer", flight_recorder__mmap_fake(fr, f.mem, f.size, 1, false), 0);
	memset(&rec, 0, sizeof(rec));
	rec.comm.pid = rec.comm.tid = 10;
	strcpy(rec.comm.comm, "sh");
	track_rec(&rec, PERF_RECORD_COMM, sizeof(rec.comm), 10, 0, 0);
	flight_recorder__seed(fr, &rec);
	memset(&rec, 0, sizeof(rec));
	rec.fork.pid = rec.fork.tid = 20;
	rec.fork.ppid = rec.fork.ptid = 10;
	rec.fork.time = 120;
	track_rec(&rec, PERF_RECORD_FORK, sizeof(rec.fork), 20, 120, 0);
	TEST_ASSERT_VAL("the fork kept by the table", !flight_recorder__track(fr, &rec));
	f.seq = 130;
	fake__write(&f, 0, PERF_RECORD_SAMPLE, 32, true);
	w.head = sink__head;
	sink__reset(&s);
	TEST_ASSERT_EQUAL("dump with a buffer", flight_recorder__dump(fr, &w), 0);
	TEST_ASSERT_EQUAL("the sample", s.dump.samples, 1);
	TEST_ASSERT_EQUAL("the time-0 COMM first", sink__index(&s, PERF_RECORD_COMM), 0);
	TEST_ASSERT_EQUAL("then the head", sink__index(&s, HEAD_MARK), 1);
	TEST_ASSERT_EQUAL("then the FORK of 120", sink__index(&s, PERF_RECORD_FORK), 2);
	TEST_ASSERT_EQUAL("then the sample", sink__index(&s, PERF_RECORD_SAMPLE), 3);
	TEST_ASSERT_EQUAL("and the round", sink__index(&s, PERF_RECORD_FINISHED_ROUND), 4);

	flight_recorder__delete(fr);
	evlist__delete(parent);
	free(f.mem[0]);
	free(s.buf);
	return TEST_OK;
}
DEFINE_SUITE(flight_recorder_table, "Flight recorder: a dump's process table ahead of its buffers in time order, the head after its time-0 records, a KSYMBOL record the kernel made too long cut");
