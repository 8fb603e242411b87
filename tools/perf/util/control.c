/*
 * The control channel of perf record: see control.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "control.h"
#include "debug.h"

static int control__open_fifo(const char *path, const char *what)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0) {
		pr_err("Cannot use '%s' as the control %s FIFO: %s (create it with mkfifo).\n",
		       path, what, strerror(errno));
		return -errno;
	}
	if (!S_ISFIFO(st.st_mode)) {
		pr_err("Cannot use '%s' as the control %s FIFO: not a FIFO (create one with "
		       "mkfifo).\n", path, what);
		return -EINVAL;
	}
	/* Read-write: no end-of-file when a client closes, no block when none is there. */
	fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		pr_err("Cannot open the control %s FIFO '%s': %s\n", what, path, strerror(errno));
		return -errno;
	}
	return fd;
}

static int control__parse_fd(const char *s, const char *what)
{
	char *end;
	long fd;

	errno = 0;
	fd = strtol(s, &end, 10);
	if (errno || end == s || *end || fd < 0 || fd > 1 << 20) {
		pr_err("Invalid control %s descriptor '%s': give a number, as in fd:10,11.\n",
		       what, s);
		return -EINVAL;
	}
	if (fcntl(fd, F_GETFD) < 0) {
		pr_err("The control %s descriptor %ld is not open.\n", what, fd);
		return -EBADF;
	}
	return fd;
}

/* What follows "fifo:" or "fd:" (*fifo says which), or NULL, said why. */
static const char *control__spec(const char *spec, bool *fifo)
{
	const char *rest = NULL;

	*fifo = !strncmp(spec, "fifo:", 5);
	if (*fifo)
		rest = spec + 5;
	else if (!strncmp(spec, "fd:", 3))
		rest = spec + 3;
	if (!rest || !*rest || *rest == ',') {
		pr_err("Invalid --control '%s': use fifo:CTL[,ACK] or fd:CTL[,ACK].\n", spec);
		return NULL;
	}
	return rest;
}

int control__check_spec(const char *spec)
{
	bool fifo;

	return control__spec(spec, &fifo) ? 0 : -EINVAL;
}

/* One end: a FIFO opened here, or a descriptor we were given, which must not block the loop. */
static int control__open_end(const char *name, bool fifo, const char *what)
{
	int fd = fifo ? control__open_fifo(name, what) : control__parse_fd(name, what);

	if (fd >= 0 && !fifo)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	return fd;
}

int control__open(struct control *c, const char *spec)
{
	const char *rest;
	char *s, *ack;
	bool fifo;
	int fd;

	*c = (struct control)CONTROL_INIT;
	rest = control__spec(spec, &fifo);
	if (!rest)
		return -EINVAL;
	s = strdup(rest);
	if (!s)
		return -ENOMEM;
	ack = strchr(s, ',');
	if (ack)
		*ack++ = '\0';
	c->close_fds = fifo;
	fd = control__open_end(s, fifo, "command");
	if (fd >= 0) {
		c->ctl_fd = fd;
		if (ack && *ack) {
			fd = control__open_end(ack, fifo, "ack");
			if (fd >= 0)
				c->ack_fd = fd;
		}
	}
	free(s);
	if (fd < 0) {
		control__close(c);
		return fd;
	}
	return 0;
}

/* Bytes written to the ack pipe that no reader has taken yet; 0 if it cannot tell. */
static int control__pending_bytes(const struct control *c)
{
	struct stat st;
	int n;

	if (c->ack_fd < 0 || fstat(c->ack_fd, &st) < 0 || !S_ISFIFO(st.st_mode) ||
	    ioctl(c->ack_fd, FIONREAD, &n) < 0)
		return 0;
	return n;
}

unsigned int control__undelivered(const struct control *c, unsigned int *not_written,
				  unsigned int *unread)
{
	int left = control__pending_bytes(c);
	unsigned int i;

	/* The unread bytes are the newest answers' (a pipe is read from its front). */
	for (i = 0; left > 0 && i < c->nr_sent && i < CONTROL_SENT_MAX; i++)
		left -= c->sent_len[(c->nr_sent - 1 - i) % CONTROL_SENT_MAX];
	*not_written = c->not_written;
	*unread = i;
	return *not_written + *unread;
}

/* At the end: answers never read are said once, after a reader's last chance to take them. */
static void control__report_undelivered(const struct control *c)
{
	struct timespec tick = { 0, 5 * 1000 * 1000 };
	unsigned int not_written, unread;

	for (int i = 0; i < 20 && control__pending_bytes(c) > 0; i++)
		nanosleep(&tick, NULL);
	if (!control__undelivered(c, &not_written, &unread))
		return;
	pr_warning("Warning: %u control answer%s never read (%u could not be written, %u "
		   "left in the ack channel): read it while sending commands.\n",
		   not_written + unread, not_written + unread == 1 ? " was" : "s were",
		   not_written, unread);
}

void control__close(struct control *c)
{
	control__report_undelivered(c);
	if (c->close_fds) {
		if (c->ctl_fd >= 0)
			close(c->ctl_fd);
		if (c->ack_fd >= 0)
			close(c->ack_fd);
	}
	c->ctl_fd = c->ack_fd = -1;
}

bool control__active(const struct control *c)
{
	return c->ctl_fd >= 0;
}

