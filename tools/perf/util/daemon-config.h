#ifndef PERF_UTIL_DAEMON_CONFIG_H
#define PERF_UTIL_DAEMON_CONFIG_H
/*
 * perf daemon's view of a perf config file: daemon.base and the
 * [session-NAME] sections whose 'run' line is a perf record command line,
 * and whose 'process' or 'cgroup' names what the session follows.
 * Other sections and keys share the file and are left alone.
 */
#include "list.h"
#include "types.h"

struct daemon_session;

/* A config file read: daemon.base and the sessions it defines. */
struct daemon_config {
	const char *path;
	char *base;
	u64 max_size;			/* daemon.max-size, bytes; 0: none (util/daemon-budget) */
	struct list_head sessions;	/* of struct daemon_session, not started */
};

/*
 * Reads @path into @cfg.  A malformed file is reported on stderr as
 * "file:line: expected ..." and leaves -EINVAL, and @cfg empty.
 */
int daemon_config__read(struct daemon_config *cfg, const char *path);
void daemon_config__exit(struct daemon_config *cfg);
/* The config file to use, absolute: @config (--config), else perf's default one; NULL said why. */
char *daemon_config__path(const char *config);
/* The base directory as an absolute path: @base (--base), else daemon.base; NULL said why. */
char *daemon_config__base(const struct daemon_config *cfg, const char *base);
/*
 * The base a client talks to: @base, else daemon.base of the config file
 * @config names.  A config broken after the daemon started still gives
 * the base set before its broken line.
 */
char *daemon_config__client_base(const char *config, const char *base);

/* The session named @name on @list (of struct daemon_session), or NULL. */
struct daemon_session *daemon_sessions__find(struct list_head *list, const char *name);
/* Unlinks and deletes every session on @list. */
void daemon_sessions__delete(struct list_head *list);

#endif
