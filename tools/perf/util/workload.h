#ifndef PERF_UTIL_WORKLOAD_H
#define PERF_UTIL_WORKLOAD_H
/*
 * The command perf record runs and records: forked early, held before its
 * exec until the events are open (so its first instructions are recorded),
 * then released; an exec that fails is reported through a pipe instead of
 * looking like a command that exited 127.
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

struct workload {
	pid_t pid;		/* -1: none */
	int cork_fd;		/* writing to it releases the child; -1 once released */
	int exec_fail_fd;	/* reads the child's exec errno; EOF means it ran */
	int status;		/* its exit status, once reaped */
	bool reaped;
	bool stdout_to_stderr;	/* perf writes its data to stdout: keep the child's text out of it */
};

/* The child's name until its exec. */
#define WORKLOAD_COMM "perf-exec"

#define WORKLOAD_INIT { .pid = -1, .cork_fd = -1, .exec_fail_fd = -1 }

/* Looks @cmd up as execvp() would: 0, or -errno, before anything is started. */
int workload__check(const char *cmd);
/*
 * Forks the child, which waits before exec'ing @argv with signal mask @mask.
 * It never runs unrecorded: if we die or give up first, it exits 127.
 */
int workload__prepare(struct workload *w, const char **argv, const sigset_t *mask);
/* Lets it exec; -errno of the failed exec (or of the release). */
int workload__start(struct workload *w);
/* Ends it: never started, it just exits; started, it gets SIGTERM.  Reaps it. */
void workload__kill(struct workload *w);
/* Collects its exit status, waiting for it if @block. */
void workload__reap(struct workload *w, bool block);

#endif
