/*
 * What asked for a dump (util/dump-request): a trigger's sample described
 * (event, time, CPU, task named from /proc without a process table) and
 * every kind of request in the words the dump message and --header-only
 * print.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/dump-request.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/evsel.h"

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
