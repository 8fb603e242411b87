/* COMPRESSED records: the writer's chunks hold whole records, the reader carries cut ones. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "tests.h"
#include "util/compress.h"
#include "util/event.h"

struct sink {
	char *p;
	size_t len, cap;
};

static int sink__write(void *arg, const void *buf, size_t size)
{
	struct sink *s = arg;

	if (s->len + size > s->cap) {
		s->cap = (s->len + size) * 2;
		s->p = realloc(s->p, s->cap);
		if (!s->p)
			return -ENOMEM;
	}
	memcpy(s->p + s->len, buf, size);
	s->len += size;
	return 0;
}

/*
 * Records of every size class: small repetitive ones (which compress), and
 * a 65528-byte one of random bytes, which cannot shrink below what one
 * record header can count and so must be written as it is.
 */
static size_t make_records(char *buf, size_t cap)
{
	size_t len = 0;
	unsigned seed = 1;

	for (int i = 0; len + 65536 < cap; i++) {
		struct perf_event_header h = { .type = PERF_RECORD_SAMPLE };

		h.size = i == 300 ? 65528 : 8 * (2 + i % 40);
		memcpy(buf + len, &h, sizeof(h));
		for (size_t b = sizeof(h); b < h.size; b++) {
			seed = seed * 1103515245 + 12345;
			buf[len + b] = i == 300 ? (char)(seed >> 16) : (char)(b % 7);
		}
		len += h.size;
	}
	return len;
}

static int test__compress_writer(void)
{
	size_t cap = 2 << 20, len, pos = 0, nr_compressed = 0, nr_plain = 0;
	char *in = malloc(cap);
	struct sink out = { 0 }, back = { 0 };
	struct zstd_writer w;
	struct zstd_reader r;

	TEST_ASSERT_VAL("memory", in);
	len = make_records(in, cap);
	TEST_ASSERT_EQUAL("writer", zstd_writer__init(&w, 1, sink__write, &out), 0);
	/* Cut anywhere, as a ring buffer's two pieces around its end are. */
	for (size_t off = 0, step = 1; off < len; off += step, step = step * 7 % 100003 + 1)
		TEST_ASSERT_EQUAL("write", zstd_writer__write(&w, in + off,
							  step < len - off ? step : len - off), 0);
	TEST_ASSERT_EQUAL("flush", zstd_writer__flush(&w), 0);
	TEST_ASSERT_VAL("ratio above 1", zstd_writer__ratio(&w) > 1);

	/* Each COMPRESSED record expands alone to whole records. */
	TEST_ASSERT_EQUAL("reader", zstd_reader__init(&r, 1 << 20), 0);
	while (pos < out.len) {
		struct perf_event_header h;

		memcpy(&h, out.p + pos, sizeof(h));
		if (h.type == PERF_RECORD_COMPRESSED) {
			size_t used = 0;

			nr_compressed++;
			TEST_ASSERT_EQUAL("decompress", zstd_reader__decompress(&r, out.p + pos + 8,
									h.size - 8), 0);
			TEST_ASSERT_VAL("at most a chunk", r.len <= ZSTD_WRITER_CHUNK);
			while (used < r.len) {
				struct perf_event_header in_h;

				memcpy(&in_h, r.buf + used, sizeof(in_h));
				used += in_h.size;
			}
			TEST_ASSERT_EQUAL("whole records", used, r.len);
			sink__write(&back, r.buf, r.len);
			zstd_reader__consume(&r, r.len);
		} else {
			nr_plain++;
			sink__write(&back, out.p + pos, h.size);
		}
		pos += h.size;
	}
	TEST_ASSERT_EQUAL("every byte read", pos, out.len);
	TEST_ASSERT_VAL("compressed records", nr_compressed > 10);
	TEST_ASSERT_EQUAL("the random record written as it is", nr_plain, 1);
	TEST_ASSERT_EQUAL("same length back", back.len, len);
	TEST_ASSERT_VAL("same bytes back", !memcmp(back.p, in, len));
	TEST_ASSERT_EQUAL("bytes counted", w.bytes_out, out.len);

	/* A staged record cut short is an error at flush, not a silent loss. */
	TEST_ASSERT_EQUAL("half a record", zstd_writer__write(&w, in, 12), 0);
	TEST_ASSERT_EQUAL("flush refuses", zstd_writer__flush(&w), -EINVAL);
	zstd_writer__exit(&w);
	zstd_reader__exit(&r);
	free(in);
	free(out.p);
	free(back.p);
	return TEST_OK;
}
DEFINE_SUITE(compress_writer, "Compressed records: whole records per chunk, incompressible ones plain, all bytes back");

/*
 * The distro's recorder compresses a buffer as one stream and cuts the
 * output at what a header counts: a payload may end inside a record, which
 * the reader keeps until the next payload completes it.
 */
static int test__compress_reader(void)
{
	size_t cap = 1 << 20, len, clen, got = 0;
	char *in = malloc(cap), *z = malloc(cap);
	struct zstd_reader r;

	TEST_ASSERT_VAL("memory", in && z);
	len = make_records(in, cap);
	clen = ZSTD_compress(z, cap, in, len, 3);
	TEST_ASSERT_VAL("compressed", !ZSTD_isError(clen));
	TEST_ASSERT_EQUAL("reader", zstd_reader__init(&r, 4 << 20), 0);
	for (size_t off = 0, step; off < clen; off += step) {
		step = clen - off < 997 ? clen - off : 997;
		TEST_ASSERT_EQUAL("piece", zstd_reader__decompress(&r, z + off, step), 0);
		TEST_ASSERT_VAL("what came out is the input", !memcmp(r.buf, in + got, r.len));
		got += r.len;
		zstd_reader__consume(&r, r.len);
	}
	TEST_ASSERT_EQUAL("all of it", got, len);

	/* Not zstd at all, and more than the limit: both refused. */
	TEST_ASSERT_EQUAL("garbage", zstd_reader__decompress(&r, "XXXXXXXXXXXX", 12), -EINVAL);
	zstd_reader__exit(&r);
	TEST_ASSERT_EQUAL("small reader", zstd_reader__init(&r, 64 << 10), 0);
	TEST_ASSERT_EQUAL("bomb", zstd_reader__decompress(&r, z, clen), -EINVAL);
	zstd_reader__exit(&r);
	free(in);
	free(z);
	return TEST_OK;
}
DEFINE_SUITE(compress_reader, "Compressed records: a record cut between payloads is carried, garbage and bombs refused");
