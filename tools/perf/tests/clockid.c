/*
 * -k/--clockid names and numbers, and sample times as times of day.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tests.h"
#include "util/clockid.h"

static int test__clockid(void)
{
	struct clock_ref ref = { .clockid = CLOCK_MONOTONIC, .wall_ns = 2000000000000000000ULL,
				 .clock_ns = 5000000000ULL };
	char buf[64];
	int id = -1;

	TEST_ASSERT_VAL("monotonic", !clockid__parse("monotonic", &id) && id == CLOCK_MONOTONIC);
	TEST_ASSERT_VAL("raw", !clockid__parse("raw", &id) && id == CLOCK_MONOTONIC_RAW);
	TEST_ASSERT_VAL("CLOCK_REALTIME", !clockid__parse("CLOCK_REALTIME", &id) &&
			id == CLOCK_REALTIME);
	TEST_ASSERT_VAL("Boot, any case", !clockid__parse("Boot", &id) && id == CLOCK_BOOTTIME);
	TEST_ASSERT_VAL("tai", !clockid__parse("tai", &id) && id == 11);
	TEST_ASSERT_VAL("a number", !clockid__parse("4", &id) && id == 4);
	TEST_ASSERT_VAL("not a clock", clockid__parse("sundial", &id));
	TEST_ASSERT_VAL("empty", clockid__parse("", &id));
	TEST_ASSERT_VAL("negative", clockid__parse("-1", &id));
	TEST_ASSERT_VAL("trailing junk", clockid__parse("1x", &id));
	TEST_ASSERT_VAL("printed name", !strcmp(clockid__name(CLOCK_MONOTONIC_RAW), "monotonic_raw"));
	TEST_ASSERT_VAL("an unnamed clock", clockid__name(2) == NULL);

	/* 1.5 s after the reference, and 1 s before it. */
	TEST_ASSERT_VAL("after", clock_ref__tod_ns(&ref, 6500000000ULL) == 2000000001500000000ULL);
	TEST_ASSERT_VAL("before", clock_ref__tod_ns(&ref, 4000000000ULL) == 1999999999000000000ULL);
	setenv("TZ", "UTC", 1);
	tzset();
	TEST_ASSERT_VAL("formatted", clock_ref__format_tod(2000000001500000000ULL, buf, sizeof(buf)) &&
			!strcmp(buf, "2033-05-18 03:33:21.500000"));
	return TEST_OK;
}
DEFINE_SUITE(clockid, "Clock names for -k, sample times as times of day");

/* now_ns() and clock__now_ns(): the clock's reading in ns, 0 for a clock there is not. */
static int test__clock_now(void)
{
	struct timespec a, b;
	u64 ns;

	clock_gettime(CLOCK_MONOTONIC, &a);
	ns = now_ns();
	clock_gettime(CLOCK_MONOTONIC, &b);
	TEST_ASSERT_VAL("not before the reading before it",
			ns >= (u64)a.tv_sec * 1000000000ULL + (u64)a.tv_nsec);
	TEST_ASSERT_VAL("not after the reading after it",
			ns <= (u64)b.tv_sec * 1000000000ULL + (u64)b.tv_nsec);
	TEST_ASSERT_VAL("monotonic", now_ns() >= ns);
	TEST_ASSERT_VAL("another clock", clock__now_ns(CLOCK_REALTIME) > 1000000000ULL);
	TEST_ASSERT_EQUAL("a clock there is not", clock__now_ns(12345), 0ULL);
	return TEST_OK;
}
DEFINE_SUITE(clock_now, "Clock readings in ns: now_ns() and clock__now_ns()");
