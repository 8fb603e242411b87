/*
 * The sample parser on fields the distro records: a weight struct splits
 * into its 32-bit weight and two 16-bit latencies, and a group's READ block
 * gives each count with its id, the times skipped.
 */
#include <string.h>
#include "tests.h"
#include "util/evsel.h"
#include "util/event.h"

static int test__sample_parse(void)
{
	struct perf_event_attr attr = {
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_READ | PERF_SAMPLE_WEIGHT_STRUCT,
		.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_ID | PERF_FORMAT_LOST,
	};
	struct {
		struct perf_event_header h;
		u64 ip;
		u64 nr, enabled;
		u64 v[2][3];	/* value, id, lost */
		u64 weight;
	} rec = {
		.h = { .type = PERF_RECORD_SAMPLE, .size = sizeof(rec) },
		.ip = 0x1234, .nr = 2, .enabled = 99,
		.v = { { 1000, 7, 0 }, { 2000, 8, 0 } },
		.weight = 5 | 6ULL << 32 | 7ULL << 48,
	};
	struct perf_sample s;

	TEST_ASSERT_VAL("parse", !evsel__parse_sample(&attr, (const union perf_event *)&rec, &s));
	TEST_ASSERT_EQUAL("ip", s.ip, 0x1234);
	TEST_ASSERT_EQUAL("weight", s.weight, 5);
	TEST_ASSERT_EQUAL("ins_lat", s.ins_lat, 6);
	TEST_ASSERT_EQUAL("p_stage_cyc", s.p_stage_cyc, 7);
	TEST_ASSERT_EQUAL("counts", s.read_nr, 2);
	TEST_ASSERT_EQUAL("second count", s.read_values[s.read_stride], 2000);
	TEST_ASSERT_EQUAL("second id", s.read_values[s.read_stride + s.read_id_off], 8);
	/* Cut inside the READ block: refused, not read past. */
	rec.h.size = offsetof(typeof(rec), v) + 8;
	TEST_ASSERT_VAL("cut block", evsel__parse_sample(&attr, (const union perf_event *)&rec, &s));
	return TEST_OK;
}

DEFINE_SUITE(sample_parse, "Sample parser: a weight struct's parts, a group's counts read");
