/*
 * perf record's signals (util/record-signals): a SIGUSR2 sent before the
 * handlers are in waits for them instead of killing the recorder; each
 * signal sets its flags only when the mask is opened for it, and
 * test_and_clear takes a flag once.
 */
#include <signal.h>
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

static int test__record_signals(void)
{
	sigset_t start, now;

	/* The test's own process: a forked child, whose handlers are its own. */
	record_signals__block_dump(&start);
	raise(SIGUSR2);
	record_signals__install(true, true);
	TEST_ASSERT_VAL("SIGUSR2 served before the loop opened the mask",
			!record_signals.switch_requested);
	record_signals__take(&start);
	TEST_ASSERT_VAL("SIGUSR2 sent before the handler was lost",
			record_signals.switch_requested && !record_signals.done);
	TEST_ASSERT_VAL("first test_and_clear",
			record_signals__test_and_clear(&record_signals.switch_requested));
	TEST_ASSERT_VAL("second test_and_clear",
			!record_signals__test_and_clear(&record_signals.switch_requested));

	TEST_ASSERT_VAL("SIGCHLD", raise_and_take(SIGCHLD, &start) == TEST_OK);
	TEST_ASSERT_VAL("SIGCHLD: done and child_exited",
			record_signals.done && record_signals.child_exited);
	TEST_ASSERT_VAL("SIGTERM", raise_and_take(SIGTERM, &start) == TEST_OK);
	TEST_ASSERT_VAL("SIGTERM: done only", record_signals.done && !record_signals.child_exited);
	TEST_ASSERT_VAL("SIGALRM", raise_and_take(SIGALRM, &start) == TEST_OK);
	TEST_ASSERT_VAL("SIGALRM: the time threshold only",
			record_signals.alarm_fired && !record_signals.done);
	/* A SIGPIPE with --control is survived; only reaching here shows it. */
	raise(SIGPIPE);

	/* Taking, with nothing pending, leaves the signals blocked as they were. */
	memset(&record_signals, 0, sizeof(record_signals));
	record_signals__take(&start);
	sigprocmask(SIG_SETMASK, NULL, &now);
	TEST_ASSERT_VAL("the recorder's signals unblocked",
			sigismember(&now, SIGINT) && sigismember(&now, SIGUSR2) &&
			sigismember(&now, SIGCHLD) && sigismember(&now, SIGALRM));
	TEST_ASSERT_VAL("a flag set with nothing pending", !record_signals.done);
	sigprocmask(SIG_SETMASK, &start, NULL);
	return TEST_OK;
}

DEFINE_SUITE(record_signals, "perf record's signals: blocked until the loop opens them, early SIGUSR2 kept");
