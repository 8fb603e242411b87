/*
 * The perf daemon process (see daemon-server.h): its base directory and
 * lock, the control socket and its requests, and the sessions it runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include "daemon-budget.h"
#include "daemon-check.h"
#include "daemon-config.h"
#include "daemon-server.h"
#include "daemon-session.h"
#include "daemon-target.h"
#include "debug.h"
#include "parse-options.h"

#define DAEMON_SOCKET	"control"
#define DAEMON_LOCK	"lock"
#define DAEMON_OUTPUT	"output"

/* How long a ping waits for its ack, and each step of stopping a recorder. */
#define PING_TIMEOUT_MS	2000
#define STOP_TIMEOUT_MS	10000

struct daemon {
	char *config_path;	/* absolute */
	char *base;		/* absolute */
	char *config_base;	/* daemon.base as the config wrote it at start; NULL with --base */
	char *perf;		/* this binary, which the recorders run */
	struct list_head sessions;
	time_t start;
	int lock_fd, sock_fd, signal_fd, inotify_fd;
	int stop_client;	/* the `perf daemon stop` waiting for us to finish; -1 */
	struct list_head dump_waits;	/* struct dump_wait, oldest first */
	struct daemon_budget budget;	/* daemon.max-size */
	long long budget_at;		/* daemon_session__now() of the next look at the dumps */
	bool done;
};

/* A `signal --wait` client, answered once each session it asked has dumped. */
struct signal_client {
	int fd;			/* the client's socket */
	int pending;		/* dumps still to come */
	int ret;		/* its exit code so far */
	int timeout_s;
	long long deadline;	/* daemon_session__now() time to give up */
};

/* One dump a session owes a request: its snapshot acks come in this order. */
struct dump_wait {
	struct list_head node;
	struct daemon_session *session;
	struct signal_client *req;
};

static void daemon__fail_dumps(struct daemon *d, struct daemon_session *s,
			       struct signal_client *req, const char *why);
static bool daemon__read_acks(struct daemon *d, struct daemon_session *s);

/* ---- the daemon's log ------------------------------------------------------ */

