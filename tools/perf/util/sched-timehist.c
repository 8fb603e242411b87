/* perf sched timehist's accounting of run, wait and delay times per task. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sched-timehist.h"
#include "hash.h"

struct task_slot {
	int tid;
	struct sched_task *task;
};

u64 sched_tid__hash(const void *entry, void *ctx)
{
	(void)ctx;
	return u64__hash((u64)*(const int *)entry);
}

bool sched_tid__equal(const void *entry, const void *key, void *ctx)
{
	(void)ctx;
	return *(const int *)entry == *(const int *)key;
}

void sched_timehist__init(struct sched_timehist *th)
{
	memset(th, 0, sizeof(*th));
	hashtab__init(&th->tasks, sizeof(struct task_slot), 256, sched_tid__hash,
		      sched_tid__equal, NULL);
}

void sched_timehist__exit(struct sched_timehist *th)
{
	struct task_slot *s;
	size_t i;

	hashtab__for_each(&th->tasks, i, s)
		free(s->task);
	hashtab__exit(&th->tasks);
	for (i = 0; i < (size_t)th->nr_cpus; i++)
		free(th->idle[i]);
	free(th->idle);
	free(th->last_switch);
	memset(th, 0, sizeof(*th));
}

static struct sched_task *sched_task__new(int tid)
{
	struct sched_task *t = calloc(1, sizeof(*t));

	if (t) {
		t->tid = tid;
		t->parent = -1;
		t->runs.min = (u64)-1;
	}
	return t;
}

struct sched_task *sched_timehist__task(struct sched_timehist *th, int tid)
{
	u64 h = u64__hash((u64)tid);
	struct task_slot *s = hashtab__find(&th->tasks, &tid, h);
	struct task_slot n = { tid, NULL };

	if (s)
		return s->task;
	n.task = sched_task__new(tid);
	if (!n.task)
		return NULL;
	if (!hashtab__add(&th->tasks, &n, h)) {
		free(n.task);
		return NULL;
	}
	return n.task;
}

/* Room for CPUs up to @cpu in the per-CPU arrays. */
static int sched_timehist__grow(struct sched_timehist *th, int cpu)
{
	int n = th->nr_cpus ? th->nr_cpus : 4;
	struct sched_task **idle;
	u64 *last;

	if (cpu < th->nr_cpus)
		return 0;
	while (n <= cpu)
		n *= 2;
	idle = realloc(th->idle, n * sizeof(*idle));
	if (!idle)
		return -ENOMEM;
	th->idle = idle;
	last = realloc(th->last_switch, n * sizeof(*last));
	if (!last)
		return -ENOMEM;
	th->last_switch = last;
	memset(idle + th->nr_cpus, 0, (n - th->nr_cpus) * sizeof(*idle));
	memset(last + th->nr_cpus, 0, (n - th->nr_cpus) * sizeof(*last));
	th->nr_cpus = n;
	return 0;
}

struct sched_task *sched_timehist__idle(struct sched_timehist *th, int cpu)
{
	if (cpu < 0 || sched_timehist__grow(th, cpu))
		return NULL;
	if (!th->idle[cpu])
		th->idle[cpu] = sched_task__new(0);
	return th->idle[cpu];
}

struct sched_task *sched_timehist__idle_seen(const struct sched_timehist *th, int cpu)
{
	return cpu >= 0 && cpu < th->nr_cpus ? th->idle[cpu] : NULL;
}

u64 sched_timehist__last_switch(const struct sched_timehist *th, int cpu)
{
	return cpu >= 0 && cpu < th->nr_cpus ? th->last_switch[cpu] : 0;
}

int sched_timehist__set_switch(struct sched_timehist *th, int cpu, u64 time)
{
	if (cpu < 0)
		return -EINVAL;
	if (sched_timehist__grow(th, cpu))
		return -ENOMEM;
	th->last_switch[cpu] = time;
	return 0;
}

void sched_task__woken(struct sched_task *t, u64 time)
{
	/* A task woken twice before it runs waits from the first wakeup. */
	if (!t->ready_to_run)
		t->ready_to_run = time;
}

void sched_task__migrated(struct sched_task *t)
{
	t->migrations++;
}

void sched_stats__add(struct sched_stats *s, u64 val)
{
	double delta;

	s->n++;
	delta = (double)val - s->mean;
	s->mean += delta / (double)s->n;
	s->m2 += delta * ((double)val - s->mean);
	if (val > s->max)
		s->max = val;
	if (val < s->min)
		s->min = val;
}

double sched_stats__rel_stddev(const struct sched_stats *s)
{
	double var;

	if (s->n < 2 || s->mean == 0)
		return 0;
	var = s->m2 / (double)(s->n - 1);
	return 100.0 * sqrt(var / (double)s->n) / s->mean;
}

/* The wait before a run that began at @tprev, by the state the task was left in. */
static void sched_task__account_wait(struct sched_task *t, u64 tprev)
{
	u64 wait;

	/* A wakeup after the run began, or a last switch after it: out of order, none. */
	if (t->ready_to_run && t->ready_to_run <= tprev)
		t->dt_delay = tprev - t->ready_to_run;
	if (!t->last_time || t->last_time > tprev)
		return;
	wait = tprev - t->last_time;
	if (t->last_state == SCHED_TASK_RUNNING)
		t->dt_preempt = wait;
	else if (t->last_state == SCHED_TASK_UNINTERRUPTIBLE)
		t->dt_iowait = wait;
	else
		t->dt_sleep = wait;
}

void sched_task__account(struct sched_task *t, u64 t_end, u64 tprev)
{
	t->dt_run = t->dt_delay = t->dt_sleep = t->dt_iowait = t->dt_preempt = 0;
	if (tprev) {
		t->dt_run = t_end - tprev;
		sched_task__account_wait(t, tprev);
	}
	sched_stats__add(&t->runs, t->dt_run);
	t->total_run += t->dt_run;
	t->total_delay += t->dt_delay;
	t->total_sleep += t->dt_sleep;
	t->total_iowait += t->dt_iowait;
	t->total_preempt += t->dt_preempt;
}

void sched_task__switched_out(struct sched_task *t, u64 time, int state)
{
	t->last_time = time;
	t->last_state = state;
	/*
	 * Not runnable until its next wakeup, even when it was preempted: a
	 * preempted task's delay is not known (as the distro counts it).
	 */
	t->ready_to_run = 0;
}
