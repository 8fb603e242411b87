/*
 * What it costs to move a CPU's overwrite events from one backward buffer
 * to another on this kernel, by the three means a dump could use, and
 * whether a move loses or doubles an event:
 *
 *   set-output  one event, redirected between two buffers (SET_OUTPUT);
 *   twins       each event opened twice, twin A writing into buffer A and
 *               twin B into buffer B, one of the two enabled: a move is
 *               ENABLE of the B twins, then DISABLE of the A twins
 *               (PERF_IOC_FLAG_GROUP on a group leader: the whole group
 *               in one call);
 *   pause       PAUSE_OUTPUT of a buffer, on and off.
 *
 *   twin-toggle-probe [MOVES [EVENTS [dummy]]]
 *
 * With "dummy", each group's leader is a dummy event that owns the buffer
 * and never writes, the EVENTS tracepoints its members, enabled for good:
 * a move is ENABLE of B's leader, then DISABLE of A's, without
 * PERF_IOC_FLAG_GROUP (a group runs only while its leader does, so all of
 * a buffer's events start, or stop, in one call on the CPU).
 *
 * A writer pinned to CPU 0 makes numbered write(-1, NULL, i) calls as
 * fast as it can while this thread, on the other CPU, moves the events
 * of CPU 0 (syscalls:sys_enter_write, then EVENTS - 1 more tracepoints
 * of CPU 0 in one group) MOVES times.  Printed: the cost of one move
 * (median and max), and in the twin case the numbers found in neither
 * buffer (lost) and in both (doubled), read from the two buffers after
 * every move.  Root, 2 CPUs or more.
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

#define DATA_PAGES	4096
#define MAX_EVENTS	8

static long page;
static int write_id;		/* syscalls:sys_enter_write's tracepoint id */
static volatile int stop;
static int overflows;		/* reads that found more than a buffer written */

/* A backward event of CPU 0, disabled if @off, in @group's group (-1: none). */
static int open_backward(unsigned int type, unsigned long long config, int group, int off)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = type,
		.config = config,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME,
		.write_backward = 1,
		.disabled = off,
	};

	return syscall(SYS_perf_event_open, &attr, -1, 0, group, 0);
}

/* A tracepoint of CPU 0; a dummy event that never writes: a group's leader and its buffer's owner. */
static int open_tp(int id, int group, int off)
{
	return open_backward(PERF_TYPE_TRACEPOINT, id, group, off);
}

static int open_dummy(int off)
{
	return open_backward(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, -1, off);
}

