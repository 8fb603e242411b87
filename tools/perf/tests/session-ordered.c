/*
 * The reader on perf.data files written by hand here (no dependency on
 * the writer in util/header.c): time ordering across FINISHED_ROUND marks,
 * the out-of-order count and when it is reported, and corrupt records.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/session.h"

struct mini_file {
	char path[64];
	int fd;
	u64 data_start, data_size;
};

static int mini__write(struct mini_file *f, const void *buf, size_t len)
{
	return write(f->fd, buf, len) == (ssize_t)len ? 0 : -1;
}

/* Header, one attr (TID|TIME samples) with one id, then the data section. */
static int mini__begin(struct mini_file *f, bool backward)
{
	struct perf_event_attr attr = { 0 };
	u64 hdr[13] = { 0 };
	u64 id = 42, ids_sec[2];

	strcpy(f->path, "/tmp/perf-test-session.XXXXXX");
	f->fd = mkstemp(f->path);
	if (f->fd < 0)
		return -1;
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	attr.sample_id_all = 1;
	attr.write_backward = backward;
	/* Layout: header (104), attr entry, the id, data. */
	ids_sec[0] = 104 + sizeof(attr) + 16;
	ids_sec[1] = sizeof(u64);
	f->data_start = ids_sec[0] + sizeof(u64);
	memcpy(hdr, "PERFILE2", 8);
	hdr[1] = 104;
	hdr[2] = sizeof(attr) + 16;
	hdr[3] = 104;			/* attrs.offset */
	hdr[4] = sizeof(attr) + 16;	/* attrs.size */
	hdr[5] = f->data_start;		/* data.offset */
	/* data.size is filled in by mini__end. */
	if (mini__write(f, hdr, sizeof(hdr)) || mini__write(f, &attr, sizeof(attr)) ||
	    mini__write(f, ids_sec, sizeof(ids_sec)) || mini__write(f, &id, sizeof(id)))
		return -1;
	f->data_size = 0;
	return 0;
}

