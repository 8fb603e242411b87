/*
 * perf timechart's accounting: each task's state over time, from the
 * switches and wakeups, kept as spans; the picture is drawn from them by
 * util/timechart-svg.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "timechart.h"
#include "array.h"
#include "hash.h"

/* The kernel's task state bits as sched_switch reports prev_state. */
#define TASK_UNINTERRUPTIBLE	0x02
#define TASK_DEAD_BITS		0x30	/* EXIT_DEAD, EXIT_ZOMBIE */
#define TASK_STATE_BITS		0xff	/* above: 'preempted' (R+), runnable */

struct tc_id {
	int tid;
	u32 idx;
};

static u64 tc_id__hash(const void *entry, void *ctx)
{
	(void)ctx;
	return u64__hash((u64)((const struct tc_id *)entry)->tid);
}

static bool tc_id__equal(const void *entry, const void *key, void *ctx)
{
	(void)ctx;
	return ((const struct tc_id *)entry)->tid == *(const int *)key;
}

int timechart__init(struct timechart *tc, int nr_cpus)
{
	memset(tc, 0, sizeof(*tc));
	hashtab__init(&tc->ids, sizeof(struct tc_id), 256, tc_id__hash, tc_id__equal, NULL);
	tc->nr_cpus = nr_cpus > 0 ? nr_cpus : 1;
	tc->cpu_last = calloc((size_t)tc->nr_cpus, sizeof(*tc->cpu_last));
	return tc->cpu_last ? 0 : -ENOMEM;
}

void timechart__exit(struct timechart *tc)
{
	hashtab__exit(&tc->ids);
	free(tc->tasks);
	free(tc->spans);
	free(tc->lost);
	free(tc->cpu_last);
}

/* The index of task @tid, added when new; its comm renewed from a non-empty @comm.  -1: no memory. */
static long tc__task(struct timechart *tc, int tid, const char *comm)
{
	u64 h = u64__hash((u64)tid);
	struct tc_id *id = hashtab__find(&tc->ids, &tid, h);
	struct timechart_task *t;

	if (!id) {
		struct tc_id n = { .tid = tid, .idx = (u32)tc->nr_tasks };

		if (array__room((void **)&tc->tasks, &tc->cap_tasks, tc->nr_tasks, sizeof(*t), 256) ||
		    !(id = hashtab__add(&tc->ids, &n, h)))
			return -1;
		tc->tasks[tc->nr_tasks++] = (struct timechart_task){ .tid = tid, .pid = -1,
								      .cpu = -1, .row = -1 };
	}
	t = &tc->tasks[id->idx];
	if (comm && *comm)
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
	return id->idx;
}

static int tc__span(struct timechart *tc, u32 idx, u64 end, bool open)
{
	struct timechart_task *t = &tc->tasks[idx];

	if (array__room((void **)&tc->spans, &tc->cap_spans, tc->nr_spans,
			sizeof(*tc->spans), 1024))
		return -ENOMEM;
	tc->spans[tc->nr_spans++] = (struct timechart_span){
		.start = t->since, .end = end, .task = idx, .state = (u8)t->state, .open = open,
		.cpu = t->state == TC_RUNNING ? t->cpu : -1,
	};
	if (!open)
		t->total[t->state] += end - t->since;
	return 0;
}

/* Task @idx enters @state at @time (on @cpu when running), its last state a span. */
static int tc__enter(struct timechart *tc, u32 idx, enum timechart_state state, u64 time, int cpu)
{
	struct timechart_task *t = &tc->tasks[idx];

	if (t->state != TC_UNKNOWN && t->state != TC_GONE && time >= t->since &&
	    tc__span(tc, idx, time, false))
		return -ENOMEM;
	t = &tc->tasks[idx];
	t->state = state;
	t->since = time;
	t->cpu = cpu;
	return 0;
}

int timechart__seen(struct timechart *tc, u64 time, int cpu)
{
	if (!tc->first || time < tc->first)
		tc->first = time;
	if (time > tc->last)
		tc->last = time;
	if (cpu < 0)
		return 0;
	if (cpu >= tc->nr_cpus) {
		u64 *p = realloc(tc->cpu_last, (size_t)(cpu + 1) * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + tc->nr_cpus, 0, (size_t)(cpu + 1 - tc->nr_cpus) * sizeof(*p));
		tc->cpu_last = p;
		tc->nr_cpus = cpu + 1;
	}
	tc->cpu_last[cpu] = time;
	return 0;
}

/* The state a task switched out in @prev_state is in until it runs again. */
static enum timechart_state tc__state_of(u64 prev_state)
{
	u64 s = prev_state & TASK_STATE_BITS;

	if (!s)
		return TC_WAITING;
	if (s & TASK_DEAD_BITS)
		return TC_GONE;
	return s & TASK_UNINTERRUPTIBLE ? TC_BLOCKED : TC_SLEEPING;
}

int timechart__switch(struct timechart *tc, u64 time, int cpu, int prev_tid, int prev_pid,
		      const char *prev_comm, u64 prev_state, int next_tid, const char *next_comm)
{
	long idx;

	if (timechart__seen(tc, time, cpu))
		return -ENOMEM;
	if (prev_tid) {
		idx = tc__task(tc, prev_tid, prev_comm);
		if (idx < 0)
			return -ENOMEM;
		if (prev_pid >= 0)
			tc->tasks[idx].pid = prev_pid;
		if (tc__enter(tc, (u32)idx, tc__state_of(prev_state), time, -1))
			return -ENOMEM;
	}
	if (!next_tid)
		return 0;
	idx = tc__task(tc, next_tid, next_comm);
	if (idx < 0)
		return -ENOMEM;
	return tc__enter(tc, (u32)idx, TC_RUNNING, time, cpu);
}

int timechart__wakeup(struct timechart *tc, u64 time, int cpu, int tid, const char *comm)
{
	long idx;
	enum timechart_state s;

	if (timechart__seen(tc, time, cpu))
		return -ENOMEM;
	if (!tid)
		return 0;
	idx = tc__task(tc, tid, comm);
	if (idx < 0)
		return -ENOMEM;
	s = tc->tasks[idx].state;
	/* A wakeup of a task already runnable or running changes nothing. */
	if (s == TC_RUNNING || s == TC_WAITING)
		return 0;
	return tc__enter(tc, (u32)idx, TC_WAITING, time, -1);
}

/*
 * The kernel writes a LOST record once there is room again, so what was
 * lost lies between the CPU's last event we have and the record itself
 * (any CPU's last when the record names none).
 */
int timechart__add_lost(struct timechart *tc, u64 time, int cpu, u64 nr)
{
	u64 start = tc->last;

	if (cpu >= 0 && cpu < tc->nr_cpus && tc->cpu_last[cpu])
		start = tc->cpu_last[cpu];
	if (!start || start > time)
		start = time;
	if (array__room((void **)&tc->lost, &tc->cap_lost, tc->nr_lost, sizeof(*tc->lost), 16))
		return -ENOMEM;
	tc->lost[tc->nr_lost++] = (struct timechart_lost){
		.start = start, .end = time, .nr = nr, .cpu = cpu,
	};
	return timechart__seen(tc, time, cpu);
}

int timechart__finish(struct timechart *tc)
{
	for (size_t i = 0; i < tc->nr_tasks; i++) {
		struct timechart_task *t = &tc->tasks[i];

		if (t->state == TC_UNKNOWN || t->state == TC_GONE || t->since > tc->last)
			continue;
		if (tc__span(tc, (u32)i, tc->last, true))
			return -ENOMEM;
		tc->tasks[i].state = TC_UNKNOWN;
	}
	return 0;
}
