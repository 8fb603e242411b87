/*
 * child_process: started, held and released, redirected, failing to exec,
 * killed, and reaped with the status wait(2) gave.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "tests.h"
#include "util/run-command.h"

/* Starts @argv and reaps it: its wait(2) status, or -1. */
static int run(const char **argv)
{
	struct child_process cp = CHILD_PROCESS_INIT;

	cp.argv = argv;
	if (child_process__start(&cp) || child_process__wait(&cp, true) != 1)
		return -1;
	return cp.status;
}

static bool file_is(const char *path, const char *text)
{
	char buf[256] = "";
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (strcmp(buf, text))
		fprintf(stderr, "%s holds \"%s\"\n", path, buf);
	return !strcmp(buf, text);
}

static int test_exit_codes(void)
{
	const char *t[] = { "true", NULL }, *f[] = { "false", NULL };
	const char *missing[] = { "perf-test-no-such-program", NULL };
	struct child_process cp = CHILD_PROCESS_INIT;
	int status;

	status = run(t);
	TEST_ASSERT_VAL("true exits 0", WIFEXITED(status) && WEXITSTATUS(status) == 0);
	status = run(f);
	TEST_ASSERT_VAL("false exits 1", WIFEXITED(status) && WEXITSTATUS(status) == 1);

	/* The exec's errno comes back; the child is still ours to reap. */
	cp.argv = missing;
	TEST_ASSERT_EQUAL("a missing program", child_process__start(&cp), -ENOENT);
	TEST_ASSERT_EQUAL("its errno is kept", cp.exec_errno, ENOENT);
	TEST_ASSERT_VAL("a child was forked", cp.pid > 0);
	TEST_ASSERT_EQUAL("reaped", child_process__wait(&cp, true), 1);
	TEST_ASSERT_VAL("it exited 127", WIFEXITED(cp.status) && WEXITSTATUS(cp.status) == 127);
	TEST_ASSERT_EQUAL("nothing left", cp.pid, -1);
	TEST_ASSERT_EQUAL("nothing left to wait for", child_process__wait(&cp, true), 0);
	return TEST_OK;
}

/* A child of @argv to run in @dir, @hold'ing it at the exec until released. */
static void child_init(struct child_process *cp, const char **argv, const char *dir, bool hold)
{
	child_process__init(cp);
	cp->argv = argv;
	cp->dir = dir;
	cp->hold = hold;
}

/* Its name is .comm until the exec, which happens only once it is released. */
static int test_hold(const char *dir)
{
	const char *argv[] = { "sh", "-c", "echo ran > ran", NULL };
	struct child_process cp;
	char path[PATH_MAX];

	child_init(&cp, argv, dir, true);
	cp.comm = "rc-held";
	TEST_ASSERT_EQUAL("start held", child_process__start(&cp), 0);
	TEST_ASSERT_VAL("held", child_process__held(&cp));
	usleep(50 * 1000);
	snprintf(path, sizeof(path), "/proc/%d/comm", cp.pid);
	TEST_ASSERT_VAL("named until its exec", file_is(path, "rc-held\n"));
	TEST_ASSERT_EQUAL("still running", child_process__wait(&cp, false), 0);
	snprintf(path, sizeof(path), "%s/ran", dir);
	TEST_ASSERT_VAL("nothing ran yet", access(path, F_OK) < 0);

	TEST_ASSERT_EQUAL("release", child_process__release(&cp), 0);
	TEST_ASSERT_VAL("no longer held", !child_process__held(&cp));
	TEST_ASSERT_EQUAL("reaped", child_process__wait(&cp, true), 1);
	TEST_ASSERT_EQUAL("exit 0", cp.status, 0);
	TEST_ASSERT_VAL("it ran, in .dir", file_is(path, "ran\n"));

	/* A held child that is killed exits without running anything. */
	unlink(path);
	child_init(&cp, argv, dir, true);
	TEST_ASSERT_EQUAL("start held", child_process__start(&cp), 0);
	TEST_ASSERT_EQUAL("kill it", child_process__kill(&cp, SIGTERM), 0);
	TEST_ASSERT_EQUAL("reaped", child_process__wait(&cp, true), 1);
	TEST_ASSERT_VAL("127", WIFEXITED(cp.status) && WEXITSTATUS(cp.status) == 127);
	TEST_ASSERT_VAL("it never ran", access(path, F_OK) < 0);
	return TEST_OK;
}

