#ifndef PERF_UTIL_DAEMON_CHECK_H
#define PERF_UTIL_DAEMON_CHECK_H
/*
 * What `perf daemon start` checks before it reports ready: that every
 * session's recorder gets to recording.  A recorder that ends with a
 * failure before it answers on its control fifo never will (no permission
 * for -a, an unknown event, an option perf record refuses), and start
 * fails instead of leaving a session that restarts forever.
 */
#include <stdio.h>
#include "list.h"

/* How long start waits for the recorders to answer or end (ms). */
#define DAEMON_CHECK_TIMEOUT_MS	10000

/*
 * Waits, up to @timeout_ms, until each session on @sessions (of struct
 * daemon_session, just started) answers a ping or has ended.  Each one
 * whose recorder ended with a failure first is reported on @err as
 * "session 'NAME' cannot start: REASON", REASON the recorder's own error
 * line from its output file.  The ended recorders are left for the caller
 * to reap.  Returns how many sessions cannot start.
 */
int daemon_check__started(struct list_head *sessions, int timeout_ms, FILE *err);
/*
 * The line of @output that says why the recorder failed: its "Error:"
 * line if it has one (an option perf record refused), else its first
 * line that is not blank.  Empty if the file has neither.
 */
void daemon_check__reason(const char *output, char *buf, size_t size);
/*
 * Takes away what starting a session made in its directory @dir, the
 * directory too unless it holds the dumps of an earlier daemon.
 */
void daemon_check__undo(const char *dir);

#endif
