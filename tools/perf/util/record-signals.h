#ifndef PERF_UTIL_RECORD_SIGNALS_H
#define PERF_UTIL_RECORD_SIGNALS_H
/*
 * perf record's signals.  The handlers only set flags, which the main loop
 * turns into work; the signals are blocked except inside the loop's
 * ppoll(), so none comes between a check of the flags and the sleep.
 */
#include <signal.h>
#include <stdbool.h>

struct record_signal_flags {
	volatile sig_atomic_t done;		/* SIGINT, SIGTERM, SIGCHLD: stop recording */
	volatile sig_atomic_t child_exited;	/* SIGCHLD: the workload is to be reaped */
	volatile sig_atomic_t switch_requested;	/* SIGUSR2: a dump asked for */
	volatile sig_atomic_t alarm_fired;	/* SIGALRM: --switch-output=TIME passed */
};

/* The one set of flags a process has, as it has one set of handlers. */
extern struct record_signal_flags record_signals;

/*
 * Blocks SIGUSR2 from the command's first instruction, so that a dump
 * request sent right after start waits for its handler instead of killing
 * the recorder; *@start gets the mask the process had.
 */
void record_signals__block_dump(sigset_t *start);
/*
 * Blocks the recorder's signals and installs their handlers: SIGALRM's
 * with @alarm (--switch-output=TIME), SIGPIPE's with @pipe (--control:
 * a reader that went away gives EPIPE, not death).
 */
void record_signals__install(bool alarm, bool pipe);
/*
 * Delivers the recorder's signals that are pending, by opening @mask for
 * an instant: ppoll() that finds a buffer ready returns without taking
 * them, and a recorder whose buffers never run dry would never stop.
 */
void record_signals__take(const sigset_t *mask);
/* Whether @flag was set, clearing it. */
bool record_signals__test_and_clear(volatile sig_atomic_t *flag);

#endif
