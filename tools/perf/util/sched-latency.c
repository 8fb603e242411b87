/* perf sched latency's accounting of each task's waits for a CPU. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sched-latency.h"
#include "hash.h"
#include "sched-timehist.h"

struct lat_slot {
	int tid;
	struct sched_lat_task *task;
};

void sched_lat__init(struct sched_lat *sl, int profile_cpu)
{
	memset(sl, 0, sizeof(*sl));
	sl->profile_cpu = profile_cpu;
	hashtab__init(&sl->tasks, sizeof(struct lat_slot), 256, sched_tid__hash, sched_tid__equal,
		      NULL);
}

void sched_lat__exit(struct sched_lat *sl)
{
	struct lat_slot *s;
	size_t i;

	hashtab__for_each(&sl->tasks, i, s)
		free(s->task);
	hashtab__exit(&sl->tasks);
	free(sl->curr_pid);
	free(sl->last_switch);
	memset(sl, 0, sizeof(*sl));
}

static struct sched_lat_task *sched_lat__find(const struct sched_lat *sl, int tid)
{
	struct lat_slot *s = hashtab__find(&sl->tasks, &tid, u64__hash((u64)tid));

	return s ? s->task : NULL;
}

/*
 * A new stretch off the CPU from @time: runnable at once when it was
 * preempted (@runnable), else asleep until a wakeup.
 */
static void sched_lat_task__out(struct sched_lat_task *t, u64 time, bool runnable)
{
	t->sched_out_time = time;
	t->wake_up_time = runnable ? time : 0;
	t->state = runnable ? SCHED_LAT_WAIT_CPU : SCHED_LAT_SLEEPING;
}

/* A task first seen at @time, in its first stretch. */
static struct sched_lat_task *sched_lat__add(struct sched_lat *sl, int tid, u64 time,
					     bool runnable)
{
	struct lat_slot n = { tid, calloc(1, sizeof(struct sched_lat_task)) };

	if (!n.task)
		return NULL;
	n.task->tid = tid;
	sched_lat_task__out(n.task, time, runnable);
	if (!hashtab__add(&sl->tasks, &n, u64__hash((u64)tid))) {
		free(n.task);
		return NULL;
	}
	return n.task;
}

static int sched_lat__grow(struct sched_lat *sl, int cpu)
{
	int n = sl->nr_cpus ? sl->nr_cpus : 4;
	int *curr;
	u64 *last;

	if (cpu < sl->nr_cpus)
		return 0;
	while (n <= cpu)
		n *= 2;
	curr = realloc(sl->curr_pid, n * sizeof(*curr));
	if (!curr)
		return -ENOMEM;
	sl->curr_pid = curr;
	last = realloc(sl->last_switch, n * sizeof(*last));
	if (!last)
		return -ENOMEM;
	sl->last_switch = last;
	for (int i = sl->nr_cpus; i < n; i++) {
		curr[i] = -1;
		last[i] = 0;
	}
	sl->nr_cpus = n;
	return 0;
}

/* @t switched in at @time: the end of a wait, if it was waiting. */
static void sched_lat_task__in(struct sched_lat_task *t, u64 time)
{
	u64 lat;

	if (t->state != SCHED_LAT_WAIT_CPU)
		return;
	if (time < t->wake_up_time) {
		t->state = SCHED_LAT_IGNORE;
		return;
	}
	t->state = SCHED_LAT_SCHED_IN;
	lat = time - t->wake_up_time;
	t->total_lat += lat;
	if (lat > t->max_lat) {
		t->max_lat = lat;
		t->max_lat_start = t->wake_up_time;
		t->max_lat_end = time;
	}
	t->nr_waits++;
}

int sched_lat__switch(struct sched_lat *sl, int cpu, u64 time, int prev_pid, int prev_state,
		      int next_pid)
{
	struct sched_lat_task *out, *in;

	if (cpu < 0 || sched_lat__grow(sl, cpu))
		return -ENOMEM;
	if (sl->curr_pid[cpu] != -1 && sl->curr_pid[cpu] != prev_pid)
		sl->nr_context_switch_bugs++;
	sl->curr_pid[cpu] = next_pid;
	sl->last_switch[cpu] = time;
	out = sched_lat__find(sl, prev_pid);
	if (!out && !(out = sched_lat__add(sl, prev_pid, time, false)))
		return -ENOMEM;
	/* The stretch the task's first sight opened is closed by this one. */
	sched_lat_task__out(out, time, prev_state == 0);
	in = sched_lat__find(sl, next_pid);
	/* A task switched in that was never seen: runnable until now. */
	if (!in && !(in = sched_lat__add(sl, next_pid, time, true)))
		return -ENOMEM;
	sched_lat_task__in(in, time);
	return 0;
}

int sched_lat__runtime(struct sched_lat *sl, int pid, u64 runtime, u64 time)
{
	struct sched_lat_task *t = sched_lat__find(sl, pid);

	if (!t && !(t = sched_lat__add(sl, pid, time, true)))
		return -ENOMEM;
	t->total_runtime += runtime;
	return 0;
}

int sched_lat__wakeup(struct sched_lat *sl, int pid, u64 time)
{
	struct sched_lat_task *t = sched_lat__find(sl, pid);

	if (!t && !(t = sched_lat__add(sl, pid, time, false)))
		return -ENOMEM;
	/*
	 * A wakeup of a task still on its run queue changes nothing; with
	 * one CPU profiled its switches out elsewhere are not seen, so every
	 * wakeup counts.
	 */
	if (sl->profile_cpu == -1 && t->state != SCHED_LAT_SLEEPING)
		return 0;
	sl->nr_timestamps++;
	if (t->sched_out_time > time) {
		sl->nr_unordered_timestamps++;
		return 0;
	}
	t->state = SCHED_LAT_WAIT_CPU;
	t->wake_up_time = time;
	return 0;
}

int sched_lat__migrate(struct sched_lat *sl, int pid, u64 time)
{
	struct sched_lat_task *t;

	/* Only one CPU's view needs them: the task's stretch restarts there. */
	if (sl->profile_cpu == -1)
		return 0;
	t = sched_lat__find(sl, pid);
	if (!t && !(t = sched_lat__add(sl, pid, time, true)))
		return -ENOMEM;
	t->sched_out_time = t->wake_up_time = time;
	sl->nr_timestamps++;
	return 0;
}

struct sched_lat_task **sched_lat__tasks(const struct sched_lat *sl, size_t *nr)
{
	struct sched_lat_task **v = calloc(sl->tasks.nr + 1, sizeof(*v));
	struct lat_slot *s;
	size_t i;

	*nr = 0;
	if (!v)
		return NULL;
	hashtab__for_each(&sl->tasks, i, s)
		v[(*nr)++] = s->task;
	return v;
}
