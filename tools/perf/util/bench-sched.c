/*
 * perf bench sched messaging and pipe: the tasks, their channels, and the
 * start line they all wait at, so that the time measured is their work
 * and not the forks or thread creations before it.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "bench-sched.h"
#include "fd-io.h"

/* One task of a benchmark: a thread, or a forked process running the same function. */
struct bench_task {
	pid_t pid;
	pthread_t thread;
	bool is_thread;
};

/* A task's function returns this when it failed (a thread) or exits 1 (a process). */
#define TASK_FAILED ((void *)1)

static int bench_task__start(struct bench_task *t, bool thread, void *(*fn)(void *), void *arg)
{
	int err;

	t->is_thread = thread;
	if (thread) {
		err = pthread_create(&t->thread, NULL, fn, arg);
		if (err)
			fprintf(stderr, "perf bench: cannot start a thread: %s\n", strerror(err));
		return -err;
	}
	t->pid = fork();
	if (t->pid < 0) {
		err = errno;
		fprintf(stderr, "perf bench: cannot fork: %s\n", strerror(err));
		return -err;
	}
	if (!t->pid)
		_exit(fn(arg) == TASK_FAILED);
	return 0;
}

/* Ends @t early: the others it works with failed to start. */
static void bench_task__stop(struct bench_task *t)
{
	if (t->is_thread)
		pthread_cancel(t->thread);
	else
		kill(t->pid, SIGKILL);
}

