/*
 * The backward (write_backward, overwrite) ring buffer walk, over buffers
 * built by hand the way the kernel fills them: each record goes at
 * head -= size, laid out at head & mask and wrapping at the end of the
 * data area.  No kernel is involved, so every wrap and alignment case can
 * be produced on purpose.  The real perf_mmap__* functions run over a fake
 * mapping (perf_mmap__init_fake).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/evlist.h"
#include "util/mmap.h"
#include "util/page-size.h"

/* A fake mapping plus the log of what was written into it. */
struct sim {
	void *mem;			/* control page + data */
	struct perf_event_mmap_page *pc;
	u8 *data;
	u64 size;
	u64 h0;				/* head before the first record */
	u64 head;
	u32 nr, cap;
	u16 *sizes;			/* per record, oldest first */
	bool *bad;			/* header size not what a kernel writes */
	u64 *pos;			/* head after writing each record */
	struct perf_mmap ev_map;	/* read through read_init/read_event */
	struct perf_mmap snap_map;	/* read through backward_snapshot */
	void *snap;
	size_t snap_cap;
};

static u8 rec_buf[1 << 16];

int test__pause_mmaps(struct evlist *evlist, bool pause)
{
	int err = 0;

	for (int i = 0; i < evlist->nr_mmaps; i++) {
		int e = perf_mmap__pause(&evlist->mmap[i], pause);

		if (e)
			err = e;
	}
	return err;
}

long test__backward_snapshot(struct perf_mmap *map, void **buf, size_t *cap)
{
	u64 size = map->mask + 1, len;
	struct perf_mmap_records r;
	int err;

	if (!map->base || !map->overwrite)
		return -EINVAL;
	if (size > *cap) {
		void *bigger = realloc(*buf, size);

		if (!bigger)
			return -ENOMEM;
		*buf = bigger;
		*cap = size;
	}
	len = perf_mmap__backward_copy(map, *buf);
	err = perf_mmap__backward_records(*buf, size, len, &r, NULL, NULL);
	return err ? err : (long)r.len;
}

static int sim__init(struct sim *s, u64 size, u64 h0, u32 cap)
{
	long page = page_size();

	memset(s, 0, sizeof(*s));
	s->mem = calloc(1, page + size);
	s->sizes = calloc(cap, sizeof(*s->sizes));
	s->bad = calloc(cap, sizeof(*s->bad));
	s->pos = calloc(cap, sizeof(*s->pos));
	if (!s->mem || !s->sizes || !s->bad || !s->pos)
		return -ENOMEM;
	s->pc = s->mem;
	s->data = (u8 *)s->mem + page;
	s->size = size;
	s->h0 = s->head = h0;
	s->cap = cap;
	s->pc->data_head = h0;
	if (perf_mmap__init_fake(&s->ev_map, s->mem, size, true) ||
	    perf_mmap__init_fake(&s->snap_map, s->mem, size, true))
		return -ENOMEM;
	return 0;
}

static void sim__exit(struct sim *s)
{
	perf_mmap__munmap(&s->ev_map);
	perf_mmap__munmap(&s->snap_map);
	free(s->mem);
	free(s->sizes);
	free(s->bad);
	free(s->pos);
	free(s->snap);
}

/*
 * Writes a record of @size bytes whose header claims @hdr_size (equal for
 * a well-formed record).  type = SIM_TYPE + sequence number (no kernel
 * type, so none is taken for a LOST record), misc = ~size, payload a
 * pattern of both, so a torn or misplaced record cannot pass for whole.
 */
#define SIM_TYPE 1000