static void daemon__log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void daemon__log(const char *fmt, ...)
{
	struct timeval tv;
	struct tm tm;
	char when[32];
	va_list ap;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	printf("[%s.%06ld] ", when, (long)tv.tv_usec);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/* ---- sessions under the daemon -------------------------------------------- */

/*
 * Looks for what session @s follows: true if it is there.  Going from
 * there (or from not looked for yet) to absent is logged, once.
 */
static bool daemon__target_found(struct daemon_session *s)
{
	struct daemon_target *t = s->target;
	bool was = t->present || !t->checks;
	char what[PATH_MAX + 16];

	t->next_check = daemon_session__now() + DAEMON_TARGET_POLL_MS;
	if (daemon_target__look(t))
		return true;
	if (was) {
		daemon_target__describe(t, what, sizeof(what));
		daemon__log("session '%s' is waiting for %s\n", s->name, what);
	}
	return false;
}

static void daemon__start_session(struct daemon *d, struct daemon_session *s, bool restart)
{
	int err;

	/* A session that follows a process or a cgroup waits until it is there. */
	if (s->target && !daemon__target_found(s)) {
		s->restart_at = 0;
		return;
	}
	/* The output of the recorders before stays: a restart, or a target back again. */
	err = daemon_session__start(s, d->perf, restart || (s->target && s->start));
	if (err) {
		daemon__log("session '%s' could not start: %s\n", s->name, strerror(-err));
		s->restart_at = daemon_session__now() + s->backoff * 1000LL;
		return;
	}
	if (restart)
		s->restarts++;
	if (s->target) {
		char *args = daemon_target__args(s->target);

		daemon__log("session '%s' started (pid %d): %s %s\n", s->name, s->child.pid,
			    s->run, args ? args : "");
		free(args);
		return;
	}
	daemon__log("session '%s' started (pid %d): %s\n", s->name, s->child.pid, s->run);
}

static void daemon__stop_session(struct daemon *d, struct daemon_session *s)
{
	daemon__fail_dumps(d, s, NULL, "the session was stopped");
	if (s->child.pid < 0)
		return;
	if (daemon_sessions__stop(&d->sessions, s, STOP_TIMEOUT_MS))
		daemon__log("session '%s' (pid %d) would not end\n", s->name, s->child.pid);
	else
		daemon__log("session '%s' stopped\n", s->name);
}

/*
 * Brings the running sessions in line with @cfg: sessions no longer there
 * stop, those whose run line changed start over, new ones start.
 */
static int daemon__apply(struct daemon *d, struct daemon_config *cfg)
{
	struct daemon_session *s, *n, *want;

	list_for_each_entry_safe(s, n, &d->sessions, node) {
		want = daemon_sessions__find(&cfg->sessions, s->name);
		if (!want) {
			daemon__stop_session(d, s);
			daemon__log("session '%s' is no longer in the config: removed\n", s->name);
			list_del_init(&s->node);
			daemon_session__delete(s);
			continue;
		}
		if (!strcmp(want->run, s->run) && daemon_target__same(want->target, s->target))
			continue;
		daemon__log("session '%s' has a new %s: restarting it\n", s->name,
			    strcmp(want->run, s->run) ? "run line" : "process or cgroup to follow");
		daemon__stop_session(d, s);
		free(s->run);
		s->run = strdup(want->run);
		daemon_target__delete(s->target);
		s->target = daemon_target__dup(want->target);
		if (!s->run || (want->target && !s->target))
			return -ENOMEM;
		s->restarts = 0;
		s->last_status = -1;
		/* Its output starts afresh, as for a new run line. */
		s->start = 0;
		s->backoff = SESSION_BACKOFF_MIN;
		daemon__start_session(d, s, false);
	}
	list_for_each_entry(want, &cfg->sessions, node) {
		if (daemon_sessions__find(&d->sessions, want->name))
			continue;
		s = daemon_session__new(d->base, want->name, want->run);
		if (!s)
			return -ENOMEM;
		list_add_tail(&s->node, &d->sessions);
		s->target = daemon_target__dup(want->target);
		if (want->target && !s->target)
			return -ENOMEM;
		daemon__start_session(d, s, false);
	}
	return 0;
}

/* daemon.max-size, at start or as a reload changed it. */
static void daemon__set_budget(struct daemon *d, u64 max)
{
	if (max == d->budget.max)
		return;
	if (max)
		daemon__log("daemon.max-size: the dumps of all sessions are kept within %llu "
			    "bytes\n", (unsigned long long)max);
	else
		daemon__log("daemon.max-size: no longer set, the dumps are not bounded\n");
	d->budget.max = max;
	d->budget.over_noted = false;
	d->budget_at = 0;
}

/* Looks at the dumps now if the budget's time has come; the ms until the next look, or -1. */
static int daemon__budget_due(struct daemon *d)
{
	long long now = daemon_session__now();

	if (!d->budget.max)
		return -1;
	if (d->budget_at <= now) {
		daemon_budget__enforce(&d->budget, &d->sessions, daemon__log);
		d->budget_at = now + DAEMON_BUDGET_INTERVAL_MS;
	}
	return (int)(d->budget_at - now);
}

/* The config file changed: a file that does not parse changes nothing. */
static void daemon__reload(struct daemon *d)
{
	struct daemon_config cfg;
	char *base;

	daemon__log("config %s changed: reloading it\n", d->config_path);
	if (daemon_config__read(&cfg, d->config_path)) {
		daemon__log("config not reloaded (see the error above): the sessions stay as "
			    "they were\n");
		return;
	}
	base = cfg.base;
	/*
	 * What start would refuse, reload refuses too: a file with no base
	 * (an empty one, caught half-written) would otherwise stop every session.
	 */
	if (d->config_base && !base) {
		daemon__log("config not reloaded: it sets no base directory ('base = <dir>' in "
			    "[daemon]), which start would refuse; the sessions stay as they were\n");
		daemon_config__exit(&cfg);
		return;
	}
	if (d->config_base && strcmp(base, d->config_base))
		daemon__log("the base directory cannot change while the daemon runs: keeping %s "
			    "(restart the daemon to use %s)\n", d->base, base);
	daemon__set_budget(d, cfg.max_size);
	if (daemon__apply(d, &cfg))
		daemon__log("reload: out of memory\n");
	daemon_config__exit(&cfg);
}

/*
 * The recorder of @s has ended (@how): if what it followed is gone, that
 * is why, and the session waits for it again, with no restart counted
 * nor delayed.  False for a session that follows nothing, or whose
 * process or cgroup is still there (its recorder failed: the delays).
 */
static bool daemon__target_left(struct daemon_session *s, const char *how)
{
	char what[PATH_MAX + 16];

	if (!s->target || !daemon_target__gone(s->target))
		return false;
	s->target->present = false;
	s->restart_at = 0;
	daemon_target__describe(s->target, what, sizeof(what));
	daemon__log("session '%s' %s: %s is gone; waiting for it\n", s->name, how, what);
	return true;
}

/* Reaps the recorders that ended, and schedules their restarts. */
static void daemon__reap(struct daemon *d)
{
	struct daemon_session *s;
	char how[64];

	list_for_each_entry(s, &d->sessions, node) {
		if (!daemon_session__collect(s))
			continue;
		daemon_session__describe_status(s->last_status, how, sizeof(how));
		/* A dump completed just before the end was still answered. */
		daemon__read_acks(d, s);
		daemon__fail_dumps(d, s, NULL, how);
		if (daemon__target_left(s, how))
			continue;
		daemon_session__schedule_restart(s);
		daemon__log("session '%s' %s; starting it again in %.1f s\n", s->name, how,
			    (s->restart_at - daemon_session__now()) / 1000.0);
	}
}

/* Starts the sessions whose restart is due; returns the poll timeout until the next (ms). */
static int daemon__restart_due(struct daemon *d)
{
	struct daemon_session *s;
	long long now = daemon_session__now(), next = 0;

	list_for_each_entry(s, &d->sessions, node) {
		if (!s->restart_at || s->child.pid >= 0)
			continue;
		if (s->restart_at <= now)
			daemon__start_session(d, s, true);
		if (s->restart_at && (!next || s->restart_at < next))
			next = s->restart_at;
	}
	return next ? (int)(next - now) : -1;
}

/*
 * One look for session @s's process or cgroup: its recorder starts when
 * it appears, and is stopped (writing its last dump) when a cgroup it
 * records is removed.  A recorder that follows processes ends by itself
 * when they all have exited; the reap sends the session back to waiting.
 */
static void daemon__follow_one(struct daemon *d, struct daemon_session *s)
{
	struct daemon_target *t = s->target;
	char how[64];

	t->next_check = daemon_session__now() + DAEMON_TARGET_POLL_MS;
	if (s->child.pid < 0) {
		/* A recorder that failed waits for its restart, which looks itself. */
		if (!s->restart_at && daemon__target_found(s))
			daemon__start_session(d, s, false);
		return;
	}
	if (t->kind != TARGET_CGROUP)
		return;
	t->checks++;
	if (!daemon_target__gone(t))
		return;
	daemon__stop_session(d, s);
	s->last_status = s->child.status;
	daemon_session__describe_status(s->last_status, how, sizeof(how));
	daemon__target_left(s, how);
}

/* The looks that are due; returns the poll timeout until the next one (ms), or -1. */
static int daemon__follow(struct daemon *d)
{
	long long now = daemon_session__now(), next = -1;
	struct daemon_session *s;

	list_for_each_entry(s, &d->sessions, node) {
		if (!s->target)
			continue;
		if (s->target->next_check <= now)
			daemon__follow_one(d, s);
		if (next < 0 || s->target->next_check < next)
			next = s->target->next_check;
	}
	now = daemon_session__now();
	return next < 0 ? -1 : next <= now ? 0 : (int)(next - now);
}

/* Every recorder ended, all at once: stop, then SIGTERM, then SIGKILL. */
static void daemon__stop_all(struct daemon *d)
{
	struct daemon_session *s;

	if (!daemon_sessions__stop(&d->sessions, NULL, STOP_TIMEOUT_MS))
		return;
	list_for_each_entry(s, &d->sessions, node)
		if (s->child.pid >= 0)
			daemon__log("session '%s' (pid %d) would not end\n", s->name, s->child.pid);
}

/* ---- requests from clients ------------------------------------------------- */

static void reply(FILE *out, char tag, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void reply(FILE *out, char tag, const char *fmt, ...)
{
	va_list ap;

	fprintf(out, "%c ", tag);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

static long minutes_since(time_t t)
{
	return (long)(time(NULL) - t) / 60;
}

/*
 * Where a session that follows a process or cgroup is: "waiting for
 * process 'nginx'", "recording process 'nginx'", or, while a recorder
 * that failed waits for its restart, "waiting to restart for ...".
 */
static void session_state(const struct daemon_session *s, char *buf, size_t size)
{
	char what[PATH_MAX + 16];

	daemon_target__describe(s->target, what, sizeof(what));
	if (s->child.pid >= 0)
		snprintf(buf, size, "recording %s", what);
	else if (s->restart_at)
		snprintf(buf, size, "waiting to restart for %s", what);
	else
		snprintf(buf, size, "waiting for %s", what);
}

/* The plain list's line of a session that follows a process or cgroup. */
static void list_target_session(const struct daemon_session *s, FILE *out, const char *state)
{
	char *args;

	if (s->child.pid < 0) {
		reply(out, 'o', "[%d:%s] %s: perf record %s", s->child.pid, s->name, state, s->run);
		return;
	}
	args = daemon_target__args(s->target);
	reply(out, 'o', "[%d:%s] perf record %s %s", s->child.pid, s->name, s->run,
	      args ? args : "");
	free(args);
}

/*
 * -v with daemon.max-size: what the dumps of all sessions take against it.
 * Without it, the list stays the distro's, line for line.
 */
static void request_list_budget(struct daemon *d, FILE *out)
{
	u64 bytes;
	int files;

	if (!d->budget.max)
		return;
	daemon_budget__usage(&d->sessions, &bytes, &files);
	reply(out, 'o', "  dumps:   %llu bytes in %d files, of max-size %llu bytes",
	      (unsigned long long)bytes, files, (unsigned long long)d->budget.max);
}

static int request_list(struct daemon *d, FILE *out, int verbose, char sep)
{
	char state[PATH_MAX + 64];
	struct daemon_session *s;
	char how[64];

	if (sep)
		reply(out, 'o', "%d%c%s%c%s%c%s/%s%c%s/%s%c%ld", getpid(), sep, "daemon", sep,
		      d->base, sep, d->base, DAEMON_OUTPUT, sep, d->base, DAEMON_LOCK, sep,
		      minutes_since(d->start));
	else
		reply(out, 'o', "[%d:daemon] base: %s", getpid(), d->base);
	if (!sep && verbose) {
		reply(out, 'o', "  output:  %s/%s", d->base, DAEMON_OUTPUT);
		reply(out, 'o', "  lock:    %s/%s", d->base, DAEMON_LOCK);
		reply(out, 'o', "  up:      %ld minutes", minutes_since(d->start));
		request_list_budget(d, out);
	}
	list_for_each_entry(s, &d->sessions, node) {
		daemon_session__describe_status(s->last_status, how, sizeof(how));
		if (sep) {
			/* -v adds the restarts and how the last recorder ended. */
			fprintf(out, "o %d%c%s%c%s%c%s%c%s/%s%c%s/%s%c%s/%s%c%ld", s->child.pid, sep,
				s->name, sep, s->run, sep, s->dir, sep, s->dir, SESSION_OUTPUT,
				sep, s->dir, SESSION_CONTROL, sep, s->dir, SESSION_ACK, sep,
				s->child.pid < 0 ? 0 : minutes_since(s->start));
			if (verbose)
				fprintf(out, "%c%d%c%s", sep, s->restarts, sep, how);
			/* Only sessions that follow something have the state, last. */
			if (s->target) {
				session_state(s, state, sizeof(state));
				fprintf(out, "%c%s", sep, state);
			}
			fputc('\n', out);
			continue;
		}
		if (s->target) {
			session_state(s, state, sizeof(state));
			list_target_session(s, out, state);
		} else {
			reply(out, 'o', "[%d:%s] perf record %s", s->child.pid, s->name, s->run);
		}
		if (!verbose)
			continue;
		reply(out, 'o', "  base:    %s", s->dir);
		reply(out, 'o', "  output:  %s/%s", s->dir, SESSION_OUTPUT);
		reply(out, 'o', "  control: %s/%s", s->dir, SESSION_CONTROL);
		reply(out, 'o', "  ack:     %s/%s", s->dir, SESSION_ACK);
		reply(out, 'o', "  up:      %ld minutes", s->child.pid < 0 ? 0 : minutes_since(s->start));
		reply(out, 'o', "  restarts: %d", s->restarts);
		if (s->last_status >= 0)
			reply(out, 'o', "  last end: %s", how);
		if (s->child.pid < 0 && s->restart_at)
			reply(out, 'o', "  next start: in %.1f s",
			      (s->restart_at - daemon_session__now()) / 1000.0);
		if (s->target) {
			reply(out, 'o', "  state:   %s", state);
			reply(out, 'o', "  checks:  %lu", s->target->checks);
		}
	}
	return 0;
}

/* "all" (or no name) is every session, as perf daemon has always read it. */
static bool session_wanted(const struct daemon_session *s, const char *name)
{
	return !name || !strcmp(name, "all") || !strcmp(name, s->name);
}

static void signal_client__finish(struct signal_client *req)
{
	dprintf(req->fd, "x %d\n", req->ret);
	close(req->fd);
	free(req);
}

/* Session @s's oldest dump wait has its answer: @file, or @error. */
static void daemon__dump_done(struct daemon *d, struct dump_wait *w, const char *file,
			      const char *error)
{
	struct signal_client *req = w->req;

	if (file) {
		dprintf(req->fd, "o %s\n", file);
	} else {
		dprintf(req->fd, "e session '%s' wrote no dump: %s\n", w->session->name, error);
		req->ret = 1;
	}
	list_del_init(&w->node);
	free(w);
	if (--req->pending == 0)
		signal_client__finish(req);
}

/* Every dump @s owes (or, with @req, every dump @req waits for) fails with @why. */
static void daemon__fail_dumps(struct daemon *d, struct daemon_session *s,
			       struct signal_client *req, const char *why)
{
	struct dump_wait *w, *n;

	list_for_each_entry_safe(w, n, &d->dump_waits, node)
		if ((!s || w->session == s) && (!req || w->req == req))
			daemon__dump_done(d, w, NULL, why);
}

/*
 * One line the recorder of @s answered: "ack FILE" ends the oldest dump
 * waiting on it, an "error: ..." fails it with the recorder's reason; "ack" alone (a ping's,
 * a stop's) is returned as true for whoever asked.
 */
static bool daemon__ack_line(struct daemon *d, struct daemon_session *s, const char *line)
{
	struct dump_wait *w, *first = NULL;
	const char *arg;
	enum session_answer kind = daemon_session__parse_answer(line, &arg);

	if (kind == ANSWER_ACK)
		return true;
	list_for_each_entry(w, &d->dump_waits, node) {
		if (w->session == s) {
			first = w;
			break;
		}
	}
	if (!first || kind == ANSWER_OTHER) {
		pr_debug("session '%s' answered '%s' to nothing we asked\n", s->name, line);
		return false;
	}
	if (kind == ANSWER_DUMP) {
		/* Within the budget before the client hears of the dump. */
		daemon_budget__enforce(&d->budget, &d->sessions, daemon__log);
		daemon__dump_done(d, first, arg, NULL);
	} else {
		daemon__dump_done(d, first, NULL, arg);
	}
	return false;
}

/* Reads what @s has answered; true if a plain "ack" was among it. */
static bool daemon__read_acks(struct daemon *d, struct daemon_session *s)
{
	char line[256];
	bool acked = false;

	while (daemon_session__read_ack(s, line, sizeof(line)) > 0)
		acked |= daemon__ack_line(d, s, line);
	return acked;
}

/* Dump requests whose time is up; returns the ms until the next deadline, or -1. */
static int daemon__dump_deadlines(struct daemon *d)
{
	long long now = daemon_session__now(), next = -1;
	struct dump_wait *w, *n;

	list_for_each_entry_safe(w, n, &d->dump_waits, node) {
		if (w->req->deadline <= now) {
			char why[64];

			snprintf(why, sizeof(why), "none within %d s", w->req->timeout_s);
			daemon__dump_done(d, w, NULL, why);
		} else if (next < 0 || w->req->deadline - now < next) {
			next = w->req->deadline - now;
		}
	}
	return (int)next;
}

/*
 * signal: SIGUSR2 to each session's recorder.  With @wait_s, the dump is
 * asked for with the control command "snapshot" instead, and the client
 * gets each dump's name as its recorder completes it (returns -1: the
 * request stays open).
 */
static int request_signal(struct daemon *d, FILE *out, const char *name, int wait_s)
{
	struct signal_client *req = NULL;
	struct daemon_session *s;
	bool found = false;
	int ret = 0;

	if (wait_s) {
		req = calloc(1, sizeof(*req));
		if (!req) {
			reply(out, 'e', "perf daemon: out of memory");
			return 1;
		}
		req->timeout_s = wait_s;
		req->deadline = daemon_session__now() + wait_s * 1000LL;
	}
	list_for_each_entry(s, &d->sessions, node) {
		struct dump_wait *w;
		char how[64];
		int err;

		if (!session_wanted(s, name))
			continue;
		found = true;
		if (s->child.pid < 0 && s->target && !s->restart_at) {
			char what[PATH_MAX + 16];

			daemon_target__describe(s->target, what, sizeof(what));
			reply(out, 'e', "session '%s' is waiting for %s: no signal sent", s->name,
			      what);
			ret = 1;
			continue;
		}
		if (s->child.pid < 0) {
			daemon_session__describe_status(s->last_status, how, sizeof(how));
			reply(out, 'e', "session '%s' is not running (last end: %s): no signal sent",
			      s->name, how);
			ret = 1;
			continue;
		}
		if (!req) {
			err = child_process__kill(&s->child, SIGUSR2);
			if (!err) {
				reply(out, 'o', "signal %d sent to session '%s [%d]'", SIGUSR2,
				      s->name, s->child.pid);
				continue;
			}
			reply(out, 'e', "cannot signal session '%s [%d]': %s", s->name, s->child.pid,
			      strerror(-err));
			ret = 1;
			continue;
		}
		w = calloc(1, sizeof(*w));
		err = w ? daemon_session__send(s, "snapshot", PING_TIMEOUT_MS) : -ENOMEM;
		if (err) {
			reply(out, 'e', "cannot ask session '%s [%d]' for a dump: %s", s->name,
			      s->child.pid, strerror(-err));
			free(w);
			ret = 1;
			continue;
		}
		reply(out, 'o', "dump requested from session '%s [%d]'", s->name, s->child.pid);
		w->session = s;
		w->req = req;
		req->pending++;
		list_add_tail(&w->node, &d->dump_waits);
	}
	if (!found && name && strcmp(name, "all")) {
		reply(out, 'e', "no session '%s' (see 'perf daemon' for the list)", name);
		ret = 1;
	}
	if (!req || !req->pending) {
		free(req);
		return ret;
	}
	/* The rest is answered from the loop, on the same connection. */
	req->ret = ret;
	fflush(out);
	req->fd = dup(fileno(out));
	if (req->fd < 0)
		daemon__fail_dumps(d, NULL, req, "out of file descriptors");
	return -1;
}

/* Is the recorder of @s answering?  Sends "ping" and waits for the "ack". */
static int daemon__ping(struct daemon *d, struct daemon_session *s)
{
	long long deadline = daemon_session__now() + PING_TIMEOUT_MS;
	struct pollfd pfd = { .fd = s->ack_fd, .events = POLLIN };
	int err;

	/* A plain ack left from an earlier request that gave up is not ours. */
	daemon__read_acks(d, s);
	err = daemon_session__send(s, "ping", PING_TIMEOUT_MS);
	while (!err) {
		int left = (int)(deadline - daemon_session__now());

		if (daemon__read_acks(d, s))
			return 0;
		if (left <= 0)
			return -ETIMEDOUT;
		if (poll(&pfd, 1, left) < 0 && errno != EINTR)
			return -errno;
	}
	return err;
}

static int request_ping(struct daemon *d, FILE *out, const char *name)
{
	struct daemon_session *s;
	bool found = false;
	int ret = 0;

	list_for_each_entry(s, &d->sessions, node) {
		int err;

		if (!session_wanted(s, name))
			continue;
		found = true;
		err = daemon__ping(d, s);
		reply(out, 'o', "%-4s %s", err ? "FAIL" : "OK", s->name);
		if (err) {
			pr_debug("ping %s: %s\n", s->name, strerror(-err));
			ret = 1;
		}
	}
	if (!found && name && strcmp(name, "all")) {
		reply(out, 'o', "%-4s %s (not found)", "FAIL", name);
		ret = 1;
	}
	return ret;
}

/* One client: one request line, the answer, done (stop answers once all is stopped). */
static void daemon__serve(struct daemon *d)
{
	struct timeval limit = { .tv_sec = 2 };
	char line[512], *words[4] = { NULL }, *save = NULL;
	int fd = accept4(d->sock_fd, NULL, NULL, SOCK_CLOEXEC), n = 0, ret = 2;
	ssize_t len = 0, got;
	FILE *out;

	if (fd < 0)
		return;
	/* A client that connects and says nothing must not stall the sessions. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
	while (len < (ssize_t)sizeof(line) - 1 && !memchr(line, '\n', len)) {
		got = read(fd, line + len, sizeof(line) - 1 - len);
		if (got <= 0)
			break;
		len += got;
	}
	line[len] = '\0';
	line[strcspn(line, "\n")] = '\0';
	for (char *w = strtok_r(line, " ", &save); w && n < 4; w = strtok_r(NULL, " ", &save))
		words[n++] = w;
	out = fdopen(fd, "w");
	if (!out) {
		close(fd);
		return;
	}
	if (n == 3 && !strcmp(words[0], "list")) {
		ret = request_list(d, out, atoi(words[1]), (char)atoi(words[2]));
	} else if (n >= 2 && !strcmp(words[0], "signal")) {
		ret = request_signal(d, out, n > 2 ? words[2] : NULL, atoi(words[1]));
	} else if (n >= 1 && !strcmp(words[0], "ping")) {
		ret = request_ping(d, out, n > 1 ? words[1] : NULL);
	} else if (n == 1 && !strcmp(words[0], "stop")) {
		daemon__log("stop requested\n");
		d->done = true;
		fflush(out);
		/* Answered once every session has ended (see daemon__exit). */
		d->stop_client = dup(fd);
		ret = -1;
	} else {
		reply(out, 'e', "perf daemon: request '%s' not understood", line);
	}
	if (ret >= 0)
		reply(out, 'x', "%d", ret);
	fclose(out);
}

/* ---- the daemon process ---------------------------------------------------- */

/* BASE/control as a socket address; a base too long for one is reported. */
int daemon_server__address(const char *base, struct sockaddr_un *addr)
{
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	if ((size_t)snprintf(addr->sun_path, sizeof(addr->sun_path), "%s/%s", base,
			     DAEMON_SOCKET) < sizeof(addr->sun_path))
		return 0;
	fprintf(stderr, "failed: the base directory path %s is too long for the daemon's "
		"socket (at most %zu characters): choose a shorter base.\n", base,
		sizeof(addr->sun_path) - sizeof(DAEMON_SOCKET) - 1);
	return -ENAMETOOLONG;
}

static int daemon__listen(struct daemon *d)
{
	struct sockaddr_un addr;
	mode_t old;
	int fd;

	if (daemon_server__address(d->base, &addr))
		return -ENAMETOOLONG;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* We hold the lock: a socket left there is from a daemon that died. */
	unlink(addr.sun_path);
	/* Only the user who started us may talk to us (connect needs write access). */
	old = umask(0177);
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 16) < 0) {
		int err = -errno;

		umask(old);
		fprintf(stderr, "failed: cannot listen on %s: %s\n", addr.sun_path,
			strerror(-err));
		close(fd);
		return err;
	}
	umask(old);
	chmod(addr.sun_path, 0600);
	d->sock_fd = fd;
	return 0;
}

