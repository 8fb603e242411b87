/*
 * The control channel's reader (util/control.c) over a pipe: commands split
 * across writes, several in one write, NUL as an end of line, blank lines,
 * a line too long for the buffer, unknown words, and answers.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include "tests.h"
#include "util/control.h"
#include "util/debug.h"

static int control_feed(int fd, const char *s, size_t len)
{
	return write(fd, s, len) == (ssize_t)len ? 0 : -1;
}

static int test__control_channel(void)
{
	struct control c = CONTROL_INIT;
	char arg[CONTROL_LINE_MAX], spec[64], ack[128], big[CONTROL_LINE_MAX + 100];
	int cmdp[2], ackp[2];
	ssize_t n;

	TEST_ASSERT_VAL("pipes", !pipe(cmdp) && !pipe(ackp));
	snprintf(spec, sizeof(spec), "fd:%d,%d", cmdp[0], ackp[1]);
	TEST_ASSERT_VAL("open fd: channel", !control__open(&c, spec));
	TEST_ASSERT_VAL("nothing yet", control__next(&c, arg) == CONTROL_NONE);

	/* A command in two writes is one command, once its newline is there. */
	TEST_ASSERT_VAL("write", !control_feed(cmdp[1], "sna", 3));
	TEST_ASSERT_VAL("half a command", control__next(&c, arg) == CONTROL_NONE);
	TEST_ASSERT_VAL("write", !control_feed(cmdp[1], "pshot\n", 6));
	TEST_ASSERT_VAL("snapshot", control__next(&c, arg) == CONTROL_SNAPSHOT);

	/* Several in one write, NUL ends a line too, blanks and spaces are no commands. */
	TEST_ASSERT_VAL("write", !control_feed(cmdp[1], "ping\0\n  \nevlist -v \r\nstop\n", 26));
	TEST_ASSERT_VAL("ping", control__next(&c, arg) == CONTROL_PING);
	TEST_ASSERT_VAL("evlist", control__next(&c, arg) == CONTROL_EVLIST);
	TEST_ASSERT_VAL("evlist's argument", !strcmp(arg, "-v"));
	TEST_ASSERT_VAL("stop", control__next(&c, arg) == CONTROL_STOP);
	TEST_ASSERT_VAL("then nothing", control__next(&c, arg) == CONTROL_NONE);

	/* A word that only starts like a command is not that command. */
	TEST_ASSERT_VAL("write", !control_feed(cmdp[1], "pingpong\nenable\n", 16));
	TEST_ASSERT_VAL("pingpong", control__next(&c, arg) == CONTROL_UNKNOWN);
	TEST_ASSERT_VAL("named", !strcmp(arg, "pingpong"));
	TEST_ASSERT_VAL("enable", control__next(&c, arg) == CONTROL_ENABLE);

	/* A line longer than the buffer is refused once, and the next one is read. */
	memset(big, 'x', sizeof(big));
	TEST_ASSERT_VAL("write", !control_feed(cmdp[1], big, sizeof(big)));
	TEST_ASSERT_VAL("write", !control_feed(cmdp[1], "\ndisable\n", 9));
	TEST_ASSERT_VAL("too long", control__next(&c, arg) == CONTROL_TOO_LONG);
	TEST_ASSERT_VAL("disable", control__next(&c, arg) == CONTROL_DISABLE);

	/* Answers are whole lines. */
	control__reply(&c, "ack");
	control__reply(&c, "ack %s", "/tmp/perf.data.1");
	n = read(ackp[0], ack, sizeof(ack) - 1);
	TEST_ASSERT_VAL("answers", n > 0);
	ack[n] = '\0';
	TEST_ASSERT_VAL("answer lines", !strcmp(ack, "ack\nack /tmp/perf.data.1\n"));

	/* The writer gone: no more commands, no busy loop on end of file. */
	close(cmdp[1]);
	TEST_ASSERT_VAL("end of file", control__next(&c, arg) == CONTROL_NONE);
	TEST_ASSERT_VAL("still nothing", control__next(&c, arg) == CONTROL_NONE);
	control__close(&c);
	close(cmdp[0]);
	close(ackp[0]);
	close(ackp[1]);

	/* Specs that are not fifo:/fd:, or name nothing. */
	TEST_ASSERT_VAL("no prefix", control__open(&c, "ctl") < 0);
	TEST_ASSERT_VAL("empty fifo:", control__open(&c, "fifo:") < 0);
	TEST_ASSERT_VAL("fd: not a number", control__open(&c, "fd:x") < 0);
	TEST_ASSERT_VAL("fd: not open", control__open(&c, "fd:1000000") < 0);
	TEST_ASSERT_VAL("missing FIFO", control__open(&c, "fifo:/nonexistent/ctl") < 0);
	return TEST_OK;
}

DEFINE_SUITE(control_channel, "perf record --control: commands split, joined, too long; answers");

/* Answers nobody reads: those the full pipe refused and those left in it are counted. */
/* The two pipes of a test's channel, closed. */
static void close_pipes(int cmdp[2], int ackp[2])
{
	close(cmdp[0]);
	close(cmdp[1]);
	close(ackp[0]);
	close(ackp[1]);
}