/* Waits for @t: 0 if it did its work, -EIO if it failed (it said why). */
static int bench_task__wait(struct bench_task *t)
{
	void *ret = NULL;
	int status;

	if (t->is_thread) {
		pthread_join(t->thread, &ret);
		return ret == TASK_FAILED ? -EIO : 0;
	}
	while (waitpid(t->pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -EIO;
}

/*
 * The start line: each task says it is ready on one channel and waits for
 * the other to become readable.  One byte written to it, never read,
 * wakes every waiter at once, processes and threads alike.
 */
struct start_line {
	int ready[2];
	int go[2];
};

/* One channel: a pipe, or (as the distro's messaging makes them) a socketpair. */
static int channel__open(int fds[2], bool use_pipe)
{
	return (use_pipe ? pipe(fds) : socketpair(AF_UNIX, SOCK_STREAM, 0, fds)) ? -errno : 0;
}

/*
 * The channels are of the benchmark's kind: over a socketpair, the bytes
 * of hundreds of tasks saying they are ready outgrow the sender's buffer
 * (a byte costs a whole socket buffer there), so some tasks wait to say
 * it, as with the distro's; the off-CPU time a recording of it shows
 * counts those waits too.
 */
static int start_line__init(struct start_line *s, bool use_pipe)
{
	int err = channel__open(s->ready, use_pipe);

	if (err)
		return err;
	err = channel__open(s->go, use_pipe);
	if (err) {
		close(s->ready[0]);
		close(s->ready[1]);
	}
	return err;
}

static void start_line__exit(struct start_line *s)
{
	close(s->ready[0]);
	close(s->ready[1]);
	close(s->go[0]);
	close(s->go[1]);
}

/* In a task: ready, then wait for the start. */
static int start_line__wait(struct start_line *s)
{
	struct pollfd pfd = { .fd = s->go[0], .events = POLLIN };
	char c = 0;

	if (write(s->ready[1], &c, 1) != 1)
		return -1;
	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* In the parent: once @n tasks are ready, the clock starts and so do they. */
static int start_line__go(struct start_line *s, unsigned int n, struct timeval *start)
{
	char c = 0;

	for (unsigned int i = 0; i < n; i++)
		if (read(s->ready[0], &c, 1) != 1) {
			fprintf(stderr, "perf bench: a task died before the start\n");
			return -EIO;
		}
	gettimeofday(start, NULL);
	return write(s->go[1], &c, 1) == 1 ? 0 : -errno;
}

/* ---- messaging -------------------------------------------------------------- */

/* What one messaging task needs: its start line, its fds, how much to move. */
struct messenger {
	struct start_line *start;
	int fd;				/* a receiver's read end */
	const int *out;			/* a sender's: the group's write ends */
	unsigned int loops;
};

static void *messenger__send(void *arg)
{
	struct messenger *m = arg;
	char msg[BENCH_MESSAGING_SIZE];

	memset(msg, 'x', sizeof(msg));
	if (start_line__wait(m->start))
		return TASK_FAILED;
	for (unsigned int l = 0; l < m->loops; l++)
		for (int r = 0; r < BENCH_MESSAGING_FDS; r++) {
			int err = fd__write_all(m->out[r], msg, sizeof(msg));

			if (err) {
				fprintf(stderr, "perf bench sched messaging: cannot send: %s\n",
					strerror(-err));
				return TASK_FAILED;
			}
		}
	return NULL;
}

static void *messenger__receive(void *arg)
{
	struct messenger *m = arg;
	char msg[BENCH_MESSAGING_SIZE];

	if (start_line__wait(m->start))
		return TASK_FAILED;
	/* A message from every sender, each loop. */
	for (unsigned int i = 0; i < m->loops * BENCH_MESSAGING_FDS; i++) {
		int err = fd__read_all(m->fd, msg, sizeof(msg));

		if (err) {
			fprintf(stderr, "perf bench sched messaging: cannot receive: %s\n",
				strerror(-err));
			return TASK_FAILED;
		}
	}
	return NULL;
}

/* The channels of @g groups: for receiver i of a group, fds[2i] is read, fds[2i+1] written. */
static int messaging__open(const struct bench_messaging *b, int *fds, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		int err = channel__open(&fds[2 * i], b->pipe);

		if (err) {
			fprintf(stderr, "perf bench sched messaging: cannot make %s %u of %u: %s\n",
				b->pipe ? "pipe" : "socketpair", i + 1, n, strerror(-err));
			while (i--) {
				close(fds[2 * i]);
				close(fds[2 * i + 1]);
			}
			return err;
		}
	}
	return 0;
}

int bench_messaging__run(const struct bench_messaging *b, struct timeval *elapsed)
{
	unsigned int nr_rx = b->groups * BENCH_MESSAGING_FDS, nr = 2 * nr_rx, started = 0;
	struct messenger *m = calloc(nr + 1, sizeof(*m));
	struct bench_task *t = calloc(nr + 1, sizeof(*t));
	int *fds = calloc(2 * (size_t)nr_rx + 1, sizeof(*fds));
	int *out = calloc((size_t)nr_rx + 1, sizeof(*out));
	struct start_line start;
	struct timeval t0 = { 0 }, t1;
	int err = -ENOMEM;

	if (!m || !t || !fds || !out)
		goto out_free;
	err = start_line__init(&start, b->pipe);
	if (err)
		goto out_free;
	err = messaging__open(b, fds, nr_rx);
	if (err)
		goto out_start;
	for (unsigned int i = 0; i < nr_rx; i++)
		out[i] = fds[2 * i + 1];
	/* The receivers first, then the senders, each group's over its own channels. */
	for (unsigned int i = 0; i < nr && !err; i++) {
		unsigned int rx = i % nr_rx;

		m[i] = (struct messenger){
			.start = &start, .loops = b->loops, .fd = fds[2 * rx],
			.out = &out[rx - rx % BENCH_MESSAGING_FDS],
		};
		err = bench_task__start(&t[i], b->thread, i < nr_rx ? messenger__receive :
					messenger__send, &m[i]);
		if (!err)
			started++;
	}
	if (!err)
		err = start_line__go(&start, nr, &t0);
	else	/* the ones started would wait for the others for ever */
		for (unsigned int i = 0; i < started; i++)
			bench_task__stop(&t[i]);
	for (unsigned int i = 0; i < started; i++) {
		int ret = bench_task__wait(&t[i]);

		if (!err)
			err = ret;
	}
	gettimeofday(&t1, NULL);
	timersub(&t1, &t0, elapsed);
	for (unsigned int i = 0; i < 2 * nr_rx; i++)
		close(fds[i]);
out_start:
	start_line__exit(&start);
out_free:
	free(out);
	free(fds);
	free(t);
	free(m);
	return err;
}

/* ---- pipe ------------------------------------------------------------------- */

/* One side of the ping-pong: reads from @in, writes to @out; the first side writes first. */
struct pinger {
	struct start_line *start;
	int in, out;
	unsigned int loops;
	bool first;
};

static void *pinger__run(void *arg)
{
	struct pinger *p = arg;
	int v = 0, err = 0;

	if (start_line__wait(p->start))
		return TASK_FAILED;
	for (unsigned int l = 0; l < p->loops && !err; l++) {
		if (p->first)
			err = fd__write_all(p->out, &v, sizeof(v));
		if (!err)
			err = fd__read_all(p->in, &v, sizeof(v));
		if (!err && !p->first)
			err = fd__write_all(p->out, &v, sizeof(v));
	}
	if (!err)
		return NULL;
	fprintf(stderr, "perf bench sched pipe: %s\n", strerror(-err));
	return TASK_FAILED;
}

int bench_pipe__run(const struct bench_pipe *b, struct timeval *elapsed)
{
	struct start_line start;
	struct bench_task t[2];
	struct pinger p[2];
	struct timeval t0 = { 0 }, t1;
	int ab[2], ba[2], err, started = 0;

	err = start_line__init(&start, true);
	if (err)
		return err;
	if (pipe(ab)) {
		err = -errno;
		goto out_start;
	}
	if (pipe(ba)) {
		err = -errno;
		goto out_ab;
	}
	p[0] = (struct pinger){ &start, ba[0], ab[1], b->loops, true };
	p[1] = (struct pinger){ &start, ab[0], ba[1], b->loops, false };
	for (int i = 0; i < 2 && !err; i++) {
		err = bench_task__start(&t[i], b->threaded, pinger__run, &p[i]);
		if (!err)
			started++;
	}
	if (!err)
		err = start_line__go(&start, 2, &t0);
	else if (started)
		bench_task__stop(&t[0]);
	for (int i = 0; i < started; i++) {
		int ret = bench_task__wait(&t[i]);

		if (!err)
			err = ret;
	}
	gettimeofday(&t1, NULL);
	timersub(&t1, &t0, elapsed);
	close(ba[0]);
	close(ba[1]);
out_ab:
	close(ab[0]);
	close(ab[1]);
out_start:
	if (err && err != -EIO)
		fprintf(stderr, "perf bench sched pipe: %s\n", strerror(-err));
	start_line__exit(&start);
	return err;
}
