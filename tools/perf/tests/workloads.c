/*
 * Small programs the shell tests and benchmarks record: `perf test -w NAME`.
 *
 *   prctl N            N calls of prctl(PR_SET_NAME) (names "wl-prctl")
 *   getppid N          N calls of getppid()
 *   burn SECS          spin in user space for SECS seconds (float)
 *   mark NAME PID      prctl(PR_SET_NAME, NAME), then SIGUSR2 to PID
 *   forks N            N short-lived child processes
 *   validate FILE [FIRST LAST]  the strict record validator (dump-validate.c)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tests.h"

static volatile unsigned long sink;

/* A named, never inlined function so callchains have a user frame to find. */
__attribute__((noinline)) static void burn_inner(void)
{
	for (int i = 0; i < 100000; i++)
		sink += i * 7;
}

__attribute__((noinline)) static int workload_burn(double secs)
{
	struct timespec start, now;

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		burn_inner();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while ((now.tv_sec - start.tv_sec) + (now.tv_nsec - start.tv_nsec) / 1e9 < secs);
	return 0;
}

int test__workload(int argc, const char **argv)
{
	const char *name = argc > 0 ? argv[0] : "";
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 0;

	if (!strcmp(name, "prctl")) {
		for (long i = 0; i < n; i++)
			prctl(PR_SET_NAME, "wl-prctl", 0, 0, 0);
		return 0;
	}
	if (!strcmp(name, "getppid")) {
		for (long i = 0; i < n; i++)
			syscall(SYS_getppid);
		return 0;
	}
	if (!strcmp(name, "burn"))
		return workload_burn(argc > 1 ? atof(argv[1]) : 1.0);
	if (!strcmp(name, "mark") && argc > 2) {
		prctl(PR_SET_NAME, argv[1], 0, 0, 0);
		return kill(atoi(argv[2]), SIGUSR2) ? 1 : 0;
	}
	if (!strcmp(name, "forks")) {
		for (long i = 0; i < n; i++) {
			pid_t pid = fork();

			if (pid == 0)
				_exit(0);
			if (pid > 0)
				waitpid(pid, NULL, 0);
		}
		return 0;
	}
	if (!strcmp(name, "validate"))
		return test__validate_dump(argc, argv);
	fprintf(stderr, "Unknown workload '%s': use prctl N, getppid N, burn SECS, "
		"mark NAME PID or forks N.\n", name);
	return 129;
}