static void sim__write_raw(struct sim *s, u16 size, u16 hdr_size)
{
	struct perf_event_header hdr = { .type = SIM_TYPE + s->nr, .misc = (u16)~size, .size = hdr_size };
	u64 off, first;

	if (s->nr == s->cap)
		abort();
	memcpy(rec_buf, &hdr, sizeof(hdr));
	for (u32 i = sizeof(hdr); i < size; i++)
		rec_buf[i] = (u8)(s->nr * 31 + i);
	s->head -= size;
	off = s->head & (s->size - 1);
	first = min_t(u64, size, s->size - off);
	memcpy(s->data + off, rec_buf, first);
	memcpy(s->data, rec_buf + first, size - first);
	s->sizes[s->nr] = size;
	s->bad[s->nr] = hdr_size != size || size % 8 || size < sizeof(hdr);
	s->pos[s->nr] = s->head;
	s->nr++;
	__atomic_store_n(&s->pc->data_head, s->head, __ATOMIC_RELEASE);
}

static void sim__write(struct sim *s, u16 size)
{
	sim__write_raw(s, size, size);
}

/* The header may sit anywhere, so it is copied out rather than dereferenced. */
static int check_record(const struct sim *s, const void *rec, u32 seq)
{
	struct perf_event_header hdr;
	const u8 *p = rec;

	u16 misc = (u16)~s->sizes[seq];

	memcpy(&hdr, rec, sizeof(hdr));
	if (hdr.type != SIM_TYPE + seq || hdr.size != s->sizes[seq] || hdr.misc != misc) {
		fprintf(stderr, "record %u: got type %u size %u misc %#x, want size %u\n",
			seq, hdr.type, hdr.size, hdr.misc, s->sizes[seq]);
		return TEST_FAIL;
	}
	for (u32 i = sizeof(hdr); i < hdr.size; i++) {
		if (p[i] != (u8)(seq * 31 + i)) {
			fprintf(stderr, "record %u: byte %u torn\n", seq, i);
			return TEST_FAIL;
		}
	}
	return TEST_OK;
}

/*
 * How many of the newest records a reader must get when its previous read
 * ended just before record @since: those written since, newest first, as
 * long as they fit whole in one buffer length, up to the first malformed
 * one.  *bytes gets their total size.
 */
static u32 sim__expected(const struct sim *s, u32 since, u64 *bytes)
{
	u32 n = 0;

	*bytes = 0;
	for (u32 seq = s->nr; seq-- > since; n++) {
		if (s->bad[seq] || *bytes + s->sizes[seq] > s->size)
			break;
		*bytes += s->sizes[seq];
	}
	return n;
}

/* Checks a linear copy of newest-first records: @n of them from record @newest down. */
static int check_linear(const struct sim *s, const u8 *buf, u64 len, u32 newest, u32 n)
{
	u64 off = 0;

	for (u32 i = 0; i < n; i++) {
		if (off >= len || check_record(s, buf + off, newest - i))
			return TEST_FAIL;
		off += s->sizes[newest - i];
	}
	TEST_ASSERT_EQUAL("whole copy used", off, len);
	return TEST_OK;
}

/* What a walk with a callback saw. */
struct walk_log {
	u32 n;
	u64 next_off;
	bool out_of_step;
	u16 sizes[64];
};

static void walk_log__add(void *arg, const struct perf_event_header *hdr, u64 off)
{
	struct walk_log *w = arg;

	if (off != w->next_off)
		w->out_of_step = true;
	if (w->n < 64)
		w->sizes[w->n] = hdr->size;
	w->n++;
	w->next_off = off + hdr->size;
}

/*
 * Reads the buffer the four ways, as a reader whose previous read ended
 * before record @since (0: never read), and compares with the log.  The
 * maps' prev is set by hand so the same state can be read again and again.
 */