/* What start made in BASE, to take away again if it fails before it runs. */
struct start_undo {
	bool made_base, made_lock, made_output, made_socket;
};

static void start_undo(struct daemon *d, struct start_undo *u)
{
	char path[PATH_MAX];

	if (u->made_socket) {
		snprintf(path, sizeof(path), "%s/%s", d->base, DAEMON_SOCKET);
		unlink(path);
	}
	if (u->made_output) {
		snprintf(path, sizeof(path), "%s/%s", d->base, DAEMON_OUTPUT);
		unlink(path);
	}
	if (u->made_lock) {
		snprintf(path, sizeof(path), "%s/%s", d->base, DAEMON_LOCK);
		unlink(path);
	}
	if (u->made_base)
		rmdir(d->base);
}

/* The pid in BASE/lock, for telling who holds it. */
static int lock_owner(int fd)
{
	char buf[32] = "";

	if (pread(fd, buf, sizeof(buf) - 1, 0) <= 0)
		return -1;
	return atoi(buf);
}

static void lock_set_owner(int fd, pid_t pid)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%d\n", pid);

	if (pwrite(fd, buf, len, 0) != len || ftruncate(fd, len) < 0)
		pr_debug("cannot write the daemon's pid to its lock file: %s\n", strerror(errno));
}

