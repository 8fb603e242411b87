#ifndef PERF_UTIL_BENCH_SCHED_H
#define PERF_UTIL_BENCH_SCHED_H
/*
 * perf bench sched's two workloads: tasks passing messages over sockets or
 * pipes (messaging) and two tasks passing one int back and forth (pipe).
 * Each runs its tasks as processes or as threads and says how long they
 * took, from the moment all of them could start to the last one's end.
 */
#include <stdbool.h>
#include <sys/time.h>

/* Senders and receivers in each messaging group. */
#define BENCH_MESSAGING_FDS 20
/* The size of one message, in bytes. */
#define BENCH_MESSAGING_SIZE 100

struct bench_messaging {
	unsigned int groups;	/* -g */
	unsigned int loops;	/* -l: messages each sender sends each receiver */
	bool pipe;		/* -p: pipes, not socketpairs */
	bool thread;		/* -t: threads, not processes */
};

/*
 * Runs @m: each sender writes a message to every receiver of its group,
 * @m->loops times.  0 and the time it took in @elapsed, or a negative errno
 * (the cause said on stderr).
 */
int bench_messaging__run(const struct bench_messaging *m, struct timeval *elapsed);

struct bench_pipe {
	unsigned int loops;	/* -l: round trips */
	bool threaded;		/* -T: threads, not processes */
};

/* Runs @p: 0 and the time it took in @elapsed, or a negative errno. */
int bench_pipe__run(const struct bench_pipe *p, struct timeval *elapsed);

#endif
