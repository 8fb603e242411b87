/*
 * The process table writes a process before its threads, whatever order
 * its hash holds them in: records from /proc all have time 0, so a reader
 * applies them in file order, and one that meets a thread first gives it
 * maps that the process's own FORK then replaces.
 */
#include <stdio.h>
#include <stdlib.h>
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

/*
 * The records of a dump come out in time order, as a reader applies them
 * (one that flushes what it sorted and then meets an older record cannot
 * go back): the time-0 ones from /proc first, in the order above, then
 * the rest by time, whatever the task and however they were read.  Each
 * test record carries its own time: a FORK's or EXIT's field, a COMM's
 * name, a KSYMBOL's address.
 */
static int add_at(struct sideband *sb, u32 type, u32 pid, u32 tid, u32 ppid, u64 t)
{
	union perf_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.header.type = type;
	if (type == PERF_RECORD_COMM) {
		ev.comm.header.size = sizeof(ev.comm) + 8;
		ev.comm.pid = pid;
		ev.comm.tid = tid;
		snprintf(ev.comm.comm, sizeof(ev.comm.comm), "t%llu", (unsigned long long)t);
	} else if (type == PERF_RECORD_KSYMBOL) {
		ev.ksymbol.header.size = sizeof(ev.ksymbol) + 16;
		ev.ksymbol.addr = t;
		ev.ksymbol.len = 64;
		strcpy(ev.ksymbol.name, "bpf_prog_x");
	} else {
		ev.fork.header.size = sizeof(ev.fork);
		ev.fork.pid = pid;
		ev.fork.tid = tid;
		ev.fork.ppid = ev.fork.ptid = ppid;
		ev.fork.time = t;
	}
	return sideband__add(sb, &ev, t);
}

struct timed {
	int n;
	u64 time[64];
	u32 tid[64];
};

static int note_time(void *arg, union perf_event *event)
{
	struct timed *o = arg;
	u64 t;

	if (event->header.type == PERF_RECORD_COMM)
		t = strtoull(event->comm.comm + 1, NULL, 10);
	else if (event->header.type == PERF_RECORD_KSYMBOL)
		t = event->ksymbol.addr;
	else
		t = event->fork.time;
	if (o->n < 64) {
		o->time[o->n] = t;
		o->tid[o->n] = event->header.type == PERF_RECORD_KSYMBOL ? 0 :
			       event->header.type == PERF_RECORD_COMM ? event->comm.tid :
			       event->fork.tid;
	}
	o->n++;
	return 0;
}

static int test__sideband_time_order(void)
{
	struct sideband *sb = sideband__new(16 << 20);
	struct timed o = { .n = 0 };
	int at20 = -1, at21 = -1;
	u64 tasks;

	TEST_ASSERT_VAL("new", sb);
	/* From /proc: a shell 10, its process 20 with a thread 21 (read first). */
	TEST_ASSERT_EQUAL("shell", add_at(sb, PERF_RECORD_FORK, 10, 10, 1, 0), 0);
	TEST_ASSERT_EQUAL("shell comm", add_at(sb, PERF_RECORD_COMM, 10, 10, 0, 0), 0);
	TEST_ASSERT_EQUAL("thread", add_at(sb, PERF_RECORD_FORK, 20, 21, 20, 0), 0);
	TEST_ASSERT_EQUAL("process", add_at(sb, PERF_RECORD_FORK, 20, 20, 10, 0), 0);
	/* Recorded: 30 forked at 300, read before 40, forked at 200 on another CPU. */
	TEST_ASSERT_EQUAL("30", add_at(sb, PERF_RECORD_FORK, 30, 30, 10, 300), 0);
	TEST_ASSERT_EQUAL("30 exec", add_at(sb, PERF_RECORD_COMM, 30, 30, 0, 301), 0);
	TEST_ASSERT_EQUAL("30 thread", add_at(sb, PERF_RECORD_FORK, 30, 31, 30, 320), 0);
	TEST_ASSERT_EQUAL("30 exit", add_at(sb, PERF_RECORD_EXIT, 30, 30, 10, 390), 0);
	TEST_ASSERT_EQUAL("40", add_at(sb, PERF_RECORD_FORK, 40, 40, 10, 200), 0);
	TEST_ASSERT_EQUAL("40 exec", add_at(sb, PERF_RECORD_COMM, 40, 40, 0, 250), 0);
	TEST_ASSERT_EQUAL("40 exit", add_at(sb, PERF_RECORD_EXIT, 40, 40, 10, 350), 0);
	/* A program loaded at 330, and one loaded before recording (time 0) read last. */
	TEST_ASSERT_EQUAL("jit", add_at(sb, PERF_RECORD_KSYMBOL, 0, 0, 0, 330), 0);
	TEST_ASSERT_EQUAL("old jit", add_at(sb, PERF_RECORD_KSYMBOL, 0, 0, 0, 0), 0);

	TEST_ASSERT_EQUAL("emit", sideband__emit(sb, 0, ~0ULL, note_time, &o, &tasks), 0);
	TEST_ASSERT_EQUAL("every task", tasks, 6);
	TEST_ASSERT_EQUAL("every record", o.n, 13);
	for (int i = 1; i < o.n; i++) {
		if (o.time[i] < o.time[i - 1]) {
			fprintf(stderr, "record %d of time %llu after one of time %llu\n", i,
				(unsigned long long)o.time[i], (unsigned long long)o.time[i - 1]);
			return TEST_FAIL;
		}
	}
	for (int i = 0; i < o.n; i++) {
		if (o.time[i] == 0 && o.tid[i] == 20 && at20 < 0)
			at20 = i;
		if (o.time[i] == 0 && o.tid[i] == 21 && at21 < 0)
			at21 = i;
	}
	TEST_ASSERT_VAL("the process before its thread", at20 >= 0 && at20 < at21);
	sideband__delete(sb);
	return TEST_OK;
}
DEFINE_SUITE(sideband_time_order, "Flight recorder process table: a dump's records in time order, those from /proc first");
