/*
 * What asked for a dump: see dump-request.h.
 */
#include <stdio.h>
#include "dump-request.h"

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
