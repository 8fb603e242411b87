/*
 * What PERF_EVENT_IOC_SET_OUTPUT does on this kernel, for the swap mode
 * of the flight recorder: an overwrite (write_backward) event with no
 * mapping of its own, redirected again and again between two backward
 * buffers of its CPU (two dummy events, each mapped).
 *
 *   set-output-probe [REDIRECTS [PARALLEL]]
 *
 * Prints: which redirects the kernel refuses (an event with a mapping of
 * its own, another CPU, another write_backward), whether the events land
 * in the buffer they were sent to, and what one redirect costs, one at a
 * time and from PARALLEL threads at once (each its own event).  Root.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "probe.h"

#define DATA_PAGES 16

static long page;

static int open_event(unsigned int type, unsigned long long config, int cpu, int backward)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		.config = config,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME,
		.write_backward = backward,
	};

	return syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
}

static void *map_buffer(int fd)
{
	void *p = mmap(NULL, (DATA_PAGES + 1) * page, PROT_READ, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

static unsigned long long written(void *base)
{
	struct perf_event_mmap_page *pg = base;

	/* A backward head counts down from 0. */
	return 0 - __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
}

static const char *verdict(int fd, int to)
{
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, to) == 0)
		return "accepted";
	return strerror(errno);
}

struct worker {
	int fd, a, b, n;
	unsigned long long ns;
	pthread_barrier_t *go;
};

static void *worker__run(void *arg)
{
	struct worker *w = arg;
	unsigned long long t0;

	pthread_barrier_wait(w->go);
	t0 = now_ns();
	for (int i = 0; i < w->n; i++)
		if (ioctl(w->fd, PERF_EVENT_IOC_SET_OUTPUT, i & 1 ? w->a : w->b) < 0)
			perror("SET_OUTPUT");
	w->ns = now_ns() - t0;
	return NULL;
}

/* Starts @par workers at once; the time until the last one is done. */
static unsigned long long workers__run(struct worker *ws, int par)
{
	pthread_t *th = calloc(par, sizeof(*th));
	pthread_barrier_t go;
	unsigned long long t0;

	pthread_barrier_init(&go, NULL, par + 1);
	for (int k = 0; k < par; k++) {
		ws[k].go = &go;
		pthread_create(&th[k], NULL, worker__run, &ws[k]);
	}
	t0 = now_ns();
	pthread_barrier_wait(&go);
	for (int k = 0; k < par; k++)
		pthread_join(th[k], NULL);
	free(th);
	return now_ns() - t0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, par = argc > 2 ? atoi(argv[2]) : 4;
	int id = tp_id("syscalls/sys_enter_write");
	int a, b, ev, fwd, other, mapped;
	void *ma, *mb;
	unsigned long long t0, wa, wb, total;
	struct worker *ws;
	cpu_set_t one;

	page = sysconf(_SC_PAGESIZE);
	if (id < 0) {
		fprintf(stderr, "no syscalls/sys_enter_write in /sys/kernel/tracing: mount tracefs, run as root\n");
		return 1;
	}
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof(one), &one);

	a = open_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, 0, 1);
	b = open_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, 0, 1);
	ev = open_event(PERF_TYPE_TRACEPOINT, id, 0, 1);
	mapped = open_event(PERF_TYPE_TRACEPOINT, id, 0, 1);
	fwd = open_event(PERF_TYPE_TRACEPOINT, id, 0, 0);
	other = open_event(PERF_TYPE_TRACEPOINT, id, sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 1 : 0, 1);
	if (a < 0 || b < 0 || ev < 0 || mapped < 0 || fwd < 0 || other < 0) {
		perror("perf_event_open");
		return 1;
	}
	ma = map_buffer(a);
	mb = map_buffer(b);
	if (!ma || !mb || !map_buffer(mapped)) {
		perror("mmap");
		return 1;
	}
	printf("refusals:\n");
	printf("  event with its own mapping -> A: %s\n", verdict(mapped, a));
	printf("  event on another CPU -> A:        %s\n", verdict(other, a));
	printf("  forward event -> backward A:      %s\n", verdict(fwd, a));
	printf("  unmapped backward event -> A:     %s\n", verdict(ev, a));

	/* Where do the events go: 10 writes into A, then 20 into B. */
	for (int i = 1; i <= 10; i++)
		syscall(SYS_write, -1, NULL, i);
	wa = written(ma);
	printf("  unmapped backward event -> B:     %s\n", verdict(ev, b));
	for (int i = 1; i <= 20; i++)
		syscall(SYS_write, -1, NULL, i);
	printf("routing: A took %llu bytes, then B %llu bytes while A grew by %llu\n",
	       wa, written(mb), written(ma) - wa);

	t0 = now_ns();
	for (int i = 0; i < n; i++)
		ioctl(ev, PERF_EVENT_IOC_SET_OUTPUT, i & 1 ? b : a);
	total = now_ns() - t0;
	printf("serial: %d redirects, %.3f ms each\n", n, total / 1e6 / n);

	wb = written(mb);
	syscall(SYS_write, -1, NULL, 1);
	printf("after %d redirects the event writes into %s\n", n,
	       written(mb) != wb ? "B" : "A");

	ws = calloc(par, sizeof(*ws));
	for (int k = 0; k < par; k++)
		ws[k] = (struct worker){ .a = a, .b = b, .n = n,
					 .fd = open_event(PERF_TYPE_TRACEPOINT, id, 0, 1) };
	total = workers__run(ws, par);
	printf("parallel, one pair of buffers: %d threads x %d redirects in %.1f ms: "
	       "%.3f ms per round of %d\n", par, n, total / 1e6, total / 1e6 / n, par);

	/*
	 * Each thread an event and a pair on CPUs in turn, as the buffers of
	 * different CPUs would be (the events of one CPU share its context).
	 */
	for (int k = 0; k < par; k++) {
		int cpu = k % sysconf(_SC_NPROCESSORS_ONLN);

		ws[k].fd = open_event(PERF_TYPE_TRACEPOINT, id, cpu, 1);
		ws[k].a = open_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, cpu, 1);
		ws[k].b = open_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, cpu, 1);
		if (!map_buffer(ws[k].a) || !map_buffer(ws[k].b)) {
			perror("mmap");
			return 1;
		}
	}
	total = workers__run(ws, par);
	printf("parallel, a pair each, CPUs in turn: %d threads x %d redirects in %.1f ms: "
	       "%.3f ms per round of %d\n", par, n, total / 1e6, total / 1e6 / n, par);
	return 0;
}