/*
 * Makes BASE (if missing) and takes its lock: one daemon per base.  On
 * failure one message says why and nothing made here is left behind.
 */
static int daemon__take_base(struct daemon *d, struct start_undo *u)
{
	char path[PATH_MAX];
	struct stat st;
	int fd, err;

	if (mkdir(d->base, 0755) == 0) {
		u->made_base = true;
	} else if (errno != EEXIST) {
		err = -errno;
		fprintf(stderr, "failed: cannot create the base directory %s: %s: create "
			"it, or choose another base.\n", d->base, strerror(-err));
		return err;
	}
	if (stat(d->base, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "failed: the base %s is not a directory: choose another "
			"base.\n", d->base);
		return -ENOTDIR;
	}
	snprintf(path, sizeof(path), "%s/%s", d->base, DAEMON_LOCK);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0)
		u->made_lock = true;
	else if (errno == EEXIST)
		fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		fprintf(stderr, "failed: cannot write in the base directory %s: %s: choose "
			"a base you may write to.\n", d->base, strerror(-err));
		start_undo(d, u);
		return err;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		/* The distro's words, which its own test reads: the line starts "failed:". */
		fprintf(stderr, "failed: another perf daemon (pid %d) owns %s: stop it with "
			"'perf daemon stop', or choose another base.\n", lock_owner(fd), d->base);
		close(fd);
		start_undo(d, u);
		return -EBUSY;
	}
	d->lock_fd = fd;
	return 0;
}

