/*
 * A user address after a stray kernel context marker in a callchain (a
 * frame-pointer walk through garbage can yield one) is in no map, as the
 * distro has it: "[unknown]" in perf script, not the kernel's, and one
 * "[unknown] [.]" entry in perf report, not a "[kernel.kallsyms] [k]" one
 * beside it.  The file is written here: the kernel's MMAP, then samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "tests.h"
#include "util/event.h"

struct stray_mmap {
	struct perf_event_header h;
	u32 pid, tid;
	u64 start, len, pgoff;
	char filename[24];
};

#define STRAY_KERNEL 0xffffffff81000000ULL
#define STRAY_USER 0x55cd63480af8ULL

static int test__stray_kernel_marker(void)
{
	/* Both samples in user mode at 0x1234; the first walk came back through the marker. */
	struct test_chain_sample s[2] = {
		{ { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s[0]) },
		  0x1234, 7, 7, 1000000000ULL, 0, 0, 1000, 4,
		  { PERF_CONTEXT_USER, 0x1234, PERF_CONTEXT_KERNEL, STRAY_USER } },
		{ { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s[0]) },
		  0x1234, 7, 7, 2000000000ULL, 0, 0, 1000, 4,
		  { PERF_CONTEXT_USER, 0x1234, 0x5678, STRAY_USER } },
	};
	struct stray_mmap k = {
		{ PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, sizeof(k) },
		(u32)-1, 0, STRAY_KERNEL, 0x1000000, STRAY_KERNEL, "[kernel.kallsyms]_text",
	};
	char recs[sizeof(k) + sizeof(s)];
	struct perf_event_attr attr;
	char data[] = "/tmp/perf-test-stray.XXXXXX";
	const char *script[] = { "script", "-F", "ip,dso", "-i", data, NULL };
	const char *report[] = { "report", "--stdio", "-q", "--children", "-g", "none",
				 "--sort", "dso,sym", "-i", data, NULL };
	int dfd = mkstemp(data), rc;
	char got[4096], *line;

	if (dfd < 0)
		return TEST_FAIL;
	close(dfd);
	test__chain_sample_attr(&attr);
	memcpy(recs, &k, sizeof(k));
	memcpy(recs + sizeof(k), s, sizeof(s));
	TEST_ASSERT_VAL("write perf.data", !test__write_perf_data(data, &attr, recs, sizeof(recs)));
	rc = test__run_captured(cmd_script, 5, script, got, sizeof(got));
	TEST_ASSERT_EQUAL("perf script exit", rc, 0);
	if (!strstr(got, "    55cd63480af8 ([unknown])") || strstr(got, "kernel.kallsyms")) {
		fprintf(stderr, "perf script:\n%s", got);
		unlink(data);
		return TEST_FAIL;
	}
	rc = test__run_captured(cmd_report, 10, report, got, sizeof(got));
	unlink(data);
	TEST_ASSERT_EQUAL("perf report exit", rc, 0);
	/* Both samples pass through the address: one entry with all of them. */
	line = strstr(got, "[.] 0x000055cd63480af8\n");
	while (line && line > got && line[-1] != '\n')
		line--;
	if (!line || strncmp(line, "   100.00%     0.00%  [unknown] ", 32) ||
	    strspn(line + 32, " ") != strcspn(line + 32, "[") || strstr(got, "[k]")) {
		fprintf(stderr, "perf report:\n%s", got);
		return TEST_FAIL;
	}
	return TEST_OK;
}

DEFINE_SUITE(stray_kernel_marker, "A user address after a stray kernel marker in a callchain is in no map");