static void *map_buffer(int fd)
{
	void *p = mmap(NULL, (DATA_PAGES + 1) * page, PROT_READ, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * The numbers of the sys_enter_write records in backward buffer @base
 * written since head @from (a backward head counts down): the count
 * argument, at offset 24 of the raw data (common fields 8, nr 8, fd 8,
 * buf 8 -> count is the 4th u64 after the 8 bytes of common fields).
 */
static unsigned long long read_numbers(void *base, unsigned long long from,
				       unsigned char *seen, unsigned long long max)
{
	struct perf_event_mmap_page *pg = base;
	unsigned long long head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	unsigned long long size = DATA_PAGES * page, off = head, n = 0;
	char *data = (char *)base + page;

	/* Only what was written since @from, and at most a buffer's length. */
	if (max && from - head > size)
		overflows++;
	while (off != from && from - off <= size) {
		struct perf_event_header h;
		unsigned long long v;
		unsigned int rawsz;
		unsigned short type;
		char rec[512];

		for (unsigned int i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = data[(off + i) % size];
		if (!h.size || h.size > sizeof(rec) || from - off < h.size)
			break;
		for (unsigned int i = 0; i < h.size; i++)
			rec[i] = data[(off + i) % size];
		off += h.size;
		if (h.type != PERF_RECORD_SAMPLE)
			continue;
		/* header, time, raw size, raw: common (8), nr, fd, buf, count */
		memcpy(&rawsz, rec + 16, 4);
		if (rawsz < 8 + 32)
			continue;
		/* Only sys_enter_write's: its type is the raw data's first field. */
		memcpy(&type, rec + 20, 2);
		if (type != write_id)
			continue;
		memcpy(&v, rec + 20 + 8 + 24, 8);
		if (v < max && seen[v] < 255)
			seen[v]++;
		n++;
	}
	return head;
}

static void *writer(void *arg)
{
	unsigned long long *count = arg;
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(0, &one);
	sched_setaffinity(0, sizeof(one), &one);
	while (!stop)
		syscall(SYS_write, -1, NULL, ++*count);
	return NULL;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static void print_times(const char *what, unsigned long long *t, int n)
{
	qsort(t, n, sizeof(*t), cmp_ull);
	printf("%-44s median %8.3f ms, max %8.3f ms (%d moves)\n", what,
	       t[n / 2] / 1e6, t[n - 1] / 1e6, n);
}

int main(int argc, char **argv)
{
	int moves = argc > 1 ? atoi(argv[1]) : 200, nev = argc > 2 ? atoi(argv[2]) : 4;
	int dummy = argc > 3 && !strcmp(argv[3], "dummy"), flag = dummy ? 0 : PERF_IOC_FLAG_GROUP;
	int la, lb;
	const char *more[] = { "syscalls/sys_exit_write", "raw_syscalls/sys_enter",
			       "raw_syscalls/sys_exit", "sched/sched_switch",
			       "syscalls/sys_enter_read", "syscalls/sys_exit_read",
			       "sched/sched_wakeup" };
	int id = write_id = tp_id("syscalls/sys_enter_write");
	int a[MAX_EVENTS], b[MAX_EVENTS], ids[MAX_EVENTS];
	unsigned long long *t, count = 0, ha, hb, max, lost = 0, doubled = 0, last;
	unsigned char *seen;
	void *ma, *mb;
	pthread_t th;
	cpu_set_t other;

	page = sysconf(_SC_PAGESIZE);
	if (id < 0 || sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "needs root, tracefs mounted and 2 CPUs\n");
		return 1;
	}
	if (nev < 1 || nev > MAX_EVENTS)
		nev = 4;
	ids[0] = id;
	for (int k = 1; k < nev; k++)
		ids[k] = tp_id(more[k - 1]);
	CPU_ZERO(&other);
	CPU_SET(1, &other);
	sched_setaffinity(0, sizeof(other), &other);
	t = calloc(moves, sizeof(*t));

	/* Twins: group A enabled, writing into A's leader's buffer; B disabled. */
	la = lb = -1;
	if (dummy) {
		la = open_dummy(0);
		lb = open_dummy(1);
	}
	for (int k = 0; k < nev; k++) {
		int ga = dummy ? la : k ? a[0] : -1, gb = dummy ? lb : k ? b[0] : -1;


		a[k] = open_tp(ids[k], ga, 0);
		b[k] = open_tp(ids[k], gb, dummy ? 0 : !k);
		if (a[k] < 0 || b[k] < 0) {
			perror("perf_event_open");
			return 1;
		}
	}
	if (!dummy) {
		la = a[0];
		lb = b[0];
	}
	ma = map_buffer(la);
	mb = map_buffer(lb);
	if (!ma || !mb) {
		perror("mmap");
		return 1;
	}
	/* The members write into their leader's buffer, which must exist first. */
	for (int k = !dummy; k < nev; k++) {
		if (ioctl(a[k], PERF_EVENT_IOC_SET_OUTPUT, la) < 0 ||
		    ioctl(b[k], PERF_EVENT_IOC_SET_OUTPUT, lb) < 0) {
			perror("SET_OUTPUT to the leader");
			return 1;
		}
	}
	ha = hb = 0;
	pthread_create(&th, NULL, writer, &count);
	usleep(20000);
	/* The numbers written from the first move to the last one's reading. */
	max = 1ULL << 26;
	seen = calloc(max, 1);
	ha = read_numbers(ma, ha, seen, 0);
	last = __atomic_load_n(&count, __ATOMIC_RELAXED);
	for (int i = 0; i < moves; i++) {
		int on = i & 1 ? la : lb, off = i & 1 ? lb : la;
		unsigned long long t0 = now_ns();

		ioctl(on, PERF_EVENT_IOC_ENABLE, flag);
		ioctl(off, PERF_EVENT_IOC_DISABLE, flag);
		t[i] = now_ns() - t0;
		/* The buffer left has no writer: read all it took. */
		if (i & 1)
			hb = read_numbers(mb, hb, seen, max);
		else
			ha = read_numbers(ma, ha, seen, max);
		usleep(2000);
	}
	stop = 1;
	pthread_join(th, NULL);
	ioctl(la, PERF_EVENT_IOC_DISABLE, flag);
	ioctl(lb, PERF_EVENT_IOC_DISABLE, flag);
	ha = read_numbers(ma, ha, seen, max);
	hb = read_numbers(mb, hb, seen, max);
	for (unsigned long long v = last + 1; v <= count && v < max; v++) {
		lost += !seen[v];
		doubled += seen[v] > 1;
	}
	printf("twins%s, %d events in a group: %llu writes, %llu in neither buffer, %llu in both"
	       " (%d reads came after a buffer's length of writes: their losses are the reader's)\n",
	       dummy ? " under a dummy leader" : "", nev, count - last, lost, doubled, overflows);
	print_times(dummy ? "twins: ENABLE B leader + DISABLE A leader:" :
		    "twins: ENABLE B group + DISABLE A group:", t, moves);

	/* PAUSE_OUTPUT of the buffer, on and off. */
	ioctl(la, PERF_EVENT_IOC_ENABLE, flag);
	for (int i = 0; i < moves; i++) {
		unsigned long long t0 = now_ns();

		ioctl(la, PERF_EVENT_IOC_PAUSE_OUTPUT, !(i & 1));
		t[i] = now_ns() - t0;
	}
	print_times("pause: one PAUSE_OUTPUT:", t, moves);

	/* SET_OUTPUT of one event without a mapping between the two buffers. */
	if (nev < 2) {
		printf("set-output: needs EVENTS >= 2 (an event without a mapping of its own)\n");
		return 0;
	}
	for (int i = 0; i < moves && i < 40; i++) {
		unsigned long long t0 = now_ns();

		if (ioctl(a[nev - 1], PERF_EVENT_IOC_SET_OUTPUT,
			  i & 1 ? la : lb) < 0) {
			printf("set-output: %s\n", strerror(errno));
			break;
		}
		t[i] = now_ns() - t0;
		if (i == (moves < 40 ? moves : 40) - 1)
			print_times("set-output: one event's SET_OUTPUT:", t, i + 1);
	}
	return 0;
}