/*
 * The starting command's side of the ready pipe: "1" once the daemon
 * answers requests, else the lines that say why it could not start,
 * written once it has left nothing behind.  The exit status of start.
 */
static int daemon__wait_ready(int fd, pid_t pid, const char *output)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n > 0 && buf[0] == '1')
		return 0;
	if (n <= 0) {
		fprintf(stderr, "failed: the daemon (pid %d) ended while starting: see %s\n",
			pid, output);
		return PERF_EXIT_FAILURE;
	}
	do {
		fwrite(buf, 1, n, stderr);
	} while ((n = read(fd, buf, sizeof(buf))) > 0);
	return PERF_EXIT_FAILURE;
}

/*
 * In the background: a new session, stdio on BASE/output, nothing holding a
 * terminal.  Not a child_process (run-command.h): here the child is the
 * daemon, going on without an exec, and it is the parent that leaves, once
 * the daemon says it is ready; nobody reaps the daemon but init.  0 in
 * the daemon, 1 in the parent (which returns @parent_status, the daemon's
 * word on its start, to the command), or a negative errno.
 */
static int daemon__detach(struct daemon *d, struct start_undo *u, int *ready_fd,
			  int *parent_status)
{
	char path[PATH_MAX];
	int pipefd[2], out, devnull;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/%s", d->base, DAEMON_OUTPUT);
	u->made_output = access(path, F_OK) != 0;
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		fprintf(stderr, "failed: cannot write %s: %s\n", path, strerror(errno));
		return -errno;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		close(out);
		return -errno;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		close(out);
		close(pipefd[0]);
		close(pipefd[1]);
		return -errno;
	}
	if (pid > 0) {
		/* Returns once the daemon answers requests, or says it could not start. */
		lock_set_owner(d->lock_fd, pid);
		close(pipefd[1]);
		close(out);
		*parent_status = daemon__wait_ready(pipefd[0], pid, path);
		close(pipefd[0]);
		return 1;
	}
	close(pipefd[0]);
	setsid();
	/* Every path the daemon uses is absolute: keep no directory busy. */
	if (chdir("/") < 0)
		pr_debug("chdir /: %s\n", strerror(errno));
	devnull = open("/dev/null", O_RDONLY);
	if (devnull >= 0) {
		dup2(devnull, 0);
		close(devnull);
	}
	dup2(out, 1);
	dup2(out, 2);
	close(out);
	*ready_fd = pipefd[1];
	return 0;
}

