/*
 * A perf daemon session: one `perf record` child, its directory and fifos.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "daemon-session.h"
#include "daemon-target.h"
#include "clockid.h"
#include "debug.h"
#include "record-opts.h"
#include "record-signals.h"

int argv__split(const char *line, char ***argv)
{
	size_t len = strlen(line), max = len / 2 + 2;
	char **words = malloc(max * sizeof(char *) + len + 1);
	char *out, quote = 0;
	int n = 0;
	bool in_word = false;

	if (!words)
		return -ENOMEM;
	out = (char *)(words + max);
	for (const char *p = line; *p; p++) {
		if (quote) {
			if (*p == quote)
				quote = 0;
			else
				*out++ = *p;
			continue;
		}
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			if (in_word) {
				*out++ = '\0';
				in_word = false;
			}
			continue;
		}
		if (!in_word) {
			words[n++] = out;
			in_word = true;
		}
		if (*p == '\'' || *p == '"')
			quote = *p;
		else
			*out++ = *p;
	}
	if (quote) {
		free(words);
		return -EINVAL;
	}
	*out = '\0';
	words[n] = NULL;
	*argv = words;
	return n;
}

struct daemon_session *daemon_session__new(const char *base, const char *name, const char *run)
{
	struct daemon_session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->name = strdup(name);
	s->run = strdup(run);
	if (!s->name || !s->run || asprintf(&s->dir, "%s/session-%s", base, name) < 0) {
		s->dir = NULL;
		daemon_session__delete(s);
		return NULL;
	}
	INIT_LIST_HEAD(&s->node);
	child_process__init(&s->child);
	s->ack_fd = -1;
	s->last_status = -1;
	s->backoff = SESSION_BACKOFF_MIN;
	return s;
}

void daemon_session__delete(struct daemon_session *s)
{
	if (!s)
		return;
	if (s->ack_fd >= 0)
		close(s->ack_fd);
	free(s->name);
	free(s->run);
	free(s->dir);
	daemon_target__delete(s->target);
	free(s);
}

static int make_fifo(const char *dir, const char *file)
{
	char name[PATH_MAX];
	struct stat st;

	snprintf(name, sizeof(name), "%s/%s", dir, file);
	if (mkfifo(name, 0600) == 0)
		return 0;
	if (errno != EEXIST)
		return -errno;
	/* Something else by that name (a file left by hand) would hang the recorder. */
	if (lstat(name, &st) == 0 && S_ISFIFO(st.st_mode))
		return 0;
	if (unlink(name) < 0)
		return -errno;
	return mkfifo(name, 0600) == 0 ? 0 : -errno;
}

/*
 * The exec's failure, where the recorder's own errors would be: the child
 * that failed writes nothing more, so nothing interleaves with this.
 */
static void session__exec_failed(struct daemon_session *s, const char *perf, int err)
{
	char path[PATH_MAX];
	FILE *out;

	snprintf(path, sizeof(path), "%s/%s", s->dir, SESSION_OUTPUT);
	out = fopen(path, "ae");
	if (!out)
		return;
	fprintf(out, "perf daemon: cannot run %s: %s\n", perf, strerror(err));
	fclose(out);
}

/*
 * The recorder, in the session directory: stdin from /dev/null, stdout and
 * stderr to the output file, in a process group of its own (so that its
 * workload can be killed with it) and with every signal unblocked and
 * SIGPIPE, which the daemon ignores, back to its default.  All but
 * SIGUSR2: blocked from the fork on, so that a 'perf daemon signal' sent
 * as soon as the session is listed (after a reload or a restart, when no
 * start-up ping has waited for the recorder) waits for its handler
 * instead of killing it.  The environment tells the recorder (see
 * RECORD_SIGNALS_USR2_ENV), which gives its workload SIGUSR2 unblocked,
 * and gives it the daemon's pid, to leave out (PERF_DAEMON_PID_ENV); it
 * takes both out before its workload starts.
 */
