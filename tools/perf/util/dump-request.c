/*
 * What asked for a dump: see dump-request.h.
 */
#include <stdio.h>
#include <string.h>
#include "clockid.h"
#include "debug.h"
#include "dump-request.h"
#include "event.h"
#include "evlist.h"
#include "evsel.h"
#include "flight-recorder.h"

static const char *const kind_names[DUMP_REQUEST__MAX] = {
	[DUMP_REQUEST_NONE] = "unknown",
	[DUMP_REQUEST_SIGNAL] = "signal SIGUSR2",
	[DUMP_REQUEST_CONTROL] = "control snapshot",
	[DUMP_REQUEST_SIZE] = "size threshold",
	[DUMP_REQUEST_TIME] = "time threshold",
	[DUMP_REQUEST_EXIT] = "exit",
	[DUMP_REQUEST_TRIGGER] = "trigger",
};

char *dump_request__format(const struct dump_request *r, char *buf, size_t size)
{
	const char *name = r->kind < DUMP_REQUEST__MAX ? kind_names[r->kind] : "unknown";
	int n;

	switch (r->kind) {
	case DUMP_REQUEST_SIZE:
		n = snprintf(buf, size, "%s %llu bytes", name, (unsigned long long)r->threshold);
		break;
	case DUMP_REQUEST_TIME:
		n = snprintf(buf, size, "%s %llu s", name, (unsigned long long)r->threshold);
		break;
	case DUMP_REQUEST_TRIGGER:
		if (!r->event[0]) {
			n = snprintf(buf, size, "%s (its sample was lost)", name);
			break;
		}
		/* The time as perf script prints it, so the trigger's sample is found by it. */
		n = snprintf(buf, size, "%s %s at %llu.%06llu on CPU %u by %s %d/%d", name,
			     r->event, (unsigned long long)(r->time / 1000000000ULL),
			     (unsigned long long)(r->time % 1000000000ULL / 1000), r->cpu,
			     r->comm[0] ? r->comm : "?", (int)r->pid, (int)r->tid);
		break;
	default:
		n = snprintf(buf, size, "%s", name);
		break;
	}
	if (r->joined && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - n, ", and %u more request%s in its window", r->joined,
			 r->joined > 1 ? "s" : "");
	return buf;
}

/* /proc's name of a task, for a trigger the process table cannot name. */
static void dump_request__proc_comm(u32 tid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%u/comm", tid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

void dump_request__describe(struct dump_request *r, struct evlist *triggers,
			    const union perf_event *event, const struct flight_recorder *fr)
{
	struct evsel *evsel = evlist__event2evsel(triggers, event);
	struct perf_sample sample;

	if (!evsel || evsel__parse_sample(&evsel->attr, event, &sample))
		return;
	snprintf(r->event, sizeof(r->event), "%s", evsel__name(evsel));
	r->time = sample.time;
	r->cpu = sample.cpu;
	r->pid = sample.pid;
	r->tid = sample.tid;
	if (!fr || !flight_recorder__comm(fr, sample.tid, sample.time, r->comm, sizeof(r->comm)))
		dump_request__proc_comm(sample.tid, r->comm, sizeof(r->comm));
}

/* "; 2026-12-03 13:22:35.516672..2026-12-03 13:22:36.000001": the span as times of day. */
static void dump_request__format_tod(const struct clock_ref *tod, u64 first, u64 last,
				     char *buf, size_t size)
{
	char a[48], b[48];

	clock_ref__format_tod(clock_ref__tod_ns(tod, first), a, sizeof(a));
	clock_ref__format_tod(clock_ref__tod_ns(tod, last), b, sizeof(b));
	snprintf(buf, size, "; %s..%s", a, b);
}

void dump_request__print_served(FILE *f, const struct dump_request *r, const char *name,
				const struct flight_recorder_dump *d, u64 samples,
				const struct clock_ref *tod)
{
	char why[256], wall[128] = "";

	dump_request__format(r, why, sizeof(why));
	if (!d) {
		fprintf(f, "[ perf record: Dump %s ]\n", name);
		pr_debug("%s was asked for by %s\n", name, why);
		return;
	}
	if (!samples || d->first > d->last) {
		fprintf(f, "[ perf record: Dump %s (%s): 0 samples, %llu tasks, %llu lost ]\n",
			name, why, (unsigned long long)d->tasks, (unsigned long long)d->lost);
		return;
	}
	if (tod)
		dump_request__format_tod(tod, d->first, d->last, wall, sizeof(wall));
	fprintf(f, "[ perf record: Dump %s (%s): %llu samples, %llu.%06llu..%llu.%06llu "
		"(%.3f s%s), %llu tasks, %llu lost ]\n", name, why, (unsigned long long)samples,
		(unsigned long long)(d->first / 1000000000ULL),
		(unsigned long long)(d->first % 1000000000ULL / 1000),
		(unsigned long long)(d->last / 1000000000ULL),
		(unsigned long long)(d->last % 1000000000ULL / 1000),
		(d->last - d->first) / 1e9, wall, (unsigned long long)d->tasks,
		(unsigned long long)d->lost);
}

bool dump_request__warn_delay(FILE *f, const char *name, u64 delay_ms, u64 held_ns)
{
	if (!held_ns || held_ns >= delay_ms * 1000000ULL)
		return false;
	fprintf(f, "Warning:\n--switch-output-delay=%llums is longer than the overwrite "
		"buffers hold at this event rate: %s held the last %.3f ms only, so what came "
		"before its request was overwritten. Give bigger buffers (-m) or a shorter "
		"--switch-output-delay.\n", (unsigned long long)delay_ms, name, held_ns / 1e6);
	return true;
}