static int daemon__watch(struct daemon *d)
{
	char *dir = strdup(d->config_path), *slash;
	sigset_t mask;

	if (!dir)
		return -ENOMEM;
	sigemptyset(&mask);
	sigaddset(&mask, SIGCHLD);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	d->signal_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	d->inotify_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	/*
	 * The directory, not the file: an editor that saves by writing a new
	 * file and renaming it over the old one would leave a file watch on
	 * the old inode.
	 */
	slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	if (d->inotify_fd >= 0 &&
	    inotify_add_watch(d->inotify_fd, dir, IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
		daemon__log("cannot watch %s for config changes (%s): send SIGHUP to reload\n",
			    dir, strerror(errno));
	}
	free(dir);
	return d->signal_fd < 0 ? -errno : 0;
}

/* Did the inotify events name our config file? */
static bool config_touched(struct daemon *d)
{
	const char *name = strrchr(d->config_path, '/') + 1;
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	bool touched = false;
	ssize_t len;

	while ((len = read(d->inotify_fd, buf, sizeof(buf))) > 0) {
		for (char *p = buf; p < buf + len; ) {
			struct inotify_event *ev = (struct inotify_event *)p;

			if (ev->len && !strcmp(ev->name, name))
				touched = true;
			p += sizeof(*ev) + ev->len;
		}
	}
	return touched;
}

/* The descriptors the loop waits on: socket, signals, config, each session's answers. */
static struct pollfd *daemon__pollfds(struct daemon *d, int *nr)
{
	struct daemon_session *s;
	struct pollfd *pfd;
	int n = 3;

	list_for_each_entry(s, &d->sessions, node)
		n++;
	pfd = calloc(n, sizeof(*pfd));
	if (!pfd)
		return NULL;
	pfd[0] = (struct pollfd){ .fd = d->sock_fd, .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = d->signal_fd, .events = POLLIN };
	pfd[2] = (struct pollfd){ .fd = d->inotify_fd, .events = POLLIN };
	n = 3;
	/*
	 * Only running recorders: once the last writer of a fifo has gone, it
	 * polls as hung up for good, which would spin the loop.
	 */
	list_for_each_entry(s, &d->sessions, node)
		pfd[n++] = (struct pollfd){ .fd = s->child.pid >= 0 ? s->ack_fd : -1, .events = POLLIN };
	*nr = n;
	return pfd;
}

static void daemon__run(struct daemon *d, int ready_fd)
{
	struct signalfd_siginfo si;

	if (ready_fd >= 0) {
		if (write(ready_fd, "1", 1) != 1)
			daemon__log("the starting command went away\n");
		close(ready_fd);
	}
	while (!d->done) {
		int timeout = daemon__restart_due(d), dumps = daemon__dump_deadlines(d), nr;
		int looks = daemon__follow(d);
		int budget = daemon__budget_due(d);
		struct pollfd *pfd = daemon__pollfds(d, &nr);
		struct daemon_session *s;
		bool reload = false;

		if (!pfd) {
			daemon__log("out of memory: stopping\n");
			break;
		}
		if (dumps >= 0 && (timeout < 0 || dumps < timeout))
			timeout = dumps;
		if (looks >= 0 && (timeout < 0 || looks < timeout))
			timeout = looks;
		if (budget >= 0 && (timeout < 0 || budget < timeout))
			timeout = budget;
		if (poll(pfd, nr, timeout) < 0 && errno != EINTR) {
			free(pfd);
			break;
		}
		while (read(d->signal_fd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo == SIGCHLD)
				daemon__reap(d);
			else if (si.ssi_signo == SIGHUP)
				reload = true;
			else
				d->done = true;
		}
		/* Sessions are as they were when the array was made: a reload comes after. */
		nr = 3;
		list_for_each_entry(s, &d->sessions, node)
			if (pfd[nr++].revents & POLLIN)
				daemon__read_acks(d, s);
		if (d->inotify_fd >= 0 && (pfd[2].revents & POLLIN) && config_touched(d))
			reload = true;
		if (reload && !d->done)
			daemon__reload(d);
		if (pfd[0].revents & POLLIN)
			daemon__serve(d);
		free(pfd);
	}
	daemon__fail_dumps(d, NULL, NULL, "the daemon is stopping");
	daemon__stop_all(d);
}

/*
 * Before start reports ready: a session whose recorder fails before it
 * records makes start fail, the other sessions stopped and nothing left in
 * the base, as when the daemon itself cannot start.  Returns NULL, or the
 * lines that say why (logged too) for the starting command.
 */
static char *daemon__check_sessions(struct daemon *d, struct start_undo *u)
{
	struct daemon_session *s;
	char *text = NULL, *line, *nl;
	size_t len = 0;
	FILE *msg = open_memstream(&text, &len);
	int failures;

	if (!msg)
		return NULL;
	failures = daemon_check__started(&d->sessions, DAEMON_CHECK_TIMEOUT_MS, msg);
	fclose(msg);
	if (!failures) {
		free(text);
		return NULL;
	}
	for (line = text; (nl = strchr(line, '\n')); line = nl + 1)
		daemon__log("%.*s\n", (int)(nl - line), line);
	daemon__log("start failed: killing the sessions\n");
	/*
	 * SIGKILL, not the stop that saves a last dump: of a start that failed
	 * there is nothing to keep, and a dump would leave files in the base.
	 */
	list_for_each_entry(s, &d->sessions, node) {
		daemon_session__ask_stop(s, 2);
		if (s->child.pid >= 0)
			child_process__wait(&s->child, true);
		daemon_check__undo(s->dir);
	}
	start_undo(d, u);
	return text;
}

/*
 * Why start failed, to the starting command: through the ready pipe, whose
 * end closes as this process exits, so that the command returns only once
 * nothing of the daemon is left; or on stderr in the foreground.
 */
static void daemon__report_failure(const char *text, int ready_fd)
{
	size_t len = strlen(text);

	if (ready_fd < 0)
		fputs(text, stderr);
	else if (write(ready_fd, text, len) != (ssize_t)len)
		pr_debug("the starting command went away\n");
}

static void daemon__exit(struct daemon *d)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", d->base, DAEMON_SOCKET);
	if (d->sock_fd >= 0) {
		unlink(path);
		close(d->sock_fd);
	}
	if (d->signal_fd >= 0)
		close(d->signal_fd);
	if (d->inotify_fd >= 0)
		close(d->inotify_fd);
	daemon_sessions__delete(&d->sessions);
	daemon__log("daemon exited\n");
	if (d->stop_client >= 0) {
		if (write(d->stop_client, "x 0\n", 4) != 4)
			pr_debug("the stop command went away\n");
		close(d->stop_client);
	}
	if (d->lock_fd >= 0)
		close(d->lock_fd);
	free(d->base);
	free(d->config_base);
	free(d->config_path);
	free(d->perf);
}

