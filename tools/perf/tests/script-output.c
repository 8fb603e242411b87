/*
 * perf script's lines for a perf.data file written here, byte for byte: the
 * head columns (an unnamed thread's ":tid", tid, cpu, time, period, event),
 * callchain lines, and a callchain with a context marker the distro perf
 * does not know, which it drops whole.  The shell oracle test compares
 * with the distro on real files; this one needs nothing from the machine.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "tests.h"
#include "util/event.h"

struct chain_sample {
	struct perf_event_header h;
	u64 ip;
	u32 pid, tid;
	u64 time;
	u32 cpu, res;
	u64 period;
	u64 nr;
	u64 ips[4];
};

static int write_file(const char *path)
{
	struct perf_event_attr attr = { 0 };
	u64 hdr[13] = { 0 }, ids_sec[2] = { 0, 0 };
	struct chain_sample s[2] = {
		{ { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s[0]) - 8 },
		  0x1234, 42, 42, 1000001000ULL, 1, 0, 1000, 3,
		  { PERF_CONTEXT_USER, 0x1234, 0xabcdef } },
		{ { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s[1]) },
		  0x1234, 42, 43, 2000000999ULL, 12, 0, 7, 4,
		  { PERF_CONTEXT_USER, 0x1234, (u64)-304, 0xabcdef } },
	};
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600), err = 0;

	if (fd < 0)
		return -1;
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.size = sizeof(attr);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	memcpy(hdr, "PERFILE2", 8);
	hdr[1] = sizeof(hdr);
	hdr[2] = sizeof(attr) + sizeof(ids_sec);
	hdr[3] = sizeof(hdr);			/* attrs */
	hdr[4] = hdr[2];
	hdr[5] = hdr[3] + hdr[4];		/* data */
	hdr[6] = s[0].h.size + s[1].h.size;
	if (write(fd, hdr, sizeof(hdr)) != sizeof(hdr) ||
	    write(fd, &attr, sizeof(attr)) != sizeof(attr) ||
	    write(fd, ids_sec, sizeof(ids_sec)) != sizeof(ids_sec) ||
	    write(fd, &s[0], s[0].h.size) != s[0].h.size ||
	    write(fd, &s[1], s[1].h.size) != s[1].h.size)
		err = -1;
	close(fd);
	return err;
}

static int test__script_output(void)
{
	static const char expect[] =
		":42    42 [001]     1.000001:       1000 cpu-clock: \n"
		"\t            1234 [unknown] ([unknown])\n"
		"\t          abcdef [unknown] ([unknown])\n"
		"\n"
		":43    43 [012]     2.000000:          7 cpu-clock: \n"
		"\n";
	char data[] = "/tmp/perf-test-script.XXXXXX", out[] = "/tmp/perf-test-script-out.XXXXXX";
	const char *argv[] = { "script", "-q", "-i", data, NULL };
	int dfd = mkstemp(data), ofd = mkstemp(out), saved, rc;
	char got[1024];
	ssize_t n;

	if (dfd < 0 || ofd < 0)
		return TEST_FAIL;
	close(dfd);
	TEST_ASSERT_VAL("write perf.data", !write_file(data));
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(ofd, STDOUT_FILENO);
	rc = cmd_script(4, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	n = pread(ofd, got, sizeof(got) - 1, 0);
	close(ofd);
	unlink(data);
	unlink(out);
	TEST_ASSERT_EQUAL("perf script exit", rc, 0);
	got[n > 0 ? n : 0] = '\0';
	if (strcmp(got, expect)) {
		fprintf(stderr, "expected:\n%sgot:\n%s", expect, got);
		return TEST_FAIL;
	}
	return TEST_OK;
}

DEFINE_SUITE(script_output, "perf script lines byte for byte; a chain with a bad marker dropped");
