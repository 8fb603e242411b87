/*
 * perf record's signals (util/record-signals): SIGUSR2 blocked by perf.c's
 * constructor, and the mask perf was started with given back to other
 * commands and to record's workload; a SIGUSR2 sent before the
 * handlers are in waits for them instead of killing the recorder; each
 * signal sets its flags only when the mask is opened for it, and
 * test_and_clear takes a flag once.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "tests.h"
#include "util/record-signals.h"

/* Raises @sig (blocked), checks that nothing is set until the mask opens. */
static int raise_and_take(int sig, const sigset_t *open)
{
	memset(&record_signals, 0, sizeof(record_signals));
	raise(sig);
	TEST_ASSERT_VAL("a blocked signal set a flag", !record_signals.done &&
			!record_signals.switch_requested && !record_signals.alarm_fired);
	record_signals__take(open);
	return TEST_OK;
}

static bool usr2_blocked(void)
{
	sigset_t now;

	sigprocmask(SIG_SETMASK, NULL, &now);
	return sigismember(&now, SIGUSR2) == 1;
}

/*
 * perf.c's constructor and main(), started with SIGUSR2 @blocked (by perf
 * daemon: @daemon): blocked from the start, as given after the unblock,
 * and the start mask is what was given; the loop opens SIGUSR2 anyway.
 */
static int early_block(bool blocked, bool daemon)
{
	sigset_t usr2, start, loop;

	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &usr2, NULL);
	if (daemon)
		setenv(RECORD_SIGNALS_USR2_ENV, "1", 1);
	record_signals__block_early();
	TEST_ASSERT_VAL("SIGUSR2 not blocked by the constructor", usr2_blocked());
	TEST_ASSERT_VAL("the daemon's word left in the environment",
			!getenv(RECORD_SIGNALS_USR2_ENV));
	record_signals__block_dump(&start);
	TEST_ASSERT_VAL("record's start mask is not the one given",
			(sigismember(&start, SIGUSR2) == 1) == (blocked && !daemon));
	record_signals__loop_mask(&loop, &start);
	TEST_ASSERT_VAL("the loop keeps SIGUSR2 blocked", !sigismember(&loop, SIGUSR2));
	record_signals__unblock_early();
	TEST_ASSERT_VAL("another command's SIGUSR2 is not as given",
			usr2_blocked() == (blocked && !daemon));
	return TEST_OK;
}

static int test__record_signals(void)
{
	sigset_t start, loop, now;

	/* The test's own process: a forked child, whose mask and handlers are its own. */
	TEST_ASSERT_VAL("started unblocked", early_block(false, false) == TEST_OK);
	TEST_ASSERT_VAL("started blocked", early_block(true, false) == TEST_OK);
	TEST_ASSERT_VAL("started by perf daemon", early_block(true, true) == TEST_OK);

	record_signals__block_dump(&start);
	record_signals__loop_mask(&loop, &start);
	raise(SIGUSR2);
	record_signals__install(true, true);
	TEST_ASSERT_VAL("SIGUSR2 served before the loop opened the mask",
			!record_signals.switch_requested);
	record_signals__take(&loop);
	TEST_ASSERT_VAL("SIGUSR2 sent before the handler was lost",
			record_signals.switch_requested && !record_signals.done);
	TEST_ASSERT_VAL("first test_and_clear",
			record_signals__test_and_clear(&record_signals.switch_requested));
	TEST_ASSERT_VAL("second test_and_clear",
			!record_signals__test_and_clear(&record_signals.switch_requested));

	TEST_ASSERT_VAL("SIGCHLD", raise_and_take(SIGCHLD, &loop) == TEST_OK);
	TEST_ASSERT_VAL("SIGCHLD: done and child_exited",
			record_signals.done && record_signals.child_exited);
	TEST_ASSERT_VAL("SIGTERM", raise_and_take(SIGTERM, &loop) == TEST_OK);
	TEST_ASSERT_VAL("SIGTERM: done only", record_signals.done && !record_signals.child_exited);
	TEST_ASSERT_VAL("SIGALRM", raise_and_take(SIGALRM, &loop) == TEST_OK);
	TEST_ASSERT_VAL("SIGALRM: the time threshold only",
			record_signals.alarm_fired && !record_signals.done);
	/* A SIGPIPE with --control is survived; only reaching here shows it. */
	raise(SIGPIPE);

	/* Taking, with nothing pending, leaves the signals blocked as they were. */
	memset(&record_signals, 0, sizeof(record_signals));
	record_signals__take(&loop);
	sigprocmask(SIG_SETMASK, NULL, &now);
	TEST_ASSERT_VAL("the recorder's signals unblocked",
			sigismember(&now, SIGINT) && sigismember(&now, SIGUSR2) &&
			sigismember(&now, SIGCHLD) && sigismember(&now, SIGALRM));
	TEST_ASSERT_VAL("a flag set with nothing pending", !record_signals.done);
	sigprocmask(SIG_SETMASK, &start, NULL);
	return TEST_OK;
}

DEFINE_SUITE(record_signals, "perf record's signals: SIGUSR2 blocked from the start, given back as it came; blocked until the loop opens them, early SIGUSR2 kept");