static int test_redirect(const char *dir)
{
	const char *argv[] = { "sh", "-c", "echo out; echo err >&2; cat", NULL };
	struct child_process cp;
	char path[PATH_MAX];

	/* Relative to .dir; stderr with it, stdin empty. */
	child_init(&cp, argv, dir, false);
	cp.out_path = "output";
	cp.err_to_out = true;
	cp.in_path = "/dev/null";
	TEST_ASSERT_EQUAL("start", child_process__start(&cp), 0);
	TEST_ASSERT_EQUAL("reaped", child_process__wait(&cp, true), 1);
	TEST_ASSERT_EQUAL("exit 0", cp.status, 0);
	snprintf(path, sizeof(path), "%s/output", dir);
	TEST_ASSERT_VAL("stdout and stderr in the file", file_is(path, "out\nerr\n"));

	child_process__init(&cp);
	cp.argv = argv;
	cp.dir = dir;
	cp.out_path = "output";
	cp.out_append = true;
	cp.in_path = "/dev/null";
	cp.err = open("/dev/null", O_WRONLY);
	TEST_ASSERT_VAL("/dev/null", cp.err >= 0);
	TEST_ASSERT_EQUAL("start appending", child_process__start(&cp), 0);
	close(cp.err);
	TEST_ASSERT_EQUAL("reaped", child_process__wait(&cp, true), 1);
	TEST_ASSERT_VAL("appended, stderr elsewhere", file_is(path, "out\nerr\nout\n"));

	/* A redirection that fails is reported as an exec would be. */
	child_process__init(&cp);
	cp.argv = argv;
	cp.out_path = "/nonexistent-dir/output";
	TEST_ASSERT_EQUAL("no such directory", child_process__start(&cp), -ENOENT);
	TEST_ASSERT_EQUAL("reaped", child_process__wait(&cp, true), 1);
	TEST_ASSERT_VAL("127", WIFEXITED(cp.status) && WEXITSTATUS(cp.status) == 127);
	return TEST_OK;
}

/* How many lines of the file @path are @line. */
static int lines_are(const char *path, const char *line)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		n += !strcmp(buf, line);
	}
	fclose(f);
	return n;
}

/*
 * .mask from the fork on: a SIGUSR2 sent the moment start() returns finds
 * the child blocking it, still pending after the exec (grep, which leaves
 * its mask alone, shows both); .env's entries added to the environment,
 * or in place of perf's.
 */
static int test_mask_env(const char *dir)
{
	const char *grep[] = { "grep", "-e", "^SigBlk:", "-e", "^ShdPnd:", "/proc/self/status",
			       NULL };
	const char *env_argv[] = { "env", NULL }, *env[] = { "RC_A=new", "RC_B=added", NULL };
	struct child_process cp;
	char path[PATH_MAX];
	sigset_t usr2;

	snprintf(path, sizeof(path), "%s/output", dir);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	child_init(&cp, grep, dir, true);
	cp.out_path = "output";
	cp.mask = &usr2;
	TEST_ASSERT_EQUAL("start held", child_process__start(&cp), 0);
	TEST_ASSERT_EQUAL("signal it at once", kill(cp.pid, SIGUSR2), 0);
	TEST_ASSERT_EQUAL("release", child_process__release(&cp), 0);
	TEST_ASSERT_EQUAL("reaped", child_process__wait(&cp, true), 1);
	TEST_ASSERT_EQUAL("not killed by the early signal", cp.status, 0);
	TEST_ASSERT_VAL("SIGUSR2 blocked and pending after the exec",
			file_is(path, "ShdPnd:\t0000000000000800\nSigBlk:\t0000000000000800\n"));

	setenv("RC_A", "old", 1);
	child_init(&cp, env_argv, dir, false);
	cp.out_path = "output";
	cp.env = env;
	TEST_ASSERT_EQUAL("start env", child_process__start(&cp), 0);
	TEST_ASSERT_EQUAL("reaped", child_process__wait(&cp, true), 1);
	unsetenv("RC_A");
	TEST_ASSERT_EQUAL("exit 0", cp.status, 0);
	TEST_ASSERT_EQUAL("an entry replaced", lines_are(path, "RC_A=new"), 1);
	TEST_ASSERT_EQUAL("perf's value gone", lines_are(path, "RC_A=old"), 0);
	TEST_ASSERT_EQUAL("an entry added", lines_are(path, "RC_B=added"), 1);
	return TEST_OK;
}

static int test_kill(void)
{
	const char *argv[] = { "sleep", "30", NULL };
	struct child_process cp = CHILD_PROCESS_INIT;

	cp.argv = argv;
	cp.new_pgrp = true;
	TEST_ASSERT_EQUAL("start", child_process__start(&cp), 0);
	TEST_ASSERT_EQUAL("a group of its own", getpgid(cp.pid), cp.pid);
	TEST_ASSERT_EQUAL("runs", child_process__wait(&cp, false), 0);
	TEST_ASSERT_EQUAL("kill", child_process__kill(&cp, SIGTERM), 0);
	TEST_ASSERT_EQUAL("reaped", child_process__wait(&cp, true), 1);
	TEST_ASSERT_VAL("by SIGTERM", WIFSIGNALED(cp.status) && WTERMSIG(cp.status) == SIGTERM);
	TEST_ASSERT_EQUAL("nothing to kill", child_process__kill(&cp, SIGTERM), -ESRCH);
	return TEST_OK;
}

static int test__run_command(void)
{
	char dir[] = "/tmp/perf-run-command-XXXXXX", path[PATH_MAX];
	int ret;

	if (!mkdtemp(dir))
		return TEST_FAIL;
	ret = test_exit_codes();
	if (ret == TEST_OK)
		ret = test_hold(dir);
	if (ret == TEST_OK)
		ret = test_redirect(dir);
	if (ret == TEST_OK)
		ret = test_mask_env(dir);
	if (ret == TEST_OK)
		ret = test_kill();
	snprintf(path, sizeof(path), "%s/output", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/ran", dir);
	unlink(path);
	rmdir(dir);
	return ret;
}

DEFINE_SUITE(run_command, "child_process: start, hold and release, redirect, mask and environment, exec failure, kill and reap");
