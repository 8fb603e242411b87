#ifndef PERF_UTIL_DAEMON_SERVER_H
#define PERF_UTIL_DAEMON_SERVER_H
/*
 * The perf daemon process: it takes a lock on the base directory, listens
 * on BASE/control for one request line per client (list, signal, ping,
 * stop), answers in tagged lines
 *
 *	o TEXT		print TEXT on stdout
 *	e TEXT		print TEXT on stderr
 *	x CODE		the command's exit code; the last line
 *
 * and keeps the config's sessions running (util/daemon-session.h),
 * reloading the config when its file is rewritten or on SIGHUP.
 */
#include <stdbool.h>

struct sockaddr_un;

/* The daemon's control socket in @base.  0, or -1 said why (the path is too long). */
int daemon_server__address(const char *base, struct sockaddr_un *addr);
/*
 * Starts the daemon with the config file @config (NULL: perf's default)
 * and the base @base (NULL: daemon.base); unless @foreground, it goes to
 * the background once it is ready.  Returns the exit code, when it ends.
 */
int daemon_server__run(const char *config, const char *base, bool foreground);

#endif
