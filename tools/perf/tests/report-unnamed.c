/*
 * perf report names a thread's samples taken before anything named it
 * (born between the recorder's look at /proc and its first event) after
 * its first COMM, as the distro does, merging them, call graphs included,
 * with the samples taken under that name.  The file is written here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "tests.h"
#include "util/event.h"

struct unnamed_comm {
	struct perf_event_header h;
	u32 pid, tid;
	char comm[16];
	u32 id_pid, id_tid;	/* sample_id_all: TID, TIME, CPU */
	u64 id_time;
	u32 id_cpu, id_res;
};

/* Three frames: the record ends 8 bytes before the struct does. */
#define UNNAMED_SAMPLE_SIZE (sizeof(struct test_chain_sample) - 8)
#define UNNAMED_SAMPLE(tid, sec, ip2) \
	{ { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, UNNAMED_SAMPLE_SIZE }, \
	  0x1234, tid, tid, (sec) * 1000000000ULL, 0, 0, 1000, 3, \
	  { PERF_CONTEXT_USER, 0x1234, ip2 } }

static int test__report_unnamed(void)
{
	/* What the distro's perf report prints for this file. */
	static const char expect[] =
		"    75.00%  late   \n"
		"            |          \n"
		"            |--50.00%--0xabcdef\n"
		"            |          0x1234\n"
		"            |          \n"
		"             --25.00%--0xbcdef0\n"
		"                       0x1234\n"
		"\n"
		"    25.00%  :43    \n"
		"            |\n"
		"            ---0xabcdef\n"
		"               0x1234\n";
	/* Thread 42: two samples unnamed, then "late" by exec, then one more. */
	struct test_chain_sample s[4] = {
		UNNAMED_SAMPLE(42, 1, 0xabcdef), UNNAMED_SAMPLE(42, 2, 0xbcdef0),
		UNNAMED_SAMPLE(43, 2, 0xabcdef), UNNAMED_SAMPLE(42, 4, 0xabcdef),
	};
	struct unnamed_comm c = {
		{ PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, sizeof(c) },
		42, 42, "late", 42, 42, 3000000000ULL, 0, 0,
	};
	char recs[4 * sizeof(s[0]) + sizeof(c)];
	size_t len = 0;
	struct perf_event_attr attr;
	char data[] = "/tmp/perf-test-unnamed.XXXXXX";
	const char *argv[] = { "report", "--stdio", "-q", "--no-children", "--sort", "comm",
			       "-g", "caller", "-i", data, NULL };
	int dfd = mkstemp(data), rc;
	char got[4096];

	if (dfd < 0)
		return TEST_FAIL;
	test__chain_sample_attr(&attr);
	/* COMM records carry the sample's TID, TIME and CPU. */
	attr.sample_id_all = 1;
	attr.comm = 1;
	close(dfd);
	for (int i = 0; i < 4; i++) {
		if (i == 3) {
			memcpy(recs + len, &c, sizeof(c));
			len += sizeof(c);
		}
		memcpy(recs + len, &s[i], UNNAMED_SAMPLE_SIZE);
		len += UNNAMED_SAMPLE_SIZE;
	}
	TEST_ASSERT_VAL("write perf.data", !test__write_perf_data(data, &attr, recs, len));
	rc = test__run_captured(cmd_report, 10, argv, got, sizeof(got));
	unlink(data);
	TEST_ASSERT_EQUAL("perf report exit", rc, 0);
	if (strncmp(got, expect, sizeof(expect) - 1)) {
		fprintf(stderr, "expected:\n%sgot:\n%s", expect, got);
		return TEST_FAIL;
	}
	return TEST_OK;
}

DEFINE_SUITE(report_unnamed, "perf report names a thread's samples before its first comm by it");