static int sim__check(struct sim *s, u32 since)
{
	u64 stop = since ? s->pos[since - 1] : s->h0;
	u64 bytes, end;
	u32 n = sim__expected(s, since, &bytes);
	union perf_event *ev;
	ssize_t len;
	int ret;

	/* The walk alone; stop == head means "never read" there. */
	if (stop == s->head) {
		u64 all;
		u32 nall = sim__expected(s, 0, &all);

		ret = perf_mmap__backward_range(s->data, s->size, s->head, stop, &end);
		TEST_ASSERT_EQUAL("never-read walk result", ret, nall ? 0 : -EAGAIN);
		TEST_ASSERT_EQUAL("never-read walk end", end - s->head, all);
	} else {
		ret = perf_mmap__backward_range(s->data, s->size, s->head, stop, &end);
		TEST_ASSERT_EQUAL("walk result", ret, n ? 0 : -EAGAIN);
		TEST_ASSERT_EQUAL("walk end", end - s->head, bytes);
	}
	if (since == 0) {
		ret = perf_mmap__backward_range(s->data, s->size, s->head, s->head, &end);
		TEST_ASSERT_EQUAL("stop == head walks as never read", end - s->head, bytes);
	}
	if (stop != s->head) {
		struct walk_log w = { .n = 0 };

		perf_mmap__backward_walk(s->data, s->size, s->head, stop, &end, walk_log__add, &w);
		TEST_ASSERT_EQUAL("the callback saw every record", w.n, n);
		TEST_ASSERT_VAL("one after another", !w.out_of_step);
		TEST_ASSERT_EQUAL("up to the end of the walk", w.next_off, end - s->head);
		for (u32 i = 0; i < n && i < 64; i++)
			TEST_ASSERT_EQUAL("newest first", w.sizes[i], s->sizes[s->nr - 1 - i]);
	}

	s->ev_map.prev = stop;
	ret = perf_mmap__read_init(&s->ev_map);
	TEST_ASSERT_EQUAL("read_init", ret, n ? 0 : -EAGAIN);
	for (u32 i = 0; i < n; i++) {
		ev = perf_mmap__read_event(&s->ev_map);
		TEST_ASSERT_VAL("a record", ev);
		if (check_record(s, ev, s->nr - 1 - i))
			return TEST_FAIL;
	}
	if (n)
		TEST_ASSERT_VAL("nothing after the valid range", !perf_mmap__read_event(&s->ev_map));

	s->snap_map.prev = stop;
	len = test__backward_snapshot(&s->snap_map, &s->snap, &s->snap_cap);
	TEST_ASSERT_EQUAL("snapshot length", len, bytes);
	TEST_ASSERT_EQUAL("snapshot consumed", s->snap_map.prev, s->head);
	return check_linear(s, s->snap, len, s->nr - 1, n);
}

static int test__mmap_backward_basic(void)
{
	struct sim s;
	union perf_event *ev;
	u64 end;
	int ret = TEST_FAIL;

	/* Never written: zero header at head 0. */
	if (sim__init(&s, 4096, 0, 16))
		goto out;
	TEST_ASSERT_EQUAL("empty walk", perf_mmap__backward_range(s.data, 4096, 0, 0, &end), -EAGAIN);
	TEST_ASSERT_EQUAL("empty walk end", end, 0);
	TEST_ASSERT_EQUAL("empty read_init", perf_mmap__read_init(&s.ev_map), -EAGAIN);
	TEST_ASSERT_EQUAL("empty snapshot",
			  test__backward_snapshot(&s.snap_map, &s.snap, &s.snap_cap), 0);
	TEST_ASSERT_EQUAL("bad size", perf_mmap__backward_range(s.data, 100, 0, 0, &end), -EINVAL);

	/* Not wrapped yet: every record, newest first. */
	sim__write(&s, 24);
	sim__write(&s, 32);
	sim__write(&s, 40);
	sim__write(&s, 16);
	sim__write(&s, 8);
	TEST_ASSERT_EQUAL("five expected", sim__expected(&s, 0, &end), 5);
	if (sim__check(&s, 0))
		goto out;
	sim__exit(&s);

	/* Wrapped: the oldest of three 24-byte records is partly overwritten. */
	if (sim__init(&s, 64, 0, 16))
		goto out;
	sim__write(&s, 24);
	sim__write(&s, 24);
	sim__write(&s, 24);
	TEST_ASSERT_EQUAL("walk", perf_mmap__backward_range(s.data, 64, s.head, s.head, &end), 0);
	TEST_ASSERT_EQUAL("two whole records", end - s.head, 48);
	if (sim__check(&s, 0))
		goto out;
	sim__exit(&s);

	/*
	 * Header across the end: starting at 12, a 16-byte record lands at
	 * offset 60, so its header is bytes 60..63 and 0..3.
	 */
	if (sim__init(&s, 64, 12, 16))
		goto out;
	sim__write(&s, 16);
	TEST_ASSERT_EQUAL("at offset 60", s.head & 63, 60);
	TEST_ASSERT_EQUAL("read_init", perf_mmap__read_init(&s.ev_map), 0);
	ev = perf_mmap__read_event(&s.ev_map);
	TEST_ASSERT_VAL("wrapped record comes from event_copy", ev == s.ev_map.event_copy);
	if (check_record(&s, ev, 0))
		goto out;
	sim__write(&s, 32);	/* at 28..59, then the straddling one */
	sim__write(&s, 24);	/* at 4..27 */
	sim__write(&s, 16);	/* 52..67: wraps again, and overwrites the first record */
	if (sim__check(&s, 0))
		goto out;
	ret = TEST_OK;
out:
	sim__exit(&s);
	return ret;
}
DEFINE_SUITE(mmap_backward_basic, "Backward ring buffer: empty, wrapped, header across the end");

