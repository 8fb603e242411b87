/*
 * perf script's lines for a perf.data file written here, byte for byte: the
 * head columns (an unnamed thread's ":tid", tid, cpu, time, period, event),
 * callchain lines, and a callchain with a context marker the distro perf
 * does not know, which it drops whole.  The shell oracle test compares
 * with the distro on real files; this one needs nothing from the machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "tests.h"
#include "util/event.h"

static int test__script_output(void)
{
	static const char expect[] =
		":42    42 [001]     1.000001:       1000 cpu-clock: \n"
		"\t            1234 [unknown] ([unknown])\n"
		"\t          abcdef [unknown] ([unknown])\n"
		"\n"
		":43    43 [012]     2.000000:          7 cpu-clock: \n"
		"\n";
	struct test_chain_sample s[2] = {
		{ { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s[0]) - 8 },
		  0x1234, 42, 42, 1000001000ULL, 1, 0, 1000, 3,
		  { PERF_CONTEXT_USER, 0x1234, 0xabcdef } },
		{ { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s[1]) },
		  0x1234, 42, 43, 2000000999ULL, 12, 0, 7, 4,
		  { PERF_CONTEXT_USER, 0x1234, (u64)-304, 0xabcdef } },
	};
	struct perf_event_attr attr;
	char data[] = "/tmp/perf-test-script.XXXXXX", buf[sizeof(s)];
	const char *argv[] = { "script", "-q", "-i", data, NULL };
	int dfd = mkstemp(data), rc;
	char got[1024];

	if (dfd < 0)
		return TEST_FAIL;
	test__chain_sample_attr(&attr);
	close(dfd);
	/* The first sample is 8 bytes shorter: its chain has three entries. */
	memcpy(buf, &s[0], s[0].h.size);
	memcpy(buf + s[0].h.size, &s[1], s[1].h.size);
	TEST_ASSERT_VAL("write perf.data",
			!test__write_perf_data(data, &attr, buf, s[0].h.size + s[1].h.size));
	rc = test__run_captured(cmd_script, 4, argv, got, sizeof(got));
	unlink(data);
	TEST_ASSERT_EQUAL("perf script exit", rc, 0);
	if (strcmp(got, expect)) {
		fprintf(stderr, "expected:\n%sgot:\n%s", expect, got);
		return TEST_FAIL;
	}
	return TEST_OK;
}

DEFINE_SUITE(script_output, "perf script lines byte for byte; a chain with a bad marker dropped");
