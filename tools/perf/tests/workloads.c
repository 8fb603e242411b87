/*
 * Small programs the shell tests and benchmarks record: `perf test -w NAME`.
 *
 *   prctl N            N calls of prctl(PR_SET_NAME) (names "wl-prctl")
 *   getppid N          N calls of getppid()
 *   burn SECS          spin in user space for SECS seconds (float)
 *   clock N            N calls of clock_gettime() (in the vdso, on most kernels)
 *   mark NAME PID      prctl(PR_SET_NAME, NAME), then SIGUSR2 to PID
 *   forks N            N short-lived child processes
 *   vforks N           renamed "wl-vfork", N times: about 1 ms of its own
 *                      CPU time, then a CLONE_VFORK child that sleeps
 *                      2 ms on a stack of its own and exits, which the
 *                      parent waits for in uninterruptible sleep (D,
 *                      TASK_KILLABLE): a task that blocks by construction,
 *                      however fast the machine's disks are
 *   threads N MS [wait]  N threads (the main one too) each spin for MS ms of
 *                      its own CPU time, so each gets its share of samples
 *                      however busy the machine; with "wait" they are all
 *                      created first and start when a byte (or EOF) arrives
 *                      on stdin, so a recorder can attach to every one;
 *                      with "syscalls" they spin on getppid() instead
 *   validate FILE [FIRST LAST]  the strict record validator (dump-validate.c)
 *   early-usr2 AT US PERF ARGS...  runs this perf with ARGS and sends it
 *                      SIGUSR2 US microseconds after it reached AT (main()'s
 *                      parse_options or cmd_record, traced there) or after
 *                      its fork with SIGUSR2 blocked (blocked): early-usr2.c
 *   reads              read(2)s driven by lines on stdin, for triggers with
 *                      filters: "fail N" reads N bytes from fd -1 (it fails,
 *                      EBADF), "ok" reads a byte of /dev/zero, "mark N"
 *                      reads N bytes of it (N < 4096), "sleep MS" sleeps,
 *                      "storm N MS" makes N failing reads spread evenly
 *                      over MS ms, "storm-until US" a failing read every
 *                      US microseconds until the next line arrives, then
 *                      prints "storm: N reads in MS ms"; "done" (or end of
 *                      input) ends it
 *   trigger-latency N DIR  N times, half a second apart: a failing
 *                      sethostname() (the trigger), then the time until a
 *                      file is created or renamed into DIR; prints each
 *                      latency and their median in ms
 *   hostname-storm N MS  N failing sethostname() calls (triggers nothing
 *                      else on the box makes) spread evenly over MS ms
 *   bpf-loop SECS      loads a BPF socket filter named "perf_test_loop"
 *                      (JITed kernel code that comes and goes: KSYMBOL
 *                      and BPF_EVENT records) that counts to 20,000 for
 *                      each datagram, and sends datagrams through it for
 *                      SECS seconds; exits 2 if BPF cannot be loaded here
 *   bpf-loop SECS btf  the same with BTF: the loop is a function of its own,
 *                      "perf_test_sub", called by "perf_test_main"
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <bpf/btf.h>
#include <poll.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "tests.h"
#include "util/clockid.h"
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

/* ---- vforks ---- */

static int vfork_child(void *arg)
{
	struct timespec ts = { 0, 2000000 };

	(void)arg;
	nanosleep(&ts, NULL);
	return 0;
}