/* Two good records, one with the header @hdr (size, claimed size), two good ones. */
static int corrupt_case(const u16 hdr[2], size_t i)
{
	struct sim s;
	u64 bytes;
	int ret = TEST_FAIL;

	if (sim__init(&s, 4096, 0, 16))
		goto out;
	sim__write(&s, 16);
	sim__write(&s, 24);
	sim__write_raw(&s, hdr[0], hdr[1]);
	sim__write(&s, 32);
	sim__write(&s, 16);
	if (sim__expected(&s, 0, &bytes) != 2 || bytes != 48) {
		fprintf(stderr, "case %zu: model expects %" PRIu64 " bytes\n", i, bytes);
		goto out;
	}
	ret = sim__check(&s, 0) ? TEST_FAIL : TEST_OK;
out:
	sim__exit(&s);
	return ret;
}

/* Records whose header is not what the kernel writes end the walk before them. */
static int test__mmap_backward_corrupt(void)
{
	static const u16 bad_hdr[][2] = {
		{ 16, 12 },	/* size not a multiple of 8 */
		{ 8, 4 },	/* shorter than a header */
		{ 16, 0 },	/* zero: as if never written */
		{ 12, 12 },	/* odd size that also misaligns what follows */
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad_hdr); i++)
		if (corrupt_case(bad_hdr[i], i))
			return TEST_FAIL;
	return TEST_OK;
}
DEFINE_SUITE(mmap_backward_corrupt, "Backward ring buffer: stop at malformed records");

/* @writes records of @rsz bytes into a buffer of @size from head @h0, checked after each. */
static int alignment_case(u64 size, u64 h0, u16 rsz, u32 writes)
{
	struct sim s;
	int ret = TEST_FAIL;

	if (sim__init(&s, size, h0, writes))
		goto out;
	for (u32 w = 0; w < writes; w++) {
		sim__write(&s, rsz);
		if (sim__check(&s, 0)) {
			fprintf(stderr, "size %" PRIu64 " record %u start %#" PRIx64 " write %u\n",
				size, rsz, h0, w);
			goto out;
		}
	}
	ret = TEST_OK;
out:
	sim__exit(&s);
	return ret;
}

/*
 * Every record size 8..64 from many start heads (aligned or not, near the
 * top of the u64 range or not), checked after each write through two laps:
 * the head visits every offset and every record is seen across the end.
 */
