#ifndef PERF_UTIL_CONTROL_H
#define PERF_UTIL_CONTROL_H
/*
 * The recorder's control channel (--control): plain-text commands, one a
 * line, read from a FIFO or an inherited file descriptor; answers go to an
 * optional second one.  Both ends are non-blocking: a command that has not
 * fully arrived waits for the rest, and an answer nobody reads never stops
 * the recorder (it is dropped once the pipe is full, with a warning the
 * first time and a count of every answer never read at close).
 */
#include <stdbool.h>
#include <stddef.h>

#define CONTROL_LINE_MAX 256
/* How many of the last answers are remembered to count the unread ones. */
#define CONTROL_SENT_MAX 1024

enum control_cmd {
	CONTROL_NONE,		/* no whole command yet */
	CONTROL_ENABLE,
	CONTROL_DISABLE,
	CONTROL_SNAPSHOT,
	CONTROL_PING,
	CONTROL_STOP,
	CONTROL_EVLIST,		/* arg: "", "-v" */
	CONTROL_UNKNOWN,	/* arg: the line */
	CONTROL_TOO_LONG,	/* a line over CONTROL_LINE_MAX, thrown away */
};

struct control {
	int ctl_fd, ack_fd;	/* -1 when absent */
	bool close_fds;		/* the FIFOs are ours; fd: ones are the caller's */
	char buf[CONTROL_LINE_MAX];
	size_t len;
	bool skipping;		/* inside a line that was too long */
	bool eof;		/* fd: the writer closed its end */
	/*
	 * Answers nobody took, reported at close: those that could not be
	 * written, and the lengths of the last ones written, to count those
	 * still unread in the pipe.
	 */
	unsigned int snapshots_waiting;	/* accepted, answered once their dump is done */
	unsigned int not_written;
	unsigned int nr_sent;
	unsigned short sent_len[CONTROL_SENT_MAX];
};

#define CONTROL_INIT { .ctl_fd = -1, .ack_fd = -1 }

/*
 * "fifo:CTL[,ACK]" (existing FIFOs, opened read-write so that writers may
 * come and go) or "fd:CTL[,ACK]".  Prints what was wrong; -errno.
 */
int control__open(struct control *c, const char *spec);
/* Whether @spec has one of those forms (what it names is checked on open); says why not. */
int control__check_spec(const char *spec);
/* Says how many answers were never read (see control__undelivered), then closes. */
void control__close(struct control *c);
/*
 * Answers that did not reach a reader: *@not_written could not be written
 * (the pipe was full, or its reader gone), *@unread are still in the pipe.
 * Their sum; the second is a lower bound past CONTROL_SENT_MAX answers.
 */
unsigned int control__undelivered(const struct control *c, unsigned int *not_written,
				  unsigned int *unread);
bool control__active(const struct control *c);
/*
 * The next whole command, if any has arrived: its kind, and in @arg (of
 * CONTROL_LINE_MAX bytes) what follows the command word.  Reads what is
 * there without waiting.
 */
enum control_cmd control__next(struct control *c, char *arg);
/* Writes one line ("ack", "ack FILE", "error: ...") on the ack channel, if any. */
void control__reply(struct control *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* What the commands do, the recorder's; each is given @arg. */
struct control_ops {
	void (*enable)(void *arg, bool on);	/* 'enable', 'disable' */
	/* 'snapshot': false if there is no dump to take; else answered by control__answer_snapshots. */
	bool (*snapshot)(void *arg);
	void (*stop)(void *arg);
	void (*evlist)(void *arg, bool verbose);	/* 'evlist [-v]' */
	void *arg;
};

/*
 * Every whole command that has arrived, done through @ops and answered:
 * "ack", or "error: ..." saying what was wrong and what is understood.
 */
void control__serve(struct control *c, const struct control_ops *ops);
/*
 * Answers the snapshots waiting for the dump just taken: "ack FILE" with
 * the file it completed, or with @file NULL that it failed.
 */
void control__answer_snapshots(struct control *c, const char *file);

#endif
