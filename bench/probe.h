/*
 * What the kernel probes of bench/ (set-output-probe.c, twin-toggle-probe.c)
 * share: each is one program built on its own by its script.
 */
#ifndef BENCH_PROBE_H
#define BENCH_PROBE_H

#include <stdio.h>
#include <time.h>

static inline unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* The id of tracepoint @name ("sys/event") in tracefs, -1 if it has none. */
static inline int tp_id(const char *name)
{
	char path[256];
	FILE *f;
	int id = -1;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/id", name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &id) != 1)
		id = -1;
	fclose(f);
	return id;
}

#endif
