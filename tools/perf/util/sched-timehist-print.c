/* perf sched timehist's lines and summary, in the distro's layout. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sched-timehist-print.h"
#include "machine.h"
#include "symbol.h"

void timehist__header(struct sched_cmd *sc)
{
	int ncpus = sc->max_cpu + 1;

	printf("%15s %6s ", "time", "cpu");
	if (sc->cpu_visual) {
		printf(" ");
		for (int i = 0; i < ncpus; i++)
			printf("%x", i % 16);
		printf(" ");
	}
	printf(" %-*s  %9s  %9s  %9s", sc->comm_width, "task name", "wait time", "sch delay",
	       "run time");
	if (sc->state)
		printf("  %s", "state");
	printf("\n%15s %-6s ", "", "");
	if (sc->cpu_visual)
		printf(" %*s ", ncpus, "");
	printf(" %-*s  %9s  %9s  %9s", sc->comm_width, "[tid/pid]", "(msec)", "(msec)", "(msec)");
	if (sc->state)
		printf("  %5s", "");
	printf("\n%.15s %.6s ", sched__dashes, sched__dashes);
	if (sc->cpu_visual)
		printf(" %.*s ", ncpus, sched__dashes);
	printf(" %.*s  %.9s  %.9s  %.9s", sc->comm_width, sched__dashes, sched__dashes,
	       sched__dashes, sched__dashes);
	if (sc->state)
		printf("  %.5s", sched__dashes);
	printf("\n");
}

/* The letter of a prev_state, as the distro's table has them; 'I' for the idle task. */
static char sched__state_char(bool idle, int state)
{
	static const char letters[] = "RSDTtZXxKWP";
	int bit = state ? __builtin_ffs(state) : 0;

	if (idle)
		return 'I';
	return bit < (int)sizeof(letters) - 1 ? letters[bit] : '?';
}

/*
 * "  f <- g <- h": the frames of the switch, callee first, without the
 * scheduler's own (the distro reads two frames more than --max-stack for
 * them), "[unknown]" where no symbol is known.
 */
static void timehist__print_chain(struct sched_cmd *sc, struct perf_sample *sample,
				  struct machine *m)
{
	static const char * const hidden[] = { "schedule", "__schedule", "preempt_schedule" };
	ssize_t nr = callchain_frames__resolve(&sc->frames, m, sample, sc->kernel, &sc->cc,
					       sc->max_stack + 2);
	bool first = true;

	printf("  ");
	for (ssize_t i = 0; i < nr; i++) {
		const struct symbol *sym = sc->frames.frames[i].sym;
		size_t k;

		/*
		 * The distro's timehist reads MMAP records but not MMAP2, which
		 * every user-space mapping of a current kernel's file is: its user
		 * frames are all unknown.
		 */
		if (!sc->frames.frames[i].kernel)
			sym = NULL;
		for (k = 0; sym && k < ARRAY_SIZE(hidden) && strcmp(sym->name, hidden[k]); k++)
			;
		if (sym && k < ARRAY_SIZE(hidden))
			continue;
		printf("%s %s", first ? "" : " <-", sym ? sym->name : "[unknown]");
		first = false;
	}
}

void timehist__print_switch(struct sched_cmd *sc, struct perf_sample *sample,
				   struct machine *m, struct thread *t, struct sched_task *rt,
				   u64 time, int state)
{
	const char *name;

	if (!sample_filter__match_cpu(&sc->filter, sample->cpu))
		return;
	sched__print_timestamp(time, sample->cpu);
	if (sc->cpu_visual) {
		printf(" ");
		for (int i = 0; i < sc->max_cpu + 1; i++)
			putchar(i == (int)sample->cpu ? (t ? 's' : 'i') : ' ');
		printf(" ");
	}
	name = sched__task_name(sc, t);
	sched__print_left(name, sc->comm_width);
	sched__print_msec(rt->dt_sleep + rt->dt_iowait + rt->dt_preempt, 6);
	sched__print_msec(rt->dt_delay, 6);
	sched__print_msec(rt->dt_run, 6);
	if (sc->state)
		printf(" %5c ", sched__state_char(!t, state));
	if (sc->wakeups)
		printf("  %-*s", sc->comm_width, "");
	if (t && sc->callchain)
		timehist__print_chain(sc, sample, m);
	printf("\n");
}

/* A wakeup or migration line: who did it, and to whom. */
void timehist__print_event(struct sched_cmd *sc, struct perf_sample *sample,
				  struct thread *by, struct thread *to, char mark, const char *what)
{
	sched__print_timestamp(sample->time, sample->cpu);
	/* The distro pads a migration's CPU column one wider on each side than a wakeup's. */
	if (sc->cpu_visual && !mark) {
		printf(" %*s ", sc->max_cpu + 1, "");
	} else if (sc->cpu_visual) {
		printf("  ");
		for (int i = 0; i < sc->max_cpu + 1; i++)
			putchar(i == (int)sample->cpu ? mark : ' ');
		printf("  ");
	}
	printf(" %-*s ", sc->comm_width, sched__task_name(sc, by));
	printf("  %9s  %9s  %9s ", "", "", "");
	printf("%s: %s", what, sched__task_name(sc, to));
}

struct summary_row {
	struct thread *thread;
	struct sched_task *task;
};

