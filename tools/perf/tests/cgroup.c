/* perf record -G: which events follow which cgroup, from the command line. */
#include <string.h>
#include "tests.h"
#include "perf.h"
#include "util/cgroup.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/record-opts.h"

/*
 * Parses a record command line (its words after "record", NULL-ended) and
 * gives in @got one letter per event: '-' for none, else 'a', 'b', ... for
 * each distinct cgroup in order of appearance.  Returns the exit status
 * the parse gave, 0 if it went through.
 */
static int cgroups_of(const char **words, char *got, size_t size)
{
	struct record_opts opts = RECORD_OPTS_INIT;
	struct evlist *evlist = evlist__new();
	struct cgroup *seen[8] = { NULL };
	struct evsel *evsel;
	const char *argv[16] = { "record" };
	int argc = 1, status = 0, n = 0;
	size_t len = 0;

	while (*words && argc < 15)
		argv[argc++] = *words++;
	if (record_opts__parse(&opts, evlist, argc, argv, &status) < 0)
		goto out;
	evlist__for_each_entry(evlist, evsel) {
		int i = 0;

		while (i < n && seen[i] != evsel->cgrp)
			i++;
		if (evsel->cgrp && i == n && n < 8)
			seen[n++] = evsel->cgrp;
		if (len + 1 < size)
			got[len++] = evsel->cgrp ? 'a' + i : '-';
	}
out:
	got[len] = '\0';
	evlist__delete(evlist);
	return status;
}

#define CGROUPS(want_status, want, ...) do {					\
	const char *w[] = { __VA_ARGS__, NULL };					\
	int st = cgroups_of(w, got, sizeof(got));				\
										\
	TEST_ASSERT_EQUAL("exit status of -G " #__VA_ARGS__, st, want_status);	\
	TEST_ASSERT_VAL("the events' cgroups of " #__VA_ARGS__, !strcmp(got, want)); \
} while (0)

static int test__record_cgroups(void)
{
	char mnt[4096], got[16];

	/* "/" is the hierarchy's root, which every mount has and anyone may open. */
	if (cgroup__mount(mnt, sizeof(mnt)))
		return test__skip("no cgroup hierarchy is mounted");
	/* One name per event in order; an empty one is no cgroup. */
	CGROUPS(0, "a-", "-a", "-e", "cpu-clock", "-e", "task-clock", "-G", "/,", "true");
	CGROUPS(0, "-a", "-a", "-e", "cpu-clock", "-e", "task-clock", "-G", ",/", "true");
	/* The same name twice is one cgroup opened once. */
	CGROUPS(0, "aa", "-a", "-e", "cpu-clock", "-e", "task-clock", "-G", "/,/", "true");
	/* A first -G of one name covers the events before it, not those after. */
	CGROUPS(0, "aa-", "-a", "-e", "cpu-clock", "-e", "task-clock", "-G", "/",
		"-e", "cpu-clock", "true");
	/* The n-th name of the command line goes to the n-th event. */
	CGROUPS(0, "a-a", "-a", "-e", "cpu-clock", "-G", "/", "-e", "task-clock",
		"-e", "cpu-clock", "-G", ",/", "true");
	/* A -G before the events covers them all; the default one if none. */
	CGROUPS(0, "aa", "-a", "-G", "/", "-e", "cpu-clock", "-e", "task-clock", "true");
	CGROUPS(0, "a", "-a", "-G", "/", "true");
	/* Refused as the distro refuses them: usage errors. */
	CGROUPS(129, "", "-e", "cpu-clock", "-G", "/", "true");
	CGROUPS(129, "", "-C", "0", "-e", "cpu-clock", "-G", "/", "true");
	/*
	 * -p beats -a, and a cgroup has no task to follow: the distro fails
	 * there without a word (exit 255), we say so as for a missing -a.
	 */
	CGROUPS(129, "", "-a", "-p", "1", "-e", "cpu-clock", "-G", "/");
	CGROUPS(129, "", "-a", "-e", "cpu-clock", "-G", "/,/", "true");
	CGROUPS(129, "", "-a", "-e", "cpu-clock", "-G", "/", "-G", "/", "true");
	CGROUPS(129, "", "-a", "-e", "cpu-clock", "-G", "no-such-cgroup-here", "true");
	CGROUPS(129, "", "-a", "-G", "/", "-G", "/", "true");
	return TEST_OK;
}
DEFINE_SUITE(record_cgroups,
	     "perf record -G: the n-th cgroup to the n-th event, one for all, refusals");
