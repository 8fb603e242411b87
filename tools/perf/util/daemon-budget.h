#ifndef PERF_UTIL_DAEMON_BUDGET_H
#define PERF_UTIL_DAEMON_BUDGET_H
/*
 * perf daemon's disk budget, daemon.max-size: a bound on the total size of
 * the dumps (perf.data.<timestamp>) in the directories of all its sessions.
 * Over it, the oldest dumps of any session are deleted first (by mtime,
 * then name), except each session's newest.  A recorder writes a dump as
 * perf.data and gives it its dump name only once it is complete, so a dump
 * being written is never one of them.
 */
#include <stdbool.h>
#include "list.h"
#include "types.h"

/* How often the daemon looks at the dumps, besides after each one it hears of (ms). */
#define DAEMON_BUDGET_INTERVAL_MS	2000

struct daemon_budget {
	u64 max;		/* bytes; 0: no budget */
	bool over_noted;	/* said that the newest dumps alone are over it */
};

/* What the dumps of the sessions take: @bytes in @files dumps. */
void daemon_budget__usage(struct list_head *sessions, u64 *bytes, int *files);
/*
 * Deletes dumps of @sessions (of struct daemon_session), oldest first,
 * until they fit in @b, logging each one with @log as "deleted PATH (SIZE
 * bytes): daemon.max-size MAX reached".  Returns how many were deleted.
 */
int daemon_budget__enforce(struct daemon_budget *b, struct list_head *sessions,
			   void (*log)(const char *fmt, ...));
/* daemon.max-size's value: K, M or G as perf record's sizes take them; 0 or -EINVAL. */
int daemon_budget__parse(const char *value, u64 *max);

#endif