/* The distro lists threads by their hash bucket (tid modulo 256), then by tid. */
static int summary_row__cmp(const void *a, const void *b)
{
	const struct summary_row *x = a, *y = b;
	unsigned int bx = (unsigned int)x->thread->tid % 256, by = (unsigned int)y->thread->tid % 256;

	if (bx != by)
		return bx < by ? -1 : 1;
	return x->thread->tid < y->thread->tid ? -1 : x->thread->tid > y->thread->tid;
}

struct summary_totals {
	u64 tasks, switches, run;
};

static void summary__print_task(struct sched_cmd *sc, struct summary_row *r,
				struct summary_totals *tot)
{
	const struct sched_task *t = r->task;
	const char *name = sched__task_name(sc, r->thread);

	tot->tasks++;
	tot->switches += t->runs.n;
	tot->run += t->total_run;
	printf("%*s   %5d  %9llu ", sc->comm_width, name,
	       t->parent != -1 ? t->parent : r->thread->ppid,
	       (unsigned long long)t->runs.n);
	sched__print_msec(t->total_run, 8);
	if (sc->state) {
		sched__print_msec(t->total_sleep, 6);
		printf(" ");
		sched__print_msec(t->total_iowait, 6);
		printf(" ");
		sched__print_msec(t->total_preempt, 6);
		printf(" ");
		sched__print_msec(t->total_delay, 6);
		printf("\n");
		return;
	}
	sched__print_msec(t->runs.min, 6);
	printf(" ");
	sched__print_msec((u64)t->runs.mean, 6);
	printf(" ");
	sched__print_msec(t->runs.max, 6);
	printf("  %5.2f   %5llu\n", sched_stats__rel_stddev(&t->runs),
	       (unsigned long long)t->migrations);
}

/* The tasks that ran, live ones first and then those that exited. */
static int summary__print_tasks(struct sched_cmd *sc, struct machine *m,
				struct summary_totals *tot)
{
	struct summary_row *rows = calloc(sc->th.tasks.nr + 1, sizeof(*rows));
	size_t nr = 0, i, live = 0;
	struct { int tid; struct sched_task *task; } *slot;

	if (!rows)
		return -ENOMEM;
	hashtab__for_each(&sc->th.tasks, i, slot) {
		struct thread *t = machine__findnew_thread(m, -1, slot->tid);

		if (!t || !slot->task->runs.n || sched__filtered(sc, t))
			continue;
		rows[nr++] = (struct summary_row){ t, slot->task };
	}
	qsort(rows, nr, sizeof(*rows), summary_row__cmp);
	for (i = 0; i < nr; i++)
		if (!rows[i].thread->exited) {
			summary__print_task(sc, &rows[i], tot);
			live++;
		}
	if (!live)
		printf("<no still running tasks>\n");
	printf("\nTerminated tasks:\n");
	for (i = 0; i < nr; i++)
		if (rows[i].thread->exited)
			summary__print_task(sc, &rows[i], tot);
	if (live == nr)
		printf("<no terminated tasks>\n");
	free(rows);
	return 0;
}

int timehist__summary(struct sched_cmd *sc)
{
	u64 span = sc->hist_end - sc->hist_start;
	struct summary_totals tot = { 0 };
	int ncpus = sc->nr_cpus_online;

	printf("\n%s summary\n", sc->state ? "Wait-time" : "Runtime");
	printf("%*s  parent   sched-in  ", sc->comm_width, "comm");
	if (sc->state)
		printf("   run-time      sleep      iowait     preempt       delay\n");
	else
		printf("   run-time    min-run     avg-run     max-run  stddev  migrations\n");
	printf("%*s            (count)  ", sc->comm_width, "");
	printf("     (msec)     (msec)      (msec)      (msec)       %s\n",
	       sc->state ? "(msec)" : "%");
	printf("%.117s\n", sched__dashes);
	if (summary__print_tasks(sc, &sc->session->machine, &tot))
		return -ENOMEM;
	/* Idle times are not known when switches were left out. */
	if (sc->skipped)
		return 0;
	printf("\nIdle stats:\n");
	if (sc->th.nr_cpus > ncpus)
		ncpus = sc->th.nr_cpus;
	for (int i = 0; i < ncpus; i++) {
		struct sched_task *idle = sched_timehist__idle_seen(&sc->th, i);

		if (!sample_filter__match_cpu(&sc->filter, i))
			continue;
		if (!idle && i >= sc->nr_cpus_online)
			continue;
		if (idle && idle->runs.n) {
			tot.switches += idle->runs.n;
			printf("    CPU %2d idle for ", i);
			sched__print_msec(idle->total_run, 6);
			printf(" msec  (%6.2f%%)\n", 100.0 * idle->total_run / span);
		} else {
			printf("    CPU %2d idle entire time window\n", i);
		}
	}
	printf("\n    Total number of unique tasks: %llu\n"
	       "Total number of context switches: %llu\n",
	       (unsigned long long)tot.tasks, (unsigned long long)tot.switches);
	printf("           Total run time (msec): ");
	sched__print_msec(tot.run, 2);
	printf("\n    Total scheduling time (msec): ");
	sched__print_msec(span, 2);
	printf(" (x %d)\n", sc->max_cpu);
	return 0;
}