static int session__fork(struct daemon_session *s, const char *perf, bool append)
{
	struct child_process *cp = &s->child;
	char *line, **argv, *args = NULL;
	char daemon_pid[32];
	const char *env[] = { RECORD_SIGNALS_USR2_ENV "=1", daemon_pid, NULL };
	sigset_t usr2, dfl;
	int err;

	if (s->target) {
		args = daemon_target__args(s->target);
		if (!args)
			return -ENOMEM;
	}
	/* argv[0] is "perf", as if run from a shell as "perf record ...". */
	err = asprintf(&line, "perf record --control=fifo:%s,%s %s%s%s", SESSION_CONTROL,
		       SESSION_ACK, s->run, args ? " " : "", args ? args : "");
	free(args);
	if (err < 0)
		return -ENOMEM;
	/* The config check let no unclosed quote through: only memory can fail here. */
	err = argv__split(line, &argv);
	free(line);
	if (err < 0)
		return err;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	child_process__init(cp);
	cp->argv = (const char **)argv;
	cp->file = perf;
	cp->dir = s->dir;
	cp->in_path = "/dev/null";
	cp->out_path = SESSION_OUTPUT;
	cp->out_append = append;
	cp->err_to_out = true;
	cp->new_pgrp = true;
	/*
	 * A daemon that is killed outright takes its recorders with it (each
	 * writes its last dump on SIGTERM): left running, they would share
	 * their fifos with the recorders of the next daemon on the same base.
	 */
	cp->death_signal = SIGTERM;
	cp->mask = &usr2;
	cp->dfl = &dfl;
	snprintf(daemon_pid, sizeof(daemon_pid), PERF_DAEMON_PID_ENV "=%d", (int)getpid());
	cp->env = env;
	err = child_process__start(cp);
	/* Read by the start only. */
	cp->argv = NULL;
	cp->mask = cp->dfl = NULL;
	cp->env = NULL;
	free(argv);
	if (err && cp->pid > 0) {
		session__exec_failed(s, perf, -err);
		err = 0;
	}
	return err;
}

