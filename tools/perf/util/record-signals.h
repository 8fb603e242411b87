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
 * Set by perf daemon in its recorders' environment: the SIGUSR2 they are
 * started with blocked was blocked by the daemon (from its fork on, so that
 * a 'perf daemon signal' right after a start waits for the handler), and
 * is not part of the mask their workload is to get.  Taken out of the
 * environment by record_signals__block_early().
 */
#define RECORD_SIGNALS_USR2_ENV	"PERF_DAEMON_BLOCKED_SIGUSR2"

/*
 * perf's first instruction (perf.c's constructor, before main()): blocks
 * SIGUSR2, so that a dump request sent while perf record starts waits for
 * its handler instead of killing the recorder, and keeps whether the mask
 * perf was started with blocked it.
 */
void record_signals__block_early(void);
/*
 * For every command but perf record (main()): SIGUSR2 blocked or not as
 * perf was started with it, so that it kills perf report as it always did,
 * and what such a command runs does not inherit the block.
 */
void record_signals__unblock_early(void);
/*
 * perf record's start: SIGUSR2 blocked (perf sched record and perf
 * timechart record come here through main()'s unblock); *@start gets the
 * mask perf was started with, the workload's.
 */
void record_signals__block_dump(sigset_t *start);
/*
 * The mask the loop opens inside ppoll(): @start with SIGUSR2 open, which
 * perf record always takes, even from a starter that blocked it to keep
 * perf's start safe (perf daemon, or a script's careful spawn).
 */
void record_signals__loop_mask(sigset_t *loop, const sigset_t *start);
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