static enum control_cmd control__classify(char *line, char *arg)
{
	static const struct {
		const char *word;
		enum control_cmd cmd;
	} words[] = {
		{ "enable", CONTROL_ENABLE },	{ "disable", CONTROL_DISABLE },
		{ "snapshot", CONTROL_SNAPSHOT }, { "ping", CONTROL_PING },
		{ "stop", CONTROL_STOP },	{ "evlist", CONTROL_EVLIST },
	};
	size_t n = strlen(line);
	char *rest;

	while (n && (line[n - 1] == '\r' || line[n - 1] == ' ' || line[n - 1] == '\t'))
		line[--n] = '\0';
	while (*line == ' ' || *line == '\t')
		line++;
	rest = line + strcspn(line, " \t");
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (strlen(words[i].word) == (size_t)(rest - line) &&
		    !strncmp(line, words[i].word, rest - line)) {
			rest += strspn(rest, " \t");
			snprintf(arg, CONTROL_LINE_MAX, "%s", rest);
			return words[i].cmd;
		}
	}
	snprintf(arg, CONTROL_LINE_MAX, "%s", line);
	return CONTROL_UNKNOWN;
}

/* A whole line (ended by a newline or a NUL) out of the buffer, if there is one. */
static enum control_cmd control__take_line(struct control *c, char *arg)
{
	for (size_t i = 0; i < c->len; i++) {
		char line[CONTROL_LINE_MAX];
		bool skipped = c->skipping;

		if (c->buf[i] != '\n' && c->buf[i] != '\0')
			continue;
		memcpy(line, c->buf, i);
		line[i] = '\0';
		memmove(c->buf, c->buf + i + 1, c->len - i - 1);
		c->len -= i + 1;
		c->skipping = false;
		if (skipped)
			return CONTROL_TOO_LONG;
		/* Empty lines (a client's extra newline) are not commands. */
		if (!line[strspn(line, " \t\r")]) {
			i = (size_t)-1;
			continue;
		}
		return control__classify(line, arg);
	}
	/* No end in a full buffer: throw the line away up to its end. */
	if (c->len == sizeof(c->buf)) {
		c->len = 0;
		c->skipping = true;
	}
	return CONTROL_NONE;
}

enum control_cmd control__next(struct control *c, char *arg)
{
	enum control_cmd cmd;
	ssize_t n;

	if (c->ctl_fd < 0)
		return CONTROL_NONE;
	for (;;) {
		cmd = control__take_line(c, arg);
		if (cmd != CONTROL_NONE || c->eof)
			return cmd;
		n = read(c->ctl_fd, c->buf + c->len, sizeof(c->buf) - c->len);
		if (n > 0) {
			c->len += n;
			continue;
		}
		if (n == 0) {
			/* An fd: channel whose writer went: nothing more will come. */
			c->eof = true;
		} else if (errno == EINTR) {
			continue;
		}
		return CONTROL_NONE;
	}
}

void control__reply(struct control *c, const char *fmt, ...)
{
	char line[CONTROL_LINE_MAX + 64 + 4096];
	va_list ap;
	int n;

	if (c->ack_fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	/* A whole line or nothing: a reader that is not there cannot stop us. */
	if (write(c->ack_fd, line, n) == n) {
		c->sent_len[c->nr_sent++ % CONTROL_SENT_MAX] = n;
		return;
	}
	if (c->not_written++ == 0)
		pr_warning("Warning: the control answer '%.*s' could not be written to the ack "
			   "channel (%s): is anyone reading it?  Answers lost are counted at exit.\n",
			   n - 1, line, errno == EAGAIN ? "it is full" : strerror(errno));
}

/* One command done and answered, but a snapshot: that is answered when its dump is. */
static void control__serve_one(struct control *c, const struct control_ops *ops,
			       enum control_cmd cmd, const char *arg)
{
	switch (cmd) {
	case CONTROL_ENABLE:
	case CONTROL_DISABLE:
		ops->enable(ops->arg, cmd == CONTROL_ENABLE);
		break;
	case CONTROL_SNAPSHOT:
		if (!ops->snapshot(ops->arg)) {
			control__reply(c, "error: snapshot needs --switch-output (or "
				       "--switch-output-event)");
			return;
		}
		c->snapshots_waiting++;
		return;
	case CONTROL_PING:
		break;
	case CONTROL_STOP:
		ops->stop(ops->arg);
		break;
	case CONTROL_EVLIST:
		if (*arg && strcmp(arg, "-v")) {
			control__reply(c, "error: unknown evlist option '%s' (use evlist or "
				       "evlist -v)", arg);
			return;
		}
		ops->evlist(ops->arg, *arg);
		break;
	case CONTROL_TOO_LONG:
		control__reply(c, "error: command too long (at most %d bytes)",
			       CONTROL_LINE_MAX - 1);
		return;
	default:
		control__reply(c, "error: unknown command '%s' (enable, disable, snapshot, ping, "
			       "stop, evlist [-v])", arg);
		return;
	}
	control__reply(c, "ack");
}

void control__serve(struct control *c, const struct control_ops *ops)
{
	char arg[CONTROL_LINE_MAX];
	enum control_cmd cmd;

	while ((cmd = control__next(c, arg)) != CONTROL_NONE)
		control__serve_one(c, ops, cmd, arg);
}

void control__answer_snapshots(struct control *c, const char *file)
{
	for (; c->snapshots_waiting > 0; c->snapshots_waiting--) {
		if (file)
			control__reply(c, "ack %s", file);
		else
			control__reply(c, "error: the dump failed (see the recorder's messages); "
				       "recording goes on");
	}
}