int daemon_session__start(struct daemon_session *s, const char *perf, bool append)
{
	char ack[PATH_MAX];
	int err;

	if (mkdir(s->dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	err = make_fifo(s->dir, SESSION_CONTROL);
	if (!err)
		err = make_fifo(s->dir, SESSION_ACK);
	if (err)
		return err;
	/*
	 * The daemon reads the answers all the time the recorder runs, so an
	 * answer that comes late (a snapshot's) is never lost between readers.
	 * Opened afresh for each recorder: the fifo may have been made anew.
	 */
	if (s->ack_fd >= 0)
		close(s->ack_fd);
	snprintf(ack, sizeof(ack), "%s/%s", s->dir, SESSION_ACK);
	s->ack_fd = open(ack, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (s->ack_fd < 0)
		return -errno;
	s->ack_len = 0;
	err = session__fork(s, perf, append);
	if (err)
		return err;
	s->start = time(NULL);
	s->restart_at = 0;
	return 0;
}

int daemon_session__send(struct daemon_session *s, const char *cmd, int timeout_ms)
{
	char path[PATH_MAX], line[256];
	int ctl, len, err = 0;

	if (s->child.pid < 0)
		return -ENXIO;
	len = snprintf(line, sizeof(line), "%s\n", cmd);
	if (len >= (int)sizeof(line))
		return -E2BIG;
	snprintf(path, sizeof(path), "%s/%s", s->dir, SESSION_CONTROL);
	/*
	 * Opening a fifo that nobody reads for writing fails (ENXIO) instead
	 * of hanging; a recorder that was just started opens it only once it
	 * has parsed its options, which is worth waiting for.
	 */
	for (int waited = 0; ; waited += 10) {
		struct timespec tick = { 0, 10 * 1000 * 1000 };

		ctl = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (ctl >= 0 || errno != ENXIO || waited >= timeout_ms)
			break;
		nanosleep(&tick, NULL);
	}
	if (ctl < 0)
		return -errno;
	/* One write of less than PIPE_BUF: never mixed with another writer's. */
	if (write(ctl, line, len) != len)
		err = errno ? -errno : -EIO;
	close(ctl);
	return err;
}

int daemon_session__read_ack(struct daemon_session *s, char *line, size_t size)
{
	char *nl;
	ssize_t n;

	if (s->ack_fd < 0)
		return -EBADF;
	nl = memchr(s->ack_buf, '\n', s->ack_len);
	if (!nl && s->ack_len < sizeof(s->ack_buf)) {
		n = read(s->ack_fd, s->ack_buf + s->ack_len, sizeof(s->ack_buf) - s->ack_len);
		if (n < 0)
			return errno == EAGAIN ? 0 : -errno;
		s->ack_len += n;
		nl = memchr(s->ack_buf, '\n', s->ack_len);
	}
	if (!nl) {
		/* A line longer than the buffer is not an answer we know: drop it. */
		if (s->ack_len == sizeof(s->ack_buf))
			s->ack_len = 0;
		return 0;
	}
	snprintf(line, size, "%.*s", (int)(nl - s->ack_buf), s->ack_buf);
	s->ack_len -= nl + 1 - s->ack_buf;
	memmove(s->ack_buf, nl + 1, s->ack_len);
	return 1;
}

void daemon_session__ask_stop(struct daemon_session *s, int step)
{
	s->restart_at = 0;
	if (s->child.pid < 0)
		return;
	if (step == 0 && daemon_session__send(s, "stop", 0) == 0)
		return;
	if (step <= 1) {
		child_process__kill(&s->child, SIGTERM);
		return;
	}
	/* Its workload too, which a killed recorder cannot end itself. */
	kill(-s->child.pid, SIGKILL);
	child_process__kill(&s->child, SIGKILL);
}

/* Reaps the recorder if it has ended (no restart is scheduled): true if none runs. */
static bool daemon_session__ended(struct daemon_session *s)
{
	int ret;

	if (s->child.pid < 0)
		return true;
	ret = child_process__wait(&s->child, false);
	return ret == 1 || ret == -ECHILD;
}

/*
 * Reads and drops what the recorder answered: while it stops, nobody waits
 * for its answers, and one left unread would be reported by the recorder.
 */
static void daemon_session__discard_acks(struct daemon_session *s)
{
	char line[256];

	while (daemon_session__read_ack(s, line, sizeof(line)) > 0)
		pr_debug("session '%s' answered '%s' while stopping\n", s->name, line);
}

static bool daemon_sessions__alive(struct list_head *sessions, struct daemon_session *only)
{
	struct daemon_session *s;
	bool alive = false;

	list_for_each_entry(s, sessions, node) {
		if (only && s != only)
			continue;
		daemon_session__discard_acks(s);
		alive |= !daemon_session__ended(s);
	}
	return alive;
}

bool daemon_sessions__stop(struct list_head *sessions, struct daemon_session *only, int step_ms)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	struct daemon_session *s;
	bool alive = true;

	for (int step = 0; step < 3 && alive; step++) {
		/* By the clock: a busy machine must not stretch the documented steps. */
		long long end = daemon_session__now() + step_ms;

		list_for_each_entry(s, sessions, node)
			if (!only || s == only)
				daemon_session__ask_stop(s, step);
		while ((alive = daemon_sessions__alive(sessions, only)) && daemon_session__now() < end)
			nanosleep(&tick, NULL);
	}
	return alive;
}

long long daemon_session__now(void)
{
	return now_ns() / 1000000;
}

bool daemon_session__collect(struct daemon_session *s)
{
	if (child_process__wait(&s->child, false) != 1)
		return false;
	s->last_status = s->child.status;
	return true;
}

void daemon_session__schedule_restart(struct daemon_session *s)
{
	if (time(NULL) - s->start >= SESSION_BACKOFF_RESET)
		s->backoff = SESSION_BACKOFF_MIN;
	s->restart_at = daemon_session__now() + s->backoff * 1000LL;
	s->backoff = s->backoff * 2 > SESSION_BACKOFF_MAX ? SESSION_BACKOFF_MAX : s->backoff * 2;
}

enum session_answer daemon_session__parse_answer(const char *line, const char **arg)
{
	*arg = line;
	if (!strcmp(line, "ack"))
		return ANSWER_ACK;
	if (!strncmp(line, "ack ", 4)) {
		*arg = line + 4 + strspn(line + 4, " ");
		return **arg ? ANSWER_DUMP : ANSWER_ACK;
	}
	/*
	 * Whatever the words ("snapshot needs ...", "the dump failed ..."): the
	 * recorder answers in order, and a dump asked for is what is waiting.
	 */
	if (!strncmp(line, "error:", 6)) {
		*arg = line + 6 + strspn(line + 6, " ");
		return ANSWER_ERROR;
	}
	return ANSWER_OTHER;
}

void daemon_session__describe_status(int status, char *buf, size_t size)
{
	if (status < 0)
		snprintf(buf, size, "none");
	else if (WIFEXITED(status))
		snprintf(buf, size, "exited %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "killed by signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, size, "status 0x%x", status);
}