static int workload_vforks(long n)
{
	static char stack[64 * 1024] __attribute__((aligned(16)));

	prctl(PR_SET_NAME, "wl-vfork", 0, 0, 0);
	for (long i = 0; i < n; i++) {
		u64 until = clock__now_ns(CLOCK_THREAD_CPUTIME_ID) + 1000000;
		pid_t pid;

		while (clock__now_ns(CLOCK_THREAD_CPUTIME_ID) < until)
			burn_inner();
		pid = clone(vfork_child, stack + sizeof(stack), CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
		if (pid < 0) {
			perror("clone(CLONE_VFORK)");
			return 1;
		}
		waitpid(pid, NULL, 0);
	}
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
	return clock__now_ns(CLOCK_THREAD_CPUTIME_ID);
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

/*
 * Failing reads every step_ns until input is waiting: the storm lasts as long
 * as its driver wants (a test pings the recorder through it), not a time
 * guessed in advance.  stdin is unbuffered, so a pending line is visible to
 * poll() and not hidden in stdio's buffer.
 */
static int reads_storm_until(u64 step_ns)
{
	struct pollfd in = { .fd = STDIN_FILENO, .events = POLLIN };
	u64 start = now_ns(), next = start, n = 0;
	char c;

	while (poll(&in, 1, 0) == 0) {
		while (now_ns() < next)
			;
		if (read(-1, &c, 1) >= 0)
			return 1;
		n++;
		next += step_ns;
	}
	printf("storm: %llu reads in %llu ms\n", (unsigned long long)n,
	       (unsigned long long)((now_ns() - start) / 1000000));
	fflush(stdout);
	return 0;
}

static int workload_reads(void)
{
	char line[128], buf[4096];
	int zero = open("/dev/zero", O_RDONLY);

	if (zero < 0) {
		perror("reads: /dev/zero");
		return 1;
	}
	setvbuf(stdin, NULL, _IONBF, 0);
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
			u64 start = now_ns(), step = (u64)ms * 1000000ULL / n;

			for (long i = 0; i < n; i++) {
				while (now_ns() < start + i * step)
					;
				if (read(-1, buf, 1) >= 0)
					return 1;
			}
		} else if (sscanf(line, "storm-until %ld", &n) == 1 && n > 0) {
			if (reads_storm_until(n * 1000))
				return 1;
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

static int workload_hostname_storm(long n, long ms)
{
	u64 start, step;

	if (n < 1 || ms < 0) {
		fprintf(stderr, "hostname-storm: give N (1 or more) and MS.\n");
		return 129;
	}
	start = now_ns();
	step = (u64)ms * 1000000ULL / n;
	for (long i = 0; i < n; i++) {
		u64 at = start + i * step, t = now_ns();

		if (t < at)
			usleep((at - t) / 1000);
		syscall(SYS_sethostname, "", 100000);	/* EINVAL: nothing changes */
	}
	return 0;
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
		t0 = now_ns();
		syscall(SYS_sethostname, "", 100000);	/* EINVAL: nothing changes */
		if (poll(&pfd, 1, 10000) <= 0) {
			fprintf(stderr, "trigger-latency: no file in %s within 10 s\n", dir);
			free(ms);
			return 1;
		}
		ms[i] = (now_ns() - t0) / 1e6;
		printf("%.2f ", ms[i]);
	}
	qsort(ms, n, sizeof(*ms), cmp_double);
	printf("median %.2f\n", n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2);
	free(ms);
	close(fd);
	return 0;
}

/*
 * r0 = 0; r1 = 0; do { r1 += 1; r0 += r1; } while (r1 < 20000); r0 = 0; exit
 * (a bounded loop, which the verifier accepts since Linux 5.3).  Returning
 * 0 drops each datagram: the sender gets EPERM once the filter has run.
 */
/*
 * The BTF of two static functions "perf_test_main" and "perf_test_sub", both
 * int (void), loaded into the kernel: its fd (and *@btf to free once the
 * program is loaded), or -errno.
 */
static int bpf_loop_btf(struct btf **btf, __u32 *main_id, __u32 *sub_id)
{
	int type, proto, m, sub;

	*btf = btf__new_empty();
	if (!*btf)
		return -errno;
	type = btf__add_int(*btf, "int", 4, BTF_INT_SIGNED);
	proto = type > 0 ? btf__add_func_proto(*btf, type) : type;
	m = proto > 0 ? btf__add_func(*btf, "perf_test_main", BTF_FUNC_STATIC, proto) : proto;
	sub = m > 0 ? btf__add_func(*btf, "perf_test_sub", BTF_FUNC_STATIC, proto) : m;
	if (sub < 0 || btf__load_into_kernel(*btf)) {
		int err = sub < 0 ? sub : -errno;

		btf__free(*btf);
		*btf = NULL;
		return err;
	}
	*main_id = (__u32)m;
	*sub_id = (__u32)sub;
	return btf__fd(*btf);
}

static int workload_bpf_loop(double secs, bool with_btf)
{
	static const struct bpf_insn prog[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 1, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 1, .imm = 1 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_X, .dst_reg = 0, .src_reg = 1 },
		{ .code = BPF_JMP | BPF_JLT | BPF_K, .dst_reg = 1, .off = -3, .imm = 20000 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	/* With BTF: a call of the loop, as a function of its own, then the loop. */
	struct bpf_insn prog_btf[2 + sizeof(prog) / sizeof(prog[0])] = {
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_CALL, .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct bpf_func_info funcs[2] = { { .insn_off = 0 }, { .insn_off = 2 } };
	struct btf *btf = NULL;
	union bpf_attr attr;
	struct timespec t0, t;
	int sv[2], fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)prog;
	attr.insn_cnt = sizeof(prog) / sizeof(prog[0]);
	attr.license = (unsigned long)"GPL";
	strcpy(attr.prog_name, "perf_test_loop");
	if (with_btf) {
		fd = bpf_loop_btf(&btf, &funcs[0].type_id, &funcs[1].type_id);
		if (fd < 0) {
			fprintf(stderr, "bpf-loop: cannot load BTF: %s\n", strerror(-fd));
			return 2;
		}
		attr.prog_btf_fd = (__u32)fd;
		attr.func_info = (unsigned long)funcs;
		attr.func_info_cnt = 2;
		attr.func_info_rec_size = sizeof(funcs[0]);
		memcpy(prog_btf + 2, prog, sizeof(prog));
		attr.insns = (unsigned long)prog_btf;
		attr.insn_cnt = sizeof(prog_btf) / sizeof(prog_btf[0]);
	}
	fd = (int)syscall(SYS_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	btf__free(btf);
	if (fd < 0) {
		fprintf(stderr, "bpf-loop: cannot load a BPF program: %s\n", strerror(errno));
		return 2;
	}
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) ||
	    setsockopt(sv[1], SOL_SOCKET, SO_ATTACH_BPF, &fd, sizeof(fd))) {
		fprintf(stderr, "bpf-loop: cannot attach the BPF program: %s\n", strerror(errno));
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100; i++)
			(void)!send(sv[0], "x", 1, MSG_DONTWAIT);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	close(sv[0]);
	close(sv[1]);
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
	if (!strcmp(name, "clock")) {
		struct timespec ts;

		for (long i = 0; i < n; i++)
			clock_gettime(CLOCK_MONOTONIC, &ts);
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
	if (!strcmp(name, "vforks"))
		return workload_vforks(n);
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
	if (!strcmp(name, "early-usr2"))
		return test__early_usr2(argc, argv);
	if (!strcmp(name, "reads"))
		return workload_reads();
	if (!strcmp(name, "trigger-latency"))
		return workload_trigger_latency(n, argc > 2 ? argv[2] : NULL);
	if (!strcmp(name, "hostname-storm"))
		return workload_hostname_storm(n, argc > 2 ? strtol(argv[2], NULL, 0) : 1000);
	if (!strcmp(name, "bpf-loop"))
		return workload_bpf_loop(argc > 1 ? atof(argv[1]) : 1.0,
					 argc > 2 && !strcmp(argv[2], "btf"));
	fprintf(stderr, "Unknown workload '%s': use prctl N, getppid N, clock N, burn SECS, "
		"mark NAME PID, forks N, vforks N, threads N MS [wait], validate FILE,\n"
		"early-usr2 AT US PERF ARGS, reads, trigger-latency N DIR or bpf-loop SECS [btf].\n",
		name);
	return 129;
}
