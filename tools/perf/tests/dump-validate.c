/*
 * `perf test -w validate FILE [FIRST LAST]`: the strict record validator
 * the flight-recorder tests run on every dump.  Every record must be whole
 * (the reader checks each size against the data section and each sample's
 * fields against its size, and calls anything else corrupt), every sample
 * must name a known event, and with FIRST and LAST (the dump line's
 * seconds.microseconds) every sample's time must lie inside that range.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/session.h"

struct validate {
	struct perf_tool tool;
	u64 first, last;	/* ns; last is the end of its microsecond */
	bool ranged;
	u64 samples, outside;
};

static int validate__sample(struct perf_tool *tool, union perf_event *event,
			    struct perf_sample *sample, struct evsel *evsel, struct machine *machine)
{
	struct validate *v = (struct validate *)tool;

	v->samples++;
	if (v->ranged && (sample->time < v->first || sample->time > v->last)) {
		if (!v->outside++)
			fprintf(stderr, "sample at %llu.%09llu outside the dump's range\n",
				(unsigned long long)(sample->time / 1000000000ULL),
				(unsigned long long)(sample->time % 1000000000ULL));
	}
	return 0;
}

/* "123.456789" -> ns */
static u64 validate__secs(const char *s)
{
	unsigned long long sec = 0, us = 0;

	sscanf(s, "%llu.%6llu", &sec, &us);
	return sec * 1000000000ULL + us * 1000ULL;
}

int test__validate_dump(int argc, const char **argv)
{
	struct validate v = { .tool = { .sample = validate__sample } };
	struct perf_session *s;
	char msg[256] = "";
	int err;

	if (argc < 2) {
		fprintf(stderr, "usage: perf test -w validate FILE [FIRST LAST]\n");
		return 129;
	}
	if (argc >= 4) {
		v.ranged = true;
		v.first = validate__secs(argv[2]);
		v.last = validate__secs(argv[3]) + 999;
	}
	s = perf_session__open(argv[1], &err, msg, sizeof(msg));
	if (!s) {
		fprintf(stderr, "%s: %s\n", argv[1], msg[0] ? msg : strerror(-err));
		return 1;
	}
	err = perf_session__process_events(s, &v.tool);
	if (err)
		fprintf(stderr, "%s: %s\n", argv[1], s->errmsg[0] ? s->errmsg : strerror(-err));
	else if (s->truncated)
		fprintf(stderr, "%s: truncated\n", argv[1]), err = -EIO;
	else if (s->nr_unknown_id)
		fprintf(stderr, "%s: %llu samples of no known event\n", argv[1],
			(unsigned long long)s->nr_unknown_id), err = -EIO;
	else if (v.outside)
		fprintf(stderr, "%s: %llu of %llu samples outside the dump's range\n", argv[1],
			(unsigned long long)v.outside, (unsigned long long)v.samples), err = -ERANGE;
	else
		printf("%s: %llu records, %llu samples, all whole\n", argv[1],
		       (unsigned long long)s->nr_events, (unsigned long long)v.samples);
	perf_session__delete(s);
	return err ? 1 : 0;
}
