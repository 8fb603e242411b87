#ifndef PERF_UTIL_DAEMON_SESSION_H
#define PERF_UTIL_DAEMON_SESSION_H
/*
 * One named record session of perf daemon: a `perf record` child run in
 * its own directory BASE/session-NAME, with
 *
 *	output	its stdout and stderr
 *	control	a fifo it reads commands from (perf record --control=fifo:...)
 *	ack	a fifo it answers them on
 *
 * and its dumps.  The object starts, signals, pings, stops and reaps the
 * child, and remembers how the last one ended so a recorder that dies is
 * started again after a growing delay instead of in a tight loop.
 */
#include <stdbool.h>
#include <time.h>
#include <sys/types.h>
#include "list.h"
#include "run-command.h"

struct daemon_target;

#define SESSION_OUTPUT	"output"
#define SESSION_CONTROL	"control"
#define SESSION_ACK	"ack"

/* First delay before restarting a recorder that died, and its cap (seconds). */
#define SESSION_BACKOFF_MIN	1
#define SESSION_BACKOFF_MAX	60
/* A recorder that ran at least this long (seconds) starts the delays afresh. */
#define SESSION_BACKOFF_RESET	60

struct daemon_session {
	struct list_head node;
	char *name;
	char *run;		/* perf record's arguments, as the config wrote them */
	char *dir;		/* BASE/session-NAME */
	struct daemon_target *target;	/* the process or cgroup followed (owned); NULL: none */
	struct child_process child;	/* the recorder; .pid -1 while none runs */
	time_t start;		/* when the current (or last) recorder started */
	int restarts;		/* recorders started again after one died */
	int last_status;	/* wait(2) status of the last one that died; -1: none did */
	int backoff;		/* seconds to wait before the next restart */
	long long restart_at;	/* when to start it again (daemon_session__now()); 0: not to */
	int ack_fd;		/* the ack fifo, open for reading while the session exists; -1 */
	char ack_buf[256];	/* what was read of it, up to a whole line */
	size_t ack_len;
};

/* A stopped session named @name running `perf record @run` in @base/session-@name. */
struct daemon_session *daemon_session__new(const char *base, const char *name, const char *run);
void daemon_session__delete(struct daemon_session *s);

/*
 * Forks `@perf record --control=fifo:control,ack <run>` (followed by the
 * target's -p or -G, when the session follows one) in the session
 * directory (created if needed, with the fifos, whose ack end the session
 * keeps open for reading) with its own process group and the
 * default signal mask.  @append keeps the output of the recorder before
 * (a restart); otherwise the output file starts empty.  0 or -errno; a
 * recorder that cannot be exec'd says so in the output file, and is
 * reaped (exit 127) and restarted as one that died.
 */
int daemon_session__start(struct daemon_session *s, const char *perf, bool append);
/*
 * Writes the command @cmd (e.g. "snapshot") to the control fifo, waiting
 * up to @timeout_ms for a just-started recorder to open it.  0, -ENXIO
 * when no recorder reads it, or another -errno.
 */
int daemon_session__send(struct daemon_session *s, const char *cmd, int timeout_ms);
/*
 * The next whole line the recorder answered on the ack fifo, without its
 * newline: 1 with it in @line, 0 when none has fully arrived, or -errno.
 */
int daemon_session__read_ack(struct daemon_session *s, char *line, size_t size);
/*
 * One step of ending the recorder: 0 the control "stop" command (SIGTERM
 * when nothing reads the fifo), 1 SIGTERM, 2 SIGKILL to its process group.
 * Cancels a pending restart.
 */
void daemon_session__ask_stop(struct daemon_session *s, int step);
/*
 * Stops the sessions of @sessions (their nodes), or only @only of them, all
 * at once: the three steps of ask_stop(), each given @step_ms by the clock,
 * until every one is reaped.  True if some recorder would not end.
 */
bool daemon_sessions__stop(struct list_head *sessions, struct daemon_session *only, int step_ms);
/*
 * The server's reap of a recorder that ended, in two halves (it answers
 * the session's requests between them): collects the exit if there was
 * one, noting its status (true), and schedules nothing ...
 */
bool daemon_session__collect(struct daemon_session *s);
/*
 * ... then the restart after the current delay, which then doubles up to
 * the cap, or starts over after a long run.
 */
void daemon_session__schedule_restart(struct daemon_session *s);
/* The clock restarts are scheduled on: monotonic milliseconds. */
long long daemon_session__now(void);
/* What a line the recorder answered on the ack fifo says. */
enum session_answer {
	ANSWER_ACK,		/* "ack": a command done (ping, stop, ...) */
	ANSWER_DUMP,		/* "ack FILE": a snapshot's dump is complete; *arg: FILE */
	ANSWER_ERROR,		/* "error: REASON": the command failed (no dump); *arg: REASON */
	ANSWER_OTHER,		/* a line we do not know */
};

enum session_answer daemon_session__parse_answer(const char *line, const char **arg);
/* "exited 129", "killed by signal 9 (Killed)": how @status ended a process. */
void daemon_session__describe_status(int status, char *buf, size_t size);

/*
 * Splits a run line into words at blanks; single or double quotes keep
 * blanks inside a word.  Returns the number of words, with *@argv a
 * NULL-terminated array (one allocation: free(*argv) frees it all), or
 * -EINVAL for an unclosed quote, -ENOMEM.
 */
int argv__split(const char *line, char ***argv);

#endif
