/*
 * perf daemon's sessions that follow a process or a cgroup
 * (util/daemon-target): the names it takes, the run lines it refuses, the
 * processes it finds by their comm and the -p list their recorder gets.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "tests.h"
#include "util/daemon-target.h"

/* Run lines a followed session refuses, and the option each is refused for. */
static const struct {
	const char *run, *option;
} conflicts[] = {
	{ "-e cycles -p 12", "-p" },
	{ "-p12", "-p" },
	{ "-qa", "-a" },			/* in a cluster */
	{ "--tid=3", "--tid" },
	{ "--cgroup x", "--cgroup" },
	{ "-e cycles -G x", "-G" },
	{ "-e cycles -- sleep 1", "--" },	/* a workload */
};

static int test__daemon_target_config(void)
{
	char buf[32];

	TEST_ASSERT_VAL("a comm", !daemon_target__bad_name(TARGET_PROCESS, "nginx"));
	TEST_ASSERT_VAL("15 characters", !daemon_target__bad_name(TARGET_PROCESS, "abcdefghijklmno"));
	TEST_ASSERT_VAL("16 characters", daemon_target__bad_name(TARGET_PROCESS, "abcdefghijklmnop"));
	TEST_ASSERT_VAL("a path is no comm", daemon_target__bad_name(TARGET_PROCESS, "/usr/bin/x"));
	TEST_ASSERT_VAL("empty", daemon_target__bad_name(TARGET_PROCESS, ""));
	TEST_ASSERT_VAL("a cgroup", !daemon_target__bad_name(TARGET_CGROUP, "system.slice/a.service"));
	TEST_ASSERT_VAL("up", daemon_target__bad_name(TARGET_CGROUP, "a/../../etc"));
	TEST_ASSERT_VAL("blank", daemon_target__bad_name(TARGET_CGROUP, "a b"));

	TEST_ASSERT_VAL("nothing", !daemon_target__conflict("-m 1M -e cpu-clock --overwrite", buf,
							     sizeof(buf)));
	for (size_t i = 0; i < ARRAY_SIZE(conflicts); i++)
		TEST_ASSERT_VAL(conflicts[i].run,
				daemon_target__conflict(conflicts[i].run, buf, sizeof(buf)) &&
				!strcmp(buf, conflicts[i].option));
	/* Letters in a value are not options: -e's event, -o's file, a cluster's -ofile. */
	TEST_ASSERT_VAL("values", !daemon_target__conflict("-e task-clock -o a.data -oall.data "
							   "--switch-output=1s", buf, sizeof(buf)));
	TEST_ASSERT_VAL("--pidfile is not --pid", !daemon_target__conflict("--pidfile", buf,
									   sizeof(buf)));

	/* /proc/PID/stat lines: a zombie has exited; one with PF_EXITING is on its way out. */
	TEST_ASSERT_VAL("running", !daemon_target__stat_exited("7 (svc) S 1 7 7 0 -1 4194560 9", true));
	TEST_ASSERT_VAL("a zombie", daemon_target__stat_exited("7 (svc) Z 1 7 7 0 -1 4227332 9", false));
	TEST_ASSERT_VAL("dead", daemon_target__stat_exited("7 (svc) X 1 7 7 0 -1 4227332 9", false));
	TEST_ASSERT_VAL("exiting, asked", daemon_target__stat_exited("7 (svc) R 1 7 7 0 -1 4194564 9",
								    true));
	TEST_ASSERT_VAL("exiting, not asked",
			!daemon_target__stat_exited("7 (svc) R 1 7 7 0 -1 4194564 9", false));
	TEST_ASSERT_VAL("a comm with ') Z'",
			!daemon_target__stat_exited("7 (a) Z (b) S 1 7 7 0 -1 4194560 9", true));
	TEST_ASSERT_VAL("cut short", !daemon_target__stat_exited("7 (svc) R 1 7", true));
	TEST_ASSERT_VAL("a zombie, cut short", daemon_target__stat_exited("7 (svc) Z 1 7", true));
	return TEST_OK;
}
DEFINE_SUITE(daemon_target_config, "perf daemon: process and cgroup names, the run lines they refuse");

/* A child named @comm that waits to be killed. */
static pid_t spawn_named(const char *comm)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_NAME, comm);
		for (;;)
			pause();
	}
	return pid;
}

/* Kills and reaps child *@pid, if there is one. */
static void reap(pid_t *pid)
{
	if (*pid <= 0)
		return;
	kill(*pid, SIGKILL);
	waitpid(*pid, NULL, 0);
	*pid = -1;
}

/* Whether the comma list @list holds @pid. */
static bool list_has(const char *list, pid_t pid)
{
	char word[16];
	size_t len = snprintf(word, sizeof(word), "%d", pid);

	for (const char *p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] ? 1 : 0))
		if (strcspn(p, ",") == len && !strncmp(p, word, len))
			return true;
	return false;
}

static int test__daemon_target_process(void)
{
	char comm[16], *args;
	struct daemon_target *t;
	pid_t a, b;
	int ret = TEST_FAIL;

	snprintf(comm, sizeof(comm), "ptgt-%d", getpid());
	t = daemon_target__new(TARGET_PROCESS, comm, 1);
	TEST_ASSERT_VAL("new", t);
	TEST_ASSERT_VAL("not there yet", !daemon_target__look(t) && !t->pids);
	a = spawn_named(comm);
	b = spawn_named(comm);
	if (a < 0 || b < 0)
		goto out;
	/* prctl runs in the children: look until both have their name. */
	for (int i = 0; i < 5000 && !(t->pids && strchr(t->pids, ',')); i++) {
		daemon_target__look(t);
		usleep(1000);
	}
	if (!t->present || !list_has(t->pids, a) || !list_has(t->pids, b)) {
		fprintf(stderr, "FAILED: found '%s', not pids %d and %d\n", t->pids, a, b);
		goto out;
	}
	args = daemon_target__args(t);
	if (!args || strncmp(args, "-p ", 3) || strcmp(args + 3, t->pids)) {
		fprintf(stderr, "FAILED: the recorder would get '%s'\n", args);
		free(args);
		goto out;
	}
	free(args);
	if (daemon_target__gone(t)) {
		fprintf(stderr, "FAILED: gone while both run\n");
		goto out;
	}
	reap(&a);
	if (daemon_target__gone(t)) {
		fprintf(stderr, "FAILED: gone while one of the two runs\n");
		goto out;
	}
	reap(&b);
	if (!daemon_target__gone(t) || daemon_target__look(t)) {
		fprintf(stderr, "FAILED: still there when both have exited\n");
		goto out;
	}
	ret = TEST_OK;
out:
	reap(&a);
	reap(&b);
	TEST_ASSERT_VAL("checks counted", t->checks >= 2);
	daemon_target__delete(t);
	return ret;
}
DEFINE_SUITE(daemon_target_process, "perf daemon: the processes of a name found in /proc, and gone");
