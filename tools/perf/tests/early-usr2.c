/*
 * perf test -w early-usr2 AT US PERF ARGS...: a SIGUSR2 sent to a perf
 * that is just starting, at a point of its start chosen exactly.
 *
 * A signal sent some microseconds after a fork lands wherever the child
 * happens to be: in the copy of the starter before the exec, in the dynamic
 * loader, in perf.  Only the last is perf's to survive, and a test that
 * aims at it by time would pass or fail by chance.  So the child is traced
 * from its exec to the first instruction of AT, a function of this very
 * binary, and the signal is sent from there:
 *
 *	parse_options	main()'s first call, right after main() begins
 *	cmd_record	perf record's entry
 *	blocked		no tracing: the child blocks SIGUSR2 before its
 *			exec, as perf daemon does, and US counts from the
 *			fork's return in the parent
 *
 * With US 0 the signal is queued while the child is still stopped at AT, so
 * it is the first thing the child meets there; otherwise the child runs
 * on and the signal follows US microseconds later.  SIGINT and SIGTERM are
 * passed on to the child.  Exits as the child did (128 + the signal that
 * killed it), 2 if it cannot be traced here (another architecture, ptrace
 * refused), 1 if it could not be started.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/user.h>
#include <sys/wait.h>
#include "tests.h"
#include "builtin.h"
#include "util/parse-options.h"

static volatile sig_atomic_t early_child = -1;

static void early__forward(int sig)
{
	if (early_child > 0)
		kill(early_child, sig);
}

/* Waits for @pid, past EINTR: its status, or -1. */
static int early__wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

static int early__exit_code(int status)
{
	if (status < 0)
		return 1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static void early__sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Whether @path is the binary this process runs (the addresses below are its). */
static bool early__same_binary(const char *path)
{
	struct stat a, b;

	return stat(path, &a) == 0 && stat("/proc/self/exe", &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* AT_ENTRY of process @pid, from /proc/PID/auxv; 0 if it cannot be read. */
static unsigned long early__entry(pid_t pid)
{
	unsigned long pair[2], entry = 0;
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/auxv", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fread(pair, sizeof(pair), 1, f) == 1 && pair[0] != AT_NULL)
		if (pair[0] == AT_ENTRY)
			entry = pair[1];
	fclose(f);
	return entry;
}

#if defined(__x86_64__)
/*
 * Runs the traced, exec-stopped @pid to the first instruction of the
 * function at @addr in its image (an int3 there, put back once hit) and
 * leaves it stopped there.  0, or 1 with *@status if it ended first.
 */
static int early__run_to(pid_t pid, unsigned long addr, int *status)
{
	struct user_regs_struct regs;
	long word;
	int sig = 0;

	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, NULL);
	if (errno || ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)((word & ~0xffL) | 0xcc)))
		return -errno;
	for (;;) {
		if (ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig))
			return -errno;
		*status = early__wait(pid);
		if (*status < 0 || !WIFSTOPPED(*status))
			return 1;
		sig = WSTOPSIG(*status);
		if (sig != SIGTRAP)
			continue;	/* not ours: delivered as it would have been */
		if (ptrace(PTRACE_GETREGS, pid, NULL, &regs))
			return -errno;
		if (regs.rip == addr + 1)
			break;
	}
	regs.rip = addr;
	if (ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)word) ||
	    ptrace(PTRACE_SETREGS, pid, NULL, &regs))
		return -errno;
	return 0;
}
#else
static int early__run_to(pid_t pid, unsigned long addr, int *status)
{
	return -ENOSYS;
}
#endif

/*
 * The child stops before its exec for the tracer to set its options, and
 * again at the exec.  Returns the child stopped at the exec, or -1.
 */
static pid_t early__spawn_traced(const char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		execv(argv[0], (char * const *)argv);
		_exit(127);
	}
	if (pid < 0)
		return -1;
	early_child = pid;
	status = early__wait(pid);
	if (status < 0 || !WIFSTOPPED(status) ||
	    ptrace(PTRACE_SETOPTIONS, pid, NULL,
		   (void *)(long)(PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL)) ||
	    ptrace(PTRACE_CONT, pid, NULL, NULL)) {
		kill(pid, SIGKILL);
		early__wait(pid);
		return -1;
	}
	status = early__wait(pid);
	if (status < 0 || !WIFSTOPPED(status) ||
	    status >> 8 != (SIGTRAP | (PTRACE_EVENT_EXEC << 8))) {
		kill(pid, SIGKILL);
		early__wait(pid);
		return -1;
	}
	return pid;
}

/*
 * The child has SIGUSR2 blocked from the fork on (blocked here across it),
 * as perf daemon starts its recorders.
 */
static pid_t early__spawn_blocked(const char **argv)
{
	sigset_t usr2, old;
	pid_t pid;

	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, &old);
	pid = fork();
	if (pid == 0) {
		execv(argv[0], (char * const *)argv);
		_exit(127);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid > 0)
		early_child = pid;
	return pid;
}

int test__early_usr2(int argc, const char **argv)
{
	struct sigaction sa = { .sa_handler = early__forward };
	const char *at = argc > 1 ? argv[1] : "";
	long us = argc > 2 ? strtol(argv[2], NULL, 0) : -1;
	uintptr_t fn = 0;
	int status = -1, err;
	pid_t pid;

	if (!strcmp(at, "parse_options"))
		fn = (uintptr_t)parse_options;
	else if (!strcmp(at, "cmd_record"))
		fn = (uintptr_t)cmd_record;
	if ((!fn && strcmp(at, "blocked")) || us < 0 || argc < 4) {
		fprintf(stderr, "usage: perf test -w early-usr2 parse_options|cmd_record|blocked "
			"US PERF ARGS...\n");
		return 129;
	}
	argv += 3;
	if (!early__same_binary(argv[0])) {
		fprintf(stderr, "early-usr2: %s is not this perf binary\n", argv[0]);
		return 1;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (!fn) {
		pid = early__spawn_blocked(argv);
		if (pid < 0)
			return 1;
	} else {
		unsigned long entry;

		pid = early__spawn_traced(argv);
		if (pid < 0) {
			fprintf(stderr, "early-usr2: cannot trace %s here\n", argv[0]);
			return 2;
		}
		/* The same binary: the function lies as far from the entry point. */
		entry = early__entry(pid);
		err = entry ? early__run_to(pid, entry + (fn - getauxval(AT_ENTRY)), &status) :
			      -ENOENT;
		if (err > 0)
			return early__exit_code(status);
		if (err < 0) {
			fprintf(stderr, "early-usr2: cannot stop %s at %s: %s\n", argv[0], at,
				strerror(-err));
			kill(pid, SIGKILL);
			early__wait(pid);
			return 2;
		}
		if (!us)
			kill(pid, SIGUSR2);
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
	}
	if (us || !fn) {
		if (us)
			early__sleep_us(us);
		kill(pid, SIGUSR2);
	}
	return early__exit_code(early__wait(pid));
}
