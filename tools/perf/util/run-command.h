#ifndef PERF_UTIL_RUN_COMMAND_H
#define PERF_UTIL_RUN_COMMAND_H
/*
 * One child process perf starts and reaps: the workload perf record
 * records, each recorder perf daemon keeps running.
 *
 * The caller fills in what to run and how, then
 *
 *	child_process__start()		forks; returns once it has exec'd,
 *					or (with .hold) once it waits for
 *	child_process__release()	which lets it exec
 *	child_process__wait()		collects its exit, blocking or not
 *	child_process__kill()		signals it (or, held, makes it exit)
 *
 * A child that cannot be started (a chdir, a redirection or the exec
 * failing) sends that errno back on a close-on-exec pipe before it exits
 * 127: start (or release) returns it, so the caller can say "cannot run X:
 * No such file or directory" rather than report a command that exited 127.
 * The child is still there to be reaped, as any other that exited.
 */
#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

struct child_process {
	/* What to run: set these before child_process__start(). */
	const char **argv;	/* NULL-terminated; argv[0] the name it runs under */
	const char *file;	/* the program; NULL: argv[0], looked up in PATH */
	const char *dir;	/* directory it runs in; NULL: perf's */
	/*
	 * Its stdin, stdout and stderr: an fd of perf's (STDERR_FILENO, say)
	 * put in their place, else a file opened in the child (after the chdir
	 * to .dir, which a relative path is taken from); -1 and NULL: perf's.
	 */
	int in, out, err;
	const char *in_path;	/* opened read-only ("/dev/null") */
	const char *out_path;	/* created 0644, emptied unless .out_append */
	bool out_append;
	bool err_to_out;	/* stderr goes where stdout goes */
	bool hold;		/* start() leaves it waiting; release() lets it exec */
	bool new_pgrp;		/* in a process group of its own, led by it */
	int death_signal;	/* sent to it should perf die first (0: none); a child
				   whose parent is already gone exits 127 */
	const char *comm;	/* its name until the exec (NULL: perf's) */
	const sigset_t *mask;	/* its signal mask (NULL: perf's); what it blocks is
				   blocked from the fork on, not only from the exec */
	const sigset_t *dfl;	/* signals put back to SIG_DFL, which SIG_IGN in
				   perf would stay across the exec (NULL: none) */
	const char * const *env; /* "NAME=VALUE" entries added to (or replacing
				   theirs in) perf's environment, NULL-terminated
				   (NULL: perf's environment as it is) */

	/* What it became. */
	pid_t pid;		/* the child; -1: none (not started, or reaped) */
	int hold_fd;		/* writing a byte releases it, EOF makes it exit; -1 */
	int exec_fail_fd;	/* its errno if it could not start; EOF: it exec'd; -1 */
	int exec_errno;		/* why it could not start; 0: it did (or has not yet) */
	int status;		/* wait(2) status, once reaped; -1 until then */
};

/* Everything inherited from perf, nothing running: fill in .argv and go. */
#define CHILD_PROCESS_INIT {						\
	.in = -1, .out = -1, .err = -1,					\
	.pid = -1, .hold_fd = -1, .exec_fail_fd = -1, .status = -1,	\
}

/* Looks @cmd up as execvp() would: 0, or -errno, before anything is started. */
int run_command__find(const char *cmd);

void child_process__init(struct child_process *cp);
/*
 * Forks it.  0 once it exec'd, or with .hold once it waits; -errno if it
 * could not start (with .pid set when a child was forked: reap it).
 */
int child_process__start(struct child_process *cp);
/* Lets a held child exec: 0 once it did, or -errno as start() returns it. */
int child_process__release(struct child_process *cp);
/* Still waiting for its release? */
bool child_process__held(const struct child_process *cp);
/*
 * Collects its exit, waiting for it if @block: 1 with .status set and .pid
 * -1, 0 while it runs (or none does), or -errno (-ECHILD: it is not ours,
 * and .pid is forgotten).
 */
int child_process__wait(struct child_process *cp, bool block);
/*
 * Sends it @sig; a held child is not signalled but released into exiting
 * 127 without running anything.  0 or -errno; it is still to be reaped.
 */
int child_process__kill(struct child_process *cp, int sig);

#endif
