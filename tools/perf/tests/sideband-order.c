/*
 * The process table writes a process before its threads, whatever order
 * its hash holds them in: records from /proc all have time 0, so a reader
 * applies them in file order, and one that meets a thread first gives it
 * maps that the process's own FORK then replaces.
 */
#include <string.h>
#include "tests.h"
#include "util/sideband.h"

#define NR_THREADS 40

static int add_task(struct sideband *sb, u32 pid, u32 tid, u32 ppid, u32 ptid)
{
	union perf_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.fork.header.type = PERF_RECORD_FORK;
	ev.fork.header.size = sizeof(ev.fork);
	ev.fork.pid = pid;
	ev.fork.tid = tid;
	ev.fork.ppid = ppid;
	ev.fork.ptid = ptid;
	if (sideband__add(sb, &ev, 0))
		return -1;
	memset(&ev, 0, sizeof(ev));
	ev.comm.header.type = PERF_RECORD_COMM;
	ev.comm.header.size = sizeof(ev.comm) + 8;
	ev.comm.pid = pid;
	ev.comm.tid = tid;
	strcpy(ev.comm.comm, "wl");
	return sideband__add(sb, &ev, 0);
}

struct order {
	int n;
	int first[1024];	/* index of each tid's first record, -1 if none */
};

static int note(void *arg, union perf_event *event)
{
	struct order *o = arg;
	u32 tid = event->header.type == PERF_RECORD_COMM ? event->comm.tid : event->fork.tid;

	if (tid < 1024 && o->first[tid] < 0)
		o->first[tid] = o->n;
	o->n++;
	return 0;
}

static int test__sideband_order(void)
{
	struct sideband *sb = sideband__new(16 << 20);
	struct order o;
	u64 tasks;

	TEST_ASSERT_VAL("new", sb);
	/* A shell 100 and a process 200 with threads 201..240, seeded from /proc (time 0). */
	TEST_ASSERT_EQUAL("shell", add_task(sb, 100, 100, 1, 1), 0);
	for (u32 t = 201; t < 201 + NR_THREADS; t++)
		TEST_ASSERT_EQUAL("thread", add_task(sb, 200, t, 200, 200), 0);
	TEST_ASSERT_EQUAL("process", add_task(sb, 200, 200, 100, 100), 0);

	memset(&o, 0, sizeof(o));
	memset(o.first, -1, sizeof(o.first));
	TEST_ASSERT_EQUAL("emit", sideband__emit(sb, 0, ~0ULL, note, &o, &tasks), 0);
	TEST_ASSERT_EQUAL("every task", tasks, NR_THREADS + 2);
	TEST_ASSERT_VAL("the process is written", o.first[200] >= 0);
	for (u32 t = 201; t < 201 + NR_THREADS; t++) {
		if (o.first[t] < o.first[200]) {
			fprintf(stderr, "thread %u written at %d, before its process at %d\n", t,
				o.first[t], o.first[200]);
			return TEST_FAIL;
		}
	}
	sideband__delete(sb);
	return TEST_OK;
}
DEFINE_SUITE(sideband_order, "Flight recorder process table: a process is written before its threads");
