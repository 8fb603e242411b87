/*
 * The start-up check of perf daemon's sessions (see daemon-check.h).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "daemon-check.h"
#include "daemon-session.h"
#include "debug.h"

/* Where a session's check stands. */
enum check_state {
	CHECK_UNASKED,		/* no ping sent yet: the recorder has not opened its fifo */
	CHECK_ASKED,		/* pinged, its "ack" not come */
	CHECK_DONE,		/* answered, or ended: nothing more to learn */
};

/*
 * Has the recorder of @s ended, and how?  Peeked at with WNOWAIT: the
 * daemon's own reaping, which schedules restarts, still sees it.
 */
static bool check__ended(const struct daemon_session *s, int *status)
{
	siginfo_t info = { 0 };

	if (waitid(P_PID, s->child.pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0 ||
	    info.si_pid != s->child.pid)
		return false;
	/* As wait(2) would have put it, for daemon_session__describe_status(). */
	*status = info.si_code == CLD_EXITED ? W_EXITCODE(info.si_status, 0) :
		  W_EXITCODE(0, info.si_status);
	return true;
}

/* Trims @line's blanks at both ends, in place. */
static char *trim(char *line)
{
	size_t len;

	line += strspn(line, " \t");
	len = strlen(line);
	while (len && strchr(" \t\r\n", line[len - 1]))
		line[--len] = '\0';
	return line;
}

void daemon_check__reason(const char *output, char *buf, size_t size)
{
	char *line = NULL, *text;
	size_t cap = 0;
	bool first = true;
	FILE *in = fopen(output, "re");

	buf[0] = '\0';
	if (!in)
		return;
	while (getline(&line, &cap, in) > 0) {
		text = trim(line);
		if (!strncmp(text, "Error:", 6)) {
			snprintf(buf, size, "%s", trim(text + 6));
			break;
		}
		if (first && *text) {
			snprintf(buf, size, "%s", text);
			first = false;
		}
	}
	free(line);
	fclose(in);
}

/* One step of @s's check: a ping sent, its answer read, or its end seen. */
static enum check_state check__step(struct daemon_session *s, enum check_state state,
				    FILE *err, int *failures)
{
	char line[256], path[PATH_MAX], why[512], how[64];
	int status;

	if (check__ended(s, &status)) {
		/* A recorder whose workload ran and ended (exit 0) did start. */
		if (status == 0)
			return CHECK_DONE;
		snprintf(path, sizeof(path), "%s/%s", s->dir, SESSION_OUTPUT);
		daemon_check__reason(path, why, sizeof(why));
		if (!why[0]) {
			daemon_session__describe_status(status, how, sizeof(how));
			snprintf(why, sizeof(why), "its recorder %s", how);
		}
		fprintf(err, "session '%s' cannot start: %s\n", s->name, why);
		(*failures)++;
		return CHECK_DONE;
	}
	if (state == CHECK_UNASKED)
		return daemon_session__send(s, "ping", 0) ? CHECK_UNASKED : CHECK_ASKED;
	while (daemon_session__read_ack(s, line, sizeof(line)) > 0) {
		if (!strcmp(line, "ack"))
			return CHECK_DONE;
		pr_debug("session '%s' answered '%s' to its start-up ping\n", s->name, line);
	}
	return state;
}

int daemon_check__started(struct list_head *sessions, int timeout_ms, FILE *err)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	long long deadline = daemon_session__now() + timeout_ms;
	struct daemon_session *s;
	enum check_state *state;
	int n = 0, failures = 0;
	bool waiting = true;

	list_for_each_entry(s, sessions, node)
		n++;
	state = calloc(n ? n : 1, sizeof(*state));
	if (!state)
		return 0;
	while (waiting && daemon_session__now() < deadline) {
		int i = 0;

		waiting = false;
		list_for_each_entry(s, sessions, node) {
			/* One that could not even be forked was logged as such, and is retried. */
			if (state[i] != CHECK_DONE && s->child.pid >= 0)
				state[i] = check__step(s, state[i], err, &failures);
			waiting |= state[i] != CHECK_DONE && s->child.pid >= 0;
			i++;
		}
		if (waiting)
			nanosleep(&tick, NULL);
	}
	free(state);
	return failures;
}

void daemon_check__undo(const char *dir)
{
	/* perf.data: the file the recorder began, which it had only just written. */
	static const char * const made[] = {
		SESSION_OUTPUT, SESSION_CONTROL, SESSION_ACK, "perf.data",
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, made[i]);
		unlink(path);
	}
	/* Not empty when it holds dumps of an earlier daemon: they stay. */
	rmdir(dir);
}