static int mini__sample(struct mini_file *f, u32 tid, u64 time)
{
	struct { struct perf_event_header h; u32 pid, tid; u64 time; } s = {
		{ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, tid, tid, time,
	};

	f->data_size += sizeof(s);
	return mini__write(f, &s, sizeof(s));
}

static int mini__round(struct mini_file *f)
{
	struct perf_event_header h = { PERF_RECORD_FINISHED_ROUND, 0, sizeof(h) };

	f->data_size += sizeof(h);
	return mini__write(f, &h, sizeof(h));
}

static int mini__raw(struct mini_file *f, const void *buf, size_t len)
{
	f->data_size += len;
	return mini__write(f, buf, len);
}

static int mini__end(struct mini_file *f)
{
	int err = pwrite(f->fd, &f->data_size, sizeof(u64), 48) == sizeof(u64) ? 0 : -1;

	close(f->fd);
	return err;
}

static u64 seen[16];
static int nr_seen;

static int record_sample(struct perf_tool *tool, union perf_event *event,
			 struct perf_sample *sample, struct evsel *evsel, struct machine *m)
{
	if (nr_seen < (int)ARRAY_SIZE(seen))
		seen[nr_seen++] = sample->time;
	return 0;
}

/* Three rounds; the third brings two records older than what was already delivered. */
static int write_misordered(struct mini_file *f, bool backward)
{
	static const u64 rounds[3][3] = { { 100, 300, 200 }, { 400, 500, 0 }, { 250, 260, 600 } };

	if (mini__begin(f, backward))
		return -1;
	for (int r = 0; r < 3; r++) {
		for (int i = 0; i < 3; i++)
			if (rounds[r][i] && mini__sample(f, 7, rounds[r][i]))
				return -1;
		if (mini__round(f))
			return -1;
	}
	return mini__end(f);
}

/* Runs the session with stderr in a file; returns what was printed there. */
static int run_session(const char *path, struct perf_session **sp, char *err_text, size_t len)
{
	struct perf_tool tool = { .sample = record_sample };
	char tmpl[] = "/tmp/perf-test-stderr.XXXXXX";
	int fd = mkstemp(tmpl), saved = dup(2), err;
	char msg[256];
	ssize_t n;

	*sp = perf_session__open(path, &err, msg, sizeof(msg));
	if (!*sp)
		return err;
	nr_seen = 0;
	fflush(stderr);
	dup2(fd, 2);
	err = perf_session__process_events(*sp, &tool);
	if (!err)
		perf_session__warn_stats(*sp);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fd, err_text, len - 1, 0);
	err_text[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(tmpl);
	return err;
}

static int test__session_ordered(void)
{
	static const u64 expect[] = { 100, 200, 300, 250, 260, 400, 500, 600 };
	struct mini_file f;
	struct perf_session *s;
	char text[1024];

	TEST_ASSERT_VAL("write file", !write_misordered(&f, false));
	TEST_ASSERT_EQUAL("process", run_session(f.path, &s, text, sizeof(text)), 0);
	TEST_ASSERT_EQUAL("samples", nr_seen, ARRAY_SIZE(expect));
	for (int i = 0; i < nr_seen; i++)
		TEST_ASSERT_EQUAL("delivery order", seen[i], expect[i]);
	TEST_ASSERT_EQUAL("unordered count", s->nr_unordered, 2);
	TEST_ASSERT_VAL("warning printed", strstr(text, "2 out of order events recorded."));
	perf_session__delete(s);
	unlink(f.path);

	/* The same records from a write_backward event: expected, so no warning. */
	TEST_ASSERT_VAL("write file", !write_misordered(&f, true));
	TEST_ASSERT_EQUAL("process", run_session(f.path, &s, text, sizeof(text)), 0);
	TEST_ASSERT_EQUAL("unordered count", s->nr_unordered, 2);
	TEST_ASSERT_VAL("no warning", !strstr(text, "out of order"));
	perf_session__delete(s);
	unlink(f.path);
	return TEST_OK;
}
DEFINE_SUITE(session_ordered, "perf.data reader: time order across rounds, out-of-order warning");

static int test__session_corrupt(void)
{
	struct perf_event_header bad = { PERF_RECORD_COMM, 0, 0 };
	struct mini_file f;
	struct perf_session *s;
	char text[1024];
	u64 off;
	int err;

	TEST_ASSERT_VAL("begin", !mini__begin(&f, false));
	TEST_ASSERT_VAL("sample", !mini__sample(&f, 1, 10));
	off = f.data_start + f.data_size;
	TEST_ASSERT_VAL("bad record", !mini__raw(&f, &bad, sizeof(bad)));
	TEST_ASSERT_VAL("end", !mini__end(&f));
	err = run_session(f.path, &s, text, sizeof(text));
	TEST_ASSERT_EQUAL("error", err, -EINVAL);
	snprintf(text, sizeof(text), "record size 0 at offset %llu", (unsigned long long)off);
	TEST_ASSERT_VAL("message names the offset", strstr(s->errmsg, text));
	TEST_ASSERT_VAL("message says corrupt", !strncmp(s->errmsg, "file is corrupt: ", 17));
	perf_session__delete(s);
	unlink(f.path);

	/*
	 * An MMAP record with only its sample-id trailer: its time is readable,
	 * so it is queued, and found short when delivered -- still at its offset.
	 */
	TEST_ASSERT_VAL("begin", !mini__begin(&f, false));
	TEST_ASSERT_VAL("sample", !mini__sample(&f, 1, 10));
	off = f.data_start + f.data_size;
	{
		struct { struct perf_event_header h; u32 pid, tid; u64 time; } mmap_rec = {
			{ PERF_RECORD_MMAP, 0, sizeof(mmap_rec) }, 1, 1, 20,
		};

		TEST_ASSERT_VAL("short mmap", !mini__raw(&f, &mmap_rec, sizeof(mmap_rec)));
	}
	TEST_ASSERT_VAL("sample", !mini__sample(&f, 1, 30));
	TEST_ASSERT_VAL("end", !mini__end(&f));
	err = run_session(f.path, &s, text, sizeof(text));
	TEST_ASSERT_EQUAL("error", err, -EINVAL);
	snprintf(text, sizeof(text), "too short (24 bytes) at offset %llu", (unsigned long long)off);
	TEST_ASSERT_VAL("queued record's message names its offset", strstr(s->errmsg, text));
	TEST_ASSERT_EQUAL("the sample before it was delivered", nr_seen, 1);
	perf_session__delete(s);
	unlink(f.path);
	return TEST_OK;
}
DEFINE_SUITE(session_corrupt, "perf.data reader: a broken record is reported with its offset");
