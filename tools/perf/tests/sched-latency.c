/* sched-latency: waits for a CPU from wakeups and preemption, from synthetic events on one CPU. */
#include <stdlib.h>
#include "tests.h"
#include "util/sched-latency.h"

#define MS 1000000ULL

static struct sched_lat_task *task_of(struct sched_lat_task **v, size_t nr, int tid)
{
	for (size_t i = 0; i < nr; i++)
		if (v[i]->tid == tid)
			return v[i];
	return NULL;
}

/*
 * CPU 0, in ms: 1 runs, then at 10 switches to 2 in S; 1 is woken at 12;
 * at 15, 2 is preempted (R) for 1, which waited 3; at 20, 1 blocks (S) for
 * 2, which waited 5.  A wakeup of 2 (runnable) at 18 changes nothing; a
 * switch out of 3, which is not running, is a context switch bug, and
 * switching in 2, running already, ends no wait.
 */
static int test__sched_latency(void)
{
	struct sched_lat sl;
	struct sched_lat_task **v, *a, *b;
	size_t nr;

	sched_lat__init(&sl, -1);
	TEST_ASSERT_VAL("switch", !sched_lat__switch(&sl, 0, 10 * MS, 1, 1, 2));
	TEST_ASSERT_VAL("wakeup", !sched_lat__wakeup(&sl, 1, 12 * MS));
	TEST_ASSERT_VAL("runtime", !sched_lat__runtime(&sl, 2, 4 * MS, 14 * MS));
	TEST_ASSERT_VAL("preempt", !sched_lat__switch(&sl, 0, 15 * MS, 2, 0, 1));
	TEST_ASSERT_VAL("wakeup of a runnable task", !sched_lat__wakeup(&sl, 2, 18 * MS));
	TEST_ASSERT_VAL("block", !sched_lat__switch(&sl, 0, 20 * MS, 1, 1, 2));
	TEST_ASSERT_VAL("bad switch", !sched_lat__switch(&sl, 0, 21 * MS, 3, 1, 2));
	v = sched_lat__tasks(&sl, &nr);
	TEST_ASSERT_VAL("tasks", v && nr == 3);
	a = task_of(v, nr, 1);
	b = task_of(v, nr, 2);
	TEST_ASSERT_VAL("both", a && b);
	TEST_ASSERT_EQUAL("1 waited once", a->nr_waits, 1);
	TEST_ASSERT_EQUAL("1 waited 12-15", a->total_lat, 3 * MS);
	TEST_ASSERT_EQUAL("1 max from", a->max_lat_start, 12 * MS);
	TEST_ASSERT_EQUAL("1 max to", a->max_lat_end, 15 * MS);
	/* 2's first sight, switched in: a wait of 0; then preempted 15-20. */
	TEST_ASSERT_EQUAL("2 waits", b->nr_waits, 2);
	TEST_ASSERT_EQUAL("2 waited 0 + 5", b->total_lat, 5 * MS);
	TEST_ASSERT_EQUAL("2 longest", b->max_lat, 5 * MS);
	TEST_ASSERT_EQUAL("2 ran", b->total_runtime, 4 * MS);
	TEST_ASSERT_EQUAL("wakeups counted", sl.nr_timestamps, 1);
	TEST_ASSERT_EQUAL("context switch bugs", sl.nr_context_switch_bugs, 1);
	free(v);
	sched_lat__exit(&sl);
	return TEST_OK;
}

DEFINE_SUITE(sched_latency, "sched-latency: waits for a CPU from wakeups and preemption");