static int test__control_undelivered(void)
{
	struct control c = CONTROL_INIT;
	unsigned int not_written, unread;
	char spec[64], buf[4096];
	int cmdp[2], ackp[2], ret = TEST_FAIL;

	TEST_ASSERT_VAL("pipes", !pipe(cmdp) && !pipe(ackp));
	/* One page: 1024 answers "ack\n" fill it. */
	if (fcntl(ackp[1], F_SETPIPE_SZ, 4096) != 4096)
		goto out;
	snprintf(spec, sizeof(spec), "fd:%d,%d", cmdp[0], ackp[1]);
	if (control__open(&c, spec))
		goto out;
	for (int i = 0; i < 1100; i++)
		control__reply(&c, "ack");
	if (control__undelivered(&c, &not_written, &unread) != 1100 || not_written != 76 ||
	    unread != 1024) {
		pr_debug("1100 answers, 1024 fit: %u not written, %u unread\n", not_written, unread);
		goto out_close;
	}
	/* A reader takes 100 of them, then the rest. */
	if (read(ackp[0], buf, 400) != 400 ||
	    control__undelivered(&c, &not_written, &unread) != 76 + 924 || unread != 924)
		goto out_close;
	if (read(ackp[0], buf, sizeof(buf)) != 924 * 4 ||
	    control__undelivered(&c, &not_written, &unread) != 76 || unread)
		goto out_close;
	ret = TEST_OK;
out_close:
	control__close(&c);
out:
	close_pipes(cmdp, ackp);
	return ret;
}

DEFINE_SUITE(control_undelivered, "perf record --control: answers nobody read are counted");

/* What the commands did, as a recorder would have done it. */
struct served {
	int enabled, disabled, snapshots, stops, evlists, verbose;
	bool can_dump;
};

static void served_enable(void *arg, bool on)
{
	struct served *s = arg;

	*(on ? &s->enabled : &s->disabled) += 1;
}

static bool served_snapshot(void *arg)
{
	struct served *s = arg;

	s->snapshots += s->can_dump;
	return s->can_dump;
}

static void served_stop(void *arg)
{
	((struct served *)arg)->stops++;
}

static void served_evlist(void *arg, bool verbose)
{
	struct served *s = arg;

	s->evlists++;
	s->verbose += verbose;
}

/* The answers waiting in @fd, as one string. */
static const char *answers(int fd, char *buf, size_t size)
{
	ssize_t n = read(fd, buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static int test__control_serve(void)
{
	struct control c = CONTROL_INIT;
	struct served s = { .can_dump = false };
	const struct control_ops ops = {
		.enable = served_enable, .snapshot = served_snapshot,
		.stop = served_stop, .evlist = served_evlist, .arg = &s,
	};
	const char *cmds = "enable\ndisable\nping\nsnapshot\nevlist -x\nevlist -v\nfoo\nstop\n";
	char spec[64], buf[1024];
	int cmdp[2], ackp[2];

	TEST_ASSERT_VAL("pipes", !pipe(cmdp) && !pipe(ackp));
	snprintf(spec, sizeof(spec), "fd:%d,%d", cmdp[0], ackp[1]);
	TEST_ASSERT_VAL("open fd: channel", !control__open(&c, spec));
	TEST_ASSERT_VAL("write", !control_feed(cmdp[1], cmds, strlen(cmds)));
	control__serve(&c, &ops);
	TEST_ASSERT_VAL("done", s.enabled == 1 && s.disabled == 1 && !s.snapshots &&
			s.stops == 1 && s.evlists == 1 && s.verbose == 1);
	TEST_ASSERT_VAL(buf, !strcmp(answers(ackp[0], buf, sizeof(buf)),
		"ack\nack\nack\nerror: snapshot needs --switch-output (or --switch-output-event)\n"
		"error: unknown evlist option '-x' (use evlist or evlist -v)\nack\n"
		"error: unknown command 'foo' (enable, disable, snapshot, ping, stop, evlist [-v])\n"
		"ack\n"));

	/* Snapshots are answered when their dump is done, each with its file. */
	s.can_dump = true;
	TEST_ASSERT_VAL("write", !control_feed(cmdp[1], "snapshot\nsnapshot\n", 18));
	control__serve(&c, &ops);
	TEST_ASSERT_VAL("two snapshots", s.snapshots == 2 && c.snapshots_waiting == 2);
	control__answer_snapshots(&c, "/tmp/perf.data.1");
	TEST_ASSERT_VAL(buf, !strcmp(answers(ackp[0], buf, sizeof(buf)),
				     "ack /tmp/perf.data.1\nack /tmp/perf.data.1\n"));
	TEST_ASSERT_VAL("write", !control_feed(cmdp[1], "snapshot\n", 9));
	control__serve(&c, &ops);
	control__answer_snapshots(&c, NULL);
	control__answer_snapshots(&c, "/tmp/perf.data.2");
	TEST_ASSERT_VAL(buf, !strcmp(answers(ackp[0], buf, sizeof(buf)),
		"error: the dump failed (see the recorder's messages); recording goes on\n"));
	control__close(&c);
	close_pipes(cmdp, ackp);
	return TEST_OK;
}

DEFINE_SUITE(control_serve, "perf record --control: each command done and answered, snapshots once dumped");