static char *perf_exe(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return strdup(buf);
}

int daemon_server__run(const char *config, const char *base, bool foreground)
{
	struct daemon d = {
		.sessions = LIST_HEAD_INIT(d.sessions),
		.lock_fd = -1, .sock_fd = -1, .signal_fd = -1, .inotify_fd = -1,
		.stop_client = -1,
		.dump_waits = LIST_HEAD_INIT(d.dump_waits),
	};
	struct start_undo undo = { 0 };
	struct daemon_config cfg;
	char *failed;
	int ready_fd = -1, rc = 255, detached;

	d.perf = perf_exe();
	d.config_path = daemon_config__path(config);
	if (!d.perf || !d.config_path)
		goto out_free;
	if (daemon_config__read(&cfg, d.config_path))
		goto out_free;
	d.base = daemon_config__base(&cfg, base);
	if (!base && cfg.base) {
		d.config_base = strdup(cfg.base);
		if (!d.config_base)
			goto out_cfg;
	}
	if (!d.base || daemon__take_base(&d, &undo) || daemon__listen(&d)) {
		start_undo(&d, &undo);
		goto out_cfg;
	}
	undo.made_socket = true;
	detached = foreground ? 0 : daemon__detach(&d, &undo, &ready_fd, &rc);
	/* The parent leaves the base to the daemon, with the status the daemon gave. */
	if (detached > 0)
		goto out_cfg;
	if (detached < 0) {
		start_undo(&d, &undo);
		goto out_cfg;
	}
	if (foreground)
		lock_set_owner(d.lock_fd, getpid());
	/* The recorders are not to die of a client that hung up. */
	signal(SIGPIPE, SIG_IGN);
	d.start = time(NULL);
	daemon__log("daemon started (pid %d) on %s with config %s\n", getpid(), d.base,
		    d.config_path);
	if (daemon__watch(&d) < 0) {
		daemon__log("cannot set up the signal handling: %s\n", strerror(errno));
		start_undo(&d, &undo);
		goto out_cfg;
	}
	daemon__set_budget(&d, cfg.max_size);
	if (daemon__apply(&d, &cfg))
		daemon__log("out of memory starting the sessions\n");
	daemon_config__exit(&cfg);
	failed = daemon__check_sessions(&d, &undo);
	if (failed) {
		daemon__exit(&d);
		daemon__report_failure(failed, ready_fd);
		free(failed);
		return PERF_EXIT_FAILURE;
	}
	daemon__run(&d, ready_fd);
	daemon__exit(&d);
	return 0;

out_cfg:
	daemon_config__exit(&cfg);
out_free:
	if (d.lock_fd >= 0)
		close(d.lock_fd);
	if (d.sock_fd >= 0)
		close(d.sock_fd);
	free(d.base);
	free(d.config_base);
	free(d.config_path);
	free(d.perf);
	return rc;
}
