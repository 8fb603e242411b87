/* perf script -F: lists, per-type lists and edits, and what a sample lacks. */
#include <errno.h>
#include <string.h>
#include "tests.h"
#include "util/script-fields.h"

static int test__script_fields(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME,
	};
	struct evsel *evsel = evsel__new(&attr);
	struct script_fields sf = { .all_set = false };
	const unsigned defaults = F_COMM | F_TID | F_TIME | F_PERIOD | F_EVENT | F_IP | F_SYM |
				  F_SYMOFF | F_DSO;

	TEST_ASSERT_VAL("evsel", evsel);
	/* The defaults, less the cpu the samples do not hold. */
	TEST_ASSERT_EQUAL("defaults", script_fields__get(&sf, evsel, false), defaults);
	TEST_ASSERT_EQUAL("edits", script_fields__parse(&sf, "+addr,-period"), 0);
	TEST_ASSERT_EQUAL("edited", script_fields__get(&sf, evsel, false),
			  defaults & ~F_PERIOD);	/* no ADDR in the samples either */
	TEST_ASSERT_EQUAL("a list", script_fields__parse(&sf, "comm,ip"), 0);
	TEST_ASSERT_EQUAL("listed", script_fields__get(&sf, evsel, false), F_COMM | F_IP);
	/* Symbols go with the ip: without it they are dropped. */
	TEST_ASSERT_EQUAL("sw list", script_fields__parse(&sf, "sw:tid,sym"), 0);
	TEST_ASSERT_EQUAL("no ip, no sym", script_fields__get(&sf, evsel, false), F_TID);
	TEST_ASSERT_EQUAL("unknown field", script_fields__parse(&sf, "comm,bogus"), -EINVAL);
	TEST_ASSERT_EQUAL("unknown type", script_fields__parse(&sf, "gpu:comm"), -EINVAL);
	TEST_ASSERT_EQUAL("mixed", script_fields__parse(&sf, "comm,+ip"), -EINVAL);
	evsel__delete(evsel);
	/* A bpf-output event (perf record --off-cpu's offcpu-time) shows its BPF data too. */
	attr.config = PERF_COUNT_SW_BPF_OUTPUT;
	evsel = evsel__new(&attr);
	TEST_ASSERT_VAL("bpf-output evsel", evsel);
	memset(&sf, 0, sizeof(sf));
	TEST_ASSERT_EQUAL("bpf-output defaults", script_fields__get(&sf, evsel, false),
			  defaults | F_BPF_OUTPUT);
	evsel__delete(evsel);
	return TEST_OK;
}
DEFINE_SUITE(script_fields, "perf script -F: field lists, per-type lists, edits, missing sample fields");