static int test__mmap_backward_alignment(void)
{
	static const u64 sizes[] = { 64, 4096 };
	static const u64 big_starts[] = { 0, 4, 8, 12, 2052, 4088, 4092, 1 };

	for (size_t b = 0; b < ARRAY_SIZE(sizes); b++) {
		u64 size = sizes[b];
		u32 nr_starts = size == 64 ? 2 * 64 : ARRAY_SIZE(big_starts);

		for (u16 rsz = 8; rsz <= 64; rsz += 8) {
			for (u32 st = 0; st < nr_starts; st++) {
				u64 h0;

				if (size == 64)	/* 0..63 and just below 2^64 */
					h0 = st < 64 ? st : (u64)0 - (st - 64);
				else
					h0 = big_starts[st];
				if (alignment_case(size, h0, rsz, 2 * size / rsz + 3))
					return TEST_FAIL;
			}
		}
	}
	return TEST_OK;
}
DEFINE_SUITE(mmap_backward_alignment, "Backward ring buffer: every record size and alignment");

static u32 xorshift(u32 *state)
{
	u32 x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/* 40 batches of records of 8..@max_rec bytes, each checked for what is new since the last. */
static int reread_round(u64 size, u32 max_rec, u32 *rnd)
{
	struct sim s;
	u32 since = 0;
	int ret = TEST_FAIL;

	if (sim__init(&s, size, xorshift(rnd), 4000))
		goto out;
	for (int batch = 0; batch < 40; batch++) {
		/* Some batches write nothing, some more than a lap. */
		u32 n = xorshift(rnd) % 4 == 0 ? 0 : xorshift(rnd) % (2 * size / 8 / 8 + 2);

		for (u32 i = 0; i < n && s.nr < s.cap; i++)
			sim__write(&s, 8 * (1 + xorshift(rnd) % (max_rec / 8)));
		if (sim__check(&s, since))
			goto out;
		since = s.nr;
	}
	ret = TEST_OK;
out:
	sim__exit(&s);
	return ret;
}

/* Mixed record sizes, and reads that consume: later reads return only what is new. */
static int test__mmap_backward_reread(void)
{
	static const u64 sizes[] = { 64, 256, 4096 };
	u32 rnd = 2463534242u;

	for (size_t b = 0; b < ARRAY_SIZE(sizes); b++)
		for (int round = 0; round < 20; round++)
			if (reread_round(sizes[b], sizes[b] < 256 ? 64 : 256, &rnd))
				return TEST_FAIL;
	return TEST_OK;
}
DEFINE_SUITE(mmap_backward_reread, "Backward ring buffer: mixed sizes, rereads see only new");

/* The same through the map's own bookkeeping: consume, then read again. */
static int test__mmap_backward_consume(void)
{
	struct sim s;
	union perf_event *ev;
	u64 bytes;
	u32 n, seen = 0;
	int ret = TEST_FAIL;

	if (sim__init(&s, 4096, 0, 1000))
		goto out;
	for (int i = 0; i < 10; i++)
		sim__write(&s, 8 * (1 + i % 5));
	TEST_ASSERT_EQUAL("first read", perf_mmap__read_init(&s.ev_map), 0);
	while ((ev = perf_mmap__read_event(&s.ev_map)) != NULL) {
		if (check_record(&s, ev, 9 - seen++))
			goto out;
	}
	TEST_ASSERT_EQUAL("ten records", seen, 10);
	perf_mmap__consume(&s.ev_map);
	TEST_ASSERT_EQUAL("prev is the head read", s.ev_map.prev, s.head);
	TEST_ASSERT_EQUAL("nothing new", perf_mmap__read_init(&s.ev_map), -EAGAIN);

	/* Without consume the same records come back. */
	for (int i = 0; i < 7; i++)
		sim__write(&s, 16);
	for (int pass = 0; pass < 2; pass++) {
		TEST_ASSERT_EQUAL("second read", perf_mmap__read_init(&s.ev_map), 0);
		for (seen = 0; (ev = perf_mmap__read_event(&s.ev_map)) != NULL; seen++) {
			if (check_record(&s, ev, 16 - seen))
				goto out;
		}
		TEST_ASSERT_EQUAL("only the seven new ones", seen, 7);
	}
	perf_mmap__consume(&s.ev_map);

	/* More than a lap since the last read: the newest that fit. */
	for (int i = 0; i < 300; i++)
		sim__write(&s, 24);
	n = sim__expected(&s, 17, &bytes);
	TEST_ASSERT_EQUAL("model: one lap of 24-byte records", n, 4096 / 24);
	TEST_ASSERT_EQUAL("third read", perf_mmap__read_init(&s.ev_map), 0);
	for (seen = 0; (ev = perf_mmap__read_event(&s.ev_map)) != NULL; seen++) {
		if (check_record(&s, ev, s.nr - 1 - seen))
			goto out;
	}
	TEST_ASSERT_EQUAL("one lap", seen, n);
	perf_mmap__consume(&s.ev_map);
	TEST_ASSERT_EQUAL("drained", perf_mmap__read_init(&s.ev_map), -EAGAIN);

	/* The snapshot map never read: it sees the newest lap too, then nothing. */
	TEST_ASSERT_EQUAL("snapshot", test__backward_snapshot(&s.snap_map, &s.snap, &s.snap_cap),
			  bytes);
	if (check_linear(&s, s.snap, bytes, s.nr - 1, n))
		goto out;
	TEST_ASSERT_EQUAL("snapshot again",
			  test__backward_snapshot(&s.snap_map, &s.snap, &s.snap_cap), 0);
	perf_mmap__munmap(&s.snap_map);
	perf_mmap__munmap(&s.snap_map);	/* idempotent */
	ret = TEST_OK;
out:
	sim__exit(&s);
	return ret;
}
DEFINE_SUITE(mmap_backward_consume, "Backward ring buffer: consume, reread, overflow");

/*
 * The raw copy the recorder makes while a buffer is paused: only what was
 * written since the last copy, across the end of the data area too, and
 * the whole area once more than a lap was written.
 */
static int test__mmap_backward_copy(void)
{
	u8 *dst = malloc(4096);
	struct sim s;
	u64 len, end;
	int ret = TEST_FAIL;

	if (!dst || sim__init(&s, 4096, 40, 1000))
		goto out;
	TEST_ASSERT_EQUAL("nothing written", perf_mmap__backward_copy(&s.snap_map, dst), 0);
	sim__write(&s, 24);
	sim__write(&s, 32);
	sim__write(&s, 16);	/* the head is now 32 bytes before the end of the area */
	memset(dst, 0xa5, 4096);
	len = perf_mmap__backward_copy(&s.snap_map, dst);
	TEST_ASSERT_EQUAL("the three records, across the end", len, 72);
	TEST_ASSERT_EQUAL("nothing past them touched", dst[72], 0xa5);
	TEST_ASSERT_EQUAL("nothing past them touched", dst[4095], 0xa5);
	TEST_ASSERT_EQUAL("walk of the copy", perf_mmap__backward_range(dst, 4096, 0, len, &end), 0);
	TEST_ASSERT_EQUAL("all three whole", end, 72);
	if (check_linear(&s, dst, 72, 2, 3))
		goto out;
	TEST_ASSERT_EQUAL("read: nothing new", perf_mmap__backward_copy(&s.snap_map, dst), 0);

	sim__write(&s, 40);
	TEST_ASSERT_EQUAL("one new record", perf_mmap__backward_copy(&s.snap_map, dst), 40);
	if (check_linear(&s, dst, 40, 3, 1))
		goto out;

	for (int i = 0; i < 200; i++)
		sim__write(&s, 24);
	TEST_ASSERT_EQUAL("more than a lap: the whole area",
			  perf_mmap__backward_copy(&s.snap_map, dst), 4096);
	ret = TEST_OK;
out:
	sim__exit(&s);
	free(dst);
	return ret;
}
DEFINE_SUITE(mmap_backward_copy, "Backward ring buffer: a paused buffer's copy takes only what is new");
