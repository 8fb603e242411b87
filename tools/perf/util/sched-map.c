/* perf sched map: a column per CPU of the task running there. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "sched-map.h"
#include "cpumap.h"
#include "debug.h"
#include "hash.h"
#include "machine.h"

struct sched_map_task *sched_map__task(struct sched_map *ms, int tid)
{
	u64 h = u64__hash((u64)tid);
	struct sched_map_task *t = hashtab__find(&ms->tasks, &tid, h);
	struct sched_map_task n = { .tid = tid };

	return t ? t : hashtab__add(&ms->tasks, &n, h);
}

/* Names @t on its first switch in: ". " for the idle task, else A0, B0, ... Z0, A1 ... */
static void sched_map__name(struct sched_map *ms, struct sched_map_task *t, const char *comm)
{
	if (!strcmp(comm, "swapper")) {
		memcpy(t->shortname, ". ", 3);
		return;
	}
	t->shortname[0] = ms->next[0];
	t->shortname[1] = ms->next[1];
	t->shortname[2] = '\0';
	if (ms->next[0] < 'Z') {
		ms->next[0]++;
	} else {
		ms->next[0] = 'A';
		ms->next[1] = ms->next[1] < '9' ? ms->next[1] + 1 : '0';
	}
}

/* Each CPU's column: '*' marks the CPU that switched, then who runs there. */
static void sched_map__print_columns(struct sched_map *ms, int this_cpu, int nr)
{
	for (int i = 0; i < nr; i++) {
		int cpu = ms->sc->compact ? ms->comp[i] : i;
		struct sched_map_task *t;

		if (ms->cpus && cpu_map__idx(ms->cpus, cpu) < 0)
			continue;
		putchar(cpu == this_cpu ? '*' : ' ');
		t = ms->curr[cpu] != -1 ? sched_map__task(ms, ms->curr[cpu]) : NULL;
		if (t)
			printf("%2s ", t->shortname);
		else
			printf("   ");
	}
}

int sched_map__switch(struct sched_map *ms, struct evsel *e, struct perf_sample *sample,
		       struct machine *m)
{
	int cpu = sample->cpu, next = (int)sched_tp__num(e, sample, "next_pid"), nr = ms->nr_cpus;
	struct thread *in = machine__findnew_thread(m, -1, next);
	bool named = false, new_cpu = false;
	struct sched_map_task *t;
	char ts[64];

	if (cpu < 0 || cpu >= SCHED_MAP_MAX_CPUS || !in || !(t = sched_map__task(ms, next)))
		return cpu < 0 || cpu >= SCHED_MAP_MAX_CPUS ? -EINVAL : -ENOMEM;
	if (ms->sc->compact) {
		int i;

		for (i = 0; i < ms->nr_comp && ms->comp[i] != cpu; i++)
			;
		if (i == ms->nr_comp) {
			ms->comp[ms->nr_comp++] = cpu;
			new_cpu = true;
		}
		nr = ms->nr_comp;
	} else if (cpu > ms->nr_cpus) {
		/* As the distro counts: the highest CPU seen, not one more. */
		ms->nr_cpus = nr = cpu;
	}
	ms->curr[cpu] = next;
	if (!t->shortname[0]) {
		sched_map__name(ms, t, thread__comm(in));
		named = true;
	}
	printf("  ");
	sched_map__print_columns(ms, cpu, nr);
	if (!ms->cpus || cpu_map__idx(ms->cpus, cpu) >= 0) {
		t = sched_map__task(ms, next);
		sched__format_time(ts, sizeof(ts), sample->time);
		printf("  %12s secs ", ts);
		if (named || t->comm_changed || (verbose > 0 && next)) {
			printf("%s => %s:%d", t->shortname, thread__comm(in), next);
			t->comm_changed = false;
		}
		if (ms->sc->compact && new_cpu)
			printf(" (CPU %d)", cpu);
	}
	printf("\n");
	return 0;
}
