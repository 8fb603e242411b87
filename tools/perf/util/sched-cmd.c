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
	struct tep_format_field *f = evsel__tp_field(e, name);
	unsigned long long v = 0;

	if (!f || f->offset + f->size > (int)sample->raw_size)
		return 0;
	tep_read_number_field(f, sample->raw_data, &v);
	return v;
}

static enum sched_tp sched_tp__kind(struct sched_cmd *sc, struct evsel *e)
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

/* An event's kind, from the names once per event (ignore_wakeup is set before the first sample). */
enum sched_tp sched_tp__of(struct sched_cmd *sc, struct evsel *e)
{
	unsigned int i;

	for (i = 0; i < sc->nr_kinds; i++)
		if (sc->kinds[i].evsel == e)
			return sc->kinds[i].kind;
	if (i == ARRAY_SIZE(sc->kinds))
		return sched_tp__kind(sc, e);
	sc->kinds[i].evsel = e;
	sc->kinds[i].kind = sched_tp__kind(sc, e);
	sc->nr_kinds++;
	return sc->kinds[i].kind;
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

/*
 * The two numbers of every timehist line are formatted by hand: printf's
 * parsing of its format was half of a timehist run (0.11 of 0.22 s on a
 * file of 640,000 sched events), and these are only digits and blanks.
 */

/* The digits of @v, at least @min of them (zeros in front), ending before @end. */
static char *sched__digits(char *end, unsigned long long v, int min)
{
	char *p = end;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v || end - p < min);
	return p;
}

static void sched__blanks(long n)
{
	while (n-- > 0)
		putchar_unlocked(' ');
}

/* As printf("%*llu.%03llu ", width, ms, us) would. */
void sched__print_msec(u64 ns, int width)
{
	char buf[40], *tail = buf + sizeof(buf) - 5, *p;
	unsigned int us = ns % 1000000 / 1000;

	p = sched__digits(tail, ns / 1000000, 1);
	tail[0] = '.';
	sched__digits(tail + 4, us, 3);
	tail[4] = ' ';
	sched__blanks(width - (tail - p));
	fwrite_unlocked(p, 1, (size_t)(buf + sizeof(buf) - p), stdout);
}

/* As printf("%15s [%04d] ") of "sec.usec" would. */
void sched__print_timestamp(u64 t, int cpu)
{
	char buf[48], *end = buf + sizeof(buf), *p;

	if (cpu < 0 || cpu > 9999) {
		snprintf(buf, sizeof(buf), "%llu.%06llu", (unsigned long long)(t / 1000000000),
			 (unsigned long long)(t % 1000000000 / 1000));
		printf("%15s [%04d] ", buf, cpu);
		return;
	}
	memcpy(end - 8, " [", 2);
	sched__digits(end - 2, (unsigned int)cpu, 4);
	memcpy(end - 2, "] ", 2);
	p = sched__digits(end - 8, t % 1000000000 / 1000, 6);
	*--p = '.';
	p = sched__digits(p, t / 1000000000, 1);
	sched__blanks(15 - (end - 8 - p));
	fwrite_unlocked(p, 1, (size_t)(end - p), stdout);
}

/* " %-*s ": @s left-aligned in @width columns, a blank each side. */
void sched__print_left(const char *s, int width)
{
	size_t len = strlen(s);

	putchar_unlocked(' ');
	fwrite_unlocked(s, 1, len, stdout);
	sched__blanks(width - (long)len);
	putchar_unlocked(' ');
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
