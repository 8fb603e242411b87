/*
 * perf record's signal handlers and masks (see record-signals.h).
 */
#include <signal.h>
#include <stdlib.h>
#include "record-signals.h"
#include "types.h"

struct record_signal_flags record_signals;

static const int record_signals__set[] = { SIGINT, SIGTERM, SIGCHLD, SIGUSR2, SIGALRM };

static void sig_done(int sig)
{
	record_signals.done = 1;
}

static void sig_child(int sig)
{
	record_signals.child_exited = 1;
	record_signals.done = 1;
}

static void sig_switch(int sig)
{
	record_signals.switch_requested = 1;
}

static void sig_alarm(int sig)
{
	record_signals.alarm_fired = 1;
}

/* A handler that does nothing, not SIG_IGN, which a workload would inherit. */
static void sig_pipe(int sig)
{
}

/*
 * Whether SIGUSR2 was blocked in the mask perf was started with: -1 until
 * record_signals__block_early() has looked (a unit test's process).
 */
static int usr2_inherited = -1;

static void usr2_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGUSR2);
}

void record_signals__block_early(void)
{
	sigset_t usr2, old;

	usr2_set(&usr2);
	sigprocmask(SIG_BLOCK, &usr2, &old);
	usr2_inherited = sigismember(&old, SIGUSR2) == 1;
	/* Blocked by perf daemon for the recorder only: not part of what we were given. */
	if (getenv(RECORD_SIGNALS_USR2_ENV)) {
		usr2_inherited = 0;
		unsetenv(RECORD_SIGNALS_USR2_ENV);
	}
}

void record_signals__unblock_early(void)
{
	sigset_t usr2;

	if (usr2_inherited != 0)
		return;
	usr2_set(&usr2);
	sigprocmask(SIG_UNBLOCK, &usr2, NULL);
}

void record_signals__block_dump(sigset_t *start)
{
	sigset_t usr2;

	usr2_set(&usr2);
	sigprocmask(SIG_BLOCK, &usr2, start);
	/* SIGUSR2 as perf was started with it, not as perf.c's constructor left it. */
	if (usr2_inherited == 1)
		sigaddset(start, SIGUSR2);
	else if (usr2_inherited == 0)
		sigdelset(start, SIGUSR2);
}

void record_signals__loop_mask(sigset_t *loop, const sigset_t *start)
{
	*loop = *start;
	sigdelset(loop, SIGUSR2);
}

void record_signals__install(bool alarm, bool pipe)
{
	struct sigaction sa = { .sa_flags = 0 };
	sigset_t block;

	sigemptyset(&block);
	for (unsigned int i = 0; i < ARRAY_SIZE(record_signals__set); i++)
		sigaddset(&block, record_signals__set[i]);
	sigprocmask(SIG_BLOCK, &block, NULL);

	sigemptyset(&sa.sa_mask);
	sa.sa_handler = sig_done;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = sig_child;
	sigaction(SIGCHLD, &sa, NULL);
	/* Without --switch-output the request finds no dump to start, and is dropped. */
	sa.sa_handler = sig_switch;
	sigaction(SIGUSR2, &sa, NULL);
	if (alarm) {
		sa.sa_handler = sig_alarm;
		sigaction(SIGALRM, &sa, NULL);
	}
	if (pipe) {
		sa.sa_handler = sig_pipe;
		sigaction(SIGPIPE, &sa, NULL);
	}
}

void record_signals__take(const sigset_t *mask)
{
	sigset_t pending, old;
	bool any = false;

	if (sigpending(&pending))
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(record_signals__set); i++)
		any |= sigismember(&pending, record_signals__set[i]) == 1;
	if (!any)
		return;
	sigprocmask(SIG_SETMASK, mask, &old);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

bool record_signals__test_and_clear(volatile sig_atomic_t *flag)
{
	if (!*flag)
		return false;
	*flag = 0;
	return true;
}
