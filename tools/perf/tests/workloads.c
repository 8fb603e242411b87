/*
 * Small programs the shell tests and benchmarks record: `perf test -w NAME`.
 *
 *   prctl N            N calls of prctl(PR_SET_NAME) (names "wl-prctl")
 *   getppid N          N calls of getppid()
 *   burn SECS          spin in user space for SECS seconds (float)
 *   mark NAME PID      prctl(PR_SET_NAME, NAME), then SIGUSR2 to PID
 *   forks N            N short-lived child processes
 *   threads N MS [wait]  N threads (the main one too) each spin for MS ms of
 *                      its own CPU time, so each gets its share of samples
 *                      however busy the machine; with "wait" they are all
 *                      created first and start when a byte (or EOF) arrives
 *                      on stdin, so a recorder can attach to every one;
 *                      with "syscalls" they spin on getppid() instead
 *   validate FILE [FIRST LAST]  the strict record validator (dump-validate.c)
 *   reads              read(2)s driven by lines on stdin, for triggers with
 *                      filters: "fail N" reads N bytes from fd -1 (it fails,
 *                      EBADF), "ok" reads a byte of /dev/zero, "mark N"
 *                      reads N bytes of it (N < 4096), "sleep MS" sleeps,
 *                      "storm N MS" makes N failing reads spread evenly
 *                      over MS ms; "done" (or end of input) ends it
 *   trigger-latency N DIR  N times, half a second apart: a failing
 *                      sethostname() (the trigger), then the time until a
 *                      file is created or renamed into DIR; prints each
 *                      latency and their median in ms
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tests.h"
#include "util/types.h"

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

/* ---- threads ---- */

static pthread_mutex_t threads_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t threads_cond = PTHREAD_COND_INITIALIZER;
static bool threads_go;
static long threads_ms;
static bool threads_syscalls;	/* getppid() in the loop instead of user-space work */

static u64 thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void *threads_spin(void *arg)
{
	u64 start;

	pthread_mutex_lock(&threads_lock);
	while (!threads_go)
		pthread_cond_wait(&threads_cond, &threads_lock);
	pthread_mutex_unlock(&threads_lock);
	start = thread_cpu_ns();
	do {
		if (threads_syscalls) {
			for (int i = 0; i < 1000; i++)
				syscall(SYS_getppid);
		} else {
			burn_inner();
		}
	} while (thread_cpu_ns() - start < (u64)threads_ms * 1000000ULL);
	return NULL;
}

static int workload_threads(long n, long ms, bool wait)
{
	pthread_t *tids;
	long created = 0;
	int ret = 0;
	char c;

	if (n < 1 || ms < 0) {
		fprintf(stderr, "threads: give N >= 1 threads and MS >= 0 milliseconds.\n");
		return 129;
	}
	tids = calloc(n, sizeof(*tids));
	if (!tids)
		return 1;
	threads_ms = ms;
	for (; created < n - 1; created++) {
		if (pthread_create(&tids[created], NULL, threads_spin, NULL)) {
			fprintf(stderr, "threads: cannot create thread %ld of %ld\n", created + 2, n);
			ret = 1;
			break;
		}
	}
	if (wait && read(STDIN_FILENO, &c, 1) < 0)
		ret = 1;
	pthread_mutex_lock(&threads_lock);
	threads_go = true;
	pthread_cond_broadcast(&threads_cond);
	pthread_mutex_unlock(&threads_lock);
	if (!ret)
		threads_spin(NULL);
	for (long i = 0; i < created; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	return ret;
}

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int workload_reads(void)
{
	char line[128], buf[4096];
	int zero = open("/dev/zero", O_RDONLY);

	if (zero < 0) {
		perror("reads: /dev/zero");
		return 1;
	}
	while (fgets(line, sizeof(line), stdin)) {
		long n = 0, ms = 0;

		if (sscanf(line, "fail %ld", &n) == 1) {
			if (read(-1, buf, n < 0 ? 0 : n % sizeof(buf)) >= 0)
				return 1;
		} else if (!strncmp(line, "ok", 2)) {
			if (read(zero, buf, 1) != 1)
				return 1;
		} else if (sscanf(line, "mark %ld", &n) == 1 && n > 0 && n < (long)sizeof(buf)) {
			if (read(zero, buf, n) != n)
				return 1;
		} else if (sscanf(line, "sleep %ld", &ms) == 1) {
			usleep(ms * 1000);
		} else if (sscanf(line, "storm %ld %ld", &n, &ms) == 2 && n > 0) {
			u64 start = mono_ns(), step = (u64)ms * 1000000ULL / n;

			for (long i = 0; i < n; i++) {
				while (mono_ns() < start + i * step)
					;
				if (read(-1, buf, 1) >= 0)
					return 1;
			}
		} else if (!strncmp(line, "done", 4)) {
			break;
		} else {
			fprintf(stderr, "reads: unknown line '%s'\n", line);
			return 129;
		}
	}
	close(zero);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int workload_trigger_latency(long n, const char *dir)
{
	char buf[4096] __attribute__((aligned(8)));
	double *ms;
	int fd;

	if (n < 1 || n > 1000 || !dir) {
		fprintf(stderr, "trigger-latency: give N (1..1000) and a directory.\n");
		return 129;
	}
	fd = inotify_init1(IN_CLOEXEC);
	if (fd < 0 || inotify_add_watch(fd, dir, IN_CREATE | IN_MOVED_TO) < 0) {
		perror("trigger-latency: inotify");
		return 1;
	}
	ms = calloc(n, sizeof(*ms));
	if (!ms)
		return 1;
	for (long i = 0; i < n; i++) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		u64 t0;

		usleep(500000);
		/* Drain what earlier dumps (or anything else) left. */
		while (poll(&pfd, 1, 0) > 0 && read(fd, buf, sizeof(buf)) > 0)
			;
		t0 = mono_ns();
		syscall(SYS_sethostname, "", 100000);	/* EINVAL: nothing changes */
		if (poll(&pfd, 1, 10000) <= 0) {
			fprintf(stderr, "trigger-latency: no file in %s within 10 s\n", dir);
			free(ms);
			return 1;
		}
		ms[i] = (mono_ns() - t0) / 1e6;
		printf("%.2f ", ms[i]);
	}
	qsort(ms, n, sizeof(*ms), cmp_double);
	printf("median %.2f\n", n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2);
	free(ms);
	close(fd);
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
	if (!strcmp(name, "threads")) {
		bool wait = false;

		for (int i = 3; i < argc; i++) {
			wait |= !strcmp(argv[i], "wait");
			threads_syscalls |= !strcmp(argv[i], "syscalls");
		}
		return workload_threads(n, argc > 2 ? strtol(argv[2], NULL, 0) : 100, wait);
	}
	if (!strcmp(name, "validate"))
		return test__validate_dump(argc, argv);
	if (!strcmp(name, "reads"))
		return workload_reads();
	if (!strcmp(name, "trigger-latency"))
		return workload_trigger_latency(n, argc > 2 ? argv[2] : NULL);
	fprintf(stderr, "Unknown workload '%s': use prctl N, getppid N, burn SECS, "
		"mark NAME PID, forks N, threads N MS [wait], validate FILE, reads or\n"
		"trigger-latency N DIR.\n", name);
	return 129;
}
