#ifndef PERF_TESTS_H
#define PERF_TESTS_H
/*
 * The `perf test` table.  A test file defines
 *
 *	static int test__foo(void) { ... return TEST_OK; }
 *	DEFINE_SUITE(foo, "Description shown by perf test");
 *
 * at the start of a line; the Makefile collects every DEFINE_SUITE into the
 * table, in file order.  Each test runs in a child process of its own.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum {
	TEST_OK   =  0,
	TEST_FAIL = -1,
	TEST_SKIP = -2,
};

struct test_suite {
	const char *name;
	const char *desc;
	int (*func)(void);
};

#define DEFINE_SUITE(n, d) \
	struct test_suite suite__##n = { .name = #n, .desc = d, .func = test__##n }

/* Records why the test is skipped (shown as "Skip (reason)"); returns TEST_SKIP. */
int test__skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* perf test -w NAME ARGS: the built-in workloads (tests/workloads.c). */
int test__workload(int argc, const char **argv);
/* perf test -w validate FILE [FIRST LAST] (tests/dump-validate.c). */
int test__validate_dump(int argc, const char **argv);
/* perf test -w early-usr2 AT US PERF ARGS... (tests/early-usr2.c). */
int test__early_usr2(int argc, const char **argv);

#include "util/types.h"

/*
 * A sample of IP|TID|TIME|CPU|PERIOD|CALLCHAIN, for files written by hand;
 * with fewer than 4 frames its header.size is smaller by 8 bytes a frame.
 */
struct test_chain_sample {
	struct { u32 type; u16 misc, size; } h;
	u64 ip;
	u32 pid, tid;
	u64 time;
	u32 cpu, res;
	u64 period;
	u64 nr;
	u64 ips[4];
};

struct perf_event_attr;
/* A cpu-clock attr whose samples are struct test_chain_sample. */
void test__chain_sample_attr(struct perf_event_attr *attr);
union perf_event;
/*
 * Zeroes @ev as a record of @type whose fields end at @name_off in the
 * string @name, and sizes it to the string's end rounded up to 8 bytes;
 * the caller fills in the fields.
 */
union perf_event *test__named_record(union perf_event *ev, u32 type, size_t name_off,
				     const char *name);
/* A perf.data at @path with one attr (no ids) and @records as its data; 0 or -1. */
int test__write_perf_data(const char *path, const struct perf_event_attr *attr,
			  const void *records, size_t len);
/* Removes @dir and all below it (symbolic links not followed); 0 or -1, said. */
int test__rm_rf(const char *dir);
/* What @write (0: done) wrote to its FILE, as one string to free(); NULL if it failed. */
char *test__written(int (*write)(FILE *fp, void *arg), void *arg);
/* Runs a command with its standard output into @out (NUL-terminated); its exit status. */
int test__run_captured(int (*cmd)(int, const char **), int argc, const char **argv,
		       char *out, size_t size);

struct perf_mmap;
/*
 * A paused backward buffer's new records, as a dump takes them: the copy
 * (into *buf, grown to the data size) then the walk.  Returns the length
 * of the whole records at the start of *buf, or -errno.
 */
long test__backward_snapshot(struct perf_mmap *map, void **buf, size_t *cap);
/*
 * Pauses (or resumes) every overwrite buffer of @evlist so a test reads
 * them at rest; 0 or the last -errno.  The recorder pauses its buffers one
 * by one instead (the flight recorder's state machine).
 */
struct evlist;
int test__pause_mmaps(struct evlist *evlist, bool pause);

#define TEST_ASSERT_VAL(text, cond)						\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "FAILED %s:%d %s\n", __FILE__, __LINE__, text); \
			return TEST_FAIL;					\
		}								\
	} while (0)

#define TEST_ASSERT_EQUAL(text, val, expected)					\
	do {									\
		long long __v = (long long)(val), __e = (long long)(expected);	\
		if (__v != __e) {						\
			fprintf(stderr, "FAILED %s:%d %s (%lld != %lld)\n",	\
				__FILE__, __LINE__, text, __v, __e);		\
			return TEST_FAIL;					\
		}								\
	} while (0)

#endif
