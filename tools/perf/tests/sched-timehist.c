/* sched-timehist: run, wait and delay times of two tasks and an idle CPU from synthetic switches. */
#include "tests.h"
#include "util/sched-timehist.h"
#include <stdio.h>
#include <string.h>
#include "util/sched-cmd.h"
#include "util/debug.h"

#define MS 1000000ULL

/*
 * CPU 0, in ms: idle until 10; A runs 10-14 and sleeps (S); B, woken at
 * 12, runs 14-20 and is preempted (R); A, woken at 16, runs 20-23 and
 * blocks (D); B runs 23-30; A, woken at 25, runs 30-31.
 */
static int test__sched_timehist(void)
{
	struct sched_timehist th;
	struct sched_task *idle, *a, *b;
	const struct {
		u64 at;
		int out;	/* tid switched out; 0 idle */
		int state;
	} sw[] = {
		{ 10 * MS, 0, 0 }, { 14 * MS, 1, 1 }, { 20 * MS, 2, SCHED_TASK_RUNNING },
		{ 23 * MS, 1, SCHED_TASK_UNINTERRUPTIBLE }, { 30 * MS, 2, SCHED_TASK_RUNNING },
		{ 31 * MS, 1, 1 },
	};
	const struct { u64 at; int tid; } wake[] = { { 12 * MS, 2 }, { 16 * MS, 1 }, { 25 * MS, 1 } };
	size_t w = 0;

	sched_timehist__init(&th);
	idle = sched_timehist__idle(&th, 0);
	a = sched_timehist__task(&th, 1);
	b = sched_timehist__task(&th, 2);
	TEST_ASSERT_VAL("tasks made", idle && a && b);
	TEST_ASSERT_VAL("same task by tid", sched_timehist__task(&th, 1) == a);
	TEST_ASSERT_VAL("no switch yet", sched_timehist__last_switch(&th, 0) == 0);
	for (size_t i = 0; i < ARRAY_SIZE(sw); i++) {
		struct sched_task *t = sw[i].out ? sched_timehist__task(&th, sw[i].out) : idle;

		for (; w < ARRAY_SIZE(wake) && wake[w].at < sw[i].at; w++)
			sched_task__woken(sched_timehist__task(&th, wake[w].tid), wake[w].at);
		sched_task__account(t, sw[i].at, sched_timehist__last_switch(&th, 0));
		sched_task__switched_out(t, sw[i].at, sw[i].state);
		TEST_ASSERT_VAL("switch kept", !sched_timehist__set_switch(&th, 0, sw[i].at));
		if (i == 3) {
			/* A's second run: slept 14-20, of which 16-20 after its wakeup. */
			TEST_ASSERT_EQUAL("A run", a->dt_run, 3 * MS);
			TEST_ASSERT_EQUAL("A sleep", a->dt_sleep, 6 * MS);
			TEST_ASSERT_EQUAL("A delay", a->dt_delay, 4 * MS);
		}
		if (i == 4) {
			/* B was preempted at 20: its wait is preemption, its delay unknown. */
			TEST_ASSERT_EQUAL("B preempt", b->dt_preempt, 3 * MS);
			TEST_ASSERT_EQUAL("B no delay", b->dt_delay, 0);
			TEST_ASSERT_EQUAL("B no sleep", b->dt_sleep, 0);
		}
	}
	/* The first run of each: its start was seen, no wait before it. */
	TEST_ASSERT_EQUAL("idle: one run with no start", idle->runs.n, 1);
	TEST_ASSERT_EQUAL("idle: no time", idle->total_run, 0);
	TEST_ASSERT_EQUAL("A runs", a->runs.n, 3);
	TEST_ASSERT_EQUAL("A total", a->total_run, 8 * MS);
	TEST_ASSERT_EQUAL("A iowait (blocked 23-30)", a->total_iowait, 7 * MS);
	TEST_ASSERT_EQUAL("A delay 4 + 5", a->total_delay, 9 * MS);
	TEST_ASSERT_EQUAL("A min", a->runs.min, 1 * MS);
	TEST_ASSERT_EQUAL("A max", a->runs.max, 4 * MS);
	TEST_ASSERT_EQUAL("B total", b->total_run, 13 * MS);
	TEST_ASSERT_EQUAL("B delay 12-14", b->total_delay, 2 * MS);
	TEST_ASSERT_VAL("A mean 8/3 ms", a->runs.mean > 2.66 * MS && a->runs.mean < 2.67 * MS);
	TEST_ASSERT_VAL("spread of 4,3,1 ms", sched_stats__rel_stddev(&a->runs) > 32.9 &&
		       sched_stats__rel_stddev(&a->runs) < 33.1);
	TEST_ASSERT_VAL("other CPUs unseen", !sched_timehist__idle_seen(&th, 5));
	sched_timehist__exit(&th);
	return TEST_OK;
}

DEFINE_SUITE(sched_timehist, "sched-timehist: run, wait and delay times from synthetic switches");

/*
 * timehist's hand-made number columns against the printf forms they stand
 * for, over the edges: zero, carries, widths the number overflows.
 */
static const unsigned long long print_ns[] = {
	0, 999, 1000, 999999, 1000000, 1234567, 99999999999ULL, 18446744073709551615ULL,
};
static const int print_cpus[] = { 0, 7, 123, 9999, 10000, -1 };

static int print_columns(int argc, const char **argv)
{
	(void)argc;
	(void)argv;
	for (size_t i = 0; i < ARRAY_SIZE(print_ns); i++) {
		sched__print_msec(print_ns[i], 6);
		sched__print_msec(print_ns[i], 0);
		sched__print_timestamp(print_ns[i] * 1000, print_cpus[i % ARRAY_SIZE(print_cpus)]);
		sched__print_left(i % 2 ? "sh[12/10]" : "", 9 - (int)i);
		putchar('\n');
	}
	return 0;
}

static int test__sched_print_columns(void)
{
	static char got[4096], want[4096];
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(print_ns); i++) {
		unsigned long long ns = print_ns[i], t = ns * 1000;
		char stamp[48];

		for (int w = 6; w >= 0; w -= 6)
			n += snprintf(want + n, sizeof(want) - n, "%*llu.%03llu ", w, ns / 1000000,
				      ns % 1000000 / 1000);
		snprintf(stamp, sizeof(stamp), "%llu.%06llu", t / 1000000000, t % 1000000000 / 1000);
		n += snprintf(want + n, sizeof(want) - n, "%15s [%04d] ", stamp,
			      print_cpus[i % ARRAY_SIZE(print_cpus)]);
		n += snprintf(want + n, sizeof(want) - n, " %-*s \n", 9 - (int)i,
			      i % 2 ? "sh[12/10]" : "");
	}
	TEST_ASSERT_VAL("captured", test__run_captured(print_columns, 0, NULL, got, sizeof(got)) == 0);
	if (strcmp(got, want)) {
		pr_debug("got:\n%swant:\n%s", got, want);
		return TEST_FAIL;
	}
	return TEST_OK;
}

DEFINE_SUITE(sched_print_columns, "sched-print-columns: timehist's number columns as printf forms them");
