/*
 * perf daemon's disk budget (util/daemon-budget): which dumps go, in what
 * order, and what is never touched.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "tests.h"
#include "util/daemon-budget.h"
#include "util/daemon-config.h"
#include "util/daemon-session.h"
#include "util/debug.h"

static int deletions;

static void count_log(const char *fmt, ...)
{
	if (!strncmp(fmt, "deleted ", 8))
		deletions++;
}

/* @dir/@name of @size bytes, its mtime @age seconds in the past. */
static int make_dump(const char *dir, const char *name, size_t size, int age)
{
	struct timespec times[2] = { { .tv_nsec = UTIME_OMIT } };
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	clock_gettime(CLOCK_REALTIME, &times[1]);
	times[1].tv_sec -= age;
	if (ftruncate(fd, size) < 0 || futimens(fd, times) < 0) {
		close(fd);
		return -1;
	}
	return close(fd);
}

static bool exists(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static int test__daemon_budget(void)
{
	char base[] = "/tmp/perf-test-daemon-budget-XXXXXX", cmd[PATH_MAX + 16];
	struct daemon_budget b = { .max = 3000 };
	struct daemon_session *x, *y;
	struct list_head sessions = LIST_HEAD_INIT(sessions);
	int files, ret = TEST_FAIL;
	u64 bytes, max;

	TEST_ASSERT_VAL("sizes", !daemon_budget__parse("12K", &max) && max == 12288 &&
			!daemon_budget__parse("1G", &max) && max == 1ULL << 30 &&
			!daemon_budget__parse("4096", &max) && max == 4096);
	TEST_ASSERT_VAL("not sizes", daemon_budget__parse("0", &max) &&
			daemon_budget__parse("lots", &max) && daemon_budget__parse("-1K", &max) &&
			daemon_budget__parse(NULL, &max));
	if (!mkdtemp(base))
		return TEST_FAIL;
	x = daemon_session__new(base, "x", "-a");
	if (x)
		list_add_tail(&x->node, &sessions);
	y = daemon_session__new(base, "y", "-a");
	if (y)
		list_add_tail(&y->node, &sessions);
	if (!x || !y || mkdir(x->dir, 0755) || mkdir(y->dir, 0755))
		goto out;
	/* x: three dumps, the oldest of all; y: two; and files that are not dumps. */
	if (make_dump(x->dir, "perf.data.2026010100000001", 1000, 50) ||
	    make_dump(x->dir, "perf.data.2026010100000002", 1000, 40) ||
	    make_dump(x->dir, "perf.data.2026010100000003", 1000, 10) ||
	    make_dump(y->dir, "perf.data.2026010100000001", 1000, 45) ||
	    make_dump(y->dir, "perf.data.2026010100000002", 1000, 20) ||
	    make_dump(x->dir, "perf.data", 5000, 60) ||
	    make_dump(y->dir, "perf.data.old", 5000, 60) ||
	    make_dump(y->dir, "output", 5000, 60))
		goto out;
	daemon_budget__usage(&sessions, &bytes, &files);
	TEST_ASSERT_VAL("usage", bytes == 5000 && files == 5);
	/* 5000 bytes in 3000: the two oldest go, x's first, then y's. */
	TEST_ASSERT_VAL("deleted", daemon_budget__enforce(&b, &sessions, count_log) == 2);
	TEST_ASSERT_VAL("logged", deletions == 2);
	TEST_ASSERT_VAL("oldest gone", !exists(x->dir, "perf.data.2026010100000001") &&
			!exists(y->dir, "perf.data.2026010100000001"));
	TEST_ASSERT_VAL("newer kept", exists(x->dir, "perf.data.2026010100000002") &&
			exists(x->dir, "perf.data.2026010100000003") &&
			exists(y->dir, "perf.data.2026010100000002"));
	TEST_ASSERT_VAL("not dumps kept", exists(x->dir, "perf.data") &&
			exists(y->dir, "perf.data.old") && exists(y->dir, "output"));
	/* Within it now: nothing more goes. */
	TEST_ASSERT_VAL("within", daemon_budget__enforce(&b, &sessions, count_log) == 0);
	/* Below what the newest of each take: all but those two go, and they stay. */
	b.max = 1000;
	TEST_ASSERT_VAL("newest kept", daemon_budget__enforce(&b, &sessions, count_log) == 1 &&
			exists(x->dir, "perf.data.2026010100000003") &&
			exists(y->dir, "perf.data.2026010100000002") &&
			!exists(x->dir, "perf.data.2026010100000002"));
	TEST_ASSERT_VAL("said once", b.over_noted);
	ret = TEST_OK;
out:
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	if (system(cmd))
		pr_debug("cannot remove %s\n", base);
	daemon_sessions__delete(&sessions);
	return ret;
}
DEFINE_SUITE(daemon_budget, "perf daemon: daemon.max-size deletes the oldest dumps, keeps each newest");
