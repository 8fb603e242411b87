/*
 * What asked for a dump (util/dump-request): a trigger's sample described
 * (event, time, CPU, task named from /proc without a process table) and
 * every kind of request in the words the dump message and --header-only
 * print.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/clockid.h"
#include "util/dump-request.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/flight-recorder.h"

/* A sample of TID|TIME|CPU, in ABI order. */
struct trigger_sample {
	struct perf_event_header header;
	u32 pid, tid;
	u64 time;
	u32 cpu, res;
};

static int check_describe(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU,
	};
	struct trigger_sample s = {
		.header = { .type = PERF_RECORD_SAMPLE, .size = sizeof(s) },
		.pid = getpid(), .tid = getpid(),
		.time = 12345678912ULL, .cpu = 3,
	};
	struct dump_request r = { .kind = DUMP_REQUEST_TRIGGER };
	struct evlist *evlist = evlist__new();
	struct evsel *evsel = evsel__new(&attr);
	char comm[32] = "", buf[256], want[256];
	FILE *f = fopen("/proc/self/comm", "r");

	TEST_ASSERT_VAL("setup", evlist && evsel && !evsel__set_name(evsel, "sched:sched_x"));
	evlist__add(evlist, evsel);
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	dump_request__describe(&r, evlist, (union perf_event *)&s, NULL);
	evlist__delete(evlist);
	snprintf(want, sizeof(want), "trigger sched:sched_x at 12.345678 on CPU 3 by %s %d/%d",
		 comm, (int)getpid(), (int)getpid());
	dump_request__format(&r, buf, sizeof(buf));
	TEST_ASSERT_VAL(buf, !strcmp(buf, want));
	r.joined = 2;
	strcat(want, ", and 2 more requests in its window");
	dump_request__format(&r, buf, sizeof(buf));
	TEST_ASSERT_VAL(buf, !strcmp(buf, want));
	return TEST_OK;
}

static int test__dump_request(void)
{
	struct dump_request r = { .kind = DUMP_REQUEST_SIZE, .threshold = 4096 };
	char buf[256];

	TEST_ASSERT_VAL(buf, !strcmp(dump_request__format(&r, buf, sizeof(buf)),
				     "size threshold 4096 bytes"));
	r = (struct dump_request){ .kind = DUMP_REQUEST_TIME, .threshold = 30 };
	TEST_ASSERT_VAL(buf, !strcmp(dump_request__format(&r, buf, sizeof(buf)),
				     "time threshold 30 s"));
	r = (struct dump_request){ .kind = DUMP_REQUEST_SIGNAL, .joined = 1 };
	TEST_ASSERT_VAL(buf, !strcmp(dump_request__format(&r, buf, sizeof(buf)),
				     "signal SIGUSR2, and 1 more request in its window"));
	r = (struct dump_request){ .kind = DUMP_REQUEST_TRIGGER };
	TEST_ASSERT_VAL(buf, !strcmp(dump_request__format(&r, buf, sizeof(buf)),
				     "trigger (its sample was lost)"));
	r = (struct dump_request){ .kind = DUMP_REQUEST__MAX + 1 };
	TEST_ASSERT_VAL(buf, !strcmp(dump_request__format(&r, buf, sizeof(buf)), "unknown"));
	return check_describe();
}
DEFINE_SUITE(dump_request, "Dump requests: a trigger's sample described, every kind put in words");

/* What the announcing function printed, in @buf. */
static const char *served(char *buf, size_t size, const struct flight_recorder_dump *d,
			  u64 samples, const struct clock_ref *tod)
{
	struct dump_request r = { .kind = DUMP_REQUEST_SIGNAL };
	FILE *f = fmemopen(buf, size, "w");

	if (!f)
		return "";
	dump_request__print_served(f, &r, "perf.data.1", d, samples, tod);
	fclose(f);
	return buf;
}

static int test__dump_request_served(void)
{
	struct flight_recorder_dump d = { .first = 1500000000ULL, .last = 2250001000ULL, .tasks = 3,
					  .lost = 7 };
	struct clock_ref tod = { .wall_ns = 1700000000ULL * 1000000000ULL, .clock_ns = 0 };
	char buf[512];
	FILE *f;

	/* Times of day in UTC: the test's own process, a forked child. */
	setenv("TZ", "UTC", 1);
	tzset();
	TEST_ASSERT_VAL(buf, !strcmp(served(buf, sizeof(buf), NULL, 5, NULL),
				     "[ perf record: Dump perf.data.1 ]\n"));
	TEST_ASSERT_VAL(buf, !strcmp(served(buf, sizeof(buf), &d, 0, NULL),
				     "[ perf record: Dump perf.data.1 (signal SIGUSR2): 0 samples, "
				     "3 tasks, 7 lost ]\n"));
	TEST_ASSERT_VAL(buf, !strcmp(served(buf, sizeof(buf), &d, 5, NULL),
				     "[ perf record: Dump perf.data.1 (signal SIGUSR2): 5 samples, "
				     "1.500000..2.250001 (0.750 s), 3 tasks, 7 lost ]\n"));
	TEST_ASSERT_VAL(buf, !strcmp(served(buf, sizeof(buf), &d, 5, &tod),
				     "[ perf record: Dump perf.data.1 (signal SIGUSR2): 5 samples, "
				     "1.500000..2.250001 (0.750 s; 2023-11-14 22:13:21.500000.."
				     "2023-11-14 22:13:22.250001), 3 tasks, 7 lost ]\n"));

	/* The delay warning: only when the buffers held less than the window. */
	f = fmemopen(buf, sizeof(buf), "w");
	TEST_ASSERT_VAL("fmemopen", f);
	TEST_ASSERT_VAL("nothing turned over", !dump_request__warn_delay(f, "x", 10, 0));
	TEST_ASSERT_VAL("held longer than the delay",
			!dump_request__warn_delay(f, "x", 10, 10000000ULL));
	TEST_ASSERT_VAL("held less", dump_request__warn_delay(f, "x", 10, 2000000ULL));
	fclose(f);
	TEST_ASSERT_VAL(buf, strstr(buf, "--switch-output-delay=10ms is longer") &&
			strstr(buf, "x held the last 2.000 ms only"));
	return TEST_OK;
}
DEFINE_SUITE(dump_request_served, "Dump requests: the line a dump is announced with, the delay warning");
