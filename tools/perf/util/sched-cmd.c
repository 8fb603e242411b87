/* perf sched's shared pieces: the tracepoint fields, task names, times, -p/-t. */
#include <stdio.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "sched-cmd.h"
#include "evlist.h"
#include "evsel.h"
#include "machine.h"

u64 sched_tp__num(struct evsel *e, struct perf_sample *sample, const char *name)
{
	struct tep_format_field *f = e->tp_format ? tep_find_field(e->tp_format, name) : NULL;
	unsigned long long v = 0;

	if (!f || f->offset + f->size > (int)sample->raw_size)
		return 0;
	tep_read_number_field(f, sample->raw_data, &v);
	return v;
}

enum sched_tp sched_tp__of(struct sched_cmd *sc, struct evsel *e)
{
	const char *name = evsel__name(e);

	if (!evsel__is_tracepoint(e) || strncmp(name, "sched:", 6))
		return SCHED_TP_OTHER;
	name += 6;
	if (!strcmp(name, "sched_switch"))
		return SCHED_TP_SWITCH;
	if ((!strcmp(name, "sched_wakeup") && !sc->ignore_wakeup) ||
	    !strcmp(name, "sched_waking") || !strcmp(name, "sched_wakeup_new"))
		return SCHED_TP_WAKEUP;
	if (!strcmp(name, "sched_migrate_task"))
		return SCHED_TP_MIGRATE;
	if (!strcmp(name, "sched_stat_runtime"))
		return SCHED_TP_RUNTIME;
	return SCHED_TP_OTHER;
}

struct evsel *sched__find_tp(struct evlist *evlist, const char *name)
{
	struct evsel *e;

	evlist__for_each_entry(evlist, e)
		if (evsel__is_tracepoint(e) && !strcmp(evsel__name(e), name))
			return e;
	return NULL;
}

/* "comm[tid]", "comm[tid/pid]" for a thread, or the comm alone for pid 0. */
const char *sched__task_name(struct sched_cmd *sc, struct thread *t)
{
	const char *comm;
	int n;

	if (!t) {
		comm = "<idle>";
		n = snprintf(sc->comm, sizeof(sc->comm), "%s", comm);
		goto out;
	}
	comm = thread__comm(t);
	if (t->pid == 0)
		n = snprintf(sc->comm, sizeof(sc->comm), "%s", comm);
	else if (t->tid != t->pid)
		n = snprintf(sc->comm, sizeof(sc->comm), "%s[%d/%d]", comm, t->tid, t->pid);
	else
		n = snprintf(sc->comm, sizeof(sc->comm), "%s[%d]", comm, t->tid);
out:
	if (n > (int)sizeof(sc->comm) - 1)
		n = sizeof(sc->comm) - 1;
	if (n > sc->comm_width)
		sc->comm_width = n;
	return sc->comm;
}

void sched__print_msec(u64 ns, int width)
{
	printf("%*llu.%03llu ", width, (unsigned long long)(ns / 1000000),
	       (unsigned long long)(ns % 1000000 / 1000));
}

void sched__print_timestamp(u64 t, int cpu)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%llu.%06llu", (unsigned long long)(t / 1000000000),
		 (unsigned long long)(t % 1000000000 / 1000));
	printf("%15s [%04d] ", buf, cpu);
}

/* Enough for the widest rule any of the tables draws. */
const char sched__dashes[] =
	"-----------------------------------------------------------------------------------"
	"-----------------------------------------------------------------------------------";

bool sched__filtered(struct sched_cmd *sc, struct thread *t)
{
	struct sample_filter *f = &sc->filter;
	int pid = t ? t->pid : 0, tid = t ? t->tid : 0;
	bool ok = true;

	if (f->nr_pids) {
		ok = false;
		for (int i = 0; i < f->nr_pids; i++)
			ok |= f->pids[i] == pid;
	}
	if (ok && f->nr_tids) {
		ok = false;
		for (int i = 0; i < f->nr_tids; i++)
			ok |= f->tids[i] == tid;
	}
	return !ok;
}

void sched__format_time(char *buf, size_t len, u64 t)
{
	snprintf(buf, len, "%llu.%06llu", (unsigned long long)(t / 1000000000),
		 (unsigned long long)(t % 1000000000 / 1000));
}

bool sched__has_traces(struct evlist *evlist)
{
	struct evsel *e;

	evlist__for_each_entry(evlist, e)
		if (e->attr.sample_type & PERF_SAMPLE_RAW)
			return true;
	return false;
}
