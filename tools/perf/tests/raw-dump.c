/*
 * perf report -D and perf script -D on a perf.data written here: the whole
 * dump of a user record (offset line, hex and ASCII with a short last line,
 * the decoded CPU list, report's ": unhandled!" that script leaves out), a
 * kernel record too short for its type, a sample's callchain and where it
 * resolves, and the order: user records as read, samples when delivered.
 * The shell test compares with the distro on real files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "builtin.h"
#include "tests.h"
#include "util/event.h"

/*
 * A CPU_MAP record listing CPUs -1, 1, 2 and 5 (type 0: a u16 count and u16
 * CPUs; 0xffff is the "any CPU" of a per-thread map).
 */
struct cpu_list_record {
	struct perf_event_header h;
	u16 type, nr, cpu[4];
	u32 pad;
};

static int check_dump(const char *cmd, const char *data, const char *got, u64 off)
{
	char cpu_map[1024], aux[256];
	const char *sample_lines =
		"\n0 2000000000 0x%llx [0x48]: PERF_RECORD_SAMPLE(IP, 0x2): 42/42: 0x1234 "
		"period: 1000 addr: 0\n"
		"... FP chain: nr:2\n"
		".....  0: fffffffffffffe00\n"
		".....  1: 0000000000001234\n"
		" ... thread: :42:42\n"
		" ...... dso: <not found>\n";
	char sample[512];
	const char *a, *b, *c;

	snprintf(cpu_map, sizeof(cpu_map),
		 "\n0x%llx@%s [0x18]: event: 74\n"
		 ".\n"
		 ". ... raw event: size 24 bytes\n"
		 ".  0000:  4a 00 00 00 00 00 18 00 00 00 04 00 ff ff 01 00  J...............\n"
		 ".  0010:  02 00 05 00 00 00 00 00                          ........        \n"
		 "\n"
		 "-1 -1 0x%llx [0x18]: PERF_RECORD_CPU_MAP: -1,1-2,5\n%s",
		 (unsigned long long)off, data, (unsigned long long)off,
		 strcmp(cmd, "report") ? "" : ": unhandled!\n");
	snprintf(aux, sizeof(aux), "\n-1 -1 0x%llx [0x10]: PERF_RECORD_AUX: record too short for "
		 "its type\n", (unsigned long long)off + 24);
	snprintf(sample, sizeof(sample), sample_lines, (unsigned long long)off + 40);
	a = strstr(got, cpu_map);
	b = strstr(got, aux);
	c = strstr(got, sample);
	if (!a || !b || !c || a > b || b > c) {
		fprintf(stderr, "perf %s -D: expected, in this order:\n%s%s%s\ngot:\n%s", cmd,
			cpu_map, aux, sample, got);
		return TEST_FAIL;
	}
	return TEST_OK;
}

static int test__raw_dump(void)
{
	struct cpu_list_record cm = {
		{ PERF_RECORD_CPU_MAP, 0, sizeof(cm) }, 0, 4, { 0xffff, 1, 2, 5 }, 0,
	};
	/* An AUX record has three u64 fields; this one has one. */
	u64 aux[2] = { PERF_RECORD_AUX | (16ULL << 48), 0x1000 };
	struct test_chain_sample s = {
		{ PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) - 16 },
		0x1234, 42, 42, 2000000000ULL, 0, 0, 1000, 2,
		{ PERF_CONTEXT_USER, 0x1234 },
	};
	struct perf_event_attr attr;
	char data[] = "/tmp/perf-test-raw-dump.XXXXXX", buf[sizeof(cm) + sizeof(aux) + sizeof(s)];
	const char *cmds[] = { "report", "script" };
	/* The data section follows the 104-byte header and the one attr entry. */
	u64 off = 104 + sizeof(attr) + 16;
	int dfd = mkstemp(data), rc, err = TEST_OK;
	char *got = malloc(1 << 16);

	if (dfd < 0 || !got)
		return TEST_FAIL;
	close(dfd);
	test__chain_sample_attr(&attr);
	memcpy(buf, &cm, sizeof(cm));
	memcpy(buf + sizeof(cm), aux, sizeof(aux));
	memcpy(buf + sizeof(cm) + sizeof(aux), &s, s.h.size);
	TEST_ASSERT_VAL("write perf.data",
			!test__write_perf_data(data, &attr, buf,
					       sizeof(cm) + sizeof(aux) + s.h.size));
	for (size_t i = 0; i < ARRAY_SIZE(cmds) && err == TEST_OK; i++) {
		const char *argv[] = { cmds[i], "-D", "-i", data, NULL };

		rc = test__run_captured(i ? cmd_script : cmd_report, 4, argv, got, 1 << 16);
		if (rc) {
			fprintf(stderr, "perf %s -D exited %d\n", cmds[i], rc);
			err = TEST_FAIL;
			break;
		}
		err = check_dump(cmds[i], data, got, off);
	}
	unlink(data);
	free(got);
	return err;
}

DEFINE_SUITE(raw_dump, "perf report/script -D: a record's dump, a short one, a sample's, in order");
